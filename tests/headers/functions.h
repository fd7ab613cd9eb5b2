// pegbind-flags:
/* Function declarations: variadic, (void), arrays, function pointers, unnamed, qualifiers, noise. */
#include <stddef.h>
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

int log_message(const char *format, ...) __attribute__((format(printf, 1, 2)));
int vlog_message(const char *format, va_list args);
void shutdown(void);
int first_of(int values[8], size_t n);
double integrate(double (*f)(double), double from, double to);
void (*signal_like(int sig, void (*handler)(int)))(int);
int unnamed(int, char *, const void *);
extern int verbose_level;
extern const char *const program_name;
static inline int twice(int x) { return 2 * x; }
__extension__ typedef long long llong_ext;
char *copy_into(char *__restrict dst, const char *__restrict src, size_t n);
_Noreturn void die(const char *why);
void set_matrix(int rows, int cols, double m[rows][cols]);
int __attribute__((visibility("default"))) visible(void);
extern __inline int gnu_inline(void) __asm__("real_name");

#ifdef __cplusplus
}
#endif
