/* sys/time.h: pegbind's own compact version (POSIX basics). */
#ifndef __PEGBIND_SYS_TIME_H
#define __PEGBIND_SYS_TIME_H

#define __PEGBIND_NEED_time_t
#define __PEGBIND_NEED_suseconds_t
#define __PEGBIND_NEED_struct_timeval
#include <_pegbind_types.h>
#include <sys/select.h>

struct timezone {
  int tz_minuteswest;
  int tz_dsttime;
};

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2
struct itimerval {
  struct timeval it_interval;
  struct timeval it_value;
};

int gettimeofday(struct timeval *__restrict __tv, void *__restrict __tz);
int settimeofday(const struct timeval *__tv, const struct timezone *__tz);
int getitimer(int __which, struct itimerval *__value);
int setitimer(int __which, const struct itimerval *__restrict __new, struct itimerval *__restrict __old);
int utimes(const char *__file, const struct timeval __tvp[2]);

#endif /* __PEGBIND_SYS_TIME_H */
