"""The model: immutable declarations of one binding, the only thing later layers see.

Input: built by ``pegbind.parse`` from the preprocessed token stream.
Output: read by ``target`` (layouts), ``passes`` (model -> model), ``emit``
(templates) and ``verify``.  Nothing here imports parsimonious.

Two families of values live here:

* **type expressions** (:class:`CType` subclasses) — values compared by
  content; every one prints itself back as C with :meth:`CType.to_c`;
* **declarations** (:class:`Function`, :class:`Record`, :class:`Enum`,
  :class:`Typedef`, :class:`Constant`, :class:`Variable`) — each carries the
  :class:`~pegbind.diagnostics.Coord` of its name and its doc comment.

Declarations refer to each other *by name* through the :class:`Module`
registry (a :class:`TypedefRef` names a typedef, a :class:`RecordRef` names a
record or enum by its registry key), so opaque and self-referential structs
need no object cycles.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal, NoReturn, TypeVar

from .diagnostics import Coord, Diagnostic
from .frozen import frozen_dataclass, maker, replace

Qualifier = Literal["const", "volatile", "restrict"]
RecordKind = Literal["struct", "union"]

#: Canonical spellings of the arithmetic and void types, as ``Primitive.name``.
PRIMITIVE_NAMES = frozenset(
    {
        "void",
        "_Bool",
        "char",
        "signed char",
        "unsigned char",
        "short",
        "unsigned short",
        "int",
        "unsigned int",
        "long",
        "unsigned long",
        "long long",
        "unsigned long long",
        "__int128",
        "unsigned __int128",
        "float",
        "double",
        "long double",
        "float _Complex",
        "double _Complex",
        "long double _Complex",
    }
)
#: The complex types (C11 6.2.5p11) by their real type: ``double _Complex`` is two ``double``.
COMPLEX_PARTS = {"float _Complex": "float", "double _Complex": "double", "long double _Complex": "long double"}


def _qualified(quals: tuple[str, ...], text: str) -> str:
    return " ".join((*quals, text)) if quals else text


def join_declarator(base: str, declarator: str) -> str:
    """``base`` then ``declarator``, one space apart, none before ``[`` (C and Cython alike)."""
    if not declarator:
        return base
    if declarator[0] == "[":
        return base + declarator
    return f"{base} {declarator}"


_SomeType = TypeVar("_SomeType", bound="CType")


class CType:
    """A C type expression.  Subclasses are frozen dataclasses with ``quals``."""

    __slots__ = ()
    quals: tuple[str, ...]

    def to_c(self, declarator: str = "") -> str:
        """This type as C, declaring ``declarator`` (``""`` for an abstract type name).

        ``Pointer(Primitive("char", ("const",))).to_c("s")`` is ``"const char *s"``;
        ``.to_c()`` is ``"const char *"``.
        """
        raise TypeError(f"{type(self).__name__} is not a concrete C type")

    def with_quals(self: _SomeType, *quals: str) -> _SomeType:
        """The same type with ``quals`` added (duplicates dropped, order kept)."""
        merged = tuple(dict.fromkeys((*self.quals, *quals)))
        return replace(self, quals=merged)

    def unqualified(self: _SomeType) -> _SomeType:
        return replace(self, quals=()) if self.quals else self

    @property
    def is_const(self) -> bool:
        return "const" in self.quals

    def __str__(self) -> str:
        return self.to_c()


@frozen_dataclass()
class Primitive(CType):
    """An arithmetic type or ``void``; ``name`` is one of :data:`PRIMITIVE_NAMES`.

    A complex type is named with its real type first, ``double _Complex``, however the
    header spells it (``_Complex double``, ``__complex__ double``, ``complex double``).
    """

    name: str
    quals: tuple[str, ...] = ()

    def to_c(self, declarator: str = "") -> str:
        return join_declarator(_qualified(self.quals, self.name), declarator)

    @property
    def is_void(self) -> bool:
        return self.name == "void"

    @property
    def is_floating(self) -> bool:
        return self.name in ("float", "double", "long double")

    @property
    def is_complex(self) -> bool:
        """True for ``float _Complex``, ``double _Complex`` and ``long double _Complex``."""
        return self.name in COMPLEX_PARTS

    @property
    def is_unsigned(self) -> bool:
        """True for unsigned integer types (``_Bool`` included; ``char`` depends on the target)."""
        return self.name.startswith("unsigned") or self.name == "_Bool"


@frozen_dataclass()
class TypedefRef(CType):
    """A use of a typedef name, e.g. ``CK_ULONG``; resolved through ``Module.typedefs``."""

    name: str
    quals: tuple[str, ...] = ()

    def to_c(self, declarator: str = "") -> str:
        return join_declarator(_qualified(self.quals, self.name), declarator)


@frozen_dataclass()
class RecordRef(CType):
    """A use of a struct, union or enum; ``key`` is its key in the module registry.

    ``tag`` is the C tag, or None for an untagged record, whose ``key`` is the
    typedef name that introduced it or, for an anonymous member, a synthetic
    ``"struct <anonymous at FILE:LINE:COL>"``.
    """

    kind: Literal["struct", "union", "enum"]
    tag: str | None
    key: str
    quals: tuple[str, ...] = ()

    def to_c(self, declarator: str = "") -> str:
        # An untagged record cannot be named in C; emitters that need its
        # body print the Record itself.  The key keeps the text unambiguous.
        name = f"{self.kind} {self.tag}" if self.tag is not None else self.key
        return join_declarator(_qualified(self.quals, name), declarator)


@frozen_dataclass()
class Pointer(CType):
    """``target *quals``."""

    target: CType
    quals: tuple[str, ...] = ()

    def to_c(self, declarator: str = "") -> str:
        inner = "*" + (" ".join(self.quals) + " " if self.quals else "") + declarator
        inner = inner.rstrip() if not declarator else inner
        if isinstance(self.target, (Array, FunctionType)):
            inner = f"({inner})"
        return self.target.to_c(inner)


@frozen_dataclass()
class Array(CType):
    """``element[length]``; ``length`` None for ``[]`` (flexible or incomplete)."""

    element: CType
    length: int | None
    quals: tuple[str, ...] = ()  # always empty: C puts array qualifiers on the element

    def to_c(self, declarator: str = "") -> str:
        size = "" if self.length is None else str(self.length)
        return self.element.to_c(f"{declarator}[{size}]")


@frozen_dataclass()
class Param:
    """One parameter of a function or function type."""

    name: str | None  #: None for an unnamed parameter
    type: CType  #: as declared (array and function parameters are *not* adjusted here)
    coord: Coord | None = field(default=None, compare=False)
    #: an array parameter whose length is an earlier parameter (a variable length array,
    #: C11 6.7.6.2): that parameter's name, ``*`` first when its pointee is the length
    #: (``size_t n, char buf[n]`` -> ``"n"``; ``size_t *n, char buf[*n]`` -> ``"*n"``).
    #: C adjusts the array to a pointer either way, so the type does not change.
    length_from: str | None = field(default=None, compare=False)

    def to_c(self) -> str:
        return self.type.to_c(self.name or "")


@frozen_dataclass()
class FunctionType(CType):
    """A function type ``ret (params)``; a function pointer is ``Pointer(FunctionType(...))``."""

    ret: CType
    params: tuple[Param, ...]
    variadic: bool = False
    quals: tuple[str, ...] = ()

    def to_c(self, declarator: str = "") -> str:
        return self.ret.to_c(f"{declarator}({self.params_to_c()})")

    def params_to_c(self) -> str:
        parts = [p.to_c() for p in self.params]
        if self.variadic:
            parts.append("...")
        return ", ".join(parts) if parts else "void"


#: The closed set of type kinds.  A ``match`` over a :data:`Type` ends in a case that calls
#: :func:`assert_never`, so the type checker lists every dispatch a new kind must reach.
Type = Primitive | TypedefRef | RecordRef | Pointer | Array | FunctionType


def as_type(ctype: CType) -> Type:
    """``ctype`` as the :data:`Type` union, for a ``match`` the type checker can check for every kind.

    The model's fields are declared as the base class :class:`CType`; every
    value in them is one of the kinds of :data:`Type` (nothing else subclasses it).
    """
    return ctype  # type: ignore[return-value]  # typing.cast, without its call: 38,000 a generate


def unnamed(ctype: CType) -> CType:
    """``ctype`` with the parameters of each function type in it unnamed.

    A type names no parameters (``int (*)(CTX *, int)``), whatever the
    declaration that wrote it called them; declarations (``Function.to_c``,
    ``Typedef.to_c``) keep the names, which say what each parameter is.
    The type itself where it names none (most do), not a copy: a run asks this of
    every record member's type.
    """
    match as_type(ctype):
        case Pointer() as pointer:
            target = unnamed(pointer.target)
            return pointer if target is pointer.target else replace(pointer, target=target)
        case Array() as array:
            element = unnamed(array.element)
            return array if element is array.element else replace(array, element=element)
        case FunctionType() as function:
            ret = unnamed(function.ret)
            params = tuple(_unnamed_param(p) for p in function.params)
            if ret is function.ret and all(new is old for new, old in zip(params, function.params, strict=True)):
                return function
            return replace(function, ret=ret, params=params)
        case Primitive() | TypedefRef() | RecordRef():
            return ctype
        case unhandled:
            assert_never(unhandled)


def _unnamed_param(param: Param) -> Param:
    kind = unnamed(param.type)
    return param if param.name is None and kind is param.type else replace(param, name=None, type=kind)


# --------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------


@frozen_dataclass()
class Function:
    """A function declared (not necessarily defined) by a header."""

    name: str
    ret: CType
    params: tuple[Param, ...]  #: empty for ``f(void)``
    variadic: bool = False
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)  #: the header's comment, markers stripped
    #: 1-based numbers of the parameters ``__attribute__((nonnull(...)))`` says
    #: must not be NULL (a bare ``nonnull``: every pointer parameter)
    nonnull: tuple[int, ...] = ()
    #: the symbol an ``asm`` label makes the compiler call instead of ``name`` (glibc's
    #: ``fseeko`` is ``fseeko64`` when files are 64-bit); None when it is the name
    link_name: str | None = None

    @property
    def symbol(self) -> str:
        """The name of the function in the library's symbol table."""
        return self.link_name or self.name

    @property
    def type(self) -> FunctionType:
        return new_function_type(self.ret, self.params, self.variadic)

    def to_c(self) -> str:
        return self.type.to_c(self.name) + ";"


@frozen_dataclass()
class Field:
    """A member of a struct or union."""

    name: str | None  #: None for an anonymous struct/union member or an unnamed bitfield
    type: CType
    bit_width: int | None = None  #: set for bitfields (0 for ``int : 0``)
    aligned: int | None = None  #: ``__attribute__((aligned(N)))`` on the member
    packed: bool = False  #: ``__attribute__((packed))`` on the member
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)

    def to_c(self) -> str:
        text = self.type.to_c(self.name or "")
        if self.bit_width is not None:
            text += f" : {self.bit_width}"
        return text + ";"


