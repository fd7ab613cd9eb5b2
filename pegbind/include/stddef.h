/* stddef.h: pegbind's own compact, target-aware version (C11 7.19). */
#ifndef __PEGBIND_STDDEF_H
#define __PEGBIND_STDDEF_H

/* The types follow the compiler's predefined spellings, so every target
   gets its own data model (LP64, ILP32 or LLP64) from one text. */
#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_wchar_t
#define __PEGBIND_NEED_NULL
#include <_pegbind_types.h>
typedef __PTRDIFF_TYPE__ ptrdiff_t;

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

#endif /* __PEGBIND_STDDEF_H */

/* System headers ask for single names with __need_*; we give them all. */
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_wint_t
#undef __need_NULL
#undef __need_max_align_t
#undef __need_offsetof
