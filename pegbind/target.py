"""Targets: data models, predefined macros and (below) record layout.

Input: a target name (``--target``) and, for layouts, the :class:`~pegbind.model.Module`.
Output: :class:`TargetInfo` — sizes and alignments of the primitive types,
signedness of ``char``, the macros a compiler for that target predefines and
what it answers to ``__has_builtin`` and its relatives (:class:`CompilerFacts`) —
used by the preprocessor (predefines, our own freestanding headers) and by the
layout computation that gives every record its size, alignment and offsets.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType

from .diagnostics import Coord, Diagnostic, PegbindError
from .frozen import frozen_dataclass, replace
from .model import (
    COMPLEX_PARTS,
    Array,
    CType,
    Enum,
    Field,
    FunctionType,
    Module,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    Type,
    TypedefRef,
    as_type,
    assert_never,
)
from .resources import compilers_dir

DEFAULT_TARGET = "linux-x86_64"


@frozen_dataclass()
class CompilerFacts:
    """What the compiler pegbind stands in for (gcc 12, as Debian ships it for the target)
    predefines and answers: ``pegbind/data/compilers/TARGET.json``, written from the real
    compiler by ``scripts/compiler-data.py`` and compared with it by the tests."""

    compiler: str  #: its ``--version`` line
    #: every macro it predefines (``-dM``): the name, with its parameters if it has
    #: any (``__INT8_C(c)``), -> the replacement text
    predefined: Mapping[str, str]
    builtins: frozenset[str]  #: what ``__has_builtin`` is 1 for
    attributes: Mapping[str, int]  #: what ``__has_attribute`` is not 0 for, and its value
    c_attributes: Mapping[str, int]  #: the same for ``__has_c_attribute`` (``gnu::`` names too)

    def attribute(self, name: str) -> int:
        """``__has_attribute(name)``: ``__packed__`` is ``packed``, as gcc has it."""
        if name.startswith("__") and name.endswith("__") and len(name) > 4:
            return self.attributes.get(name, self.attributes.get(name[2:-2], 0))
        return self.attributes.get(name, 0)


@functools.cache
def compiler_facts(target: str) -> CompilerFacts:
    """The :class:`CompilerFacts` of the target named ``target``."""
    data = json.loads((compilers_dir() / f"{target}.json").read_text(encoding="utf-8"))
    return CompilerFacts(
        data["compiler"], MappingProxyType(data["predefined"]), frozenset(data["builtins"]),
        MappingProxyType(data["attributes"]), MappingProxyType(data["c_attributes"]),
    )


@frozen_dataclass()
class TargetInfo:
    """What a C compiler for one target knows before reading any header."""

    name: str
    #: (size, alignment) in bytes of each primitive type and of ``pointer``
    sizes: Mapping[str, tuple[int, int]]
    char_signed: bool
    #: the type of ``wchar_t`` / ``size_t`` / ``ptrdiff_t`` / ``intptr_t`` as primitive names
    wchar_type: str
    size_type: str
    ptrdiff_type: str
    int64_type: str  #: the primitive ``int64_t`` is on this target
    #: Microsoft bitfield layout (win-x86_64) instead of SysV
    ms_bitfields: bool = False

    @property
    def compiler(self) -> CompilerFacts:
        """What the compiler pegbind stands in for on this target predefines and answers."""
        return compiler_facts(self.name)

    @property
    def predefines(self) -> Mapping[str, str]:
        """The macros that compiler predefines: name (with its parameters) -> replacement text."""
        return self.compiler.predefined

    def size_of(self, primitive: str) -> int:
        return self.sizes[primitive][0]

    def align_of(self, primitive: str) -> int:
        return self.sizes[primitive][1]

    @property
    def pointer_size(self) -> int:
        return self.sizes["pointer"][0]

    # ---- integers: the one home of signedness, width and range ----------------------

    def is_signed(self, primitive: str) -> bool:
        """Whether the integer type ``primitive`` is signed (plain ``char`` follows the target)."""
        if primitive == "char":
            return self.char_signed
        return not (primitive.startswith("unsigned") or primitive == "_Bool")

    def bits_of(self, primitive: str) -> int:
        return 8 * self.sizes[primitive][0]

    def int_range(self, primitive: str) -> tuple[int, int]:
        """The inclusive range of values the integer type ``primitive`` holds."""
        return bit_range(self.bits_of(primitive), self.is_signed(primitive))

    def fits(self, value: int, primitive: str) -> bool:
        """Whether ``value`` is in the range of the integer type ``primitive``."""
        lo, hi = self.int_range(primitive)
        return lo <= value <= hi

    def wrap(self, value: int, primitive: str) -> int:
        """``value`` converted to the integer type ``primitive`` (C11 6.3.1.3; modulo 2**N, as gcc does)."""
        if primitive == "_Bool":
            return int(value != 0)
        bits = self.bits_of(primitive)
        value &= (1 << bits) - 1
        if self.is_signed(primitive) and value >> (bits - 1):
            value -= 1 << bits
        return value


def bit_range(bits: int, signed: bool) -> tuple[int, int]:
    """The inclusive range of a ``bits``-wide integer (a type or a bitfield)."""
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _sizes(long: int, pointer: int, long_double: tuple[int, int], *,
           i386: bool = False) -> Mapping[str, tuple[int, int]]:
    # On i386 SysV, long long and double are 8 bytes but only 4-aligned in records.
    eight_align = 4 if i386 else 8
    table = {
        "void": (1, 1),
        "_Bool": (1, 1),
        "char": (1, 1),
        "signed char": (1, 1),
        "unsigned char": (1, 1),
        "short": (2, 2),
        "unsigned short": (2, 2),
        "int": (4, 4),
        "unsigned int": (4, 4),
        "long": (long, long),
        "unsigned long": (long, long),
        "long long": (8, eight_align),
        "unsigned long long": (8, eight_align),
        "float": (4, 4),
        "double": (8, eight_align),
        "long double": long_double,
        "pointer": (pointer, pointer),
    }
    for name, part in COMPLEX_PARTS.items():  # a complex value is its real and imaginary parts
        size, align = table[part]
        table[name] = (2 * size, align)
    if pointer == 8:
        table["__int128"] = (16, 16)
        table["unsigned __int128"] = (16, 16)
    return MappingProxyType(table)


def _build_targets() -> dict[str, TargetInfo]:
    return {
        "linux-x86_64": TargetInfo(
            "linux-x86_64", _sizes(8, 8, (16, 16)), True, "int", "unsigned long", "long", "long",
        ),
        "linux-aarch64": TargetInfo(
            "linux-aarch64", _sizes(8, 8, (16, 16)), False, "unsigned int", "unsigned long", "long", "long",
        ),
        "linux-i386": TargetInfo(
            "linux-i386", _sizes(4, 4, (12, 4), i386=True), True, "long", "unsigned int", "int", "long long",
        ),
        "win-x86_64": TargetInfo(
            "win-x86_64", _sizes(4, 8, (16, 16)), True, "unsigned short", "unsigned long long", "long long",
            "long long", ms_bitfields=True,
        ),
    }


TARGETS: Mapping[str, TargetInfo] = MappingProxyType(_build_targets())
#: ``ilp32`` is accepted as another name for the 32-bit Linux target.
ALIASES = {"ilp32": "linux-i386", "lp64": "linux-x86_64", "llp64": "win-x86_64"}


def get_target(name: str | None) -> TargetInfo:
    """The :class:`TargetInfo` for ``name`` (default target when None); KeyError lists the choices."""
    name = ALIASES.get(name or DEFAULT_TARGET, name or DEFAULT_TARGET)
    try:
        return TARGETS[name]
    except KeyError:
        choices = ", ".join(sorted(TARGETS))
        raise KeyError(f"unknown target {name!r} (choose one of: {choices})") from None


# ==========================================================================
# Record layout
# ==========================================================================
#
# Sizes, alignments and offsets of the model's types, computed the way GCC
# lays them out for the target: the SysV psABI (x86_64, AArch64, i386) with
# GCC's bitfield rules, or the Microsoft rules for runs of bitfields when
# ``TargetInfo.ms_bitfields`` is set.  Everything is computed in *bits*
# internally because bitfields are placed bit by bit.


class LayoutError(PegbindError):
    """A type has no size: incomplete, opaque, a function, or unknown."""


@frozen_dataclass()
class FieldLayout:
    """Where one member of a record sits.

    For a bitfield, ``offset`` is the byte holding its first bit, and
    ``bit_offset`` its first bit counted from the start of the record
    (little-endian bit numbering, as GCC allocates on every target we know).
    ``size`` and ``align`` are those of the declared type, ``align`` after
    ``#pragma pack``/``packed``/``aligned`` took effect.
    """

    name: str | None  #: None for an anonymous member or unnamed bitfield
    offset: int  #: bytes from the start of the record
    bit_offset: int | None  #: bits from the start of the record; bitfields only
    bit_width: int | None  #: bitfields only
    size: int  #: bytes (0 for a flexible array member)
    align: int  #: bytes


@frozen_dataclass()
class RecordLayout:
    """Size, alignment and member placement of one complete struct or union."""

    key: str  #: the record's registry key
    size: int
    align: int
    fields: tuple[FieldLayout, ...]  #: one per declared member, in declaration order
    #: for members that are themselves records: their layouts, by index in ``fields``
    members: Mapping[int, RecordLayout] = field(default_factory=dict, compare=False)

    def flat_fields(self, *, nested: bool = False) -> list[tuple[str, FieldLayout]]:
        """(path, layout) of every named member reachable as ``offsetof(T, path)``.

        Members of anonymous struct/union members appear under their own names
        at their absolute offsets, as C lets code name them directly.  With
        ``nested``, members of named record members are included too, as
        dotted paths (``hdr.len``) — GCC's ``offsetof`` accepts those.
        """
        result: list[tuple[str, FieldLayout]] = []
        self._flatten("", 0, nested, result)
        return result

    def _flatten(self, prefix: str, base: int, nested: bool, out: list[tuple[str, FieldLayout]]) -> None:
        for index, placed in enumerate(self.fields):
            shifted = _shift(placed, base)
            inner = self.members.get(index)
            if placed.name is None:
                if inner is not None:  # anonymous member: its names belong to us
                    inner._flatten(prefix, shifted.offset, nested, out)
                continue
            out.append((prefix + placed.name, shifted))
            if nested and inner is not None:
                inner._flatten(f"{prefix}{placed.name}.", shifted.offset, nested, out)


def _shift(placed: FieldLayout, base: int) -> FieldLayout:
    if base == 0:
        return placed
    bit = None if placed.bit_offset is None else placed.bit_offset + 8 * base
    return FieldLayout(placed.name, placed.offset + base, bit, placed.bit_width, placed.size, placed.align)


def builtin_size_align(name: str, target: TargetInfo) -> tuple[int, int] | None:
    """(size, align) of a builtin type name the compiler knows without a declaration, else None."""
    if name != "__builtin_va_list":
        return None
    if target.name == "linux-x86_64":
        return (24, 8)  # struct __va_list_tag[1]: two unsigned and two pointers
    if target.name == "linux-aarch64":
        return (32, 8)  # struct __va_list: three pointers and two ints
    return (target.pointer_size, target.pointer_size)  # a plain char * (i386, Windows)


def enum_type(module: Module, enum: Enum, target: TargetInfo) -> str:
    """The primitive GCC gives ``enum``: its size, alignment and signedness.

    ``unsigned int`` when no value is negative and all fit, else ``int`` when
    all fit; values beyond 32 bits (a GNU extension) take the 64-bit type,
    ``long`` where it has 64 bits, else ``long long``.  A packed enum takes
    the smallest of char/short/int/64-bit that holds every value.
    """
    values = [m.value for m in enum.members] or [0]
    signed = min(values) < 0
    wide = "long" if target.size_of("long") == 8 else "long long"
    ladder = ["char", "short", "int", wide] if enum.packed else ["int", wide]
    for base in ladder:
        lo, hi = bit_range(8 * target.size_of(base), signed)
        if all(lo <= v <= hi for v in values):
            if base == "char":
                return "signed char" if signed else "unsigned char"
            return base if signed else f"unsigned {base}"
    # Beyond 64 bits GCC warns and uses the widest type; so do we.
    return f"{wide}" if signed else f"unsigned {wide}"


def enum_constant_type(module: Module, enum: Enum, value: int, target: TargetInfo) -> str:
    """The type of an enumerator with ``value``: ``int`` when it fits (C11 6.4.4.3), else the enum's type."""
    if target.fits(value, "int"):
        return "int"
    return enum_type(module, enum, target)


