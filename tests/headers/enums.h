// pegbind-flags:
/* Enumerations whose values reference earlier members, macros and expressions. */
#define BASE 100
#define SHIFT(n) (1u << (n))

enum color { RED, GREEN = 5, BLUE, ALPHA = GREEN * 2 + BLUE };

typedef enum {
    MODE_READ = SHIFT(0),
    MODE_WRITE = SHIFT(1),
    MODE_ALL = MODE_READ | MODE_WRITE,
    MODE_BASE = BASE + 1,
    MODE_NEG = -BASE,
    MODE_CHAR = 'x',
    MODE_SIZE = sizeof(long) * 2
} mode_t_;

enum big { BIG_SMALL = 1, BIG_LARGE = 0x100000000 };
enum unsigned_range { UR_ZERO = 0, UR_HIGH = 0x80000000 };

enum color mix(enum color a, enum color b);
