"""The ``grammars/*.ppeg`` files as parsers, compiled once and kept on disk.

In: a grammar's name.  Out: the :class:`pegbind.pegcode.Parser` of its
rules (and, for compiling it and for the tests, its
:class:`parsimonious.grammar.Grammar`).

Compiling a ``.ppeg`` file means parsing it with parsimonious's own rule
grammar (which parsimonious builds at its import), then writing the Python
parser of its rules (:mod:`pegbind.pegcode`) and compiling that, which costs
more than reading a small header does.  As Python keeps bytecode in
``__pycache__``, the parser's bytecode is kept in pegbind's cache folder
(``$PEGBIND_CACHE_DIR``, else ``$XDG_CACHE_HOME/pegbind``, else
``~/.cache/pegbind``; an empty ``PEGBIND_CACHE_DIR`` turns the cache off), and
a run that finds it imports neither parsimonious nor regex.  The file name is
a hash of the grammar text, the Python version, the installed parsimonious
and regex, and the code that writes the parsers, so editing a grammar or
upgrading either compiles afresh; of each grammar, the few parsers most
recently used are kept (:func:`pegbind.regen.tidy`).  Only grammars are kept: no
header's parse survives a run.  A cache that cannot be read or written is
passed over, never an error.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import marshal
import os
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from itertools import accumulate, repeat
from operator import add
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, TypeVar

from . import __version__, pegcode
from .patterns import compiled
from .pegcode import Parser
from .regen import cache_dir, tidy
from .resources import read_grammar

if TYPE_CHECKING:
    from parsimonious.grammar import Grammar

__all__ = ["grammar", "grammar_words", "parser", "Parser", "PLACEHOLDER", "TextCache", "cache_dir"]

#: what stands for an identifier that a grammar never names (see :func:`grammar_words`)
PLACEHOLDER = "ID"


@functools.cache
def _compiler_stamp() -> str:
    # parsimonious and regex have no __version__; the size and mtime of their modules change
    # with any reinstall of another version.  The code's writer is pegbind's own: its text.
    stamps = []
    for package, modules in (("parsimonious", ("grammar.py", "expressions.py")), ("regex", ("_main.py",))):
        spec = importlib.util.find_spec(package)  # found, not imported
        for module in modules:
            folder = (spec.submodule_search_locations or [""])[0] if spec is not None else ""
            with contextlib.suppress(OSError):
                stat = os.stat(os.path.join(folder, module))
                stamps.append(f"{stat.st_size}:{stat.st_mtime_ns}")
    try:
        stamps.append(hashlib.sha256(Path(pegcode.__file__ or "").read_bytes()).hexdigest())
    except OSError:  # imported from somewhere it cannot be read as a file (a zip): its version
        stamps.append(__version__)
    return ",".join(stamps)


def _cache_file(name: str, text: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256("\0".join((text, sys.version, _compiler_stamp())).encode()).hexdigest()[:24]
    return folder / f"{name}-{key}.parser.marshal"


def _load(path: Path) -> CodeType | None:
    try:
        code = marshal.loads(path.read_bytes())
    except Exception:  # missing, truncated or foreign: compile again and overwrite it
        return None
    if not isinstance(code, CodeType):
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # used: the cache keeps the most recently used parsers of a grammar (regen.tidy)
    return code


def _store(path: Path, code: CodeType) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return  # a read-only or missing home: run without the cache
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(marshal.dumps(code))
        # Atomic: parallel processes (pytest -n, make -j) never see half a file.
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    tidy()  # the parsers of other texts of the grammar, other Pythons ...


@functools.cache
def grammar(name: str) -> Grammar:
    """``grammars/<name>.ppeg`` as a parsimonious grammar (to compile it, and for the tests)."""
    from parsimonious.grammar import Grammar

    return Grammar(read_grammar(name))


@functools.cache
def parser(name: str) -> Parser:
    """``grammars/<name>.ppeg``'s parser (:mod:`pegbind.pegcode`), from the cache when it holds this exact text."""
    text = read_grammar(name)
    path = _cache_file(name, text)
    code = _load(path) if path is not None else None
    if code is None:
        code = compile(pegcode.source(grammar(name)), f"<{name}.ppeg parser>", "exec")
        if path is not None:
            _store(path, code)
    return Parser(code)


