#include <stdlib.h>
#include <string.h>
#include "capi.h"

struct capi_db { char name[32]; int open; };

static int easy_object, multi_object;
CAPI_EASY *capi_easy_init(void) { return &easy_object; }
int capi_easy_perform(CAPI_EASY *easy) { return easy == &easy_object ? 0 : -1; }
void capi_easy_cleanup(CAPI_EASY *easy) { (void)easy; }
CAPI_MULTI *capi_multi_init(void) { return &multi_object; }

int capi_db_open(const char *name, capi_db **db) {
    if (!name) { *db = NULL; return 1; }
    *db = calloc(1, sizeof **db);
    strncpy((*db)->name, name, sizeof (*db)->name - 1);
    (*db)->open = 1;
    return 0;
}
const char *capi_db_name(const capi_db *db) { return db ? db->name : NULL; }
int capi_db_close(capi_db *db) { int was = db ? db->open : -1; free(db); return was; }

void *capi_alloc(size_t size) { size_t *m = malloc(sizeof(size_t) + size); *m = size; return m + 1; }
size_t capi_used(const void *memory) { return memory ? ((const size_t *)memory)[-1] : 0; }
void capi_release(void *memory) { if (memory) free((size_t *)memory - 1); }
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
