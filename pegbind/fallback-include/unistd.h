/* unistd.h: pegbind's own compact, target-aware version (POSIX basics). */
#ifndef __PEGBIND_UNISTD_H
#define __PEGBIND_UNISTD_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_ssize_t
#define __PEGBIND_NEED_off_t
#define __PEGBIND_NEED_pid_t
#define __PEGBIND_NEED_uid_t
#define __PEGBIND_NEED_gid_t
#define __PEGBIND_NEED_useconds_t
#define __PEGBIND_NEED_NULL
#include <_pegbind_types.h>

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define F_OK 0
#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif
#define _SC_PAGESIZE 30
#define _SC_NPROCESSORS_ONLN 84

int access(const char *__name, int __type);
off_t lseek(int __fd, off_t __offset, int __whence);
int close(int __fd);
ssize_t read(int __fd, void *__buf, size_t __nbytes);
ssize_t write(int __fd, const void *__buf, size_t __n);
ssize_t pread(int __fd, void *__buf, size_t __nbytes, off_t __offset);
ssize_t pwrite(int __fd, const void *__buf, size_t __n, off_t __offset);
int pipe(int __pipedes[2]);
unsigned int alarm(unsigned int __seconds);
unsigned int sleep(unsigned int __seconds);
int usleep(useconds_t __useconds);
int chdir(const char *__path);
char *getcwd(char *__buf, size_t __size);
int dup(int __fd);
int dup2(int __fd, int __fd2);
int execv(const char *__path, char *const __argv[]);
int execvp(const char *__file, char *const __argv[]);
void _exit(int __status) __attribute__((__noreturn__));
long sysconf(int __name);
pid_t getpid(void);
pid_t getppid(void);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
pid_t fork(void);
int isatty(int __fd);
int link(const char *__from, const char *__to);
int symlink(const char *__from, const char *__to);
ssize_t readlink(const char *__restrict __path, char *__restrict __buf, size_t __len);
int unlink(const char *__name);
int rmdir(const char *__path);
int fsync(int __fd);
int ftruncate(int __fd, off_t __length);
int truncate(const char *__file, off_t __length);

#endif /* __PEGBIND_UNISTD_H */
