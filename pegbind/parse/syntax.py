"""Parse layer, intermediate: what one declaration *says*, before it means anything.

In: built by :mod:`pegbind.parse.walker` from a parsimonious tree of
``grammars/declarations.ppeg``.  Out: read by :mod:`pegbind.parse.builder`
(declarations -> model) and :mod:`pegbind.parse.constants` (expressions ->
typed values).  Every node keeps the :class:`~pegbind.preprocess.token.Token`
it started at, so diagnostics point at the original header.

Expressions stay unevaluated here because their meaning depends on what was
declared before (enumerators, typedefs for casts and ``sizeof``).
"""
from __future__ import annotations

from ..frozen import frozen_dataclass
from ..preprocess.token import Token

# --------------------------------------------------------------------------
# Expressions (C11 6.5)
# --------------------------------------------------------------------------


@frozen_dataclass()
class Number:
    """An integer or floating constant, still spelled as a pp-number."""

    token: Token


@frozen_dataclass()
class CharConstant:
    """A character constant (``'a'``, ``L'\\n'``), typed and valued when evaluated."""

    token: Token


@frozen_dataclass()
class StringLiteral:
    """Adjacent string literals, concatenated later (C11 5.1.1.2 phase 6)."""

    tokens: tuple[Token, ...]

    @property
    def token(self) -> Token:
        return self.tokens[0]


@frozen_dataclass()
class Name:
    """An identifier used as a value (enumerator, or something that is not constant)."""

    token: Token


@frozen_dataclass()
class Unary:
    """A unary operator (``op``) and its operand."""

    op: str
    operand: Expr
    token: Token


@frozen_dataclass()
class Binary:
    """A binary operator (``op``) and its two operands."""

    op: str
    left: Expr
    right: Expr
    token: Token  #: the operator


@frozen_dataclass()
class Conditional:
    """``condition ? if_true : if_false``."""

    condition: Expr
    if_true: Expr
    if_false: Expr
    token: Token


@frozen_dataclass()
class Comma:
    """Expressions joined by the comma operator; the last one's is the value."""

    items: tuple[Expr, ...]
    token: Token


@frozen_dataclass()
class Cast:
    """``(type_name) operand``."""

    type_name: TypeName
    operand: Expr
    token: Token  #: the opening parenthesis


@frozen_dataclass()
class SizeofType:
    """``sizeof(T)``, or ``_Alignof(T)``."""

    type_name: TypeName
    token: Token
    alignof: bool = False  #: ``_Alignof(T)`` rather than ``sizeof(T)``


@frozen_dataclass()
class SizeofExpr:
    """``sizeof`` of an expression."""

    operand: Expr
    token: Token


@frozen_dataclass()
class Offsetof:
    """``offsetof(T, member)`` (as ``__builtin_offsetof``)."""

    type_name: TypeName
    member: str
    token: Token


@frozen_dataclass()
class NonConstant:
    """A construct that can never be a constant expression (call, subscript, ``++`` ...)."""

    what: str  #: e.g. "a function call"
    token: Token


Expr = (
    Number | CharConstant | StringLiteral | Name | Unary | Binary | Conditional | Comma | Cast
    | SizeofType | SizeofExpr | Offsetof | NonConstant
)


# --------------------------------------------------------------------------
# Declarations (C11 6.7)
# --------------------------------------------------------------------------


@frozen_dataclass()
class Attribute:
    """An attribute kept from the noise: ``packed``, ``aligned(N)``, ``mode(M)`` (layout),
    ``vector_size(N)`` (a type pegbind cannot bind), ``nonnull(...)``, or an ``asm`` label."""

    kind: str  #: "packed", "aligned", "mode", "vector_size", "nonnull" or "asm"
    value: Expr | TypeName | None  #: for aligned: N, a type (``_Alignas(T)``), or None (maximum)
    token: Token
    #: for nonnull: the 1-based parameter numbers (empty: every pointer parameter)
    indices: tuple[int, ...] = ()
    mode: str = ""  #: for mode: the machine mode without underscores (``QI``, ``DI``, ``word``)
    label: str = ""  #: for asm: the symbol name (``fseeko64`` for ``__asm__ ("" "fseeko64")``)


