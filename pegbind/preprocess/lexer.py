"""Preprocessing layer, step 1: text -> pp-tokens (C11 5.1.1.2 phases 1-3, 6.4).

In: the text of one file and its name.  Out: :class:`LexedFile` — the tokens grouped
into logical lines (directives are line-based), the comments kept aside for
documentation, and the lexical problems found (unterminated comment).

``grammars/tokens.ppeg`` is the definition of the token set.  Running its parser
once per token would cost far too much on headers of thousands of lines, so
:func:`_compiled_lexer` reads the grammar's ordered alternatives (``_`` first, then
``pp_token``) and joins their regex leaves into one alternation with a named group
per leaf; ``re.finditer`` then walks a whole file in C.  PEG ordered choice and the
regex alternation pick the same branch, so the grammar and the lexer cannot drift.
"""
from __future__ import annotations

import functools
import re
from bisect import bisect_right
from dataclasses import field

from ..diagnostics import Coord, Diagnostic
from ..frozen import frozen_dataclass, maker, mutable_dataclass
from ..patterns import compiled
from ..peg import Parser, parser
from ..pegcode import OneOf, Regex
from .token import Token, TokenKind

# Backslash-newline (phase 2); GCC also accepts blanks between the two, with a warning.
_SPLICE = re.compile(r"\\[ \t\f\v]*\r?\n")
_NEWLINE = re.compile(r"\n")

#: regex leaf of tokens.ppeg -> Token.kind
_KIND_OF_LEAF: dict[str, TokenKind] = {
    "NUMBER": "number",
    "CHAR": "char",
    "STRING": "string",
    "IDENTIFIER": "identifier",
    "PUNCT": "punct",
    "UNTERMINATED": "other",
    "OTHER": "other",
}


@frozen_dataclass()
class Comment:
    """A comment as written, with where it starts and ends."""

    text: str  #: the raw text, markers included (``/* ... */`` or ``// ...``)
    start: Coord
    end_line: int  #: physical line of its last character
    trailing: bool  #: a token precedes it on its first line (``int x; /* x */``)


@mutable_dataclass()
class LexedFile:
    """One file cut into logical lines of tokens."""

    file: str
    lines: list[list[Token]] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    text: str = ""  #: the file's text, as read
    #: the offset after each newline of ``text``
    newline_ends: list[int] = field(default_factory=list)

    def line_end(self, line: int) -> int:
        """The column just past the last character of physical line ``line`` (its newline not counted)."""
        ends = self.newline_ends
        start = ends[line - 2] if 2 <= line <= len(ends) + 1 else 0
        end = ends[line - 1] - 1 if line <= len(ends) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return end - start + 1

    def last_line(self) -> int:
        """The file's last physical line: the one its final newline ends, if it has one."""
        ends = self.newline_ends
        return len(ends) if ends and ends[-1] == len(self.text) else len(ends) + 1


def token_parser() -> Parser:
    """tokens.ppeg's parser (also used by the tests to cross-check)."""
    return parser("tokens")


@functools.cache
def _compiled_lexer() -> re.Pattern[str]:
    grammar = token_parser()
    branches: list[str] = []
    for rule_name in ("_", "pp_token"):
        rule = grammar[rule_name]
        assert isinstance(rule, OneOf)
        for member in rule.members:
            assert isinstance(member, Regex), f"tokens.ppeg: {member.name} must be a regex leaf"
            pattern = member.pattern
            if member.flags & re.DOTALL:
                pattern = f"(?s:{pattern})"
            branches.append(f"(?P<{member.name}>{pattern})")
    return compiled("|".join(branches))


@functools.cache
def _kinds_by_group(pattern: re.Pattern[str]) -> list[TokenKind | None]:
    """The token kind of each group of the lexer's pattern, by group number (None: no token)."""
    kinds: list[TokenKind | None] = [None] * (pattern.groups + 1)
    for leaf, group in pattern.groupindex.items():
        kinds[group] = _KIND_OF_LEAF.get(leaf)
    return kinds


