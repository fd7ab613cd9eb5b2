/* C APIs written the way real libraries write them: handles made and freed by
   the library, records returned by pointer, out-handles, strings in and out.
   tests/test_c_apis.py binds this header with no configuration but -l and
   calls it in every backend. */
#ifndef CAPI_H
#define CAPI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CAPI_VERSION "1.4.2"

/* An opaque handle made by a typedef of void, as libcurl's CURL. */
typedef void CAPI_EASY;
/* A second one: the two must not be mixed up. */
typedef void CAPI_MULTI;
/* A typedef of void * the library hands out and takes back, as TurboJPEG's tjhandle and
   iconv's iconv_t: a handle too.  One it only takes, as zlib's voidp, stays a void *. */
typedef void *capi_bytes;
int capi_bytes_sum(capi_bytes data, size_t size);

typedef void *capi_session;
capi_session capi_session_new(int value);
int capi_session_value(capi_session session);  /* -1 for NULL */
int capi_session_reopen(capi_session session, capi_session *again);  /* *again = a new one */
void capi_session_free(capi_session session);
typedef struct capi_session_slot { capi_session session; int spare; } capi_session_slot;
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
capi_db *capi_db_last(void);  /* the database opened last and not closed, as a C object reached again */

/* Untyped memory. */
void *capi_alloc(size_t size);
size_t capi_used(const void *memory);
void capi_release(void *memory);
/* A length before buffers, with an array of its own length and a size_t C moves on among them,
   as mbedtls_aes_crypt_ctr(ctx, length, size_t *nc_off, nonce_counter[16], ..., input, output):
   output[i] = input[i] ^ iv[(*off + i) % 16]; *off moves on by length. */
void capi_crypt_ctr(size_t length, size_t *off, const unsigned char iv[16], const unsigned char *input,
                    unsigned char *output);
/* A position C reads and moves on, and a count of something else (gnutls_record_send_file(session,
   fd, off_t *offset, size_t count)): *offset += count; count. */
size_t capi_send_from(long *offset, size_t count);
/* Text after its length, as Z3's Z3_mk_lstring(c, unsigned len, Z3_string s): the sum of its
   len bytes, NULs and all. */
int capi_text_sum(unsigned len, const char *s);
/* Numbers C gives back with their count, as Xlib's XQueryTree(..., Window **children_return,
   unsigned int *nchildren_return): 3 longs 7, 8, 9 of the library's; 1. */
int capi_children(long **children_return, unsigned *nchildren_return);
/* Strings C reads up to a NULL, declared without const, as libblkid's
   blkid_probe_filter_types(pr, int flag, char *names[]): the sum of their lengths. */
size_t capi_names_length(char *names[]);
/* The same of n_names strings, as GLib's g_object_setv(object, guint n_properties, const gchar
   *names[], ...), which C reads no NULL after. */
size_t capi_some_names_length(unsigned n_names, const char *names[]);
/* An option's value in "a,b=c,..." text, as libmount's mnt_optstr_get_option(optstr, name, char
   **value, size_t *valsz): a pointer into optstr and its length in *valsz; 0, or 1 if not there. */
int capi_get_option(const char *optstr, const char *name, char **value, size_t *valsz);
/* Room and data in cells named as pointers, as lz4frame's LZ4F_decompress(dctx, dstBuffer, size_t
   *dstSizePtr, srcBuffer, size_t *srcSizePtr, ...): copies min(*dstSizePtr, *srcSizePtr) bytes,
   writing back how many to both. */
void capi_copy_sized(void *dstBuffer, size_t *dstSizePtr, const void *srcBuffer, size_t *srcSizePtr);
/* Handles of a typedef of void *, as lcms2's cmsHPROFILE, and a list of them with its count
   (cmsCreateMultiprofileTransform(cmsHPROFILE hProfiles[], cmsUInt32Number nProfiles, ...)):
   profile i is the library's int i; the sum of the listed ones. */
typedef void *capi_hprofile;
capi_hprofile capi_profile(int i);
int capi_profiles_sum(capi_hprofile hProfiles[], unsigned nProfiles);
/* Text made of data, as libevent's evutil_inet_ntop(int af, const void *src, char *dst, size_t
   len): the 4 bytes at src as "a.b.c.d" in dst, len its room (src's size is af's); dst, or NULL. */
const char *capi_ntop(int af, const void *src, char *dst, size_t len);
/* A handle made with a size, as GnuTLS's gnutls_x509_trust_list_init(gnutls_x509_trust_list_t
   *list, unsigned size): a db named "list"; 0. */
int capi_list_init(capi_db **list, unsigned size);
/* Lengths named for a side of a copy, as lz4's LZ4_compress_limitedOutput_withState(state,
   source, dest, inputSize, maxOutputSize): copies min(inputSize, maxOutputSize) bytes; that. */
int capi_pack_with(void *state, const char *source, char *dest, int inputSize, int maxOutputSize);
/* capi_alloc's memory given a new size (NULL: new memory), as realloc: size is the new memory's. */
void *capi_realloc(void *memory, size_t size);
/* Bytes of data C makes, in uint8_t, as libwebp's WebPEncodeRGB(..., uint8_t **output)
   returns their size: "AB", a NUL, "CDE" (memory of capi_alloc's: capi_release frees it). */
size_t capi_encode(const unsigned char *in, size_t n, uint8_t **output);
/* The first byte of any object. */
int capi_first_byte(const void *object);

/* A tree of records in the library's memory. */
capi_node *capi_tree(void);
capi_node *capi_find(capi_node *root, const char *name);
int capi_count(const capi_node *node);

/* Strings in and out. */
size_t capi_strlen(const char *s);
size_t capi_ulen(const unsigned char *s);
/* Text C gives back that points into the text it was given, as strchr and
   cJSON_ParseWithOpts's end: the rest after n characters, returned and through end. */
