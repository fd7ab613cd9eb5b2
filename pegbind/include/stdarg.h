/* stdarg.h: pegbind's own (C11 7.16), in the place of the compiler's.

   The layout of va_list belongs to the target's calling convention (a
   24-byte one-element array of __va_list_tag on x86_64, a plain pointer on
   i386, a 32-byte record on aarch64), so it stays the builtin type.  The C
   library's headers ask for __gnuc_va_list alone by defining __need___va_list
   first, as gcc's stdarg.h allows. */
#ifndef __GNUC_VA_LIST
#define __GNUC_VA_LIST
typedef __builtin_va_list __gnuc_va_list;
#endif

#if !defined(__need___va_list) && !defined(_STDARG_H)
#define _STDARG_H
#define _ANSI_STDARG_H_
typedef __gnuc_va_list va_list;

#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_end(ap) __builtin_va_end(ap)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_copy(dest, src) __builtin_va_copy(dest, src)
#endif

#undef __need___va_list
