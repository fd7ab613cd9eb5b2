"""ctypes spelling of the binding model, and what the ``templates/ctypes/`` files see.

Input: a :class:`~pegbind.passes.binding.BindingModel`.  Output: the context
of ``ctypes/ctypes.py.jinja`` — one pure-Python module with a
``Structure``/``Union`` per record placed byte for byte as the
:mod:`pegbind.target` layout says (bitfields as plain storage members, see
:class:`BitAccess`; padding and ``_pack_`` where ctypes would place a member
elsewhere), a user-facing class per bound record, and one wrapper per
function over a ``CFUNCTYPE`` prototype of the symbol: with ``argtypes``, or
with the ``restype`` only where the wrapper hands ctypes nothing but values it
passes exactly as C expects (see :meth:`CtypesWriter.bare_call`).

The wrappers are the call plans rendered by :mod:`pegbind.emit.pywrapper`,
shared with the cffi backend; :class:`CtypesWriter` spells their steps in ctypes.
"""
from __future__ import annotations

import keyword
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..config import BindingConfig
from ..diagnostics import Diagnostic
from ..model import Array, CType, FunctionType, Pointer, Primitive, Record, RecordRef
from ..passes.binding import BindingModel, FunctionBinding, ParamBinding
from ..passes.callplan import Slot, element_size
from ..passes.select import is_synthetic
from ..target import LayoutError, RecordLayout, integer_primitive, record_layout
from .cython import banner, c_type_text, py_docstring, py_literal, py_string
from .pywrapper import UnspellableError, WrapperWriter, arg_label, field_plans, min_bytes, ordered_records


class CtypesSpellingError(UnspellableError):
    """A C type with no ctypes equivalent (``__int128``, a function by value)."""


#: the largest int CPython keeps in one 30-bit digit, whose comparisons it specialises
_SMALL_INT = (1 << 30) - 1


# --------------------------------------------------------------------------
# ctypes spelling
# --------------------------------------------------------------------------


def ctypes_attr(name: str) -> str:
    """The attribute a C member is reached by on a ctypes Structure (Python keywords are renamed)."""
    return f"_pb_{name}" if keyword.iskeyword(name) else name


_FLOATS = {"float": "_ct.c_float", "double": "_ct.c_double", "long double": "_ct.c_longdouble"}


class CtypesSpeller:
    """Spells model types as ctypes expressions for one binding's module and target.

    Integer types are spelled by width (``_ct.c_int32``) from the target's
    data model, so the module describes the target's layout, not the
    generating machine's; records are the ``_S<n>`` classes of the module.
    """

    def __init__(self, binding: BindingModel):
        self.module = binding.module
        self.target = binding.target
        self.struct_names: dict[str, str] = {}
        for index, record in enumerate(r for r in self.module.records if not r.is_opaque):
            self.struct_names[record.key] = f"_S{index}"

    def integer(self, name: str) -> str:
        if name == "_Bool":
            return "_ct.c_bool"
        bits = 8 * self.target.size_of(name)
        if bits > 64:
            raise CtypesSpellingError(f"ctypes has no {bits}-bit integer ({name})")
        return f"_ct.c_{'' if self.target.is_signed(name) else 'u'}int{bits}"

    def spell(self, ctype: CType) -> str:
        """The ctypes type of a value of ``ctype`` (data pointers are ``c_void_p``)."""
        resolved = self.module.resolve(ctype)
        if isinstance(resolved, Primitive):
            if resolved.is_void:
                return "None"
            if resolved.is_floating:
                return _FLOATS[resolved.name]
            return self.integer(resolved.name)
        if isinstance(resolved, RecordRef):
            if resolved.kind == "enum":
                return self.integer(integer_primitive(self.module, resolved, self.target) or "int")
            if resolved.key not in self.struct_names:
                raise CtypesSpellingError(f"{resolved.to_c()} is opaque")
            return self.struct_names[resolved.key]
        if isinstance(resolved, Pointer):
            return "_ct.c_void_p"
        if isinstance(resolved, Array):
            return f"({self.spell(resolved.element)} * {resolved.length or 0})"
        if isinstance(resolved, FunctionType):
            raise CtypesSpellingError("a function type has no value")
        raise CtypesSpellingError(f"cannot spell {ctype.to_c()} in ctypes")

    def field_type(self, ctype: CType) -> str:
        """Like :meth:`spell`, but ``char *`` members read back as ``bytes`` (``c_char_p``)
        and ``char`` arrays as ``c_char`` arrays (ctypes reads those as bytes up to the NUL)."""
        resolved = self.module.resolve(ctype)
        if isinstance(resolved, Pointer):
            target = self.module.resolve(resolved.target)
            if isinstance(target, Primitive) and target.name == "char":
                return "_ct.c_char_p"
        if isinstance(resolved, Array):
            element = self.module.resolve(resolved.element)
            if isinstance(element, Primitive) and element.name == "char":
                return f"(_ct.c_char * {resolved.length or 0})"
            return f"({self.field_type(resolved.element)} * {resolved.length or 0})"
        return self.spell(ctype)

    def argtype(self, param: ParamBinding) -> str:
        if param.kind == "cstring":
            return "_ct.c_char_p"
        if param.kind in ("buffer", "writable_buffer"):
            return "_ct.c_void_p"
        if param.kind == "record_ptr":
            return f"_ct.POINTER({self.struct_names[param.record_key or '']})"
        return self.spell(param.ctype)

    def restype(self, binding: FunctionBinding) -> str:
        if binding.ret.kind == "string":
            return "_ct.c_char_p"
        return self.spell(binding.function.ret)


