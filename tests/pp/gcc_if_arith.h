/* #if arithmetic in intmax_t / uintmax_t. */
#if -1 < 0u
int wrong_1;
#else
int unsigned_compare_ok;
#endif
#if (0u - 1) == 18446744073709551615u && ~0 == -1 && -1 >> 63 == -1
int wrap_ok;
#endif
#if '\377' < 0
int char_is_signed;
#else
int char_is_unsigned;
#endif
#if 1 << 62 > 0 && (1ull << 63) > 0 && 0x8000000000000000 > 0 && 10 / 3 == 3 && -7 / 2 == -3 && -7 % 2 == -1
int shifts_and_division_ok;
#endif
#if 0 && (1 / 0)
int wrong_2;
#elif 1 || (1 / 0)
int short_circuit_ok;
#endif
#if (1 ? -1 : 0u) > 0
int conditional_is_unsigned;
#endif
#if UNDEFINED_NAME == 0 && !defined UNDEFINED_NAME && defined(__STDC__) && defined __x86_64__
int identifiers_are_zero;
#endif
#define TWO 2
#define PLUS(a, b) ((a) + (b))
#if PLUS(TWO, 3) == 5 && 'ab' == 24930 && 0x10 == 020 + 0b0 + 8 && 3 > 2 > 1 == 0
int macros_in_if_ok;
#endif
#if defined(TWO) ? TWO * 2 == 4 : 0
int ternary_ok;
#endif
#ifdef TWO
int ifdef_ok;
#elif 1/0
#else
#endif
#ifndef __STDC_VERSION__
int wrong_3;
#elif __STDC_VERSION__ >= 201112L
int c11_or_later;
#endif
#if 0
#if garbage that is never parsed ((
#else
#endif
int wrong_4;
#endif
