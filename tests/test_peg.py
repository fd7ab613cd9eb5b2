"""Compiled grammars and their parsers kept on disk between runs: same trees as a fresh compile, never a failure."""
from __future__ import annotations

import marshal
import pickle
from pathlib import Path
from types import CodeType

import pytest
from parsimonious.grammar import Grammar

from pegbind import peg
from pegbind.resources import read_grammar

SAMPLE = "typedef unsigned long ID ; "


def forget() -> None:
    """The grammars and parsers this process compiled or loaded, forgotten."""
    peg._compiled.cache_clear()
    peg.parser.cache_clear()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    forget()
    yield tmp_path / "cache"
    forget()  # later tests load the grammars from the user's cache again


def test_a_cached_grammar_parses_like_a_fresh_compile(cache: Path) -> None:
    first = peg.grammar("declarations")
    (stored,) = cache.glob("declarations-*.grammar.pickle")
    forget()
    loaded = peg.grammar("declarations")
    assert loaded is not first  # it came from the file
    fresh = Grammar(read_grammar("declarations"))
    assert str(loaded["declaration"].parse(SAMPLE)) == str(fresh["declaration"].parse(SAMPLE))
    assert str(peg.parser("declarations").parse(SAMPLE)) == str(fresh["declaration"].parse(SAMPLE))
    assert sorted(loaded) == sorted(fresh)
    assert [p.name for p in cache.iterdir()] == [stored.name]  # no temporary file left behind


def test_a_damaged_cache_file_is_compiled_again_and_replaced(cache: Path) -> None:
    peg.grammar("cexpr")
    (stored,) = cache.glob("cexpr-*.grammar.pickle")
    stored.write_bytes(b"\x80\x05not a pickle")
    forget()
    assert peg.parser("cexpr").parse("1 + 2", "expression")
    rules, code = pickle.loads(stored.read_bytes())
    assert isinstance(rules, Grammar) and isinstance(marshal.loads(code), CodeType)


def test_a_cache_that_cannot_be_written_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(blocker / "cache"))
    forget()
    try:
        assert peg.grammar("tokens") is not None
    finally:
        forget()


def test_an_empty_cache_dir_turns_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBIND_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert peg.cache_dir() is None
    forget()
    try:
        assert peg.parser("directives") is not None
    finally:
        forget()
    assert list(tmp_path.iterdir()) == []


def test_the_cache_follows_xdg_and_the_grammar_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEGBIND_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert peg.cache_dir() == tmp_path / "pegbind"
    # an edited grammar is compiled afresh, never read from the old file
    assert peg._cache_file("tokens", "a = 'x'") != peg._cache_file("tokens", "a = 'y'")


def test_grammar_words_never_include_the_placeholder() -> None:
    for name in ("tokens", "directives", "cexpr", "declarations"):
        assert peg.PLACEHOLDER not in peg.grammar_words(name)
    assert {"typedef", "aligned", "__attribute__"} <= peg.grammar_words("declarations")
    assert peg.shape_of("CK_ULONG", peg.grammar_words("declarations")) == peg.PLACEHOLDER
    assert peg.shape_of("aligned", peg.grammar_words("declarations")) == "aligned"
    assert peg.shape_of("élan", peg.grammar_words("declarations")) == "élan"


def test_a_text_cache_is_bounded_by_its_texts_length_and_keeps_the_latest():
    from pegbind.peg import TextCache

    cache = TextCache(entries=3, chars=80)
    for name in "abcd":
        cache.put(name, 10, name.upper())
    assert len(cache) == 3 and "a" not in cache and cache.get("b") == "B"  # "b" is now the latest used
    cache.put("e", 10, "E")
    assert [key for key in "abcde" if key in cache] == ["b", "d", "e"]
    cache.put("huge", 11, "H")  # over an eighth of the bound: never kept
    assert "huge" not in cache and cache.chars == 30
    cache.put("f", 10, "F")
    cache.put("g", 10, "G")
    assert len(cache) == 3 and cache.chars == 30
    many = TextCache(entries=100, chars=40)
    for name in "pqrstu":
        many.put(name, 5, name)
    many.put("v", 5, "v")
    many.put("w", 5, "w")
    many.put("x", 5, "x")
    assert many.chars <= 40 and "p" not in many and "x" in many
    many.pop("x")
    assert "x" not in many and many.get("x", "gone") == "gone"
    many.clear()
    assert len(many) == 0 and many.chars == 0
