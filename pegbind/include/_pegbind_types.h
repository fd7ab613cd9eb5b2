/* _pegbind_types.h: pegbind's own compact, target-aware shared type definitions. */
/* Not a standard header: stdint.h and the bundled fallback of the C library's
   headers (pegbind/fallback-include) set __PEGBIND_NEED_<name> and
   include this file to get exactly the types they must declare.  It has no
   include guard because it is included many times, each time for different
   names; every definition has its own guard instead.  Where glibc guards the
   same definition (__time_t_defined, _STRUCT_TIMESPEC ...), the guard is
   glibc's name, so system headers read after ours do not define it again. */

#ifdef __PEGBIND_NEED_struct_timespec
#define __PEGBIND_NEED_time_t
#endif
#ifdef __PEGBIND_NEED_struct_timeval
#define __PEGBIND_NEED_time_t
#endif
#ifdef __PEGBIND_NEED_struct_timeval
#define __PEGBIND_NEED_suseconds_t
#endif
#ifdef __PEGBIND_NEED_struct_iovec
#define __PEGBIND_NEED_size_t
#endif
#if defined(__PEGBIND_NEED_size_t) && !defined(__PEGBIND_SIZE_T)
#define __PEGBIND_SIZE_T 1
typedef __SIZE_TYPE__ size_t;
#endif
#undef __PEGBIND_NEED_size_t

#if defined(__PEGBIND_NEED_wchar_t) && !defined(__PEGBIND_WCHAR_T)
#define __PEGBIND_WCHAR_T 1
typedef __WCHAR_TYPE__ wchar_t;
#endif
#undef __PEGBIND_NEED_wchar_t

#if defined(__PEGBIND_NEED_wint_t) && !defined(__wint_t_defined)
#define __wint_t_defined 1
#ifdef _WIN32
typedef unsigned short wint_t;
#else
typedef unsigned int wint_t;
#endif
#endif
#undef __PEGBIND_NEED_wint_t

#if defined(__PEGBIND_NEED_va_list) && !defined(__PEGBIND_VA_LIST)
#define __PEGBIND_VA_LIST 1
#ifndef __GNUC_VA_LIST
#define __GNUC_VA_LIST
typedef __builtin_va_list __gnuc_va_list;
#endif
typedef __gnuc_va_list va_list;
#endif
#undef __PEGBIND_NEED_va_list

#if defined(__PEGBIND_NEED_ssize_t) && !defined(__ssize_t_defined)
#define __ssize_t_defined 1
/* ssize_t has the width of ptrdiff_t on every target (long long on Windows). */
typedef __PTRDIFF_TYPE__ ssize_t;
#endif
#undef __PEGBIND_NEED_ssize_t

#if defined(__PEGBIND_NEED_off_t) && !defined(__off_t_defined)
#define __off_t_defined 1
/* 32-bit targets widen off_t only when asked for 64-bit file offsets. */
#if defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64 && __SIZEOF_LONG__ == 4
__extension__ typedef long long off_t;
#else
typedef long off_t;
#endif
#endif
#undef __PEGBIND_NEED_off_t

#if defined(__PEGBIND_NEED_pid_t) && !defined(__pid_t_defined)
#define __pid_t_defined 1
#ifdef _WIN64
__extension__ typedef long long pid_t;
#else
typedef int pid_t;
#endif
#endif
#undef __PEGBIND_NEED_pid_t

#if defined(__PEGBIND_NEED_uid_t) && !defined(__uid_t_defined)
#define __uid_t_defined 1
typedef unsigned int uid_t;
#endif
#undef __PEGBIND_NEED_uid_t

#if defined(__PEGBIND_NEED_gid_t) && !defined(__gid_t_defined)
#define __gid_t_defined 1
typedef unsigned int gid_t;
#endif
#undef __PEGBIND_NEED_gid_t

#if defined(__PEGBIND_NEED_id_t) && !defined(__id_t_defined)
#define __id_t_defined 1
typedef unsigned int id_t;
#endif
#undef __PEGBIND_NEED_id_t

