/* uchar.h: pegbind's own compact version (C11 7.28). */
#ifndef __PEGBIND_UCHAR_H
#define __PEGBIND_UCHAR_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_mbstate_t
#include <_pegbind_types.h>

typedef unsigned short char16_t;
typedef unsigned int char32_t;

size_t mbrtoc16(char16_t *__restrict __pc16, const char *__restrict __s, size_t __n, mbstate_t *__restrict __p);
size_t c16rtomb(char *__restrict __s, char16_t __c16, mbstate_t *__restrict __ps);
size_t mbrtoc32(char32_t *__restrict __pc32, const char *__restrict __s, size_t __n, mbstate_t *__restrict __p);
size_t c32rtomb(char *__restrict __s, char32_t __c32, mbstate_t *__restrict __ps);

#endif /* __PEGBIND_UCHAR_H */
