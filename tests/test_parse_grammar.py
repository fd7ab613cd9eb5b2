"""Per-rule tests of grammars/declarations.ppeg through the parse layer: C snippet -> exact model."""
from __future__ import annotations

import pytest

from pegbind.model import (
    Array, Enum, EnumMember, Field, Function, FunctionType, Module, Param, Pointer, Primitive,
    Record, RecordRef, Typedef, TypedefRef, Variable,
)
from pegbind.parse import parse_tokens
from pegbind.parse.split import split_declarations
from pegbind.preprocess import tokenize
from pegbind.target import get_target

LP64 = get_target("linux-x86_64")
INT = Primitive("int")
CHAR = Primitive("char")
VOID = Primitive("void")
ULONG = Primitive("unsigned long")


def parse(source: str, target=LP64) -> Module:
    return parse_tokens(tokenize(source, "t.h"), target)


def clean(source: str, target=LP64) -> Module:
    module = parse(source, target)
    assert [d.headline() for d in module.diagnostics if d.severity != "note"] == []
    return module


def headlines(module: Module) -> list[str]:
    return [d.headline() for d in module.diagnostics]


# -- typedefs and primitive spellings ---------------------------------------

@pytest.mark.parametrize(
    "spelling, canonical",
    [
        ("long unsigned int", "unsigned long"),
        ("unsigned", "unsigned int"),
        ("signed", "int"),
        ("short signed int", "short"),
        ("char", "char"),
        ("signed char", "signed char"),
        ("int long long unsigned", "unsigned long long"),
        ("long double", "long double"),
        ("_Bool", "_Bool"),
        ("__int128 unsigned", "unsigned __int128"),
        ("__signed__ long", "long"),
    ],
)
def test_primitive_spellings_are_normalised(spelling, canonical):
    module = clean(f"typedef {spelling} T;")
    assert module.typedefs == (Typedef("T", Primitive(canonical)),)


def test_typedef_with_several_declarators():
    module = clean("typedef unsigned long CK_ULONG, *CK_ULONG_PTR, CK_ARR[4];")
    assert module.typedefs == (
        Typedef("CK_ULONG", ULONG),
        Typedef("CK_ULONG_PTR", Pointer(ULONG)),
        Typedef("CK_ARR", Array(ULONG, 4)),
    )


def test_typedef_of_function_type_and_function_pointer():
    module = clean("typedef int fn_t(int, char **); typedef void (*cb_t)(void *ctx, ...);")
    assert module.typedefs == (
        Typedef("fn_t", FunctionType(INT, (Param(None, INT), Param(None, Pointer(Pointer(CHAR)))))),
        Typedef("cb_t", Pointer(FunctionType(VOID, (Param("ctx", Pointer(VOID)),), variadic=True))),
    )


def test_qualifiers_and_gnu_spellings():
    module = clean("typedef const volatile int * __restrict__ const p_t; typedef char *__restrict q_t;")
    assert module.typedefs == (
        Typedef("p_t", Pointer(Primitive("int", ("const", "volatile")), ("restrict", "const"))),
        Typedef("q_t", Pointer(CHAR, ("restrict",))),
    )


def test_builtin_va_list_is_an_unresolved_typedef_ref():
    module = clean("typedef __builtin_va_list __gnuc_va_list; int vf(const char *f, __gnuc_va_list ap);")
    assert module.typedef("__gnuc_va_list").type == TypedefRef("__builtin_va_list")
    assert module.resolve(TypedefRef("__gnuc_va_list")) == TypedefRef("__builtin_va_list")


def test_unsupported_types_are_diagnosed_and_skipped():
    module = parse("typedef _Complex int ci; _Float128 f(void); int ok(void);")
    assert headlines(module) == [
        "t.h:1:9: warning: ci is left out: unsupported type: complex integer types (a GNU extension) have no binding",
        "t.h:1:26: warning: f is left out: unsupported type: _Float128 has no binding",
    ]
    assert [f.name for f in module.functions] == ["ok"]


def test_complex_types_are_named_with_their_real_type_first_however_spelled():
    module = clean("typedef _Complex double a; typedef double _Complex b; typedef __complex__ float c;"
                   " typedef long double _Complex d; typedef _Complex e; typedef const float _Complex f;")
    assert [t.type for t in module.typedefs] == [
        Primitive("double _Complex"), Primitive("double _Complex"), Primitive("float _Complex"),
        Primitive("long double _Complex"), Primitive("double _Complex"),  # GCC: a bare _Complex is double's
        Primitive("float _Complex", ("const",)),
    ]
    assert module.typedef("d").type.to_c("x") == "long double _Complex x"


def test_complex_functions_are_kept_as_written():
    # the reproduction: both used to be left out, "complex types have no binding"
    module = clean("void cscale(int n, float _Complex *x);\n"
                   "double _Complex zdot(int n, const double _Complex *a);")
    assert [f.to_c() for f in module.functions] == [
        "void cscale(int n, float _Complex *x);",
        "double _Complex zdot(int n, const double _Complex *a);",
    ]


def test_complex_of_an_integer_type_or_twice_is_diagnosed():
    module = parse("typedef _Complex _Complex double twice;")
    assert headlines(module) == ["t.h:1:18: error: duplicate '_Complex'"]


# -- records ------------------------------------------------------------------

