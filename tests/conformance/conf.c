/* The implementation behind conf.h.  Built with -DCONF_INSTANCE='"alpha"'
 * (or "beta") so that each built copy reports its own name. */
#include "conf.h"

#include <string.h>
#include <time.h>
#include <stdlib.h>

#ifndef CONF_INSTANCE
#define CONF_INSTANCE "default"
#endif

int8_t conf_echo_i8(int8_t v) { return v; }
uint8_t conf_echo_u8(uint8_t v) { return v; }
int16_t conf_echo_i16(int16_t v) { return v; }
uint16_t conf_echo_u16(uint16_t v) { return v; }
int32_t conf_echo_i32(int32_t v) { return v; }
uint32_t conf_echo_u32(uint32_t v) { return v; }
int64_t conf_echo_i64(int64_t v) { return v; }
uint64_t conf_echo_u64(uint64_t v) { return v; }
char conf_echo_char(char v) { return v; }
signed char conf_echo_schar(signed char v) { return v; }
unsigned char conf_echo_uchar(unsigned char v) { return v; }
short conf_echo_short(short v) { return v; }
unsigned short conf_echo_ushort(unsigned short v) { return v; }
int conf_echo_int(int v) { return v; }
unsigned int conf_echo_uint(unsigned int v) { return v; }
long conf_echo_long(long v) { return v; }
unsigned long conf_echo_ulong(unsigned long v) { return v; }
long long conf_echo_llong(long long v) { return v; }
unsigned long long conf_echo_ullong(unsigned long long v) { return v; }
size_t conf_echo_size(size_t v) { return v; }
_Bool conf_not(_Bool v) { return !v; }
int64_t conf_sub_i64(int64_t a, int64_t b) { return a - b; }

uint64_t conf_arg_of_8(uint32_t which, int8_t a, uint16_t b, int32_t c, int64_t d, uint64_t e, int32_t f,
                       uint8_t g)
{
    const uint64_t args[] = {(uint64_t)a, b, (uint64_t)c, (uint64_t)d, e, (uint64_t)f, g};
    return which >= 1 && which <= 7 ? args[which - 1] : 0;
}

uint64_t conf_wide_arg_of_8(uint32_t which, int64_t a, uint64_t b, int64_t c, uint64_t d, int64_t e, uint64_t f,
                            int64_t g)
{
    const uint64_t args[] = {(uint64_t)a, b, (uint64_t)c, d, (uint64_t)e, f, (uint64_t)g};
    return which >= 1 && which <= 7 ? args[which - 1] : 0;
}

float conf_echo_float(float v) { return v; }
double conf_echo_double(double v) { return v; }
double conf_fma(double x, double y, double z) { return x * y + z; }

uint32_t conf_checksum(const void *data, size_t n)
{
    const uint8_t *bytes = data;
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += bytes[i];
    return sum;
}

void conf_fill(uint8_t *buf, size_t n, uint8_t value)
{
    if (buf)
        memset(buf, value, n);
}

void conf_store_u32(uint32_t *out, uint32_t v)
{
    if (out)
        *out = v;
}

size_t conf_strlen(const char *s) { return strlen(s); }

uint32_t conf_sum(const uint8_t *buf, size_t n) { return conf_checksum(buf, n); }

int64_t conf_total(const int32_t *values, size_t count)
{
    int64_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += values[i];
    return total;
}

size_t conf_minmax(const int32_t *values, size_t count, int32_t *lo, int32_t *hi)
{
    *lo = INT32_MAX;
    *hi = INT32_MIN;
    for (size_t i = 0; i < count; i++) {
        if (values[i] < *lo)
            *lo = values[i];
        if (values[i] > *hi)
            *hi = values[i];
    }
    return count;
}

void conf_increment(int64_t *counter, int64_t by) { *counter += by; }

conf_rv conf_square(int32_t v, int64_t *out)
{
    *out = (int64_t)v * v;
    return CONF_OK;
}

conf_rv conf_divide(int32_t a, int32_t b, int32_t *quotient, int32_t *remainder)
{
    if (b == 0 || (a == INT32_MIN && b == -1))
        return CONF_ERR_ARGS;
    *quotient = a / b;
    *remainder = a % b;
    return CONF_OK;
}

/* The size-probe idiom of PKCS#11: NULL asks for the size, a short buffer is
 * an error that still reports the size needed. */