@frozen_dataclass()
class Record:
    """A struct or union; ``fields`` None when only declared (opaque)."""

    kind: RecordKind
    tag: str | None  #: the C tag, None when untagged
    key: str  #: registry key: ``"struct TAG"``, else the typedef name, else synthetic
    fields: tuple[Field, ...] | None
    #: ``#pragma pack`` value in force at the definition (None: natural alignment)
    pack: int | None = None
    packed: bool = False  #: ``__attribute__((packed))`` on the record
    aligned: int | None = None  #: ``__attribute__((aligned(N)))`` on the record
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)

    @property
    def is_opaque(self) -> bool:
        return self.fields is None

    @property
    def ref(self) -> RecordRef:
        return RecordRef(self.kind, self.tag, self.key)


@frozen_dataclass()
class EnumMember:
    """One enumerator with its computed value."""

    name: str
    value: int
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)


@frozen_dataclass()
class Enum:
    """An enumeration; ``members`` empty for a forward declaration."""

    tag: str | None
    key: str  #: registry key: ``"enum TAG"``, else the typedef name, else synthetic
    members: tuple[EnumMember, ...]
    packed: bool = False  #: ``__attribute__((packed))``: smallest fitting type
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)

    @property
    def ref(self) -> RecordRef:
        return RecordRef("enum", self.tag, self.key)