#if defined(__PEGBIND_NEED_useconds_t) && !defined(__useconds_t_defined)
#define __useconds_t_defined 1
typedef unsigned int useconds_t;
#endif
#undef __PEGBIND_NEED_useconds_t

#if defined(__PEGBIND_NEED_suseconds_t) && !defined(__suseconds_t_defined)
#define __suseconds_t_defined 1
typedef long suseconds_t;
#endif
#undef __PEGBIND_NEED_suseconds_t

#if defined(__PEGBIND_NEED_mode_t) && !defined(__mode_t_defined)
#define __mode_t_defined 1
#ifdef _WIN32
typedef unsigned short mode_t;
#else
typedef unsigned int mode_t;
#endif
#endif
#undef __PEGBIND_NEED_mode_t

#if defined(__PEGBIND_NEED_time_t) && !defined(__time_t_defined)
#define __time_t_defined 1
/* 64-bit on Windows whatever long is; a long on Linux (32-bit time on i386). */
#ifdef _WIN32
__extension__ typedef long long time_t;
#else
typedef long time_t;
#endif
#endif
#undef __PEGBIND_NEED_time_t

#if defined(__PEGBIND_NEED_clock_t) && !defined(__clock_t_defined)
#define __clock_t_defined 1
typedef long clock_t;
#endif
#undef __PEGBIND_NEED_clock_t

#if defined(__PEGBIND_NEED_clockid_t) && !defined(__clockid_t_defined)
#define __clockid_t_defined 1
typedef int clockid_t;
#endif
#undef __PEGBIND_NEED_clockid_t

#if defined(__PEGBIND_NEED_timer_t) && !defined(__timer_t_defined)
#define __timer_t_defined 1
typedef void *timer_t;
#endif
#undef __PEGBIND_NEED_timer_t

#if defined(__PEGBIND_NEED_dev_t) && !defined(__dev_t_defined)
#define __dev_t_defined 1
#ifdef _WIN32
typedef unsigned int dev_t;
#else
__extension__ typedef __UINT64_TYPE__ dev_t;
#endif
#endif
#undef __PEGBIND_NEED_dev_t

#if defined(__PEGBIND_NEED_ino_t) && !defined(__ino_t_defined)
#define __ino_t_defined 1
#ifdef _WIN32
typedef unsigned short ino_t;
#elif defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64 && __SIZEOF_LONG__ == 4
__extension__ typedef unsigned long long ino_t;
#else
typedef unsigned long ino_t;
#endif
#endif
#undef __PEGBIND_NEED_ino_t

#if defined(__PEGBIND_NEED_nlink_t) && !defined(__nlink_t_defined)
#define __nlink_t_defined 1
/* x86_64 keeps the kernel's word-sized st_nlink; the generic ABI (aarch64) and i386 use 32 bits. */
#if defined(__x86_64__) && __SIZEOF_LONG__ == 8
typedef unsigned long nlink_t;
#else
typedef unsigned int nlink_t;
#endif
#endif
#undef __PEGBIND_NEED_nlink_t

#if defined(__PEGBIND_NEED_blksize_t) && !defined(__blksize_t_defined)
#define __blksize_t_defined 1
#ifdef __aarch64__
typedef int blksize_t;
#else
typedef long blksize_t;
#endif
#endif
#undef __PEGBIND_NEED_blksize_t

#if defined(__PEGBIND_NEED_blkcnt_t) && !defined(__blkcnt_t_defined)
#define __blkcnt_t_defined 1
#if defined(_FILE_OFFSET_BITS) && _FILE_OFFSET_BITS == 64 && __SIZEOF_LONG__ == 4
__extension__ typedef long long blkcnt_t;
#else
typedef long blkcnt_t;
#endif
#endif
#undef __PEGBIND_NEED_blkcnt_t

#if defined(__PEGBIND_NEED_socklen_t) && !defined(__socklen_t_defined)
#define __socklen_t_defined 1
#ifdef _WIN32
typedef int socklen_t;
#else
typedef unsigned int socklen_t;
#endif
#endif
#undef __PEGBIND_NEED_socklen_t

