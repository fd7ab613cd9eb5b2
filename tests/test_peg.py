"""Compiled grammars and their parsers kept on disk between runs: same trees as a fresh compile, never a failure."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path
from types import CodeType

import pytest
from parsimonious.grammar import Grammar

from pegbind import peg, pegcode
from pegbind.resources import read_grammar

SAMPLE = "typedef unsigned long ID ; "


def forget() -> None:
    """The grammars and parsers this process compiled or loaded, forgotten."""
    peg.grammar.cache_clear()
    peg.parser.cache_clear()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    forget()
    yield tmp_path / "cache"
    forget()  # later tests load the grammars from the user's cache again


def test_a_kept_parser_parses_like_a_fresh_compile(cache: Path) -> None:
    first = peg.parser("declarations")
    (stored,) = cache.glob("declarations-*.parser.marshal")
    forget()
    loaded = peg.parser("declarations")
    assert loaded is not first  # it came from the file
    fresh = Grammar(read_grammar("declarations"))
    assert str(loaded.parse(SAMPLE, "declaration").text) == fresh["declaration"].parse(SAMPLE).text
    assert [e.name for e in loaded.expressions] == [e.name for e in pegcode.expressions(fresh)]
    # nothing left behind (but the time the folder was last tidied)
    assert [p.name for p in cache.iterdir() if not p.name.startswith(("patterns-", ".tidied"))] == [stored.name]


def test_a_run_that_finds_its_parsers_kept_imports_no_parsimonious(cache: Path, tmp_path: Path) -> None:
    header = tmp_path / "t.h"
    header.write_text("#if 1 + 1\ntypedef unsigned long T;\n#define N (1 << 4)\nint f(T t);\n#endif\n")
    probe = ("import sys; from pegbind.cli import main; "
             f"code = main(['dump', {str(header)!r}, '-q']); "
             "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('parsimonious', 'regex')))")
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                           env={**os.environ, "PEGBIND_CACHE_DIR": str(cache)}).stdout.splitlines()[-1]
            for _ in range(2)]
    assert runs[0].startswith("0 ['parsimonious'")  # the first compiled the grammars
    assert runs[1] == "0 []"


def test_a_damaged_cache_file_is_compiled_again_and_replaced(cache: Path) -> None:
    peg.parser("cexpr")
    (stored,) = cache.glob("cexpr-*.parser.marshal")
    stored.write_bytes(b"\xe3not marshal")
    forget()
    assert peg.parser("cexpr").parse("1 + 2", "expression")
    assert isinstance(marshal.loads(stored.read_bytes()), CodeType)


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


def test_the_cache_follows_xdg_the_grammar_text_and_the_code_writing_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PEGBIND_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert peg.cache_dir() == tmp_path / "pegbind"
    # an edited grammar is compiled afresh, never read from the old file
    before = peg._cache_file("tokens", "a = 'x'")
    assert before != peg._cache_file("tokens", "a = 'y'")
    # and so is a grammar whose parser pegbind now writes differently
    edited = tmp_path / "pegcode.py"
    edited.write_text(Path(pegcode.__file__).read_text() + "\n# changed\n")
    monkeypatch.setattr(pegcode, "__file__", str(edited))
    peg._compiler_stamp.cache_clear()  # a new process
    try:
        assert peg._cache_file("tokens", "a = 'x'") != before
    finally:
        monkeypatch.undo()
        peg._compiler_stamp.cache_clear()


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


def test_a_writer_that_cannot_be_read_as_a_file_is_stamped_by_the_version(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(pegcode, "__file__", str(tmp_path / "pegbind.zip" / "pegbind" / "pegcode.py"))
    peg._compiler_stamp.cache_clear()  # a new process
    try:
        assert peg._cache_file("tokens", "a = 'x'") is not None
    finally:
        monkeypatch.undo()
        peg._compiler_stamp.cache_clear()
