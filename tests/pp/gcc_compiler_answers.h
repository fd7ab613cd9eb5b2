/* What gcc 12 predefines and answers for x86-64, beyond the data model: each line
   below holds only if pegbind answers as the compiler does. */
#if defined(__GNUC_STDC_INLINE__) && !defined(__GNUC_GNU_INLINE__)
int gnu_stdc_inline;
#endif
int sizes[] = { __SIZEOF_FLOAT128__, __SIZEOF_FLOAT80__, __BIGGEST_ALIGNMENT__ };
int atomics[] = { __ATOMIC_RELAXED, __ATOMIC_SEQ_CST, __GCC_ATOMIC_INT_LOCK_FREE };
double limits[] = { __FLT_MAX__, __DBL_EPSILON__, __FLT_EVAL_METHOD__ };
long long literals = __INT64_C(7) + __UINTMAX_C(1);
#if __has_builtin(__builtin_mul_overflow) && __has_builtin(__atomic_fetch_add) && !__has_builtin(__builtin_no_such)
int builtins;
#endif
#if __has_attribute(packed) == 1 && __has_attribute(__packed__) && !__has_attribute(no_such_attribute)
int attributes;
#endif
#if __has_attribute(nodiscard) == 202003 && __has_attribute(deprecated) == 201904
int standard_attributes;
#endif
#if __has_c_attribute(nodiscard) == 202003 && __has_c_attribute(gnu::packed) && __has_c_attribute(gnu::__packed__)
int c_attributes;
#endif
#if defined(__SSE__) && defined(__SSE2__) && defined(__MMX__) && defined(__SSE2_MATH__)
int vector_units;
#endif
/* from the C library's stdc-predef.h, which gcc reads before any header */
#if defined(__STDC_ISO_10646__) && defined(__STDC_IEC_559__) && defined(_STDC_PREDEF_H)
long iso_10646 = __STDC_ISO_10646__;
#endif
