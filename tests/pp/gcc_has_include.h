/* __has_include and the other __has_* operators. */
#if __has_include("guarded.h") && __has_include(<stddef.h>) && !__has_include("no_such_file.h")
int has_include_ok;
#endif
#if defined(__has_include) && defined __has_attribute
int has_operators_defined;
#endif
#if __has_attribute(packed) && __has_attribute(__aligned__) && !__has_attribute(no_such_attribute)
int has_attribute_ok;
#endif
#define HEADER "guarded.h"
#if __has_include(HEADER)
#include HEADER
#endif
