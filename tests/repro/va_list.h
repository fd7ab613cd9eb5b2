/* Cause 1: va_list used to break the Cython backend ('_c___builtin_va_list'
   is not a type identifier), and a left-out function left its types behind. */
#include <stdarg.h>
#include <stdio.h>

int vlog(const char *format, va_list args);
int add(int a, int b);

/* va_list in a type the library declares for itself: every backend must spell it. */
typedef void (*log_sink)(const char *format, va_list args);
typedef va_list log_args;
struct logger {
    log_sink sink;
    int level;
};
int logger_level(const struct logger *logger);
