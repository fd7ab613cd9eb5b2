/* limits.h: the C library's part of pegbind's bundled fallback (POSIX limits).

   Read only for a target with no C library headers installed here, after
   pegbind's freestanding limits.h (which includes it and then states the C
   limits). */
#ifndef __PEGBIND_FALLBACK_LIMITS_H
#define __PEGBIND_FALLBACK_LIMITS_H

#define MB_LEN_MAX 16

/* POSIX limits (ssize_t has the width of a pointer). */
#ifdef _WIN32
#define PATH_MAX 260
#else
#define PATH_MAX 4096
#define NAME_MAX 255
#define PIPE_BUF 4096
#endif
#if __SIZEOF_POINTER__ == 8 && __SIZEOF_LONG__ == 8
#define SSIZE_MAX LONG_MAX
#elif __SIZEOF_POINTER__ == 8
#define SSIZE_MAX LLONG_MAX
#else
#define SSIZE_MAX INT_MAX
#endif

#endif /* __PEGBIND_FALLBACK_LIMITS_H */
