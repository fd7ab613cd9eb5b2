"""The preprocessing layer: C headers -> expanded pp-tokens, macro table, comments.

In: header paths, include directories, -D/-U, the target (its predefined macros).
Out: :class:`PreprocessResult` (see :mod:`.engine`).  Modules, in pipeline order:
``lexer`` (tokens.ppeg), ``directives`` (directives.ppeg), ``cexpr`` (#if, cexpr.ppeg),
``macros`` (macro table and expansion), ``includes`` (search paths, guards),
``comments`` (doc comments), ``engine`` (the driver), ``output`` (gcc -E style text).
"""
from __future__ import annotations

from .lexer import tokenize
from .token import ExpansionFrame, Token

__all__ = ["tokenize", "Token", "ExpansionFrame"]
