/* limits.h: pegbind's own, target-aware (C11 7.10, 5.2.4.2.1), in the place of the compiler's.

   As gcc's, it reads the C library's limits.h first (POSIX limits such as
   PATH_MAX come from there, and MB_LEN_MAX), then states the C limits of
   the target itself.  _GCC_LIMITS_H_ tells glibc's limits.h that the
   compiler's part is being read already. */
#ifndef __PEGBIND_LIMITS_H
#define __PEGBIND_LIMITS_H
#define _GCC_LIMITS_H_

#if __has_include_next(<limits.h>)
#include_next <limits.h>
#endif

#undef CHAR_BIT
#define CHAR_BIT 8
#ifndef MB_LEN_MAX
#define MB_LEN_MAX 1
#endif

#undef SCHAR_MIN
#undef SCHAR_MAX
#undef UCHAR_MAX
#undef CHAR_MIN
#undef CHAR_MAX
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

#undef SHRT_MIN
#undef SHRT_MAX
#undef USHRT_MAX
#undef INT_MIN
#undef INT_MAX
#undef UINT_MAX
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U

#undef LONG_MIN
#undef LONG_MAX
#undef ULONG_MAX
#if __SIZEOF_LONG__ == 8
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#else
#define LONG_MAX 2147483647L
#define ULONG_MAX 4294967295UL
#endif
#define LONG_MIN (-LONG_MAX - 1L)

#undef LLONG_MIN
#undef LLONG_MAX
#undef ULLONG_MAX
#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX 18446744073709551615ULL

#endif /* __PEGBIND_LIMITS_H */
