// pegbind-flags:
/* Structs and unions: nested, anonymous, arrays, flexible arrays, forward declarations. */
#include <stdint.h>

struct opaque_handle;
typedef struct opaque_handle *handle_t;

struct point { int x, y; };

struct segment {
    struct point from;
    struct point to;
    char label[16];
};

typedef struct {
    uint8_t kind;
    union {
        int32_t i;
        double d;
        char text[8];
    } as;
    struct {
        uint16_t year;
        uint8_t month, day;
    };
} variant;

union number {
    int64_t whole;
    double real;
    unsigned char raw[8];
};

struct message {
    uint32_t length;
    uint16_t type;
    unsigned char payload[];
};

struct node {
    struct node *next;
    struct node *prev;
    void *value;
    int (*compare)(const struct node *, const struct node *);
};

struct matrix {
    float cells[4][4];
    const char *names[4];
};

/* Alignment set on a typedef, as glibc's __pthread_unwind_buf_t: the name's, larger or
   smaller than its type's, the size unchanged (104-byte records 16-aligned). */
typedef struct { long words[13]; } unwind_buf_t __attribute__((__aligned__));
typedef long long loose_ll __attribute__((aligned(4)));
struct holds_aligned {
    char tag;
    unwind_buf_t buf;
    char after;
    loose_ll loose;
};

handle_t handle_open(const char *name);
int handle_close(handle_t h);
double segment_length(const struct segment *s);
