"""Tokenizer tests: the token set of tokens.ppeg, exact coordinates, line splices."""
from __future__ import annotations

from pathlib import Path

import pytest

from pegbind.preprocess import tokenize
from pegbind.peg import grammar
from pegbind.preprocess.lexer import is_unterminated, lex


def kinds_and_texts(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(text, "t.h")]


def test_token_kinds_and_punctuators_longest_first() -> None:
    assert kinds_and_texts("a->b >>= c ... %:%: .5e+3 0x1fULL 1.2.3e- u8\"s\" L'c' @") == [
        ("identifier", "a"), ("punct", "->"), ("identifier", "b"), ("punct", ">>="),
        ("identifier", "c"), ("punct", "..."), ("punct", "%:%:"), ("number", ".5e+3"),
        ("number", "0x1fULL"), ("number", "1.2.3e-"), ("string", 'u8"s"'), ("char", "L'c'"),
        ("other", "@"),
    ]


def test_comments_are_dropped_and_count_as_space() -> None:
    tokens = tokenize("a/* x */b // tail\nc", "t.h")
    assert [(t.text, t.space_before) for t in tokens] == [("a", False), ("b", True), ("c", True)]


def test_coordinates_are_exact_and_one_based() -> None:
    tokens = tokenize("int\n  x = 'a';\n\t\"s\"", "f.h")
    assert [(t.text, t.coord.line, t.coord.col) for t in tokens] == [
        ("int", 1, 1), ("x", 2, 3), ("=", 2, 5), ("'a'", 2, 7), (";", 2, 10), ('"s"', 3, 2),
    ]
    assert all(t.coord.file == "f.h" for t in tokens)


def test_line_splices_join_lines_but_keep_physical_coordinates() -> None:
    lexed = lex("#define A \\\n  1 + \\\n  2\nx", "s.h")
    assert [[t.text for t in line] for line in lexed.lines] == [["#", "define", "A", "1", "+", "2"], ["x"]]
    assert [(t.text, t.coord.line, t.coord.col) for t in lexed.lines[0][3:]] == [("1", 2, 3), ("+", 2, 5), ("2", 3, 3)]
    # A splice inside an identifier makes one token.
    assert kinds_and_texts("ab\\\ncd") == [("identifier", "abcd")]


def test_multiline_comment_does_not_end_a_logical_line() -> None:
    lexed = lex("#define A 1 /* one\n two */ + 2\nB", "c.h")
    assert [[t.text for t in line] for line in lexed.lines] == [["#", "define", "A", "1", "+", "2"], ["B"]]
    assert lexed.comments[0].trailing and lexed.comments[0].end_line == 2


def test_unterminated_comment_and_literal() -> None:
    lexed = lex("a /* open\nb", "u.h")
    assert [d.headline() for d in lexed.problems] == ["u.h:1:3: error: unterminated comment"]
    tokens = tokenize("x = 'oops\ny", "u.h")
    assert [t.text for t in tokens] == ["x", "=", "'oops", "y"]
    assert is_unterminated(tokens[2]) and not is_unterminated(tokens[0])


@pytest.mark.parametrize("path", ["/usr/include/zlib.h", "/usr/include/nss/pkcs11t.h"])
def test_fast_lexer_agrees_with_parsimonious_on_the_grammar(path: str) -> None:
    """The combined regex and a real parsimonious parse of tokens.ppeg give the same tokens."""
    if not Path(path).exists():
        pytest.skip(f"{path} not installed")
    text = Path(path).read_text()[:20000].replace("\\\n", "")
    tree = grammar("tokens").parse(text)
    expected = []
    for item in tree.children:  # (_ / pp_token)
        branch = item.children[0]
        if branch.expr_name == "pp_token":
            expected.append(branch.text)
    assert [t.text for t in tokenize(text, path)] == expected
