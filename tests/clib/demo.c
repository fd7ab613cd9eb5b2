/* The implementation behind demo.h; built into libdemo.so by the tests. */
#include "demo.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int8_t demo_add_i8(int8_t a, int8_t b) { return (int8_t)(a + b); }
uint8_t demo_add_u8(uint8_t a, uint8_t b) { return (uint8_t)(a + b); }
int16_t demo_add_i16(int16_t a, int16_t b) { return (int16_t)(a + b); }
uint16_t demo_add_u16(uint16_t a, uint16_t b) { return (uint16_t)(a + b); }
int32_t demo_add_i32(int32_t a, int32_t b) { return a + b; }
uint32_t demo_add_u32(uint32_t a, uint32_t b) { return a + b; }
int64_t demo_add_i64(int64_t a, int64_t b) { return a + b; }
uint64_t demo_add_u64(uint64_t a, uint64_t b) { return a + b; }
long demo_echo_long(long v) { return v; }
unsigned long long demo_echo_ull(unsigned long long v) { return v; }
_Bool demo_is_even(int v) { return v % 2 == 0; }

float demo_scale_f(float x, float k) { return x * k; }
double demo_scale_d(double x, double k) { return x * k; }

uint32_t demo_checksum(const void *data, size_t len)
{
    const unsigned char *bytes = data;
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += bytes[i];
    return sum;
}

long demo_length(const char *s) { return s ? (long)strlen(s) : -1; }

void demo_fill(unsigned char *out, size_t len, unsigned char value)
{
    if (out)
        memset(out, value, len);
}

void demo_square(int64_t v, int64_t *out)
{
    if (out)
        *out = v * v;
}

int32_t demo_point_sum(const struct point *p) { return p ? p->x + p->y : -1; }

void demo_point_scale(point_t *p, int32_t k)
{
    if (!p)
        return;
    p->x *= k;
    p->y *= k;
}

struct point demo_make_point(int32_t x, int32_t y)
{
    struct point p = {x, y};
    return p;
}

int32_t demo_point_norm1(struct point p) { return (p.x < 0 ? -p.x : p.x) + (p.y < 0 ? -p.y : p.y); }

double demo_shape_area(const demo_shape *s)
{
    if (!s)
        return 0.0;
    int32_t w = s->corners[1].x - s->corners[0].x;
    int32_t h = s->corners[1].y - s->corners[0].y;
    return (double)w * (double)h * s->weight;
}

const char *demo_version(void) { return "1.2.3"; }

const char *demo_maybe_name(int i) { return i < 0 ? NULL : "named"; }

int demo_color_code(demo_color c) { return (int)c * 10; }

int lambda(int x) { return x + 1; }

int demo_printf(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vprintf(fmt, args);
    va_end(args);
    return n;
}
