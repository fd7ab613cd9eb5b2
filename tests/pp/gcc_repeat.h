/* Repeated inclusion of a guard-less file (as NSS's pkcs11f.h), inside struct bodies. */
#include "guarded.h"
#include "once.h"
#define ITEM(n) int n;
struct one {
#include "repeat_body.h"
};
#undef ITEM
#define ITEM(n) void n(void);
#include "repeat_body.h"
#undef ITEM
#define ITEM(n) int (*n)(void);
struct two {
#include "repeat_body.h"
};
#include "guarded.h"
#include "once.h"
#include "./once.h"
#define HDR "repeat_body.h"
#undef ITEM
#define ITEM(n) char n;
#include HDR
#define ANGLE <guarded.h>
#include ANGLE
int line = __LINE__; const char *counter[] = { "a", __COUNTER__, __COUNTER__ };
int level = __INCLUDE_LEVEL__;
