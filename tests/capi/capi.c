#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capi.h"

struct capi_definition { char name[16]; int arity; capi_visit fn; void *user; };
struct capi_db {
    char name[32]; int open; capi_listener listener, on_say; int said; long limit;
    capi_watcher watcher; void *context; int watched;
    struct capi_definition defined[8];
};

static int easy_object, multi_object;
CAPI_EASY *capi_easy_init(void) { return &easy_object; }
int capi_easy_perform(CAPI_EASY *easy) { return easy == &easy_object ? 0 : -1; }
void capi_easy_cleanup(CAPI_EASY *easy) { (void)easy; }
CAPI_MULTI *capi_multi_init(void) { return &multi_object; }

capi_session capi_session_new(int value) { int *session = malloc(sizeof *session); *session = value; return session; }
int capi_session_value(capi_session session) { return session ? *(int *)session : -1; }
int capi_session_reopen(capi_session session, capi_session *again) {
    *again = capi_session_new(capi_session_value(session) + 1);
    return 0;
}
void capi_session_free(capi_session session) { free(session); }
int capi_bytes_sum(capi_bytes data, size_t size) {
    int sum = 0;
    for (size_t i = 0; i < size; i++)
        sum += ((unsigned char *)data)[i];
    return sum;
}

static capi_db *last_opened;
capi_db *capi_db_last(void) { return last_opened; }

int capi_db_open(const char *name, capi_db **db) {
    if (!name) { *db = NULL; return 1; }
    *db = last_opened = calloc(1, sizeof **db);
    strncpy((*db)->name, name, sizeof (*db)->name - 1);
    (*db)->open = 1;
    return 0;
}
const char *capi_db_name(const capi_db *db) { return db ? db->name : NULL; }
int capi_db_close(capi_db *db) {
    int was = db ? db->open : -1;
    if (db == last_opened)
        last_opened = NULL;
    free(db);
    return was;
}

void *capi_alloc(size_t size) { size_t *m = malloc(sizeof(size_t) + size); *m = size; return m + 1; }
size_t capi_used(const void *memory) { return memory ? ((const size_t *)memory)[-1] : 0; }
void capi_release(void *memory) { if (memory) free((size_t *)memory - 1); }
void capi_crypt_ctr(size_t length, size_t *off, const unsigned char iv[16], const unsigned char *input,
                    unsigned char *output) {
    for (size_t i = 0; i < length; i++)
        output[i] = input[i] ^ iv[(*off + i) % 16];
    *off += length;
}

size_t capi_send_from(long *offset, size_t count) {
    *offset += (long)count;
    return count;
}

int capi_pair_products(int n_pairs, const capi_pair *pairs) {
    int sum = 0;
    for (int i = 0; i < n_pairs; i++)
        sum += pairs[i].first * pairs[i].second;
    return sum;
}

int capi_count_main(unsigned dbs_size, capi_db *const dbs[]) {
    int count = 0;
    for (unsigned i = 0; i < dbs_size; i++)
        count += strcmp(capi_db_name(dbs[i]), "main") == 0;
    return count;
}

int capi_fill_ints(int *values, int count) {
    for (size_t i = 0; i < (size_t)count; i++)
        values[i] = (int)i;
    return count;
}

capi_rng *capi_rng_new(void) {
    static capi_rng rng = {7};
    return &rng;
}

unsigned long capi_rng_below(const capi_rng *r, unsigned long n) { return r->seed ? n - 1 : 0; }

int capi_fill_doubles(double nu, size_t size, double *v) {
    for (size_t i = 0; i < size; i++)
        v[i] = (double)i + nu;
    return 0;
}

int capi_get_sizes(int id, size_t *sizeof_addr, size_t *sizeof_size) {
    *sizeof_addr = 8;
    *sizeof_size = 16;
    return id;
}

void capi_multinomial(size_t K, unsigned int N, const double p[], unsigned int n[]) {
    for (size_t i = 0; i < K; i++)
        n[i] = (unsigned int)(N * p[i]);
}

int capi_args_sum(unsigned int arg_cnt, const capi_pair *arg_array) {
    int sum = 0;
    for (unsigned int i = 0; i < arg_cnt; i++)
        sum += arg_array[i].first;
    return sum;
}

capi_pair *capi_pair_array(int n) {
    static capi_pair pairs[8];
    for (int i = 0; i < n && i < 8; i++)
        pairs[i] = (capi_pair){i, 2 * i};
    return pairs;
}

int capi_pairs_total(const capi_pair *poly, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += poly[i].second;
    return sum;
}

unsigned int capi_get_size_list(unsigned int *sizes_count, size_t *sizes) {
    unsigned int written = 0;
    for (unsigned int i = 0; i < 5 && written < *sizes_count; i++)
        sizes[written++] = 8 * i;
    *sizes_count = written;
    return 5;
}

int capi_variations_sum(const capi_pair *variations, unsigned int variations_length) {
    return capi_args_sum(variations_length, variations);
}

unsigned int capi_get_tags(unsigned int start_offset, unsigned int *table_count, unsigned int *table_tags) {
    unsigned int written = 0;
    for (unsigned int i = start_offset; i < 5 && written < *table_count; i++)
        table_tags[written++] = 100 + i;
    *table_count = written;
    return 5;
}

int capi_marshal(int n, char **marshalled_data_p, int *len_p) {
    static char message[] = "a\0b\0c";
    *marshalled_data_p = message;
    *len_p = 5;
    return n;
}

int capi_get_syms(int key, const unsigned int **syms_out) {
    static const unsigned int syms[] = {7, 8, 9};
    *syms_out = syms;
    return key ? 3 : 0;
}

void capi_keyblock_fill(capi_keyblock *key) {
    static unsigned char contents[] = {1, 0, 2, 3, 0x55};
    key->magic = 1;
    key->length = 4;
    key->contents = contents;
}

capi_pairs capi_pairs_make(int n) {
    capi_pairs pairs = calloc((size_t)n + 1, sizeof *pairs);
    for (int i = 0; i < n; i++) {
        pairs[i] = malloc(sizeof **pairs);
        pairs[i]->first = i;
        pairs[i]->second = 2 * i;
    }
    return pairs;
}

