"""Parse layer, step 1: tokens of one declaration -> :mod:`~pegbind.parse.syntax` nodes.

In: a slice of the preprocessed token stream (one top-level declaration, or
one macro body).  Out: a :class:`~pegbind.parse.syntax.Declaration` /
:class:`~pegbind.parse.syntax.StaticAssert` or an expression node, or a
:class:`SyntaxProblem` locating the first token the grammar could not take.

parsimonious parses strings, so the tokens' spellings are joined with single
spaces and :class:`TokenText` maps every character offset back to its token
(and so to the original ``file:line:col``).

The grammar needs no typedef table: it tells identifiers apart only from
the words it names (keywords, ``aligned``, ...).  So every other identifier
is written as one placeholder, as is every literal, and declarations of the
same shape -- ``typedef CK_ULONG CK_FLAGS;`` and ``typedef CK_BYTE
CK_CHAR;``, the hundred ``typedef X * X_PTR;`` of PKCS#11, ``#define
SQLITE_IOERR_READ (SQLITE_IOERR | (1<<8))`` and its forty siblings -- share
one parse, kept in a bounded cache.  The walker reads names and literals
from the tokens, never from the parsed text.

The walk of a shape is shared too: its syntax, made from the first
declaration of that shape, is remade for the next ones with their tokens in
the same places, by a function written for that shape (:func:`_remaker`).  A
walk that read an identifier's text (an attribute's name, ``offsetof``'s
member) is not shared.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from ..frozen import field_values, frozen_dataclass, maker, replace
from ..patterns import compiled
from ..peg import MAX_NESTING, Parser, TextCache, grammar_words, nesting_room, parser, shape_of, token_starts, too_deep
from ..pegcode import Expression, IncompleteParseError, Node, NodeVisitor, OneOf, Quantifier, Regex
from ..pegcode import ParseError as PegParseError
from ..pegcode import Sequence as PegSequence
from ..preprocess.cexpr import BINARY_PRECEDENCE, by_precedence
from ..preprocess.token import Token
from . import syntax as s
from .split import NOISE_CALLS


def declaration_parser() -> Parser:
    """What parses ``grammars/declarations.ppeg``'s rules (:mod:`pegbind.pegcode`)."""
    return parser("declarations")


class TokenText:
    """The space-joined text of some tokens as the grammar sees it, with offset -> token lookup.

    ``text`` has the placeholder for every identifier the grammar does not
    name (:func:`pegbind.peg.shape_of`), and for every literal (:func:`_literal_shapes`).
    """

    __slots__ = ("tokens", "text", "_pieces", "_starts", "read_text")

    def __init__(self, tokens: Sequence[Token]):
        self.tokens = tuple(tokens)
        #: whether the walk read the tokens' own text, which identifiers do not share with
        #: other declarations of the shape (see :func:`_walk`)
        self.read_text = False
        words = grammar_words("declarations")
        literals = _literal_shapes()
        pieces = []
        shapes: dict[str, str] = {}  # an identifier's or a literal's spelling -> its piece
        for token in self.tokens:
            kind, spelling = token.kind, token.text
            if kind == "punct":
                pieces.append(spelling)
                continue
            piece = shapes.get(spelling)  # a spelling is always lexed as one kind
            if piece is None:
                if kind == "identifier":
                    piece = shape_of(spelling, words)
                elif kind in literals:
                    leaf, placeholder = literals[kind]
                    piece = placeholder if leaf(spelling) else spelling
                else:
                    piece = spelling
                shapes[spelling] = piece
            pieces.append(piece)
        self._hold(pieces)

    def _hold(self, pieces: list[str]) -> None:
        self._pieces = pieces
        self.text = " ".join(pieces) + " "
        self._starts: list[int] | None = None  # where each token starts in text: made when first asked

    def part(self, start: int, stop: int) -> TokenText:
        """The text of ``tokens[start:stop]``, from this one's pieces (a token's piece depends
        on the token alone): a declaration parsed apart is not read again token by token."""
        return self._made(self.tokens[start:stop], self._pieces[start:stop])

    def without(self, start: int, stop: int) -> TokenText:
        """The text of the tokens but ``tokens[start:stop]`` (see :meth:`part`)."""
        return self._made(self.tokens[:start] + self.tokens[stop:], self._pieces[:start] + self._pieces[stop:])

    @classmethod
    def _made(cls, tokens: tuple[Token, ...], pieces: list[str]) -> TokenText:
        made = cls.__new__(cls)
        made.tokens, made.read_text = tokens, False
        made._hold(pieces)
        return made

    def _token_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = token_starts(self._pieces)
        return self._starts

    def spelling(self, start: int, end: int) -> str:
        """The tokens' own text between two offsets of ``text``, one space between tokens."""
        if end <= start:
            return ""
        self.read_text = True
        first, last = self.index_at(start), self.index_at(end - 1)
        return " ".join(token.text for token in self.tokens[first : last + 1])

    def token_at(self, offset: int) -> Token:
        index = max(0, bisect_right(self._token_starts(), offset) - 1)
        return self.tokens[min(index, len(self.tokens) - 1)]

    def index_at(self, offset: int) -> int:
        return max(0, bisect_right(self._token_starts(), offset) - 1)


@functools.cache
def _literal_shapes() -> dict[str, tuple[Callable[[str], Any], str]]:
    """Token kind -> (whether a token is all of the grammar's leaf for it, what stands for it).

    The walker reads a number, character constant or string from its token,
    never from the text (``visit_NUMBER``), so ``char b[4]`` and ``char b[8]``,
    ``(1 << 8)`` and ``(1 << 9)``, are one shape.  A literal its leaf would not
    take whole keeps its spelling, so where the grammar stops is unchanged.
    """
    grammar = declaration_parser()
    shapes: dict[str, tuple[Callable[[str], Any], str]] = {}
    for kind, leaf, placeholder in (("number", "NUMBER", "0"), ("char", "CHAR", "'0'"), ("string", "STRING", '""')):
        expression = grammar[leaf]
        assert isinstance(expression, Regex) and expression.pattern.endswith(" *")
        assert expression.re.fullmatch(placeholder), f"{leaf} must take {placeholder}"
        shapes[kind] = (compiled(expression.pattern[: -len(" *")]).fullmatch, placeholder)
    return shapes


@frozen_dataclass()
class SyntaxProblem:
    """Where and why the grammar stopped."""

    token: Token | None  #: the first token not accepted; None at the end of the input
    message: str
    #: the input is beyond one of pegbind's limits (not a syntax error: the message names the limit)
    beyond_limit: bool = False


#: grammar rule -> how a reader would name it in "expected ..."
_EXPECTED = {
    "OPERAND_RUN": "an expression",
    "SEMI": "';'",
    "COMMA": "','",
    "COLON": "':'",
    "RPAREN": "')'",
    "LPAREN": "'('",
    "RBRACE": "'}'",
    "LBRACE": "'{'",
    "RBRACKET": "']'",
    "IDENTIFIER": "an identifier",
    "type_specifier": "a type specifier",
    "decl_specifiers": "a type specifier",
    "declarator": "a declarator",
    "parameter": "a parameter declaration",
    "constant_expression": "an expression",
    "conditional_expression": "an expression",
    "expression": "an expression",
    "primary_expression": "an expression",
    "member_declaration": "a member declaration or '}'",
    "enumerator": "an enumerator",
    "init_declarator": "a declarator",
}


