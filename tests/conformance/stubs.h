/* stubs.h: a tiny header for tests/test_stubs.py (help() and type stubs). */
#ifndef STUBS_H
#define STUBS_H

#include <stdint.h>

struct stub_pair {
    int32_t left;
    int32_t right;
};

/* Add two numbers and return the sum. */
int32_t stub_add(int32_t a, int32_t b);
/* Sum of the two members of *pair, or -1 for NULL. */
int32_t stub_pair_sum(const struct stub_pair *pair);
/* Half of x. */
double stub_half(double x);
/* Always zero. */
int32_t stub_zero(void);
/* The sum of the n ints after n. */
int32_t stub_sum_of(int32_t n, ...);

#endif