int capi_pairs_sum(capi_pairs pairs, char **text) {
    static char written[32];
    int sum = 0;
    for (int i = 0; pairs && pairs[i]; i++)
        sum += pairs[i]->first;
    snprintf(written, sizeof written, "%d", sum);
    *text = written;
    return sum;
}

void capi_pairs_free(capi_pairs pairs) {
    for (int i = 0; pairs && pairs[i]; i++)
        free(pairs[i]);
    free(pairs);
}

int capi_static_fill(char s[static 4]) {
    strcpy(s, "abc");
    return 3;
}

const char *capi_first_word(const char *s) { return s; }

size_t capi_static_words(const char *words[static 2]) { return strlen(words[0]) + strlen(words[1]); }

void capi_sheet_fill(capi_sheet *sheet) {
    static int row[3] = {1, 2, 3};
    static capi_db *db;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            sheet->cells[i][j] = 10 * i + j;
    strcpy(sheet->names[0], "ab");
    strcpy(sheet->names[2], "xyz");
    sheet->labels[0] = "red";
    sheet->labels[1] = NULL;
    sheet->labels[2] = "blue";
    sheet->rows[0] = row;
    if (db == NULL)
        capi_db_open("sheet", &db);
    sheet->dbs[0] = db;
}

int capi_sheet_sum(const capi_sheet *sheet) {
    int sum = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            sum += sheet->cells[i][j];
    return sum;
}

int capi_text_sum(unsigned len, const char *s) {
    int sum = 0;
    for (unsigned i = 0; i < len; i++)
        sum += (unsigned char)s[i];
    return sum;
}

int capi_children(long **children_return, unsigned *nchildren_return) {
    static long children[3] = {7, 8, 9};
    *children_return = children;
    *nchildren_return = 3;
    return 1;
}

size_t capi_names_length(char *names[]) {
    size_t sum = 0;
    for (; *names; names++)
        sum += strlen(*names);
    return sum;
}

int capi_get_option(const char *optstr, const char *name, char **value, size_t *valsz) {
    size_t n = strlen(name);
    for (const char *at = optstr; at && *at; at = strchr(at, ',') ? strchr(at, ',') + 1 : NULL) {
        if (strncmp(at, name, n) == 0 && at[n] == '=') {
            *value = (char *)at + n + 1;
            *valsz = strcspn(*value, ",");
            return 0;
        }
    }
    return 1;
}

size_t capi_some_names_length(unsigned n_names, const char *names[]) {
    size_t sum = 0;
    for (unsigned i = 0; i < n_names; i++)
        sum += strlen(names[i]);
    return sum;
}

void capi_copy_sized(void *dstBuffer, size_t *dstSizePtr, const void *srcBuffer, size_t *srcSizePtr) {
    size_t n = *dstSizePtr < *srcSizePtr ? *dstSizePtr : *srcSizePtr;
    memcpy(dstBuffer, srcBuffer, n);
    *dstSizePtr = *srcSizePtr = n;
}

capi_hprofile capi_profile(int i) {
    static int profiles[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    return i >= 0 && i < 8 ? &profiles[i] : NULL;
}

int capi_profiles_sum(capi_hprofile hProfiles[], unsigned nProfiles) {
    int sum = 0;
    for (unsigned i = 0; i < nProfiles; i++)
        sum += *(const int *)hProfiles[i];
    return sum;
}

const char *capi_ntop(int af, const void *src, char *dst, size_t len) {
    const unsigned char *b = src;
    (void)af;
    return snprintf(dst, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]) < (int)len ? dst : NULL;
}

int capi_list_init(capi_db **list, unsigned size) {
    (void)size;
    return capi_db_open("list", list);
}

int capi_pack_with(void *state, const char *source, char *dest, int inputSize, int maxOutputSize) {
    int n = inputSize < maxOutputSize ? inputSize : maxOutputSize;
    (void)state;
    memcpy(dest, source, (size_t)n);
    return n;
}

void *capi_realloc(void *memory, size_t size) {
    size_t *m = realloc(memory ? (size_t *)memory - 1 : NULL, sizeof(size_t) + size);
    *m = size;
    return m + 1;
}
size_t capi_encode(const unsigned char *in, size_t n, uint8_t **output) {
    (void)in, (void)n;
    *output = capi_alloc(6);
    memcpy(*output, "AB\0CDE", 6);
    return 6;
}
int capi_first_byte(const void *object) { return object ? *(const unsigned char *)object : -1; }

static capi_node nodes[4] = {
    {1, "root", NULL, &nodes[1]},
    {2, "a", &nodes[2], NULL},
    {3, "b", &nodes[3], NULL},
    {4, "c", NULL, NULL},
};
capi_node *capi_tree(void) { return &nodes[0]; }
capi_node *capi_find(capi_node *root, const char *name) {
    for (capi_node *n = root ? root->children : NULL; n; n = n->next)
        if (strcmp(n->name, name) == 0) return n;
    return NULL;
}
int capi_count(const capi_node *node) { int n = 0; for (; node; node = node->next) n++; return n; }

size_t capi_strlen(const char *s) { return s ? strlen(s) : 0; }
size_t capi_ulen(const unsigned char *s) { return s ? strlen((const char *)s) : 0; }
const char *capi_rest(const char *text, int n) { return text + n; }
int capi_rest_into(const char *text, int n, const char **end) { *end = text + n; return n; }
int capi_diff(capi_line_cb each, void *user) {
    capi_line lines[2] = {{'+', 1}, {'-', 2}};
    int sum = 0;
    for (int i = 0; i < 2; i++) sum += each(&lines[i], lines[i].origin, user) + lines[i].origin;
    return sum;
}

long double capi_ld_half(long double x) { return x / 2; }
long double capi_ld_apply(capi_ld_fn f, long double x) { return f(x) * 2; }

static capi_job capi_jobs[8];
static int capi_job_count;
void capi_push_job(capi_job job) {
    if (capi_job_count < 8) capi_jobs[capi_job_count++] = job;
}
int capi_run_jobs(int x) {
    int sum = 0;
    for (int i = 0; i < capi_job_count; i++) sum += capi_jobs[i](x);
    return sum;
}
void capi_drop_jobs(void) { capi_job_count = 0; }

size_t capi_nuls(const char *data, size_t data_len) {
    size_t n = 0;
    for (size_t i = 0; i < data_len; i++) n += data[i] == 0;
    return n;
}