static conf_rv copy_out(const void *data, unsigned long size, void *buf, unsigned long *len, size_t item)
{
    if (len == NULL)
        return CONF_ERR_ARGS;
    if (buf == NULL) {
        *len = size;
        return CONF_OK;
    }
    if (*len < size) {
        *len = size;
        return CONF_ERR_SMALL;
    }
    memcpy(buf, data, size * item);
    *len = size;
    return CONF_OK;
}

static const char conf_name[] = "conformance library " CONF_INSTANCE;

conf_rv conf_get_name(char *buf, unsigned long *len)
{
    return copy_out(conf_name, sizeof conf_name - 1, buf, len, 1);
}

void conf_fill_pattern(uint8_t *out, uint16_t n)
{
    for (uint16_t i = 0; i < n; i++)
        out[i] = (uint8_t)(i * 7 % 251);
}

conf_rv conf_get_pattern(uint32_t n, uint8_t *out, unsigned long *out_len)
{
    uint8_t *pattern = malloc(n ? n : 1);
    if (pattern == NULL)
        return CONF_ERR_ARGS;
    for (uint32_t i = 0; i < n; i++)
        pattern[i] = (uint8_t)((i * 7u) % 251u);
    conf_rv rv = copy_out(pattern, n, out, out_len, 1);
    free(pattern);
    return rv;
}

static unsigned long pattern_once_calls;

conf_rv conf_get_pattern_once(uint32_t n, uint8_t *out, unsigned long *out_len)
{
    pattern_once_calls++;
    return conf_get_pattern(n, out, out_len);
}

unsigned long conf_pattern_once_calls(void)
{
    return pattern_once_calls;
}

conf_rv conf_get_pattern_large(uint32_t n, uint8_t *out, unsigned long *out_len)
{
    return conf_get_pattern(n, out, out_len);
}

conf_rv conf_get_words(uint32_t n, uint32_t *out, unsigned long *out_len)
{
    if (*out_len < n)
        return CONF_ERR_SMALL;
    for (uint32_t i = 0; i < n; i++)
        out[i] = i * 0x01010101u + 1u;
    *out_len = n;
    return CONF_OK;
}

conf_rv conf_get_squares(uint32_t n, uint64_t *out, unsigned long *count)
{
    if (count == NULL)
        return CONF_ERR_ARGS;
    if (out == NULL) {
        *count = n;
        return CONF_OK;
    }
    if (*count < n) {
        *count = n;
        return CONF_ERR_SMALL;
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = (uint64_t)i * i;
    *count = n;
    return CONF_OK;
}

conf_rv conf_check_range(int32_t v)
{
    if (v == -99)
        return CONF_UNKNOWN_CODE;
    return v >= 0 && v <= 100 ? CONF_OK : CONF_ERR_RANGE;
}

conf_rv conf_raw_status(conf_rv v) { return v; }

void conf_sleep_ms(uint32_t ms)
{
    struct timespec delay = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&delay, NULL);
}

int64_t conf_point_dot(const struct conf_point *a, const struct conf_point *b)
{
    if (a == NULL || b == NULL)
        return 0;
    return (int64_t)a->x * b->x + (int64_t)a->y * b->y;
}

int32_t conf_point_norm(const struct conf_point *p) { return abs(p->x) + abs(p->y); }

void conf_point_make(int32_t x, int32_t y, struct conf_point *out)
{
    out->x = x;
    out->y = y;
}

int32_t conf_rect_area(struct conf_rect r) { return (r.max.x - r.min.x) * (r.max.y - r.min.y); }

struct conf_point conf_rect_center(const struct conf_rect *r)
{
    if (r == NULL) {
        struct conf_point none = {0, 0};
        return none;
    }
    struct conf_point c = {(r->min.x + r->max.x) / 2, (r->min.y + r->max.y) / 2};
    return c;
}

void conf_rect_grow(struct conf_rect *r, int32_t by)
{
    if (r == NULL)
        return;
    r->min.x -= by;
    r->min.y -= by;
    r->max.x += by;
    r->max.y += by;
}

double conf_value_as_double(const conf_value *v, int is_int)
{
    if (v == NULL)
        return -1.0;
    return is_int ? (double)v->i : v->d;
}

