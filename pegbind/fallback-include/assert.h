/* assert.h: pegbind's own compact version (C11 7.2). */
/* No include guard on purpose: C11 7.2 says assert is redefined according
   to NDEBUG each time the header is included. */
#undef assert
#ifdef NDEBUG
#define assert(expression) ((void)0)
#elif defined(_WIN32)
void _assert(const char *__message, const char *__file, unsigned int __line);
#define assert(expression) ((expression) ? (void)0 : _assert(#expression, __FILE__, __LINE__))
#else
void __assert_fail(const char *__assertion, const char *__file, unsigned int __line,
                   const char *__function) __attribute__((__noreturn__));
#define assert(expression) \
  ((expression) ? (void)0 : __assert_fail(#expression, __FILE__, __LINE__, __func__))
#endif
#ifndef __PEGBIND_ASSERT_H
#define __PEGBIND_ASSERT_H
#define static_assert _Static_assert
#endif