unsigned int capi_text_length(const unsigned char *text, capi_tsize length) {
    return length == CAPI_ZERO_TERMINATED ? (unsigned int)strlen((const char *)text) : length;
}
static char greeting[64];
int capi_greet(const char *name, char **out) {
    strcpy(greeting, "hello, ");
    strncat(greeting, name, sizeof greeting - 8);
    *out = greeting;
    return (int)strlen(greeting);
}
int capi_lookup(const char *key, const char **value) {
    *value = strcmp(key, "color") == 0 ? "blue" : NULL;
    return *value != NULL;
}

static const int table[] = {10, 20, 30};
const int *capi_table(void) { return table; }
int capi_table_at(const int *t, int index) { return t[index]; }
static int row0[] = {1, 2, 3}, row1[] = {4, 5, 6};
static int *rows[] = {row0, row1};
int **capi_rows(void) { return rows; }
static const char *const names[] = {"alpha", NULL, "gamma"};
const char *const *capi_names(void) { return names; }
static const double reals[] = {1.5, -2.25, 1e300};
const double *capi_reals(void) { return reals; }
static const capi_color palette[] = {CAPI_GREEN, CAPI_RED, (capi_color)3};
const capi_color *capi_palette(void) { return palette; }
static const _Bool switches[] = {1, 0, 1};
const _Bool *capi_switches(void) { return switches; }
static unsigned char odd_switches[2] = {5, 0};
const _Bool *capi_odd_switches(void) { return (const _Bool *)(void *)odd_switches; }
int capi_row_sum(int **r, int row) { return r[row][0] + r[row][1] + r[row][2]; }

capi_color capi_mix(int bits) { return (capi_color)bits; }
static int cell;
int capi_void_out(void **memory) { *memory = &cell; return 1; }

unsigned long capi_crc(unsigned long crc, const unsigned char *buf, unsigned int len) {
    for (unsigned int i = 0; i < len; i++) crc = crc * 31 + buf[i];
    return crc;
}
int capi_sum(const int *values, size_t count) { int s = 0; for (size_t i = 0; i < count; i++) s += values[i]; return s; }
int capi_escape(CAPI_EASY *easy, const char *string, int length) {
    (void)easy;
    int n = 0;
    for (int i = 0; i < (length ? length : (int)strlen(string)); i++) n += string[i] == ' ' ? 3 : 1;
    return n;
}
int capi_checksum(const void *data, size_t size) {
    int s = 0;
    for (size_t i = 0; i < size; i++) s += ((const unsigned char *)data)[i];
    return s;
}
int capi_copy(unsigned char *dest, unsigned long *destLen, const unsigned char *src, unsigned long srcLen) {
    if (srcLen > *destLen) return -5;
    memcpy(dest, src, srcLen);
    *destLen = srcLen;
    return 0;
}
int capi_pack(size_t input_size, const unsigned char input_buffer[input_size],
              size_t *encoded_size, unsigned char encoded_buffer[(*encoded_size)]) {
    if (input_size > *encoded_size) return 0;
    for (size_t i = 0; i < input_size; i++) encoded_buffer[i] = (unsigned char)toupper(input_buffer[i]);
    *encoded_size = input_size;
    return 1;
}
int capi_pack_names(size_t input_size, const unsigned char *input_buffer,
                    size_t *encoded_size, unsigned char *encoded_buffer) {
    return capi_pack(input_size, input_buffer, encoded_size, encoded_buffer);
}
size_t capi_fill_from(unsigned char *out, size_t *out_pos, size_t out_size) {
    size_t start = *out_pos;
    for (; *out_pos < out_size; ++*out_pos) out[*out_pos] = 'x';
    return *out_pos - start;
}
void capi_xor_into(const capi_pair *state, size_t length, unsigned char *dst, const unsigned char *src) {
    (void)state;
    for (size_t i = 0; i < length; i++) dst[i] ^= src[i];
}
int capi_vla_sum(int n, const int values[n]) {
    int s = 0;
    for (int i = 0; i < n; i++) s += values[i];
    return s;
}
double capi_dot(int n, const double x[n], const double y[n]) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}
int capi_find_words(const char *text, size_t nspan, capi_span spans[nspan]) {
    size_t found = 0;
    for (int i = 0; text[i] != '\0';) {
        while (text[i] == ' ') i++;
        if (text[i] == '\0') break;
        int start = i;
        while (text[i] != ' ' && text[i] != '\0') i++;
        if (found < nspan) { spans[found].start = start; spans[found].end = i; }
        found++;
    }
    for (size_t k = found; k < nspan; k++) spans[k].start = spans[k].end = -1;
    return (int)found;
}
int capi_sum_seconds(const capi_pair *iov, int iovcnt) {
    int sum = 0;
    for (int i = 0; i < iovcnt; i++) sum += iov[i].second;
    return sum;
}
int capi_swap_pairs(capi_pair *pairs, size_t npairs) {
    int sum = 0;
    for (size_t i = 0; i < npairs; i++) {
        int first = pairs[i].first;
        pairs[i].first = pairs[i].second;
        pairs[i].second = first;
        sum += first;
    }
    return sum;
}
int capi_pair_span(const capi_pair pairs[2]) {
    return pairs ? pairs[1].second - pairs[0].first : -1;
}
int capi_count_open(unsigned num_dbs, capi_db *const dbs[]) {
    int open = 0;
    for (unsigned i = 0; i < num_dbs; i++) open += dbs[i] != NULL;
    return open;
}
int capi_count_types(capi_db **DbTypes, unsigned DbCount) {
    return capi_count_open(DbCount, DbTypes);
}
int capi_count_args(capi_db **Args, unsigned NumArgs) {
    return capi_count_open(NumArgs, Args);
}
int capi_argv_length(char *const argv[]) {
    int n = 0;
    while (argv[n] != NULL) n++;
    return n;
}
size_t capi_join(char *out, size_t out_size, const char *const *parts, const char *sep) {
    size_t used = 0;
    for (size_t i = 0; parts[i] != NULL; i++) {
        used += (size_t)snprintf(out + (used < out_size ? used : out_size),
                                 used < out_size ? out_size - used : 0, "%s%s", i ? sep : "", parts[i]);
    }
    return used;
}
int capi_total_length(const char **words, int nwords) {
    int total = 0;
    for (int i = 0; i < nwords; i++) total += words[i] ? (int)strlen(words[i]) : -1;
    return total;
}
int capi_fill_rows(unsigned char **rows, unsigned nrows, unsigned width) {
    for (unsigned i = 0; i < nrows; i++) memset(rows[i], 'a' + (int)i, width);
    return (int)nrows;
}
int capi_span_sum(capi_span **spans, size_t nspans) {
    int total = 0;
    for (size_t i = 0; i < nspans; i++) total += spans[i] ? spans[i]->end - spans[i]->start : 0;
    return total;
}
int capi_span_total(size_t n, const capi_span spans[n]) {
    int total = 0;
    for (size_t i = 0; i < n; i++) total += spans[i].end - spans[i].start;
    return total;
}
int capi_define(const char *name, int nArg) { return (int)strlen(name) * 100 + nArg; }
int capi_status(int op, int *current, long *highwater) { *current = op * 2; *highwater = (long)op << 40; return 0; }
void capi_scale(double *value, float factor) { *value *= factor; }
int capi_flag(_Bool *flag) { *flag = !*flag; return *flag; }

