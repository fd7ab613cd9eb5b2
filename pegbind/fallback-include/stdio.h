/* stdio.h: pegbind's own compact, target-aware version (C11 7.21, POSIX basics). */
#ifndef __PEGBIND_STDIO_H
#define __PEGBIND_STDIO_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_NULL
#define __PEGBIND_NEED_va_list
#define __PEGBIND_NEED_off_t
#define __PEGBIND_NEED_ssize_t
#include <_pegbind_types.h>

/* FILE stays opaque, under glibc's tag so that its headers agree. */
#ifndef __FILE_defined
#define __FILE_defined 1
typedef struct _IO_FILE FILE;
#endif

#ifdef _WIN32
__extension__ typedef long long fpos_t;
#else
#define __PEGBIND_NEED___mbstate_t
#include <_pegbind_types.h>
/* A file position is an offset plus the multibyte conversion state. */
typedef struct _G_fpos_t {
  off_t __pos;
  __mbstate_t __state;
} fpos_t;
#endif

#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

#ifdef _WIN32
#define BUFSIZ 512
#define FILENAME_MAX 260
#define FOPEN_MAX 20
#define TMP_MAX 32767
#define L_tmpnam 260
FILE *__acrt_iob_func(unsigned int __index);
#define stdin (__acrt_iob_func(0))
#define stdout (__acrt_iob_func(1))
#define stderr (__acrt_iob_func(2))
#else
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define TMP_MAX 238328
#define L_tmpnam 20
#define L_ctermid 9
#define P_tmpdir "/tmp"
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
/* C11 7.21.1 requires macros; they name the objects themselves. */
#define stdin stdin
#define stdout stdout
#define stderr stderr
#endif

int remove(const char *__filename);
int rename(const char *__old, const char *__new);
FILE *tmpfile(void);
char *tmpnam(char *__s);
int fclose(FILE *__stream);
int fflush(FILE *__stream);
FILE *fopen(const char *__restrict __filename, const char *__restrict __mode);
FILE *freopen(const char *__restrict __filename, const char *__restrict __mode, FILE *__restrict __stream);
void setbuf(FILE *__restrict __stream, char *__restrict __buf);
int setvbuf(FILE *__restrict __stream, char *__restrict __buf, int __mode, size_t __size);
int fprintf(FILE *__restrict __stream, const char *__restrict __format, ...);
int fscanf(FILE *__restrict __stream, const char *__restrict __format, ...);
int printf(const char *__restrict __format, ...);
int scanf(const char *__restrict __format, ...);
int snprintf(char *__restrict __s, size_t __n, const char *__restrict __format, ...);
int sprintf(char *__restrict __s, const char *__restrict __format, ...);
int sscanf(const char *__restrict __s, const char *__restrict __format, ...);
int vfprintf(FILE *__restrict __stream, const char *__restrict __format, __gnuc_va_list __arg);
int vprintf(const char *__restrict __format, __gnuc_va_list __arg);
int vsnprintf(char *__restrict __s, size_t __n, const char *__restrict __format, __gnuc_va_list __arg);
int vsprintf(char *__restrict __s, const char *__restrict __format, __gnuc_va_list __arg);
int vfscanf(FILE *__restrict __stream, const char *__restrict __format, __gnuc_va_list __arg);
int vsscanf(const char *__restrict __s, const char *__restrict __format, __gnuc_va_list __arg);
int fgetc(FILE *__stream);
char *fgets(char *__restrict __s, int __n, FILE *__restrict __stream);
int fputc(int __c, FILE *__stream);
int fputs(const char *__restrict __s, FILE *__restrict __stream);
int getc(FILE *__stream);
int getchar(void);
int putc(int __c, FILE *__stream);
int putchar(int __c);
int puts(const char *__s);
int ungetc(int __c, FILE *__stream);
size_t fread(void *__restrict __ptr, size_t __size, size_t __n, FILE *__restrict __stream);
size_t fwrite(const void *__restrict __ptr, size_t __size, size_t __n, FILE *__restrict __stream);
int fgetpos(FILE *__restrict __stream, fpos_t *__restrict __pos);
int fseek(FILE *__stream, long __offset, int __whence);
int fsetpos(FILE *__stream, const fpos_t *__pos);
long ftell(FILE *__stream);
void rewind(FILE *__stream);
void clearerr(FILE *__stream);
int feof(FILE *__stream);
int ferror(FILE *__stream);
void perror(const char *__s);
#ifndef _WIN32
FILE *fdopen(int __fd, const char *__mode);
int fileno(FILE *__stream);
FILE *popen(const char *__command, const char *__mode);
int pclose(FILE *__stream);
int fseeko(FILE *__stream, off_t __offset, int __whence);
off_t ftello(FILE *__stream);
int dprintf(int __fd, const char *__restrict __format, ...);
ssize_t getline(char **__restrict __lineptr, size_t *__restrict __n, FILE *__restrict __stream);
#endif

#endif /* __PEGBIND_STDIO_H */
