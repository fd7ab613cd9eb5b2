"""Preprocessing tokens as they leave the preprocessor (C11 6.4, 6.10).

Every token knows where its characters were written (``coord``, in the
original file, never in expanded text) and through which macro expansions it
passed (``expansion``), so a later layer can say
``pkcs11f.h:112:3: ... (in expansion of CK_PKCS11_FUNCTION_INFO from pkcs11.h:211)``.
"""
from __future__ import annotations

from typing import Literal

from ..diagnostics import Coord
from ..frozen import frozen_dataclass, maker

TokenKind = Literal["identifier", "number", "char", "string", "punct", "other"]


@frozen_dataclass()
class ExpansionFrame:
    """One macro expansion a token passed through."""

    macro: str  #: the macro's name
    site: Coord  #: where the macro was invoked (its name token)


@frozen_dataclass()  # one per token: see pegbind.frozen
class Token:
    """One preprocessing token of the output stream.

    Where its characters were written is held as ``file``, ``line`` and ``col``
    and given as a :class:`Coord` by :attr:`coord`, made when asked: a megabyte
    header is a million tokens, a Coord object for each was a sixth of the
    lexer's time, and few tokens are ever asked where they are.
    """

    kind: TokenKind
    text: str  #: the spelling, exactly as it will appear in the expanded text
    #: with ``line`` and ``col``: where its characters were written (for a pasted token: the ``##`` site)
    file: str
    line: int
    col: int
    #: outermost expansion first; empty for a token written directly in the file
    expansion: tuple[ExpansionFrame, ...] = ()
    space_before: bool = False  #: white space preceded it (matters for ``#`` and output)

    @property
    def coord(self) -> Coord:
        """Where its characters were written."""
        return _new_coord(self.file, self.line, self.col)

    @classmethod
    def at(cls, kind: TokenKind, text: str, coord: Coord, expansion: tuple[ExpansionFrame, ...] = (),
           space_before: bool = False) -> Token:
        """A token written at ``coord``."""
        return cls(kind, text, coord.file, coord.line, coord.col, expansion, space_before)

    def origin_note(self) -> str:
        """`` (in expansion of M from f.h:3)`` for expanded tokens, else ``""``."""
        if not self.expansion:
            return ""
        frame = self.expansion[0]
        return f" (in expansion of {frame.macro} from {frame.site})"


_new_coord = maker(Coord)
