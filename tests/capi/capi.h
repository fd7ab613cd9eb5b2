/* C APIs written the way real libraries write them: handles made and freed by
   the library, records returned by pointer, out-handles, strings in and out.
   tests/test_c_apis.py binds this header with no configuration but -l and
   calls it in every backend. */
#ifndef CAPI_H
#define CAPI_H
#include <stddef.h>

#define CAPI_VERSION "1.4.2"

/* An opaque handle made by a typedef of void, as libcurl's CURL. */
typedef void CAPI_EASY;
/* A second one: the two must not be mixed up. */
typedef void CAPI_MULTI;
/* An opaque struct, as sqlite3. */
typedef struct capi_db capi_db;

/* A record the library allocates and links, as libxml2's nodes. */
typedef struct capi_node {
    int value;
    const char *name;
    struct capi_node *next;
    struct capi_node *children;
} capi_node;

typedef enum capi_color { CAPI_RED = 1, CAPI_GREEN = 2, CAPI_BLUE = 4 } capi_color;

CAPI_EASY *capi_easy_init(void);
int capi_easy_perform(CAPI_EASY *easy);
void capi_easy_cleanup(CAPI_EASY *easy);
CAPI_MULTI *capi_multi_init(void);

/* Open a database: the handle comes back through db (non-const T **: out). */
int capi_db_open(const char *name, capi_db **db);
const char *capi_db_name(const capi_db *db);
int capi_db_close(capi_db *db);

/* Untyped memory. */
void *capi_alloc(size_t size);
size_t capi_used(const void *memory);
void capi_release(void *memory);
/* The first byte of any object. */
int capi_first_byte(const void *object);

/* A tree of records in the library's memory. */
capi_node *capi_tree(void);
capi_node *capi_find(capi_node *root, const char *name);
int capi_count(const capi_node *node);

/* Strings in and out. */
size_t capi_strlen(const char *s);
size_t capi_ulen(const unsigned char *s);
int capi_greet(const char *name, char **out);
int capi_lookup(const char *key, const char **value);

/* A pointer to a pointer that is not out: taken back as it was given. */
const int *capi_table(void);
int capi_table_at(const int *table, int index);
int **capi_rows(void);
int capi_row_sum(int **rows, int row);

/* Lengths the header states by naming them after the pointer before. */
unsigned long capi_crc(unsigned long crc, const unsigned char *buf, unsigned int len);
int capi_sum(const int *values, size_t count);
int capi_escape(CAPI_EASY *easy, const char *string, int length);
int capi_checksum(const void *data, size_t size);
/* As compress2: dest holds *destLen bytes; *destLen becomes what was written. */
int capi_copy(unsigned char *dest, unsigned long *destLen, const unsigned char *src, unsigned long srcLen);
/* Names that state no length: nArg counts something else. */
int capi_define(const char *name, int nArg);
/* Scalars C writes through pointers: cells. */
int capi_status(int op, int *current, long *highwater);
void capi_scale(double *value, float factor);
int capi_flag(_Bool *flag);

/* What the caller must free, and with what (tests/capi/owned.toml says so). */
char *capi_strdup(const char *s);
void capi_free(void *memory);
capi_node *capi_node_new(int value);
void capi_node_free(capi_node *node);
int capi_node_child(capi_node *parent, int value, capi_node **child);
int capi_live(void);

capi_color capi_mix(int bits);
int capi_void_out(void **memory);

#endif