const char *capi_rest(const char *text, int n);
/* Callables added to those C holds, as atexit's, g_idle_add's or lua_pushcclosure's: up to 8 jobs,
   run in turn on x by capi_run_jobs (the sum of what they gave; forgotten by capi_drop_jobs). */
/* A plain char in a record and given to a callback, as libgit2's git_diff_line.origin: '+'
   then '-'; capi_diff gives back the sum of the callback's results, and of each line's origin
   as the callback left it. */
typedef struct capi_line { char origin; int lineno; } capi_line;
typedef int (*capi_line_cb)(capi_line *line, char origin, void *user);
int capi_diff(capi_line_cb each, void *user);
/* long double in a result, a record and a callback's argument and result, as MPFR's
   mpfr_get_ld: cffi gave a cdata no arithmetic takes. capi_ld_apply gives back f(x) * 2. */
typedef struct capi_wide { long double v; int n; } capi_wide;
long double capi_ld_half(long double x);
typedef long double (*capi_ld_fn)(long double x);
long double capi_ld_apply(capi_ld_fn f, long double x);
typedef int (*capi_job)(int x);
void capi_push_job(capi_job job);
int capi_run_jobs(int x);
void capi_drop_jobs(void);
/* How many NULs the data_len characters at data hold, as json_stringn reads its text. */
size_t capi_nuls(const char *data, size_t data_len);
int capi_rest_into(const char *text, int n, const char **end);
/* A length that says "to the NUL" with all its bits set, as pcre2's PCRE2_ZERO_TERMINATED
   (of the lengths' own type, narrower here than size_t): the characters of text counted. */
typedef unsigned int capi_tsize;
#define CAPI_ZERO_TERMINATED (~(capi_tsize)0)
unsigned int capi_text_length(const unsigned char *text, capi_tsize length);
int capi_greet(const char *name, char **out);
int capi_lookup(const char *key, const char **value);

/* A pointer to a pointer that is not out: taken back as it was given. */
const int *capi_table(void);
int capi_table_at(const int *table, int index);
int **capi_rows(void);
/* Callables: with a user-data pointer, without one (qsort's comparator), one the
   library keeps to call later, one called from a thread the library starts. */
typedef int (*capi_visit)(int value, void *user);
int capi_apply(capi_visit f, void *user, int x);  /* f(x, user) + 1; -1 for NULL */
int capi_applied(void);  /* what f gave capi_apply last */
/* A hook kept for the process with no handle (as libxml2's xmlSetGenericErrorFunc):
   capi_run_hook(x) calls hook(x, user); -1 with none set. */
void capi_set_hook(capi_visit hook, void *user);
int capi_run_hook(int x);
/* A parameter of function type is a pointer to a function (C11 6.7.6.3p8), as Z3 declares
   its error handler: directly, and through a typedef of the function type. */
typedef int capi_step(int value);
int capi_step_twice(capi_step step, int x);  /* step(step(x)); -1 for NULL */
double capi_step_thrice(int step(int value), int x, double scale);  /* a double: ctypes' argtypes */
/* A function pointer C gives back, as signal() or OpenSSL's EVP_MD_meth_get_update:
   1 doubles, 2 negates, anything else is NULL. */
capi_step *capi_pick_step(int which);
void capi_sort(int *base, size_t n, int (*cmp)(const int *, const int *));
typedef void (*capi_listener)(capi_db *db, const char *text, double weight);
void capi_db_listen(capi_db *db, capi_listener listener);  /* kept: capi_db_say calls it */
void capi_db_on_say(capi_db *db, capi_listener listener);  /* kept too, in a slot of its own */
int capi_db_say(capi_db *db, const char *text);  /* how many times it has called the listener */
int capi_db_count_said(capi_db *db) __attribute__((nonnull));  /* the same, with no call: never NULL, as readdir's */
/* kept with its user-data pointer, as sqlite3_busy_handler: capi_db_say calls it too */
typedef int (*capi_watcher)(void *context, const char *text);
void capi_db_watch(capi_db *db, capi_watcher watcher, void *context);
/* The handle given to a callable that has a user-data pointer: visit(db, user), once. */
void capi_db_visit(capi_db *db, void (*visit)(capi_db *db, void *user), void *user);
int capi_db_watched(const capi_db *db);  /* the sum of what the watcher returned */
/* Callables registered under what the other arguments say, each kept until that same name and
   arity are defined again, as sqlite3_create_function and Tcl_CreateObjCommand keep them;
   capi_db_invoke calls the one defined (fn(value, user)), -1 with none. */
void capi_db_define(capi_db *db, const char *name, int arity, capi_visit fn, void *user);
int capi_db_invoke(capi_db *db, const char *name, int arity, int value);
/* A callable whose parameter is declared as an array, as Tcl's Tcl_CmdProc's const char *argv[]:
   what C passes is a pointer (C11 6.7.6.3p7). capi_run_words calls f(2, {"one", "two", NULL}). */
typedef int capi_words(int argc, const char *argv[]);
int capi_run_words(capi_words *f);
/* Addresses a header defines as constants, as SQLite's SQLITE_STATIC and SQLITE_TRANSIENT and
   mmap's MAP_FAILED: capi_take_text holds text as it is (CAPI_STATIC: its caller keeps it alive),
   a copy (CAPI_TRANSIENT: 1), or text to free with how (2); capi_taken() reads what it holds. */
typedef void (*capi_destructor)(void *);
#define CAPI_STATIC ((capi_destructor)0)
#define CAPI_TRANSIENT ((capi_destructor)-1)
#define CAPI_MAP_FAILED ((void *) -1)
int capi_take_text(const char *text, capi_destructor how);
const char *capi_taken(void);
void *capi_map(int fail);  /* CAPI_MAP_FAILED when fail, else some memory */
/* A list given back through a U ***, as Tcl_SplitList's const char ***argvPtr: the words of
   text (at most 8, each up to 15 bytes), their count in *argc; 0, or -1 for too many. */
