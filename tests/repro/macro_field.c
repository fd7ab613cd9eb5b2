#include "macro_field.h"

static const char *version = "2.9";
const char **__parserVersion(void) { return &version; }
int state_level(const struct parser_state *state) { return state->level; }
