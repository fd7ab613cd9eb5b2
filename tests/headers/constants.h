// pegbind-flags:
/* Object-like macros evaluated into typed constants with C's rules. */
#include <stdint.h>

typedef unsigned long CK_ULONG;
typedef long CK_LONG;

#define DEC 42
#define NEG (-42)
#define HEX_UINT 0xFFFFFFFF
#define DEC_LONG 4294967295
#define ALL_ONES (~0UL)
#define ALL_ONES_ULL (~0ULL)
#define MINUS_ONE_UL ((unsigned long)-1)
#define CAST_TYPEDEF ((CK_ULONG)1)
#define CAST_UNAVAILABLE ((CK_ULONG)~0UL)
#define CAST_NEG ((CK_LONG)-1)
#define SHIFTED (1UL << 31)
#define SHIFTED_INT (1 << 30)
#define CHAR_A 'A'
#define CHAR_ESC '\n'
#define CHAR_HIGH '\377'
#define OCTAL 0755
#define SUFFIX_U 10u
#define SUFFIX_LL 10LL
#define MIXED (DEC + 1u)
#define DIVIDE (-7 / 2)
#define MODULO (-7 % 2)
#define TERNARY (DEC > 40 ? 1 : 2)
#define LOGIC (DEC && 0)
#define SIZE_OF_LONG sizeof(long)
#define SIZE_OF_TYPEDEF (sizeof(CK_ULONG) * 8)
#define U64 UINT64_C(0x8000000000000000)
#define I32_MIN INT32_MIN
#define FLOAT_F 1.5f
#define FLOAT_D 2.5e3
#define FLOAT_EXPR (1.0 / 4)
#define GREETING "hello"
#define JOINED "hello, " "world"
#define ESCAPED "tab\there \x41\101 \"q\""
#define UTF8 "caf\xc3\xa9"
#define ALIAS DEC
#define NOT_CONSTANT_TYPE unsigned long
#define NOT_CONSTANT_EMPTY
#define NOT_CONSTANT_FUNC(x) ((x) + 1)
#define NOT_CONSTANT_STMT do { } while (0)
