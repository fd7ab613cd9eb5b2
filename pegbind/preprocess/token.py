"""Preprocessing tokens as they leave the preprocessor (C11 6.4, 6.10).

Every token knows where its characters were written (``coord``, in the
original file, never in expanded text) and through which macro expansions it
passed (``expansion``), so a later layer can say
``pkcs11f.h:112:3: ... (in expansion of CK_PKCS11_FUNCTION_INFO from pkcs11.h:211)``.
"""
from __future__ import annotations

from typing import Literal

from ..diagnostics import Coord
from ..frozen import frozen_dataclass

TokenKind = Literal["identifier", "number", "char", "string", "punct", "other"]


@frozen_dataclass()
class ExpansionFrame:
    """One macro expansion a token passed through."""

    macro: str  #: the macro's name
    site: Coord  #: where the macro was invoked (its name token)


@frozen_dataclass()  # one per token: see pegbind.frozen
class Token:
    """One preprocessing token of the output stream."""

    kind: TokenKind
    text: str  #: the spelling, exactly as it will appear in the expanded text
    coord: Coord  #: where its characters were written (for a pasted token: the ``##`` site)
    #: outermost expansion first; empty for a token written directly in the file
    expansion: tuple[ExpansionFrame, ...] = ()
    space_before: bool = False  #: white space preceded it (matters for ``#`` and output)

    def origin_note(self) -> str:
        """`` (in expansion of M from f.h:3)`` for expanded tokens, else ``""``."""
        if not self.expansion:
            return ""
        frame = self.expansion[0]
        return f" (in expansion of {frame.macro} from {frame.site})"
