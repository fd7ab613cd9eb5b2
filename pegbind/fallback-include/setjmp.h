/* setjmp.h: pegbind's own compact, target-aware version (C11 7.13). */
#ifndef __PEGBIND_SETJMP_H
#define __PEGBIND_SETJMP_H

#ifdef _WIN32
/* The Microsoft x64 runtime saves sixteen 16-byte, 16-aligned slots. */
typedef struct __attribute__((__aligned__(16))) {
  __extension__ unsigned long long Part[2];
} _SETJMP_FLOAT128;
typedef _SETJMP_FLOAT128 jmp_buf[16];
int _setjmp(jmp_buf __env, void *__frame);
#define setjmp(env) _setjmp(env, (void *)0)
void longjmp(jmp_buf __env, int __val) __attribute__((__noreturn__));
#else
/* The register save area is opaque; its size is the target's (glibc
   layout: registers, a flag, and the signal mask for sigsetjmp).  The guard
   is glibc's, whose <pthread.h> defines the same record. */
#ifndef __jmp_buf_tag_defined
#define __jmp_buf_tag_defined 1
struct __jmp_buf_tag {
#if defined(__x86_64__)
  long __jmpbuf[8];
#elif defined(__aarch64__)
  __extension__ unsigned long long __jmpbuf[22];
#else
  int __jmpbuf[6];
#endif
  int __mask_was_saved;
#if __SIZEOF_LONG__ == 8
  unsigned long __saved_mask[16];
#else
  unsigned long __saved_mask[32];
#endif
};
#endif
typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];

int setjmp(jmp_buf __env);
int _setjmp(struct __jmp_buf_tag __env[1]);
void longjmp(struct __jmp_buf_tag __env[1], int __val) __attribute__((__noreturn__));
void _longjmp(struct __jmp_buf_tag __env[1], int __val) __attribute__((__noreturn__));
void siglongjmp(sigjmp_buf __env, int __val) __attribute__((__noreturn__));
#endif

#endif /* __PEGBIND_SETJMP_H */
