// pegbind-flags: --target linux-i386
/* ILP32: longs and pointers are 4 bytes, long long and double 4-aligned in records. */
struct mixed {
    char c;
    long long ll;
    double d;
    long l;
    void *p;
};
#define ALL_ONES (~0UL)
