#include <string.h>
#include "safety.h"

void fill32(uint32_t *out, size_t n) { for (size_t i = 0; i < n; i++) out[i] = (uint32_t)i; }
void touch(rec *recs, size_t n) { for (size_t i = 0; i < n; i++) recs[i].a += 1; }
uint32_t sum8s(const uint8_t *p, uint8_t n) { uint32_t s = 0; for (uint8_t i = 0; i < n; i++) s += p[i]; return s; }
uint32_t sum16(const uint16_t *p, size_t n) { uint32_t s = 0; for (size_t i = 0; i < n; i++) s += p[i]; return s; }
void write16(uint16_t *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = 0xabab; }
void fill_holder(const holder *h) { if (h->data) memset(h->data, 0xab, h->n); }
void fill_wrapper(const wrapper *w) { fill_holder(&w->h); }
void fill_pair(const pair *p) { fill_holder(&p->hs[0]); fill_holder(&p->hs[1]); }
uint32_t first_word(const views *v) { return v->words ? v->words[0] : 0; }
void fill_vholder(const vholder *h) { if (h->data) memset(h->data, 0xab, h->n); }
void fill_frame(const frame *f) { if (f->data) memset(f->data, 0xab, f->n); }

uint8_t first_byte_of(int32_t tag, const uint8_t *p)
{
    (void)tag;
    return p[0];
}

void fill_with(uint8_t *p, size_t n, uint8_t value)
{
    memset(p, value, n);
}
