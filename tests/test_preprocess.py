"""Preprocessor: the C11 6.10.3.5 examples, the result API, and exact error messages."""
from __future__ import annotations

from pathlib import Path

import pytest

from pegbind.preprocess import PreprocessError, preprocess, render_preprocessed, tokenize


def run(tmp_path: Path, text: str, name: str = "t.h", **options):
    header = tmp_path / name
    header.write_text(text)
    return preprocess([header], **options)


def texts(tokens) -> list[str]:
    return [t.text for t in tokens]


def errors_of(tmp_path: Path, text: str, name: str = "t.h", **options) -> str:
    with pytest.raises(PreprocessError) as info:
        run(tmp_path, text, name, **options)
    return info.value.render(excerpt=False)


# ---- C11 6.10.3.5: the results the standard prints -------------------------------------------

EXAMPLE_3 = r"""
#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"""
RESULT_3 = r"""
f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };
"""

EXAMPLE_4 = r"""
#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"""
RESULT_4 = r"""
printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
"vers2.h"
"hello";
"hello" ", world"
"""

EXAMPLE_5 = r"""
#define t(x,y,z) x ## y ## z
int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),
 t(10,,), t(,11,), t(,,12), t(,,) };
"""
RESULT_5 = "int j[] = { 123, 45, 67, 89, 10, 11, 12, };"

EXAMPLE_7 = r"""
#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"""
RESULT_7 = r"""
fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));
"""


@pytest.mark.parametrize(
    "source,expected",
    [(EXAMPLE_3, RESULT_3), (EXAMPLE_4, RESULT_4), (EXAMPLE_5, RESULT_5), (EXAMPLE_7, RESULT_7)],
    ids=["example3", "example4", "example5", "example7"],
)
def test_c11_examples(tmp_path: Path, source: str, expected: str) -> None:
    result = run(tmp_path, source)
    assert texts(result.tokens) == texts(tokenize(expected, "expected"))


# ---- the result API -------------------------------------------------------------------------


def test_tokens_know_their_coordinates_and_expansions(tmp_path: Path) -> None:
    result = run(tmp_path, "#define ONE 1\n#define F(x) (x + ONE)\nint a = F(2);\n")
    tokens = result.tokens
    assert texts(tokens) == ["int", "a", "=", "(", "2", "+", "1", ")", ";"]
    paren, two, one = tokens[3], tokens[4], tokens[6]
    assert (paren.coord.line, paren.coord.col) == (2, 14)
    assert [f.macro for f in paren.expansion] == ["F"] and paren.expansion[0].site.line == 3
    assert (two.coord.line, two.coord.col, two.expansion) == (3, 11, ())
    assert [f.macro for f in one.expansion] == ["F", "ONE"]
    assert one.origin_note().startswith(" (in expansion of F from ")


def test_macro_table_history_and_object_like(tmp_path: Path) -> None:
    result = run(tmp_path, "#define A 1\n#define B(x) x\n#define C 3\n#undef A\n#define A 2\n#define C 3\n")
    macros = result.macros
    assert [(e.action, e.name) for e in macros.history if e.coord.file.endswith("t.h")] == [
        ("define", "A"), ("define", "B"), ("define", "C"), ("undef", "A"), ("define", "A"), ("redefine", "C"),
    ]
    assert [m.name for m in macros.object_like(origin="user")] == ["A", "C"]
    assert macros["B"].params == ("x",) and macros["A"].origin == "user"
    assert texts(result.expand(tokenize("A + B(C)", "x"))) == ["2", "+", "3"]
    assert macros["__x86_64__"].origin == "builtin"


def test_same_shaped_directives_keep_their_own_names_and_bodies(tmp_path: Path) -> None:
    # Directives of one shape share a parse; names, bodies, parameters and
    # header names still come from each line's own tokens.
    (tmp_path / "inc.h").write_text("int from_inc;\n")
    result = run(
        tmp_path,
        "#define A 0x1UL\n#define B 22\n#define ID 3\n#define F(x, y) x\n#define G(p, q) q\n"
        "#define H (v) v\n#ifdef ID\nint ID_set;\n#endif\n#ifndef B\nint B_unset;\n#endif\n"
        '#include "inc.h"\nF(A, B) G(A, ID) H\n',
    )
    macros = result.macros
    assert [(m.name, texts(m.body)) for m in macros.object_like(origin="user")] == [
        ("A", ["0x1UL"]), ("B", ["22"]), ("ID", ["3"]), ("H", ["(", "v", ")", "v"]),
    ]
    assert macros["F"].params == ("x", "y") and macros["G"].params == ("p", "q")
    assert texts(result.tokens) == [
        "int", "ID_set", ";", "int", "from_inc", ";", "0x1UL", "3", "(", "v", ")", "v",
    ]


