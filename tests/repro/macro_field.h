/* Cause 7: a member whose name is also an object-like macro, defined after the
   record (libxml2: the member xmlParserVersion of struct _xmlGlobalState, and
   #define xmlParserVersion (*(__xmlParserVersion()))).  Code written after the
   header cannot name the member while the macro stands. */
struct parser_state {
    const char *parserVersion;
    int level;
};
const char **__parserVersion(void);
#define parserVersion (*(__parserVersion()))
int state_level(const struct parser_state *state);