# --------------------------------------------------------------------------
# Record layouts: ctypes classes placed byte for byte as pegbind.target says
# --------------------------------------------------------------------------
#
# ctypes places members by its own rules, and before CPython 3.13 its
# bitfield allocation differs from GCC's (members of different declared types
# never share a unit).  So ctypes never sees a bitfield: each cluster of
# bitfields sharing bytes becomes one plain storage member (an unsigned integer,
# or a byte array when no integer fits), and the record class reads and writes
# the bits with shifts and masks.  Every other member stays a real ctypes
# field, so nested views, arrays and pointers work as before; where ctypes'
# own placement would differ from the layout (``aligned``, packed members,
# storage units), unnamed byte arrays pad up to the exact offset, a ``_pack_``
# lowers ctypes' alignments to what the offsets allow, and a zero-length array
# of a suitably aligned type gives the class the record's alignment.


@dataclass(frozen=True, slots=True)
class StructMember:
    """One ``_fields_`` entry."""

    name: str
    ctype: str
    anonymous: bool


@dataclass(frozen=True, slots=True)
class BitAccess:
    """How the record class reaches one named bitfield inside its storage member.

    The storage holds ``unit_bytes`` bytes of the record, read as one
    little-endian unsigned integer; the field is ``width`` bits of it from bit
    ``shift`` (GCC numbers bitfield bits from the least significant end on
    every target pegbind knows).
    """

    path: str  #: the C member name (members of anonymous members included)
    storage: str  #: the ctypes member holding the bits
    unit_bytes: int
    as_bytes: bool  #: storage is a ``c_uint8`` array, not an integer
    shift: int
    width: int
    signed: bool  #: sign-extend on read (the declared type is signed)

    def load(self, struct: str) -> str:
        """An expression for the storage unit of the ctypes object ``struct`` as an int."""
        if self.as_bytes:
            return f"int.from_bytes({struct}.{self.storage}, 'little')"
        return f"{struct}.{self.storage}"

    def store(self, struct: str, unit: str) -> str:
        """A statement writing the int ``unit`` back into the storage of ``struct``."""
        if self.as_bytes:
            return f"{struct}.{self.storage}[:] = ({unit}).to_bytes({self.unit_bytes}, 'little')"
        return f"{struct}.{self.storage} = {unit}"

    def extract(self, unit: str) -> str:
        """An expression for the field's value in the storage integer ``unit``."""
        mask = (1 << self.width) - 1
        bits = f"{unit} >> {self.shift} & {mask:#x}" if self.shift else f"{unit} & {mask:#x}"
        if self.signed:
            sign = 1 << (self.width - 1)
            return f"(({bits}) ^ {sign:#x}) - {sign:#x}"
        return bits

    def insert(self, unit: str, value: str) -> str:
        """An expression for ``unit`` with the field's bits replaced by the int ``value``."""
        mask = (1 << self.width) - 1
        keep = ((1 << (8 * self.unit_bytes)) - 1) & ~(mask << self.shift)
        shifted = f"({value} & {mask:#x}) << {self.shift}" if self.shift else f"({value} & {mask:#x})"
        return f"{unit} & {keep:#x} | {shifted}"


@dataclass(frozen=True, slots=True)
class StructPlan:
    """A ``Structure``/``Union`` class of the generated module."""

    name: str
    kind: str  #: "struct" | "union"
    key: str
    pack: int | None  #: ``_pack_``, when ctypes' natural alignments must be lowered
    members: tuple[StructMember, ...]
    size: int  #: the layout's size (checked at import)
    align: int  #: the alignment ctypes gives the class (the layout's, up to the largest ctypes has)
    #: (member, offset) of the named members and bitfield storage, checked at import
    offsets: tuple[tuple[str, int], ...]
    #: the named bitfields, its own and those of anonymous members
    bitfields: tuple[BitAccess, ...]


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


