/* vecmath.c - implementation of the demo library. */
#include <math.h>
#include <string.h>

#include "vecmath.h"

int32_t vm_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

uint64_t vm_scale(uint64_t value, uint8_t factor) { return value * factor; }

double vm_distance(const vm_point *a, const vm_point *b) {
    return hypot(a->x - b->x, a->y - b->y);
}

vm_status vm_midpoint(const vm_point *a, const vm_point *b, vm_point *out) {
    if (!a || !b || !out) return VM_ERR_NULL;
    out->x = (a->x + b->x) / 2;
    out->y = (a->y + b->y) / 2;
    return VM_OK;
}

uint32_t vm_checksum(const uint8_t *data, size_t len) {
    uint32_t s1 = 1, s2 = 0;
    for (size_t i = 0; i < len; i++) {
        s1 = (s1 + data[i]) % 65521;
        s2 = (s2 + s1) % 65521;
    }
    return (s2 << 16) | s1;
}

size_t vm_fill(uint8_t *buf, size_t len, uint8_t value) {
    memset(buf, value, len);
    return len;
}

const char *vm_version(void) { return VECMATH_VERSION; }
