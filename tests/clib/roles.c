/* The implementation behind roles.h; built into libroles.so by the tests.
 * State is static, so two copies of the library loaded from two paths each
 * keep their own. */
#include "roles.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static rl_ulong total;
static rl_ulong list_count = 3;
static volatile int flag;
static volatile int waiting;

struct rl_counter {
    const char *name;
    rl_ulong value;
};

static struct rl_counter counters[2] = {{"a", 0}, {"b", 100}};

rl_rv rl_bump(rl_ulong by, rl_ulong *total_out)
{
    total += by;
    *total_out = total;
    return RL_OK;
}

rl_rv rl_login(const unsigned char *pin, rl_ulong pin_len)
{
    if (pin_len == 4 && memcmp(pin, "1234", 4) == 0)
        return RL_OK;
    return RL_ERR_PIN_INCORRECT;
}

rl_rv rl_get_list(rl_ulong *items, rl_ulong *count)
{
    if (items == NULL) {
        *count = list_count;
        return RL_OK;
    }
    if (*count < list_count) {
        *count = list_count;
        return RL_ERR_BUFFER_TOO_SMALL;
    }
    for (rl_ulong i = 0; i < list_count; i++)
        items[i] = 10 * (i + 1);
    *count = list_count;
    return RL_OK;
}

rl_rv rl_set_count(rl_ulong count)
{
    list_count = count;
    return RL_OK;
}

rl_rv rl_encrypt(unsigned char *data, rl_ulong data_len, unsigned char *out, rl_ulong *out_len)
{
    if (out == NULL) {
        *out_len = data_len;
        return RL_OK;
    }
    if (*out_len < data_len) {
        *out_len = data_len;
        return RL_ERR_BUFFER_TOO_SMALL;
    }
    for (rl_ulong i = 0; i < data_len; i++)
        out[i] = data[data_len - 1 - i] ^ 0x20;
    *out_len = data_len;
    return RL_OK;
}

rl_rv rl_random(unsigned char *buf, rl_ulong len)
{
    for (rl_ulong i = 0; i < len; i++)
        buf[i] = (unsigned char)i;
    return RL_OK;
}

rl_rv rl_sum(const rl_ulong *values, rl_ulong count, rl_ulong *sum)
{
    *sum = 0;
    for (rl_ulong i = 0; i < count; i++)
        *sum += values[i];
    return RL_OK;
}

rl_rv rl_get_version(rl_version *version)
{
    version->major = 2;
    version->minor = 40;
    return RL_OK;
}

int rl_double(int *x)
{
    int old = *x;
    *x *= 2;
    return old;
}

rl_rv rl_get_attributes(rl_attribute *tmpl, rl_ulong count)
{
    for (rl_ulong i = 0; i < count; i++) {
        char text[32];
        int n = snprintf(text, sizeof text, "v%lu", tmpl[i].type);
        if (tmpl[i].pValue != NULL) {
            if (tmpl[i].ulValueLen < (rl_ulong)n)
                return RL_ERR_BUFFER_TOO_SMALL;
            memcpy(tmpl[i].pValue, text, (size_t)n);
        }
        tmpl[i].ulValueLen = (rl_ulong)n;
    }
    return RL_OK;
}

rl_ulong rl_attribute_bytes(const rl_attribute *attr)
{
    rl_ulong sum = 0;
    const unsigned char *bytes = attr->pValue;
    for (rl_ulong i = 0; bytes != NULL && i < attr->ulValueLen; i++)
        sum += bytes[i];
    return sum;
}

static rl_rv notify(rl_ulong event) { return event; }

rl_rv rl_fill_info(struct rl_info *info)
{
    info->version.major = 1;
    info->version.minor = 7;
    strcpy(info->label, "roles");
    info->notify = notify;
    info->counter = &counters[1];
    return RL_OK;
}

rl_rv rl_open(const char *name, rl_counter **counter)
{
    *counter = rl_counter_find(name);
    return *counter ? RL_OK : RL_ERR_ARGS;
}

rl_ulong rl_counter_next(rl_counter *counter) { return counter ? ++counter->value : 0; }

rl_counter *rl_counter_find(const char *name)
{
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        if (strcmp(counters[i].name, name) == 0)
            return &counters[i];
    return NULL;
}

rl_rv rl_init(void *reserved) { return reserved == NULL ? RL_OK : RL_ERR_ARGS; }
rl_rv rl_raw_status(rl_ulong code) { return code; }
rl_ulong rl_by_symbol(rl_ulong x) { return x + 1000; }
long rl_strlen(const char *s) { return (long)strlen(s); }
long rl_point_len(const rl_version *v, const char *s) { return v->major + (long)strlen(s); }

int rl_wait_flag(int timeout_ms)
{
    struct timespec pause = {0, 1000000};
    flag = 0;
    waiting = 1;
    for (int i = 0; i < timeout_ms && !flag; i++)
        nanosleep(&pause, NULL);
    waiting = 0;
    return flag;
}

int rl_waiting(void) { return waiting; }
void rl_set_flag(void) { flag = 1; }

int print(int def, int type, int len) { return def * 100 + type * 10 + len; }
int load(const struct object *self) { return self->None + self->cdef + self->print + self->type; }
int object_type(struct object *object) { return object->type; }

static rl_table table = {
    {3, 1}, rl_bump, rl_login, rl_get_list, rl_set_count, rl_encrypt, rl_random, rl_sum,
    rl_get_version, rl_get_attributes, rl_open, rl_init, rl_raw_status, NULL,
};

rl_rv rl_get_table(rl_table_ptr *out)
{
    *out = &table;
    return RL_OK;
}