@functools.cache
def grammar_words(name: str) -> frozenset[str]:
    """Every identifier-like word written in ``grammars/<name>.ppeg``.

    Those are the only identifiers the grammar can tell apart (keywords,
    ``aligned``, ``pack``, ...); it reads any other one through a generic
    identifier leaf.  So text with each other identifier written as
    :data:`PLACEHOLDER` parses to the same tree, and text of the same shape
    can share one parse.
    """
    text = read_grammar(name)
    # a leaf that matches the placeholders themselves names them, as text the grammar parses
    # holds them, not as words of its own
    text = "\n".join(line for line in text.splitlines() if not line.startswith(_MATCHES_PLACEHOLDERS))
    words = frozenset(compiled(r"[A-Za-z_$][\w$]*").findall(text))
    assert PLACEHOLDER not in words, f"{name}.ppeg names the placeholder {PLACEHOLDER!r}"
    return words


#: the leaves (``NAME =`` at a line's start) whose patterns match placeholders: declarations.ppeg's
#: run of plain operands (an identifier is :data:`PLACEHOLDER` there, a number ``0``)
_MATCHES_PLACEHOLDERS = ("OPERAND_RUN ",)


_IDENTIFIER_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")


def shape_of(text: str, words: frozenset[str]) -> str:
    """``text`` (an identifier token's spelling) as the grammar sees it: itself or the placeholder.

    An identifier starting with any other character keeps its spelling, so
    that what a grammar's identifier leaf accepts is unchanged.
    """
    return text if text in words or text[0] not in _IDENTIFIER_START else PLACEHOLDER


def token_starts(parts: list[str]) -> list[int]:
    """Where each of ``parts`` starts in ``" ".join(parts)``: the text the grammars parse is
    tokens joined by single spaces."""
    return [0, *accumulate(map(add, map(len, parts[:-1]), repeat(1)))] if parts else []



# ---- nesting: parsimonious recurses as deep as the text nests -------------------------------

#: The most parentheses one expression may nest (C11 5.2.4.1 asks for 63; gcc takes
#: thousands).  Deeper input gets a located diagnostic naming this limit, never a
#: RecursionError: the grammars recurse once per level, through every precedence rule.
MAX_NESTING = 256
#: Python frames the deepest parse within :data:`MAX_NESTING` may take, with room to spare
_FRAMES = 40_000


#: tokens that, one after another, each open a level of the grammar: unary operators, pointer stars
_PREFIXES = frozenset({"*", "&", "-", "+", "!", "~"})


#: a run of two or more prefix operators in tokens joined by single spaces
_PREFIX_RUN = compiled(r"(?<!\S)[-*&+!~](?: [-*&+!~])+(?!\S)")


def too_deep(texts: Iterable[str], joined: str) -> int | None:
    """The index of the first token nested beyond :data:`MAX_NESTING`, else None.

    A level is an open ``(``, ``[`` or ``{``, or one of a run of prefix operators
    (``!!!!x``, ``int ****p``), each of which the grammars recurse through.

    ``joined`` is ``texts`` joined by single spaces, as a grammar reads them
    (identifiers and literals may stand replaced by a placeholder with no
    bracket).  Its brackets and runs of prefix operators bound the nesting from
    above (a literal's spelling can only add to them), so text that cannot nest
    too deep, nearly all of it, is told so without a loop over its tokens.
    """
    bound = joined.count("(") + joined.count("[") + joined.count("{")
    if bound >= MAX_NESTING:  # many brackets (a megabyte of ``((1))+``): how deep they nest
        bound = _bracket_depth_bound(joined)
    if bound < MAX_NESTING:
        # the longest run's operators (each one character and a blank), at C speed: a
        # megabyte of -1+-1+ holds a run of two at each operand
        longest = (max(map(len, _PREFIX_RUN.findall(joined)), default=1) + 1) // 2
        if bound + longest <= MAX_NESTING:
            return None
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


#: what is not a bracket, and each kind of bracket as a round one (any closer closes any opener)
_NOT_BRACKETS = compiled(r"[^()\[\]{}]+")
_ROUND = str.maketrans("[{]}", "(())")


def _bracket_depth_bound(joined: str) -> int:
    """How deep the brackets of ``joined`` nest, at most, worked out on the brackets alone and a
    pass over them for each level (:func:`too_deep`'s loop is one Python step a token).

    Each pass takes every innermost pair away, so the passes that find a pair count the
    levels of the paired brackets; an opener left with no closer may add a level each.
    """
    brackets = _NOT_BRACKETS.sub("", joined).translate(_ROUND)
    levels = 0
    while "()" in brackets and levels <= MAX_NESTING:
        brackets = brackets.replace("()", "")
        levels += 1
    return levels + brackets.count("(")


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

