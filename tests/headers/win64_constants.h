// pegbind-flags: --target win-x86_64
/* The same macros under LLP64: long is 4 bytes. */
typedef unsigned long CK_ULONG;

#define CK_UNAVAILABLE_INFORMATION (~0UL)
#define CK_SIZE (sizeof(CK_ULONG))
#define LONG_HEX 0x80000000L
#define ULONG_CAST ((CK_ULONG)-1)

struct ck_version { unsigned char major, minor; };
struct ck_info {
    struct ck_version version;
    CK_ULONG flags;
    unsigned char label[32];
};
