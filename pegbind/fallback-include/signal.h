/* signal.h: pegbind's own compact version (C11 7.14, POSIX basics). */
#ifndef __PEGBIND_SIGNAL_H
#define __PEGBIND_SIGNAL_H

typedef int sig_atomic_t;
typedef void (*__sighandler_t)(int);

#define SIG_ERR ((__sighandler_t)-1)
#define SIG_DFL ((__sighandler_t)0)
#define SIG_IGN ((__sighandler_t)1)

#define SIGINT 2
#define SIGILL 4
#define SIGFPE 8
#define SIGSEGV 11
#define SIGTERM 15
#ifdef _WIN32
#define SIGBREAK 21
#define SIGABRT 22
#else
#define SIGHUP 1
#define SIGQUIT 3
#define SIGTRAP 5
#define SIGABRT 6
#define SIGIOT 6
#define SIGBUS 7
#define SIGKILL 9
#define SIGUSR1 10
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPOLL SIGIO
#define SIGPWR 30
#define SIGSYS 31
#define NSIG 65

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

#define __PEGBIND_NEED_sigset_t
#define __PEGBIND_NEED_pid_t
#include <_pegbind_types.h>

int kill(pid_t __pid, int __sig);
int sigemptyset(sigset_t *__set);
int sigfillset(sigset_t *__set);
int sigaddset(sigset_t *__set, int __signo);
int sigdelset(sigset_t *__set, int __signo);
int sigismember(const sigset_t *__set, int __signo);
int sigprocmask(int __how, const sigset_t *__restrict __set, sigset_t *__restrict __oset);
#endif

__sighandler_t signal(int __sig, __sighandler_t __handler);
int raise(int __sig);

#endif /* __PEGBIND_SIGNAL_H */
