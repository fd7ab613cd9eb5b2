/* stdlib.h: pegbind's own compact, target-aware version (C11 7.22). */
#ifndef __PEGBIND_STDLIB_H
#define __PEGBIND_STDLIB_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_wchar_t
#define __PEGBIND_NEED_NULL
#include <_pegbind_types.h>

typedef struct {
  int quot;
  int rem;
} div_t;
typedef struct {
  long quot;
  long rem;
} ldiv_t;
__extension__ typedef struct {
  long long quot;
  long long rem;
} lldiv_t;

#define EXIT_FAILURE 1
#define EXIT_SUCCESS 0
#ifdef _WIN32
#define RAND_MAX 0x7fff
int ___mb_cur_max_func(void);
#define MB_CUR_MAX (___mb_cur_max_func())
#else
#define RAND_MAX 2147483647
size_t __ctype_get_mb_cur_max(void);
#define MB_CUR_MAX (__ctype_get_mb_cur_max())
#endif

double atof(const char *__nptr);
int atoi(const char *__nptr);
long atol(const char *__nptr);
__extension__ long long atoll(const char *__nptr);
double strtod(const char *__restrict __nptr, char **__restrict __endptr);
float strtof(const char *__restrict __nptr, char **__restrict __endptr);
long double strtold(const char *__restrict __nptr, char **__restrict __endptr);
long strtol(const char *__restrict __nptr, char **__restrict __endptr, int __base);
__extension__ long long strtoll(const char *__restrict __nptr, char **__restrict __endptr, int __base);
unsigned long strtoul(const char *__restrict __nptr, char **__restrict __endptr, int __base);
__extension__ unsigned long long strtoull(const char *__restrict __nptr, char **__restrict __endptr, int __base);
int rand(void);
void srand(unsigned int __seed);
void *aligned_alloc(size_t __alignment, size_t __size);
void *calloc(size_t __nmemb, size_t __size);
void free(void *__ptr);
void *malloc(size_t __size);
void *realloc(void *__ptr, size_t __size);
void abort(void) __attribute__((__noreturn__));
int atexit(void (*__func)(void));
void exit(int __status) __attribute__((__noreturn__));
void _Exit(int __status) __attribute__((__noreturn__));
char *getenv(const char *__name);
int system(const char *__command);
void *bsearch(const void *__key, const void *__base, size_t __nmemb, size_t __size,
              int (*__compar)(const void *, const void *));
void qsort(void *__base, size_t __nmemb, size_t __size, int (*__compar)(const void *, const void *));
int abs(int __x);
long labs(long __x);
__extension__ long long llabs(long long __x);
div_t div(int __numer, int __denom);
ldiv_t ldiv(long __numer, long __denom);
__extension__ lldiv_t lldiv(long long __numer, long long __denom);
int mblen(const char *__s, size_t __n);
int mbtowc(wchar_t *__restrict __pwc, const char *__restrict __s, size_t __n);
int wctomb(char *__s, wchar_t __wchar);
size_t mbstowcs(wchar_t *__restrict __pwcs, const char *__restrict __s, size_t __n);
size_t wcstombs(char *__restrict __s, const wchar_t *__restrict __pwcs, size_t __n);
#ifndef _WIN32
int setenv(const char *__name, const char *__value, int __replace);
int unsetenv(const char *__name);
int posix_memalign(void **__memptr, size_t __alignment, size_t __size);
int mkstemp(char *__template);
char *realpath(const char *__restrict __name, char *__restrict __resolved);
#endif

#endif /* __PEGBIND_STDLIB_H */