def test_struct_with_bitfields_anonymous_members_and_flexible_array():
    module = clean(
        "struct S { int a : 3; unsigned : 0; union { int b; float c; }; char name[10]; int tail[]; };"
    )
    anonymous = "union <anonymous at t.h:1:37>"
    assert module.record("struct S") == Record("struct", "S", "struct S", (
        Field("a", INT, 3),
        Field(None, Primitive("unsigned int"), 0),
        Field(None, RecordRef("union", None, anonymous)),
        Field("name", Array(CHAR, 10)),
        Field("tail", Array(INT, None)),
    ))
    assert module.record(anonymous).fields == (Field("b", INT), Field("c", Primitive("float")))


def test_forward_declaration_then_definition_keeps_first_position():
    module = clean(
        "struct node; typedef struct node node_t; struct other { int x; };"
        "struct node { struct node *next; node_t *prev; };"
    )
    assert [r.key for r in module.records] == ["struct node", "struct other"]
    assert module.record("struct node").fields == (
        Field("next", Pointer(RecordRef("struct", "node", "struct node"))),
        Field("prev", Pointer(TypedefRef("node_t"))),
    )
    assert module.record("struct node").coord.col == 73  # the definition's tag, not the forward one (8)


def test_opaque_record_stays_opaque():
    module = clean("typedef struct sqlite3 sqlite3; int sqlite3_close(sqlite3 *db);")
    assert module.record("struct sqlite3").is_opaque
    assert module.typedef("sqlite3").type == RecordRef("struct", "sqlite3", "struct sqlite3")


def test_untagged_record_is_named_by_its_typedef():
    module = clean("typedef struct { int x; } point, *point_ptr;")
    assert module.record("point") == Record("struct", None, "point", (Field("x", INT),))
    assert module.typedef("point_ptr").type == Pointer(RecordRef("struct", None, "point"))


def test_record_declared_inside_a_parameter_list():
    module = clean("void f(struct timeval *tv, union { int i; } u);")
    assert module.record("struct timeval").is_opaque
    assert module.function("f").params[1].type == RecordRef("union", None, "union <anonymous at t.h:1:28>")


def test_packed_and_aligned_attributes():
    module = clean(
        "struct __attribute__((packed)) A { char c; int i __attribute__((aligned(8))); };"
        "struct B { _Alignas(16) char c; } __attribute__((__aligned__(2 * 4)));"
    )
    assert module.record("struct A").packed and module.record("struct A").aligned is None
    assert module.record("struct A").fields[1] == Field("i", INT, aligned=8)
    assert module.record("struct B").aligned == 8
    assert module.record("struct B").fields[0].aligned == 16


# -- enums --------------------------------------------------------------------

def test_nonnull_attributes_name_parameters_by_number():
    module = clean(
        "int a(const char *s, int n, const char *t) __attribute__((nonnull(1, 3)));"
        "__attribute__((__nonnull__)) int b(const char *s, int n, void *p);"
        "int c(char *s) __attribute__((warn_unused_result, nonnull));"
        "int d(char *s) __attribute__((nonnull(7)));"
        "int e(char *s);"
        "struct S { int (*f)(char *) __attribute__((nonnull)); };"
    )
    assert [f.nonnull for f in module.functions] == [(1, 3), (1, 3), (1,), (), ()]
    # a parameter number past the list is not kept; a record member is untouched
    assert module.record("struct S").fields[0].aligned is None


def test_enum_values_reference_earlier_members_and_constant_expressions():
    module = clean(
        "typedef unsigned long CK_ULONG;"
        "enum E { A, B = 1 << 4, C, D = (CK_ULONG)3 + C, E2 = sizeof(int) > 2 ? -1 : 1, F = 'a', };"
    )
    assert module.enum("enum E") == Enum("E", "enum E", (
        EnumMember("A", 0), EnumMember("B", 16), EnumMember("C", 17), EnumMember("D", 20),
        EnumMember("E2", -1), EnumMember("F", 97),
    ))


def test_untagged_enum_in_typedef_and_anonymous_enum():
    module = clean("typedef enum { RED, GREEN } color; enum { MAX = GREEN + 10 };")
    assert module.enum("color").members == (EnumMember("RED", 0), EnumMember("GREEN", 1))
    assert module.enums[1].key == "enum <anonymous at t.h:1:36>"
    assert module.enums[1].members == (EnumMember("MAX", 11),)


# -- functions and variables --------------------------------------------------

def test_function_forms():
    module = clean(
        "int f(void); int g(); int printf(const char *fmt, ...);"
        "void h(int a[3], int (*cb)(int), char **, unsigned);"
        "extern int (*signal(int sig, void (*handler)(int)))(int);"
    )
    assert module.function("f") == Function("f", INT, ())
    assert module.function("g") == Function("g", INT, ())
    assert module.function("printf") == Function("printf", INT, (Param("fmt", Pointer(Primitive("char", ("const",)))),), True)
    assert module.function("h").params == (
        Param("a", Array(INT, 3)),
        Param("cb", Pointer(FunctionType(INT, (Param(None, INT),)))),
        Param(None, Pointer(Pointer(CHAR))),
        Param(None, Primitive("unsigned int")),
    )
    handler = Pointer(FunctionType(VOID, (Param(None, INT),)))
    assert module.function("signal") == Function(
        "signal", Pointer(FunctionType(INT, (Param(None, INT),))), (Param("sig", INT), Param("handler", handler))
    )


def test_function_declared_through_a_function_typedef():
    module = clean("typedef int handler_fn(int); handler_fn on_event;")
    assert module.function("on_event") == Function("on_event", INT, (Param(None, INT),))