int capi_split(const char *text, int *argc, const char ***argv);
/* A list of strings C makes and frees, as sqlite3_get_table's and sqlite3_free_table (GLib's
   g_strfreev): capi_words_free takes the list, not a place to write one; capi_words_freed()
   counts the strings it freed. */
char **capi_words_new(int n);
void capi_words_free(char **words);
int capi_words_freed(void);
/* The same of unsigned characters, as pcre2_substring_list_get gives PCRE2_UCHAR ** and
   pcre2_substring_list_free takes PCRE2_SPTR *: one block, the strings after the pointers. */
unsigned char **capi_octets_new(int n);
void capi_octets_free(const unsigned char **list);
/* A function made to be passed as a callable, as glibc's alphasort is scandir's comparator:
   its parameters are what the callable is given, not places C writes.  capi_node_order orders
   nodes by value, descending; capi_sort_nodes sorts the four nodes of capi_tree with cmp and gives
   their values, first to last, as the digits of one number. */
int capi_node_order(const capi_node **a, const capi_node **b);
int capi_sort_nodes(int (*cmp)(const capi_node **a, const capi_node **b));
/* A handler for each of 8 numbers, kept with no handle, as signal() keeps one per signal. */
void capi_on(int number, int (*handler)(int));
int capi_raise(int number, int value);  /* handler(value), -1 with none */
int capi_in_thread(int (*f)(int), int x);  /* f(x) from a new thread, which it waits for */
/* capi_db_say from a thread of the library's own, waited for: the callables kept are called there
   while the caller, which gave none to this call, waits (libuv's uv_run and its thread pool). */
int capi_db_say_in_thread(capi_db *db, const char *text);
capi_color capi_recolor(capi_color (*f)(capi_color), capi_color c);
/* Data handed to a callable with its length, as libcurl's write callback gets it: "ab\0cd". */
typedef size_t (*capi_sink)(char *data, size_t size, void *user);
size_t capi_feed(capi_sink sink, void *user);
/* A buffer of the library's a callback fills, given with its size as libyaml's reader is
   (16 bytes); capi_fill gives back the sum of what fill said it wrote. And one written out in
   size * nmemb bytes, as curl's write callback is given its data: "abcdef" as 2 x 3. */
typedef size_t (*capi_filler)(unsigned char *buffer, size_t size);
size_t capi_fill(capi_filler fill);
/* The same with the parameters unnamed, as libpng's png_rw_ptr (png_structp, png_bytep, size_t). */
typedef size_t (*capi_unnamed_filler)(void *, unsigned char *, size_t);
size_t capi_fill_unnamed(capi_unnamed_filler fill);
typedef size_t (*capi_writer)(char *ptr, size_t size, size_t nmemb, void *user);
size_t capi_write_out(capi_writer write, void *user);
/* Text handed to a callback with its length, as yajl's numbers and leveldb's keys are: "42" of
   "42, SECRET", then "k\0y" whole, then NULL with 0, then "q" with (size_t)-1 (to its NUL);
   the sum of what it returned. */
typedef int (*capi_number_cb)(void *ctx, const char *numberVal, size_t numberLen);
int capi_numbers(capi_number_cb number, void *ctx);
/* Items of a size the caller states, as qsort's base, nmemb, size (sorted with cmp) and
   fread's ptr, size, nmemb (filled with the bytes 1, 2, 3 ...; how many items): C reads and
   writes nmemb * size bytes. */
void capi_sort_items(void *base, size_t nmemb, size_t size, int (*cmp)(const void *, const void *));
size_t capi_fill_items(void *ptr, size_t size, size_t nmemb);
/* Callables a record holds, of a type spelling const and size_t (http-parser's settings): what
   the members return for (NULL, "7", 1), added, a NULL one left out. */
typedef struct capi_settings { capi_number_cb on_number; capi_number_cb on_other; } capi_settings;
int capi_run_settings(const capi_settings *settings);
/* Pointers to pointers to numbers, as libvorbis's vorbis_analysis_buffer returns a float ** to
   fill channel by channel, and FLAC's decoder gives its write callback const int32_t *const
   buffer[]: two channels of four doubles (their sum, each weighted by 1 + 10 * channel), and
   two channels of three ints handed to a callable. (Doubles, not floats: a float * C writes
   would let the const float * of capi_offer be written too, see the README.) */
/* Characters returned with their length written to a cell, as lua_tolstring's size_t *len and
   leveldb_get's size_t *vallen: "he\0llo" (6), with no NUL after it in capi_value_of; and one the
   caller frees (free), as g_base64_decode's gsize *out_len. */
const char *capi_value_of(int which, size_t *len);
/* Characters C hands over through a char ** with their length in the cell after it, as
   TurboJPEG's tjCompress2(..., unsigned char **jpegBuf, unsigned long *jpegSize, ...): "\xff\xd8\0\1"
   (4), malloc'd, to free with free(). */
int capi_compress(int quality, unsigned char **jpegBuf, unsigned long *jpegSize);
unsigned char *capi_decoded(const char *text, int *out_len);
double **capi_channels(void);
double capi_channels_sum(void);
typedef int (*capi_planes_cb)(const int *const planes[], unsigned samples, void *user);
int capi_planes(capi_planes_cb write, void *user);
/* Arrays of numbers by pointer, as FFTW's fftw_complex * (typedef double fftw_complex[2]):
   the sum of 10 * re + im over n of them, and each scaled by k. */
typedef double capi_cplx[2];
double capi_cplx_sum(int n, const capi_cplx *v);
void capi_cplx_scale(int n, capi_cplx *v, double k);
/* A matrix as a variable length array: m[i][j] summed, each weighted by 1 + i * cols + j. */
double capi_matrix_sum(int rows, int cols, const double m[rows][cols]);
/* An alarm whose callback is given back its user data, as libevent's events: given the marker
   capi_alarm_self() for it, C gives the callback the alarm itself (event_self_cbarg()). */
