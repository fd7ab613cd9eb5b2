/* fcntl.h: pegbind's own compact version (POSIX basics; Linux flag values). */
#ifndef __PEGBIND_FCNTL_H
#define __PEGBIND_FCNTL_H

#define __PEGBIND_NEED_off_t
#define __PEGBIND_NEED_pid_t
#define __PEGBIND_NEED_mode_t
#include <_pegbind_types.h>

#define O_ACCMODE 0003
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_CREAT 0100
#define O_EXCL 0200
#define O_NOCTTY 0400
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_NDELAY O_NONBLOCK
#define O_SYNC 04010000
#define O_DSYNC 010000
#define O_ASYNC 020000
/* aarch64 swaps the directory flags with O_DIRECT/O_LARGEFILE. */
#ifdef __aarch64__
#define O_DIRECTORY 040000
#define O_NOFOLLOW 0100000
#else
#define O_DIRECTORY 0200000
#define O_NOFOLLOW 0400000
#endif
#define O_CLOEXEC 02000000

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define FD_CLOEXEC 1
#define AT_FDCWD (-100)

int open(const char *__file, int __oflag, ...);
int openat(int __fd, const char *__file, int __oflag, ...);
int creat(const char *__file, mode_t __mode);
int fcntl(int __fd, int __cmd, ...);

#endif /* __PEGBIND_FCNTL_H */
