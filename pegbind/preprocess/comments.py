"""Preprocessing layer, step 6: comments kept aside for documentation.

In: the :class:`~.lexer.Comment` values of every file read.  Out: a
:class:`CommentIndex` answering "which comment documents the declaration at this
coordinate": the block directly above its line (:meth:`CommentIndex.doc_before`)
or the comment after it on the same line (:meth:`CommentIndex.doc_after`).
Markers (``/*``, ``*/``, ``//``, ``/**``, ``///``, ``//!``, ``/*!``, ``/**<``) and the
leading ``*`` of each line are stripped, and the text is dedented.
"""
from __future__ import annotations

import os
import re
from dataclasses import field

from ..diagnostics import Coord
from ..frozen import mutable_dataclass
from ..patterns import compiled
from .includes import as_legacy_text
from .lexer import Comment

_OPEN = compiled(r"^/\*[*!]?<?")
_LINE_OPEN = compiled(r"^//[/!]?<?")
#: the " * " column a block comment's continuation lines may have, after each newline (a
#: newline first, not a line's start: the engine then looks for newlines, not at every place)
_STAR_PREFIX = compiled(r"\n[^\S\n]*\*(?!/) ?")
#: a line with text that does not start with that column
_WITHOUT_STAR = compiled(r"^(?![^\S\n]*(?:\*(?!/)|$))", re.MULTILINE)


def clean_comment(raw: str) -> str:
    """The text of one comment without its markers, dedented, blank edge lines dropped
    (an old header's Windows-1252 text read as such: see :func:`.includes.as_legacy_text`)."""
    raw = as_legacy_text(raw)
    if raw.startswith("//"):
        lines = [_LINE_OPEN.sub("", raw)]
    else:
        body = _OPEN.sub("", raw)
        body = body[:-2] if body.endswith("*/") else body
        first, newline, rest = body.partition("\n")
        # Strip the " * " column only when every continuation line with text has it
        # (the whole text at once: sqlite3.h's comments hold half a megabyte).
        if newline and rest and not rest.isspace() and not _WITHOUT_STAR.search(rest):
            lines = [first, *_STAR_PREFIX.sub("\n", body[len(first):])[1:].split("\n")]
            if not first.strip():
                # "/**" alone on its line: the text starts below, dedent it as one block.
                return "\n".join(_dedented(lines)).strip("\n").rstrip()
        else:
            lines = body.split("\n")
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return ""
    first = lines[0].strip()
    rest_text = "\n".join(_dedented(lines[1:]))
    return first + ("\n" + rest_text if rest_text else "")


def _dedented(lines: list[str]) -> list[str]:
    """``lines`` as :func:`textwrap.dedent` gives their text: the leading spaces and
    tabs all lines with text share taken off, lines of spaces and tabs only emptied.

    Line by line, without the regular expressions dedent runs over the whole
    text: sqlite3.h's 480 comments hold half a megabyte.
    """
    margin: str | None = None
    for line in lines:
        text = line.lstrip(" \t")
        if not text:
            continue
        indent = line[:len(line) - len(text)]
        if margin is None:
            margin = indent
        elif not indent.startswith(margin):
            margin = os.path.commonprefix([margin, indent])
        if not margin:
            break
    cut = len(margin) if margin else 0
    return [line[cut:] if line.strip(" \t") else "" for line in lines]


@mutable_dataclass()
class CommentIndex:
    """Comments by file, looked up by the line of a declaration."""

    _by_end: dict[tuple[str, int], list[Comment]] = field(default_factory=dict)
    _by_start: dict[tuple[str, int], list[Comment]] = field(default_factory=dict)

    def add(self, comments: list[Comment]) -> None:
        for comment in comments:
            file = comment.start.file
            self._by_end.setdefault((file, comment.end_line), []).append(comment)
            self._by_start.setdefault((file, comment.start.line), []).append(comment)

    def doc_before(self, coord: Coord) -> str:
        """The comment block ending on the line just above ``coord`` (consecutive ``//``
        lines form one block); "" when there is none or it trails code."""
        blocks: list[str] = []
        line = coord.line - 1
        while True:
            found = [c for c in self._by_end.get((coord.file, line), []) if not c.trailing]
            if not found:
                break
            comment = found[-1]
            blocks.append(clean_comment(comment.text))
            if not comment.text.startswith("//"):
                break
            line = comment.start.line - 1
            previous = [c for c in self._by_end.get((coord.file, line), []) if not c.trailing]
            if not previous or not previous[-1].text.startswith("//"):
                break
        return "\n".join(reversed(blocks)).strip("\n")

    def doc_after(self, coord: Coord) -> str:
        """The first comment that follows ``coord`` on the same line ("" if none)."""
        for comment in self._by_start.get((coord.file, coord.line), []):
            if comment.trailing and comment.start.col > coord.col:
                return clean_comment(comment.text)
        return ""