typedef struct capi_alarm capi_alarm;
typedef void (*capi_alarm_cb)(int what, void *arg);
void *capi_alarm_self(void);
capi_alarm *capi_alarm_new(capi_alarm_cb cb, void *arg);
void capi_alarm_fire(capi_alarm *alarm, int what);
void *capi_alarm_arg(capi_alarm *alarm);
void capi_alarm_free(capi_alarm *alarm);

/* Arrays C hands out through pointers, read element by element from Python. */
const char *const *capi_names(void);
const double *capi_reals(void);
const capi_color *capi_palette(void);
const _Bool *capi_switches(void);
/* _Bools holding the bytes 5 and 0 (written through another type): C reads true, false. */
const _Bool *capi_odd_switches(void);
int capi_row_sum(int **rows, int row);

/* Lengths the header states by naming them after the pointer before. */
unsigned long capi_crc(unsigned long crc, const unsigned char *buf, unsigned int len);
int capi_sum(const int *values, size_t count);
int capi_escape(CAPI_EASY *easy, const char *string, int length);
int capi_checksum(const void *data, size_t size);
/* As compress2: dest holds *destLen bytes; *destLen becomes what was written. */
int capi_copy(unsigned char *dest, unsigned long *destLen, const unsigned char *src, unsigned long srcLen);
/* As brotli's BrotliEncoderCompress: each array parameter states its length (C99's
   variable length array parameters), the length before the array, one of them in a cell.
   Named by the names alone, encoded_size would follow input_buffer. */
int capi_pack(size_t input_size, const unsigned char input_buffer[input_size],
              size_t *encoded_size, unsigned char encoded_buffer[(*encoded_size)]);
/* The same without the stated lengths: encoded_size is named after encoded_buffer. */
int capi_pack_names(size_t input_size, const unsigned char *input_buffer,
                    size_t *encoded_size, unsigned char *encoded_buffer);
/* A length apart from its buffer, named after it, as liblzma's out, out_pos, out_size: 'x'
   written from out[*out_pos] up to out_size, *out_pos moved past them; how many. */
size_t capi_fill_from(unsigned char *out, size_t *out_pos, size_t out_size);
/* Items, not bytes: a count before an array of int. */
int capi_vla_sum(int n, const int values[n]);
/* One length, two arrays. */
double capi_dot(int n, const double x[n], const double y[n]);
/* An array of records whose length the header states, as POSIX regexec's pmatch: C writes
   each span (-1, -1 past the words found); and one C only reads. */
typedef struct capi_span { int start, end; } capi_span;
int capi_find_words(const char *text, size_t nspan, capi_span spans[nspan]);
int capi_span_total(size_t n, const capi_span spans[n]);
/* Records C reads and writes as many of as the next parameter says, as poll's fds and nfds:
   each pair swapped in place; the sum of the first members. */
typedef struct capi_pair { int first, second; } capi_pair;
int capi_swap_pairs(capi_pair *pairs, size_t npairs);
/* A length named only as one, before the data it measures, as nettle's
   size_t length, uint8_t *dst, const uint8_t *src: dst[i] ^= src[i] for each of them. */
void capi_xor_into(const capi_pair *state, size_t length, unsigned char *dst, const unsigned char *src);
/* The same with the pointer's name and cnt, as libgcrypt's gcry_buffer_t *iov, int iovcnt:
   the sum of the second members. */
int capi_sum_seconds(const capi_pair *iov, int iovcnt);
/* A length named only as one, after the data it measures, as memcpy's and strncpy's
   dest, src, n: dest gets n bytes of src (capi_move), or src's text and NULs up to n
   (capi_move_text); both return dest's first byte. */
int capi_move(void *dest, const void *src, size_t n);
int capi_move_text(char *dest, const char *src, size_t n);
/* The same as glibc spells memcpy's names. */
int capi_move_reserved(void *__dest, const void *__src, size_t __n);
/* A count after a C string counts something else, as crypt_gensalt's prefix, count:
   the string's length plus count. */
unsigned long capi_salt(const char *prefix, unsigned long count);
/* Handles after a count named for them, as Z3's num_args and args[]: how many are not NULL. */
int capi_count_open(unsigned num_dbs, capi_db *const dbs[]);
/* Handles before a count named for them, as LLVM's LLVMTypeRef *ParamTypes, unsigned
   ParamCount and LLVMValueRef *Args, unsigned NumArgs (a T ** that is no out-parameter). */
int capi_count_types(capi_db **DbTypes, unsigned DbCount);
int capi_count_args(capi_db **Args, unsigned NumArgs);
/* Lists of pointers C reads.  Strings C cannot change, read to their NULL, as execv's
   argv and libpq's keywords: how many there are. */
int capi_argv_length(char *const argv[]);
/* ... and joined with sep into out (at most out_size bytes, with the NUL): the length. */
size_t capi_join(char *out, size_t out_size, const char *const *parts, const char *sep);
/* Strings counted by a number named for them, as fontconfig's FcFontSetList(sets, nsets):
   the total of their lengths, NULL counting -1. */
int capi_total_length(const char **words, int nwords);
/* Rows C writes into, as libpng's png_bytepp and libjpeg's JSAMPARRAY with a count
   named for them: row i gets width bytes of 'a' + i. */
int capi_fill_rows(unsigned char **rows, unsigned nrows, unsigned width);
/* Records by pointer, counted: the sum of their spans' lengths; a NULL counts 0. */
int capi_span_sum(capi_span **spans, size_t nspans);
/* A list of records handed out, NULL after the last, and the function that frees it, as PROJ's
   proj_get_crs_info_list_from_database and proj_crs_info_list_destroy(PROJ_CRS_INFO **list). */
capi_span **capi_spans_new(int n);
void capi_spans_free(capi_span **list);
/* An array of N records: C reads N, as futimens' const struct timespec times[2].
   pairs[1].second - pairs[0].first; -1 for NULL. */
