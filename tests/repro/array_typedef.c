#include <string.h>
#include "array_typedef.h"

void id_generate(id16_t out) { for (int i = 0; i < 16; i++) out[i] = (unsigned char)(i * 3); }
int id_compare(const id16_t a, const id16_t b) { return memcmp(a, b, 16); }
int version_sum(const version4_t version) { return version[0] + version[1] + version[2] + version[3]; }
void version_fill(version4_t version, int value) { for (int i = 0; i < 4; i++) version[i] = value; }
double matrix_trace(const double m[3]) { return m[0] + m[1] + m[2]; }
