"""Preprocessing layer, step 2: one directive line -> :class:`Directive` (C11 6.10).

In: the tokens of a logical line that starts with ``#`` (from :mod:`.lexer`).
Out: a :class:`Directive` naming what it is and holding the original tokens of its
parts (macro name, parameters, body, expression, header name), or a diagnostic.

The line is rebuilt as text (one space where the source had white space) and parsed
with ``grammars/directives.ppeg``; node offsets map back to the tokens, so every
part keeps its coordinates.  The parse of a given text is cached: headers such as
NSS's pkcs11f.h are read several times and repeat the same lines.
"""
from __future__ import annotations

import functools
import re
from typing import Any

from ..diagnostics import Coord
from ..frozen import frozen_dataclass
from ..peg import Parser, TextCache, grammar_words, parser, shape_of
from ..pegcode import Node, NodeVisitor, VisitationError
from ..pegcode import ParseError as GrammarParseError
from .token import Token


@frozen_dataclass()
class Directive:
    """A parsed directive; the token fields are the original tokens of the line."""

    kind: str  #: define, undef, include, include_next, import, if, ifdef, ifndef, elif, else,
    #: endif, line, error, warning, pragma, ident, null, unknown
    hash_token: Token  #: the '#'
    name_token: Token | None  #: the directive name ("define", ...); None for the null directive
    identifier: Token | None = None  #: macro name of define/undef/ifdef/ifndef
    params: tuple[str, ...] | None = None  #: parameters of a function-like macro
    variadic: bool = False  #: the last parameter is ``...`` or ``name...``
    header: str | None = None  #: ``"x.h"`` or ``<x.h>`` as written
    rest: tuple[Token, ...] = ()  #: body, expression, message or include tokens
    header_token: Token | None = None  #: first token of a literal header name (diagnostics point here)

    @property
    def coord(self) -> Coord:
        return self.hash_token.coord


class DirectiveSyntaxError(Exception):
    """A directive line that directives.ppeg rejects; ``coord`` says where."""

    def __init__(self, message: str, coord: Coord):
        super().__init__(message)
        self.message = message
        self.coord = coord


def directive_parser() -> Parser:
    return parser("directives")


# What the visitor returns for a line: (kind, identifier offset, params, variadic,
# header text, offset where `rest` starts).  Offsets are into the rebuilt text.
_Shape = tuple[str, int | None, tuple[str, ...] | None, bool, str | None, int]