static int live;
char *capi_strdup(const char *s) { char *copy = malloc(strlen(s) + 1); strcpy(copy, s); live++; return copy; }
void capi_free(void *memory) { if (memory) { live--; free(memory); } }
capi_node *capi_node_new(int value) { capi_node *n = calloc(1, sizeof *n); n->value = value; live++; return n; }
void capi_node_free(capi_node *node) {
    if (!node) return;
    capi_node_free(node->children);
    live--;
    free(node);
}
int capi_node_child(capi_node *parent, int value, capi_node **child) {
    *child = capi_node_new(value);
    (*child)->next = NULL;
    return parent ? parent->value : -1;
}
int capi_live(void) { return live; }

capi_span **capi_spans_new(int n) {
    capi_span **list = calloc((size_t)n + 1, sizeof *list);
    for (int i = 0; i < n; i++) {
        list[i] = malloc(sizeof **list);
        list[i]->start = i;
        list[i]->end = 2 * i;
    }
    live++;
    return list;
}
void capi_spans_free(capi_span **list) {
    for (capi_span **at = list; at && *at; at++) free(*at);
    if (list) live--;
    free(list);
}
void capi_node_unref(capi_node **node) {
    if (*node && --(*node)->value <= 0) {
        capi_node_free(*node);
        *node = NULL;
    }
}
void capi_db_release(capi_db **db) {
    capi_db_close(*db);
    *db = NULL;
}
void capi_db_release_both(capi_db **db, capi_node **node) {
    if (db && *db) capi_db_release(db);
    if (node && *node) {
        capi_node_free(*node);
        *node = NULL;
    }
}

static unsigned char *copy_text(const char *text) {
    size_t n = strlen(text);
    unsigned char *copy = malloc(n + 1);
    memcpy(copy, text, n + 1);
    return copy;
}
static struct { int depth; } nesting = {3};
int capi_parse(const char *text, capi_event *event) {
    memset(event, 0, sizeof *event);
    event->start_mark.line = 7;
    event->start_mark.column = strlen(text);
    event->stats.lines = 1;
    event->stats.tint = CAPI_BLUE;
    event->stats.flags = 5;
    event->stats.level = CAPI_LOUD;
    event->stats.class = -3;
    event->low = 1;
    event->high = 2;
    event->marks[1].id = 42;
    if (strncmp(text, "scalar:", 7) == 0) {
        event->type = CAPI_SCALAR_EVENT;
        event->data.scalar.value = copy_text(text + 7);
        event->data.scalar.length = strlen(text + 7);
        event->data.scalar.anchor = copy_text("anchor");
        event->data.scalar.style = CAPI_GREEN;
        return 1;
    }
    if (strncmp(text, "alias:", 6) == 0) {
        event->type = CAPI_ALIAS_EVENT;
        event->data.alias.anchor = copy_text(text + 6);
        return 1;
    }
    if (strncmp(text, "sequence:", 9) == 0) {
        event->type = CAPI_SEQUENCE_EVENT;
        event->data.sequence.count = atoi(text + 9);
        for (int i = 0; i < 4; i++) event->data.sequence.items[i] = i * 10;
        event->data.sequence.nesting = (void *)&nesting;
        return 1;
    }
    return 0;
}
void capi_event_delete(capi_event *event) {
    if (event->type == CAPI_SCALAR_EVENT) {
        free(event->data.scalar.value);
        free(event->data.scalar.anchor);
    } else if (event->type == CAPI_ALIAS_EVENT) {
        free(event->data.alias.anchor);
    }
    memset(event, 0, sizeof *event);
}
size_t capi_event_value_length(const capi_event *event) {
    return event->type == CAPI_SCALAR_EVENT && event->data.scalar.value
        ? strlen((const char *)event->data.scalar.value) : 0;
}
int capi_event_depth(const capi_event *event) {
    return event->data.sequence.nesting ? event->data.sequence.nesting->depth : -1;
}

static struct { int refs; const char *label; } library_ref = {2, "shared"};
static char library_buffer[16] = "buffer";
static capi_holder library_holder;
capi_holder *capi_holder_library(void) {
    library_holder.name = "library";
    library_holder.buffer = library_buffer;
    library_holder.bytes = (unsigned char *)"\xc3\xa9t\xc3\xa9";
    library_holder.node = &nodes[1];
    library_holder.next = &library_holder;
    library_holder.db = NULL;
    library_holder.easy = capi_easy_init();
    library_holder.data = &cell;
    library_holder.numbers = row1;
    library_holder.constants = table;
    library_holder.rows = rows;
    library_holder.ref = (capi_ref)(void *)&library_ref;
    library_holder.color = CAPI_BLUE;
    return &library_holder;
}
size_t capi_holder_name_length(const capi_holder *h) { return h->name ? strlen(h->name) : 0; }
int capi_holder_upcase(capi_holder *h) {
    int n = 0;
    for (char *c = h->buffer; c && *c; c++, n++) *c = (char)toupper((unsigned char)*c);
    for (unsigned char *c = h->bytes; c && *c; c++) *c = (unsigned char)toupper(*c);
    return n;
}
int capi_holder_node_value(const capi_holder *h) { return h->node ? h->node->value : -1; }
int capi_holder_next_color(const capi_holder *h) { return h->next ? (int)h->next->color : -1; }
int capi_holder_db_is_open(const capi_holder *h) { return h->db ? h->db->open : -1; }
int capi_holder_easy_perform(const capi_holder *h) { return h->easy ? capi_easy_perform(h->easy) : -2; }
int capi_holder_data_byte(const capi_holder *h) { return h->data ? *(const unsigned char *)h->data : -1; }
int capi_holder_bump(capi_holder *h) { return h->numbers ? ++h->numbers[0] : -1; }
int capi_holder_constant(const capi_holder *h, int index) { return h->constants ? h->constants[index] : -1; }
int capi_holder_row_sum(const capi_holder *h, int row) { return h->rows ? capi_row_sum(h->rows, row) : -1; }
int capi_holder_refs(const capi_holder *h) { return h->ref ? h->ref->refs : -1; }