def test_extern_variables_and_extern_c_blocks():
    module = clean('extern "C" { extern const char *const names[]; int counter; }\nextern "C" int z(void);')
    assert module.variables == (
        Variable("names", Array(Pointer(Primitive("char", ("const",)), ("const",)), None)),
        Variable("counter", INT),
    )
    assert [f.name for f in module.functions] == ["z"]


def test_noise_is_skipped_everywhere():
    module = clean(
        "__extension__ typedef long long ll;"
        "extern void *xmalloc(unsigned long n) __attribute__((__malloc__, __alloc_size__(1))) __asm__(\"_xm\");"
        "_Noreturn void die(void) __attribute__ ((noreturn));"
        "__declspec(dllimport) int __stdcall win(int);"
        "_Static_assert(sizeof(int) == 4, \"int\");"
        "int __inline__ __attribute__((unused)) plain(int);"
    )
    assert [f.name for f in module.functions] == ["xmalloc", "die", "win", "plain"]
    assert module.typedef("ll").type == Primitive("long long")


def test_static_definitions_are_left_out_with_a_warning():
    module = parse("static inline int twice(int x) { return 2 * x; }\nint after(void);\n"
                   "static int half(int x) { return x / 2; }\nstatic inline int twice(int x) { return x + x; }\n"
                   "static int third(int x);\nstatic int third(int x) { return x / 3; }")
    assert [f.name for f in module.functions] == ["after"]
    assert headlines(module) == [
        "t.h:1:19: warning: 3 functions the headers declare static are not bound (a static function has no symbol "
        "in any library): twice, half, third"
    ]


def test_a_function_declared_static_keeps_its_linkage_when_declared_again():
    # msgpack's pack.h: static int msgpack_pack_int(...); then inline int msgpack_pack_int(...) {...}
    # (C11 6.2.2p4-5): reported as missing from the library, where it is static
    module = parse("static int twice(int);\ninline int twice(int x) { return 2 * x; }\n"
                   "static int half(int);\nextern int half(int);\nint after(void);")
    assert [f.name for f in module.functions] == ["after"]
    assert headlines(module) == [
        "t.h:1:12: warning: 2 functions the headers declare static are not bound (a static function has no symbol "
        "in any library): twice, half"
    ]


def test_other_definitions_declare_their_function():
    # gnu_inline's extern inline and C99's inline leave the library an out-of-line copy to export
    module = parse("extern __inline __attribute__((__gnu_inline__)) long absl(long x) { return x < 0 ? -x : x; }\n"
                   "inline int same(int x) { return x; }\nint plain(const char *s) { return *s; }")
    assert [(f.name, f.type.to_c()) for f in module.functions] == [
        ("absl", "long (long x)"), ("same", "int (int x)"), ("plain", "int (const char *s)")]
    assert headlines(module) == []


def test_static_variable_is_skipped_with_a_note():
    module = parse("static const int limit = 5;")
    assert module.variables == ()
    assert headlines(module) == ["t.h:1:18: note: skipped the static variable 'limit': it has no external linkage"]


# -- errors ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "source, message",
    [
        ("int f(int x;\nint ok(void);", "t.h:1:12: error: expected ')' before ';'"),
        ("struct S { int a int b; };\nint ok(void);", "t.h:1:18: error: expected ';' before 'int'"),
        ("int a[2 +];\nint ok(void);", "t.h:1:10: error: expected an expression before ']'"),
        ("int x = ;\nint ok(void);", "t.h:1:9: error: expected an expression before ';'"),
        ("enum { A = B };\nint ok(void);", "t.h:1:12: error: the value of 'A' is not an integer constant: 'B' is not a constant"),
        ("int v[1/0];\nint ok(void);", "t.h:1:8: error: the array length is not an integer constant: division by zero"),
        ("int ok(void);\nint last(void)", "t.h:2:14: error: expected ';' at end of input"),
        ("}\nint ok(void);", "t.h:1:1: error: unexpected '}' (no '{' is open)"),
    ],
)
def test_syntax_errors_are_located_and_parsing_continues(source, message):
    module = parse(source)
    assert headlines(module) == [message]
    assert module.function("ok").name == "ok"


def test_errors_in_expanded_tokens_name_the_macro():
    from pegbind.preprocess.token import ExpansionFrame, Token
    from pegbind.diagnostics import Coord

    tokens = tokenize("int f(int x;", "t.h")
    frame = (ExpansionFrame("DECLARE", Coord("main.h", 7, 1)),)
    tokens = [Token.at(t.kind, t.text, t.coord, frame, t.space_before) for t in tokens]
    module = parse_tokens(tokens, LP64)
    assert headlines(module) == ["t.h:1:12: error: expected ')' before ';' (in expansion of DECLARE from main.h:7:1)"]


def test_declarations_of_one_shape_keep_their_own_names_and_errors():
    # Same-shaped declarations share one parse of the grammar; every name,
    # attribute word and error location still comes from its own tokens.
    module = parse(
        "typedef unsigned long ULONG;\n"
        "typedef ULONG FLAGS;\n"
        "typedef FLAGS *FLAGS_PTR;\n"
        "typedef ULONG *ULONG_PTR;\n"
        "struct P { FLAGS a; } __attribute__((packed));\n"
        "struct Q { FLAGS b; } __attribute__((unused));\n"
        "int f(ULONG x;\n"
        "int g(FLAGS y;\n"
        "int ok(void);"
    )
    assert [(t.name, t.type.to_c()) for t in module.typedefs] == [
        ("ULONG", "unsigned long"), ("FLAGS", "ULONG"), ("FLAGS_PTR", "FLAGS *"), ("ULONG_PTR", "ULONG *"),
    ]
    assert module.record("struct P").packed and not module.record("struct Q").packed
    assert [f.name for f in module.record("struct Q").fields] == ["b"]
    assert headlines(module) == [
        "t.h:7:14: error: expected ')' before ';'",
        "t.h:8:14: error: expected ')' before ';'",
    ]


