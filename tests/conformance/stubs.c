/* The implementation behind stubs.h. */
#include <stdarg.h>
#include "stubs.h"

int32_t stub_add(int32_t a, int32_t b) { return a + b; }
int32_t stub_pair_sum(const struct stub_pair *pair) { return pair ? pair->left + pair->right : -1; }
double stub_half(double x) { return x / 2; }
int32_t stub_zero(void) { return 0; }
int32_t stub_sum_of(int32_t n, ...) {
    va_list ap;
    int32_t total = 0;
    va_start(ap, n);
    for (int32_t i = 0; i < n; i++)
        total += va_arg(ap, int32_t);
    va_end(ap);
    return total;
}
