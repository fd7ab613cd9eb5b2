/* Object-like macros that name functions, as zlib's gzopen names gzopen64 when
   _FILE_OFFSET_BITS is 64 (which Python.h defines): the module offers both names. */
long scale64(long value, long factor);
long offset64(long value);
#define scale scale64
#define offset (offset64)
#define NOT_A_FUNCTION unknown_symbol
/* Function-like ones that call a function with their arguments as they are, as OpenSSL's
   EVP_MD_CTX_create() is EVP_MD_CTX_new(): the same; not one that adds or moves an argument. */
#define rescale(v, f) scale64((v), (f))
#define offset_again(v) (offset64(v))
#define scale_swapped(v, f) scale64(f, v)
#define twice(v) scale64((v), 2)
/* A rule may name the function by its macro, as pcre2's users write pcre2_compile for
   pcre2_compile_8: fills n bytes of buf with 7, gives n back. */
#include <stddef.h>
long fill64(unsigned char *buf, size_t n);
#define fill fill64
