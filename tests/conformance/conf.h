/* conf.h: the conformance library.  One suite (tests/test_conformance.py)
 * calls every function here through every backend; each function exercises
 * one conversion of DESIGN.md section 4.  conf.c is built twice, with
 * CONF_INSTANCE "alpha" and "beta", so two loaded copies can be told apart. */
#ifndef CONF_H
#define CONF_H

#include <stddef.h>
#include <stdint.h>

/* ---- constants and the error policy ---------------------------------- */

typedef unsigned long conf_rv;

#define CONF_OK 0UL
#define CONF_ERR_RANGE 3UL
#define CONF_ERR_ARGS 7UL
#define CONF_ERR_SMALL 0x150UL
#define CONF_UNKNOWN_CODE 99UL

#define CONF_ALL_BITS (~0UL)
#define CONF_NEG (-5)
#define CONF_RATIO 0.5
#define CONF_LABEL "conformance"

enum { CONF_FLAG_A = 1 << 0, CONF_FLAG_B = 1 << 4 };

typedef enum conf_shape {
    CONF_SHAPE_NONE = 0,
    CONF_SHAPE_RECT = 1,
    CONF_SHAPE_CIRCLE = 2,
    CONF_SHAPE_BIG = 0x7fffffff
} conf_shape;

/* ---- records ----------------------------------------------------------- */

struct conf_point {
    int32_t x;
    int32_t y;
};

struct conf_rect {
    struct conf_point min;
    struct conf_point max;
};

typedef union conf_value {
    int64_t i;
    double d;
    uint8_t raw[8];
} conf_value;

/* Everything a record can hold, filled by conf_get_info. */
typedef struct conf_info {
    uint32_t version;
    char label[16];
    uint16_t samples[4];
    struct conf_rect box;
    struct conf_point corners[2];
    conf_shape shape;
    conf_value value;
} conf_info;

typedef int32_t (*conf_binop)(int32_t a, int32_t b);

/* Operations chosen at run time: function pointers as fields. */
struct conf_ops {
    int32_t id;
    conf_binop combine;
    int32_t (*unary)(int32_t v);
};

/* An opaque handle: only ever seen through a pointer. */
typedef struct conf_session conf_session;

/* ---- integers: each returns its argument --------------------------------- */

int8_t conf_echo_i8(int8_t v);
uint8_t conf_echo_u8(uint8_t v);
int16_t conf_echo_i16(int16_t v);
uint16_t conf_echo_u16(uint16_t v);
int32_t conf_echo_i32(int32_t v);
uint32_t conf_echo_u32(uint32_t v);
int64_t conf_echo_i64(int64_t v);
uint64_t conf_echo_u64(uint64_t v);
char conf_echo_char(char v);
signed char conf_echo_schar(signed char v);
unsigned char conf_echo_uchar(unsigned char v);
short conf_echo_short(short v);
unsigned short conf_echo_ushort(unsigned short v);
int conf_echo_int(int v);
unsigned int conf_echo_uint(unsigned int v);
long conf_echo_long(long v);
unsigned long conf_echo_ulong(unsigned long v);
long long conf_echo_llong(long long v);
unsigned long long conf_echo_ullong(unsigned long long v);
size_t conf_echo_size(size_t v);
_Bool conf_not(_Bool v);
/* a - b computed in C, to show both arguments arrive in order. */
int64_t conf_sub_i64(int64_t a, int64_t b);
/* Argument number which (1..7) as a 64-bit pattern: more integer arguments
   than x86-64 passes in registers, so the last ones go on the stack. */
uint64_t conf_arg_of_8(uint32_t which, int8_t a, uint16_t b, int32_t c, int64_t d, uint64_t e, int32_t f,
                       uint8_t g);
/* The same with 64-bit arguments only. */
uint64_t conf_wide_arg_of_8(uint32_t which, int64_t a, uint64_t b, int64_t c, uint64_t d, int64_t e, uint64_t f,
                            int64_t g);

float conf_echo_float(float v);
double conf_echo_double(double v);
/* x * y + z in double precision. */
double conf_fma(double x, double y, double z);

/* ---- buffers ----------------------------------------------------------- */

/* Sum of the bytes of data[0..n). */
uint32_t conf_checksum(const void *data, size_t n);
/* Set buf[0..n) to value. */
void conf_fill(uint8_t *buf, size_t n, uint8_t value);
/* Store v in *out. */
void conf_store_u32(uint32_t *out, uint32_t v);
/* Length of s; s must not be NULL. */
size_t conf_strlen(const char *s);

/* ---- parameter roles ------------------------------------------------------ */