def _describe(error: PegParseError, text: TokenText, ending: str) -> SyntaxProblem:
    at_end = error.pos >= len(text.text.rstrip())
    token = None if at_end else text.token_at(error.pos)
    name = getattr(error.expr, "name", "") or ""
    expected = _EXPECTED.get(name) or ("an expression" if name.endswith("_expression") else None)
    if expected is None:
        literal = getattr(error.expr, "literal", None)
        expected = f"'{literal}'" if literal else "a declaration"
    if token is None:
        return SyntaxProblem(None, f"expected {expected} at end of {ending}")
    return SyntaxProblem(token, f"expected {expected} before '{token.text}'")


#: (rule, shape) -> its parse tree or error, for shapes whose declarations are not remade
#: from a shared walk (see _walk); a tree takes about half a kilobyte a character of its shape
_TREES = TextCache(entries=512, chars=1 << 15)


def _parse_shape(rule: str, text: str) -> Node | PegParseError:
    """The parse tree of one declaration shape, or the error; shared by same-shaped text."""
    def parse() -> Node | PegParseError:
        try:
            return declaration_parser().parse(text, rule)
        except PegParseError as error:  # IncompleteParseError too: told apart by the caller
            # kept without its traceback, whose frames hold the whole run that raised it
            return error.with_traceback(None)
    return _TREES.kept((rule, text), len(text), parse)


class _SharedWalk:
    """The syntax the first declaration of a shape gave, and where each of its tokens is."""

    __slots__ = ("syntax", "tokens", "places", "remake")

    def __init__(self, syntax: Any, tokens: tuple[Token, ...]):
        self.syntax = syntax
        self.tokens = tokens
        #: a token's identity -> its index in ``tokens``; made at the first reuse
        self.places: dict[int, int] | None = None
        #: the syntax remade from another declaration's tokens; compiled at the second reuse
        self.remake: Callable[[Sequence[Token]], Any] | None = None

    def reuse(self, tokens: Sequence[Token]) -> Any:
        """The syntax of another declaration of the shape, its ``tokens`` in the places of
        this one's; None where it cannot be remade from token places (see :func:`_remaker`).

        Most shapes that come again come once (16 of sqlite3.h's 34, 39 of
        curl.h's 80): compiling a remaker (about 0.15 ms) for one use cost more
        than the generic :func:`_rebind`, which the first reuse takes.
        """
        if self.remake is not None:
            return self.remake(tokens)
        with nesting_room():  # deep syntax is checked by a walk that recurses once per level
            if self.places is None:
                places = {id(token): index for index, token in enumerate(self.tokens)}
                if len(places) != len(self.tokens):
                    return None
                try:
                    remade = _rebind(self.syntax, places, tokens)
                except KeyError:  # a token not of the declaration's own
                    return None
                self.places = places
                return remade
            self.remake = _remaker(self.syntax, self.places)
        return self.remake(tokens)


#: (rule, shape) -> its shared walk; None for a shape whose syntax depends on more than the
#: places of its tokens (its walk read an identifier's text, or a token stands in two places)
_WALKS = TextCache(entries=1024, chars=1 << 18)
#: the field names of each syntax class, in order (empty for values that hold no token)
_FIELDS: dict[type, tuple[str, ...]] = {}
#: syntax nested deeper than this is remade by :func:`_rebind` (Python's own compiler has a nesting limit)
_MAX_COMPILED_DEPTH = 60


def _field_names(kind: type) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = (
            tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else ())
    return names


def _rebind(value: Any, places: dict[int, int], tokens: Sequence[Token]) -> Any:
    """``value`` (syntax, or what it holds) with each token replaced by the one of ``tokens``
    in its place (``places``: a token's identity -> its index); KeyError for a foreign token."""
    kind = type(value)
    if kind is Token:
        return tokens[places[id(value)]]
    if kind is tuple:
        return tuple([_rebind(item, places, tokens) for item in value])
    if kind is list:
        return [_rebind(item, places, tokens) for item in value]
    names = _field_names(kind)
    if not names:
        return value  # a string, a number, None
    return maker(kind)(*[_rebind(getattr(value, name), places, tokens) for name in names])


class _TooDeep(Exception):
    pass


def _written(value: Any, depth: int, places: dict[int, int], values: list[Any]) -> str:
    """``value`` as the expression :func:`_remaker` compiles; classes and other values go into ``values``."""
    if depth > _MAX_COMPILED_DEPTH:
        raise _TooDeep
    kind = type(value)
    if kind is Token:
        return f"t[{places[id(value)]}]"
    if kind is tuple or kind is list:
        items = "".join(f"{_written(item, depth + 1, places, values)}, " for item in value)
        return f"({items})" if kind is tuple else f"[{items}]"
    if value is None or kind is bool:
        return repr(value)
    names = _field_names(kind)
    values.append(maker(kind) if names else value)  # a syntax class, made without its call (see frozen.maker)
    if not names:
        return f"k[{len(values) - 1}]"
    written = len(values) - 1
    arguments = "".join(f"{_written(getattr(value, name), depth + 1, places, values)}, " for name in names)
    return f"k[{written}]({arguments})"


def _remaker(syntax: Any, places: dict[int, int]) -> Callable[[Sequence[Token]], Any]:
    """A function of a declaration's tokens giving what :func:`_rebind` gives, written out.

    A shape can stand for thousands of declarations (a generated header's
    prototypes, PKCS#11's pointer typedefs); walking the shared syntax
    generically for each costs several times the constructor calls it makes.
    So the calls are written once as one Python expression -- ``k[3](k[4](t[0], ()), ...)``,
    nothing of the header's text in it: token places, and classes and other
    values from ``k`` -- and compiled.  ``places`` are those of the tokens the
    syntax holds, each once (:meth:`_SharedWalk.reuse` has remade it once).
    """
    values: list[Any] = []
    try:
        expression = _written(syntax, 0, places, values)
    except _TooDeep:
        def remake_deep(tokens: Sequence[Token]) -> Any:
            with nesting_room():  # _rebind recurses once per level
                return _rebind(syntax, places, tokens)
        return remake_deep
    code = compile(f"lambda t: {expression}", "<pegbind: a shared walk>", "eval")
    return eval(code, {"__builtins__": {}, "k": tuple(values)})  # noqa: S307 - indices and names of k only


def forget_shapes() -> None:
    """Drop every shape's parse and walk this process keeps, as a new process starts
    (for measurements of a cold parse; the caches are bounded anyway)."""
    _TREES.clear()
    _WALKS.clear()
    _APART.clear()


def _walk(tree: Node, text: TokenText, rule: str) -> Any:
    """The syntax of ``tree``, parsed from ``text``; the first of a shape is kept as its
    shared walk where it read nothing but the tokens' places (see :func:`parse_syntax`)."""
    result = SyntaxWalker(text).visit(tree)
    key = (rule, text.text)
    if key not in _WALKS:
        if text.read_text:
            _WALKS.put(key, len(text.text), None)
        else:
            _WALKS.put(key, len(text.text), _SharedWalk(result, text.tokens))
            _TREES.pop(key)  # the shape's other declarations are remade from the walk
    return result