class _StructPlanner:
    """Builds the :class:`StructPlan` of each record from its :class:`~pegbind.target.RecordLayout`."""

    def __init__(self, binding: BindingModel, speller: CtypesSpeller):
        self.binding = binding
        self.module = binding.module
        self.target = binding.target
        self.speller = speller
        self.plans: dict[str, StructPlan] = {}
        self.padding = 0  # padding names are unique in the module: anonymous members lift theirs

    # ---- ctypes types and their natural alignments ------------------------

    def natural_align(self, ctype: CType) -> int:
        """The alignment ctypes gives the ctypes spelling of ``ctype`` before any ``_pack_``."""
        resolved = self.module.resolve(ctype)
        if isinstance(resolved, Array):
            return self.natural_align(resolved.element)
        if isinstance(resolved, (Pointer, FunctionType)):
            return self.target.sizes["pointer"][1]
        if isinstance(resolved, RecordRef):
            if resolved.kind == "enum":
                return self.target.align_of(integer_primitive(self.module, resolved, self.target) or "int")
            return self.plans[resolved.key].align
        if isinstance(resolved, Primitive):
            return self.target.align_of(resolved.name)
        raise CtypesSpellingError(f"cannot spell {ctype.to_c()} in ctypes")

    def unsigned_type(self, size: int) -> tuple[str, int] | None:
        """(ctypes unsigned integer of ``size`` bytes, its alignment), if the target has one."""
        for name in ("unsigned char", "unsigned short", "unsigned int", "unsigned long long"):
            if self.target.size_of(name) == size:
                return f"_ct.c_uint{8 * size}", self.target.align_of(name)
        return None

    def aligner(self, align: int) -> str | None:
        """A zero-length ctypes array type whose alignment is exactly ``align``, if any."""
        for name in ("unsigned short", "unsigned int", "unsigned long long", "long double"):
            if self.target.align_of(name) == align:
                element = "_ct.c_longdouble" if name == "long double" else f"_ct.c_uint{8 * self.target.size_of(name)}"
                return f"({element} * 0)"
        return None

    def pad_name(self) -> str:
        self.padding += 1
        return f"_pb_pad{self.padding - 1}"

    # ---- one record ------------------------------------------------------

    def plan(self, record: Record, layout: RecordLayout) -> StructPlan:
        """The ctypes class of ``record`` (its anonymous member types are planned already)."""
        module, speller = self.module, self.speller
        fields = record.fields or ()
        union = record.kind == "union"
        # Typed members: (index, ctypes spelling, natural alignment).
        typed: list[tuple[int, str, int]] = []
        for index, member in enumerate(fields):
            if member.bit_width is not None:
                continue
            if member.name is None:
                typed.append((index, speller.spell(member.type), self.natural_align(member.type)))
            else:
                typed.append((index, speller.field_type(member.type), self.natural_align(member.type)))
        pack = self.choose_pack(layout, [(layout.fields[i].offset, a) for i, _, a in typed])

        def effective(align: int) -> int:
            return min(align, pack)

        # Every _fields_ entry with the offset it must land on, in offset order.
        entries: list[tuple[int, StructMember, int, int]] = []  # (offset, member, natural align, size)
        anon = 0
        bitfields: list[BitAccess] = []
        for index, ctype, align in typed:
            member, placed = fields[index], layout.fields[index]
            if member.name is None:
                entry = StructMember(f"_pb_anon{anon}", ctype, True)
                anon += 1
                inner = module.resolve(member.type)
                if isinstance(inner, RecordRef):  # lifted with the anonymous member's other names
                    bitfields += self.plans[inner.key].bitfields
            else:
                entry = StructMember(ctypes_attr(member.name), ctype, False)
            entries.append((placed.offset, entry, align, placed.size))
        for storage_offset, storage, access in self.bit_storage(record, layout, pack):
            entries.append((storage_offset, storage[0], storage[1], storage[2]))
            bitfields += access
        entries.sort(key=lambda item: item[0])

        members: list[StructMember] = []
        offsets: list[tuple[str, int]] = []
        aligned = 1  # the alignment ctypes will give the class
        cursor = 0  # struct: where ctypes' next member would start; union: its largest member
        for offset, entry, align, size in entries:
            aligned = max(aligned, effective(align))
            if not union and _round_up(cursor, effective(align)) != offset:
                members.append(StructMember(self.pad_name(), f"(_ct.c_uint8 * {offset - cursor})", False))
            members.append(entry)
            if not entry.anonymous:
                offsets.append((entry.name, offset))
            cursor = max(cursor, size) if union else offset + size
        aligner = self.aligner(pack)
        if aligned < pack and aligner is not None:  # choose_pack made sure there is one
            members.insert(0, StructMember(self.pad_name(), aligner, False))
            aligned = pack
        if _round_up(cursor, aligned) != layout.size:
            filler = layout.size if union else layout.size - cursor
            members.append(StructMember(self.pad_name(), f"(_ct.c_uint8 * {filler})", False))
        natural = max((align for _, _, align, _ in entries), default=1)
        plan = StructPlan(
            speller.struct_names[record.key], record.kind, record.key, pack if natural > pack else None,
            tuple(members), layout.size, aligned, tuple(offsets), tuple(bitfields),
        )
        self.plans[record.key] = plan
        return plan

    def choose_pack(self, layout: RecordLayout, typed: list[tuple[int, int]]) -> int:
        """The largest alignment, up to the record's, at which ctypes can put every typed member
        (offset, natural alignment) where the layout has it; a zero-length array must be able
        to give the class that alignment."""
        pack = 1
        while pack * 2 <= layout.align:
            pack *= 2
        while pack > 1 and (
            self.aligner(pack) is None or any(offset % min(pack, align) for offset, align in typed)
        ):
            pack //= 2
        return pack

    def bit_storage(
        self, record: Record, layout: RecordLayout, pack: int
    ) -> list[tuple[int, tuple[StructMember, int, int], list[BitAccess]]]:
        """The storage members of the named bitfields: (offset, (member, natural alignment,
        size), accesses).  Bitfields sharing a byte share a storage member; unnamed ones are
        padding and get none."""
        fields = record.fields or ()
        union = record.kind == "union"
        # Bytes a storage unit may not grow into: those of the other members.
        others = [] if union else [
            (placed.offset, placed.offset + placed.size)
            for member, placed in zip(fields, layout.fields, strict=True) if member.bit_width is None
        ]
        # Clusters of named bitfields, as [first byte, end byte, [(index, FieldLayout)]]: a
        # bitfield joins the one before when they share a byte, or when one integer can
        # still hold both (one load per run of small flags, as C does).
        clusters: list[list[Any]] = []
        for index, member in enumerate(fields):
            placed = layout.fields[index]
            if member.bit_width is None or member.name is None or not member.bit_width:
                continue
            first = placed.bit_offset // 8  # type: ignore[operator]
            end = _round_up(placed.bit_offset + member.bit_width, 8) // 8  # type: ignore[operator]
            if clusters and not union and (
                first < clusters[-1][1]
                or not self.storage_unit(clusters[-1][0], end, layout.size, pack, others)[2].startswith("(")
            ):
                clusters[-1][1] = max(clusters[-1][1], end)
                clusters[-1][2].append((index, placed))
            else:
                clusters.append([first, end, [(index, placed)]])
        # (in a union every member starts at 0: only the record's size bounds a unit)
        taken = [] if union else others + [(first, end) for first, end, _ in clusters]
        result = []
        for first, end, members in clusters:
            start, size, ctype, align = self.storage_unit(first, end, layout.size, pack, taken)
            name = f"_pb_bits_{members[0][1].name}"
            accesses = []
            for index, placed in members:
                primitive = integer_primitive(self.module, fields[index].type, self.target)
                signed = primitive is not None and primitive != "_Bool" and self.target.is_signed(primitive)
                accesses.append(BitAccess(
                    placed.name, name, size, ctype.startswith("("), placed.bit_offset - 8 * start,
                    placed.bit_width, signed,
                ))
            result.append((start, (StructMember(name, ctype, False), align, size), accesses))
        return result

    def storage_unit(
        self, first: int, end: int, record_size: int, pack: int, taken: list[tuple[int, int]]
    ) -> tuple[int, int, str, int]:
        """(offset, size, ctypes type, natural alignment) of the storage for bytes [first, end):
        the smallest unsigned integer, aligned for ctypes, that covers them and no byte of
        another member; else exactly those bytes as a byte array."""
        for size in (1, 2, 4, 8):
            unsigned = self.unsigned_type(size)
            if size < end - first or unsigned is None:
                continue
            ctype, align = unsigned
            start = first - first % size
            if start % min(pack, align) or start + size < end or start + size > record_size:
                continue
            if any(lo < start + size and start < hi and not (lo == first and hi == end) for lo, hi in taken):
                continue
            return start, size, ctype, align
        return first, end - first, f"(_ct.c_uint8 * {end - first})", 1


