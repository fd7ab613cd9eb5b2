"""Regular expressions kept on disk between runs: the same patterns ``re.compile`` makes, never a failure."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pegbind import patterns, peg
from pegbind.pegcode import Regex
from pegbind.preprocess.lexer import _compiled_lexer

#: patterns of the kinds pegbind compiles: named groups, flags, lookarounds, classes outside ASCII
SAMPLES = [
    (r"(?P<NEWLINE>\n)|(?P<SPACE>[ \t\f\v\r]+)|(?P<OTHER>[^\s])", 0),
    (r"/\*.*", re.DOTALL),
    (r"(?<!\S)[-*&+!~](?: [-*&+!~])+(?!\S)", 0),
    (r"(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)\Z", 0),
    ("[\udc80-\udcff]", 0),
    (r"^\s*#\s*define\b", re.MULTILINE | re.IGNORECASE),
]


def forget() -> None:
    """What this process compiled or read, forgotten: the next call reads the file again."""
    patterns._compiled.clear()
    patterns._kept = None


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    forget()
    yield tmp_path / "cache"
    forget()


def same(made: re.Pattern[str], pattern: str, flags: int) -> None:
    expected = re.compile(pattern, flags)
    assert made == expected  # the pattern, its flags and the engine's code
    assert (made.flags, made.groups, made.groupindex) == (expected.flags, expected.groups, expected.groupindex)


def stored(cache: Path) -> Path:
    (file,) = cache.glob("patterns-*.marshal")
    return file


def test_a_kept_pattern_is_the_pattern_re_compiles(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for pattern, flags in SAMPLES:
        same(patterns.compiled(pattern, flags), pattern, flags)
    assert [p.name for p in cache.iterdir()] == [stored(cache).name]  # no temporary file left behind
    forget()

    def compiled_again(*args: object) -> None:
        raise AssertionError("compiled again, not read")
    with monkeypatch.context() as patched:
        patched.setattr(patterns, "_code", compiled_again)
        patched.setattr(patterns.re, "compile", compiled_again)
        made = [patterns.compiled(pattern, flags) for pattern, flags in SAMPLES]
    for kept, (pattern, flags) in zip(made, SAMPLES, strict=True):
        same(kept, pattern, flags)


def test_every_leaf_of_the_grammars_and_the_lexer_match_as_compiled_by_re(cache: Path) -> None:
    for name in ("tokens", "directives", "cexpr", "declarations"):
        for expression in peg.parser(name).expressions:
            if isinstance(expression, Regex) and expression.engine == "re":
                forget()  # once written, then read back
                patterns.compiled(expression.pattern, expression.flags)
                forget()
                same(patterns.compiled(expression.pattern, expression.flags), expression.pattern, expression.flags)
    lexer = _compiled_lexer()
    same(lexer, lexer.pattern, 0)
    assert lexer.match("/* x */").lastgroup == "BLOCK_COMMENT"


def test_a_second_process_compiles_nothing(cache: Path) -> None:
    probe = ("import re._compiler, sys; from pegbind.cli import main; "
             "calls = []; real = re._compiler.compile; "
             "re._compiler.compile = lambda *a: calls.append(a[0]) or real(*a); "
             "code = main(['dump', sys.argv[1], '-q']); "
             "print(code, sum(isinstance(p, str) and 'typedef' in p for p in calls))")
    header = cache.parent / "t.h"
    header.write_text("#if 1 + 1\ntypedef unsigned long T;\n#define N (1 << 4)\nint f(T t);\n#endif\n")
    runs = [subprocess.run([sys.executable, "-c", probe, str(header)], capture_output=True, text=True, check=True,
                           env={**os.environ, "PEGBIND_CACHE_DIR": str(cache)}).stdout.splitlines()[-1]
            for _ in range(2)]
    assert runs[0] != "0 0"  # the first compiled the declarations' leaves, which name typedef
    assert runs[1] == "0 0"


@pytest.mark.parametrize("damage", [b"\xe3not marshal", b""])
def test_a_damaged_file_is_compiled_again_and_replaced(cache: Path, damage: bytes) -> None:
    pattern, flags = SAMPLES[0]
    patterns.compiled(pattern, flags)
    stored(cache).write_bytes(damage)
    forget()
    same(patterns.compiled(pattern, flags), pattern, flags)
    forget()
    assert (pattern, flags) in patterns._read(str(stored(cache)))


def test_code_the_engine_refuses_is_compiled_again(cache: Path) -> None:
    pattern, flags = SAMPLES[2]
    patterns.compiled(pattern, flags)
    forget()
    patterns._kept = patterns._read(str(stored(cache)))
    kept_flags, _, groups, groupindex, indexgroup = patterns._kept[pattern, flags]
    patterns._kept[pattern, flags] = (kept_flags, b"\xff" * 16, groups, groupindex, indexgroup)
    same(patterns.compiled(pattern, flags), pattern, flags)


def test_an_engine_that_takes_its_code_otherwise_keeps_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuses(*args: object) -> None:
        raise TypeError("compile() takes other arguments")
    monkeypatch.setattr(patterns, "_engine", refuses)
    for pattern, flags in SAMPLES:
        same(patterns.compiled(pattern, flags), pattern, flags)
    assert not list(cache.glob("patterns-*.marshal"))


def test_without_a_cache_folder_patterns_are_compiled_as_re_does(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBIND_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget()
    try:
        for pattern, flags in SAMPLES:
            same(patterns.compiled(pattern, flags), pattern, flags)
    finally:
        forget()
    assert list(tmp_path.iterdir()) == []
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(blocker / "cache"))  # cannot be made
    try:
        pattern, flags = SAMPLES[1]
        same(patterns.compiled(pattern, flags), pattern, flags)
    finally:
        forget()


def test_the_file_is_named_by_the_python_that_compiled_it(cache: Path) -> None:
    patterns.compiled(*SAMPLES[0])
    name = stored(cache).name
    assert sys.implementation.cache_tag in name
    assert sys.version.split()[0].replace(".", "-") in name
