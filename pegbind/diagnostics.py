"""Source coordinates, diagnostics and the one exception hierarchy of pegbind.

Every layer reports problems as :class:`Diagnostic` values that carry the
:class:`Coord` in the *original* header (never in expanded text), plus the
include chain and macro-expansion chain that led there.  Problems are
collected, not thrown one at a time; a layer that cannot go on raises a
:class:`PegbindError` holding every diagnostic collected so far.

Rendering follows the compilers' convention so editors can jump to it::

    In file included from pkcs11.h:211:
    pkcs11f.h:112:3: error: expected ';' after parameter list (in expansion of CK_PKCS11_FUNCTION_INFO \
from pkcs11.h:211)
      112 | CK_PKCS11_FUNCTION_INFO(C_Initialize)
          |   ^
"""
from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from dataclasses import field
from pathlib import Path
from typing import Literal

from .frozen import frozen_dataclass, mutable_dataclass

Severity = Literal["error", "warning", "note"]


@frozen_dataclass(order=True)  # one per token: see pegbind.frozen
class Coord:
    """A position in a source file: 1-based line and column, as editors count."""

    file: str  #: path of the file as it was opened (relative paths kept relative)
    line: int  #: 1-based line number
    col: int  #: 1-based column, counted in characters

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@frozen_dataclass()
class Diagnostic:
    """One problem found in the input, located in the original header or config."""

    coord: Coord | None  #: where; None only for problems that belong to no file
    message: str  #: what is wrong, in one line, without the location prefix
    severity: Severity = "error"
    #: innermost first: the ``#include`` sites that led to ``coord.file``
    included_from: tuple[Coord, ...] = ()
    #: extra lines printed after the diagnostic (e.g. "note: previous definition is here")
    notes: tuple[str, ...] = ()

    def headline(self) -> str:
        """``file:line:col: severity: message`` (no source excerpt)."""
        where = f"{self.coord}: " if self.coord is not None else ""
        return f"{where}{self.severity}: {self.message}"

    def render(self, *, excerpt: bool = True, chain: bool = True) -> str:
        """The full text shown to a user: include chain, headline, source line and caret."""
        lines: list[str] = []
        for depth, site in enumerate(self.included_from if chain else ()):
            lead = "In file included from" if depth == 0 else "                 from"
            end = ":" if depth == len(self.included_from) - 1 else ","
            lines.append(f"{lead} {site}{end}")
        lines.append(self.headline())
        if excerpt and self.coord is not None:
            source = _source_line(self.coord.file, self.coord.line)
            if source is not None:
                number = str(self.coord.line)
                gutter = " " * len(number)
                # Tabs are kept so the caret lines up under the same characters.
                prefix = "".join(ch if ch == "\t" else " " for ch in source[: self.coord.col - 1])
                lines.append(f"  {number} | {source}")
                lines.append(f"  {gutter} | {prefix}^")
        lines.extend(self.notes)
        return "\n".join(lines)


@functools.lru_cache(maxsize=64)
def _read_lines(path: str, size: int, mtime: int) -> tuple[str, ...] | None:
    """The lines of ``path`` as it was when it had that ``size`` and ``mtime`` (the cache's key:
    a process may render diagnostics of a file, rewrite it and render those of the new text)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return tuple(text.splitlines())


def _source_line(path: str, line: int) -> str | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    lines = _read_lines(path, stat.st_size, stat.st_mtime_ns)
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1].rstrip("\r")


def render_all(diagnostics: Iterable[Diagnostic], *, excerpt: bool = True) -> str:
    """All diagnostics, each rendered, separated by newlines.

    As gcc does, an "In file included from" chain is printed only for includes not
    already listed: not again for a diagnostic in the same file, nor for one in a file
    that includes it (its chain is the tail of the one shown).  200 errors of a header
    that includes itself 200 deep would otherwise repeat a chain of up to 200 lines each.
    """
    lines: list[str] = []
    shown: tuple[Coord, ...] = ()
    for diagnostic in diagnostics:
        chain = diagnostic.included_from
        listed = len(chain) <= len(shown) and shown[len(shown) - len(chain):] == chain
        lines.append(diagnostic.render(excerpt=excerpt, chain=not listed))
        if not listed:
            shown = chain
    return "\n".join(lines)


@mutable_dataclass()
class DiagnosticSink:
    """Collects diagnostics of one run; layers append, the front end reports."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, coord: Coord | None, message: str, **extra) -> Diagnostic:
        return self.add(Diagnostic(coord, message, "error", **extra))

    def warning(self, coord: Coord | None, message: str, **extra) -> Diagnostic:
        return self.add(Diagnostic(coord, message, "warning", **extra))

    def add(self, diagnostic: Diagnostic) -> Diagnostic:
        self.items.append(diagnostic)
        return diagnostic

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]


class PegbindError(Exception):
    """Base of every error pegbind reports to a user; carries its diagnostics.

    Front ends (CLI, setuptools hook) print :meth:`render` and exit with status 1;
    they never show a Python traceback for a ``PegbindError``.
    """

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic] | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(None, diagnostics)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__(self.render(excerpt=False))

    def render(self, *, excerpt: bool = True, chain: bool = True) -> str:
        return render_all(self.diagnostics, excerpt=excerpt)


class ConfigError(PegbindError):
    """A configuration file, key or command-line flag is wrong."""


class PreprocessError(PegbindError):
    """The preprocessor cannot continue (unterminated #if, include not found, ...)."""


class ParseError(PegbindError):
    """A declaration cannot be parsed."""


class BuildError(PegbindError):
    """Compiling generated sources failed (Cython or the C compiler)."""


class VerifyError(PegbindError):
    """The compiler disagrees with the model (``pegbind verify``)."""