@frozen_dataclass()
class Typedef:
    """``typedef type name;``"""

    name: str
    type: CType
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)
    #: ``__attribute__((aligned(N)))`` on the typedef: the alignment of its type, larger or
    #: smaller than its target's, with the size unchanged (glibc's ``__pthread_unwind_buf_t``,
    #: the Linux ``__aligned_u64``)
    aligned: int | None = None

    def to_c(self) -> str:
        return f"typedef {self.type.to_c(self.name)};"


@frozen_dataclass()
class Address:
    """The value of an integer cast to a pointer type (``((sqlite3_destructor_type)-1)``,
    ``((void *)0)``): the address, as an unsigned number of the pointer's width.  Not an ``int``,
    so nothing takes it for an arithmetic constant."""

    value: int


@frozen_dataclass()
class Constant:
    """A named constant: an object-like macro that evaluates, or (for dumps) an enumerator.

    ``value`` is an ``int`` or ``float`` for arithmetic constants, a ``str``
    for string-literal macros (decoded as UTF-8), ``bytes`` where the
    literal is not valid UTF-8, and an :class:`Address` for an integer cast
    to a pointer type (then ``type`` is that pointer type).
    """

    name: str
    value: int | float | str | bytes | Address
    type: CType  #: the C type of the expression (e.g. ``unsigned long`` for ``~0UL``)
    expansion: str = field(default="", compare=False)  #: the macro's replacement text
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)


