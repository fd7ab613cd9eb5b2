#include "aliases.h"

long scale64(long value, long factor) { return value * factor; }
long offset64(long value) { return value + 64; }
long fill64(unsigned char *buf, size_t n) {
    for (size_t i = 0; i < n; i++)
        buf[i] = 7;
    return (long)n;
}
