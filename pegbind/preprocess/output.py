"""Preprocessing layer, last step: the expanded tokens as text, like ``gcc -E``.

In: a :class:`~.engine.PreprocessResult`.  Out: text with GCC-style line markers
(``# 12 "path/to/header.h"``) so it can be compared with ``gcc -E`` line by line;
``pegbind dump --stage preprocessed`` prints it.  A token is placed at its
*presumed* position: where it was written, or for a token produced by a macro, the
place of the outermost invocation — which is where GCC prints it too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Coord
from .lexer import tokenize
from .token import Token

if TYPE_CHECKING:
    from .engine import PreprocessResult

# Gaps up to this many lines are filled with blank lines rather than a marker (as GCC).
_MAX_BLANK_LINES = 8


def presumed_coord(token: Token) -> Coord:
    """Where a token shows up in the file flow: its own place, or its outermost macro's site."""
    return token.expansion[0].site if token.expansion else token.coord


_pair_cache: dict[tuple[str, str], bool] = {}


def _would_merge(left: str, right: str) -> bool:
    key = (left, right)
    known = _pair_cache.get(key)
    if known is None:
        pieces = tokenize(left + right, "<paste>")
        known = _pair_cache[key] = [t.text for t in pieces] != [left, right]
    return known


def render_preprocessed(result: PreprocessResult) -> str:
    """The expanded text with ``# LINE "FILE"`` markers; ``#pragma`` lines kept in place."""
    lines: list[str] = []
    current: list[str] = []
    file: str | None = None
    line = 0
    pragmas = sorted(result.pragmas, key=lambda p: p[0])
    next_pragma = 0
    previous: Token | None = None

    def end_line() -> None:
        nonlocal current, previous
        lines.append("".join(current))
        current = []
        previous = None

    def move_to(where: Coord) -> None:
        nonlocal file, line
        if where.file == file and where.line <= line:
            return  # tokens of one invocation stay on the line where it started, as GCC prints them
        if where.file != file or where.line - line > _MAX_BLANK_LINES:
            if current:
                end_line()
            lines.append(f'# {where.line} "{where.file}"')
            file, line = where.file, where.line
            return
        while line < where.line:
            end_line()
            line += 1

    for index, token in enumerate(result.tokens):
        while next_pragma < len(pragmas) and pragmas[next_pragma][0] <= index:
            _, text, coord = pragmas[next_pragma]
            next_pragma += 1
            move_to(coord)
            if current:
                end_line()
                line += 1
            lines.append(f"#pragma {text}")
            line += 1
        move_to(presumed_coord(token))
        if previous is not None and (token.space_before or _would_merge(previous.text, token.text)):
            current.append(" ")
        current.append(token.text)
        previous = token
    if current:
        end_line()
    return "\n".join(lines) + "\n"
