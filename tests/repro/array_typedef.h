/* Cause 3: parameters declared as arrays, through a typedef (libuuid's uuid_t,
   ICU's UVersionInfo) or directly: a buffer for one must hold all N elements
   (one byte used to be enough, and C wrote past it), and a const array
   typedef takes read-only bytes. */
typedef unsigned char id16_t[16];
typedef int version4_t[4];

void id_generate(id16_t out);
int id_compare(const id16_t a, const id16_t b);
int version_sum(const version4_t version);
void version_fill(version4_t version, int value);
double matrix_trace(const double m[3]);
