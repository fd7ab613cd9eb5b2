/* A function the header declares, or defines static inline where the compiler optimises, as
   libunistring's <unistring/inline.h> does for u8_mbtouc: pegbind reads it without -O (the
   prototype), and the compiled module must see it so too. */
#ifdef __NO_INLINE__
extern int twice(int x);
#else
static inline int twice(int x) { return 2 * x; }
#endif
int thrice(int x);
