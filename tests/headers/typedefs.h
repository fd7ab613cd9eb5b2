// pegbind-flags:
/* Typedefs of scalars, pointers, arrays, function types and function pointers. */
#include <stddef.h>

typedef unsigned long ulong_t;
typedef const char *cstring;
typedef int int_array4[4];
typedef double matrix3[3][3];
typedef int binary_op(int, int);
typedef binary_op *binary_op_ptr;
typedef void (*callback)(void *user_data, size_t length);
typedef int (*pick_fn(int which))(int);
typedef unsigned char byte, *byte_ptr, byte_pair[2];
typedef volatile int *const volatile_int_cptr;
typedef long long int wide;
typedef unsigned short int ushort_t;
typedef signed s_t;
typedef _Bool flag_t;

ulong_t sum_all(const ulong_t *values, size_t count);
int apply(binary_op_ptr op, int a, int b);
void each(callback cb, void *user_data);
