"""The compiled parsers give parsimonious's own trees and errors, text for text.

Every text the front end parses while reading real headers (declarations,
``#if`` expressions, directives) is parsed again by parsimonious's grammar,
and so is each of those declarations cut short and with a token left out,
whose errors the walker turns into diagnostics: the same expressions (by
their place in the grammar), positions and children, or the same error at the
same place naming the same expression.
"""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import regex
from conftest import EXAMPLES
from parsimonious.exceptions import IncompleteParseError, ParseError
from parsimonious.grammar import Grammar
from parsimonious.nodes import Node

from pegbind import pegcode
from pegbind.cli import main
from pegbind.parse import walker
from pegbind.peg import grammar, parser
from pegbind.preprocess import cexpr, directives

HEADERS = [Path("/usr/include/zlib.h"), Path("/usr/include/sqlite3.h"), Path("/usr/include/nss/pkcs11t.h"),
           EXAMPLES / "demo" / "vecmath.h"]
INCLUDES = ["-I", "/usr/include/nss", "-I", "/usr/include/nspr"]


def _indexes(compiled: pegcode.Parser, rules: Grammar) -> tuple[dict[int, int], dict[int, int]]:
    """Each expression's place in :func:`pegcode.expressions`, ours and parsimonious's."""
    return ({id(e): i for i, e in enumerate(compiled.expressions)},
            {id(e): i for i, e in enumerate(pegcode.expressions(rules))})


def _same_tree(ours: pegcode.Node, theirs: Node, places: tuple[dict[int, int], dict[int, int]]) -> bool:
    if (places[0][id(ours.expr)] != places[1][id(theirs.expr)] or (ours.start, ours.end) != (theirs.start, theirs.end)
            or ours.full_text != theirs.full_text or len(ours.children) != len(theirs.children)
            or type(ours).__name__ != type(theirs).__name__):
        return False
    if hasattr(theirs, "match") and ours.match.group() != theirs.match.group():  # type: ignore[attr-defined]
        return False
    return all(_same_tree(a, b, places) for a, b in zip(ours.children, theirs.children, strict=True))


def _outcome(parse: Any, incomplete: type, error: type) -> tuple[Any, ...]:
    try:
        return ("tree", parse())
    except incomplete as failure:  # before the error, its base
        return ("incomplete", failure.pos, failure.expr)
    except error as failure:
        return ("error", failure.pos, failure.expr)


def _agree(compiled: pegcode.Parser, rules: Grammar, rule: str | None, text: str) -> None:
    expression = rules[rule] if rule is not None else rules.default_rule
    places = _indexes(compiled, rules)
    ours = _outcome(lambda: compiled.parse(text, rule), pegcode.IncompleteParseError, pegcode.ParseError)
    theirs = _outcome(lambda: expression.parse(text), IncompleteParseError, ParseError)
    assert ours[0] == theirs[0], (rule, text)
    if ours[0] == "tree":
        assert _same_tree(ours[1], theirs[1], places), (rule, text)
    else:
        assert ours[1] == theirs[1], (rule, text)
        assert places[0][id(ours[2])] == places[1][id(theirs[2])], (rule, text)


def _grammar_of(compiled: pegcode.Parser) -> Grammar:
    (name,) = [name for name in ("tokens", "directives", "cexpr", "declarations") if parser(name) is compiled]
    return grammar(name)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[pegcode.Parser, str | None, str]]:
    """Each (parser, rule, text) the front end parsed while reading the headers."""
    seen: list[tuple[pegcode.Parser, str | None, str]] = []
    original = pegcode.Parser.parse

    def recording(self: pegcode.Parser, text: str, rule: str | None = None) -> pegcode.Node:
        seen.append((self, rule, text))
        return original(self, text, rule)

    walker.forget_shapes()  # what earlier tests in this process parsed is parsed again
    for kept in (directives._SHAPES, cexpr._RESULTS):
        kept.clear()
    pegcode.Parser.parse = recording  # type: ignore[method-assign]
    # every directive line through the grammar, the #defines and #includes read by hand too
    quick = directives._definition, directives._inclusion
    directives._definition = directives._inclusion = lambda tokens: None  # type: ignore[assignment]
    try:
        for header in HEADERS:
            out = tmp_path_factory.mktemp("out")
            assert main(["dump", str(header), *INCLUDES, "-q", "-o", str(out / "model.json")]) == 0
    finally:
        pegcode.Parser.parse = original  # type: ignore[method-assign]
        directives._definition, directives._inclusion = quick
    return list(dict.fromkeys(seen))


