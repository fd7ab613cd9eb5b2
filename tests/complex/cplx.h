/* cplx.h: a small numeric library in the style of LAPACK's C interface and C99's
   <complex.h>: complex values by value, through pointers and in records, spelled
   every way C allows. */
#ifndef CPLX_H
#define CPLX_H

#include <complex.h>

typedef double _Complex cplx_z;   /* a name of its own, as lapack.h gives lapack_complex_double */
typedef float _Complex cplx_c;

typedef struct cplx_point {
    double _Complex z;
    float complex c;
    int n;
    cplx_z corners[2];
} cplx_point;

/* long double _Complex, which cffi cannot declare, apart */
struct cplx_wide {
    long double _Complex l;
    short tag;
};

double _Complex cplx_add(double _Complex a, double _Complex b);
float complex cplx_mul_c(float complex a, float complex b);
long double _Complex cplx_conj_l(long double _Complex x);
long double _Complex cplx_wide_get(const struct cplx_wide *w);
long double cplx_real_l(long double _Complex x);
/* the real and imaginary parts exchanged */
_Complex double cplx_swap(__complex__ double z);
cplx_z cplx_polar(double r, double theta);
double cplx_abs(cplx_z z);

/* x[i] *= k for the n values of x */
void cplx_cscale(int n, cplx_c *x, cplx_c k);
/* the sum of a[i] * b[i] */
double _Complex cplx_zdot(int n, const double _Complex *a, const double _Complex *b);
/* writes (1 + 2i) * scale where result points */
void cplx_get(double _Complex *result, double scale);
/* multiplies *z by i */
void cplx_rotate(double _Complex *z);
/* *z = -*z */
void cplx_negate(double _Complex *z);
/* the sum of the n values of x */
double _Complex cplx_sum(const double _Complex *x, int n);
/* the n n-th roots of unity, from 1 counterclockwise */
void cplx_roots(int n, double _Complex *roots);
/* the library's table of the fourth roots of unity */
const double _Complex *cplx_fourth_roots(void);
/* a table of four the library lets its callers write (zeroed at first) */
double _Complex *cplx_scratch(void);

double _Complex cplx_point_sum(const cplx_point *p);
cplx_point cplx_point_make(double _Complex z, int n);
/* the library's own point */
cplx_point *cplx_point_shared(void);

#endif
