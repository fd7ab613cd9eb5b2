/* Cause 6: records with alignment attributes (libsodium's CRYPTO_ALIGN(16)
   states), on the record, on a member, or inside another record: cffi's cdef
   cannot state their layout, so in API mode the compiler gives it. */
typedef struct __attribute__((aligned(16))) state_ { unsigned char opaque[20]; } state_t;
struct member_aligned { char c; int x __attribute__((aligned(8))); };
struct outer { char tag; state_t state; };
int state_init(state_t *state);
int outer_init(struct outer *outer);
int member_init(struct member_aligned *member);