def test_declarations_of_one_shape_share_a_walk_but_not_its_tokens():
    # The syntax of a shape is walked once and remade with each declaration's tokens:
    # names, places and what an identifier's text decides are each declaration's own.
    module = clean(
        "struct pair { int lo; int hi; };\n"
        "int put(int key, const char *value);\n"
        "  int get(int slot, const char *name);\n"
        "int del(int id,\n        const char *why);\n"
        "enum { AT_LO = __builtin_offsetof(struct pair, lo) };\n"
        "enum { AT_HI = __builtin_offsetof(struct pair, hi) };\n"
        "struct P { char c; int a; } __attribute__((__packed__));\n"
        "struct Q { char c; int b; } __attribute__((unused));\n"
    )
    # the first reuse remakes the syntax generically, the next ones by the code written for the shape
    put, get, delete = module.functions
    assert (put.name, put.coord.line, put.coord.col, [p.name for p in put.params]) == ("put", 2, 5, ["key", "value"])
    assert (get.name, get.coord.line, get.coord.col, [p.name for p in get.params]) == ("get", 3, 7, ["slot", "name"])
    assert [p.coord.col for p in get.params] == [15, 33]
    assert (delete.name, [(p.name, p.coord.line, p.coord.col) for p in delete.params]) == (
        "del", [("id", 4, 13), ("why", 5, 21)])
    assert [(m.name, m.value) for e in module.enums for m in e.members] == [("AT_LO", 0), ("AT_HI", 4)]
    assert module.record("struct P").packed and not module.record("struct Q").packed


def test_deeply_nested_declarations_of_one_shape_are_remade_too():
    # Syntax nested past what is written out as one expression is remade generically.
    terms = " + ".join(["1"] * 100)
    module = clean(f"enum {{ LEFT = {terms} }};\nenum {{ RIGHT = {terms} }};\nenum {{ MORE = {terms} }};\n")
    assert [(m.name, m.value, m.coord.line) for e in module.enums for m in e.members] == [
        ("LEFT", 100, 1), ("RIGHT", 100, 2), ("MORE", 100, 3)]
    # a chain of 3,000 terms is one node deep per term: remade with the room on the stack the parse had
    chain = " + ".join(["1"] * 3000)
    module = clean("".join(f"enum {{ N{i} = {chain} }};\n" for i in range(3)))
    assert [(m.name, m.value) for e in module.enums for m in e.members] == [("N0", 3000), ("N1", 3000), ("N2", 3000)]



def test_declarations_differing_only_in_literals_are_one_shape(monkeypatch):
    # A number, character constant or string is read from its token, so declarations
    # that differ only in those are parsed once; each keeps its own values and errors.
    from pegbind.parse import walker

    walker.forget_shapes()
    grammar = walker.declaration_parser()
    parsed: list[str] = []
    real_parse = grammar.parse
    monkeypatch.setattr(grammar, "parse", lambda text, rule=None: parsed.append(text) or real_parse(text, rule))
    module = parse(
        "struct rec_a { char head[4]; };\nstruct rec_b { char tail[16]; };\n"
        "enum { K1 = 1 << 3 };\nenum { K2 = 0x2 << 4 };\nenum { K3 = 08 << 1 };\n"
        "enum { C1 = 'a' };\nenum { C2 = '\\n' };\n"
        '_Static_assert(1, "one");\n_Static_assert(0, "tw" "o");\n'
        "enum { F1 = .5 > 0 };\nenum { F2 = 1.5 > 2 };\n"
    )
    assert [(f.name, f.type.to_c()) for r in module.records for f in r.fields] == [
        ("head", "char[4]"), ("tail", "char[16]")]
    assert [(m.name, m.value) for e in module.enums for m in e.members] == [
        ("K1", 8), ("K2", 32), ("C1", 97), ("C2", 10), ("F1", 1), ("F2", 0)]
    assert headlines(module) == [
        "t.h:5:13: error: the value of 'K3' is not an integer constant: invalid digit in octal constant '08'",
        "t.h:9:1: warning: static assertion failed: \"two\"",
    ]
    # one parse per shape: the struct, the shift, the character, each assertion (one has
    # two strings), the comparison
    assert len(parsed) == 6
def test_identifiers_spelled_like_the_placeholder_or_attribute_words():
    module = clean(
        "typedef int ID;\n"
        "struct ID2 { ID ID; int packed; int aligned; };\n"
        "int nonnull(ID *packed) __attribute__((nonnull(1)));"
    )
    assert [f.name for f in module.record("struct ID2").fields] == ["ID", "packed", "aligned"]
    assert module.function("nonnull").nonnull == (1,)
    assert module.function("nonnull").params[0].name == "packed"


# -- splitting ------------------------------------------------------------------