#: a declaration of more tokens than this whose record body is long parses its members apart
#: (see :func:`_by_members`)
MEMBERS_APART = 256
#: the fewest parameters a list parsed apart has (see :func:`_by_parameters`).  Parsed whole, a
#: declaration's shape is as varied as its parameters, so few declarations share one; apart, the
#: outer shapes and the parameters' come again and again (sqlite3.h was read with 270 parses of
#: the grammar, now 162).
PARAMETERS_APART = 2


def parse_syntax(tokens: Sequence[Token], rule: str = "declaration", text: TokenText | None = None) -> Any:
    """Parse ``tokens`` with ``rule``; a syntax node, or a :class:`SyntaxProblem` (``text``:
    their :class:`TokenText`, where it is made already).

    A declaration is parsed apart where it can be (see :func:`_by_parameters`), the first
    time its shape comes; the second time it is parsed whole, and from then on remade from
    that walk (see :func:`_walk`): a generated header's thousands of prototypes of one
    shape took twice as long parsed apart each time."""
    if rule not in ("declaration", "member_declaration"):
        return _parse_whole(tokens, rule, text)
    if text is None:
        text = TokenText(tokens)
    key = (rule, text.text)
    if _WALKS.get(key) is None and _APART.get(key) is None:
        brackets = _brackets(tokens)  # scanned once, for either way of parsing apart
        if brackets is not None:
            apart = _by_members(text, rule, brackets) if len(tokens) > MEMBERS_APART else None
            if apart is None:
                apart = _by_parameters(text, rule, brackets)
            if apart is not None:
                _APART.put(key, len(text.text), True)
                return apart
    return _parse_whole(tokens, rule, text)


#: (rule, shape) -> True, for the shapes :func:`parse_syntax` has parsed apart once
_APART = TextCache(entries=1024, chars=1 << 18)


def _by_parameters(text: TokenText, rule: str, brackets: _Brackets) -> Any:
    """The syntax of a declaration (or a member, ``rule``) whose longest parameter list is
    parsed parameter by parameter, as :func:`_by_members` parses a body; None where that
    does not apply, or where any part does not parse (the whole is parsed then).

    The parenthesized group with the most commas of its own level is taken for the list,
    outside the groups an attribute or a static assertion opens (``format(printf, 1, 2)``
    is no parameter list: trying it cost a second parse).  The declaration is parsed with
    its first parameter alone there, each parameter by the ``parameter`` rule, and the
    list put in place of the one-parameter list the parse made at that parenthesis: what
    a parse of the whole gives, as a parameter ends only at a comma of the list's level.
    """
    tokens = text.tokens
    closing, marks_of = brackets
    noise = [(index, closing[index + 1]) for index, token in enumerate(tokens[:-1])
             if token.text in _NOT_PARAMETERS and index + 1 in closing]
    opening = max((index for index in marks_of if tokens[index].text == "("
                   and not any(start < index < end for start, end in noise)),
                  key=lambda index: len(marks_of[index]), default=None)
    if opening is None or len(marks_of[opening]) + 1 < PARAMETERS_APART:
        return None
    marks, end = marks_of[opening], closing[opening]
    if any(tokens[index].text == ";" for index in marks):
        return None  # no parameter list
    pieces = [text.part(start + 1, stop) for start, stop in zip([opening, *marks], [*marks, end], strict=True)]
    variadic = len(pieces[-1].tokens) == 1 and pieces[-1].tokens[0].text == "..."
    if variadic:
        pieces.pop()
    outer_text = text.without(marks[0], end)
    outer = parse_syntax(outer_text.tokens, rule, outer_text)
    with nesting_room():  # the syntax nests as deep as its declarators
        path = _path_to_params(outer, tokens[opening])
        if path is None:
            return None
        found = path[0][0]
        if len(found.params) != 1 or found.variadic:
            return None
        params = [found.params[0]]
        for piece in pieces[1:]:
            param = _parse_whole(piece.tokens, "parameter", piece)
            if not isinstance(param, s.ParamSyntax):
                return None
            params.append(param)
        return _rebuilt(path, replace(found, params=tuple(params), variadic=variadic))


#: words whose parenthesized group holds no parameter list (see :func:`_by_parameters`)
_NOT_PARAMETERS = NOISE_CALLS | {"_Static_assert", "static_assert"}

#: where each bracket of a declaration closes, and where its own level has a "," or a ";" (by index)
_Brackets = tuple[dict[int, int], dict[int, list[int]]]


def _brackets(tokens: Sequence[Token]) -> _Brackets | None:
    """Where each ``(``, ``[`` or ``{`` of ``tokens`` closes, and where its own level has a
    ``,`` or a ``;`` (each by index); None where the brackets do not pair."""
    closers = {"(": ")", "[": "]", "{": "}"}
    opened: list[int] = []
    closing: dict[int, int] = {}
    marks: dict[int, list[int]] = {}
    for index, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        text = token.text
        if text in closers:
            opened.append(index)
            marks[index] = []
        elif text in (")", "]", "}"):
            if not opened or closers[tokens[opened[-1]].text] != text:
                return None
            closing[opened.pop()] = index
        elif text in (",", ";") and opened:
            marks[opened[-1]].append(index)
    return None if opened else (closing, marks)


def _parts(syntax: Any) -> Sequence[Any]:
    """What a syntax node, tuple or list holds, to search it; nothing for a token, a value or
    an expression (which may nest as deep as a chain is long)."""
    kind = type(syntax)
    if kind is tuple or kind is list:
        return syntax
    parts = _PARTS.get(kind)
    if parts is None:
        parts = _PARTS[kind] = _parts_of(kind)
    return parts(syntax)


#: a syntax class -> the function giving what an instance holds (see :func:`_parts`)
_PARTS: dict[type, Callable[[Any], Sequence[Any]]] = {}


def _parts_of(kind: type) -> Callable[[Any], Sequence[Any]]:
    return field_values(() if kind is Token or issubclass(kind, s.Expr) else _field_names(kind))


#: what a syntax node holds that holds nothing to search
_HOLD_NOTHING = frozenset({Token, str, int, bool, type(None)})


def _path_to_params(syntax: Any, opening: Token) -> list[tuple[Any, int]] | None:
    """The way down from ``syntax`` to its parameter list that opens at ``opening``, outside
    expressions: each node passed and the index of its part taken, innermost first, the list
    itself first of all (with index -1); None where there is none."""
    if type(syntax) is s.ParamsSuffix and syntax.token is opening:
        return [(syntax, -1)]
    for index, value in enumerate(_parts(syntax)):
        kind = type(value)
        if kind in _HOLD_NOTHING or (kind is tuple and not value):
            continue  # most parts are tokens, words and empty tuples: not called for
        path = _path_to_params(value, opening)
        if path is not None:
            path.append((syntax, index))
            return path
    return None


def _rebuilt(path: list[tuple[Any, int]], new: Any) -> Any:
    """The outermost node of ``path`` (see :func:`_path_to_params`) with its innermost replaced
    by ``new``: only the nodes on the way are made again."""
    for node, index in path[1:]:
        values = list(_parts(node))
        values[index] = new
        kind = type(node)
        new = kind(values) if kind is tuple or kind is list else kind(*values)
    return new