int capi_pair_span(const capi_pair pairs[2]);
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
/* Release through the caller's pointer, as libcbor's cbor_decref(cbor_item_t **item): one
   reference less, and the pointer set to NULL once the last is gone. */
void capi_node_unref(capi_node **node);
void capi_db_release(capi_db **db);
/* Both released through the caller's pointers, as libpng's png_destroy_read_struct(png_structpp,
   png_infopp, png_infopp): each closed and set to NULL. */
void capi_db_release_both(capi_db **db, capi_node **node);

capi_color capi_mix(int bits);
int capi_void_out(void **memory);

/* An event, as libyaml's yaml_event_t: a type, then a union of unnamed
   structs, one for each type of event; the library fills it and frees
   what its pointers point to. */
typedef enum capi_event_type {
    CAPI_NO_EVENT, CAPI_SCALAR_EVENT, CAPI_ALIAS_EVENT, CAPI_SEQUENCE_EVENT
} capi_event_type;

typedef struct capi_mark { size_t line, column; } capi_mark;
/* A callable given a pointer to a record on C's stack: f(&mark), mark = {line, line + 1};
   returns f's result * 1000 + the column f left in it. */
int capi_with_mark(int (*f)(capi_mark *mark), size_t line);

typedef struct capi_event {
    capi_event_type type;
    union {
        struct {
            unsigned char *anchor;
            unsigned char *value;
            size_t length;
            capi_color style;
        } scalar;
        struct {
            unsigned char *anchor;
        } alias;
        struct {
            int count;
            int items[4];
            struct { int depth; } *nesting;
        } sequence;
    } data;
    capi_mark start_mark;
    struct {
        int lines;
        capi_color tint : 4;
        unsigned flags : 3;
        enum { CAPI_QUIET, CAPI_LOUD } level : 2;
        int class;
    } stats;
    /* C11 anonymous members: their members are the event's */
    union {
        long code;
        struct { int low, high; };
    };
    struct { int id; } marks[2];
} capi_event;

/* "scalar:TEXT", "alias:NAME" or "sequence:N": 1 on success, 0 otherwise. */
int capi_parse(const char *text, capi_event *event);
void capi_event_delete(capi_event *event);
/* What C sees of an event the caller filled in. */
size_t capi_event_value_length(const capi_event *event);
int capi_event_depth(const capi_event *event);

/* A pointer to an unnamed struct, named by a typedef. */
typedef struct { int refs; const char *label; } *capi_ref;

/* A pointer member of each kind, as records of real libraries hold them. */
typedef struct capi_holder {
    const char *name;          /* text C reads */
    char *buffer;              /* text C may write into */
    unsigned char *bytes;      /* other characters, as libxml2's xmlChar * */
    capi_node *node;           /* a record of the library */
    struct capi_holder *next;  /* a record of the same type: lists, trees */
    capi_db *db;               /* an opaque struct */
    CAPI_EASY *easy;           /* a typedef of void */
    void *data;                /* untyped memory */
    int *numbers;              /* data C may write into */
    const int *constants;      /* data C reads */
    int **rows;                /* pointers to pointers */
    capi_ref ref;              /* an unnamed struct */
    capi_color color;          /* an enum */
} capi_holder;

/* The library's own holder, every member set, its next member pointing to itself. */
capi_holder *capi_holder_library(void);
/* What C reads and writes through the members of a holder the caller filled in. */
size_t capi_holder_name_length(const capi_holder *holder);
int capi_holder_upcase(capi_holder *holder);
int capi_holder_node_value(const capi_holder *holder);
int capi_holder_next_color(const capi_holder *holder);
int capi_holder_db_is_open(const capi_holder *holder);
int capi_holder_easy_perform(const capi_holder *holder);
int capi_holder_data_byte(const capi_holder *holder);
int capi_holder_bump(capi_holder *holder);
int capi_holder_constant(const capi_holder *holder, int index);
int capi_holder_row_sum(const capi_holder *holder, int row);
int capi_holder_refs(const capi_holder *holder);

/* Callables that give C a pointer back: an opener, an allocator (as jansson's malloc_fn). */
typedef capi_db *(*capi_opener)(const char *name);
const char *capi_open_with(capi_opener open, const char *name);  /* open(name)'s name; NULL for NULL */
int capi_fill_with(void *(*allocate)(size_t size), size_t size);  /* memset(allocate(size), 7): 7; -1 for NULL */

/* A record holding callables, as libpng's and zlib's hold their allocators. */
typedef struct capi_handler { capi_visit visit; int (*twice)(int); void *user; } capi_handler;
int capi_handler_run(const capi_handler *handler, int x);  /* visit(x, user) + twice(x); NULL ones count 0 */

/* Variadic functions, as sqlite3_mprintf, curl_easy_setopt and curl_easy_getinfo. */
int capi_format(char *buf, size_t size, const char *format, ...);  /* vsnprintf into buf */
long long capi_add(int count, ...);  /* count extra arguments, each read as a long long */
int capi_visit_all(capi_visit f, int count, ...);  /* the sum of f(each, NULL) over count ints */
/* An option says what the one extra argument is: a const char *, a long, a capi_listener. */
enum { CAPI_OPT_NAME = 1, CAPI_OPT_LIMIT, CAPI_OPT_LISTENER, CAPI_OPT_ON_SAY };
int capi_db_setopt(capi_db *db, int option, ...);
/* The extra argument points at where the answer goes: a const char *, a long, a double. */
enum { CAPI_INFO_NAME = 1, CAPI_INFO_LIMIT, CAPI_INFO_WEIGHT };
int capi_db_getinfo(capi_db *db, int info, ...);

/* A function that a macro of its name stands in for, as Tcl's Tcl_DumpActiveMemory(x)
   (nothing, unless Tcl is built to debug its memory): the binding calls the function. */
int capi_tripled(int x);
#define capi_tripled(x)


