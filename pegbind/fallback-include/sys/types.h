/* sys/types.h: pegbind's own compact, target-aware version (POSIX basics). */
#ifndef __PEGBIND_SYS_TYPES_H
#define __PEGBIND_SYS_TYPES_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_ssize_t
#define __PEGBIND_NEED_off_t
#define __PEGBIND_NEED_pid_t
#define __PEGBIND_NEED_uid_t
#define __PEGBIND_NEED_gid_t
#define __PEGBIND_NEED_id_t
#define __PEGBIND_NEED_mode_t
#define __PEGBIND_NEED_dev_t
#define __PEGBIND_NEED_ino_t
#define __PEGBIND_NEED_nlink_t
#define __PEGBIND_NEED_blksize_t
#define __PEGBIND_NEED_blkcnt_t
#define __PEGBIND_NEED_time_t
#define __PEGBIND_NEED_clock_t
#define __PEGBIND_NEED_clockid_t
#define __PEGBIND_NEED_timer_t
#define __PEGBIND_NEED_suseconds_t
#define __PEGBIND_NEED_intN_t
#include <_pegbind_types.h>

/* BSD names, still used by many headers. */
#ifndef __u_char_defined
#define __u_char_defined
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
#endif
typedef unsigned char u_int8_t;
typedef unsigned short u_int16_t;
typedef unsigned int u_int32_t;
__extension__ typedef __UINT64_TYPE__ u_int64_t;
typedef int key_t;
typedef char *caddr_t;
/* A machine word: long on LP64, long long on LLP64, int on ILP32. */
#if __SIZEOF_POINTER__ == 4
typedef int register_t;
#elif __SIZEOF_LONG__ == 8
typedef long register_t;
#else
__extension__ typedef long long register_t;
#endif

#endif /* __PEGBIND_SYS_TYPES_H */