def test_split_cuts_at_top_level_semicolons_and_definitions():
    tokens = tokenize(
        'extern "C" {\nstruct A { int a; };\nstatic int f(void) { return 0; }\n'
        "struct __attribute__((packed)) B { int b; };\n}\n;", "t.h"
    )
    pieces = split_declarations(tokens)
    assert [(p.kind, " ".join(t.text for t in p.tokens)) for p in pieces] == [
        ("declaration", "struct A { int a ; } ;"),
        ("definition", "static int f ( void ) { return 0 ; }"),
        ("declaration", "struct __attribute__ ( ( packed ) ) B { int b ; } ;"),
    ]


# -- to_c round trips -----------------------------------------------------------

ROUND_TRIP = """
typedef unsigned long CK_ULONG;
typedef CK_ULONG *CK_ULONG_PTR;
typedef int (*cmp_t)(const void *a, const void *b);
typedef char name_t[32];
typedef void (*table_t[4])(int);
struct pair { int a; long b : 7; char *const *c; int (*fp)(void); double m[2][3]; };
extern int (*signal(int sig, void (*handler)(int)))(int);
int printf(const char *fmt, ...);
void qsort(void *base, unsigned long n, unsigned long size, cmp_t cmp);
extern const char *const names[];
int (*get_table(void))[4];
"""


def _as_c(module: Module) -> str:
    lines = [t.to_c() for t in module.typedefs]
    for record in module.records:
        body = " ".join(f.to_c() for f in record.fields or ())
        lines.append(f"{record.kind} {record.tag} {{ {body} }};")
    lines += [f.to_c() for f in module.functions]
    lines += [f"extern {v.type.to_c(v.name)};" for v in module.variables]
    return "\n".join(lines)


def test_to_c_round_trip_gives_the_same_model():
    first = clean(ROUND_TRIP)
    second = clean(_as_c(first))
    assert second == first
    assert _as_c(second) == _as_c(first)


# -- through the preprocessor: pack regions and doc comments --------------------

def test_pragma_pack_in_force_at_the_opening_brace_and_docs(tmp_path):
    from pegbind.parse import parse_declarations
    from pegbind.preprocess.engine import preprocess

    header = tmp_path / "p.h"
    header.write_text(
        "#pragma pack(push, 1)\n"
        "/** A packed pair. */\n"
        "struct P {\n"
        "    char c; /**< the tag */\n"
        "    int i;\n"
        "};\n"
        "#pragma pack(pop)\n"
        "struct Q { char c; int i; };\n"
        "/* Adds. */\n"
        "int add(int a, int b);\n"
        "enum { ONE = 1 /* first */ };\n"
    )
    module = parse_declarations(preprocess([header], target="linux-x86_64"), LP64)
    assert module.record("struct P").pack == 1
    assert module.record("struct Q").pack is None
    assert module.record("struct P").doc == "A packed pair."
    assert module.record("struct P").fields[0].doc == "the tag"
    assert module.function("add").doc == "Adds."
    assert module.enums[0].members[0].doc == "first"


def test_variable_length_array_parameters_have_unknown_lengths():
    # C11 6.7.6.2: a parameter's array length need not be constant.
    module = clean("void set(int rows, int cols, double m[rows][cols], int v[static 4]);")
    m = module.function("set").params[2]
    assert m.type == Array(Array(Primitive("double"), None), None)
    bad = parse("int cols; double table[cols];")
    assert [d.message for d in bad.diagnostics if d.severity == "error"] == [
        "the array length is not an integer constant: 'cols' is not a constant"
    ]


def test_bitfield_wider_than_its_type_is_an_error():
    module = parse("typedef unsigned char u8; struct s { int ok : 32; int b : 40; u8 c : 9; _Bool f : 2; };")
    assert [d.message for d in module.diagnostics if d.severity == "error"] == [
        "width of 'b' exceeds its type (40 > 32 bits)",
    ]


def test_a_doc_comment_of_an_old_header_not_in_utf8_reads_as_windows_1252(tmp_path):
    # Such headers' comments were written in Latin-1 or Windows-1252; as UTF-8 their
    # bytes reached docstrings as escapes ('M\udcfcller')
    from pegbind.parse import parse_declarations
    from pegbind.preprocess.engine import preprocess

    header = tmp_path / "old.h"
    header.write_bytes(b"/* Adds \xe9l\xe8ves, \x93quoted\x94, \xa9 M\xfcller. */\nint add(int a, int b);\n"
                       + "/* Na\u00efve \u2014 already UTF-8. */\nint sub(int a, int b);\n".encode())
    module = parse_declarations(preprocess([header], target="linux-x86_64"), LP64)
    assert module.function("add").doc == "Adds \u00e9l\u00e8ves, \u201cquoted\u201d, \u00a9 M\u00fcller."
    assert module.function("sub").doc == "Na\u00efve \u2014 already UTF-8."


