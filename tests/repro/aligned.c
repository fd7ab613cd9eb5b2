#include "aligned.h"

int state_init(state_t *state) { state->opaque[0] = 7; return (int)sizeof(state_t); }
int outer_init(struct outer *outer) { outer->state.opaque[19] = 9; return (int)sizeof(struct outer); }
int member_init(struct member_aligned *member) { member->x = 5; return (int)sizeof(struct member_aligned); }
