"""Parse layer, step 0: the expanded token stream -> one slice per top-level declaration.

In: the preprocessed tokens.  Out: :class:`Piece` values in source order —
declarations ending at ``;`` (brace depth 0), function definitions ending at
their body's ``}``, and problems (an unbalanced ``}``, tokens left at the end).

Cutting first keeps parsimonious's packrat tables small (one declaration at a
time) and makes syntax errors local: a bad declaration is reported and the
next one is read normally.  ``extern "C" {`` ... ``}`` wrappers are dropped
here, so the grammar never sees them.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..frozen import frozen_dataclass
from ..preprocess.token import Token

PieceKind = Literal["declaration", "definition", "unbalanced", "unterminated"]

#: words introducing a parenthesised group that is not a parameter list
NOISE_CALLS = frozenset({"__attribute__", "__attribute", "__declspec", "__asm__", "__asm", "asm",
                          "_Alignas", "alignas"})


@frozen_dataclass()
class Piece:
    """One top-level unit: its tokens and where it starts in the whole stream."""

    kind: PieceKind
    tokens: tuple[Token, ...]
    start: int  #: index of ``tokens[0]`` in the stream (for ``#pragma pack`` lookups)


def _opens_function_body(chunk: list[Token]) -> bool:
    """True when a ``{`` after ``chunk`` starts a function body, not a record or initializer."""
    end = len(chunk)
    while end and chunk[end - 1].text == ")":
        depth = 0
        index = end - 1
        while index >= 0:
            text = chunk[index].text
            depth += text == ")"
            depth -= text == "("
            if depth == 0:
                break
            index -= 1
        if index <= 0:
            return False
        before = chunk[index - 1].text
        if before in NOISE_CALLS:
            end = index - 1
            continue
        # `__attribute__((x))`: the outer group is preceded by the keyword itself
        if before == "(" and index >= 2 and chunk[index - 2].text in NOISE_CALLS:
            end = index - 2
            continue
        return True
    return False


#: the only tokens that cut, open or close something here; the loop visits only these
_MARKS = frozenset({";", "{", "}", "extern"})


def split_declarations(tokens: Sequence[Token]) -> list[Piece]:
    """Cut ``tokens`` into top-level declarations and function definitions."""
    pieces: list[Piece] = []
    chunk: list[Token] = []
    start = 0
    depth = 0
    in_definition = False
    extern_blocks = 0  # open `extern "C" {` wrappers (always at depth 0)
    count = len(tokens)
    position = 0  # the tokens before it are taken: in the chunk, or left out
    for index in [i for i, token in enumerate(tokens) if token.text in _MARKS]:
        if index < position:
            continue  # left out with the `extern "C"` before it
        if index > position:  # the tokens since the last mark, which cut nothing
            if not chunk:
                start = position
            chunk += tokens[position:index]
        position = index + 1
        token = tokens[index]
        text = token.text
        if depth == 0 and text == "extern" and index + 1 < count and tokens[index + 1].kind == "string":
            # `extern "C" {` opens a wrapper; `extern "C" int f(void);` keeps `extern` only.
            if index + 2 < count and tokens[index + 2].text == "{":
                extern_blocks += 1
                position = index + 3
                continue
            if not chunk:
                start = index
            chunk.append(token)
            position = index + 2
            continue
        if depth == 0 and text == "}" and not chunk and extern_blocks:
            extern_blocks -= 1
            continue
        if not chunk:
            start = index
        if text == "{":
            if depth == 0 and _opens_function_body(chunk):
                in_definition = True
            depth += 1
        elif text == "}":
            depth -= 1
            if depth < 0:
                pieces.append(Piece("unbalanced", (token,), index))
                chunk, depth = [], 0
                continue
        chunk.append(token)
        if depth == 0 and (text == ";" or (text == "}" and in_definition)):
            if len(chunk) > 1 or text == "}":
                pieces.append(Piece("definition" if in_definition else "declaration", tuple(chunk), start))
            chunk = []
            in_definition = False
    if position < count:
        if not chunk:
            start = position
        chunk += tokens[position:]
    if chunk:
        pieces.append(Piece("unterminated", tuple(chunk), start))
    return pieces