def test_declarations_c_forbids_are_errors_as_gcc_words_them():
    # each line is one gcc 12 stops at (gcc -fsyntax-only), at the same line and column
    module = parse(
        "int f(int x, int x);\n"
        "struct S { int a; int a; };\n"
        "struct T { int a; struct { int b; int a; }; };\n"
        "enum E { A, B };\n"
        "enum F { C, B };\n"
        "enum { D, D };\n"
        "int g(void, int);\n"
        "int h()[3];\n"
        "int (*k(void))(void)[2];\n"
        "int m[2](void);\n"
        "extern int n[2][];\n"
        "int fine(int rows, double m[rows][rows], int (*callbacks[2])(void), int (*table)[]);\n"
    )
    assert headlines(module) == [
        "t.h:1:18: error: redefinition of parameter 'x'",
        "t.h:2:23: error: duplicate member 'a'",
        "t.h:3:39: error: duplicate member 'a'",
        "t.h:5:13: error: redeclaration of enumerator 'B'",
        "t.h:6:11: error: redeclaration of enumerator 'D'",
        "t.h:7:7: error: 'void' must be the only parameter",
        "t.h:8:5: error: 'h' declared as function returning an array",
        "t.h:9:7: error: 'k' declared as function returning an array",
        "t.h:10:5: error: declaration of 'm' as array of functions",
        "t.h:11:12: error: array type has incomplete element type 'int[]'",
    ]
    assert [f.name for f in module.functions] == ["fine"]


def test_conflicting_declarations_of_a_function_are_errors_compatible_ones_are_not():
    # gcc 12 stops at lines 2, 4 and 6 (gcc -fsyntax-only); every other pair is compatible
    module = parse(
        "int f(int);\nfloat f(int);\n"
        "int q(const char *);\nint q(char *const);\n"
        "void v(int, ...);\nvoid v(int);\n"
        "int g();\nint g(int, char *);\n"
        "int h(int a[3]);\nint h(int *b);\n"
        "enum E { X };\nint e(enum E);\nint e(unsigned int);\n"
        "int r(int (*)[3]);\nint r(int (*)[]);\n"
        "typedef const char *text;\nint t(text);\nint t(const char *const);\n"
        "int cb(void (*)(int));\nint cb(void (const int));\n"
        "int q2(const volatile int *);\nint q2(volatile const int *);\n"
        "const int rq(void);\nint rq(void);\n"
    )
    assert headlines(module) == [
        "t.h:2:7: error: conflicting types for 'f': 'float (int)' after 'int (int)' at t.h:1:5",
        "t.h:4:5: error: conflicting types for 'q': 'int (char *const)' after 'int (const char *)' at t.h:3:5",
        "t.h:6:6: error: conflicting types for 'v': 'void (int)' after 'void (int, ...)' at t.h:5:6",
    ]
    assert module.function("f").ret == Primitive("int")  # the first is kept


def _shape(expr) -> str:
    """An expression's syntax as text, every binary operation parenthesized."""
    from pegbind.parse import syntax as s

    if isinstance(expr, s.Binary):
        return f"({_shape(expr.left)} {expr.op} {_shape(expr.right)})"
    if isinstance(expr, s.Unary):
        return f"({expr.op}{_shape(expr.operand)})"
    if isinstance(expr, s.Conditional):
        return f"({_shape(expr.condition)} ? {_shape(expr.if_true)} : {_shape(expr.if_false)})"
    if isinstance(expr, s.NonConstant):
        return f"<{expr.what}>"
    return expr.token.text


@pytest.mark.parametrize(("source", "tree"), [
    ("1 + 2 * 3 - 4", "((1 + (2 * 3)) - 4)"),
    ("a | b & c == 1 << 2 + 3 * d", "(a | (b & (c == (1 << (2 + (3 * d))))))"),
    ("a || b && c | d ^ e & f != g < h >> i - j % k", "(a || (b && (c | (d ^ (e & (f != (g < (h >> (i - (j % k))))))))))"),
    ("'a' + 1 + f(2) * 3 + 4 - 5", "(((('a' + 1) + (<a function call> * 3)) + 4) - 5)"),
    ("1 + x.y * 2 + p->q + v[1] + n++ + 7", "(((((1 + (<a member access> * 2)) + <a member access>) + <an array subscript>) + <'++'>) + 7)"),
    ("-1 + 2 + ~3", "(((-1) + 2) + (~3))"),
    ("(1 + 2) * 3 + 4", "(((1 + 2) * 3) + 4)"),
    ("1 + 2 ? 3 + 4 : 5 + 6", "((1 + 2) ? (3 + 4) : (5 + 6))"),
    ("sizeof * p + 1", "(<an indirection> + 1)"),
    ("1 - 2 - 3 + v[1] - 4", "((((1 - 2) - 3) + <an array subscript>) - 4)"),  # one level: left to right
    ("a << 1 >> (2 * 3) << 4", "(((a << 1) >> (2 * 3)) << 4)"),
])
def test_a_run_of_plain_operands_reads_as_the_operands_one_by_one(source, tree):
    # A run of plain operands and binary operators is one leaf of the grammar (OPERAND_RUN);
    # the walker gives it the tree the operands parsed one by one give, by C's precedence.
    from pegbind.parse.walker import parse_syntax

    got = parse_syntax(tokenize(source, "t.h"), "macro_expression")
    if source.startswith("sizeof"):
        assert type(got).__name__ == "Binary" and got.op == "+" and type(got.left).__name__ == "SizeofExpr"
        return
    assert _shape(got) == tree


def test_the_run_of_plain_operands_takes_the_operators_binary_expressions_take():
    # two leaves of declarations.ppeg spell the binary operators; in the run, each token is
    # followed by its blank, which refuses `<<=` or `++` as BINARY_OP's lookaheads do
    import re

    from pegbind.parse.walker import declaration_parser
    from pegbind.preprocess.cexpr import BINARY_PRECEDENCE

    grammar = declaration_parser()
    binary, run = re.compile(grammar["BINARY_OP"].pattern), re.compile(grammar["OPERAND_RUN"].pattern)
    spellings = [*BINARY_PRECEDENCE, "<<=", ">>=", "|=", "&=", "^=", "+=", "-=", "*=", "/=", "%=", "++", "--",
                 "=", "->", ".", "?", ":", ",", "!", "~", "(", "["]
    for spelling in spellings:
        takes = binary.fullmatch(spelling + " ") is not None
        assert takes == (spelling in BINARY_PRECEDENCE), spelling
        assert (run.fullmatch(f"0 {spelling} 0 ") is not None) == takes, spelling


