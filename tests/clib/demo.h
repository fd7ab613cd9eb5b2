/* demo.h: a small C library the binding tests call through every backend.
 * Each function exercises one conversion: integer widths, floats, buffers,
 * strings, records by pointer and by value, enums, renamed names. */
#ifndef DEMO_H
#define DEMO_H

#include <stddef.h>
#include <stdint.h>

#define DEMO_ALL_BITS (~0UL)
#define DEMO_NAME "demo"
#define DEMO_SCALE 2.5
#define DEMO_MIN (-7)

typedef enum { DEMO_RED, DEMO_GREEN = 5, DEMO_BLUE } demo_color;

enum demo_flag { DEMO_FLAG_A = 1, DEMO_FLAG_B = 0x40000000 };

struct point {
    int32_t x;
    int32_t y;
};

typedef struct point point_t;

/* A record with one member of each field kind. */
typedef struct {
    struct point origin;
    char label[8];
    int32_t coords[3];
    union {
        int32_t i;
        float f;
    };
    unsigned int flags : 3;
    int delta : 4;
    double weight;
    struct point corners[2];
} demo_shape;

int8_t demo_add_i8(int8_t a, int8_t b);
uint8_t demo_add_u8(uint8_t a, uint8_t b);
int16_t demo_add_i16(int16_t a, int16_t b);
uint16_t demo_add_u16(uint16_t a, uint16_t b);
int32_t demo_add_i32(int32_t a, int32_t b);
uint32_t demo_add_u32(uint32_t a, uint32_t b);
int64_t demo_add_i64(int64_t a, int64_t b);
uint64_t demo_add_u64(uint64_t a, uint64_t b);
long demo_echo_long(long v);
unsigned long long demo_echo_ull(unsigned long long v);
_Bool demo_is_even(int v);

float demo_scale_f(float x, float k);
double demo_scale_d(double x, double k);

/* Sum of the bytes of data[0..len). */
uint32_t demo_checksum(const void *data, size_t len);
/* Length of s, or -1 for NULL. */
long demo_length(const char *s);
/* Set out[0..len) to value. */
void demo_fill(unsigned char *out, size_t len, unsigned char value);
/* Store the square of v in *out. */
void demo_square(int64_t v, int64_t *out);

int32_t demo_point_sum(const struct point *p);
void demo_point_scale(point_t *p, int32_t k);
struct point demo_make_point(int32_t x, int32_t y);
int32_t demo_point_norm1(struct point p);
double demo_shape_area(const demo_shape *s);

const char *demo_version(void);
const char *demo_maybe_name(int i);
int demo_color_code(demo_color c);

int lambda(int x);
int demo_printf(const char *fmt, ...);

#endif