@frozen_dataclass()
class Variable:
    """An ``extern`` object declaration."""

    name: str
    type: CType
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)


@frozen_dataclass()
class FunctionAlias:
    """An object-like macro that names a function: a C caller of ``name`` calls ``target``.

    zlib under ``_FILE_OFFSET_BITS=64``: ``#define gzopen gzopen64``.
    """

    name: str
    target: str  #: the function's name
    coord: Coord | None = field(default=None, compare=False)
    doc: str = field(default="", compare=False)


Declaration = Function | Record | Enum | Typedef | Constant | Variable | FunctionAlias

#: The registries of a :class:`Module`, as :meth:`Module.get` names them.
DeclarationKind = Literal["function", "record", "enum", "typedef", "constant", "variable", "function_alias"]
#: A type declaration as the passes name it: ``("typedef", name)``, ``("record", key)`` or ``("enum", key)``.
TypeNode = tuple[Literal["typedef", "record", "enum"], str]


@dataclass(frozen=True, slots=True)
class Module:
    """Everything one binding knows, in source order, with lookup by name.

    Registries are keyed by C name (records and enums by ``key``).
    """

    target: str  #: target name, e.g. ``"linux-x86_64"``
    functions: tuple[Function, ...] = ()
    records: tuple[Record, ...] = ()
    enums: tuple[Enum, ...] = ()
    typedefs: tuple[Typedef, ...] = ()
    constants: tuple[Constant, ...] = ()
    variables: tuple[Variable, ...] = ()
    function_aliases: tuple[FunctionAlias, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)
    #: the files (spelled as in ``Coord.file``) whose declarations belong to the
    #: library being bound, as the preprocessor decided (``pegbind.preprocess.includes``);
    #: None for a module read without it, whose declarations are then all the library's
    library_files: frozenset[str] | None = field(default=None, compare=False)
    #: the object-like macros defined when the headers end (every origin)
    macro_names: frozenset[str] = field(default=frozenset(), compare=False)
    #: the function-like macros defined when the headers end (every origin)
    call_macro_names: frozenset[str] = field(default=frozenset(), compare=False)
    _index: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    #: what later layers work out from the module once and keep with it, so that it lives
    #: exactly as long as the module does (record layouts per target, :mod:`pegbind.target`)
    _derived: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[tuple[str, str], Declaration] = {}
        for kind, items in (
            ("function", self.functions),
            ("record", self.records),
            ("enum", self.enums),
            ("typedef", self.typedefs),
            ("constant", self.constants),
            ("variable", self.variables),
            ("function_alias", self.function_aliases),
        ):
            for item in items:
                name = item.key if kind in ("record", "enum") else item.name  # type: ignore[union-attr]
                index[(kind, name)] = item
        object.__setattr__(self, "_index", index)

    def is_library(self, coord: Coord | None) -> bool:
        """Whether a declaration (or diagnostic) at ``coord`` belongs to the library being bound."""
        if self.library_files is None or coord is None:
            return True
        return coord.file in self.library_files

    def hiding_macros(self) -> tuple[str, ...]:
        """Object-like macros named like a function, typedef, tag or member of this module, and
        function-like macros named like a function.

        C written after the headers cannot name those declarations while the
        macro stands (libxml2's member ``xmlParserVersion``, glibc's ``si_pid``
        for ``_sifields._kill.si_pid``), nor call a function a macro of its
        name stands in for (Tcl's ``Tcl_DumpActiveMemory(x)``, which is nothing
        unless Tcl was built to debug its memory), so generated C ``#undef``s
        them: it names and calls what the library exports, as the ctypes module
        does.  Constants and enumerators are left alone: a macro of that name
        is what they mean.
        """
        functions = {f.name for f in self.functions}
        called = functions & self.call_macro_names
        if not self.macro_names:
            return tuple(sorted(called))
        names = functions | {t.name for t in self.typedefs} | {v.name for v in self.variables}
        for record in self.records:
            if record.tag is not None:
                names.add(record.tag)
            names.update(member.name for member in record.fields or () if member.name is not None)
        names.update(e.tag for e in self.enums if e.tag is not None)
        names -= {c.name for c in self.constants} | {m.name for e in self.enums for m in e.members}
        return tuple(sorted(names & self.macro_names | called))

    # -- lookups -----------------------------------------------------------
    def function(self, name: str) -> Function:
        return self._index[("function", name)]

    def record(self, key: str) -> Record:
        return self._index[("record", key)]

    def enum(self, key: str) -> Enum:
        return self._index[("enum", key)]

    def typedef(self, name: str) -> Typedef:
        return self._index[("typedef", name)]

    def constant(self, name: str) -> Constant:
        return self._index[("constant", name)]

    def get(self, kind: DeclarationKind, name: str) -> Declaration | None:
        """The declaration of ``kind`` (function, record, enum, typedef, constant, variable, function_alias)."""
        return self._index.get((kind, name))

    # Typed lookups: what a caller gets needs no cast, and a misspelt kind is a type error.

    def find_record(self, key: str) -> Record | None:
        """The struct or union registered under ``key`` (``struct tag``, or a synthetic key), else None."""
        found = self._index.get(("record", key))
        return found if isinstance(found, Record) else None

    def find_enum(self, key: str) -> Enum | None:
        found = self._index.get(("enum", key))
        return found if isinstance(found, Enum) else None

    def find_typedef(self, name: str) -> Typedef | None:
        found = self._index.get(("typedef", name))
        return found if isinstance(found, Typedef) else None

    def find_function(self, name: str) -> Function | None:
        found = self._index.get(("function", name))
        return found if isinstance(found, Function) else None

    def find_constant(self, name: str) -> Constant | None:
        found = self._index.get(("constant", name))
        return found if isinstance(found, Constant) else None

    def declarations(self) -> Iterator[Declaration]:
        yield from self.typedefs
        yield from self.records
        yield from self.enums
        yield from self.functions
        yield from self.constants
        yield from self.variables
        yield from self.function_aliases

    def resolve(self, ctype: CType) -> Type:
        """Follow typedefs until a non-typedef type; qualifiers of every level are kept.

        The result is a :class:`TypedefRef` only for a name no typedef declares or one that
        refers to itself.
        """
        resolved = as_type(ctype)
        if not isinstance(resolved, TypedefRef):  # most often: nothing to follow
            return resolved
        quals: tuple[str, ...] = ()
        seen = set()
        while isinstance(resolved, TypedefRef):
            if resolved.name in seen:
                break
            seen.add(resolved.name)
            quals += resolved.quals
            target = self.find_typedef(resolved.name)
            if target is None:
                return resolved
            resolved = as_type(target.type)
        return resolved.with_quals(*quals) if quals else resolved

    def canonical(self, ctype: CType) -> Type:
        """``ctype`` with the typedefs of every level resolved, qualifiers and parameter names dropped.

        Two types C treats as the same object type print the same (``uLongf *`` and
        ``unsigned long *``): what tells pointer values of different types apart.
        """
        return canonical_type(ctype, self.resolve, qualifiers=False)

    def replace(self, **changes) -> Module:
        """A copy with some registries replaced (passes use this)."""
        return replace(self, **changes)


