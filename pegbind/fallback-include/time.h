/* time.h: pegbind's own compact, target-aware version (C11 7.27, POSIX basics). */
#ifndef __PEGBIND_TIME_H
#define __PEGBIND_TIME_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_NULL
#define __PEGBIND_NEED_time_t
#define __PEGBIND_NEED_clock_t
#define __PEGBIND_NEED_struct_tm
#define __PEGBIND_NEED_struct_timespec
#include <_pegbind_types.h>

#define TIME_UTC 1
#ifdef _WIN32
#define CLOCKS_PER_SEC ((clock_t)1000)
#else
#define CLOCKS_PER_SEC ((clock_t)1000000)
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3

#define __PEGBIND_NEED_clockid_t
#define __PEGBIND_NEED_timer_t
#define __PEGBIND_NEED_pid_t
#include <_pegbind_types.h>
#endif

clock_t clock(void);
double difftime(time_t __time1, time_t __time0);
time_t mktime(struct tm *__tp);
time_t time(time_t *__timer);
int timespec_get(struct timespec *__ts, int __base);
char *asctime(const struct tm *__tp);
char *ctime(const time_t *__timer);
struct tm *gmtime(const time_t *__timer);
struct tm *localtime(const time_t *__timer);
size_t strftime(char *__restrict __s, size_t __maxsize, const char *__restrict __format,
                const struct tm *__restrict __tp);
#ifndef _WIN32
struct tm *gmtime_r(const time_t *__restrict __timer, struct tm *__restrict __tp);
struct tm *localtime_r(const time_t *__restrict __timer, struct tm *__restrict __tp);
int nanosleep(const struct timespec *__requested, struct timespec *__remaining);
int clock_getres(clockid_t __clock_id, struct timespec *__res);
int clock_gettime(clockid_t __clock_id, struct timespec *__tp);
int clock_settime(clockid_t __clock_id, const struct timespec *__tp);
void tzset(void);
#endif

#endif /* __PEGBIND_TIME_H */