def test_defines_undefs_and_includes_read_without_the_grammar_read_as_with_it() -> None:
    # #define, #undef and #include lines the grammar would accept are read by hand; each must give the
    # grammar's Directive, and a line it rejects must still reach it for its error
    import random

    from pegbind.preprocess import directives
    from pegbind.preprocess.lexer import lex

    def by_grammar(line):
        try:
            return directives._parsed_directive(line)
        except directives.DirectiveSyntaxError as error:
            return (error.message, error.coord)

    lines = [line for header in ("stdio.h", "x86_64-linux-gnu/sys/cdefs.h", "zlib.h", "sqlite3.h")
             if Path("/usr/include", header).is_file()
             for line in lex(Path("/usr/include", header).read_text(), header).lines if line[0].text == "#"]
    pieces = ["define", "undef", "F", "a", "b", "(", ")", ",", "...", "1", "x y", "\\u00e9", "\u00e9t\u00e9", "#", "$z",
              "ID", "<", ">", '"a.h"', 'L"b.h"', '"c\\"d"', "->", ">="]
    rng = random.Random(3)
    for _ in range(4000):
        body = "".join(rng.choice(pieces) + rng.choice(["", " "]) for _ in range(rng.randint(1, 7)))
        lines += [lex(head + body, "r.h").lines[0]
                  for head in ("#define F", "#define F(", "#undef ", "#define ", "#include ", "#include_next <")]
    quick = 0
    for line in lines:
        found = directives._definition(line) or directives._inclusion(line)
        if found is not None:
            quick += 1
            assert found == by_grammar(line), line
    assert quick > 5000  # the lines of every kind were there to compare


def test_extra_tokens_after_a_directive_are_warned_of_as_gcc_does(tmp_path: Path) -> None:
    # gcc 12's own list for this text (a #else or #endif inside a skipped group says nothing)
    source = ("#if 0\n#endif X\n#ifdef Y Z\n#endif\n#undef Q R\n#include <stddef.h> junk\n#ifndef Q R\n#endif\n"
              "#if 0\n#if 1\n#else S\n#endif T\n#endif\n#if 1\n#else U\n#endif T\nint a;\n")
    result = run(tmp_path, source)
    assert [d.headline().removeprefix(f"{tmp_path}/") for d in result.diagnostics] == [
        "t.h:2:8: warning: extra tokens at end of #endif directive",
        "t.h:3:10: warning: extra tokens at end of #ifdef directive",
        "t.h:5:10: warning: extra tokens at end of #undef directive",
        "t.h:6:21: warning: extra tokens at end of #include directive",
        "t.h:7:11: warning: extra tokens at end of #ifndef directive",
        "t.h:15:7: warning: extra tokens at end of #else directive",
        "t.h:16:8: warning: extra tokens at end of #endif directive",
    ]
    assert texts(result.tokens)[-3:] == ["int", "a", ";"]


def test_line_numbers_out_of_range_and_extra_tokens_are_warned_of(tmp_path: Path) -> None:
    result = run(tmp_path, '#line 4294967296\n#line 10 "a.h" 3\n__LINE__ __FILE__\n')
    assert [d.headline().removeprefix(f"{tmp_path}/") for d in result.diagnostics] == [
        "t.h:1:7: warning: line number out of range",
        "t.h:2:16: warning: extra tokens at end of #line directive",
    ]
    assert texts(result.tokens) == ["10", '"a.h"']


def test_an_if_constant_too_large_for_its_type_is_warned_of_and_cut_as_gcc_does(tmp_path: Path) -> None:
    # gcc keeps the low 64 bits, signed where they fit intmax_t: the text gcc 12 keeps, its warnings
    source = ("#if 99999999999999999999 == 7766279631452241919 && 99999999999999999999 > -1\nsigned\n#endif\n"
              "#if 0x1FFFFFFFFFFFFFFFF == 0xFFFFFFFFFFFFFFFF\nwrapped\n#endif\n")
    result = run(tmp_path, source)
    assert texts(result.tokens) == ["signed", "wrapped"]
    assert [d.headline().removeprefix(f"{tmp_path}/") for d in result.diagnostics] == [
        "t.h:1:5: warning: integer constant is too large for its type",
        "t.h:1:52: warning: integer constant is too large for its type",
        "t.h:4:5: warning: integer constant is too large for its type",
    ]


