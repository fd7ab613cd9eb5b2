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

enum stub_mode { STUB_FAST = 1, STUB_SAFE = 2 };
/* The mode after m. */
enum stub_mode stub_next(enum stub_mode m);

/* An opaque counter, made by stub_counter_new. */
typedef struct stub_counter stub_counter;
stub_counter *stub_counter_new(int32_t start);
int32_t stub_counter_get(const stub_counter *c);
void stub_counter_free(stub_counter *c);

/* Called with each of 0 .. n-1 and the user's data; a nonzero result stops. */
typedef int (*stub_visit)(int32_t value, void *data);
/* How many values stub_each visited. */
int32_t stub_each(int32_t n, stub_visit visit, void *data);

/* Writes a + b into *sum. */
void stub_add_into(int32_t a, int32_t b, int32_t *sum);

/* The first byte of any object's memory: a buffer, a record, a handle. */
int32_t stub_first_byte(const void *object);
/* A member named close, as HDF5's H5FD_class_t has: the record keeps the name for it. */
typedef struct stub_driver { int (*close)(void *file); int version; } stub_driver;
int stub_driver_version(const stub_driver *driver);

#endif