def _parse_whole(tokens: Sequence[Token], rule: str, text: TokenText | None = None) -> Any:
    """:func:`parse_syntax`, of the tokens as one text (``text``, where it is made already)."""
    if text is None:
        text = TokenText(tokens)
    key = (rule, text.text)
    shared = _WALKS.get(key)
    if shared is not None:
        # a shape parsed and walked before: within the nesting limit, which
        # only the tokens it does not replace by the placeholder decide
        assert isinstance(shared, _SharedWalk)
        remade = shared.reuse(text.tokens)
        if remade is not None:
            return remade
        _WALKS.put(key, len(text.text), None)  # not shared after all: parsed and walked each time
    ending = "declaration" if rule == "declaration" else "expression"
    deep = too_deep((token.text for token in tokens), text.text)
    if deep is not None:
        message = f"{ending} nested more than {MAX_NESTING} levels deep (pegbind's limit)"
        return SyntaxProblem(tokens[deep], message, beyond_limit=True)
    with nesting_room():
        try:
            tree = _parse_shape(rule, text.text)
            if isinstance(tree, IncompleteParseError):
                token = text.token_at(tree.pos)
                return SyntaxProblem(token, f"unexpected '{token.text}' after the end of the {ending}")
            if isinstance(tree, PegParseError):
                return _describe(tree, text, ending)
            return _walk(tree, text, rule)
        except RecursionError:  # nesting too_deep does not count (a chain of casts): the same limit, at its start
            message = f"{ending} nested more than {MAX_NESTING} levels deep (pegbind's limit)"
            return SyntaxProblem(tokens[0] if tokens else None, message, beyond_limit=True)


def _by_members(text: TokenText, rule: str,
                brackets: _Brackets) -> s.Declaration | s.MemberDeclaration | None:
    """The syntax of a declaration (or a member, ``rule``) with a record or enum body, its
    members parsed one by one; None where that does not apply, or where any part does not parse.

    Parsed as one text, every member of a long body descends the whole grammar (a
    megabyte of ``int m1;`` ... took 3.6 s).  Apart, members of one shape are remade
    from the first one's walk, as declarations of one shape are.  The declaration is
    parsed with its body empty, each member by its rule (``member_declaration``,
    ``enumerator``), and the members put in the body's place: the syntax a parse of the
    whole gives.  Where anything does not parse, the whole is parsed instead, so an
    error is told as before.
    """
    tokens = text.tokens
    opening = next((i for i, token in enumerate(tokens) if token.text == "{" and token.kind == "punct"), None)
    if opening is None:
        return None
    # where the body ends, and where its own level has a ';' or a ','
    closing, marks = brackets[0][opening], brackets[1][opening]
    outer_text = text.without(opening + 1, closing)
    outer = _parse_whole(outer_text.tokens, rule, outer_text)
    specifiers = outer.specifiers if isinstance(outer, (s.Declaration, s.MemberDeclaration)) else None
    if specifiers is None:
        return None
    record, enum = specifiers.record, specifiers.enum
    if record is not None and record.lbrace is tokens[opening] and record.members == ():
        # members end at each ';' (a ',' of the body's level parts declarators)
        ends = [index for index in marks if tokens[index].text == ";"]
        if (ends[-1] if ends else opening) != closing - 1:
            return None  # a member without its ';': said as the whole says it
        members: list[s.MemberDeclaration | s.StaticAssert] = []
        for start, end in zip([opening, *ends], ends, strict=False):
            if end == start + 1:
                continue  # ';' alone declares nothing (visit_record_specifier drops it too)
            part = text.part(start + 1, end + 1)
            member = parse_syntax(part.tokens, "member_declaration", part)  # a long one apart too
            if not isinstance(member, (s.MemberDeclaration, s.StaticAssert)):
                return None
            members.append(member)
        specifiers = replace(specifiers, record=replace(record, members=tuple(members)))
    elif enum is not None and enum.members == () and tokens[opening - 1] is (enum.tag or enum.keyword):
        # enumerators between the ','s (the body has no ';'), the last one's optional
        if any(tokens[index].text == ";" for index in marks):
            return None
        enumerators: list[s.Enumerator] = []
        for start, end in zip([opening, *marks], [*marks, closing], strict=True):
            if end == start + 1 and end == closing and enumerators:
                break  # the ',' after the last one
            part = text.part(start + 1, end)
            enumerator = _parse_whole(part.tokens, "enumerator", part)
            if not isinstance(enumerator, s.Enumerator):
                return None
            enumerators.append(enumerator)
        specifiers = replace(specifiers, enum=replace(enum, members=tuple(enumerators)))
    else:
        return None  # the first '{' is no body of the declaration's specifiers
    return replace(outer, specifiers=specifiers)


def _flatten_attributes(items: Any) -> tuple[s.Attribute, ...]:
    """Attributes out of a (possibly nested) list of visited noise."""
    found: list[s.Attribute] = []
    stack = [items]
    while stack:
        item = stack.pop()
        if isinstance(item, s.Attribute):
            found.append(item)
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return tuple(found)


_QUALIFIER_SPELLING = {
    "__restrict": "restrict",
    "__restrict__": "restrict",
    "__const": "const",
    "__const__": "const",
    "__volatile": "volatile",
    "__volatile__": "volatile",
}


class _Run:
    """What an OPERAND_RUN leaf gives its binary_expression: operands (syntax) and operators
    (their tokens), alternating."""

    __slots__ = ("items",)

    def __init__(self, items: list[Any]):
        self.items = items


@frozen_dataclass()
class _Word:
    """A keyword leaf: what kind of specifier it is, and its token."""

    kind: str  # storage, qual, basic, typedef, typeof, noise
    text: str
    token: Token


@frozen_dataclass()
class _Head:
    """What a direct declarator starts with: its name, or a parenthesized declarator."""

    name: Token | None
    inner: s.Declarator | None


@frozen_dataclass()
class _Star:
    """One ``*`` of a declarator: its qualifiers, and the ``nonnull`` attributes written after it,
    which gcc takes for the function's (``const char * __attribute__((nonnull(1))) f(...)``)."""

    quals: tuple[str, ...]
    attributes: tuple[s.Attribute, ...]


@frozen_dataclass()
class _BitWidth:
    """A member's ``: width``."""

    expr: s.Expr


@frozen_dataclass()
class _Tagged:
    """A ``struct``, ``union`` or ``enum`` tag, its attributes and body, before they are put together."""

    tag: Token
    attributes: tuple[s.Attribute, ...]
    body: Any


@frozen_dataclass()
class _Body:
    """A record or enum body: its items, the attributes after it, and its ``{``."""

    items: Any
    attributes: tuple[s.Attribute, ...]
    lbrace: Token


def _fold(flat: list[Any]) -> s.Expr:
    """The tree of operands and operator tokens, alternating, by C's precedence."""
    if len(flat) == 1:
        return flat[0]
    precedence, binary = BINARY_PRECEDENCE, _BINARY
    if len({precedence[text] for text in {token.text for token in flat[1::2]}}) == 1:
        # operators of one level (a generated chain): applied left to right
        tree = flat[0]
        for index in range(1, len(flat), 2):
            operator = flat[index]
            tree = binary(operator.text, tree, flat[index + 1], operator)
        return tree
    return by_precedence(flat[1::2], flat[::2], lambda operator: precedence[operator.text],
                         lambda operator, left, right: binary(operator.text, left, right, operator))