/* A record whose users declare it as an array of one, as GMP's mpz_t and setjmp's
   jmp_buf: the array's name is what C code declares variables with. */
typedef struct { int size; long limb; } capi_big_struct;
typedef capi_big_struct capi_big_t[1];
typedef capi_big_struct *capi_big_ptr;
/* And a record named again by a typedef of its typedef. */
typedef capi_big_struct capi_big_other;
void capi_big_set(capi_big_ptr x, long value);  /* x = value (size 1) */
long capi_big_add(capi_big_ptr sum, const capi_big_struct *a, capi_big_ptr b);  /* sum = a + b; its value */

/* A function whose name a macro versions, as ICU's urename.h does (ucol_open is
   U_ICU_ENTRY_POINT_RENAME(ucol_open), which pastes the version on): C callers write
   capi_versioned, the library defines capi_versioned_42. x + 42. */
#define CAPI_PASTE(name, suffix) name ## suffix
#define CAPI_PASTE_VERSION(name, suffix) CAPI_PASTE(name, suffix)
#define CAPI_VERSIONED_NAME(name) CAPI_PASTE_VERSION(name, _42)
#define capi_versioned CAPI_VERSIONED_NAME(capi_versioned)
int capi_versioned(int x);
/* A callback that fills the buffer C gives it, as curl's read function and libpng's read_fn:
   read(buf, size, user) puts at most size bytes in buf and says how many (0 ends). C asks
   with a 5-byte buffer; the result is 1000 times the bytes read plus their sum. */
typedef size_t (*capi_reader)(char *buf, size_t size, void *user);
long capi_pull(capi_reader read, void *user);
/* A callback that answers through pointers: *count and *scale, which C then multiplies. */
typedef void (*capi_answer)(int *count, double *scale, const char *question);
double capi_ask(capi_answer answer);
/* A callback given data it may only read: const float * is no type C writes through here.
   The sum of the n values the callback's result says it saw, or -1. */
typedef int (*capi_reading)(const float *values, int n);
double capi_offer(capi_reading look);
/* A prototype opening with a macro another header defines (<stdbool.h>'s bool, as Z3's
   "bool Z3_API Z3_is_app(...)", or gl.h's GLAPI before GLU's): still the library's. */
bool capi_is_even(int n);

/* Records whose common members a macro writes, an unnamed union among them, as libuv's
   UV_HANDLE_FIELDS: each expansion makes a union type of its own (C11 6.7.2.3p5).
   The union's fd plus the record's own member. */
#define CAPI_COMMON_FIELDS int kind; union { int fd; char reserved[16]; } u;
typedef struct capi_timer { capi_pair period; CAPI_COMMON_FIELDS int due; } capi_timer;
typedef struct capi_stream { CAPI_COMMON_FIELDS int bytes; } capi_stream;
typedef struct capi_loop { capi_stream streams[2]; capi_timer timer; } capi_loop;
int capi_stream_fd(const capi_stream *s);
int capi_timer_fd(const capi_timer *t);
/* The record every one of those begins as, as libuv's uv_handle_t: uv_close((uv_handle_t *)&timer, cb). */
typedef struct capi_handle { CAPI_COMMON_FIELDS } capi_handle;
int capi_handle_kind(const capi_handle *handle);

/* Pointers to records and to handles, as libxml2's XPath node set (xmlNodePtr *nodeTab):
   items holds pairs {1, 2}, {3, 4} and NULL; dbs a database and NULL. */
typedef struct capi_listing { int count; capi_pair **items; capi_db **dbs; } capi_listing;
const capi_listing *capi_listing_get(void);

/* Bytes handed over as void * with their size apart, as sqlite3_column_blob and
   sqlite3_column_bytes: 0x00 0x01 0xff 0x7f, *size 4. */
const void *capi_blob(size_t *size);

/* A count named items, as libsndfile's sf_read_short(sndfile, short *ptr, sf_count_t items):
   ptr[i] = i for each; items. */
long capi_read_items(short *ptr, long items);

/* Characters with their count beside them, as gdbm's datum and gnutls's gnutls_datum_t:
   they may hold NULs and need not end with one.  capi_datum_get gives the 3 bytes 'a' 0 'b'
   (nothing after them); capi_datum_sum the sum of the dsize bytes C reads. */
typedef struct capi_datum { char *dptr; int dsize; } capi_datum;
capi_datum capi_datum_get(void);
int capi_datum_sum(capi_datum d);
/* libuv's uv_buf_t: the characters at base and their count; capi_iobuf_sum sums the len bytes. */
typedef struct capi_iobuf { char *base; size_t len; } capi_iobuf;
int capi_iobuf_sum(capi_iobuf b);
/* libuv's reads: alloc sets the buffer C reads into, in C's own record; read gets it back
   with what was read. C keeps that record, and the buffer, between the two calls and after. */
typedef void (*capi_alloc_cb)(size_t suggested, capi_iobuf *buf);
typedef void (*capi_read_cb)(long nread, const capi_iobuf *buf);
long capi_read_stream(capi_alloc_cb alloc, capi_read_cb read, const char *data);
/* A callable kept with the record it is given with (its first argument), and that record copied. */
void capi_iobuf_refill(capi_iobuf *buf, capi_alloc_cb alloc);  /* alloc(8, buf) */
typedef struct capi_iobuf_pair { capi_iobuf first, second; } capi_iobuf_pair;
/* The count first, and another text beside, as hiredis's redisReply: str is "x\0y", len 3. */
typedef struct capi_reply { size_t len; char *str; const char *note; } capi_reply;
const capi_reply *capi_reply_get(void);
/* A value of a type that depends on which, written through a void *, as libmagic's
   magic_getparam and getsockopt: 0 a size_t (1 << 20), 1 an int (-7), 2 a double (0.5);
   0 on success, -1 for another which. */
int capi_getparam(int which, void *value);
/* Prototypes without parameter names, as pcre2's and libmagic's: the sum of the bytes C
   reads; the buffer filled with the byte given. */