static int applied;
int capi_apply(capi_visit f, void *user, int x) { return f ? (applied = f(x, user)) + 1 : -1; }
int capi_step_twice(capi_step step, int x) { return step ? step(step(x)) : -1; }
double capi_step_thrice(int step(int value), int x, double scale) { return step(step(step(x))) * scale; }
static int capi_doubled(int value) { return 2 * value; }
static int capi_negated(int value) { return -value; }
capi_step *capi_pick_step(int which) { return which == 1 ? capi_doubled : which == 2 ? capi_negated : NULL; }
int capi_applied(void) { return applied; }
static capi_visit hook;
static void *hook_user;
void capi_set_hook(capi_visit f, void *user) { hook = f; hook_user = user; }
int capi_run_hook(int x) { return hook ? hook(x, hook_user) : -1; }

static int (*comparator)(const int *, const int *);
static int compare(const void *a, const void *b) { return comparator(a, b); }
void capi_sort(int *base, size_t n, int (*cmp)(const int *, const int *)) {
    comparator = cmp;
    qsort(base, n, sizeof *base, compare);
}

void capi_db_listen(capi_db *db, capi_listener listener) { db->listener = listener; }
void capi_db_on_say(capi_db *db, capi_listener listener) { db->on_say = listener; }
int capi_db_say(capi_db *db, const char *text) {
    if (db->listener)
        db->listener(db, text, 0.5);
    if (db->on_say)
        db->on_say(db, text, 1.5);
    if (db->watcher)
        db->watched += db->watcher(db->context, text);
    return ++db->said;
}
void capi_db_watch(capi_db *db, capi_watcher watcher, void *context) { db->watcher = watcher; db->context = context; }
int capi_db_watched(const capi_db *db) { return db->watched; }
void capi_db_visit(capi_db *db, void (*visit)(capi_db *db, void *user), void *user) { visit(db, user); }
int capi_db_count_said(capi_db *db) { return db->said; }

static struct capi_definition *capi_defined(capi_db *db, const char *name, int arity, int making) {
    for (int i = 0; i < 8; i++)
        if (db->defined[i].fn && db->defined[i].arity == arity && !strcmp(db->defined[i].name, name))
            return &db->defined[i];
    for (int i = 0; making && i < 8; i++)
        if (!db->defined[i].fn) {
            snprintf(db->defined[i].name, sizeof db->defined[i].name, "%s", name);
            db->defined[i].arity = arity;
            return &db->defined[i];
        }
    return NULL;
}
void capi_db_define(capi_db *db, const char *name, int arity, capi_visit fn, void *user) {
    struct capi_definition *d = capi_defined(db, name, arity, fn != NULL);
    if (d) { d->fn = fn; d->user = user; }
}
int capi_db_invoke(capi_db *db, const char *name, int arity, int value) {
    struct capi_definition *d = capi_defined(db, name, arity, 0);
    return d && d->fn ? d->fn(value, d->user) : -1;
}
int capi_run_words(capi_words *f) {
    static const char *words[] = {"one", "two", NULL};
    return f(2, words);
}
int capi_split(const char *text, int *argc, const char ***argv) {
    static char words[8][16];
    static const char *list[9];
    int n = 0;
    for (const char *at = text; *at;) {
        size_t length = strcspn(at, " ");
        if (length) {
            if (n == 8)
                return -1;
            snprintf(words[n], sizeof words[n], "%.*s", (int)length, at);
            list[n] = words[n];
            n++;
        }
        at += length + (at[length] == ' ');
    }
    list[n] = NULL;
    *argc = n;
    *argv = list;
    return 0;
}
static int words_freed;
char **capi_words_new(int n) {
    char **words = calloc((size_t)n + 1, sizeof *words);
    for (int i = 0; i < n; i++) {
        words[i] = malloc(16);
        snprintf(words[i], 16, "w%d", i);
    }
    return words;
}
void capi_words_free(char **words) {
    for (char **at = words; at && *at; at++, words_freed++)
        free(*at);
    free(words);
}
int capi_words_freed(void) { return words_freed; }
unsigned char **capi_octets_new(int n) {
    unsigned char **list = malloc(((size_t)n + 1) * (sizeof *list + 4));
    unsigned char *text = (unsigned char *)(list + n + 1);
    for (int i = 0; i < n; i++, text += 4) {
        text[0] = 'o', text[1] = (unsigned char)('0' + i % 10), text[2] = 0;
        list[i] = text;
    }
    list[n] = NULL;
    return list;
}
void capi_octets_free(const unsigned char **list) {
    for (const unsigned char **at = list; at && *at; at++)
        words_freed++;
    free((void *)list);
}
int capi_node_order(const capi_node **a, const capi_node **b) { return (*b)->value - (*a)->value; }
static int (*node_cmp)(const capi_node **, const capi_node **);
static int node_compare(const void *a, const void *b) { return node_cmp((const capi_node **)a, (const capi_node **)b); }
int capi_sort_nodes(int (*cmp)(const capi_node **a, const capi_node **b)) {
    const capi_node *list[4] = {&nodes[0], &nodes[1], &nodes[2], &nodes[3]};
    node_cmp = cmp;
    qsort(list, 4, sizeof list[0], node_compare);
    return list[0]->value * 1000 + list[1]->value * 100 + list[2]->value * 10 + list[3]->value;
}
static char taken_copy[64];
static const char *taken;
int capi_take_text(const char *text, capi_destructor how) {
    if (how == CAPI_TRANSIENT) {
        snprintf(taken_copy, sizeof taken_copy, "%s", text);
        taken = taken_copy;
        return 1;
    }
    taken = text;
    return how == CAPI_STATIC ? 0 : 2;
}
const char *capi_taken(void) { return taken; }
void *capi_map(int fail) { static int memory; return fail ? CAPI_MAP_FAILED : &memory; }
static int (*handlers[8])(int);
void capi_on(int number, int (*handler)(int)) { if (number >= 0 && number < 8) handlers[number] = handler; }
int capi_raise(int number, int value) { return number >= 0 && number < 8 && handlers[number] ? handlers[number](value) : -1; }