_KIND = attrgetter("kind")
#: what a run's operators and operands are made with, a million of them in a megabyte of
#: ``-1+-1+``: without the call of their class (see frozen.maker)
_BINARY, _UNARY, _NAME = maker(s.Binary), maker(s.Unary), maker(s.Name)
#: a plain operand's syntax by its token's kind (an identifier's is a Name)
_OPERAND: dict[str, Callable[[Token], s.Expr]] = {"number": maker(s.Number), "char": maker(s.CharConstant)}
#: the prefix operators a run's operand may have (OPERAND_RUN)
_RUN_PREFIXES = frozenset({"-", "+", "~", "!"})


def _run_items(tokens: Sequence[Token], index: int, end: int) -> tuple[list[Any], int]:
    """The operands (syntax) and operators (tokens), alternating, of the run at ``tokens[index]``
    up to ``end`` or its closing parenthesis, and the index where it stopped.  The syntax is
    what the grammar's rules give each operand: a group is its run's tree, a prefix a Unary."""
    items: list[Any] = []
    while True:
        prefixes = []
        token = tokens[index]
        while token.kind == "punct" and token.text in _RUN_PREFIXES:
            prefixes.append(token)
            index += 1
            token = tokens[index]
        kind = token.kind
        if kind == "punct":  # a group: "(" run ")"
            inner, index = _run_items(tokens, index + 1, end)
            operand = _fold(inner)
        else:
            operand = _OPERAND.get(kind, _NAME)(token)
        index += 1
        for prefix in reversed(prefixes):
            operand = _UNARY(prefix.text, operand, prefix)
        items.append(operand)
        if index == end or tokens[index].text == ")":
            return items, index
        items.append(tokens[index])
        index += 1


def _reads_node_only(method: Any) -> Any:
    """Mark a ``visit_<rule>`` that looks at its node's text or first token only:
    the walker then leaves the subtree below it unvisited."""
    method.reads_node_only = True
    return method


def _visit_word(kind: str) -> Callable[[SyntaxWalker, Node, list[Any]], _Word]:
    """The visit method of a leaf that is a word of ``kind``."""
    def visit(self: SyntaxWalker, node: Node, visited_children: list[Any]) -> _Word:
        text = node.text.strip()
        if kind == "qual":
            text = _QUALIFIER_SPELLING.get(text, text)
        return _Word(kind, text, self.tok(node))
    return visit


