/* limits.h: pegbind's own compact, target-aware version (C11 7.10, 5.2.4.2.1). */
#ifndef __PEGBIND_LIMITS_H
#define __PEGBIND_LIMITS_H

#define CHAR_BIT 8
#define MB_LEN_MAX 16

#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
/* Plain char is unsigned on aarch64 (and with -funsigned-char). */
#ifdef __CHAR_UNSIGNED__
#define CHAR_MIN 0
#define CHAR_MAX UCHAR_MAX
#else
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#endif

#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U

#if __SIZEOF_LONG__ == 8
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#else
#define LONG_MAX 2147483647L
#define ULONG_MAX 4294967295UL
#endif
#define LONG_MIN (-LONG_MAX - 1L)

#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX 18446744073709551615ULL

/* POSIX limits (ssize_t has the width of a pointer). */
#ifdef _WIN32
#define PATH_MAX 260
#else
#define PATH_MAX 4096
#define NAME_MAX 255
#define PIPE_BUF 4096
#endif
#if __SIZEOF_POINTER__ == 8 && __SIZEOF_LONG__ == 8
#define SSIZE_MAX LONG_MAX
#elif __SIZEOF_POINTER__ == 8
#define SSIZE_MAX LLONG_MAX
#else
#define SSIZE_MAX INT_MAX
#endif

#endif /* __PEGBIND_LIMITS_H */
