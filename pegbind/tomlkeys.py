"""Where each key of a TOML document is written: the line and column a config diagnostic points at.

Input: the text of a TOML document that ``tomllib`` has already accepted (so
syntax errors need no handling here).  Output: :func:`key_positions`, a map
from key paths to ``(line, column)``, 1-based, and :func:`locate`, which finds
the place of a key named as diagnostics name it (``functions[2].params.pPin``,
``binding[0].headers``).

A path holds the keys from the document's root, and an index for an element of
an array (or of an array of tables): ``("functions", 2, "params", "pPin")``.
An index into a table stands for its key of that rank, so ``functions[1].params``
finds the ``params`` of the second key of ``functions = { "f*" = {...}, "g*" = {...} }`` too.
"""
from __future__ import annotations

import functools
import json

from .patterns import compiled

Path = tuple[str | int, ...]
Position = tuple[int, int]

_BARE = compiled(r"[A-Za-z0-9_-]+")
_NAME = compiled(r"([^.\[\]]+)|\[(\d+)\]")


class _Scanner:
    def __init__(self, text: str):
        self.text = text
        self.i = 0
        self.found: dict[Path, Position] = {}
        self.counts: dict[Path, int] = {}  # keys seen in a table, elements in an array of tables
        self.names: dict[tuple[Path, int], str] = {}  # (table, rank) -> the key of that rank

    # ---- positions and blanks ----------------------------------------------------------------

    def position(self, index: int | None = None) -> Position:
        index = self.i if index is None else index
        line = self.text.count("\n", 0, index) + 1
        return line, index - (self.text.rfind("\n", 0, index) + 1) + 1

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def blanks(self, newlines: bool) -> None:
        """Spaces, tabs, comments; and newlines too where a value is open (arrays)."""
        while self.i < len(self.text):
            ch = self.text[self.i]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.i += 1
            elif ch == "#":
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
            else:
                return

    def note(self, path: Path, at: Position) -> None:
        self.found.setdefault(path, at)

    # ---- keys --------------------------------------------------------------------------------

    def string(self) -> str:
        quote = self.text[self.i]
        triple = self.text.startswith(quote * 3, self.i)
        delimiter = quote * 3 if triple else quote
        start = self.i + len(delimiter)
        j = start
        while True:
            end = self.text.find(delimiter, j)
            if end < 0:
                end = len(self.text)
                break
            if quote == '"' and _escaped(self.text, end):
                j = end + 1
                continue
            break
        if triple:  # a closing run may hold one or two more quotes, which belong to the string
            while self.text.startswith(quote, end + 3):
                end += 1
        self.i = min(end + len(delimiter), len(self.text))
        body = self.text[start:end]
        if quote == '"' and "\\" in body and not triple:
            try:
                return str(json.loads(f'"{body}"'))
            except ValueError:  # an escape JSON has not (\e, \U): the text as written
                return body
        return body

    def key(self) -> list[tuple[str, Position]]:
        """A dotted key: each part with where it is written."""
        parts = []
        while True:
            self.blanks(False)
            at = self.position()
            if self.peek() in ('"', "'"):
                parts.append((self.string(), at))
            else:
                found = _BARE.match(self.text, self.i)
                if found is None:
                    return parts
                parts.append((found.group(0), at))
                self.i = found.end()
            self.blanks(False)
            if self.peek() != ".":
                return parts
            self.i += 1

    def keyed(self, table: Path, parts: list[tuple[str, Position]]) -> Path:
        """Note a key written in ``table`` (each table its dotted parts open, too) and give its path."""
        path = table
        for name, at in parts:
            if (*path, name) not in self.found:
                rank = self.counts.get(path, 0)
                self.counts[path] = rank + 1
                self.names[(path, rank)] = name
            path = (*path, name)
            self.note(path, at)
        return path

    # ---- values ------------------------------------------------------------------------------

    def value(self, path: Path) -> None:
        ch = self.peek()
        if ch == "{":
            self.i += 1
            while True:
                self.blanks(True)
                if self.peek() in ("}", ""):
                    self.i += 1
                    return
                if self.peek() == ",":
                    self.i += 1
                    continue
                self.assignment(path)
        elif ch == "[":
            self.i += 1
            index = 0
            while True:
                self.blanks(True)
                if self.peek() in ("]", ""):
                    self.i += 1
                    return
                if self.peek() == ",":
                    self.i += 1
                    continue
                self.note((*path, index), self.position())
                self.value((*path, index))
                index += 1
        elif ch in ('"', "'"):
            self.string()
        else:  # a number, a date, true or false: up to what ends it
            while self.i < len(self.text) and self.text[self.i] not in ",]}\n#":
                self.i += 1

    def assignment(self, table: Path) -> None:
        parts = self.key()
        path = self.keyed(table, parts)
        self.blanks(False)
        if self.peek() == "=":
            self.i += 1
            self.blanks(False)
            self.value(path)

    def document(self) -> dict[Path, Position]:
        table: Path = ()
        while self.i < len(self.text):
            self.blanks(True)
            if self.i >= len(self.text):
                break
            if self.text.startswith("[[", self.i):
                at = self.position()
                self.i += 2
                header = tuple(name for name, _ in self.key())
                self.i = self.text.find("]]", self.i) + 2
                index = self.counts.get(header, 0)
                self.counts[header] = index + 1
                self.note(header, at)
                table = (*header, index)
                self.note(table, at)
            elif self.peek() == "[":
                at = self.position()
                self.i += 1
                parts = self.key()
                self.i = self.text.find("]", self.i) + 1
                table = tuple(name for name, _ in parts)
                self.note(table, at)
            else:
                start = self.i
                self.assignment(table)
                if self.i == start:  # nothing this scanner reads: skip the line rather than stop
                    end = self.text.find("\n", self.i)
                    self.i = len(self.text) if end < 0 else end
        return self.found


def _escaped(text: str, index: int) -> bool:
    backslashes = 0
    while index - backslashes - 1 >= 0 and text[index - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def key_positions(text: str) -> dict[Path, Position]:
    """Every key path of the document (and every array element) with where it is written."""
    return dict(_scanned(text).found)


@functools.lru_cache(maxsize=4)
def _scanned(text: str) -> _Scanner:
    """The document scanned once: a configuration with several mistakes is located for each."""
    scanner = _Scanner(text)
    scanner.document()
    return scanner


def _resolved(scanner: _Scanner, path: Path) -> Path:
    """``path`` with each index into a table replaced by the key of that rank."""
    resolved: Path = ()
    for part in path:
        if isinstance(part, int) and (resolved, part) in scanner.names:
            part = scanner.names[(resolved, part)]
        resolved = (*resolved, part)
    return resolved


def parse_key(key: str) -> Path:
    """``"binding[0].functions[2].params.pPin"`` -> ``("binding", 0, "functions", 2, "params", "pPin")``."""
    return tuple(int(index) if index else name for name, index in _NAME.findall(key))


def locate(text: str, key: str) -> Position:
    """Where ``key`` is written; for a key that is not (one missing), where the nearest table
    holding it is; (1, 1) when nothing of it is."""
    scanner = _scanned(text)
    found = scanner.found
    path = _resolved(scanner, parse_key(key))
    while path:
        if path in found:
            return found[path]
        path = path[:-1]
    return 1, 1
