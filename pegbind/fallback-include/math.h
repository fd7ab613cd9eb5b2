/* math.h: pegbind's own compact, target-aware version (C11 7.12). */
#ifndef __PEGBIND_MATH_H
#define __PEGBIND_MATH_H

/* Evaluation types follow FLT_EVAL_METHOD: the x87 of i386 computes in long double. */
#ifdef __i386__
typedef long double float_t;
typedef long double double_t;
#else
typedef float float_t;
typedef double double_t;
#endif

/* Plain constant expressions (no builtins) so that any C reader can
   evaluate them: an overflowing product is infinity, 0/0 a quiet NaN.  The
   product overflows long double, not just double, because i386 evaluates
   double expressions in x87 long double precision. */
#define HUGE_VALL (1e4000L * 1e4000L)
#define HUGE_VAL ((double)HUGE_VALL)
#define HUGE_VALF ((float)HUGE_VALL)
#define INFINITY ((float)HUGE_VALL)
#define NAN (-(0.0F / 0.0F))

#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling (MATH_ERRNO | MATH_ERREXCEPT)

/* Mathematical constants (POSIX/XSI), to 21 significant digits. */
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

double acos(double __x);
double asin(double __x);
double atan(double __x);
double cos(double __x);
double sin(double __x);
double tan(double __x);
double cosh(double __x);
double sinh(double __x);
double tanh(double __x);
double acosh(double __x);
double asinh(double __x);
double atanh(double __x);
double exp(double __x);
double exp2(double __x);
double expm1(double __x);
double log(double __x);
double log10(double __x);
double log1p(double __x);
double log2(double __x);
double logb(double __x);
double sqrt(double __x);
double cbrt(double __x);
double ceil(double __x);
double floor(double __x);
double fabs(double __x);
double round(double __x);
double trunc(double __x);
double rint(double __x);
double nearbyint(double __x);
double erf(double __x);
double erfc(double __x);
double tgamma(double __x);
double lgamma(double __x);
double atan2(double __x, double __y);
double pow(double __x, double __y);
double fmod(double __x, double __y);
double hypot(double __x, double __y);
double fmin(double __x, double __y);
double fmax(double __x, double __y);
double fdim(double __x, double __y);
double copysign(double __x, double __y);
double remainder(double __x, double __y);
double nextafter(double __x, double __y);
float sqrtf(float __x);
float sinf(float __x);
float cosf(float __x);
float tanf(float __x);
float expf(float __x);
float logf(float __x);
float fabsf(float __x);
float floorf(float __x);
float ceilf(float __x);
float roundf(float __x);
float powf(float __x, float __y);
float atan2f(float __y, float __x);
long double sqrtl(long double __x);
long double fabsl(long double __x);
double fma(double __x, double __y, double __z);
double ldexp(double __x, int __exponent);
double frexp(double __x, int *__exponent);
double modf(double __x, double *__iptr);
double scalbn(double __x, int __n);
int ilogb(double __x);
long lround(double __x);
long lrint(double __x);
__extension__ long long llround(double __x);
double nan(const char *__tagb);

#endif /* __PEGBIND_MATH_H */