class DirectiveVisitor(NodeVisitor):
    """Walks a directives.ppeg tree bottom-up into a :data:`_Shape`."""

    unwrapped_exceptions = (DirectiveSyntaxError,)

    #: id(expression) -> (its visit method or None, whether the method reads only the node,
    #: the expression itself so that its id stays its own); shared, as the grammar is.
    _dispatch: dict[int, tuple[Any, bool, object]] = {}

    def visit(self, node: Node) -> Any:
        # Same results as NodeVisitor.visit, which builds "visit_" + name and calls getattr
        # for every node: here the method is found once per grammar expression, and the
        # subtrees of rules that read only their node's text or offsets are not walked.
        entry = self._dispatch.get(id(node.expr))
        if entry is None:
            name = node.expr.name
            method = getattr(type(self), "visit_" + name, None) if name else None
            entry = self._dispatch[id(node.expr)] = (method, name in _NODE_ONLY, node.expr)
        method, node_only = entry[0], entry[1]
        try:
            if method is None:
                return self.generic_visit(node, [self.visit(child) for child in node.children])
            return method(self, node, [] if node_only else [self.visit(child) for child in node.children])
        except (DirectiveSyntaxError, VisitationError):
            raise
        except Exception as exc:  # as NodeVisitor does: say where in the tree it happened
            raise VisitationError(exc, type(exc), node) from exc

    # directive = "#" _ directive_body
    def visit_directive(self, node: Node, visited_children: list) -> _Shape:
        _hash, _blank, body = visited_children
        return body

    # directive_body = define / undef / include / ... / unknown
    def visit_directive_body(self, node: Node, visited_children: list) -> _Shape:
        (body,) = visited_children
        return body

    # define = DEFINE_KEYWORD _ IDENTIFIER (object_like / function_like)
    def visit_define(self, node: Node, visited_children: list) -> _Shape:
        _kw, _blank, name, (tail,) = visited_children
        params, variadic, rest = tail
        return ("define", name, params, variadic, None, rest)

    # object_like = !"(" rest
    def visit_object_like(self, node: Node, visited_children: list) -> tuple[None, bool, int]:
        _not, rest = visited_children
        return None, False, rest

    # function_like = macro_params rest
    def visit_function_like(self, node: Node, visited_children: list) -> tuple[tuple[str, ...], bool, int]:
        (names, variadic), rest = visited_children
        return names, variadic, rest

    # macro_params = "(" _ param_list? ")"
    def visit_macro_params(self, node: Node, visited_children: list) -> tuple[tuple[str, ...], bool]:
        _open, _blank, params, _close = visited_children
        if not params:
            return (), False
        (names,) = params
        variadic = any(n.endswith("...") for n in names)
        if any(n.endswith("...") for n in names[:-1]):
            raise DirectiveSyntaxError("'...' must be the last macro parameter", None)  # type: ignore[arg-type]
        cleaned = tuple("__VA_ARGS__" if n == "..." else n.removesuffix("...") for n in names)
        return cleaned, variadic

    # param_list = (param _ "," _)* param _
    def visit_param_list(self, node: Node, visited_children: list) -> list[str]:
        leading, last, _blank = visited_children
        return [item[0] for item in leading] + [last]

    # param = ELLIPSIS / named_variadic / IDENTIFIER
    def visit_param(self, node: Node, visited_children: list) -> str:
        return node.text.replace(" ", "").replace("\t", "")

    # undef = UNDEF_KEYWORD _ IDENTIFIER rest
    def visit_undef(self, node: Node, visited_children: list) -> _Shape:
        _kw, _blank, name, rest = visited_children
        return ("undef", name, None, False, None, rest)

    # include = INCLUDE_KEYWORD !IDCHAR _ (header_name / rest)
    def visit_include(self, node: Node, visited_children: list) -> _Shape:
        keyword, _not, _blank, (target,) = visited_children
        if isinstance(target, tuple):  # header_name: (text, rest offset)
            header, rest = target
            return (keyword, None, None, False, header, rest)
        return (keyword, None, None, False, None, target)

    # header_name = (Q_HEADER_NAME / H_HEADER_NAME) _ rest
    def visit_header_name(self, node: Node, visited_children: list) -> tuple[str, int]:
        (name,), _blank, rest = visited_children
        return (name.text, rest)

    # INCLUDE_KEYWORD = ~r"include_next|include|import"
    def visit_INCLUDE_KEYWORD(self, node: Node, visited_children: list) -> str:
        return node.text

    # ifdef = "ifdef" !IDCHAR _ IDENTIFIER rest
    def visit_ifdef(self, node: Node, visited_children: list) -> _Shape:
        _kw, _not, _blank, name, rest = visited_children
        return ("ifdef", name, None, False, None, rest)

    # ifndef = "ifndef" !IDCHAR _ IDENTIFIER rest
    def visit_ifndef(self, node: Node, visited_children: list) -> _Shape:
        _kw, _not, _blank, name, rest = visited_children
        return ("ifndef", name, None, False, None, rest)

    def _keyword_rest(self, kind: str, visited_children: list) -> _Shape:
        return (kind, None, None, False, None, visited_children[-1])

    # if = "if" !IDCHAR rest
    def visit_if(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("if", visited_children)

    # elif = "elif" !IDCHAR rest
    def visit_elif(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("elif", visited_children)

    # else = "else" !IDCHAR rest
    def visit_else(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("else", visited_children)

    # endif = "endif" !IDCHAR rest
    def visit_endif(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("endif", visited_children)

    # line = "line" !IDCHAR rest
    def visit_line(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("line", visited_children)

    # error = "error" !IDCHAR rest
    def visit_error(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("error", visited_children)

    # warning = "warning" !IDCHAR rest
    def visit_warning(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("warning", visited_children)

    # pragma = "pragma" !IDCHAR rest
    def visit_pragma(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("pragma", visited_children)

    # ident = ~r"ident|sccs" !IDCHAR rest
    def visit_ident(self, node: Node, visited_children: list) -> _Shape:
        return self._keyword_rest("ident", visited_children)

    # null_directive = _ END
    def visit_null_directive(self, node: Node, visited_children: list) -> _Shape:
        return ("null", None, None, False, None, node.end)

    # unknown = IDENTIFIER rest
    def visit_unknown(self, node: Node, visited_children: list) -> _Shape:
        return ("unknown", None, None, False, None, visited_children[-1])

    # rest = _ ~r".*"
    def visit_rest(self, node: Node, visited_children: list) -> int:
        return node.children[1].start

    # IDENTIFIER = ~r"[A-Za-z_$][A-Za-z0-9_$]*"  (its offset; the token is looked up later)
    def visit_IDENTIFIER(self, node: Node, visited_children: list) -> int:
        return node.start

    def generic_visit(self, node: Node, visited_children: list) -> object:
        # Sequences give their children; an unmatched `?` gives [] so it tests false.
        if node.children:
            return visited_children
        return node if node.text else []


#: rules whose visit method reads only the node (its text, offsets or raw children)
_NODE_ONLY = frozenset({"param", "INCLUDE_KEYWORD", "null_directive", "rest", "IDENTIFIER"})


#: the shape of each directive text parsed lately (``#define NAME value`` shapes repeat)
_SHAPES = TextCache(entries=8192, chars=1 << 18)


def _shape_of(text: str) -> _Shape | tuple[str, int]:
    """Parse one rebuilt directive text; ("!", offset) when the grammar rejects it."""
    return _SHAPES.kept(text, len(text), lambda: _read_shape(text))


def _read_shape(text: str) -> _Shape | tuple[str, int]:
    try:
        tree = directive_parser().parse(text)
    except GrammarParseError as err:
        return ("!", err.pos)
    try:
        return DirectiveVisitor().visit(tree)
    except (DirectiveSyntaxError, VisitationError):
        return ("!...", 0)


def rebuild(tokens: list[Token], *, shaped: bool = False) -> tuple[str, dict[int, int]]:
    """The text of a token line and the map offset -> token index.

    ``shaped`` writes numbers as ``0`` and identifiers the grammar does not
    name as :data:`pegbind.peg.PLACEHOLDER`: the grammar reads neither by its
    spelling, so every ``#define NAME value`` of a header parses once.
    """
    words = grammar_words("directives") if shaped else frozenset()
    parts: list[str] = []
    starts: dict[int, int] = {}
    offset = 0
    for index, token in enumerate(tokens):
        if index and token.space_before:
            parts.append(" ")
            offset += 1
        starts[offset] = index
        text = token.text
        if shaped and token.kind == "identifier":
            text = shape_of(text, words)
        elif shaped and token.kind == "number":
            text = "0"
        parts.append(text)
        offset += len(text)
    starts[offset] = len(tokens)
    return "".join(parts), starts


_MESSAGES = {
    "define": "macro names must be identifiers",
    "undef": "macro names must be identifiers",
    "ifdef": "no macro name given in #ifdef directive",
    "ifndef": "no macro name given in #ifndef directive",
    "include": "#include expects \"FILENAME\" or <FILENAME>",
    "include_next": "#include_next expects \"FILENAME\" or <FILENAME>",
}


#: an identifier as directives.ppeg's IDENTIFIER reads one (a parameter, a function-like macro's name)
_GRAMMAR_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def _definition(tokens: list[Token]) -> Directive | None:
    """A well-formed ``#define`` or ``#undef`` of a name, read without the grammar, as it reads it.

    With the includes (:func:`_inclusion`), these are nine directives in ten
    that reach the grammar, which read each from its whole line rebuilt as
    text, the body of a long ``#define`` too (a function-like one's afresh,
    its parameters' names in its shape).  None for any other line, and for
    one the grammar rejects, which it words the error for.
    """
    if len(tokens) < 3 or tokens[2].kind != "identifier" or tokens[1].text not in ("define", "undef"):
        return None
    hash_token, keyword, name = tokens[0], tokens[1], tokens[2]
    if keyword.text == "undef" or len(tokens) == 3 or tokens[3].text != "(" or tokens[3].space_before:
        # an object-like macro's or an #undef's name is read in its shape (see rebuild)
        if not _GRAMMAR_IDENTIFIER.match(shape_of(name.text, grammar_words("directives"))):
            return None
        return Directive(keyword.text, hash_token, keyword, name, None, False, None, tuple(tokens[3:]))
    if not _GRAMMAR_IDENTIFIER.match(name.text):
        return None
    names: list[str] = []
    index = 4
    if index < len(tokens) and tokens[index].text == ")":
        index += 1
    else:
        while True:  # param ("," param)* ")", a param: "...", NAME or NAME "..."
            if index >= len(tokens):
                return None
            token = tokens[index]
            if token.text == "...":
                names.append("...")
            elif token.kind == "identifier" and _GRAMMAR_IDENTIFIER.match(token.text):
                ellipsis = index + 1 < len(tokens) and tokens[index + 1].text == "..."
                names.append(token.text + "..." if ellipsis else token.text)
                index += ellipsis
            else:
                return None
            index += 1
            if index >= len(tokens) or tokens[index].text not in (",", ")"):
                return None
            index += 1
            if tokens[index - 1].text == ")":
                break
        if any(n.endswith("...") for n in names[:-1]):
            return None
    variadic = bool(names) and names[-1].endswith("...")
    params = tuple("__VA_ARGS__" if n == "..." else n.removesuffix("...") for n in names)
    return Directive("define", hash_token, keyword, name, params, variadic, None, tuple(tokens[index:]))


def _inclusion(tokens: list[Token]) -> Directive | None:
    """An ``#include`` (``#include_next``, ``#import``) of a header name written out, ``"x.h"``
    or ``<x.h>``, read without the grammar, as it reads it; None for any other line."""
    if len(tokens) < 3 or tokens[1].text not in ("include", "include_next", "import"):
        return None
    target = tokens[2]
    if target.kind == "string" and target.text[0] == '"' and target.text.count('"') == 2:
        header, end = target.text, 3
    elif target.text == "<":
        # the header name runs to the first ">" of the line as written, one space where it had any
        for end in range(3, len(tokens)):
            if ">" in tokens[end].text:
                break
        else:
            return None
        if tokens[end].text != ">":
            return None
        end += 1
        header = "<" + "".join((" " if t.space_before else "") + t.text for t in tokens[3:end])
    else:
        return None
    return Directive(tokens[1].text, tokens[0], tokens[1], None, None, False, header, tuple(tokens[end:]), target)


def parse_directive(tokens: list[Token]) -> Directive:
    """Parse a logical line whose first token is ``#``; raises :class:`DirectiveSyntaxError`."""
    quick = _definition(tokens) or _inclusion(tokens)
    directive = quick if quick is not None else _parsed_directive(tokens)
    if directive.params and len(set(directive.params)) < len(directive.params):
        # each parameter's name once (C11 6.10.3p6), as gcc words it, at the second
        seen: set[str] = set()
        for token in tokens[4:]:
            if token.text == ")":
                break
            if token.kind == "identifier" and token.text in seen:
                raise DirectiveSyntaxError(f'duplicate macro parameter "{token.text}"', token.coord)
            seen.add(token.text)
    return directive


def _parsed_directive(tokens: list[Token]) -> Directive:
    """A directive line as directives.ppeg reads it."""
    # Includes and function-like macros keep their spelling: their shapes carry
    # the header name and the parameter names (a "(" touching the name, C11 6.10.3p3).
    shaped = len(tokens) < 2 or tokens[1].text not in ("include", "include_next", "import") and not (
        tokens[1].text == "define" and len(tokens) > 3 and tokens[3].text == "(" and not tokens[3].space_before
    )
    text, starts = rebuild(tokens, shaped=shaped)
    shape = _shape_of(text)
    hash_token = tokens[0]
    name_token = tokens[1] if len(tokens) > 1 else None
    if shape[0] == "unknown" and name_token is not None and name_token.text in _KNOWN:
        shape = ("!", 0)  # a known directive that its own rule rejected
    if shape[0] in ("!", "!..."):
        where = name_token or hash_token
        if shape[0] == "!...":
            raise DirectiveSyntaxError("'...' must be the last macro parameter", where.coord)
        name = name_token.text if name_token is not None else ""
        if name == "define" and len(tokens) > 2 and tokens[2].kind == "identifier":
            bad = _bad_parameter(tokens[3:])
            raise DirectiveSyntaxError(f'expected parameter name, found "{bad.text}"', bad.coord)
        message = _MESSAGES.get(name, f"malformed #{name} directive")
        bad = tokens[2] if len(tokens) > 2 else where
        raise DirectiveSyntaxError(message, bad.coord)
    kind, ident_at, params, variadic, header, rest_at = shape  # type: ignore[misc]
    identifier = tokens[starts[ident_at]] if ident_at is not None else None
    rest = tuple(tokens[starts.get(rest_at, len(tokens)) :])
    header_token = tokens[2] if header is not None and len(tokens) > 2 else None
    return Directive(
        kind, hash_token, name_token if kind != "null" else None, identifier, params, variadic, header, rest,
        header_token,
    )


_KNOWN = frozenset(
    ("define undef include include_next import ifdef ifndef if elif else endif line error warning pragma ident "
     "sccs").split()
)


def _bad_parameter(tokens: list[Token]) -> Token:
    """The first token of a parameter list ``( a , b )`` that is out of place."""
    expect_name = True
    for token in tokens[1:]:
        if expect_name and (token.kind == "identifier" or token.text == "..."):
            expect_name = False
        elif not expect_name and token.text == ",":
            expect_name = True
        elif not expect_name and token.text == ")":
            continue
        else:
            return token
    return tokens[-1] if tokens else Token("punct", ")", "<directive>", 0, 0)


# ---- #pragma pack ---------------------------------------------------------------------------


class PackVisitor(NodeVisitor):
    """Walks pack_pragma into (action, value): action is "set", "push", "pop" or "show"."""

    # pack_pragma = _ "pack" _ "(" _ pack_args? ")" _ END
    def visit_pack_pragma(self, node: Node, visited_children: list) -> tuple[str, int | None]:
        _b1, _kw, _b2, _open, _b3, args, _close, _b4, _end = visited_children
        if not args:
            return ("set", None)
        (found,) = args
        return found

    # pack_args = pack_action? pack_label? pack_value? _
    def visit_pack_args(self, node: Node, visited_children: list) -> tuple[str, int | None]:
        action, _label, value, _blank = visited_children
        number = value[0] if value else None
        return (action[0] if action else "set", number)

    # pack_action = ~r"push|pop|show" _ ","? _
    def visit_pack_action(self, node: Node, visited_children: list) -> str:
        return node.children[0].text

    # pack_value = NUMBER _
    def visit_pack_value(self, node: Node, visited_children: list) -> int:
        return int(node.children[0].text, 0)

    def generic_visit(self, node: Node, visited_children: list) -> object:
        # Sequences give their children; an unmatched `?` gives [] so it tests false.
        if node.children:
            return visited_children
        return node if node.text else []


@functools.lru_cache(maxsize=256)
def parse_pack(text: str) -> tuple[str, int | None] | None:
    """``#pragma`` text after "pragma" -> (action, value), or None if it is not ``pack(...)``."""
    try:
        tree = directive_parser().parse(text, "pack_pragma")
        return PackVisitor().visit(tree)
    except (GrammarParseError, ValueError):
        return None
