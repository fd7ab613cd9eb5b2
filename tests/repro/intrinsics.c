#include "intrinsics.h"

int simd_add(int a, int b) { return a + b; }
int simd_lanes(void) { return (int)(sizeof(__m128) / sizeof(float)); }