def test_the_front_end_parses_real_headers_through_the_compiled_parsers(parsed) -> None:
    grammars = {id(compiled) for compiled, _, _ in parsed}
    assert len(grammars) == 3  # declarations, #if expressions, directives
    # distinct texts: literals, like names, do not make new ones, and parameters parsed
    # apart share their shapes (over 700 before that)
    assert len(parsed) > 600


def test_every_text_read_gives_parsimonious_s_tree(parsed) -> None:
    for compiled, rule, text in parsed:
        _agree(compiled, _grammar_of(compiled), rule, text)


def test_broken_declarations_give_parsimonious_s_errors(parsed) -> None:
    rng = random.Random(7)
    declarations = parser("declarations")
    texts = [text for compiled, _, text in parsed if compiled is declarations]
    for text in rng.sample(texts, min(300, len(texts))):
        words = text.split(" ")
        for cut in sorted({rng.randrange(len(words) + 1) for _ in range(3)}):
            _agree(declarations, grammar("declarations"), "declaration", " ".join(words[:cut]))
            _agree(declarations, grammar("declarations"), "declaration", " ".join(words[:cut] + words[cut + 1:]))


def test_other_rules_and_hand_written_errors() -> None:
    declarations, expressions = parser("declarations"), parser("cexpr")
    for text in ["1 + 2 ", "( int ) x ", "sizeof ( struct ID ) * 2 ", "ID ? 1 : ", "1 + + ", ""]:
        _agree(declarations, grammar("declarations"), "macro_expression", text)
        _agree(declarations, grammar("declarations"), "constant_expression", text)
    for text in ["1 +", "(1", "1 ? 2", "defined", "1 2", "((((((((1))))))))", "'a' == 97"]:
        _agree(expressions, grammar("cexpr"), None, text)
    _agree(parser("directives"), grammar("directives"), "pack_pragma", " pack(push, 4)")
    _agree(parser("directives"), grammar("directives"), "pack_pragma", " pack(push, 4")


def test_regex_leaves_run_on_re_where_they_mean_the_same() -> None:
    leaves = [e for e in parser("declarations").expressions if type(e) is pegcode.Regex]
    assert leaves and all(type(leaf.re) is re.Pattern for leaf in leaves)
    fancy = Grammar(r'word = ~"\\p{Lu}+"')  # a pattern only regex reads stays with it
    compiled = pegcode.Parser(compile(pegcode.source(fancy), "<test>", "exec"))
    assert type(compiled["word"].re) is regex.Pattern
    _agree(compiled, fancy, None, "ÉTÉ")


def test_quantifiers_and_lookaheads_of_any_grammar() -> None:
    rules = Grammar(r'''
        start = (word / blank)* tail
        word = !"stop" ~"[a-z]*" ","?
        blank = " "+
        tail = "stop" "!"{2,3} &end
        end = ~"$"
    ''')
    compiled = pegcode.Parser(compile(pegcode.source(rules), "<test>", "exec"))
    for text in ["ab, cd stop!!", "stop!!!", "x stop!", "stop!!!!", "a,,b stop!!", "", "ab  ,"]:
        _agree(compiled, rules, None, text)
        _agree(compiled, rules, "word", text)
