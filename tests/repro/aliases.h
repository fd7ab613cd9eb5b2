/* Object-like macros that name functions, as zlib's gzopen names gzopen64 when
   _FILE_OFFSET_BITS is 64 (which Python.h defines): the module offers both names. */
long scale64(long value, long factor);
long offset64(long value);
#define scale scale64
#define offset (offset64)
#define NOT_A_FUNCTION unknown_symbol