def test_macros_the_preprocessor_makes_can_be_undefined_or_replaced_as_in_gcc(tmp_path: Path) -> None:
    # gcc 12's text and warnings: after #undef a made macro is an identifier, and defined() says 0
    source = ("#define __FILE__ 1\n__FILE__\n#undef __FILE__\n__FILE__\n#undef __LINE__\n__LINE__\n"
              "#if defined(__LINE__) || defined(__FILE__)\nbad\n#endif\n#undef __STDC__\n#undef __GNUC__\n"
              "__COUNTER__\n")
    result = run(tmp_path, source)
    assert texts(result.tokens) == ["1", "__FILE__", "__LINE__", "0"]
    assert [d.headline().removeprefix(f"{tmp_path}/") for d in result.diagnostics] == [
        't.h:1:9: warning: "__FILE__" redefined',
        't.h:5:8: warning: undefining "__LINE__"',
        't.h:10:8: warning: undefining "__STDC__"',
    ]


def test_a_stringified_argument_ending_in_a_lone_backslash_loses_it_as_in_gcc(tmp_path: Path) -> None:
    # gcc 12: "" with 'invalid string literal, ignoring final '\\'' (pointed at the backslash here)
    result = run(tmp_path, '#define str(x) #x\nstr(\\) str(a\\\\) str("\\\\")\n')
    assert texts(result.tokens) == ['""', '"a\\\\"', '"\\"\\\\\\\\\\""']
    assert [d.headline().removeprefix(f"{tmp_path}/") for d in result.diagnostics] == [
        "t.h:2:5: warning: invalid string literal, ignoring final '\\'",
    ]


def test_poisoned_names_are_errors_where_the_header_uses_them_as_in_gcc(tmp_path: Path) -> None:
    # gcc 12's list: a macro defined before the pragma may still expand to a poisoned name
    source = ("#define foo 1\n#define M bar\n#pragma GCC poison foo bar\nint M;\n#if 0\nfoo\n#endif\n"
              "int bar;\n#ifdef foo\n#endif\n#define X bar\n#pragma GCC poison 1\n")
    assert errors_of(tmp_path, source).replace(f"{tmp_path}/", "").splitlines() == [
        't.h:3:20: warning: poisoning existing macro "foo"',
        't.h:8:5: error: attempt to use poisoned "bar"',
        't.h:9:8: error: attempt to use poisoned "foo"',
        't.h:11:11: error: attempt to use poisoned "bar"',
        "t.h:12:20: error: invalid #pragma GCC poison directive",
    ]


def test_incompatible_redefinition_is_a_warning(tmp_path: Path) -> None:
    result = run(tmp_path, "#define A 1\n#define A 2\nA\n")
    assert texts(result.tokens) == ["2"]
    assert [d.headline() for d in result.diagnostics] == [f"{tmp_path}/t.h:2:9: warning: \"A\" redefined"]


def test_origins_user_standard_system(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "lib.h").write_text("int lib;\n")
    result = run(tmp_path, '#include "lib.h"\n#include <stddef.h>\n#include <zlib.h>\n', include_dirs=[tmp_path / "inc"])
    origins = {Path(f).name: result.origin(f) for f in result.files}
    assert origins["t.h"] == "user" and origins["lib.h"] == "user"
    assert origins["stddef.h"] == "standard"
    assert origins["zlib.h"] == "system" and origins["zconf.h"] == "system"


def test_comment_index(tmp_path: Path) -> None:
    source = "/**\n * The x.\n *   indented\n */\nint x;\n// one\n// two\nint y; /* the y */\n\n/* far */\n\nint z;\n"
    result = run(tmp_path, source)
    by_name = {t.text: t.coord for t in result.tokens}
    assert result.comments.doc_before(by_name["x"]) == "The x.\n  indented"
    assert result.comments.doc_before(by_name["y"]) == "one\ntwo"
    assert result.comments.doc_after(by_name["y"]) == "the y"
    assert result.comments.doc_before(by_name["z"]) == ""


