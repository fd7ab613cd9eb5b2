/* Cause 5: a header that includes the compiler's own headers (SDL2's
   SDL_cpuinfo.h includes <immintrin.h>): they are found in the compiler's
   include folder; what needs a vector type is left out, the rest binds. */
#include <immintrin.h>

typedef float simd_f4 __attribute__((vector_size(16)));
typedef struct { __m128 lanes; int count; } simd_vec;
int simd_add(int a, int b);
int simd_lanes(void);
