/* The implementation behind stubs.h. */
#include <stdarg.h>
#include <stdlib.h>
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

enum stub_mode stub_next(enum stub_mode m) { return m == STUB_FAST ? STUB_SAFE : STUB_FAST; }

struct stub_counter { int32_t value; };
stub_counter *stub_counter_new(int32_t start) {
    stub_counter *c = malloc(sizeof *c);
    if (c) c->value = start;
    return c;
}
int32_t stub_counter_get(const stub_counter *c) { return c->value; }
void stub_counter_free(stub_counter *c) { free(c); }

int32_t stub_each(int32_t n, stub_visit visit, void *data) {
    int32_t i;
    for (i = 0; i < n; i++)
        if (visit(i, data)) return i + 1;
    return n;
}

void stub_add_into(int32_t a, int32_t b, int32_t *sum) { *sum = a + b; }

int32_t stub_first_byte(const void *object) {
    return *(const unsigned char *)object;
}

int stub_driver_version(const stub_driver *driver) { return driver->version; }
