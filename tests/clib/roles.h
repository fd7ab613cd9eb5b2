/* roles.h: a small library reached through dlopen and a function table, in
 * the shape of PKCS#11: every call returns a status, results come back
 * through pointers, buffers are sized by calling twice.  The tests load it
 * with load(path) and call it through the generated Library methods. */
#ifndef ROLES_H
#define ROLES_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned long rl_ulong;
typedef rl_ulong rl_rv;

#define RL_OK 0UL
#define RL_ERR_ARGS 0x7UL
#define RL_ERR_PIN_INCORRECT 0xA0UL
#define RL_ERR_BUFFER_TOO_SMALL 0x150UL
/* Same value as RL_ERR_PIN_INCORRECT: the first name keeps the value. */
#define RL_ERR_PIN_WRONG 0xA0UL

typedef struct rl_version {
    unsigned char major;
    unsigned char minor;
} rl_version;

/* A type/value/length triple, like PKCS#11's CK_ATTRIBUTE. */
typedef struct rl_attribute {
    rl_ulong type;
    void *pValue;
    rl_ulong ulValueLen;
} rl_attribute;

/* An opaque counter: only pointers to it cross the API. */
typedef struct rl_counter rl_counter;

typedef rl_rv (*rl_notify_fn)(rl_ulong event);

struct rl_info {
    rl_version version;
    char label[16];
    rl_notify_fn notify;
    rl_counter *counter;
};

/* Add by to this library's private total and return the new total. */
rl_rv rl_bump(rl_ulong by, rl_ulong *total);
/* Accept the PIN "1234" only. */
rl_rv rl_login(const unsigned char *pin, rl_ulong pin_len);
/* The current list 10, 20, 30 ... (length set by rl_set_count), sized by a first call. */
rl_rv rl_get_list(rl_ulong *items, rl_ulong *count);
rl_rv rl_set_count(rl_ulong count);
/* Each byte XOR 0x20, reversed; the length probe follows PKCS#11. */
rl_rv rl_encrypt(unsigned char *data, rl_ulong data_len, unsigned char *out, rl_ulong *out_len);
/* len bytes 0, 1, 2 ... */
rl_rv rl_random(unsigned char *buf, rl_ulong len);
rl_rv rl_sum(const rl_ulong *values, rl_ulong count, rl_ulong *sum);
rl_rv rl_get_version(rl_version *version);
/* Double *x and return the old value. */
int rl_double(int *x);
/* Fill each attribute: the length when pValue is NULL, else the value "v<type>". */
rl_rv rl_get_attributes(rl_attribute *tmpl, rl_ulong count);
/* Sum of the first byte of every attribute value. */
rl_ulong rl_attribute_bytes(const rl_attribute *attr);
rl_rv rl_fill_info(struct rl_info *info);

rl_rv rl_open(const char *name, rl_counter **counter);
rl_ulong rl_counter_next(rl_counter *counter);
rl_counter *rl_counter_find(const char *name);

/* Fails with RL_ERR_ARGS unless reserved is NULL. */
rl_rv rl_init(void *reserved);
/* Returns its argument: the error policy is switched off for it. */
rl_rv rl_raw_status(rl_ulong code);
/* A table entry the library leaves NULL. */
rl_rv rl_missing_entry(void);
/* Declared here, absent from the table and from the library. */
rl_rv rl_not_exported(void);
/* Found by its symbol, not through the table. */
rl_ulong rl_by_symbol(rl_ulong x);

long rl_strlen(const char *s) __attribute__((nonnull(1)));
long rl_point_len(const rl_version *v, const char *s);

/* Wait up to timeout_ms for rl_set_flag; 1 when it came, 0 on timeout. */
int rl_wait_flag(int timeout_ms);
int rl_waiting(void);
void rl_set_flag(void);

/* Hostile names: Python and Cython words as C names. */
struct object {
    int None;
    int cdef;
    int print;
    int type;
};

// Docs with """ triple quotes """, a */ lookalike, a back\slash \n and ünïcödé.
int print(int def, int type, int len);
int load(const struct object *self);
int object_type(struct object *object);

typedef struct rl_table {
    rl_version version;
    rl_rv (*rl_bump)(rl_ulong by, rl_ulong *total);
    rl_rv (*rl_login)(const unsigned char *pin, rl_ulong pin_len);
    rl_rv (*rl_get_list)(rl_ulong *items, rl_ulong *count);
    rl_rv (*rl_set_count)(rl_ulong count);
    rl_rv (*rl_encrypt)(unsigned char *data, rl_ulong data_len, unsigned char *out, rl_ulong *out_len);
    rl_rv (*rl_random)(unsigned char *buf, rl_ulong len);
    rl_rv (*rl_sum)(const rl_ulong *values, rl_ulong count, rl_ulong *sum);
    rl_rv (*rl_get_version)(rl_version *version);
    rl_rv (*rl_get_attributes)(rl_attribute *tmpl, rl_ulong count);
    rl_rv (*rl_open)(const char *name, rl_counter **counter);
    rl_rv (*rl_init)(void *reserved);
    rl_rv (*rl_raw_status)(rl_ulong code);
    rl_rv (*rl_missing_entry)(void);
} rl_table;

typedef rl_table *rl_table_ptr;

rl_rv rl_get_table(rl_table_ptr *table);

#endif