def struct_plans(
    binding: BindingModel, speller: CtypesSpeller, left_out: list[Diagnostic] | None = None
) -> list[StructPlan]:
    """Every complete record as a ctypes class, anonymous member types before their parents;
    a record ctypes cannot express goes to ``left_out`` with the reason."""
    module = binding.module
    planner = _StructPlanner(binding, speller)
    done: set[str] = set()
    plans: list[StructPlan] = []

    def emit(record: Record) -> None:
        # Records held by value are planned first: their ctypes alignment places them.
        for member in record.fields or ():
            resolved = module.resolve(member.type)
            while isinstance(resolved, Array):
                resolved = module.resolve(resolved.element)
            if isinstance(resolved, RecordRef) and resolved.kind != "enum":
                inner = module.get("record", resolved.key)
                if inner is not None and not inner.is_opaque:  # type: ignore[union-attr]
                    attempt(inner)  # type: ignore[arg-type]
        layout = binding.layouts.get(record.key)
        if layout is None:  # anonymous member types are not bound on their own
            try:
                layout = record_layout(module, record.key, binding.target)
            except LayoutError as problem:
                reason = "; ".join(d.message for d in problem.diagnostics) or str(problem)
                raise CtypesSpellingError(f"its layout is unknown ({reason})") from None
        plans.append(planner.plan(record, layout))

    def attempt(record: Record) -> None:
        if record.key in done:
            return
        done.add(record.key)
        try:
            emit(record)
        except CtypesSpellingError as problem:
            speller.struct_names.pop(record.key, None)  # members of this type now fail to spell
            if left_out is not None and not is_synthetic(record.key):
                left_out.append(Diagnostic(
                    record.coord, f"record '{record.key}' is not in the ctypes module: {problem}", "warning"
                ))

    # Type order first (dependencies first), then whatever it left out.
    ordered = [module.get("record", key) for kind, key in binding.type_order if kind == "record"]
    for record in [*ordered, *module.records]:
        if record is not None and not record.is_opaque:  # type: ignore[union-attr]
            attempt(record)  # type: ignore[arg-type]
    return plans