/* run(arg) in a new thread, waited for; 0, or -1 when no thread could be started */
static int capi_run_in_thread(void *(*run)(void *), void *arg) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, run, arg) != 0)
        return -1;
    pthread_join(thread, NULL);
    return 0;
}

struct capi_job { int (*f)(int); int x, result; };
static void *capi_job_run(void *arg) { struct capi_job *job = arg; job->result = job->f(job->x); return NULL; }
int capi_in_thread(int (*f)(int), int x) {
    struct capi_job job = {f, x, 0};
    return capi_run_in_thread(capi_job_run, &job) ? -1 : job.result;
}

struct capi_saying { capi_db *db; const char *text; int said; };
static void *capi_say_run(void *arg) { struct capi_saying *s = arg; s->said = capi_db_say(s->db, s->text); return NULL; }
int capi_db_say_in_thread(capi_db *db, const char *text) {
    struct capi_saying saying = {db, text, 0};
    return capi_run_in_thread(capi_say_run, &saying) ? -1 : saying.said;
}

capi_color capi_recolor(capi_color (*f)(capi_color), capi_color c) { return f(c); }

int capi_with_mark(int (*f)(capi_mark *mark), size_t line) {
    capi_mark mark = {line, line + 1};
    int got = f(&mark);
    return got * 1000 + (int)mark.column;
}

size_t capi_feed(capi_sink sink, void *user) {
    char data[] = "ab\0cd";
    return sink(data, 5, user);
}

int capi_compress(int quality, unsigned char **jpegBuf, unsigned long *jpegSize) {
    unsigned char *out = malloc(4);
    out[0] = 0xff, out[1] = 0xd8, out[2] = 0, out[3] = (unsigned char)quality;
    *jpegBuf = out;
    *jpegSize = 4;
    return 0;
}

const char *capi_value_of(int which, size_t *len) {
    static const char data[7] = {'h', 'e', 0, 'l', 'l', 'o', 'X'};  /* no NUL after the six */
    static const char *const texts[2] = {data, "plain"};
    if (which < 0 || which > 1)
        return NULL;
    if (len)
        *len = which ? 5 : 6;
    return texts[which];
}
unsigned char *capi_decoded(const char *text, int *out_len) {
    size_t n = strlen(text);
    unsigned char *out = malloc(n + 2);
    for (size_t i = 0; i < n; i++) out[i] = (unsigned char)(text[i] == '.' ? 0 : text[i]);
    out[n] = '!';
    out[n + 1] = 0;
    *out_len = (int)n;
    return out;
}

static double capi_left[4], capi_right[4];
static double *capi_both[2] = {capi_left, capi_right};
double **capi_channels(void) { return capi_both; }
double capi_channels_sum(void) {
    double s = 0;
    for (int i = 0; i < 4; i++) s += capi_left[i] + 10 * capi_right[i];
    return s;
}
int capi_planes(capi_planes_cb write, void *user) {
    static const int left[3] = {1, 2, 3}, right[3] = {4, 5, 6};
    const int *const planes[2] = {left, right};
    return write(planes, 3, user);
}

int capi_numbers(capi_number_cb number, void *ctx) {
    return number(ctx, "42, SECRET", 2) + number(ctx, "k\0y", 3) + number(ctx, NULL, 0) + number(ctx, "q", (size_t)-1);
}

void capi_sort_items(void *base, size_t nmemb, size_t size, int (*cmp)(const void *, const void *)) {
    qsort(base, nmemb, size, cmp);
}

size_t capi_fill_items(void *ptr, size_t size, size_t nmemb) {
    for (size_t i = 0; i < size * nmemb; i++)
        ((unsigned char *)ptr)[i] = (unsigned char)(i + 1);
    return nmemb;
}

int capi_run_settings(const capi_settings *settings) {
    return (settings->on_number ? settings->on_number(NULL, "7", 1) : 0)
           + (settings->on_other ? settings->on_other(NULL, "7", 1) : 0);
}

size_t capi_fill_unnamed(capi_unnamed_filler fill) {
    unsigned char *buffer = calloc(16, 1);
    size_t said = fill(NULL, buffer, 16), sum = 0;
    for (size_t i = 0; i < said && i < 16; i++)
        sum += buffer[i];
    free(buffer);
    return sum;
}

size_t capi_fill(capi_filler fill) {
    unsigned char *buffer = calloc(16, 1);
    size_t said = fill(buffer, 16), sum = 0;
    for (size_t i = 0; i < said && i < 16; i++)
        sum += buffer[i];
    free(buffer);
    return sum;
}

struct capi_alarm { capi_alarm_cb cb; void *arg; };
static char alarm_marker;
void *capi_alarm_self(void) { return &alarm_marker; }
capi_alarm *capi_alarm_new(capi_alarm_cb cb, void *arg) {
    capi_alarm *alarm = malloc(sizeof *alarm);
    alarm->cb = cb;
    alarm->arg = arg == &alarm_marker ? (void *)alarm : arg;
    return alarm;
}
void capi_alarm_fire(capi_alarm *alarm, int what) { alarm->cb(what, alarm->arg); }
void *capi_alarm_arg(capi_alarm *alarm) { return alarm->arg; }
void capi_alarm_free(capi_alarm *alarm) { free(alarm); }

double capi_cplx_sum(int n, const capi_cplx *v) {
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += 10 * v[i][0] + v[i][1];
    return sum;
}
void capi_cplx_scale(int n, capi_cplx *v, double k) {
    for (int i = 0; i < n; i++)
        v[i][0] *= k, v[i][1] *= k;
}

