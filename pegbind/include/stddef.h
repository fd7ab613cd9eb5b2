/* stddef.h: pegbind's own, target-aware (C11 7.19), in the place of the compiler's.

   The C library's headers ask for single names through gcc's protocol:
   #define __need_size_t (or __need_NULL, __need_wchar_t, __need_wint_t,
   __need_ptrdiff_t) and include this file, which then declares only those.
   Included plainly, it declares everything but wint_t, as gcc's does. */
#if !defined(__need_size_t) && !defined(__need_ptrdiff_t) && !defined(__need_wchar_t) \
    && !defined(__need_wint_t) && !defined(__need_NULL)
#define __PEGBIND_STDDEF_ALL
#define _STDDEF_H
#endif

/* The types follow the compiler's predefined spellings, so every target
   gets its own data model (LP64, ILP32 or LLP64) from one text. */
#if (defined(__PEGBIND_STDDEF_ALL) || defined(__need_size_t)) && !defined(__PEGBIND_SIZE_T)
#define __PEGBIND_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#if (defined(__PEGBIND_STDDEF_ALL) || defined(__need_ptrdiff_t)) && !defined(__PEGBIND_PTRDIFF_T)
#define __PEGBIND_PTRDIFF_T
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#if (defined(__PEGBIND_STDDEF_ALL) || defined(__need_wchar_t)) && !defined(__PEGBIND_WCHAR_T)
#define __PEGBIND_WCHAR_T
typedef __WCHAR_TYPE__ wchar_t;
#endif
#if defined(__need_wint_t) && !defined(__PEGBIND_WINT_T)
#define __PEGBIND_WINT_T
typedef __WINT_TYPE__ wint_t;
#endif
#if defined(__PEGBIND_STDDEF_ALL) || defined(__need_NULL)
#undef NULL
#define NULL ((void *)0)
#endif

#if defined(__PEGBIND_STDDEF_ALL) && !defined(__PEGBIND_STDDEF_REST)
#define __PEGBIND_STDDEF_REST
/* The strictest fundamental alignment.  Inside records i386 aligns long long
   and long double to 4 only, so the members carry their full alignment
   explicitly; i386 also reserves a 16-aligned slot for __float128. */
typedef struct {
  long long __max_align_ll __attribute__((__aligned__(__alignof__(long long))));
  long double __max_align_ld __attribute__((__aligned__(__alignof__(long double))));
#ifdef __i386__
  unsigned char __max_align_f128[16] __attribute__((__aligned__(16)));
#endif
} max_align_t;

#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

#undef __PEGBIND_STDDEF_ALL
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_wint_t
#undef __need_NULL
