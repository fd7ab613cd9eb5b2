#include "cplx.h"

double _Complex cplx_add(double _Complex a, double _Complex b) { return a + b; }
float complex cplx_mul_c(float complex a, float complex b) { return a * b; }
long double _Complex cplx_conj_l(long double _Complex x) { return conjl(x); }
long double _Complex cplx_wide_get(const struct cplx_wide *w) { return w->l * w->tag; }
long double cplx_real_l(long double _Complex x) { return creall(x) + cimagl(x) / 2; }
_Complex double cplx_swap(__complex__ double z) { return cimag(z) + creal(z) * I; }
cplx_z cplx_polar(double r, double theta) { return r * cexp(I * theta); }
double cplx_abs(cplx_z z) { return cabs(z); }

void cplx_cscale(int n, cplx_c *x, cplx_c k)
{
    for (int i = 0; i < n; i++)
        x[i] *= k;
}

double _Complex cplx_zdot(int n, const double _Complex *a, const double _Complex *b)
{
    double _Complex sum = 0;
    for (int i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

void cplx_get(double _Complex *result, double scale) { *result = (1 + 2 * I) * scale; }
void cplx_rotate(double _Complex *z) { *z *= I; }
void cplx_negate(double _Complex *z) { *z = -*z; }

double _Complex cplx_sum(const double _Complex *x, int n)
{
    double _Complex sum = 0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    return sum;
}

void cplx_roots(int n, double _Complex *roots)
{
    for (int k = 0; k < n; k++)
        roots[k] = cexp(2 * I * 3.14159265358979323846 * k / n);
}

double _Complex cplx_point_sum(const cplx_point *p)
{
    return p->z + p->c + p->n + p->corners[0] + p->corners[1];
}

cplx_point cplx_point_make(double _Complex z, int n)
{
    cplx_point p = {z, (float _Complex)conj(z), n, {z, -z}};
    return p;
}

static const double _Complex fourth[4] = {1, I, -1, -I};

const double _Complex *cplx_fourth_roots(void) { return fourth; }
static double _Complex scratch[4];
double _Complex *cplx_scratch(void) { return scratch; }

static cplx_point shared = {1, 2 * I, 4, {5, 6 * I}};

cplx_point *cplx_point_shared(void) { return &shared; }
