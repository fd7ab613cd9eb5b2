/* wchar.h: pegbind's own compact, target-aware version (C11 7.29). */
#ifndef __PEGBIND_WCHAR_H
#define __PEGBIND_WCHAR_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_wchar_t
#define __PEGBIND_NEED_wint_t
#define __PEGBIND_NEED_mbstate_t
#define __PEGBIND_NEED_NULL
#include <_pegbind_types.h>

#define WCHAR_MIN __WCHAR_MIN__
#define WCHAR_MAX __WCHAR_MAX__
#ifdef _WIN32
#define WEOF ((wint_t)0xFFFF)
#else
#define WEOF (0xffffffffu)
#endif

/* Stream functions name glibc's FILE tag without declaring FILE itself. */
struct _IO_FILE;
struct tm;

size_t wcslen(const wchar_t *__s);
wchar_t *wcscpy(wchar_t *__restrict __dest, const wchar_t *__restrict __src);
wchar_t *wcsncpy(wchar_t *__restrict __dest, const wchar_t *__restrict __src, size_t __n);
wchar_t *wcscat(wchar_t *__restrict __dest, const wchar_t *__restrict __src);
wchar_t *wcsncat(wchar_t *__restrict __dest, const wchar_t *__restrict __src, size_t __n);
int wcscmp(const wchar_t *__s1, const wchar_t *__s2);
int wcsncmp(const wchar_t *__s1, const wchar_t *__s2, size_t __n);
int wcscoll(const wchar_t *__s1, const wchar_t *__s2);
size_t wcsxfrm(wchar_t *__restrict __s1, const wchar_t *__restrict __s2, size_t __n);
wchar_t *wcschr(const wchar_t *__wcs, wchar_t __wc);
wchar_t *wcsrchr(const wchar_t *__wcs, wchar_t __wc);
wchar_t *wcsstr(const wchar_t *__haystack, const wchar_t *__needle);
size_t wcsspn(const wchar_t *__wcs, const wchar_t *__accept);
size_t wcscspn(const wchar_t *__wcs, const wchar_t *__reject);
wchar_t *wmemcpy(wchar_t *__restrict __s1, const wchar_t *__restrict __s2, size_t __n);
wchar_t *wmemmove(wchar_t *__s1, const wchar_t *__s2, size_t __n);
wchar_t *wmemset(wchar_t *__s, wchar_t __c, size_t __n);
int wmemcmp(const wchar_t *__s1, const wchar_t *__s2, size_t __n);
wchar_t *wmemchr(const wchar_t *__s, wchar_t __c, size_t __n);
long wcstol(const wchar_t *__restrict __nptr, wchar_t **__restrict __endptr, int __base);
unsigned long wcstoul(const wchar_t *__restrict __nptr, wchar_t **__restrict __endptr, int __base);
double wcstod(const wchar_t *__restrict __nptr, wchar_t **__restrict __endptr);
wint_t btowc(int __c);
int wctob(wint_t __c);
int mbsinit(const mbstate_t *__ps);
size_t mbrlen(const char *__restrict __s, size_t __n, mbstate_t *__restrict __ps);
size_t mbrtowc(wchar_t *__restrict __pwc, const char *__restrict __s, size_t __n, mbstate_t *__restrict __p);
size_t wcrtomb(char *__restrict __s, wchar_t __wc, mbstate_t *__restrict __ps);
size_t mbsrtowcs(wchar_t *__restrict __dst, const char **__restrict __src, size_t __len, mbstate_t *__restrict __ps);
size_t wcsrtombs(char *__restrict __dst, const wchar_t **__restrict __src, size_t __len, mbstate_t *__restrict __ps);
size_t wcsftime(wchar_t *__restrict __s, size_t __maxsize, const wchar_t *__restrict __format,
                const struct tm *__restrict __tp);
wint_t fgetwc(struct _IO_FILE *__stream);
wint_t fputwc(wchar_t __wc, struct _IO_FILE *__stream);
int fputws(const wchar_t *__restrict __ws, struct _IO_FILE *__restrict __stream);
int fwide(struct _IO_FILE *__fp, int __mode);
int swprintf(wchar_t *__restrict __s, size_t __n, const wchar_t *__restrict __format, ...);
int wprintf(const wchar_t *__restrict __format, ...);

#endif /* __PEGBIND_WCHAR_H */