double capi_matrix_sum(int rows, int cols, const double m[rows][cols]) {
    double sum = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            sum += m[i][j] * (1 + i * cols + j);
    return sum;
}

size_t capi_write_out(capi_writer write, void *user) {
    char data[] = "abcdef";
    return write(data, 2, 3, user);
}

int capi_format(char *buf, size_t size, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, size, format, ap);
    va_end(ap);
    return n;
}

long long capi_add(int count, ...) {
    va_list ap;
    long long sum = 0;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        sum += va_arg(ap, long long);
    va_end(ap);
    return sum;
}

int capi_db_setopt(capi_db *db, int option, ...) {
    va_list ap;
    int status = 0;
    va_start(ap, option);
    switch (option) {
    case CAPI_OPT_NAME:
        snprintf(db->name, sizeof db->name, "%s", va_arg(ap, const char *));
        break;
    case CAPI_OPT_LIMIT:
        db->limit = va_arg(ap, long);
        break;
    case CAPI_OPT_LISTENER:
        db->listener = va_arg(ap, capi_listener);
        break;
    case CAPI_OPT_ON_SAY:
        db->on_say = va_arg(ap, capi_listener);
        break;
    default:
        status = -1;
    }
    va_end(ap);
    return status;
}

int capi_db_getinfo(capi_db *db, int info, ...) {
    va_list ap;
    int status = 0;
    va_start(ap, info);
    switch (info) {
    case CAPI_INFO_NAME:
        *va_arg(ap, const char **) = db->name;
        break;
    case CAPI_INFO_LIMIT:
        *va_arg(ap, long *) = db->limit;
        break;
    case CAPI_INFO_WEIGHT:
        *va_arg(ap, double *) = db->limit / 4.0;
        break;
    default:
        status = -1;
    }
    va_end(ap);
    return status;
}

int capi_handler_run(const capi_handler *handler, int x) {
    return (handler->visit ? handler->visit(x, handler->user) : 0) + (handler->twice ? handler->twice(x) : 0);
}

int capi_visit_all(capi_visit f, int count, ...) {
    va_list ap;
    int sum = 0;
    va_start(ap, count);
    for (int i = 0; i < count; i++)
        sum += f(va_arg(ap, int), NULL);
    va_end(ap);
    return sum;
}

const char *capi_open_with(capi_opener open, const char *name) {
    capi_db *db = open(name);
    return db ? db->name : NULL;
}

int capi_fill_with(void *(*allocate)(size_t size), size_t size) {
    unsigned char *memory = allocate(size);
    if (!memory)
        return -1;
    memset(memory, 7, size);
    return memory[size - 1];
}
int (capi_tripled)(int x) {
    return 3 * x;
}

void capi_big_set(capi_big_ptr x, long value) {
    x->size = 1;
    x->limb = value;
}

long capi_big_add(capi_big_ptr sum, const capi_big_struct *a, capi_big_ptr b) {
    sum->size = 1;
    sum->limb = a->limb + b->limb;
    return sum->limb;
}

int capi_move(void *dest, const void *src, size_t n) {
    memcpy(dest, src, n);
    return n ? ((unsigned char *)dest)[0] : -1;
}

int capi_move_text(char *dest, const char *src, size_t n) {
    strncpy(dest, src, n);
    return n ? (unsigned char)dest[0] : -1;
}

unsigned long capi_salt(const char *prefix, unsigned long count) {
    return strlen(prefix) + count;
}

int capi_versioned(int x) {
    return x + 42;
}

int capi_stream_fd(const capi_stream *s) {
    return s->u.fd + s->bytes;
}

int capi_timer_fd(const capi_timer *t) {
    return t->u.fd + t->due;
}

const capi_listing *capi_listing_get(void) {
    static capi_pair pairs[2] = {{1, 2}, {3, 4}};
    static capi_pair *items[3] = {&pairs[0], &pairs[1], NULL};
    static capi_db *dbs[2];
    static capi_listing listing = {3, items, dbs};
    if (!dbs[0])
        capi_db_open(":listing:", &dbs[0]);
    return &listing;
}

const void *capi_blob(size_t *size) {
    static const unsigned char blob[] = {0x00, 0x01, 0xff, 0x7f};
    *size = sizeof blob;
    return blob;
}

long capi_read_items(short *ptr, long items) {
    for (long i = 0; i < items; i++)
        ptr[i] = (short)i;
    return items;
}

int capi_move_reserved(void *__dest, const void *__src, size_t __n) {
    return capi_move(__dest, __src, __n);
}
bool capi_is_even(int n) { return n % 2 == 0; }
long capi_pull(capi_reader read, void *user) {
    char buf[5];
    long bytes = 0, sum = 0;
    for (int round = 0; round < 100; round++) {
        size_t got = read(buf, sizeof buf, user);
        if (got == 0 || got > sizeof buf) break;
        for (size_t i = 0; i < got; i++) sum += (unsigned char)buf[i];
        bytes += (long)got;
    }
    return 1000 * bytes + sum;
}
double capi_ask(capi_answer answer) {
    int count = -1;
    double scale = -1.0;
    answer(&count, &scale, "how many?");
    return count * scale;
}
double capi_offer(capi_reading look) {
    static const float values[3] = {1.5f, 2.5f, 4.0f};
    int seen = look(values, 3);
    double sum = 0;
    if (seen < 0 || seen > 3) return -1;
    for (int i = 0; i < seen; i++) sum += values[i];
    return sum;
}