#if defined(__PEGBIND_NEED_sa_family_t) && !defined(__PEGBIND_SA_FAMILY_T)
#define __PEGBIND_SA_FAMILY_T 1
typedef unsigned short sa_family_t;
#endif
#undef __PEGBIND_NEED_sa_family_t

#if defined(__PEGBIND_NEED_intN_t) && !defined(_BITS_STDINT_INTN_H)
#define _BITS_STDINT_INTN_H 1
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
__extension__ typedef __INT64_TYPE__ int64_t;
#endif
#undef __PEGBIND_NEED_intN_t

#if defined(__PEGBIND_NEED_uintN_t) && !defined(_BITS_STDINT_UINTN_H)
#define _BITS_STDINT_UINTN_H 1
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
__extension__ typedef __UINT64_TYPE__ uint64_t;
#endif
#undef __PEGBIND_NEED_uintN_t

/* mbstate_t is glibc's __mbstate_t; stdio.h needs only the private name. */
#ifdef __PEGBIND_NEED_mbstate_t
#define __PEGBIND_NEED___mbstate_t
#endif
#if defined(__PEGBIND_NEED___mbstate_t) && !defined(____mbstate_t_defined) && !defined(_WIN32)
#define ____mbstate_t_defined 1
typedef struct {
  int __count;
  union {
    unsigned int __wch;
    char __wchb[4];
  } __value;
} __mbstate_t;
#endif
#undef __PEGBIND_NEED___mbstate_t
#if defined(__PEGBIND_NEED_mbstate_t) && !defined(__mbstate_t_defined)
#define __mbstate_t_defined 1
#ifdef _WIN32
typedef int mbstate_t;
#else
typedef __mbstate_t mbstate_t;
#endif
#endif
#undef __PEGBIND_NEED_mbstate_t

#if defined(__PEGBIND_NEED_sigset_t) && !defined(__sigset_t_defined)
#define __sigset_t_defined 1
/* 1024 signal bits, as the C library reserves (the kernel uses 64). */
#ifndef ____sigset_t_defined
#define ____sigset_t_defined 1
typedef struct {
#if __SIZEOF_LONG__ == 8
  unsigned long __val[16];
#else
  unsigned long __val[32];
#endif
} __sigset_t;
#endif
typedef __sigset_t sigset_t;
#endif
#undef __PEGBIND_NEED_sigset_t

#if defined(__PEGBIND_NEED_struct_timespec) && !defined(_STRUCT_TIMESPEC)
#define _STRUCT_TIMESPEC 1
struct timespec {
  time_t tv_sec;
  long tv_nsec;
};
#endif
#undef __PEGBIND_NEED_struct_timespec

#if defined(__PEGBIND_NEED_struct_timeval) && !defined(__timeval_defined)
#define __timeval_defined 1
#ifdef _WIN32
struct timeval {
  long tv_sec;
  long tv_usec;
};
#else
struct timeval {
  time_t tv_sec;
  suseconds_t tv_usec;
};
#endif
#endif
#undef __PEGBIND_NEED_struct_timeval

#if defined(__PEGBIND_NEED_struct_tm) && !defined(__struct_tm_defined)
#define __struct_tm_defined 1
struct tm {
  int tm_sec;
  int tm_min;
  int tm_hour;
  int tm_mday;
  int tm_mon;
  int tm_year;
  int tm_wday;
  int tm_yday;
  int tm_isdst;
#ifndef _WIN32
  long tm_gmtoff;
  const char *tm_zone;
#endif
};
#endif
#undef __PEGBIND_NEED_struct_tm

#if defined(__PEGBIND_NEED_struct_iovec) && !defined(__iovec_defined)
#define __iovec_defined 1
struct iovec {
  void *iov_base;
  size_t iov_len;
};
#endif
#undef __PEGBIND_NEED_struct_iovec

#if defined(__PEGBIND_NEED_NULL) && !defined(NULL)
#define NULL ((void *)0)
#endif
#undef __PEGBIND_NEED_NULL