def ctypes_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for an ``in`` parameter (ctypes converts and type-checks the rest)."""
    name = param.py_name
    size = min_bytes(binding, param)
    if param.kind == "buffer":
        # c_void_p takes bytes as they are: only other buffers (and short
        # bytes, for the error) need _pb_rbuf's Python call
        call = f"_pb_rbuf({name}, {size}, {arg_label(param)!r})"
        if size == 0:
            return f"{name} if {name}.__class__ is bytes else {call}"
        if size == 1:
            return f"{name} if {name}.__class__ is bytes and {name} else {call}"
        return f"{name} if {name}.__class__ is bytes and len({name}) >= {size} else {call}"
    if param.kind == "writable_buffer":
        return f"_pb_wbuf({name}, {size}, {arg_label(param)!r})"
    if param.kind == "record_ptr":
        return f"None if {name} is None else {name}._s"
    if param.kind == "record":
        return f"{name}._s"
    return name


#: what a bare call (see :meth:`CtypesWriter.bare_call`) can pass for each
#: kind of ``in`` parameter without ctypes knowing the parameter's type
_BARE_POINTER_KINDS = ("buffer", "writable_buffer", "cstring")
#: the roles whose argument is always a ctypes array, bytes or None
_BARE_POINTER_ROLES = ("in-array", "out-bytes", "out-array")


class CtypesWriter(WrapperWriter):
    """The ctypes spellings of a wrapper: ``CFUNCTYPE`` prototypes, ``byref`` cells, ctypes arrays."""

    def __init__(self, binding: BindingModel, classes: dict[str, str], speller: CtypesSpeller):
        super().__init__(binding, classes)
        self.speller = speller
        #: whether the wrapper being written makes a bare call
        self.bare = False

    def wrapper(self, f: FunctionBinding, method: bool) -> str:
        self.bare = self.bare_call(f)
        try:
            return super().wrapper(f, method)
        finally:
            self.bare = False

    # ---- bare calls ----------------------------------------------------
    #
    # With argtypes set, ctypes converts every argument through the type's
    # from_param, which allocates an argument object: about 190 ns for two
    # ints on CPython 3.11, more than half of a whole call.  Without argtypes
    # it passes a Python int as a C int, bytes and ctypes arrays as pointers
    # and None as NULL, with no such object.  The wrapper checks every
    # argument itself anyway (ranges, buffers), so a function whose
    # parameters are all integers (see _bare_param for 64-bit ones), byte
    # pointers, strings, arrays and out cells is called through a prototype
    # with a restype and no argtypes, the wrapper handing over only values
    # ctypes passes exactly as C expects: exact ints, bytes, ctypes arrays,
    # byref() cells and None.  Records and handles keep argtypes, whose
    # conversion is also the check that a record is of the right class.

    def bare_call(self, f: FunctionBinding) -> bool:
        """Whether ``f`` is called without ``argtypes`` (every parameter passable as is)."""
        if f.function.variadic:
            return False
        # a record returned by value in memory takes the first register for its address
        registers = 5 if f.ret.kind == "record" else 6
        return all(self._bare_param(p, registers) for p in f.params)

    def _bare_param(self, p: ParamBinding, registers: int) -> bool:
        role = p.role.role
        if role == "in" and p.kind in _BARE_POINTER_KINDS:
            return True
        if role == "null" and self._is_pointer(p.ctype):
            return True
        if role in _BARE_POINTER_ROLES or (role == "len" and p.by_pointer):
            return True  # ctypes arrays, bytes, None, or byref() of a cell: pointers all
        if role in ("out", "inout") and p.kind != "record":
            return True  # byref() of the cell (an out record passes its struct, which needs argtypes)
        if (role == "in" and p.kind in ("int", "bool")) or role == "null" or (role == "len" and not p.by_pointer):
            size = element_size(self.module, self.target, p.ctype)
            if 0 < size <= 4:
                return True  # ctypes passes a C int, which the callee reads as its own type
            # A 64-bit value passes as a C int only when it is small: libffi
            # sign-extends an int to the whole register on x86-64 (SysV); on the
            # stack, or on other ABIs, the upper half would be left undefined.
            return size == 8 and self.target.name == "linux-x86_64" and p.index < registers
        return False

    def bare_int(self, value: str, ctype: CType) -> str:
        """``value`` (an int in the range of ``ctype``) as a bare call passes it."""
        if element_size(self.module, self.target, ctype) <= 4:
            return value
        lo, _ = self.int_range(ctype)
        wide = "_ct.c_int64" if lo < 0 else "_ct.c_uint64"
        small = f"{value} <= {_SMALL_INT} and {value} >= {-_SMALL_INT}" if lo < 0 else f"{value} <= {_SMALL_INT}"
        return f"({value} if {small} else {wide}({value}))"

    # ---- the fast path -----------------------------------------------------

    def guard(self, p: ParamBinding) -> str:
        # ctypes truncates integers silently: the range is checked before the call
        name = p.py_name
        if p.kind == "handle" and p.role.role in ("in", "inout"):
            # c_void_p takes any int as an address: only a handle of the class
            # (anything else goes to _pb_fix, which refuses it)
            cls = self.classes[p.record_key or ""]
            return f"{name}.__class__ is {cls}" if p.nonnull else f"({name} is None or {name}.__class__ is {cls})"
        if p.nonnull:
            return ""
        if (p.kind == "int" and p.role.role in ("in", "inout")) or p.is_input:
            lo, hi = self.int_range(p.element if p.role.role == "inout" else p.ctype)  # type: ignore[arg-type]
            lo = max(lo, 0) if p.is_input else lo
            # Two comparisons, not one chained: CPython 3.11 specialises "x >= 0"
            # when both ints are small (one 30-bit digit), not the chained form.
            # A bound of a 32- or 64-bit type is not small, so the small range
            # is tried first: about 20 ns less for two int arguments.
            small_lo, small_hi = max(lo, -_SMALL_INT), min(hi, _SMALL_INT)
            # Where no argtype says what C wants (a bare call), ctypes passes
            # anything it knows how to: an object's _as_parameter_, a record by
            # value.  So the value is first made an exact int (operator.index,
            # which also takes IntEnum and __index__ objects without a retry).
            first = f"({name} := _pb_exact_int({name}))" if self.bare else name
            if (small_lo, small_hi) == (lo, hi):
                return f"({first} >= {lo} and {name} <= {hi})"
            return f"({first} >= {small_lo} and {name} <= {small_hi} or {name} >= {lo} and {name} <= {hi})"
        if p.kind == "bool" and p.role.role in ("in", "inout"):
            return f"({name}.__class__ is bool or {name}.__class__ is int)"
        return ""

    def in_arg(self, p: ParamBinding) -> str:
        if p.kind == "handle":
            return f"None if {p.py_name} is None else {p.py_name}._h"
        if self.bare and p.kind == "int":
            return self.bare_int(p.py_name, p.ctype)
        if self.bare and p.kind == "bool":
            return f"(1 if {p.py_name} else 0)"  # C reads a _Bool as 0 or 1, nothing else
        if self.bare and p.kind == "cstring":
            # without c_char_p, ctypes would pass a str as a wide string
            return f"{p.py_name} if {p.py_name}.__class__ is bytes else _pb_cstring({p.py_name}, {arg_label(p)!r})"
        return ctypes_arg(self.binding, p)

    def length_value(self, p: ParamBinding, value: str) -> str:
        return self.bare_int(value, p.ctype) if self.bare else value

    def elem(self, p: ParamBinding) -> str:
        return self.speller.spell(p.element)  # type: ignore[arg-type]

    def out_value(self, p: ParamBinding, s: Slot, inout: bool) -> tuple[list[str], str]:
        name, cell = p.py_name, s.cell
        if p.kind == "record":
            cls = self.classes[p.record_key or ""]
            if inout:
                return [f"{cell} = _pb_view({cls}, {self.elem(p)}.from_buffer_copy({name}._s))"], f"{cell}._s"
            # the record object is made around its C struct without running
            # __init__ (no fields to set), and the struct is passed from a local
            struct = s.struct
            return [f"{cell} = _pb_new({cls})", f"{cell}._s = {struct} = {self.elem(p)}()"], struct
        if not inout:
            return [f"{cell} = {self.elem(p)}()"], f"_ct.byref({cell})"
        value = f"None if {name} is None else {name}._h" if p.kind == "handle" else name
        return [f"{cell} = {self.elem(p)}({value})"], f"_ct.byref({cell})"

    def out_result(self, p: ParamBinding, s: Slot, owner: str) -> str:
        cell = s.cell
        if p.kind == "record":
            return cell
        if p.kind == "handle":
            return f"_pb_handle({self.classes[p.record_key or '']}, {cell}.value, {owner})"
        return f"{cell}.value"

    def in_array(self, p: ParamBinding, s: Slot) -> list[str]:
        name, a, n = p.py_name, s.arg, s.count
        if p.kind == "buffer":
            if p.element is None:
                return [f"{a}, {n} = _pb_bytes_in({name}, None, 0, 0, {arg_label(p)!r})"]
            lo, hi = self.int_range(p.element)
            return [f"{a}, {n} = _pb_bytes_in({name}, {self.elem(p)}, {lo}, {hi}, {arg_label(p)!r})"]
        # The items are read once, into a snapshot: a sequence may change
        # between len() and iteration, or during the call (a __getitem__ with
        # side effects, another thread); records are copied back through it.
        items = s.items
        fill: list[str]
        if p.kind == "int":
            lo, hi = self.int_range(p.element)  # type: ignore[arg-type]
            fill = [f"{a} = _pb_ints({self.elem(p)}, {name}, {lo}, {hi}, {arg_label(p)!r})"]
        elif p.kind == "record":
            fill = [f"{items} = list({name})",
                    f"{a} = ({self.elem(p)} * len({items}))(*[_pb_item._s for _pb_item in {items}])"]
        elif p.kind == "handle":
            fill = [f"{items} = _pb_handles({name}, {self.classes[p.record_key or '']})",
                    f"{a} = (_ct.c_void_p * len({items}))(*{items})"]
        else:  # float, bool: ctypes converts and rejects
            fill = [f"{items} = list({name})", f"{a} = ({self.elem(p)} * len({items}))(*{items})"]
        fill.append(f"{n} = len({a})")
        if p.nonnull:
            return fill
        return [f"if {name} is None:", f"    {a} = None", f"    {n} = 0", "else:", *("    " + line for line in fill)]

    def length_cell(self, p: ParamBinding, s: Slot, measured: str) -> list[str]:
        return [f"{s.length} = {self.elem(p)}({measured})"]

    def length_arg(self, p: ParamBinding, s: Slot) -> str:
        return f"_ct.byref({s.length})"

    def set_length(self, s: Slot, value: str) -> str:
        return f"{s.length}.value = {value}"

    def get_length(self, s: Slot) -> str:
        return f"{s.length}.value"

    def out_buffer(self, p: ParamBinding, s: Slot) -> list[str]:
        a, n = s.arg, s.count
        if p.role.role == "out-bytes":
            # a c_char array made directly and read back through .raw: a fifth of
            # the cost of create_string_buffer and string_at, which are Python
            # functions and (string_at) a foreign call with argtypes of its own
            return [f"{a} = (_ct.c_char * ({n} * {self.element_size(p)} or 1))()"]
        return [f"{a} = ({self.elem(p)} * ({n} or 1))()"]

    def buffer_result(self, p: ParamBinding, s: Slot, owner: str) -> list[str]:
        a, n, res = s.arg, s.count, s.result
        if p.role.role == "out-bytes":
            return [f"{res} = {a}.raw[:{n} * {self.element_size(p)}]"]
        if p.kind == "record":
            return [f"{res} = [_pb_view({self.classes[p.record_key or '']}, {a}[_pb_k]) for _pb_k in range({n})]"]
        if p.kind == "handle":
            return [f"{res} = [_pb_handle({self.classes[p.record_key or '']}, _pb_h, {owner}) for _pb_h in {a}[:{n}]]"]
        return [f"{res} = {a}[:{n}]"]

    def copy_back(self, p: ParamBinding, s: Slot) -> list[str]:
        # the function may have written into the records (a PKCS#11 template)
        return [
            f"if {s.arg} is not None:",
            f"    for _pb_k, _pb_item in enumerate({s.items}):",
            f"        _ct.pointer(_pb_item._s)[0] = {s.arg}[_pb_k]",
        ]

    def ret(self, f: FunctionBinding, owner: str) -> list[str]:
        kind = f.ret.kind
        if kind == "handle":
            return [f"_pb_ret = _pb_handle({self.classes[f.ret.record_key or '']}, _pb_r, {owner})"]
        if kind == "record":
            return [f"_pb_ret = _pb_view({self.classes[f.ret.record_key or '']}, _pb_r)"]
        return ["_pb_ret = _pb_r"]  # c_char_p gives bytes or None, c_bool gives bool

    def direct(self, f: FunctionBinding) -> bool:
        return f.ret.kind in ("int", "bool", "float", "string", "void")

    # ---- prototypes ------------------------------------------------------

    def argtype(self, p: ParamBinding) -> str:
        role = p.role.role
        if role == "in":
            return "_ct.c_void_p" if p.kind == "handle" else self.speller.argtype(p)
        if role in ("out", "inout"):
            return f"_ct.POINTER({self.elem(p)})"
        if role == "len" and p.by_pointer:
            return f"_ct.POINTER({self.elem(p)})"
        if role == "len" or (role == "null" and not self._is_pointer(p.ctype)):
            return self.speller.spell(p.ctype)
        return "_ct.c_void_p"

    def restype(self, f: FunctionBinding) -> str:
        if f.ret.kind == "handle":
            return "_ct.c_void_p"
        return self.speller.restype(f)

    def prototype(self, f: FunctionBinding) -> str:
        """``CFUNCTYPE(restype, *argtypes)``: called without the GIL, like every ctypes foreign call.

        A bare call's prototype has the restype only.
        """
        argtypes = [] if self.bare_call(f) else [self.argtype(p) for p in f.params]
        return f"_ct.CFUNCTYPE({', '.join([self.restype(f), *argtypes])})"


@dataclass(frozen=True, slots=True)
class RenderedWrapper:
    """One wrapper: its prototype and its source."""

    binding: FunctionBinding
    prototype: str
    source: str
    method_source: str


def render_wrappers(binding: BindingModel, writer: CtypesWriter, left_out: list[Diagnostic]) -> list[RenderedWrapper]:
    """A wrapper per function; what ctypes cannot express goes to ``left_out`` with the reason."""
    plans = []
    for function in binding.functions:
        try:
            prototype = writer.prototype(function)
            plans.append(RenderedWrapper(function, prototype, writer.wrapper(function, False),
                                         writer.wrapper(function, True)))
        except CtypesSpellingError as problem:  # __int128 and the like: ctypes has no type for them
            name = function.function.name
            left_out.append(Diagnostic(
                function.function.coord, f"function '{name}' is not in the ctypes module: {problem}", "warning"
            ))
    return plans


def link_libraries(config: BindingConfig) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(library names, absolute library folders) a link-time module opens at import.

    The names are searched in the folders first (as the rpath of a compiled
    backend would), then as the system finds them.
    """
    return tuple(config.link), tuple(str(Path(folder).resolve()) for folder in config.library_dirs)