#: the types a run makes most, made without the call of their class (see frozen.maker): the
#: builder's, a function's type at each ask, canonical types at every comparison of two
new_primitive, new_typedef_ref, new_pointer = maker(Primitive), maker(TypedefRef), maker(Pointer)
new_function_type, new_param = maker(FunctionType), maker(Param)


def canonical_type(ctype: CType, resolve: Callable[[CType], Type], *, qualifiers: bool = True) -> Type:
    """``ctype`` with the typedefs of every level resolved by ``resolve`` and parameter names
    dropped; qualifiers kept unless ``qualifiers`` is false, but for a function type's own
    parameters' and result's, which are no part of it (``void (*)(const int)`` is
    ``void (*)(int)``, C11 6.7.6.3p15)."""
    resolved = resolve(ctype)
    if not qualifiers:
        resolved = resolved.unqualified()
    match resolved:  # a pointer or array already canonical is given back as it is, not copied
        case Pointer():
            target = canonical_type(resolved.target, resolve, qualifiers=qualifiers)
            return resolved if target is resolved.target else new_pointer(target, resolved.quals)
        case Array():
            element = canonical_type(resolved.element, resolve, qualifiers=qualifiers)
            return resolved if element is resolved.element and not resolved.quals else Array(element, resolved.length)
        case FunctionType():
            params = tuple(new_param(None, canonical_type(p.type, resolve, qualifiers=qualifiers).unqualified())
                           for p in resolved.params)
            return new_function_type(canonical_type(resolved.ret, resolve, qualifiers=qualifiers).unqualified(),
                                     params, resolved.variadic)
        case Primitive() | TypedefRef() | RecordRef():
            return resolved
        case _:
            assert_never(resolved)


def assert_never(value: NoReturn) -> NoReturn:
    """The last case of an exhaustive ``match`` over a closed set of kinds.

    A type checker reports every ``match`` a new kind leaves unhandled (as
    ``typing.assert_never`` does from Python 3.11 on, which pegbind does not require).
    """
    raise AssertionError(f"unhandled case: {value!r}")
