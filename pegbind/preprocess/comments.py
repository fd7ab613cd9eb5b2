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
from dataclasses import dataclass, field

from ..diagnostics import Coord
from .includes import as_legacy_text
from .lexer import Comment

_OPEN = re.compile(r"^/\*[*!]?<?")
_LINE_OPEN = re.compile(r"^//[/!]?<?")
_STAR_PREFIX = re.compile(r"^\s*\*(?!/) ?")


def clean_comment(raw: str) -> str:
    """The text of one comment without its markers, dedented, blank edge lines dropped
    (an old header's Windows-1252 text read as such: see :func:`.includes.as_legacy_text`)."""
    raw = as_legacy_text(raw)
    if raw.startswith("//"):
        lines = [_LINE_OPEN.sub("", raw)]
    else:
        body = _OPEN.sub("", raw)
        body = body[:-2] if body.endswith("*/") else body
        lines = body.split("\n")
        # Strip the " * " column only when every continuation line has it.
        rest = [line for line in lines[1:] if line.strip()]
        if rest and all(_STAR_PREFIX.match(line) for line in rest):
            lines = [lines[0]] + [_STAR_PREFIX.sub("", line) for line in lines[1:]]
            if not lines[0].strip():
                # "/**" alone on its line: the text starts below, dedent it as one block.
                return "\n".join(_dedented(lines)).strip("\n").rstrip()
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


@dataclass
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
