"""The compiled parsers give parsimonious's own trees and errors, text for text.

Every text the front end parses while reading real headers (declarations,
``#if`` expressions, directives) is parsed again by parsimonious's grammar,
and so is each of those declarations cut short and with a token left out,
whose errors the walker turns into diagnostics: the same expression objects,
positions and children, or the same error at the same place naming the same
expression.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import regex
from conftest import EXAMPLES
from parsimonious.exceptions import IncompleteParseError, ParseError
from parsimonious.expressions import Regex
from parsimonious.grammar import Grammar
from parsimonious.nodes import Node

from pegbind import pegcode
from pegbind.cli import main
from pegbind.parse import walker
from pegbind.peg import parser
from pegbind.preprocess import cexpr, directives

HEADERS = [Path("/usr/include/zlib.h"), Path("/usr/include/sqlite3.h"), Path("/usr/include/nss/pkcs11t.h"),
           EXAMPLES / "demo" / "vecmath.h"]
INCLUDES = ["-I", "/usr/include/nss", "-I", "/usr/include/nspr"]


def _same_tree(ours: Node, theirs: Node) -> bool:
    if (ours.expr is not theirs.expr or (ours.start, ours.end) != (theirs.start, theirs.end)
            or ours.full_text != theirs.full_text or len(ours.children) != len(theirs.children)
            or type(ours) is not type(theirs)):
        return False
    if hasattr(theirs, "match") and ours.match.group() != theirs.match.group():
        return False
    return all(_same_tree(a, b) for a, b in zip(ours.children, theirs.children, strict=True))


def _outcome(parse: Any) -> tuple[Any, ...]:
    try:
        return ("tree", parse())
    except IncompleteParseError as error:  # before ParseError, its base
        return ("incomplete", error.pos, error.expr)
    except ParseError as error:
        return ("error", error.pos, error.expr)


def _agree(compiled: pegcode.Parser, rule: str | None, text: str) -> None:
    expression = compiled.grammar[rule] if rule is not None else compiled.grammar.default_rule
    ours = _outcome(lambda: compiled.parse(text, rule))
    theirs = _outcome(lambda: expression.parse(text))
    assert ours[0] == theirs[0], (rule, text)
    if ours[0] == "tree":
        assert _same_tree(ours[1], theirs[1]), (rule, text)
    else:
        assert ours[1:] == theirs[1:], (rule, text)
        assert ours[2] is theirs[2]


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[pegcode.Parser, str | None, str]]:
    """Each (parser, rule, text) the front end parsed while reading the headers."""
    seen: list[tuple[pegcode.Parser, str | None, str]] = []
    original = pegcode.Parser.parse

    def recording(self: pegcode.Parser, text: str, rule: str | None = None) -> Node:
        seen.append((self, rule, text))
        return original(self, text, rule)

    for kept in (walker._TREES, walker._WALKS, directives._SHAPES, cexpr._RESULTS):
        kept.clear()  # what earlier tests in this process parsed is parsed again
    pegcode.Parser.parse = recording  # type: ignore[method-assign]
    try:
        for header in HEADERS:
            out = tmp_path_factory.mktemp("out")
            assert main(["dump", str(header), *INCLUDES, "-q", "-o", str(out / "model.json")]) == 0
    finally:
        pegcode.Parser.parse = original  # type: ignore[method-assign]
    return list(dict.fromkeys(seen))


def test_the_front_end_parses_real_headers_through_the_compiled_parsers(parsed) -> None:
    grammars = {id(compiled.grammar) for compiled, _, _ in parsed}
    assert len(grammars) == 3  # declarations, #if expressions, directives
    assert len(parsed) > 800


def test_every_text_read_gives_parsimonious_s_tree(parsed) -> None:
    for compiled, rule, text in parsed:
        _agree(compiled, rule, text)


def test_broken_declarations_give_parsimonious_s_errors(parsed) -> None:
    rng = random.Random(7)
    declarations = parser("declarations")
    texts = [text for compiled, _, text in parsed if compiled is declarations]
    for text in rng.sample(texts, min(300, len(texts))):
        words = text.split(" ")
        for cut in sorted({rng.randrange(len(words) + 1) for _ in range(3)}):
            _agree(declarations, "declaration", " ".join(words[:cut]))
            _agree(declarations, "declaration", " ".join(words[:cut] + words[cut + 1:]))


def test_other_rules_and_hand_written_errors() -> None:
    declarations, expressions = parser("declarations"), parser("cexpr")
    for text in ["1 + 2 ", "( int ) x ", "sizeof ( struct ID ) * 2 ", "ID ? 1 : ", "1 + + ", ""]:
        _agree(declarations, "macro_expression", text)
        _agree(declarations, "constant_expression", text)
    for text in ["1 +", "(1", "1 ? 2", "defined", "1 2", "((((((((1))))))))", "'a' == 97"]:
        _agree(expressions, None, text)
    _agree(parser("directives"), "pack_pragma", " pack(push, 4)")
    _agree(parser("directives"), "pack_pragma", " pack(push, 4")


def test_regex_leaves_run_on_re_where_they_mean_the_same() -> None:
    leaves = [e for e in pegcode.expressions(parser("declarations").grammar) if type(e) is Regex]
    assert leaves and all(pegcode._matcher(leaf).__self__.__class__.__module__ == "re" for leaf in leaves)
    fancy = Regex(r"\p{Lu}+")  # a pattern only regex reads stays with it
    assert pegcode._matcher(fancy).__self__.__class__.__module__ == regex.Pattern.__module__


def test_quantifiers_and_lookaheads_of_any_grammar() -> None:
    rules = Grammar(r'''
        start = (word / blank)* tail
        word = !"stop" ~"[a-z]*" ","?
        blank = " "+
        tail = "stop" "!"{2,3} &end
        end = ~"$"
    ''')
    compiled = pegcode.Parser(rules, compile(pegcode.source(rules), "<test>", "exec"))
    for text in ["ab, cd stop!!", "stop!!!", "x stop!", "stop!!!!", "a,,b stop!!", "", "ab  ,"]:
        _agree(compiled, None, text)
        _agree(compiled, "word", text)