def test_comments_are_dedented_as_textwrap_dedents() -> None:
    import random
    import textwrap

    from pegbind.preprocess.comments import clean_comment

    pieces = [" ", "\t", "  ", "\t ", " \t", "x", "y z", "\r", "\f", "\xa0", "\u3000"]
    rng = random.Random(7)
    for _ in range(3000):
        lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 5))]
        body = "\n".join(lines)
        # the lines after a comment's first are dedented as a block, a starred comment's from "/**" on
        cleaned = clean_comment("/* head\n" + body + "*/")
        kept = [line.rstrip() for line in ["head", *body.split("\n")]]
        while kept and not kept[-1].strip():
            kept.pop()
        expected = "head" + ("\n" + textwrap.dedent("\n".join(kept[1:])) if kept[1:] else "")
        assert cleaned == expected, body
        starred = "/**\n" + "".join(f" *{line}\n" for line in lines) + " */"
        unstarred = "\n".join(["", *(line[1:] if line.startswith(" ") else line for line in lines), ""])
        assert clean_comment(starred) == textwrap.dedent(unstarred).strip("\n").rstrip()


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("/*\n * a\n\x0c\n * b */", "a\n\x0c\nb"),  # a line of other white space has no column to strip
    ("/* head\n * a\n   b\n */", "head\n* a\n  b"),  # a line with text but no column: none stripped
    ("/* head\n * a\n *\n * b\n */", "head\na\n\nb"),
    ("/*\n\u2028 * y */", "y"),  # white space Python's str.isspace() knows, as gcc's text has it
    ("/*\n ** x\n ** y\n*/", "* x\n* y"),  # sqlite3.h's "**" column: one star is the column's
    ("/**\n * a */b\n */", "a */b"),
])
def test_a_comments_star_column_is_stripped_only_when_every_line_with_text_has_it(raw: str, cleaned: str) -> None:
    from pegbind.preprocess.comments import clean_comment

    assert clean_comment(raw) == cleaned


def test_pragma_pack_regions(tmp_path: Path) -> None:
    source = (
        "struct a { int x; };\n#pragma pack(push, 1)\nstruct b { int x; };\n#pragma pack(2)\nstruct c;\n"
        "#pragma pack(pop)\nstruct d;\n#define PACK(n) _Pragma(\"pack(\" #n \")\")\n_Pragma(\"pack(4)\") struct e;\n"
        "#pragma pack()\nstruct f;\n#pragma pack(push, cryptoki, 8)\n#pragma pack(pop, cryptoki)\n"
    )
    result = run(tmp_path, source)
    index = {t.text: i for i, t in enumerate(result.tokens) if t.text in "bcdef"}
    assert result.pack_changes == [
        (index["b"] - 1, 1), (index["c"] - 1, 2), (index["d"] - 1, None), (index["e"] - 1, 4),
        (index["f"] - 1, None), (len(result.tokens), 8), (len(result.tokens), None),
    ]
    assert "_Pragma" not in texts(result.tokens)


def test_render_has_gcc_line_markers(tmp_path: Path) -> None:
    result = run(tmp_path, "#define X 1\n\nint a = X;\n\n\n\n\n\n\n\n\n\n\n\nint b;\n")
    rendered = render_preprocessed(result)
    assert rendered == f'# 3 "{tmp_path}/t.h"\nint a = 1;\n# 15 "{tmp_path}/t.h"\nint b;\n'


def test_dynamic_macros_are_deterministic(tmp_path: Path) -> None:
    source = "__LINE__ __FILE__ __COUNTER__ __COUNTER__ __INCLUDE_LEVEL__ __DATE__ __TIME__\n#line 100\n__LINE__\n"
    result = run(tmp_path, source)
    assert texts(result.tokens) == ["1", f'"{tmp_path}/t.h"', "0", "1", "0", '"Jan  1 1970"', '"00:00:00"', "100"]


def test_defines_undefines_and_target(tmp_path: Path) -> None:
    source = "A B __x86_64__ __aarch64__ __SIZEOF_LONG__ _WIN32\n"
    result = run(tmp_path, source, defines={"A": None, "B": "x y"}, undefines=["__x86_64__"])
    assert texts(result.tokens) == ["1", "x", "y", "__x86_64__", "__aarch64__", "8", "_WIN32"]
    win = run(tmp_path, source, target="win-x86_64")
    assert texts(win.tokens) == ["A", "B", "1", "__aarch64__", "4", "1"]


