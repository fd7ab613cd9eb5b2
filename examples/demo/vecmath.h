/* vecmath.h - a tiny 2-D geometry library used by pegbind's demo. */
#ifndef VECMATH_H
#define VECMATH_H

#include <stddef.h>
#include <stdint.h>

#define VECMATH_VERSION_MAJOR 1
#define VECMATH_VERSION_MINOR 2
#define VECMATH_VERSION "1.2"
/* Every flag bit set: an unsigned long with all bits on. */
#define VECMATH_ALL_FLAGS (~0UL)
#define VECMATH_MAX_POINTS (1 << 10)

/* Result codes of the functions that can fail. */
typedef enum vm_status {
    VM_OK = 0,         /* success */
    VM_ERR_RANGE = -1, /* an argument is out of range */
    VM_ERR_NULL = -2   /* a required pointer is NULL */
} vm_status;

/* A point in the plane. */
typedef struct vm_point {
    double x;
    double y;
} vm_point;

/* Adds two 32-bit integers (wrapping like C does). */
int32_t vm_add(int32_t a, int32_t b);

/* Multiplies an unsigned 64-bit value by a small factor. */
uint64_t vm_scale(uint64_t value, uint8_t factor);

/* Euclidean distance between two points. */
double vm_distance(const vm_point *a, const vm_point *b);

/* Writes the midpoint of a and b into *out. */
vm_status vm_midpoint(const vm_point *a, const vm_point *b, vm_point *out);

/* Adler-32 checksum of len bytes at data. */
uint32_t vm_checksum(const uint8_t *data, size_t len);

/* Fills buf with len copies of the byte value; returns how many were written. */
size_t vm_fill(uint8_t *buf, size_t len, uint8_t value);

/* The library's version as a string. */
const char *vm_version(void);

#endif /* VECMATH_H */