def integer_primitive(module: Module, ctype: CType, target: TargetInfo) -> str | None:
    """The primitive integer type behind ``ctype`` (typedefs resolved, an enum's underlying type), else None."""
    resolved = module.resolve(ctype)
    if isinstance(resolved, RecordRef) and resolved.kind == "enum":
        enum = module.find_enum(resolved.key)
        return enum_type(module, enum, target) if enum is not None else "int"
    if isinstance(resolved, Primitive) and not (resolved.is_floating or resolved.is_complex or resolved.is_void):
        return resolved.name
    return None


def integer_range(module: Module, ctype: CType, target: TargetInfo) -> tuple[int, int]:
    """The inclusive range of values the integer (or enum) type ``ctype`` holds; ValueError for others."""
    name = integer_primitive(module, ctype, target)
    if name is None:
        raise ValueError(f"{ctype.to_c()} is not an integer type")
    return target.int_range(name)


def _cache_for(module: Module) -> dict[tuple[str, str], RecordLayout]:
    """The record layouts worked out for ``module``, kept with it: they live as long as it does."""
    return module._derived.setdefault("layouts", {})


def size_align(module: Module, ctype: CType, target: TargetInfo) -> tuple[int, int]:
    """(size, alignment) in bytes of ``ctype`` as a member of a record on ``target``.

    Raises :class:`LayoutError` for void, function, opaque or otherwise
    incomplete types and for unknown typedef names.
    """
    return _Layouter(module, target).size_align(ctype, None)