def test_skip_includes_and_include_next(tmp_path: Path) -> None:
    for folder, text in (("one", '#include_next <n.h>\nint one;\n'), ("two", "int two;\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "n.h").write_text(text)
    result = run(tmp_path, '#include <missing.h>\n#include <n.h>\n', include_dirs=[tmp_path / "one", tmp_path / "two"],
                 skip_includes=["missing.h"])
    assert texts(result.tokens) == ["int", "two", ";", "int", "one", ";"]


def test_function_like_invocation_spanning_a_directive(tmp_path: Path) -> None:
    result = run(tmp_path, "#define F(a, b) a + b\nF(1,\n#define TWO 2\nTWO)\n")
    assert texts(result.tokens) == ["1", "+", "2"]


# ---- errors: exact text ---------------------------------------------------------------------

ERROR_CASES = [
    ("#if 1\nint a;\n", "t.h:1:1: error: unterminated #if"),
    ("#ifdef A\n#else\n", "t.h:1:1: error: unterminated #else"),
    ("#ifdef A\n", "t.h:1:1: error: unterminated #ifdef"),
    ("#if 0\n#elif 1\n", "t.h:1:1: error: unterminated #elif"),
    ("#endif\n", "t.h:1:2: error: #endif without #if"),
    ("#else\n", "t.h:1:2: error: #else without #if"),
    ("#elif 1\n", "t.h:1:2: error: #elif without #if"),
    ("#if 1\n#else\n#else\n#endif\n", "t.h:3:2: error: #else after #else"),
    ("#if 0\n#else\n#elif 1\n#endif\n", "t.h:3:2: error: #elif after #else"),
    ("#foo bar\n", "t.h:1:2: error: invalid preprocessing directive #foo"),
    ("#define F(a, b) a\nF(1)\n", 't.h:2:4: error: macro "F" requires 2 arguments, but only 1 given'),
    ("#define F(a) a\nF(1, 2)\n", 't.h:2:7: error: macro "F" passed 2 arguments, but takes just 1'),
    ("#define F(a, b, ...) a\nF(1)\n", 't.h:2:4: error: macro "F" requires 3 arguments, but only 1 given'),
    ("#define F(a) a\nF(1, (2)\n", 't.h:2:9: error: unterminated argument list invoking macro "F"'),
    # gcc: where the text ended (the file's last line, a directive's line, comments and blanks too)
    ("#define F(a) a\nint a = F(1   \n\n   \n", 't.h:4:4: error: unterminated argument list invoking macro "F"'),
    ("#define F(a) a\n#if F(1 /* c */ \n#endif\n", 't.h:2:17: error: unterminated argument list invoking macro "F"'),
    ("#define F(a) a\n#if F(1, \\\n 2\n#endif\n", 't.h:3:3: error: unterminated argument list invoking macro "F"'),
    ("#define F(a, b) a\nF(1\n)\n", 't.h:3:1: error: macro "F" requires 2 arguments, but only 1 given'),
    ("int a; /* open\n", "t.h:1:8: error: unterminated comment"),
    ("char c = 'x;\n", "t.h:1:10: error: missing terminating ' character"),
    ('char *s = "abc;\n', 't.h:1:11: error: missing terminating " character'),
    ('#include "nowhere.h"\n', "t.h:1:10: error: 'nowhere.h' file not found"),
    ("#define A ## b\n", "t.h:1:11: error: '##' cannot appear at either end of a macro expansion"),
    ("#define A(x) x ##\n", "t.h:1:16: error: '##' cannot appear at either end of a macro expansion"),
    ("#define A(x) # y\n", "t.h:1:14: error: '#' is not followed by a macro parameter"),
    ("#if 1 +\n#endif\n", "t.h:1:7: error: invalid #if expression: unexpected end of expression"),
    ("#if 1 2\n#endif\n", 't.h:1:7: error: invalid #if expression: unexpected "2"'),
    ("#if 1 / 0\n#endif\n", "t.h:1:2: error: division by zero in #if"),
    ("#if defined\n#endif\n", 't.h:1:5: error: operator "defined" requires an identifier'),
    ("#if defined(\n#endif\n", 't.h:1:5: error: operator "defined" requires an identifier'),
    ("#define A __VA_ARGS__\n", "t.h:1:11: error: __VA_ARGS__ can only appear in the expansion of a C99 variadic macro"),
    ("#define F(a, b, a) a\n", 't.h:1:17: error: duplicate macro parameter "a"'),
    ("#define G(x, y,x...) x\n", 't.h:1:16: error: duplicate macro parameter "x"'),
    ("#undef defined\n", 't.h:1:8: error: "defined" cannot be used as a macro name'),
    ("_Pragma(1)\n", "t.h:1:9: error: _Pragma takes a parenthesized string literal"),
    ("_Pragma x\n", "t.h:1:9: error: _Pragma takes a parenthesized string literal"),
    ("_Pragma()\n", "t.h:1:9: error: _Pragma takes a parenthesized string literal"),
    ('_Pragma("a" "b")\n', "t.h:1:13: error: _Pragma takes a parenthesized string literal"),
    ("#include <>\n", "t.h:1:10: error: empty filename in #include"),
    ("#line\n", "t.h:1:6: error: unexpected end of file after #line"),
    ("#line 0x10\n", 't.h:1:7: error: "0x10" after #line is not a positive integer'),
    ('#line 10 L"a.h"\n', 't.h:1:10: error: "L"a.h"" is not a valid filename'),
    ('#include_next ""\n', "t.h:1:15: error: empty filename in #include_next"),
    ("#if 0x\n#endif\n", 't.h:1:5: error: invalid suffix "x" on integer constant'),
    ("#if 08\n#endif\n", 't.h:1:5: error: invalid digit "8" in octal constant'),
    ("#if 1 + 0x1g\n#endif\n", 't.h:1:9: error: invalid suffix "g" on integer constant'),
    ("#if 2 * 1.0\n#endif\n", "t.h:1:9: error: floating constant in preprocessor expression"),
    ("#define F(...) __VA_OPT__(x\n", "t.h:1:16: error: unterminated __VA_OPT__"),
    ("#define F(...) a __VA_OPT__\n", "t.h:1:18: error: unterminated __VA_OPT__"),
    ("#define F(...) __VA_OPT__((x)\n", "t.h:1:16: error: unterminated __VA_OPT__"),
    ("#define F(...) __VA_OPT__(__VA_OPT__())\n", "t.h:1:27: error: __VA_OPT__ may not appear in a __VA_OPT__"),
    ("#error stop here\n", "t.h:1:2: error: #error stop here"),
    ("#define F(a, 1) a\n", 't.h:1:14: error: expected parameter name, found "1"'),
    ("#define 3 x\n", "t.h:1:9: error: macro names must be identifiers"),
    ("#include\n", 't.h:1:2: error: #include expects "FILENAME" or <FILENAME>'),
    ("#ifdef\n#endif\n", "t.h:1:2: error: no macro name given in #ifdef directive"),
    ("#define cat(a, b) a ## b\ncat(., +)\n", 't.h:2:1: error: pasting "." and "+" does not give a valid preprocessing token'),
]


def test_a_wrong_argument_count_shows_where_the_macro_is_defined(tmp_path: Path) -> None:
    rendered = errors_of(tmp_path, "#define F(a, b) a\n#define G(x) x\nF(1)\nG(1, 2)\n").replace(f"{tmp_path}/", "")
    assert rendered.splitlines() == [  # gcc's words and places
        't.h:3:4: error: macro "F" requires 2 arguments, but only 1 given',
        't.h:1: note: macro "F" defined here',
        't.h:4:7: error: macro "G" passed 2 arguments, but takes just 1',
        't.h:2: note: macro "G" defined here',
    ]


@pytest.mark.parametrize("source,message", ERROR_CASES, ids=[m.split("error: ")[1][:40] for _, m in ERROR_CASES])
def test_error_messages(tmp_path: Path, source: str, message: str) -> None:
    rendered = errors_of(tmp_path, source).replace(f"{tmp_path}/", "")
    assert message in rendered.splitlines(), rendered


def test_error_in_included_file_names_the_include_chain(tmp_path: Path) -> None:
    (tmp_path / "inner.h").write_text("#endif\n")
    rendered = errors_of(tmp_path, '\n#include "inner.h"\n').replace(f"{tmp_path}/", "")
    assert rendered.splitlines() == ["In file included from t.h:2:1:", "inner.h:1:2: error: #endif without #if"]


def test_warning_directive_is_kept_not_raised(tmp_path: Path) -> None:
    result = run(tmp_path, "#warning careful now\nint x;\n")
    assert [d.headline() for d in result.diagnostics] == [f"{tmp_path}/t.h:1:2: warning: #warning careful now"]


def test_self_including_file_stops_at_the_depth_limit(tmp_path: Path) -> None:
    rendered = errors_of(tmp_path, '#include "t.h"\n')
    assert "t.h:1:1: error: #include nested depth 200 exceeds maximum of 200" in rendered.replace(f"{tmp_path}/", "")


def test_the_token_budget_is_for_each_macro_invoked_not_for_a_line(tmp_path: Path) -> None:
    # 30,000 invocations on one line make 270,000 tokens, 9 each: gcc takes them, and so
    # must pegbind; one invocation whose own expansion passes the budget is still stopped
    calls = "+".join(["F(1,2)"] * 30_000)
    result = run(tmp_path, f"#define F(a, b) ((a) + (b))\nenum {{ E = {calls} }};\n")
    assert not result.diagnostics and len(result.tokens) == 4 + 30_000 * 9 + 29_999 + 2
    lines = ["#define A0 x x x x x x x x x x"]
    lines += [f"#define A{i} " + " ".join([f"A{i - 1}"] * 10) for i in range(1, 9)]
    rendered = errors_of(tmp_path, "\n".join(lines) + "\nint a; A8 int b;\n")
    assert 't.h:10:8: error: expansion of macro "A8" exceeds 200000 tokens' in rendered.replace(f"{tmp_path}/", "")
    # each under the budget, together a hundred million: stopped as one would be, in linear time
    rendered = errors_of(tmp_path, "\n".join(lines[:4]) + "\n" + "A3 " * 10_000 + "\n")
    assert rendered.replace(f"{tmp_path}/", "").startswith(
        "t.h:5:112: error: the macros of this line expand to more than 200000 tokens and 64 for each token "
        "written (pegbind's limit)")


def test_exploding_macro_is_stopped(tmp_path: Path) -> None:
    lines = ["#define A0 x x x x x x x x x x"]
    lines += [f"#define A{i} A{i-1} A{i-1} A{i-1} A{i-1} A{i-1} A{i-1} A{i-1} A{i-1} A{i-1} A{i-1}" for i in range(1, 9)]
    rendered = errors_of(tmp_path, "\n".join(lines) + "\nA8\n")
    assert 't.h:10:1: error: expansion of macro "A8" exceeds 200000 tokens' in rendered.replace(f"{tmp_path}/", "")


def test_a_macro_doubling_twenty_times_is_stopped_at_its_use(tmp_path: Path) -> None:
    # P20(1) would be 2**20 tokens, and more produced on the way
    lines = ["#define P0(x) x", *(f"#define P{i}(x) P{i - 1}(x) P{i - 1}(x)" for i in range(1, 21))]
    rendered = errors_of(tmp_path, "\n".join(lines) + "\nenum { E = P20(1) };\n")
    assert rendered.replace(f"{tmp_path}/", "").splitlines()[0] == (
        't.h:22:12: error: expansion of macro "P20" exceeds 200000 tokens')


def test_deeply_nested_arguments_do_not_overflow(tmp_path: Path) -> None:
    rendered = errors_of(tmp_path, "#define F(x) x\n" + "F(" * 300 + "1" + ")" * 300 + "\n")
    assert "macro arguments nested more than 200 levels deep" in rendered


def test_skipped_groups_are_not_checked(tmp_path: Path) -> None:
    result = run(tmp_path, "#if 0\n#bogus\nchar c = 'x;\n#if garbage ((\n#endif\n#else\nint ok;\n#endif\n")
    assert texts(result.tokens) == ["int", "ok", ";"]


def test_pack_values_gcc_rejects_are_ignored_with_a_warning(tmp_path):
    header = tmp_path / "p.h"
    header.write_text("#pragma pack(push, 3)\nstruct s { char c; int i; };\n#pragma pack(pop)\n")
    result = preprocess([str(header)])
    assert [d.headline() for d in result.diagnostics] == [
        f"{header}:1:1: warning: alignment must be a small power of two, not 3",
        f"{header}:3:1: warning: '#pragma pack (pop)' encountered without matching '#pragma pack (push)'",
    ]
    assert [value for _, value in result.pack_changes] == [None]


@pytest.mark.parametrize(("expression", "value"), [
    ("1 + 2 * 3 - 4 == 3", 1),
    ("2 + 3 << 1 | 1", 11),
    ("1 || 2 / 0", 1),  # the right of || is not used: no division by zero
    ("0 && 1 % 0", 0),
    ("-1 < 0u", 0),  # the usual arithmetic conversions: unsigned
    ("UNDEFINED_NAME + 'a' - 97", 0),  # a name left after expansion is 0
    ("1 + 2 ? 3 * 4 : 5", 12),
    ("(1 + 2) * 3 + 4", 13),
    ("0x10 + 010 + 0b10 + 1u", 27),
    ("0xFFFFFFFFFFFFFFFFu * 2 == 0xFFFFFFFFFFFFFFFEu", 1),  # unsigned arithmetic wraps
    ("-1 + 0u == 0xFFFFFFFFFFFFFFFF", 1),
    ("9223372036854775807 + 1 < 0", 1),  # and signed, as gcc's does
    ("-9223372036854775807 - 2 > 0", 1),
    ("-1 & 0xFFu ^ 3u | 8u", 0xFC),
    ("' ' + 1 + '+' == 76", 1),  # character constants may hold a space or an operator
    ("0u - 1 + 2", 1),  # one level: applied left to right, each step wrapped to its type
    ("0u - 1 - 1", 0xFFFFFFFFFFFFFFFE),
    ("9223372036854775807 + 1 + 1", -9223372036854775807),
    ("1 - 2 * 3 * 0u", 1),
])
def test_if_expressions_of_plain_operands_apply_cs_precedence(expression, value):
    # a run of numbers, characters and names with binary operators is one leaf of cexpr.ppeg,
    # applied by precedence climbing; the cascade of rules gives the same values
    from pegbind.preprocess.cexpr import evaluate
    from pegbind.target import get_target

    assert evaluate(tokenize(expression, "t.h"), target=get_target("linux-x86_64")) == value


def test_an_if_run_written_without_spaces_is_read_alike():
    # evaluate() joins tokens by single spaces; the evaluator takes other spacing too
    from pegbind.preprocess.cexpr import _evaluate_new

    assert _evaluate_new("1+2*3-'+'+A", "linux-x86_64")[0] == 1 + 2 * 3 - ord("+")
    assert _evaluate_new("1 +\t2  * 3", "linux-x86_64")[0] == 7


def test_the_if_run_leaf_gives_what_the_rules_give(monkeypatch):
    # cexpr.ppeg's OPERAND_RUN matches runs whose operands may be groups and have prefix
    # operators; every outcome (value, error and where, warnings) must be what the grammar
    # without the leaf gives, as evaluate() writes the text and written without spaces.
    import random

    from conftest import long_run, parser_without_run_leaf, random_expression

    from pegbind.preprocess import cexpr

    reference = parser_without_run_leaf("cexpr")
    leaf = cexpr.expression_parser()
    seen = {"group": 0, "run": 0}
    visit = cexpr.ExpressionVisitor.visit_operand_runs

    def counted(self, node, children):
        seen["run"] += 1
        seen["group"] += "(" in node.text
        return visit(self, node, children)
    monkeypatch.setattr(cexpr.ExpressionVisitor, "visit_operand_runs", counted)
    rng = random.Random(23)
    leaves = ["1", "0", "7u", "0x10", "9223372036854775807", "0xFFFFFFFFFFFFFFFF", "'a'", "' '", "'+'", "NAME", "1.5",
              "08", "1x", "2"]
    texts = [random_expression(rng, leaves, []) for _ in range(1500)]
    # runs longer than one match of the leaf takes, a bad operand in some
    texts += [long_run(rng, leaves[:4] + leaves[6:10]) for _ in range(3)] + [long_run(rng, leaves) for _ in range(3)]
    for spaced in texts:
        for text in (spaced, spaced.replace(" ", "") if "' '" not in spaced else spaced):
            outcomes = []
            for which in (leaf, reference):
                monkeypatch.setattr(cexpr, "expression_parser", lambda which=which: which)
                outcomes.append(cexpr._evaluate_new(text, "linux-x86_64"))
            assert outcomes[0] == outcomes[1], text
    assert seen["run"] > 1000 and seen["group"] > 300, seen


def test_the_if_run_says_where_a_bad_operand_is():
    from pegbind.preprocess.cexpr import ExpressionError, evaluate
    from pegbind.target import get_target

    with pytest.raises(ExpressionError) as raised:
        evaluate(tokenize("1 + 2 + 1.5 + 3", "t.h"), target=get_target("linux-x86_64"))
    assert raised.value.message == "floating constant in preprocessor expression"
    assert (raised.value.token.text, raised.value.token.coord.col) == ("1.5", 9)
    with pytest.raises(ExpressionError, match="division by zero in #if"):
        evaluate(tokenize("1 + 2 / 0", "t.h"), target=get_target("linux-x86_64"))
    with pytest.raises(ExpressionError, match="division by zero in #if"):
        evaluate(tokenize("6 / 0 * 2", "t.h"), target=get_target("linux-x86_64"))
