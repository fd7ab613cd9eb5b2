/* sys/select.h: pegbind's own compact version (POSIX basics). */
#ifndef __PEGBIND_SYS_SELECT_H
#define __PEGBIND_SYS_SELECT_H

#define __PEGBIND_NEED_time_t
#define __PEGBIND_NEED_suseconds_t
#define __PEGBIND_NEED_struct_timeval
#define __PEGBIND_NEED_struct_timespec
#define __PEGBIND_NEED_sigset_t
#include <_pegbind_types.h>

#define FD_SETSIZE 1024
/* A bit per descriptor, in words of long. */
typedef struct {
#if __SIZEOF_LONG__ == 8
  long __fds_bits[16];
#else
  long __fds_bits[32];
#endif
} fd_set;

int select(int __nfds, fd_set *__restrict __readfds, fd_set *__restrict __writefds,
           fd_set *__restrict __exceptfds, struct timeval *__restrict __timeout);
int pselect(int __nfds, fd_set *__restrict __readfds, fd_set *__restrict __writefds,
            fd_set *__restrict __exceptfds, const struct timespec *__restrict __timeout,
            const sigset_t *__restrict __sigmask);

#endif /* __PEGBIND_SYS_SELECT_H */