unsigned capi_unnamed_sum(const void *, size_t);
void capi_unnamed_fill(unsigned char *, size_t, int);
/* copies "hello" (and a NUL) into as much room as *size says, then sets *size to what it wrote */
int capi_unnamed_copy(char *, size_t *);
/* The same sum with a 64-bit size of a typedef of the library's own, as libzip's zip_fread(zip_file_t *,
   void *, zip_uint64_t); with names ending in an underscore, as zmq's (buf_, len_); with the
   byte count named bytes, as libsndfile's sf_read_raw(sndfile, ptr, bytes). */
typedef uint64_t capi_u64;
unsigned capi_unnamed_sum64(const void *, capi_u64);
unsigned capi_sum_us(const void *buf_, size_t len_);
unsigned capi_sum_bytes(const void *ptr, long bytes);
/* An int cell then a size_t cell, neither named, as pcre2_compile's (int *errorcode, PCRE2_SIZE
   *erroroffset): C sets the code to 1 and the offset to *offset + 3; the offset is no length. */
int capi_unnamed_error(int *, size_t *);
/* A typedef of void * named as a pointer, as GLib's gpointer, which g_memdup2 returns and
   g_hash_table_insert takes for any data: a void *, not a handle class. capi_memdup copies
   size bytes (freed by capi_free); capi_pointer_sum adds the n bytes at data. */
typedef void *capi_gpointer;
capi_gpointer capi_memdup(const void *mem, size_t size);
unsigned capi_pointer_sum(capi_gpointer data, size_t n);
/* The most C may write, named so, as libgcrypt's gcry_sexp_sprint(sexp, mode, void *buffer,
   size_t maxlength): writes "hello" and a NUL, cut to maxlength, and gives back what it
   wrote; as strnlen, a bound on reading a string is no length of it (C stops at the NUL). */
size_t capi_sprint(void *buffer, size_t maxlength);
size_t capi_strnlen(const char *s, size_t maxlen);
/* Two pointers into one text, as oniguruma's onig_search(reg, str, end, ...): end - start. */
long capi_distance(const unsigned char *start, const unsigned char *end);
/* A context memory is made in, as talloc's talloc_named_const(const void *context, size_t size,
   const char *name): size is what to make, not the context's length. Gives size back. */
size_t capi_ctx_size(const void *context, size_t size);
/* A node of a linked list, as GLib's GList: n is an index, not a count (g_list_nth(list, n));
   capi_links gives 10 -> 20 -> 30. */
typedef struct capi_link { int value; struct capi_link *next; } capi_link;
capi_link *capi_links(void);
capi_link *capi_link_nth(capi_link *list, unsigned n);
/* A handle given back through a T ** before a count of the array after it, as oniguruma's
   onig_regset_new(OnigRegSet **rset, int n, OnigRegex regs[]): the set holds the sum of the
   names' lengths of its n databases. */
typedef struct capi_set capi_set;
int capi_set_new(capi_set **set, int n, capi_db *dbs[]);
int capi_set_total(const capi_set *set);
void capi_set_free(capi_set *set);
/* A handle given back through a T ** before a size of something else, as nghttp2's
   nghttp2_hd_deflate_new(nghttp2_hd_deflater **deflater_ptr, size_t max_deflate_dynamic_table_size):
   the set's total is the size. */
int capi_set_make(capi_set **set_ptr, size_t max_table_size);
/* Records the library hands out and frees, as libuv's uv_cpu_info(uv_cpu_info_t **, int *count) and
   uv_free_cpu_info(uv_cpu_info_t *cpu_infos, int count): three, with ids 1, 2, 3. */
typedef struct capi_info { int id; double speed; } capi_info;
int capi_infos(capi_info **infos, int *count);
int capi_free_infos(capi_info *infos, int count);
/* Text with a length named for any data, as cJSON_ParseWithLength(const char *value, size_t
   buffer_length): the NULs among the buffer_length characters. */
size_t capi_parse_len(const char *value, size_t buffer_length);
/* A _Bool sharing its byte with another member, as msgpack's object union: C reads 5 as true. */
typedef union capi_punned { _Bool flag; unsigned char byte; _Bool flags[2]; } capi_punned;
capi_punned capi_punned_of(unsigned char byte);
/* Numbers counted by num_ and their name, as cairo's cairo_set_dash(cr, dashes, num_dashes, offset). */
double capi_dash_sum(const double *dashes, int num_dashes);
/* A callable given a void * and its size, as libsndfile's sf_vio_read(void *ptr, sf_count_t count,
   void *user): C gives 8 bytes, then the sum of the bytes the callable left there. */
typedef long (*capi_vio_read)(void *ptr, long count, void *user);
long capi_vio(capi_vio_read read, void *user);
/* A typedef of a function type, passed by pointer, as Tcl's Tcl_ObjCmdProc *proc: proc(value, user). */
typedef int capi_plain_proc(int value, void *user);
int capi_call_plain(capi_plain_proc *proc, void *user, int value);
int capi_plain_got(void);  /* what proc gave capi_call_plain last */
/* A size after a C string that names something else, as libarchive's
   archive_read_open_filename(a, _filename, _block_size): strlen(name) + block_size. */
size_t capi_block(const char *name, size_t block_size);
/* Binary data as lz4 passes it, a const char * its size names by a shortening: the sum of its bytes. */
int capi_load_dict(const char *dictionary, int dictSize);
/* Sizes named after a pointer other than the one right before them, as lz4's: copies
   min(compressedSize, dstCapacity) bytes of src to dst; *srcSizePtr and targetDstSize bound it. */
int capi_decompress(const char *src, char *dst, int compressedSize, int dstCapacity);
int capi_compress_dest_size(const char *src, char *dst, int *srcSizePtr, int targetDstSize);
/* A result written through a pointer to an enum, as fontconfig's FcFontMatch(..., FcResult *):
   the color named, 0; -1 for a name that is none. */