FILTERS: dict[str, Callable[..., Any]] = {
    "py_repr": repr,
    "ctypes_attr": ctypes_attr,
    "c_type_text": c_type_text,
    "py_literal": py_literal,
    "py_docstring": py_docstring,
    "py_string": py_string,
}

#: (template, output suffix) pairs, rendered in this order.
OUTPUTS = (("ctypes/ctypes.py.jinja", ".py"),)


def context(binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
    """What the ctypes template sees."""
    speller = CtypesSpeller(binding)
    classes = {r.record.key: r.py_name for r in binding.records}
    classes.update({h.record.key: h.py_name for h in binding.handles})
    left_out: list[Diagnostic] = []
    structs = struct_plans(binding, speller, left_out)
    records = [r for r in ordered_records(binding) if r.record.key in speller.struct_names]
    writer = CtypesWriter(binding, classes, speller)
    link, folders = link_libraries(config)
    table = binding.function_table
    getter = None
    if table is not None:
        error = table.error
        getter = {
            "name": table.getter.name,
            "struct": speller.struct_names[table.struct_key],
            "returns_table": table.returns_table,
            "restype": speller.spell(table.getter.ret),
            "success": error.success if error is not None else None,
        }
    calls = render_wrappers(binding, writer, left_out)
    return {
        "binding": binding,
        "banner": banner(binding.headers, __version__),
        "headers": binding.headers,
        "constants": binding.constants,
        "enums": binding.enums,
        "structs": structs,
        "bits": {plan.key: {access.path: access for access in plan.bitfields} for plan in structs},
        "struct_names": speller.struct_names,
        "records": records,
        "fields": field_plans(binding, classes),
        "aliases": [(alias, r.py_name) for r in records for alias in r.aliases]
        + [(alias, h.py_name) for h in binding.handles for alias in h.aliases],
        "classes": classes,
        "calls": calls,
        "function_aliases": binding.aliases_of(c.binding for c in calls),
        "left_out": left_out,
        "link": link,
        "library_dirs": folders,
        "dynamic": binding.load == "dynamic",
        "table": getter,
        "handles": binding.handles,
        "has_errors": binding.errors is not None or any(f.error is not None for f in binding.functions),
        "errors": binding.errors,
    }