/* Sum of the bytes of buf[0..n) (buf is an in-array, n filled in). */
uint32_t conf_sum(const uint8_t *buf, size_t n);
/* Sum of values[0..count). */
int64_t conf_total(const int32_t *values, size_t count);
/* Smallest and largest of values[0..count); returns count. */
size_t conf_minmax(const int32_t *values, size_t count, int32_t *lo, int32_t *hi);
/* *counter += by. */
void conf_increment(int64_t *counter, int64_t by);
/* *out = v * v. */
conf_rv conf_square(int32_t v, int64_t *out);
/* Quotient and remainder; CONF_ERR_ARGS when b is 0. */
conf_rv conf_divide(int32_t a, int32_t b, int32_t *quotient, int32_t *remainder);
/* The library's name.  NULL buf: *len is set to the size needed. */
conf_rv conf_get_name(char *buf, unsigned long *len);
/* n bytes of the pattern (i * 7) % 251, size-probed like conf_get_name. */
conf_rv conf_get_pattern(uint32_t n, uint8_t *out, unsigned long *out_len);
/* The same, bound with out-bytes(out_len, at_most=64): called once, no size probe. */
conf_rv conf_get_pattern_once(uint32_t n, uint8_t *out, unsigned long *out_len);
/* How many times conf_get_pattern_once has run. */
unsigned long conf_pattern_once_calls(void);
/* The same as conf_get_pattern_once, bound with at_most=5000: more than a wrapper keeps on its stack. */
conf_rv conf_get_pattern_large(uint32_t n, uint8_t *out, unsigned long *out_len);
/* n words i * 0x01010101 + 1, as out-bytes(out_len, at_most=8): *out_len counts words, not bytes. */
conf_rv conf_get_words(uint32_t n, uint32_t *out, unsigned long *out_len);
/* The first n bytes of the same pattern into out; the caller says how many. */
void conf_fill_pattern(uint8_t *out, uint16_t n);
/* The first n squares, size-probed: NULL out sets *count. */
conf_rv conf_get_squares(uint32_t n, uint64_t *out, unsigned long *count);
/* CONF_OK for 0 <= v <= 100, CONF_ERR_RANGE otherwise, CONF_UNKNOWN_CODE for -99. */
conf_rv conf_check_range(int32_t v);
/* Returns v as it is: excluded from the error policy by the configuration. */
conf_rv conf_raw_status(conf_rv v);
/* Sleep for ms milliseconds (the GIL is released around it). */
void conf_sleep_ms(uint32_t ms);

/* ---- records through functions ----------------------------------------- */

/* a . b, or 0 when either is NULL. */
int64_t conf_point_dot(const struct conf_point *a, const struct conf_point *b);
/* |x| + |y|; p must not be NULL. */
int32_t conf_point_norm(const struct conf_point *p);
void conf_point_make(int32_t x, int32_t y, struct conf_point *out);
int32_t conf_rect_area(struct conf_rect r);
/* The middle of *r; (0, 0) for NULL. */
struct conf_point conf_rect_center(const struct conf_rect *r);
/* Move every side of *r outwards by by (NULL: nothing). */
void conf_rect_grow(struct conf_rect *r, int32_t by);
/* v->i (is_int) or v->d as a double; -1 for NULL. */
double conf_value_as_double(const conf_value *v, int is_int);
conf_rv conf_get_info(conf_info *info);
/* A digest over every field of *info, computed in C; 0 for NULL. */
uint64_t conf_info_digest(const conf_info *info);
/* sizeof of record which: 0 point, 1 rect, 2 value, 3 info, 4 ops. */
size_t conf_sizeof(int which);
conf_shape conf_shape_next(conf_shape s);

/* which 0: add and negate; 1: multiply and square; other: all NULL. */
void conf_get_ops(int32_t which, struct conf_ops *ops);
/* unary(combine(a, b)); -1 when ops or a pointer in it is NULL. */
int32_t conf_ops_apply(const struct conf_ops *ops, int32_t a, int32_t b);

conf_rv conf_session_open(int32_t seed, conf_session **session);
/* The seed given at open time, plus one per call; -1 for NULL. */
int32_t conf_session_next(conf_session *session);
void conf_session_close(conf_session *session);

/* ---- state: one counter per loaded copy of the library -------------------- */

unsigned long conf_counter_next(void);

/* ---- the function table (like PKCS#11's C_GetFunctionList) ---------------- */

typedef struct CONF_VERSION {
    uint8_t major;
    uint8_t minor;
} CONF_VERSION;

typedef conf_rv (*CONF_tbl_add)(int32_t a, int32_t b, int32_t *sum);
typedef int32_t (*CONF_tbl_which)(void);
typedef conf_rv (*CONF_tbl_label)(char *buf, unsigned long *len);

typedef struct CONF_FUNCTION_LIST {
    CONF_VERSION version;
    CONF_tbl_add conf_tbl_add;
    CONF_tbl_which conf_tbl_which;
    CONF_tbl_label conf_tbl_label;
} CONF_FUNCTION_LIST;

/* a + b into *sum; CONF_ERR_RANGE when it overflows int32_t. */
conf_rv conf_tbl_add(int32_t a, int32_t b, int32_t *sum);
/* 1 when called by its exported name, 2 when called through the table. */
int32_t conf_tbl_which(void);
/* Like conf_get_name, with a "table:" prefix. */
conf_rv conf_tbl_label(char *buf, unsigned long *len);
conf_rv conf_get_function_list(CONF_FUNCTION_LIST **list);

#endif
