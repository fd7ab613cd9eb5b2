// pegbind-flags: --target linux-i386
/* ILP32: longs and pointers are 4 bytes, long long and double 4-aligned in records. */
struct mixed {
    char c;
    long long ll;
    double d;
    long l;
    void *p;
};
/* A typedef's alignment, as the Linux __aligned_u64: 8 where long long is 4-aligned in records. */
typedef unsigned long long aligned_u64 __attribute__((aligned(8)));
struct uapi_event {
    int kind;
    aligned_u64 stamp;
};
#define ALL_ONES (~0UL)
