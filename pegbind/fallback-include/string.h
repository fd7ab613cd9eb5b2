/* string.h: pegbind's own compact version (C11 7.24, POSIX basics). */
#ifndef __PEGBIND_STRING_H
#define __PEGBIND_STRING_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_NULL
#include <_pegbind_types.h>

void *memcpy(void *__restrict __dest, const void *__restrict __src, size_t __n);
void *memmove(void *__dest, const void *__src, size_t __n);
void *memset(void *__s, int __c, size_t __n);
int memcmp(const void *__s1, const void *__s2, size_t __n);
void *memchr(const void *__s, int __c, size_t __n);
char *strcpy(char *__restrict __dest, const char *__restrict __src);
char *strncpy(char *__restrict __dest, const char *__restrict __src, size_t __n);
char *strcat(char *__restrict __dest, const char *__restrict __src);
char *strncat(char *__restrict __dest, const char *__restrict __src, size_t __n);
int strcmp(const char *__s1, const char *__s2);
int strncmp(const char *__s1, const char *__s2, size_t __n);
int strcoll(const char *__s1, const char *__s2);
size_t strxfrm(char *__restrict __dest, const char *__restrict __src, size_t __n);
char *strchr(const char *__s, int __c);
char *strrchr(const char *__s, int __c);
size_t strcspn(const char *__s, const char *__reject);
size_t strspn(const char *__s, const char *__accept);
char *strpbrk(const char *__s, const char *__accept);
char *strstr(const char *__haystack, const char *__needle);
char *strtok(char *__restrict __s, const char *__restrict __delim);
size_t strlen(const char *__s);
char *strerror(int __errnum);
#ifndef _WIN32
size_t strnlen(const char *__s, size_t __maxlen);
char *strdup(const char *__s);
char *strndup(const char *__s, size_t __n);
char *strtok_r(char *__restrict __s, const char *__restrict __delim, char **__restrict __save_ptr);
char *strsignal(int __sig);
char *stpcpy(char *__restrict __dest, const char *__restrict __src);
#endif

#endif /* __PEGBIND_STRING_H */