def test_a_long_record_body_parsed_member_by_member_gives_the_syntax_of_the_whole(monkeypatch, tmp_path):
    # A declaration with a long record or enum body parses its members apart, so that members of
    # one shape are remade from the first one's walk; the syntax must be what parsing the whole gives.
    from pathlib import Path

    from pegbind.parse import walker
    from pegbind.preprocess.engine import preprocess

    header = tmp_path / "long.h"
    members = "".join(f"int m{i}; unsigned b{i} : 3; char *p{i}[4], q{i};\n" for i in range(200))
    header.write_text(
        "struct big {\n" + members + "  struct { int x; struct { double y; } deeper; } inner;\n"
        "  _Static_assert(1, \"holds\");\n  ;\n  int (*callback)(int, struct big *);\n"
        "} __attribute__((aligned(16))) big_one, *big_pointer;\n"
        "typedef union { " + members + " } many;\n"
        "struct outer { struct { " + members + " } nested; int after; };\n"
        "struct missing { " + members + " int m };\n"  # a syntax error: said as for the whole
        "enum big_enum { " + "".join(f"E{i}, F{i} = E{i} + 1, G{i} = (F{i}, 2) ," for i in range(100))
        + " LAST } __attribute__((packed)) big_enum_value;\n"
        "typedef enum { " + "".join(f"T{i} = {i} << 1," for i in range(300)) + " } trailing;\n"
        "enum broken { " + "".join(f"B{i}," for i in range(300)) + " B, , C };\n"  # said as for the whole
    )
    headers = [header, Path(__file__).parent / "capi" / "capi.h"] + [
        Path(p) for p in ("/usr/include/zlib.h", "/usr/include/expat.h", "/usr/include/png.h",
                          "/usr/include/libxml2/libxml/tree.h") if Path(p).exists()]
    seen, split = 0, []
    by_members = walker._by_members
    monkeypatch.setattr(walker, "_by_members",
                        lambda text, rule, brackets: split.append(by_members(text, rule, brackets)) or split[-1])
    for path in headers:
        include = [path.parent, Path("/usr/include/libxml2")]
        pieces = split_declarations(preprocess([path], include_dirs=include).tokens)
        for piece in pieces:
            if not any(token.text == "{" for token in piece.tokens):
                continue
            # apart first: a shape parse_syntax has parsed apart once it parses whole the next time
            monkeypatch.setattr(walker, "MEMBERS_APART", 0)
            apart = walker.parse_syntax(piece.tokens)
            monkeypatch.setattr(walker, "MEMBERS_APART", 10**9)
            whole = walker.parse_syntax(piece.tokens)
            assert apart == whole, " ".join(token.text for token in piece.tokens)[:200]
            seen += 1
            if path == header and piece.tokens[1].text in ("missing", "broken"):  # said as the whole says it
                assert isinstance(apart, walker.SyntaxProblem)
    assert seen > 50 and sum(result is not None for result in split) > 50
    assert sum(result is not None and result.specifiers.enum is not None for result in split) >= 2


def test_the_run_leaf_gives_the_syntax_the_rules_give(monkeypatch):
    # OPERAND_RUN matches runs whose operands may be groups and have prefix operators; the
    # syntax must be what the grammar without the leaf gives, operand by operand, on every
    # expression, casts to typedef names and postfix operators among them.
    import random

    from conftest import long_run, parser_without_run_leaf, random_expression

    from pegbind.parse import walker

    reference = parser_without_run_leaf("declarations")
    rng = random.Random(17)
    leaf = walker.declaration_parser()
    seen = {"group": 0, "prefix": 0}
    run_items = walker._run_items

    def counted(tokens, index, end):  # what the leaf matched: groups, and operands with prefixes
        seen["group"] += tokens[index - 1].text == "("
        seen["prefix"] += tokens[index].text in "-+~!"
        return run_items(tokens, index, end)
    monkeypatch.setattr(walker, "_run_items", counted)
    leaves = ["1", "0x10U", "'c'", "a", "b", "T", "EA", "2.5"]
    sources = [random_expression(rng, leaves, ["f ( 1 )", "v [ 2 ]", "s . m", "p -> m", "n ++", "sizeof x", "( a )",
                                               "( T )", "( unsigned )", "( T * )"]) for _ in range(1500)]
    sources += [long_run(rng, leaves) for _ in range(4)]  # longer than one match of the leaf takes
    for source in sources:
        tokens = tokenize("typedef int T; enum { EA = " + source + " };", "t.h")
        results = []
        for which in (leaf, reference):
            monkeypatch.setattr(walker, "declaration_parser", lambda which=which: which)
            walker.forget_shapes()
            results.append(walker.parse_syntax(tokens[4:]))
        assert results[0] == results[1], source
    walker.forget_shapes()
    assert seen["group"] > 200 and seen["prefix"] > 100, seen