class SyntaxWalker(NodeVisitor):
    """Bottom-up visitor of declarations.ppeg, one ``visit_<rule>`` per rule in grammar order."""

    #: expression -> the function giving a node of it visited (see :meth:`_walkers`);
    #: shared, the grammar lives as long
    _walk_of: dict[Expression, Callable[[SyntaxWalker, Node], Any]] = {}

    def __init__(self, text: TokenText):
        self.source = text

    def visit(self, node: Node) -> Any:
        # NodeVisitor.visit builds "visit_" + name and calls getattr for each of
        # the ~36,000 nodes of sqlite3.h, and visits every subtree; here each
        # expression of the grammar has a function, made once, that calls its
        # members' functions directly and skips subtrees no method reads.  A
        # node no method visits gives what generic_visit would, but a sequence
        # or repetition always the list of its children's values (an empty one too).
        walk = self._walk_of.get(node.expr)
        if walk is None:
            self._walk_of.update(self._walkers(node.expr))
            walk = self._walk_of[node.expr]
        return walk(self, node)

    @classmethod
    def _walkers(cls, root: Expression) -> dict[Expression, Callable[[SyntaxWalker, Node], Any]]:
        """A visiting function for every expression reachable from ``root``.

        A node's children are nodes of its expression's members, in order (a
        sequence's), all of the one member (a repetition's) or one of them (a
        choice's): the functions of a sequence's and a repetition's members are
        known when the functions are made, a choice's is found by the child.
        """
        table: dict[Expression, Callable[[SyntaxWalker, Node], Any]] = {}
        members: dict[Expression, list[Callable[[SyntaxWalker, Node], Any]]] = {}
        stack = [root]
        while stack:
            expr = stack.pop()
            if expr in table:
                continue
            found = members[expr] = []  # filled once every function is made (a grammar recurses)
            table[expr] = cls._walker(expr, found, table)
            stack.extend(expr.members)
        for expr, found in members.items():
            found.extend(table[member] for member in expr.members)
        return table

    @classmethod
    def _walker(cls, expr: Expression, each: list[Callable[[SyntaxWalker, Node], Any]],
                table: dict[Expression, Callable[[SyntaxWalker, Node], Any]]) -> Callable[[SyntaxWalker, Node], Any]:
        """How a node of ``expr`` is visited; ``each`` will hold its members' functions."""
        method = getattr(cls, "visit_" + expr.name, None) if expr.name else None
        children: Callable[[SyntaxWalker, Node], list[Any]] | None
        # the visited children: what generic_visit gives a node no method reads
        if isinstance(expr, OneOf):
            def children(self: SyntaxWalker, node: Node) -> list[Any]:
                child = node.children[0]
                return [table[child.expr](self, child)]
        elif isinstance(expr, PegSequence):
            def children(self: SyntaxWalker, node: Node) -> list[Any]:
                # a child per member, as the parser makes them (strict=True costs a tenth of the walk)
                return [walk(self, child) for walk, child in zip(each, node.children)]  # noqa: B905
        elif isinstance(expr, Quantifier):
            def children(self: SyntaxWalker, node: Node) -> list[Any]:
                if not node.children:  # most often: an optional part absent
                    return []
                walk = each[0]
                return [walk(self, child) for child in node.children]
        else:  # a leaf or a lookahead: no children
            children = None
        if method is not None:
            if children is None or getattr(method, "reads_node_only", False):
                return lambda self, node: method(self, node, [])
            if isinstance(expr, PegSequence):  # the most common, with its children's visits inline
                return lambda self, node: method(self, node, [walk(self, child)  # as children() above
                                                              for walk, child in zip(each, node.children)])  # noqa: B905
            visit_children = children
            return lambda self, node: method(self, node, visit_children(self, node))
        # no method: a choice gives its branch, sequences and repetitions their children,
        # anything else (leaves, lookaheads) the node
        if isinstance(expr, OneOf):
            def branch(self: SyntaxWalker, node: Node) -> Any:
                child = node.children[0]
                return table[child.expr](self, child)
            return branch
        if children is not None:
            return children
        return lambda self, node: node

    def tok(self, node: Node) -> Token:
        return self.source.token_at(node.start)

    def last_tok(self, node: Node) -> Token:
        return self.source.token_at(max(node.start, node.end - 2))

    # -- entry points --------------------------------------------------------
    # declaration = _ declaration_body
    def visit_declaration(self, node: Node, visited_children: list[Any]) -> Any:
        _, body = visited_children
        return body

    # declaration_body = static_assert / simple_declaration
    def visit_declaration_body(self, node: Node, visited_children: list[Any]) -> Any:
        return visited_children[0]

    # macro_expression = _ expression
    def visit_macro_expression(self, node: Node, visited_children: list[Any]) -> Any:
        _, expr = visited_children
        return expr

    # -- declarations --------------------------------------------------------
    # simple_declaration = decl_specifiers init_declarator_list? SEMI
    def visit_simple_declaration(self, node: Node, visited_children: list[Any]) -> s.Declaration:
        specifiers, declarators, _ = visited_children
        return s.Declaration(specifiers, tuple(declarators[0]) if declarators else (), self.last_tok(node))

    # init_declarator_list = init_declarator (COMMA init_declarator)*
    def visit_init_declarator_list(self, node: Node, visited_children: list[Any]) -> list[s.InitDeclarator]:
        first, rest = visited_children
        return [first, *(item for _, item in rest)]

    # init_declarator = declarator noise* initializer?
    def visit_init_declarator(self, node: Node, visited_children: list[Any]) -> s.InitDeclarator:
        declarator, noise, initializer = visited_children
        attributes = declarator.attributes + _flatten_attributes(noise)
        return s.InitDeclarator(declarator, attributes, bool(initializer))

    # static_assert = STATIC_ASSERT LPAREN constant_expression (COMMA string_literal)? RPAREN SEMI
    def visit_static_assert(self, node: Node, visited_children: list[Any]) -> s.StaticAssert:
        _, _, condition, message, _, _ = visited_children
        return s.StaticAssert(condition, self.tok(node), message[0][1] if message else None)

    # decl_specifiers = specifier* type_specifier specifier_or_basic*
    def visit_decl_specifiers(self, node: Node, visited_children: list[Any]) -> s.Specifiers:
        before, core, after = visited_children
        storage: list[str] = []
        quals: list[str] = []
        basic: list[Token] = []
        attributes: list[s.Attribute] = []
        record = enum = None
        typedef_name = typeof = None
        for item in (*before, core, *after):
            if isinstance(item, _Word):
                if item.kind == "storage":
                    storage.append(item.text)
                elif item.kind == "qual":
                    quals.append(item.text)
                elif item.kind == "basic":
                    basic.append(item.token)
                elif item.kind == "typedef":
                    typedef_name = item.token
                elif item.kind == "typeof":
                    typeof = item.token
            elif isinstance(item, Token):  # the IDENTIFIER branch of type_specifier: a typedef name
                typedef_name = item
            elif isinstance(item, s.RecordSpec):
                record = item
            elif isinstance(item, s.EnumSpec):
                enum = item
            else:
                attributes.extend(_flatten_attributes(item))
        return s.Specifiers(
            tuple(dict.fromkeys(storage)), tuple(dict.fromkeys(quals)), tuple(basic), record, enum,
            typedef_name, typeof, tuple(attributes), self.tok(node),
        )

    # specifier = &SPECIFIER_START (STORAGE / QUALIFIER / noise)
    def visit_specifier(self, node: Node, visited_children: list[Any]) -> Any:
        _, item = visited_children
        return item

    # specifier_or_basic = BASIC_TYPE / specifier
    def visit_specifier_or_basic(self, node: Node, visited_children: list[Any]) -> Any:
        return visited_children[0]

    # type_specifier = IDENTIFIER / BASIC_TYPE / record_specifier / enum_specifier / typeof_specifier
    def visit_type_specifier(self, node: Node, visited_children: list[Any]) -> Any:
        return visited_children[0]

    # typeof_specifier = TYPEOF LPAREN (type_name / expression) RPAREN
    @_reads_node_only
    def visit_typeof_specifier(self, node: Node, visited_children: list[Any]) -> _Word:
        return _Word("typeof", "typeof", self.tok(node))

    # record_specifier = RECORD_KW noise* (record_tagged / record_body)
    def visit_record_specifier(self, node: Node, visited_children: list[Any]) -> s.RecordSpec:
        keyword, noise, rest = visited_children
        attributes = list(_flatten_attributes(noise))
        tag = None
        body = rest
        if isinstance(rest, _Tagged):
            tag = rest.tag
            attributes.extend(rest.attributes)
            body = rest.body
        members = None
        lbrace = None
        if isinstance(body, _Body):
            members = tuple(item for item in body.items if item is not None)
            attributes.extend(body.attributes)
            lbrace = body.lbrace
        return s.RecordSpec(keyword.text, tag, members, tuple(attributes), keyword.token, lbrace)

    # record_tagged = IDENTIFIER noise* record_body?
    def visit_record_tagged(self, node: Node, visited_children: list[Any]) -> _Tagged:
        tag, noise, body = visited_children
        return _Tagged(tag, _flatten_attributes(noise), body[0] if body else None)

    # record_body = LBRACE member_declaration* RBRACE noise*
    def visit_record_body(self, node: Node, visited_children: list[Any]) -> _Body:
        _, members, _, noise = visited_children
        return _Body(members, _flatten_attributes(noise), self.tok(node))

    # member_declaration = static_assert / SEMI / decl_specifiers member_declarators? SEMI
    def visit_member_declaration(self, node: Node, visited_children: list[Any]) -> Any:
        item = visited_children[0]
        if isinstance(item, s.StaticAssert) or item is None:
            return item
        specifiers, declarators, _ = item
        return s.MemberDeclaration(specifiers, tuple(declarators[0]) if declarators else (), self.last_tok(node))

    # member_declarators = member_declarator (COMMA member_declarator)*
    def visit_member_declarators(self, node: Node, visited_children: list[Any]) -> list[s.MemberDeclarator]:
        first, rest = visited_children
        return [first, *(item for _, item in rest)]

    # member_declarator = (declarator bit_width? / bit_width) noise*
    def visit_member_declarator(self, node: Node, visited_children: list[Any]) -> s.MemberDeclarator:
        body, noise = visited_children
        attributes = _flatten_attributes(noise)
        if isinstance(body, _BitWidth):
            return s.MemberDeclarator(None, body.expr, attributes, self.tok(node), self.last_tok(node))
        declarator, width = body
        return s.MemberDeclarator(
            declarator, width[0].expr if width else None, declarator.attributes + attributes,
            self.tok(node), self.last_tok(node),
        )

    # bit_width = COLON constant_expression
    def visit_bit_width(self, node: Node, visited_children: list[Any]) -> _BitWidth:
        _, expr = visited_children
        return _BitWidth(expr)

    # enum_specifier = ENUM_KW noise* (enum_tagged / enum_body)
    def visit_enum_specifier(self, node: Node, visited_children: list[Any]) -> s.EnumSpec:
        keyword, noise, rest = visited_children
        attributes = list(_flatten_attributes(noise))
        tag = None
        body = rest
        if isinstance(rest, _Tagged):
            tag = rest.tag
            attributes.extend(rest.attributes)
            body = rest.body
        members = None
        if isinstance(body, _Body):
            members = tuple(body.items)
            attributes.extend(body.attributes)
        return s.EnumSpec(tag, members, tuple(attributes), keyword.token)

    # enum_tagged = IDENTIFIER noise* enum_body?
    def visit_enum_tagged(self, node: Node, visited_children: list[Any]) -> _Tagged:
        tag, noise, body = visited_children
        return _Tagged(tag, _flatten_attributes(noise), body[0] if body else None)

    # enum_body = LBRACE enumerator_list? RBRACE noise*
    def visit_enum_body(self, node: Node, visited_children: list[Any]) -> _Body:
        _, members, _, noise = visited_children
        return _Body(members[0] if members else [], _flatten_attributes(noise), self.tok(node))

    # enumerator_list = enumerator (COMMA enumerator)* COMMA?
    def visit_enumerator_list(self, node: Node, visited_children: list[Any]) -> list[s.Enumerator]:
        first, rest, _ = visited_children
        return [first, *(item for _, item in rest)]

    # enumerator = IDENTIFIER noise* (ASSIGN constant_expression)?
    def visit_enumerator(self, node: Node, visited_children: list[Any]) -> s.Enumerator:
        name, _, value = visited_children
        return s.Enumerator(name, value[0][1] if value else None, self.last_tok(node))

    # declarator = (pointer+ direct_declarator?) / direct_declarator
    def visit_declarator(self, node: Node, visited_children: list[Any]) -> s.Declarator:
        body = visited_children[0]
        if isinstance(body, s.Declarator):
            return body
        stars, direct = body
        quals = tuple(star.quals for star in stars)
        attributes = tuple(a for star in stars for a in star.attributes)
        if direct:
            inner = direct[0]
            return s.Declarator(quals + inner.pointers, inner.name, inner.inner, inner.suffixes,
                                inner.attributes + attributes)
        return s.Declarator(quals, None, None, (), attributes)

    # pointer = STAR (QUALIFIER / noise)*
    def visit_pointer(self, node: Node, visited_children: list[Any]) -> _Star:
        _, items = visited_children
        return _Star(tuple(dict.fromkeys(item.text for item in items if isinstance(item, _Word))),
                     tuple(a for a in _flatten_attributes(items) if a.kind == "nonnull"))

    # direct_declarator = (declarator_head declarator_suffix*) / declarator_suffix+
    def visit_direct_declarator(self, node: Node, visited_children: list[Any]) -> s.Declarator:
        body = visited_children[0]
        if body and isinstance(body[0], _Head):
            head, suffixes = body
            attributes = tuple(a for suffix in suffixes if isinstance(suffix, s.ParamsSuffix)
                               for a in suffix.attributes)
            return s.Declarator((), head.name, head.inner, tuple(suffixes), attributes)
        return s.Declarator((), None, None, tuple(body))

    # declarator_head = IDENTIFIER / (LPAREN noise* declarator RPAREN)
    def visit_declarator_head(self, node: Node, visited_children: list[Any]) -> _Head:
        body = visited_children[0]
        if isinstance(body, Token):
            return _Head(body, None)
        _, _, inner, _ = body
        return _Head(None, inner)

    # declarator_suffix = array_suffix / parameter_suffix
    def visit_declarator_suffix(self, node: Node, visited_children: list[Any]) -> s.Suffix:
        return visited_children[0]

    # array_suffix = LBRACKET (QUALIFIER / STATIC)* (STAR_LENGTH / constant_expression)? RBRACKET
    def visit_array_suffix(self, node: Node, visited_children: list[Any]) -> s.ArraySuffix:
        _, qualifiers, length, _ = visited_children
        value = length[0] if length else None
        # `[static N]` in a parameter: C passes at least N elements, so never NULL (C11 6.7.6.3p7)
        static = any(not isinstance(item, _Word) for item in qualifiers)
        # `[*]` (a VLA of unspecified size) has no length either.
        return s.ArraySuffix(None if isinstance(value, (Node, list)) else value, self.tok(node), static)

    # parameter_suffix = LPAREN parameter_list? RPAREN noise*
    def visit_parameter_suffix(self, node: Node, visited_children: list[Any]) -> s.ParamsSuffix:
        _, params, _, noise = visited_children
        # Only nonnull and an asm label are kept: they describe the function, while
        # a layout attribute here would be the declaration's, as gcc reads it.
        attributes = tuple(a for a in _flatten_attributes(noise) if a.kind in ("nonnull", "asm"))
        if not params:
            return s.ParamsSuffix((), False, self.tok(node), attributes)
        items, variadic = params[0]
        return s.ParamsSuffix(tuple(items), variadic, self.tok(node), attributes)

    # parameter_list = ELLIPSIS / (parameter (COMMA parameter)* (COMMA ELLIPSIS)?)
    def visit_parameter_list(self, node: Node, visited_children: list[Any]) -> tuple[list[s.ParamSyntax], bool]:
        body = visited_children[0]
        if not isinstance(body, list):
            return [], True
        first, rest, ellipsis = body
        return [first, *(item for _, item in rest)], bool(ellipsis)

    # parameter = decl_specifiers declarator? noise*
    def visit_parameter(self, node: Node, visited_children: list[Any]) -> s.ParamSyntax:
        specifiers, declarator, _ = visited_children
        return s.ParamSyntax(specifiers, declarator[0] if declarator else None)

    # type_name = decl_specifiers declarator?
    def visit_type_name(self, node: Node, visited_children: list[Any]) -> s.TypeName:
        specifiers, declarator = visited_children
        return s.TypeName(specifiers, declarator[0] if declarator else None)

    # -- noise ---------------------------------------------------------------
    # noise = &NOISE_START (attribute / declspec / asm_label / alignas / NOISE_WORD)
    def visit_noise(self, node: Node, visited_children: list[Any]) -> list[s.Attribute]:
        _, item = visited_children
        return item if isinstance(item, list) and all(isinstance(a, s.Attribute) for a in item) else []

    # attribute = ATTRIBUTE LPAREN LPAREN attribute_item? (COMMA attribute_item?)* RPAREN RPAREN
    def visit_attribute(self, node: Node, visited_children: list[Any]) -> list[s.Attribute]:
        _, _, _, first, rest, _, _ = visited_children
        items = [*first, *(item for _, optional in rest for item in optional)]
        return [item for item in items if isinstance(item, s.Attribute)]

    # attribute_item = (ALIGNED (LPAREN constant_expression RPAREN)?) / (ATTRIBUTE_NAME balanced_parens?)
    def visit_attribute_item(self, node: Node, visited_children: list[Any]) -> s.Attribute | None:
        word, argument = visited_children[0]
        if word == "aligned":
            return s.Attribute("aligned", argument[0][1] if argument else None, self.tok(node))
        if word in ("packed", "__packed__"):
            return s.Attribute("packed", None, self.tok(node))
        if word in ("nonnull", "__nonnull__"):
            # the arguments are parameter numbers; balanced_parens keeps only their text
            numbers = tuple(int(n) for n in re.findall(r"\d+", self.source.spelling(node.start, node.end)))
            return s.Attribute("nonnull", None, self.tok(node), numbers)
        if word in ("vector_size", "__vector_size__"):
            return s.Attribute("vector_size", None, self.tok(node))
        if word in ("mode", "__mode__"):
            # mode(__word__), mode(DI): the machine mode names the type's size
            found = re.search(r"\(\s*(\w+)\s*\)", self.source.spelling(node.start, node.end))
            return s.Attribute("mode", None, self.tok(node), mode=found.group(1).strip("_") if found else "")
        return None

    # declspec = DECLSPEC balanced_parens
    @_reads_node_only
    def visit_declspec(self, node: Node, visited_children: list[Any]) -> list[s.Attribute]:
        return []

    # asm_label = ASM (QUALIFIER / NOISE_WORD)* balanced_parens
    @_reads_node_only
    def visit_asm_label(self, node: Node, visited_children: list[Any]) -> list[s.Attribute]:
        # the symbol the name stands for: its string literals, concatenated
        text = self.source.spelling(node.start, node.end)
        label = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
        return [s.Attribute("asm", None, self.tok(node), label=label)] if label else []

    # alignas = ALIGNAS LPAREN (type_name / constant_expression) RPAREN
    def visit_alignas(self, node: Node, visited_children: list[Any]) -> list[s.Attribute]:
        _, _, value, _ = visited_children
        return [s.Attribute("aligned", value, self.tok(node))]

    # -- expressions ---------------------------------------------------------
    # expression = conditional_expression (COMMA conditional_expression)*
    def visit_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        first, rest = visited_children
        if not rest:
            return first
        return s.Comma((first, *(item for _, item in rest)), self.tok(node))

    # constant_expression = conditional_expression
    def visit_constant_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        return visited_children[0]

    # conditional_expression = binary_expression (QUESTION expression COLON conditional_expression)?
    def visit_conditional_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        condition, rest = visited_children
        if not rest:
            return condition
        question, if_true, _, if_false = rest[0]
        return s.Conditional(condition, if_true, if_false, question.token)

    # binary_expression = operand_expression (BINARY_OP operand_expression)*
    # operand_expression = OPERAND_RUN / cast_expression
    def visit_binary_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        first, rest = visited_children
        if not rest and not isinstance(first, _Run):
            return first
        # The flat list of operands and operators, a run's spread out
        flat: list[Any] = []
        for operator, operand in ((None, first), *rest):
            if operator is not None:
                flat.append(operator.token)
            if isinstance(operand, _Run):
                flat += operand.items
            else:
                flat.append(operand)
        return _fold(flat)

    # OPERAND_RUN (a leaf: operands, plain or parenthesized runs, after prefix operators, with
    # binary operators between them)
    def visit_OPERAND_RUN(self, node: Node, visited_children: list[Any]) -> _Run:
        source = self.source
        first, last = source.index_at(node.start), source.index_at(node.end - 1)
        items: list[Any] = list(source.tokens[first : last + 1])
        if "(" in node.text or "punct" in map(_KIND, items[::2]):  # groups or prefixes
            items, _ = _run_items(source.tokens, first, last + 1)
            return _Run(items)
        operand = _OPERAND.get
        for index in range(0, len(items), 2):  # operands and operators alternating (a generated chain)
            token = items[index]
            items[index] = operand(token.kind, s.Name)(token)
        return _Run(items)

    # cast_expression = (LPAREN type_name RPAREN cast_expression) / unary_expression
    def visit_cast_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        body = visited_children[0]
        if isinstance(body, list):
            _, type_name, _, operand = body
            return s.Cast(type_name, operand, self.tok(node))
        return body

    # unary_expression = (UNARY_OP cast_expression) / sizeof_expression / alignof_expression / postfix_expression
    def visit_unary_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        body = visited_children[0]
        if isinstance(body, list):
            operator, operand = body
            if operator.text in ("++", "--"):
                return s.NonConstant(f"'{operator.text}'", operator.token)
            return s.Unary(operator.text, operand, operator.token)
        return body

    # sizeof_expression = SIZEOF ((LPAREN type_name RPAREN) / unary_expression)
    def visit_sizeof_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        _, operand = visited_children
        if isinstance(operand, list):
            return s.SizeofType(operand[1], self.tok(node))
        return s.SizeofExpr(operand, self.tok(node))

    # alignof_expression = ALIGNOF LPAREN type_name RPAREN
    def visit_alignof_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        _, _, type_name, _ = visited_children
        return s.SizeofType(type_name, self.tok(node), alignof=True)

    # postfix_expression = primary_expression postfix_suffix*
    def visit_postfix_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        primary, suffixes = visited_children
        if suffixes:
            return suffixes[0]
        return primary

    # postfix_suffix = (LBRACKET expression RBRACKET) / (LPAREN arguments? RPAREN) / (MEMBER_OP IDENTIFIER)
    #                  / INCREMENT_OP
    @_reads_node_only
    def visit_postfix_suffix(self, node: Node, visited_children: list[Any]) -> s.NonConstant:
        token = self.tok(node)
        what = {"[": "an array subscript", "(": "a function call", "++": "'++'", "--": "'--'"}
        return s.NonConstant(what.get(token.text, "a member access"), token)

    # primary_expression = NUMBER / CHAR / string_literal / offsetof / IDENTIFIER / (LPAREN expression RPAREN)
    def visit_primary_expression(self, node: Node, visited_children: list[Any]) -> s.Expr:
        body = visited_children[0]
        if isinstance(body, list):
            return body[1]
        if isinstance(body, Token):
            return s.Name(body)
        return body

    # offsetof = OFFSETOF LPAREN type_name COMMA member_designator RPAREN
    def visit_offsetof(self, node: Node, visited_children: list[Any]) -> s.Expr:
        _, _, type_name, _, member, _ = visited_children
        return s.Offsetof(type_name, member, self.tok(node))

    # member_designator = IDENTIFIER ((MEMBER_OP IDENTIFIER) / (LBRACKET constant_expression RBRACKET))*
    @_reads_node_only
    def visit_member_designator(self, node: Node, visited_children: list[Any]) -> str:
        return self.source.spelling(node.start, node.end).replace(" ", "")

    # NUMBER (a leaf; its trailing blank is part of the regex)
    def visit_NUMBER(self, node: Node, visited_children: list[Any]) -> s.Number:
        return s.Number(self.tok(node))

    # CHAR
    def visit_CHAR(self, node: Node, visited_children: list[Any]) -> s.CharConstant:
        return s.CharConstant(self.tok(node))

    # string_literal = STRING+
    @_reads_node_only
    def visit_string_literal(self, node: Node, visited_children: list[Any]) -> s.StringLiteral:
        return s.StringLiteral(tuple(self.tok(child) for child in node.children))

    # -- leaves --------------------------------------------------------------
    visit_STORAGE = _visit_word("storage")
    visit_QUALIFIER = _visit_word("qual")
    visit_BASIC_TYPE = _visit_word("basic")
    visit_NOISE_WORD = _visit_word("noise")
    visit_RECORD_KW = _visit_word("record")
    visit_ENUM_KW = _visit_word("enum")
    visit_ALIGNED = lambda self, node, children: "aligned"  # noqa: E731

    def visit_ATTRIBUTE_NAME(self, node: Node, visited_children: list[Any]) -> str:
        self.source.read_text = True  # an identifier's text: the walk is not shared
        return self.tok(node).text

    def visit_IDENTIFIER(self, node: Node, visited_children: list[Any]) -> Token:
        return self.tok(node)

    def visit_SEMI(self, node: Node, visited_children: list[Any]) -> None:
        return None

    def _operator(self, node: Node, visited_children: list[Any]) -> _Word:
        return _Word("operator", node.text.strip(), self.tok(node))

    visit_BINARY_OP = visit_UNARY_OP = visit_QUESTION = visit_INCREMENT_OP = _operator