def is_unterminated(token: Token) -> bool:
    """True for the "other" token GCC makes of a quote that never closes on its line."""
    if token.kind != "other":
        return False
    text = token.text.lstrip("u8UL")
    return text[:1] in ("'", '"') and len(token.text) - len(text) <= 2


def lex(text: str, file: str) -> LexedFile:
    """Cut ``text`` (the content of ``file``) into logical lines of pp-tokens."""
    result = LexedFile(file)
    # Phase 2: remember where splices were, so coordinates point at physical lines.
    splice_at: list[int] = []  # logical offsets at which a splice was removed
    splice_shift: list[int] = []  # characters removed up to and including that splice
    if "\\" in text and _SPLICE.search(text):
        pieces: list[str] = []
        last = removed = 0
        for m in _SPLICE.finditer(text):
            pieces.append(text[last : m.start()])
            splice_at.append(m.start() - removed)
            removed += m.end() - m.start()
            splice_shift.append(removed)
            last = m.end()
        pieces.append(text[last:])
        logical = "".join(pieces)
    else:
        logical = text
    line_ends = result.newline_ends = [m.end() for m in _NEWLINE.finditer(text)]
    result.text = text

    def physical(offset: int) -> int:
        k = bisect_right(splice_at, offset)
        return offset + splice_shift[k - 1] if k else offset

    def coord_of(offset: int) -> tuple[int, int]:
        if splice_at:
            offset = physical(offset)
        line = bisect_right(line_ends, offset)
        start = line_ends[line - 1] if line else 0
        return line + 1, offset - start + 1

    lines = result.lines
    current: list[Token] = []
    space = False
    last_token_line = 0
    # The line of a token's offset: offsets only grow, so the line is moved forward
    # (a bisect, from where it stands) only when an offset passes the line's end.
    line, line_start = 1, 0
    line_end = line_ends[0] if line_ends else len(text) + 1
    # Likewise the characters splices removed before a token's offset: moved forward
    # at each splice passed (physical() bisects, for every token of a file with one).
    spliced, shift = 0, 0
    next_splice = splice_at[0] if splice_at else len(text) + 1
    pattern = _compiled_lexer()
    kinds = _kinds_by_group(pattern)
    new_token = maker(Token)  # a token at a time: no call of the class (see maker)
    for m in pattern.finditer(logical):
        kind = kinds[m.lastindex]  # type: ignore[index]
        if kind is not None:
            offset = m.start()
            if offset >= next_splice:
                spliced = bisect_right(splice_at, offset, spliced)
                shift = splice_shift[spliced - 1]
                next_splice = splice_at[spliced] if spliced < len(splice_at) else len(text) + 1
            offset += shift
            if offset >= line_end:
                passed = bisect_right(line_ends, offset, line - 1)
                line, line_start = passed + 1, line_ends[passed - 1]
                line_end = line_ends[passed] if passed < len(line_ends) else len(text) + 1
            current.append(new_token(kind, m[0], file, line, offset - line_start + 1, (), space))
            last_token_line = line
            space = False
        elif (leaf := m.lastgroup) == "SPACE":
            space = True
        elif leaf == "NEWLINE":
            if current:
                lines.append(current)
                current = []
            space = True
        else:  # a comment
            space = True
            comment_line, col = coord_of(m.start())
            start = Coord(file, comment_line, col)
            end_line = coord_of(m.end() - 1)[0]
            result.comments.append(Comment(m.group(), start, end_line, last_token_line == comment_line))
            if leaf == "UNTERMINATED_COMMENT":
                result.problems.append(Diagnostic(start, "unterminated comment"))
    if current:
        lines.append(current)
    return result


def tokenize(text: str, file: str) -> list[Token]:
    """The pp-tokens of ``text`` (C11 6.4), comments dropped, coordinates exact (1-based)."""
    return [token for line in lex(text, file).lines for token in line]
