/* safety.h: calls where a careless wrapper would let Python crash the process. */
#ifndef SAFETY_H
#define SAFETY_H
#include <stddef.h>
#include <stdint.h>

typedef struct rec { int32_t a; int32_t b; } rec;

/* Writes n 32-bit words into out. */
void fill32(uint32_t *out, size_t n);
/* Adds 1 to each record's a. */
void touch(rec *recs, size_t n);
/* Sums n bytes; the count is only 8 bits wide. */
uint32_t sum8s(const uint8_t *p, uint8_t n);
/* Sums n 16-bit words. */
uint32_t sum16(const uint16_t *p, size_t n);
/* Writes n 16-bit words. */
void write16(uint16_t *p, size_t n);

/* A holder of caller memory, written by fill_holder. */
typedef struct holder { uint8_t *data; size_t n; } holder;
typedef struct wrapper { holder h; } wrapper;
void fill_holder(const holder *h);
void fill_wrapper(const wrapper *w);

/* Two holders by value, each filled by fill_pair. */
typedef struct pair { holder hs[2]; } pair;
void fill_pair(const pair *p);

/* ro is only read; words is read one element at a time. */
typedef struct views { const uint8_t *ro; uint32_t *words; } views;
uint32_t first_word(const views *v);
/* An untyped buffer, written by fill_vholder (PKCS#11's CK_ATTRIBUTE.pValue is such). */
typedef struct vholder { void *data; size_t n; } vholder;
void fill_vholder(const vholder *h);
/* A record whose pointer may point into its own nested member, filled by fill_frame. */
typedef struct frame { rec inner; uint8_t *data; size_t n; } frame;
void fill_frame(const frame *f);
/* Sets the n bytes of p to value (n is measured from p). */
void fill_with(uint8_t *p, size_t n, uint8_t value);
/* p[0]; tag is not used: an integer that comes before a pointer. */
uint8_t first_byte_of(int32_t tag, const uint8_t *p);
#endif
