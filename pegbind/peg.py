"""The ``grammars/*.ppeg`` files as parsimonious grammars and parsers, compiled once and kept on disk.

In: a grammar's name.  Out: its :class:`parsimonious.grammar.Grammar`, and
the :class:`pegbind.pegcode.Parser` that parses with it.

Compiling a ``.ppeg`` file means parsing it with parsimonious's own rule
grammar, and then writing and compiling the grammar's Python matchers
(:mod:`pegbind.pegcode`), which costs more than reading a small header does.
As Python keeps bytecode in ``__pycache__``, the grammar and its matchers'
bytecode are pickled in pegbind's cache folder (``$PEGBIND_CACHE_DIR``, else
``$XDG_CACHE_HOME/pegbind``, else ``~/.cache/pegbind``; an empty
``PEGBIND_CACHE_DIR`` turns the cache off).  The file name is a hash of the
grammar text, the Python version, the installed parsimonious and the code
that writes the matchers, so editing a grammar or upgrading parsimonious
compiles afresh.  Only grammars are kept: no header's parse survives a run.
A cache that cannot be read or written is passed over, never an error.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import pickle
import re
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from types import CodeType
from typing import TypeVar

import parsimonious.expressions
import parsimonious.grammar
from parsimonious.grammar import Grammar

from . import pegcode
from .pegcode import Parser
from .regen import cache_dir
from .resources import read_grammar

__all__ = ["grammar", "grammar_words", "parser", "Parser", "PLACEHOLDER", "TextCache", "cache_dir"]

#: what stands for an identifier that a grammar never names (see :func:`grammar_words`)
PLACEHOLDER = "ID"


def _parsimonious_stamp() -> str:
    # parsimonious has no __version__; the size and mtime of the modules that define
    # the pickled classes change with any reinstall of another version.  The matchers'
    # writer is pegbind's own: its text.
    stamps = []
    for module in (parsimonious.grammar, parsimonious.expressions):
        stat = os.stat(module.__file__ or "")
        stamps.append(f"{stat.st_size}:{stat.st_mtime_ns}")
    stamps.append(hashlib.sha256(Path(pegcode.__file__ or "").read_bytes()).hexdigest())
    return ",".join(stamps)


def _cache_file(name: str, text: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(
        "\0".join((text, sys.version, _parsimonious_stamp(), str(pickle.HIGHEST_PROTOCOL))).encode()
    ).hexdigest()[:24]
    return folder / f"{name}-{key}.grammar.pickle"


def _load(path: Path) -> tuple[Grammar, CodeType] | None:
    try:
        with open(path, "rb") as stream:
            compiled, code = pickle.load(stream)
        if isinstance(compiled, Grammar) and isinstance(code, bytes):
            return compiled, marshal.loads(code)
    except FileNotFoundError:
        return None
    except Exception:  # a truncated or foreign file: compile again and overwrite it
        return None
    return None


def _store(path: Path, compiled: tuple[Grammar, CodeType]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    except OSError:
        return  # a read-only or missing home: run without the cache
    try:
        with os.fdopen(descriptor, "wb") as stream:
            pickle.dump((compiled[0], marshal.dumps(compiled[1])), stream, protocol=pickle.HIGHEST_PROTOCOL)
        # Atomic: parallel processes (pytest -n, make -j) never see half a file.
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


@functools.cache
def _compiled(name: str) -> tuple[Grammar, CodeType]:
    """``grammars/<name>.ppeg`` and its matchers compiled, from the cache when it holds this exact text."""
    text = read_grammar(name)
    path = _cache_file(name, text)
    if path is not None:
        cached = _load(path)
        if cached is not None:
            return cached
    rules = Grammar(text)
    compiled = rules, compile(pegcode.source(rules), f"<{name}.ppeg matchers>", "exec")
    if path is not None:
        _store(path, compiled)
    return compiled


def grammar(name: str) -> Grammar:
    """``grammars/<name>.ppeg`` as a parsimonious grammar."""
    return _compiled(name)[0]


@functools.cache
def parser(name: str) -> Parser:
    """``grammars/<name>.ppeg``'s parser: parsimonious's trees and errors, from compiled matchers."""
    return Parser(*_compiled(name))


@functools.cache
def grammar_words(name: str) -> frozenset[str]:
    """Every identifier-like word written in ``grammars/<name>.ppeg``.

    Those are the only identifiers the grammar can tell apart (keywords,
    ``aligned``, ``pack``, ...); it reads any other one through a generic
    identifier leaf.  So text with each other identifier written as
    :data:`PLACEHOLDER` parses to the same tree, and text of the same shape
    can share one parse.
    """
    words = frozenset(re.findall(r"[A-Za-z_$][\w$]*", read_grammar(name)))
    assert PLACEHOLDER not in words, f"{name}.ppeg names the placeholder {PLACEHOLDER!r}"
    return words


_IDENTIFIER_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")


def shape_of(text: str, words: frozenset[str]) -> str:
    """``text`` (an identifier token's spelling) as the grammar sees it: itself or the placeholder.

    An identifier starting with any other character keeps its spelling, so
    that what a grammar's identifier leaf accepts is unchanged.
    """
    return text if text in words or text[0] not in _IDENTIFIER_START else PLACEHOLDER


# ---- nesting: parsimonious recurses as deep as the text nests -------------------------------

#: The most parentheses one expression may nest (C11 5.2.4.1 asks for 63; gcc takes
#: thousands).  Deeper input gets a located diagnostic naming this limit, never a
#: RecursionError: the grammars recurse once per level, through every precedence rule.
MAX_NESTING = 256
#: Python frames the deepest parse within :data:`MAX_NESTING` may take, with room to spare
_FRAMES = 40_000


#: tokens that, one after another, each open a level of the grammar: unary operators, pointer stars
_PREFIXES = frozenset({"*", "&", "-", "+", "!", "~"})


def too_deep(texts: Iterable[str]) -> int | None:
    """The index of the first token nested beyond :data:`MAX_NESTING`, else None.

    A level is an open ``(``, ``[`` or ``{``, or one of a run of prefix operators
    (``!!!!x``, ``int ****p``), each of which the grammars recurse through.
    """
    depth = run = 0
    for index, text in enumerate(texts):
        run = run + 1 if text in _PREFIXES else 0
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            depth = max(depth - 1, 0)
        if depth + run > MAX_NESTING:
            return index
    return None


@contextlib.contextmanager
def nesting_room() -> Iterator[None]:
    """Room on the stack for a parse whose nesting :func:`too_deep` has bounded."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, _FRAMES))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


_ABSENT = object()
T = TypeVar("T")


class TextCache:
    """The most recently used results of a parse, bounded by their number and by the total
    length of the texts they were parsed from.

    What a parse keeps grows with its text (a declaration's tree takes about
    half a kilobyte a character, its walk a fifth of that), so with a bound on
    the number alone a long-lived process (a build hook, a test run, the fuzz
    test) could hold gigabytes of huge one-off texts: a generated enum, a
    declaration run together with the next, an ``#if`` nested 3,000 deep.  Such a text,
    over an eighth of the bound, is not kept at all: it is seldom seen twice.
    """

    def __init__(self, entries: int, chars: int):
        self._items: OrderedDict[Hashable, tuple[int, object]] = OrderedDict()
        self._entries = entries
        self._chars = chars
        self._held = 0  #: the length of the texts of what is kept

    def get(self, key: Hashable, default: object = None) -> object:
        found = self._items.get(key, _ABSENT)
        if found is _ABSENT:
            return default
        self._items.move_to_end(key)
        return found[1]  # type: ignore[index]

    def put(self, key: Hashable, size: int, value: object) -> None:
        """Keep ``value`` under ``key``, parsed from a text of ``size`` characters."""
        self.pop(key)
        if size > self._chars // 8:
            return
        self._items[key] = (size, value)
        self._held += size
        while len(self._items) > self._entries or self._held > self._chars:
            self._held -= self._items.popitem(last=False)[1][0]

    def kept(self, key: Hashable, size: int, make: Callable[[], T]) -> T:
        """What is kept under ``key``, else ``make()``, kept (parsed from ``size`` characters)."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, size, found)
        return found  # type: ignore[return-value]

    def pop(self, key: Hashable) -> None:
        found = self._items.pop(key, None)
        if found is not None:
            self._held -= found[0]

    def clear(self) -> None:
        self._items.clear()
        self._held = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    @property
    def chars(self) -> int:
        """The length of the texts of what is kept."""
        return self._held