capi_datum capi_datum_get(void) {
    static char bytes[3] = {'a', 0, 'b'};  /* no NUL after: reading to one would run past */
    capi_datum d = {bytes, 3};
    return d;
}
int capi_datum_sum(capi_datum d) {
    int sum = 0;
    for (int i = 0; i < d.dsize; i++) sum += (unsigned char)d.dptr[i];
    return sum;
}
const capi_reply *capi_reply_get(void) {
    static const capi_reply reply = {3, "x\0y", "note"};
    return &reply;
}
int capi_reply_any(void **reply) {
    *reply = (void *)capi_reply_get();
    return 0;
}
int capi_getparam(int which, void *value) {
    switch (which) {
    case 0: *(size_t *)value = (size_t)1 << 20; return 0;
    case 1: *(int *)value = -7; return 0;
    case 2: *(double *)value = 0.5; return 0;
    default: return -1;
    }
}
unsigned capi_unnamed_sum(const void *data, size_t size) {
    unsigned sum = 0;
    for (size_t i = 0; i < size; i++) sum += ((const unsigned char *)data)[i];
    return sum;
}
void capi_unnamed_fill(unsigned char *out, size_t size, int value) { memset(out, value, size); }
unsigned capi_unnamed_sum64(const void *data, capi_u64 size) { return capi_unnamed_sum(data, (size_t)size); }
unsigned capi_sum_us(const void *buf_, size_t len_) { return capi_unnamed_sum(buf_, len_); }
unsigned capi_sum_bytes(const void *ptr, long bytes) { return capi_unnamed_sum(ptr, (size_t)bytes); }
int capi_unnamed_error(int *code, size_t *offset) { *code = 1; *offset += 3; return -1; }
static capi_link capi_link_nodes[3] = {{10, &capi_link_nodes[1]}, {20, &capi_link_nodes[2]}, {30, NULL}};
capi_link *capi_links(void) { return capi_link_nodes; }
capi_gpointer capi_memdup(const void *mem, size_t size) { void *copy = malloc(size); memcpy(copy, mem, size); return copy; }
unsigned capi_pointer_sum(capi_gpointer data, size_t n) { return capi_unnamed_sum(data, n); }
size_t capi_sprint(void *buffer, size_t maxlength) {
    size_t n = maxlength < 6 ? maxlength : 6;
    memcpy(buffer, "hello", n);
    return n;
}
size_t capi_strnlen(const char *s, size_t maxlen) { return strnlen(s, maxlen); }
long capi_distance(const unsigned char *start, const unsigned char *end) { return (long)(end - start); }
size_t capi_ctx_size(const void *context, size_t size) { (void)context; return size; }
capi_link *capi_link_nth(capi_link *list, unsigned n) {
    while (list && n--)
        list = list->next;
    return list;
}
struct capi_set { int total; };
int capi_set_new(capi_set **set, int n, capi_db *dbs[]) {
    *set = malloc(sizeof **set);
    (*set)->total = 0;
    for (int i = 0; i < n; i++)
        (*set)->total += (int)strlen(dbs[i]->name);
    return 0;
}
int capi_set_total(const capi_set *set) { return set->total; }
int capi_set_make(capi_set **set_ptr, size_t max_table_size) {
    *set_ptr = malloc(sizeof **set_ptr);
    (*set_ptr)->total = (int)max_table_size;
    return 0;
}
int capi_infos(capi_info **infos, int *count) {
    *infos = malloc(3 * sizeof **infos);
    for (int i = 0; i < 3; i++)
        (*infos)[i] = (capi_info){i + 1, 1.5 * i};
    *count = 3;
    return 0;
}
int capi_free_infos(capi_info *infos, int count) {
    int sum = 0;
    for (int i = 0; i < count; i++)
        sum += infos[i].id;
    free(infos);  /* what capi_infos allocated: a copy would abort here */
    return sum;
}
int capi_handle_kind(const capi_handle *handle) { return handle->kind; }
size_t capi_parse_len(const char *value, size_t buffer_length) { return capi_nuls(value, buffer_length); }
capi_punned capi_punned_of(unsigned char byte) { capi_punned made = {0}; made.byte = byte; return made; }
double capi_dash_sum(const double *dashes, int num_dashes) {
    double sum = 0;
    for (int i = 0; i < num_dashes; i++)
        sum += dashes[i];
    return sum;
}
void capi_set_free(capi_set *set) { free(set); }
long capi_vio(capi_vio_read read, void *user) {
    unsigned char buffer[8] = {0};
    long got = read(buffer, sizeof buffer, user);
    return got < 0 ? got : (long)capi_unnamed_sum(buffer, sizeof buffer);
}
int capi_unnamed_copy(char *out, size_t *size) {
    const char text[] = "hello";
    if (*size < sizeof text)
        return -1;
    memcpy(out, text, sizeof text);
    *size = sizeof text - 1;
    return 0;
}
static int capi_plain_last;
int capi_call_plain(capi_plain_proc *proc, void *user, int value) { return capi_plain_last = proc(value, user); }
int capi_plain_got(void) { return capi_plain_last; }
size_t capi_block(const char *name, size_t block_size) { return strlen(name) + block_size; }
int capi_decompress(const char *src, char *dst, int compressedSize, int dstCapacity) {
    int n = compressedSize < dstCapacity ? compressedSize : dstCapacity;
    memcpy(dst, src, (size_t)n);
    return n;
}
int capi_compress_dest_size(const char *src, char *dst, int *srcSizePtr, int targetDstSize) {
    int n = *srcSizePtr < targetDstSize ? *srcSizePtr : targetDstSize;
    memcpy(dst, src, (size_t)n);
    return *srcSizePtr = n;
}
int capi_load_dict(const char *dictionary, int dictSize) {
    int s = 0;
    for (int i = 0; i < dictSize; i++) s += (unsigned char)dictionary[i];
    return s;
}
int capi_color_of(const char *name, capi_color *color) {
    if (strcmp(name, "red") == 0) *color = CAPI_RED;
    else if (strcmp(name, "green") == 0) *color = CAPI_GREEN;
    else if (strcmp(name, "blue") == 0) *color = CAPI_BLUE;
    else return -1;
    return 0;
}
static capi_iobuf capi_stream_buf;
long capi_read_stream(capi_alloc_cb alloc, capi_read_cb read, const char *data) {
    size_t size = strlen(data);
    alloc(size, &capi_stream_buf);
    if (!capi_stream_buf.base)
        return -1;
    long n = (long)(size < capi_stream_buf.len ? size : capi_stream_buf.len);
    memcpy(capi_stream_buf.base, data, (size_t)n);
    read(n, &capi_stream_buf);
    return n;
}

void capi_iobuf_refill(capi_iobuf *buf, capi_alloc_cb alloc) { alloc(8, buf); }

int capi_iobuf_sum(capi_iobuf b) {
    int s = 0;
    for (size_t i = 0; i < b.len; i++) s += (unsigned char)b.base[i];
    return s;
}

void capi_render(capi_bitmap *bitmap)
{
    static unsigned char pixels[6] = {0, 255, 0, 128, 0, 7};
    bitmap->rows = 2;
    bitmap->pitch = 3;
    bitmap->buffer = pixels;
}