conf_rv conf_get_info(conf_info *info)
{
    memset(info, 0, sizeof *info);
    info->version = 7;
    strcpy(info->label, "conf-" CONF_INSTANCE);
    info->samples[0] = 1;
    info->samples[1] = 2;
    info->samples[2] = 3;
    info->samples[3] = 65535;
    info->box.min.x = -1;
    info->box.min.y = -2;
    info->box.max.x = 3;
    info->box.max.y = 4;
    info->corners[0].x = 10;
    info->corners[1].y = -20;
    info->shape = CONF_SHAPE_CIRCLE;
    info->value.d = 2.5;
    return CONF_OK;
}

uint64_t conf_info_digest(const conf_info *info)
{
    /* Weights make each field's contribution distinct, so a misplaced field shows. */
    if (info == NULL)
        return 0;
    uint64_t d = info->version;
    for (int i = 0; i < 16; i++)
        d = d * 31 + (uint8_t)info->label[i];
    for (int i = 0; i < 4; i++)
        d = d * 37 + info->samples[i];
    d = d * 41 + (uint32_t)info->box.min.x;
    d = d * 41 + (uint32_t)info->box.min.y;
    d = d * 41 + (uint32_t)info->box.max.x;
    d = d * 41 + (uint32_t)info->box.max.y;
    for (int i = 0; i < 2; i++)
        d = d * 43 + (uint32_t)info->corners[i].x * 3u + (uint32_t)info->corners[i].y;
    d = d * 47 + (uint32_t)info->shape;
    d = d * 53 + (uint64_t)info->value.i;
    return d;
}

size_t conf_sizeof(int which)
{
    switch (which) {
    case 0: return sizeof(struct conf_point);
    case 1: return sizeof(struct conf_rect);
    case 2: return sizeof(conf_value);
    case 3: return sizeof(conf_info);
    case 4: return sizeof(struct conf_ops);
    default: return 0;
    }
}

conf_shape conf_shape_next(conf_shape s) { return s == CONF_SHAPE_CIRCLE ? CONF_SHAPE_NONE : (conf_shape)(s + 1); }

static int32_t op_add(int32_t a, int32_t b) { return a + b; }
static int32_t op_mul(int32_t a, int32_t b) { return a * b; }
static int32_t op_negate(int32_t v) { return -v; }
static int32_t op_square(int32_t v) { return v * v; }

void conf_get_ops(int32_t which, struct conf_ops *ops)
{
    ops->id = which;
    ops->combine = which == 0 ? op_add : which == 1 ? op_mul : NULL;
    ops->unary = which == 0 ? op_negate : which == 1 ? op_square : NULL;
}

int32_t conf_ops_apply(const struct conf_ops *ops, int32_t a, int32_t b)
{
    if (ops == NULL || ops->combine == NULL || ops->unary == NULL)
        return -1;
    return ops->unary(ops->combine(a, b));
}

struct conf_session {
    int32_t value;
};

conf_rv conf_session_open(int32_t seed, conf_session **session)
{
    *session = malloc(sizeof **session);
    if (*session == NULL)
        return CONF_ERR_ARGS;
    (*session)->value = seed;
    return CONF_OK;
}

int32_t conf_session_next(conf_session *session) { return session ? session->value++ : -1; }

void conf_session_close(conf_session *session) { free(session); }

static unsigned long counter;

unsigned long conf_counter_next(void) { return ++counter; }

conf_rv conf_tbl_add(int32_t a, int32_t b, int32_t *sum)
{
    int64_t wide = (int64_t)a + b;
    if (wide > INT32_MAX || wide < INT32_MIN)
        return CONF_ERR_RANGE;
    *sum = (int32_t)wide;
    return CONF_OK;
}

int32_t conf_tbl_which(void) { return 1; }

static int32_t tbl_which_through_table(void) { return 2; }

static const char tbl_label[] = "table:" CONF_INSTANCE;

conf_rv conf_tbl_label(char *buf, unsigned long *len) { return copy_out(tbl_label, sizeof tbl_label - 1, buf, len, 1); }

static CONF_FUNCTION_LIST function_list = {
    {2, 40},
    conf_tbl_add,
    tbl_which_through_table,
    conf_tbl_label,
};

conf_rv conf_get_function_list(CONF_FUNCTION_LIST **list)
{
    if (list == NULL)
        return CONF_ERR_ARGS;
    *list = &function_list;
    return CONF_OK;
}
