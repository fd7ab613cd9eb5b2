"""The preprocessing layer: C headers -> expanded pp-tokens, macro table, comments.

In: header paths, include directories, -D/-U, the target (its predefined macros).
Out: :class:`PreprocessResult`.  Modules, in pipeline order: ``lexer``
(tokens.ppeg), ``directives`` (directives.ppeg), ``cexpr`` (#if, cexpr.ppeg),
``literals`` (character constants and string literals, for #if and the parse
layer), ``macros`` (macro table and expansion), ``includes`` (search paths,
origins), ``comments`` (doc comments), ``engine`` (the driver), ``output``
(gcc -E style text).
"""
from __future__ import annotations

from ..diagnostics import PreprocessError
from .comments import CommentIndex
from .engine import PreprocessResult, preprocess
from .lexer import tokenize
from .macros import Macro, MacroEvent, MacroTable
from .output import presumed_coord, render_preprocessed
from .token import ExpansionFrame, Token

__all__ = [
    "tokenize", "preprocess", "render_preprocessed", "presumed_coord", "PreprocessResult", "PreprocessError",
    "MacroTable", "Macro", "MacroEvent", "CommentIndex", "Token", "ExpansionFrame",
]
