/* stdint.h: pegbind's own, target-aware (C11 7.20), in the place of the compiler's.

   On a hosted target the C library's stdint.h is the one read, as gcc's
   stdint.h does it (it only includes the next one); this file defines the
   types and limits itself only where no C library header is found. */
#ifndef __PEGBIND_STDINT_H
#define __PEGBIND_STDINT_H

#if __STDC_HOSTED__ && __has_include_next(<stdint.h>)
#include_next <stdint.h>
#else

/* Exact-width types.  64 bits is long on LP64 and long long elsewhere, as
   the compiler's __INT64_TYPE__ says; sys/types.h shares the signed ones. */
#define __PEGBIND_NEED_intN_t
#define __PEGBIND_NEED_uintN_t
#include <_pegbind_types.h>

typedef signed char int_least8_t;
typedef short int_least16_t;
typedef int int_least32_t;
__extension__ typedef __INT64_TYPE__ int_least64_t;
typedef unsigned char uint_least8_t;
typedef unsigned short uint_least16_t;
typedef unsigned int uint_least32_t;
__extension__ typedef __UINT64_TYPE__ uint_least64_t;

/* "Fast" types: glibc widens 16 and 32 bits to a machine word; Windows
   keeps short and int. */
#if defined(_WIN32)
#define __PEGBIND_FAST16 short
#define __PEGBIND_FAST32 int
#elif __SIZEOF_LONG__ == 8
#define __PEGBIND_FAST16 long
#define __PEGBIND_FAST32 long
#else
#define __PEGBIND_FAST16 int
#define __PEGBIND_FAST32 int
#endif
typedef signed char int_fast8_t;
typedef __PEGBIND_FAST16 int_fast16_t;
typedef __PEGBIND_FAST32 int_fast32_t;
__extension__ typedef __INT64_TYPE__ int_fast64_t;
typedef unsigned char uint_fast8_t;
typedef unsigned __PEGBIND_FAST16 uint_fast16_t;
typedef unsigned __PEGBIND_FAST32 uint_fast32_t;
__extension__ typedef __UINT64_TYPE__ uint_fast64_t;

#ifndef __PEGBIND_INTPTR_T
#define __PEGBIND_INTPTR_T
typedef __INTPTR_TYPE__ intptr_t;
#endif
typedef __UINTPTR_TYPE__ uintptr_t;
__extension__ typedef __INT64_TYPE__ intmax_t;
__extension__ typedef __UINT64_TYPE__ uintmax_t;

/* Integer constant macros (C11 7.20.4): the suffix gives the type. */
#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c ## U
#if __SIZEOF_LONG__ == 8
#define INT64_C(c) c ## L
#define UINT64_C(c) c ## UL
#else
#define INT64_C(c) c ## LL
#define UINT64_C(c) c ## ULL
#endif
#define INTMAX_C(c) INT64_C(c)
#define UINTMAX_C(c) UINT64_C(c)

/* Limits (C11 7.20.2); the *_MIN values avoid a literal that does not fit. */
#define INT8_MIN (-128)
#define INT16_MIN (-32767 - 1)
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-INT64_C(9223372036854775807) - 1)
#define INT8_MAX (127)
#define INT16_MAX (32767)
#define INT32_MAX (2147483647)
#define INT64_MAX (INT64_C(9223372036854775807))
#define UINT8_MAX (255)
#define UINT16_MAX (65535)
#define UINT32_MAX (4294967295U)
#define UINT64_MAX (UINT64_C(18446744073709551615))

#define INT_LEAST8_MIN INT8_MIN
#define INT_LEAST16_MIN INT16_MIN
#define INT_LEAST32_MIN INT32_MIN
#define INT_LEAST64_MIN INT64_MIN
#define INT_LEAST8_MAX INT8_MAX
#define INT_LEAST16_MAX INT16_MAX
#define INT_LEAST32_MAX INT32_MAX
#define INT_LEAST64_MAX INT64_MAX
#define UINT_LEAST8_MAX UINT8_MAX
#define UINT_LEAST16_MAX UINT16_MAX
#define UINT_LEAST32_MAX UINT32_MAX
#define UINT_LEAST64_MAX UINT64_MAX

/* Word-sized values: long on LP64, int on ILP32, long long on LLP64. */
#if __SIZEOF_LONG__ == 8
#define __PEGBIND_WORD_MIN (-9223372036854775807L - 1)
#define __PEGBIND_WORD_MAX (9223372036854775807L)
#define __PEGBIND_UWORD_MAX (18446744073709551615UL)
#elif __SIZEOF_POINTER__ == 8
#define __PEGBIND_WORD_MIN (-9223372036854775807LL - 1)
#define __PEGBIND_WORD_MAX (9223372036854775807LL)
#define __PEGBIND_UWORD_MAX (18446744073709551615ULL)
#else
#define __PEGBIND_WORD_MIN (-2147483647 - 1)
#define __PEGBIND_WORD_MAX (2147483647)
#define __PEGBIND_UWORD_MAX (4294967295U)
#endif

#define INT_FAST8_MIN INT8_MIN
#define INT_FAST64_MIN INT64_MIN
#define INT_FAST8_MAX INT8_MAX
#define INT_FAST64_MAX INT64_MAX
#define UINT_FAST8_MAX UINT8_MAX
#define UINT_FAST64_MAX UINT64_MAX
#if defined(_WIN32)
#define INT_FAST16_MIN INT16_MIN
#define INT_FAST16_MAX INT16_MAX
#define UINT_FAST16_MAX UINT16_MAX
#define INT_FAST32_MIN INT32_MIN
#define INT_FAST32_MAX INT32_MAX
#define UINT_FAST32_MAX UINT32_MAX
#else
#define INT_FAST16_MIN __PEGBIND_WORD_MIN
#define INT_FAST16_MAX __PEGBIND_WORD_MAX
#define UINT_FAST16_MAX __PEGBIND_UWORD_MAX
#define INT_FAST32_MIN __PEGBIND_WORD_MIN
#define INT_FAST32_MAX __PEGBIND_WORD_MAX
#define UINT_FAST32_MAX __PEGBIND_UWORD_MAX
#endif

#define INTPTR_MIN __PEGBIND_WORD_MIN
#define INTPTR_MAX __PEGBIND_WORD_MAX
#define UINTPTR_MAX __PEGBIND_UWORD_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX

#define PTRDIFF_MIN __PEGBIND_WORD_MIN
#define PTRDIFF_MAX __PEGBIND_WORD_MAX
#define SIZE_MAX __PEGBIND_UWORD_MAX
#define SIG_ATOMIC_MIN (-2147483647 - 1)
#define SIG_ATOMIC_MAX (2147483647)
#define WCHAR_MIN __WCHAR_MIN__
#define WCHAR_MAX __WCHAR_MAX__
#ifdef _WIN32
#define WINT_MIN 0
#define WINT_MAX 65535
#else
#define WINT_MIN (0U)
#define WINT_MAX (4294967295U)
#endif

#endif /* no C library stdint.h */
#endif /* __PEGBIND_STDINT_H */