@frozen_dataclass()
class RecordSpec:
    """``struct|union [tag] [{ members }]``."""

    kind: str
    tag: Token | None
    members: tuple[MemberDeclaration | StaticAssert, ...] | None  #: None without a body
    attributes: tuple[Attribute, ...]
    keyword: Token
    lbrace: Token | None


@frozen_dataclass()
class Enumerator:
    """One enumerator of an enum body: its name, and the value written after ``=``, if any."""

    name: Token
    value: Expr | None
    last: Token  #: last token of the enumerator (for trailing comments)


@frozen_dataclass()
class EnumSpec:
    """An ``enum`` specifier: its tag, its body (None without one) and attributes."""

    tag: Token | None
    members: tuple[Enumerator, ...] | None  #: None without a body
    attributes: tuple[Attribute, ...]
    keyword: Token


@frozen_dataclass()
class Specifiers:
    """Declaration specifiers with the one type specifier picked out."""

    storage: tuple[str, ...]
    quals: tuple[str, ...]
    basic: tuple[Token, ...]  #: ``unsigned``, ``long`` ... in written order
    record: RecordSpec | None
    enum: EnumSpec | None
    typedef_name: Token | None
    typeof: Token | None  #: ``__typeof__(...)`` (not supported: the builder says so)
    attributes: tuple[Attribute, ...]
    first: Token


@frozen_dataclass()
class ArraySuffix:
    """``[length]`` after a declarator (``[]``: no length)."""

    length: Expr | None
    token: Token
    #: ``[static length]``: a parameter given at least that many elements, never NULL
    static: bool = False


@frozen_dataclass()
class ParamsSuffix:
    """A declarator's parameter list."""

    params: tuple[ParamSyntax, ...]
    variadic: bool
    token: Token
    #: ``nonnull`` attributes written after the parameter list (``f(char *s) __attribute__((nonnull))``)
    attributes: tuple[Attribute, ...] = ()


Suffix = ArraySuffix | ParamsSuffix


@frozen_dataclass()
class Declarator:
    """``pointers head suffixes`` where head is a name, a nested declarator, or nothing."""

    pointers: tuple[tuple[str, ...], ...]  #: qualifiers of each ``*``, left to right
    name: Token | None
    inner: Declarator | None
    suffixes: tuple[Suffix, ...]
    attributes: tuple[Attribute, ...] = ()

    @property
    def name_token(self) -> Token | None:
        if self.name is not None:
            return self.name
        return self.inner.name_token if self.inner is not None else None


@frozen_dataclass()
class ParamSyntax:
    """One parameter: its specifiers and declarator (None for a type alone)."""

    specifiers: Specifiers
    declarator: Declarator | None


@frozen_dataclass()
class TypeName:
    """A type name, as a cast or ``sizeof`` writes it: specifiers and an abstract declarator."""

    specifiers: Specifiers
    declarator: Declarator | None


@frozen_dataclass()
class InitDeclarator:
    """One declarator of a declaration, its attributes, and whether an initializer follows it."""

    declarator: Declarator
    attributes: tuple[Attribute, ...]
    has_initializer: bool


@frozen_dataclass()
class MemberDeclarator:
    """One declarator of a record member, with its bit-field width, if any."""

    declarator: Declarator | None
    bit_width: Expr | None
    attributes: tuple[Attribute, ...]
    first: Token
    last: Token


@frozen_dataclass()
class MemberDeclaration:
    """A record member's declaration: specifiers and declarators."""

    specifiers: Specifiers
    declarators: tuple[MemberDeclarator, ...]
    last: Token


@frozen_dataclass()
class StaticAssert:
    """``_Static_assert(condition, message)``."""

    condition: Expr
    token: Token
    message: StringLiteral | None = None  #: C23 allows none


@frozen_dataclass()
class Declaration:
    """A declaration: its specifiers and declarators, and its last token (for a trailing comment)."""

    specifiers: Specifiers
    declarators: tuple[InitDeclarator, ...]
    last: Token