int capi_color_of(const char *name, capi_color *color);
/* The same reply given as a void *, as hiredis's redisReaderGetReply(reader, void **reply). */
int capi_reply_any(void **reply);
/* A glyph's pixels as FreeType's FT_Bitmap holds them: bytes, NULs and all, rows * pitch of
   them, with no member named as their count. */
typedef struct capi_bitmap {
    unsigned int rows;
    int pitch;
    unsigned char *buffer;
} capi_bitmap;
/* points bitmap->buffer at a 2 x 3 image: 0 255 0 / 128 0 7 */
void capi_render(capi_bitmap *bitmap);

/* Records and handles after their count (pixman's int n_rects, const pixman_rectangle16_t *rects;
   Z3's unsigned domain_size, Z3_sort const domain[]): the sum of first * second; how many dbs
   are named "main". */
int capi_pair_products(int n_pairs, const capi_pair *pairs);
int capi_count_main(unsigned dbs_size, capi_db *const dbs[]);

/* Lengths and counts as real headers name them (each pegbind had read otherwise):
   - one record the library makes, and a bound for it (GSL's gsl_rng_uniform_int(r, n)):
     capi_rng_below(r, n) gives n - 1;
   - a size before numbers counts them (gsl_sf_bessel_sequence_Jnu_e(nu, mode, size, v)):
     capi_fill_doubles sets v[i] = i + nu for i < size;
   - two sizes C writes (HDF5's H5Pget_sizes): 8 and 16; an array declared [] C fills beside
     another (gsl_ran_multinomial's p[], n[]): n[i] = N * p[i] for i < K;
   - records after a count named for them (libseccomp's arg_cnt, arg_array) and before their
     whole name's length (HarfBuzz's variations, variations_length): the sum of the firsts;
   - a count in a cell before the numbers it counts (hb_face_get_table_tags): C writes
     min(*table_count, 5 - start_offset) tags 100 + i and their number;
   - characters given back with their length in a cell, both named ending in _p (libdbus's
     dbus_message_marshal): "a\0b\0c" and 5. */
/* A signed count of numbers C writes: values[i] = i for i < count, as size_t. */
int capi_fill_ints(int *values, int count);
typedef struct capi_rng { unsigned long seed; } capi_rng;
capi_rng *capi_rng_new(void);
unsigned long capi_rng_below(const capi_rng *r, unsigned long n);
int capi_fill_doubles(double nu, size_t size, double *v);
int capi_get_sizes(int id, size_t *sizeof_addr, size_t *sizeof_size);
void capi_multinomial(size_t K, unsigned int N, const double p[], unsigned int n[]);
int capi_args_sum(unsigned int arg_cnt, const capi_pair *arg_array);
/* records a function returns an array of (not one object): the count after them is theirs */
capi_pair *capi_pair_array(int n);
int capi_pairs_total(const capi_pair *poly, int n);  /* the sum of the seconds */
/* a count in a cell before sizes it counts: C writes min(*sizes_count, 5) sizes 8 * i */
unsigned int capi_get_size_list(unsigned int *sizes_count, size_t *sizes);
int capi_variations_sum(const capi_pair *variations, unsigned int variations_length);
unsigned int capi_get_tags(unsigned int start_offset, unsigned int *table_count, unsigned int *table_tags);
int capi_marshal(int n, char **marshalled_data_p, int *len_p);
/* numbers C gives back through a T ** named so, their number returned (xkbcommon's
   xkb_state_key_get_syms(state, key, const xkb_keysym_t **syms_out)): 3 of them, 7 8 9 */
int capi_get_syms(int key, const unsigned int **syms_out);
/* A record holding bytes and their length as krb5's keyblock does: length, contents. */
typedef struct capi_keyblock { int magic; unsigned int length; unsigned char *contents; } capi_keyblock;
void capi_keyblock_fill(capi_keyblock *key);  /* contents 01 00 02 03, length 4 */

/* A pointer to pointers a typedef spells and the library hands out as a value of its own, as
   OpenLDAP's typedef LDAPAVA **LDAPRDN (ldap_str2rdn gives one, ldap_rdnfree takes it): C takes
   it as it is, not as the address of a cell to write.  capi_pairs_make(n) gives n pairs
   {i, 2 * i} and a NULL; capi_pairs_sum adds their firsts, and writes them as text. */
typedef capi_pair **capi_pairs;
capi_pairs capi_pairs_make(int n);
int capi_pairs_sum(capi_pairs pairs, char **text);
void capi_pairs_free(capi_pairs pairs);

/* Never NULL, as C says two more ways: a parameter declared [static N] (C11 6.7.6.3p7), as
   systemd's sd_id128_to_string(id, char s[static 33]); and nonnull written after the star of a
   returned pointer, as PAM's const char *PAM_NONNULL((1)) pam_getenv(pamh, name).
   capi_static_fill writes "abc" into s; capi_first_word gives s back. */
int capi_static_fill(char s[static 4]);
size_t capi_static_words(const char *words[static 2]);  /* the lengths of the two words added */
const char *__attribute__((__nonnull__(1))) capi_first_word(const char *s);

/* Arrays of arrays and of pointers a record holds, as a matrix's double m[4][4] and a list of
   labels or rows: capi_sheet_fill sets cells[i][j] to 10 * i + j, names[0]
   "ab" and names[2] "xyz", labels {"red", NULL, "blue"} and rows[0] at {1, 2, 3};
   capi_sheet_sum adds the cells. */
typedef struct capi_sheet {
    const int limits[2][4];  /* first: a const array of the same type does not make cells read-only */
    int cells[3][4];
    char names[3][8];
    const char *labels[3];
    int *rows[2];
    capi_db *dbs[2];
} capi_sheet;
void capi_sheet_fill(capi_sheet *sheet);
int capi_sheet_sum(const capi_sheet *sheet);

#endif