def test_a_long_parameter_list_parsed_parameter_by_parameter_gives_the_syntax_of_the_whole(monkeypatch, tmp_path):
    # A long declaration parses its longest parameter list apart, as it does a long body;
    # the syntax must be what parsing the whole gives, and an error is told as the whole tells it.
    from pathlib import Path

    from pegbind.parse import walker
    from pegbind.preprocess.engine import preprocess

    params = ", ".join(f"int a{i}, const char *b{i}, int (*cb{i})(int, char *), T t{i}[3], unsigned" for i in range(60))
    header = tmp_path / "long.h"
    header.write_text(
        "typedef int T;\n"
        f"int plain({params});\n"
        f"int variadic({params}, ...);\n"
        f"void (*returns_pointer(int first, {params}))(int, int);\n"
        f"int (*pointer_to)({params}) __attribute__((nonnull(1, 2, 3, 4)));\n"
        f"int knr(" + ", ".join(f"k{i}" for i in range(300)) + ");\n"
        f"struct s {{ int (*member)({params}); int after; }};\n"
        f"int attribute_only(int a) __attribute__((format(printf, 1, 2), nonnull(" + ", ".join(["1"] * 200) + ")));\n"
        f"int missing({params}, int x y);\n"  # a syntax error: said as for the whole
        f"int empty_one({params}, , int z);\n"
    )
    headers = [header, Path(__file__).parent / "capi" / "capi.h"] + [
        Path(p) for p in ("/usr/include/zlib.h", "/usr/include/sqlite3.h", "/usr/include/png.h",
                          "/usr/include/libxml2/libxml/tree.h", "/usr/include/libxml2/libxml/parser.h",
                          "/usr/include/x86_64-linux-gnu/curl/curl.h", "/usr/include/expat.h",
                          "/usr/include/nss/pkcs11.h") if Path(p).exists()]
    seen = apart = 0
    assert walker.PARAMETERS_APART <= 3  # every list of three parameters or more is parsed apart
    for path in headers:
        include = [path.parent, Path("/usr/include/libxml2"), Path("/usr/include/nspr")]
        for piece in split_declarations(preprocess([path], include_dirs=include).tokens):
            if sum(token.text == "," for token in piece.tokens) < 2:
                continue
            whole = walker._parse_whole(piece.tokens, "declaration")
            brackets = walker._brackets(piece.tokens)
            split = (None if brackets is None
                     else walker._by_parameters(walker.TokenText(piece.tokens), "declaration", brackets))
            seen += 1
            if split is not None:
                apart += 1
                assert split == whole, " ".join(token.text for token in piece.tokens)[:200]
            if path == header and piece.tokens[1].text in ("missing", "empty_one"):
                assert split is None and isinstance(whole, walker.SyntaxProblem)
            if path == header and piece.tokens[1].text in ("plain", "variadic", "knr"):
                assert split is not None
    assert seen > 100 and apart > 50, (seen, apart)
    # through parse_syntax, a long one takes the split
    tokens = split_declarations(preprocess([header]).tokens)[1].tokens
    calls = []
    by_parameters = walker._by_parameters
    monkeypatch.setattr(walker, "_by_parameters",
                        lambda text, rule, brackets: calls.append(rule) or by_parameters(text, rule, brackets))
    assert walker.parse_syntax(tokens) == walker._parse_whole(tokens, "declaration") and calls


def test_the_text_of_part_of_a_declaration_is_the_text_of_its_tokens():
    # parsed apart, a declaration's parts take their text from the whole's pieces
    import random
    from pathlib import Path

    from pegbind.parse import walker
    from pegbind.preprocess.engine import preprocess

    pieces = split_declarations(preprocess([Path(__file__).parent / "capi" / "capi.h"]).tokens)
    tokens = max(pieces, key=lambda piece: len(piece.tokens)).tokens
    assert len(tokens) > 30
    whole = walker.TokenText(tokens)
    rng = random.Random(5)
    for _ in range(50):
        start = rng.randrange(len(tokens))
        stop = rng.randrange(start, len(tokens) + 1)
        for made, expected in ((whole.part(start, stop), tokens[start:stop]),
                               (whole.without(start, stop), tokens[:start] + tokens[stop:])):
            fresh = walker.TokenText(expected)
            assert (made.tokens, made.text, made.read_text) == (fresh.tokens, fresh.text, False)
            if made.tokens:
                assert made.token_at(len(made.text) - 2) is fresh.tokens[-1]


def test_a_shape_parsed_apart_once_is_parsed_whole_then_remade(monkeypatch):
    # Parsing apart pays where the parameters' shapes repeat and the whole's do not; where
    # the whole shape repeats (a generated header's prototypes), its walk is remade.
    from pegbind.parse import walker

    walker.forget_shapes()
    calls: list[str] = []
    parse_shape = walker._parse_shape
    monkeypatch.setattr(walker, "_parse_shape", lambda rule, text: calls.append(rule) or parse_shape(rule, text))
    sources = [f"int f{index}(int a{index}, const char *b{index}, long c);" for index in range(4)]
    results = [walker.parse_syntax(tokenize(source, "t.h")) for source in sources]
    # apart: the outer with its first parameter, then the other two; then whole once; then remade
    assert calls == ["declaration", "parameter", "parameter", "declaration"], calls
    monkeypatch.setattr(walker, "_parse_shape", parse_shape)
    walker.forget_shapes()
    assert results == [walker._parse_whole(tokenize(source, "t.h"), "declaration") for source in sources]
    assert [r.declarators[0].declarator.name_token.text for r in results] == ["f0", "f1", "f2", "f3"]