def typedef_aligned(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` (or the element of an array of it) is named by a typedef with an ``aligned`` attribute."""
    seen: set[str] = set()
    current = as_type(ctype)
    while isinstance(current, (TypedefRef, Array)) and not (isinstance(current, TypedefRef) and current.name in seen):
        if isinstance(current, Array):
            current = as_type(current.element)
            continue
        seen.add(current.name)
        typedef = module.find_typedef(current.name)
        if typedef is None:
            return False
        if typedef.aligned is not None:
            return True
        current = as_type(typedef.type)
    return False


def record_layout(module: Module, key: str, target: TargetInfo) -> RecordLayout:
    """The layout of the record registered under ``key`` (cached per module, key and target)."""
    return _Layouter(module, target).record(key, None)


def layouts(module: Module, target: TargetInfo) -> dict[str, RecordLayout]:
    """The layout of every complete record of ``module`` whose layout can be computed, by key."""
    result: dict[str, RecordLayout] = {}
    for record in module.records:
        if record.fields is None:
            continue
        try:
            result[record.key] = record_layout(module, record.key, target)
        except LayoutError:
            continue  # a member of incomplete type; callers asking for it get the error
    return result


class _Layouter:
    """One layout computation; remembers what it is working on to catch cycles."""

    def __init__(self, module: Module, target: TargetInfo):
        self.module = module
        self.target = target
        self.cache = _cache_for(module)
        self.in_progress: set[str] = set()

    def fail(self, coord: Coord | None, message: str) -> LayoutError:
        return LayoutError(Diagnostic(coord, message))

    # -- any type ----------------------------------------------------------
    def size_align(self, ctype: CType, coord: Coord | None) -> tuple[int, int]:
        """(size, alignment) of ``ctype``; a typedef's ``aligned`` attribute sets the alignment
        (the outermost such typedef's, as GCC reads it: larger or smaller), leaving the size."""
        seen: set[str] = set()
        aligned: int | None = None
        # Typedefs are followed here, not by Module.resolve: the coordinate of the
        # innermost one is the best place to point at, and a cycle is an error.
        resolved = as_type(ctype)
        while isinstance(resolved, TypedefRef):
            typedef = self.module.find_typedef(resolved.name)
            if typedef is None:
                builtin = builtin_size_align(resolved.name, self.target)
                if builtin is not None:
                    return builtin if aligned is None else (builtin[0], aligned)
                raise self.fail(coord, f"unknown type name '{resolved.name}'")
            if resolved.name in seen:
                raise self.fail(typedef.coord, f"typedef '{resolved.name}' refers to itself")
            seen.add(resolved.name)
            if aligned is None:
                aligned = typedef.aligned
            coord = typedef.coord or coord
            resolved = as_type(typedef.type)
        size, align = self._size_align_of(resolved, coord)
        return size, align if aligned is None else aligned

    def _size_align_of(self, resolved: Type, coord: Coord | None) -> tuple[int, int]:
        """(size, alignment) of a type that is no typedef name."""
        match resolved:
            case Primitive():
                if resolved.name == "void":
                    raise self.fail(coord, "'void' has no size")
                if resolved.name not in self.target.sizes:
                    raise self.fail(coord, f"'{resolved.name}' is not available on {self.target.name}")
                return self.target.sizes[resolved.name]
            case Pointer():
                return self.target.sizes["pointer"]
            case Array():
                if resolved.length is None:
                    raise self.fail(coord, f"array '{resolved.to_c()}' has no size")
                size, align = self.size_align(resolved.element, coord)
                return size * resolved.length, align
            case FunctionType():
                raise self.fail(coord, f"function type '{resolved.to_c()}' has no size")
            case RecordRef():
                if resolved.kind == "enum":
                    enum = self.module.find_enum(resolved.key)
                    if enum is None or not enum.members:
                        raise self.fail(coord, f"'{resolved.to_c()}' is an incomplete enum")
                    return self.target.sizes[enum_type(self.module, enum, self.target)]
                placed = self.record(resolved.key, coord)
                return placed.size, placed.align
            case TypedefRef():
                return self.size_align(resolved, coord)
            case _:
                assert_never(resolved)

    # -- records -----------------------------------------------------------
    def record(self, key: str, coord: Coord | None) -> RecordLayout:
        cached = self.cache.get((key, self.target.name))
        if cached is not None:
            return cached
        record = self.module.find_record(key)
        if record is None:
            raise self.fail(coord, f"'{key}' is not declared")
        if record.fields is None:
            raise self.fail(coord or record.coord, f"'{key}' is an incomplete type (declared but never defined)")
        if key in self.in_progress:
            raise self.fail(record.coord, f"'{key}' contains itself")
        self.in_progress.add(key)
        try:
            placed = _RecordBuilder(self, record).build()
        finally:
            self.in_progress.discard(key)
        if record.tag is None:  # untagged: its typedef is its only name, and that name's alignment is its
            named = self.module.find_typedef(key)
            if named is not None and named.aligned is not None and as_type(named.type) == record.ref:
                placed = replace(placed, align=named.aligned)
        self.cache[(key, self.target.name)] = placed
        return placed


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


class _RecordBuilder:
    """Places the members of one record, in bits, by GCC's rules for the target."""

    def __init__(self, layouter: _Layouter, record: Record):
        self.layouter = layouter
        self.record = record
        self.pack = record.pack or None  # ``#pragma pack()`` (0) means natural alignment
        self.bitpos = 0  #: next free bit (structs)
        self.size_bits = 0  #: bits used so far (max over members for unions)
        self.align = 1  #: record alignment so far, bytes
        # Microsoft bitfield runs: start bit, type size in bits, bits left
        self.run: tuple[int, int] | None = None
        self.run_left = 0

    def build(self) -> RecordLayout:
        record = self.record
        fields = record.fields or ()
        placed: list[FieldLayout] = []
        members: dict[int, RecordLayout] = {}
        for index, member in enumerate(fields):
            declared = self.resolve(member.type)
            if isinstance(declared, Array) and declared.length is None:
                # A flexible array member: no size of its own, but its alignment counts.
                if record.kind == "struct" and index != len(fields) - 1:
                    raise self.layouter.fail(member.coord,
                                             f"flexible array member '{member.name}' not at end of struct")
                size, type_align = 0, self.layouter.size_align(declared.element, member.coord)[1]
            else:
                size, type_align = self.layouter.size_align(member.type, member.coord)
            if isinstance(declared, RecordRef) and declared.kind != "enum":
                members[index] = self.layouter.record(declared.key, member.coord)
            if member.bit_width is not None:
                placed.append(self.place_bitfield(member, size, type_align))
            else:
                placed.append(self.place_plain(member, size, type_align))
        if self.run is not None:  # a trailing Microsoft run occupies its whole unit
            self.close_run()
        end = self.size_bits if record.kind == "union" else max(self.size_bits, self.bitpos)
        align = max(self.align, record.aligned or 1)
        size = _round_up(_round_up(end, 8) // 8, align)
        # Objects are at most PTRDIFF_MAX bytes; gcc refuses larger types.
        if size > (1 << (8 * self.layouter.target.pointer_size - 1)) - 1:
            raise self.layouter.fail(record.coord, f"{record.key} is too large ({size} bytes)")
        return RecordLayout(record.key, size, align, tuple(placed), members)

    def resolve(self, ctype: CType) -> Type:
        return self.layouter.module.resolve(ctype)

    def is_packed(self, member: Field, type_align: int) -> bool:
        # Since GCC 4.4 a packed record packs even char bitfields bit by bit;
        # for ordinary char-aligned members packing changes nothing.
        return member.packed or self.record.packed

    def start_bit(self, align_bytes: int) -> int:
        return 0 if self.record.kind == "union" else _round_up(self.bitpos, 8 * align_bytes)

    def occupy(self, start: int, bits: int) -> None:
        if self.record.kind == "union":
            self.size_bits = max(self.size_bits, bits)
        else:
            self.bitpos = start + bits
            self.size_bits = max(self.size_bits, self.bitpos)

    # -- ordinary members --------------------------------------------------
    # A packed member keeps only an explicit aligned(N) (GCC ignores the type's
    # alignment then, even if N is smaller); #pragma pack caps even aligned(N).
    def place_plain(self, member: Field, size: int, type_align: int) -> FieldLayout:
        if self.run is not None:
            self.close_run()
        if self.is_packed(member, type_align):
            align = member.aligned or 1
        else:
            align = max(type_align, member.aligned or 1)
        if self.pack is not None:
            align = min(align, self.pack)
        start = self.start_bit(align)
        self.occupy(start, 8 * size)
        self.align = max(self.align, align)
        return FieldLayout(member.name, start // 8, None, None, size, align)

    # -- bitfields ---------------------------------------------------------
    def place_bitfield(self, member: Field, size: int, type_align: int) -> FieldLayout:
        if self.layouter.target.ms_bitfields:
            return self.place_ms_bitfield(member, size, type_align)
        width = member.bit_width or 0
        unit = 8 * type_align
        if width == 0:
            # ``T : 0`` moves the next member to a unit boundary of T; neither
            # #pragma pack nor packed weakens it, and being unnamed it does not
            # raise the record's alignment.
            start = self.start_bit(type_align)
            if self.record.kind == "struct":
                self.bitpos = start
            return FieldLayout(member.name, start // 8, start, 0, size, type_align)
        packed = self.is_packed(member, type_align)
        effective = type_align
        if self.pack is not None:
            effective = min(effective, self.pack)
        elif packed:
            effective = 1
        start = 0 if self.record.kind == "union" else self.bitpos  # bitfields go bit by bit
        if member.aligned:
            user = min(member.aligned, self.pack) if self.pack is not None else member.aligned
            start = self.start_bit(user)
            effective = max(effective, user)
        if self.record.kind == "struct" and not packed and self.pack is None:
            # A bitfield may not span more alignment units of its type than the
            # type itself has (only i386 long long, 8 bytes 4-aligned, may span two).
            offset = start % unit
            if (offset + width + unit - 1) // unit > (8 * size) // unit:
                start = _round_up(start, unit)
        self.occupy(start, width)
        if member.name is not None:
            self.align = max(self.align, effective)
        return FieldLayout(member.name, start // 8, start, width, size, effective)

    def close_run(self) -> None:
        if self.run is None:
            return
        first, unit_bits = self.run
        self.bitpos = first + unit_bits
        self.size_bits = max(self.size_bits, self.bitpos)
        self.run = None

    def place_ms_bitfield(self, member: Field, size: int, type_align: int) -> FieldLayout:
        """Microsoft rules: a run of bitfields shares one unit of the declared type's size.

        A bitfield continues the current run only when its type has the same
        size and it fits in the bits left; otherwise the run's unit is used up
        and a new unit, aligned for the type, starts.  ``T : 0`` ends a run and
        aligns to T, but is ignored when no bitfield precedes it.  Unlike SysV,
        unnamed bitfields count for the record's alignment.
        """
        width = member.bit_width or 0
        align = type_align
        if self.pack is not None:
            align = min(align, self.pack)
        elif self.is_packed(member, type_align):
            align = 1
        unit_bits = 8 * size
        if width == 0:
            if self.run is None:
                return FieldLayout(member.name, self.bitpos // 8, self.bitpos, 0, size, align)
            self.close_run()
            start = self.start_bit(align)
            self.bitpos = start if self.record.kind == "struct" else self.bitpos
            self.align = max(self.align, align)
            return FieldLayout(member.name, start // 8, start, 0, size, align)
        if self.record.kind == "union":
            self.size_bits = max(self.size_bits, unit_bits)
            self.align = max(self.align, align)
            return FieldLayout(member.name, 0, 0, width, size, align)
        if self.run is not None and self.run[1] == unit_bits and width <= self.run_left:
            start = self.run[0] + unit_bits - self.run_left
            self.run_left -= width
        else:
            if self.run is not None:
                self.close_run()
            first = self.start_bit(align)
            self.run = (first, unit_bits)
            self.run_left = unit_bits - width
            start = first
        self.bitpos = start + width
        self.size_bits = max(self.size_bits, self.run[0] + unit_bits)
        self.align = max(self.align, align)
        return FieldLayout(member.name, start // 8, start, width, size, align)
