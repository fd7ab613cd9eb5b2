"""The ctypes layout planner: each record as a ``Structure``/``Union`` placed byte for byte.

Input: a record and its :mod:`pegbind.target` layout.  Output: a
:class:`StructPlan` — members, padding, ``_pack_`` where ctypes would place a
member elsewhere, and bitfields as plain storage units read and written by
:class:`BitAccess` (ctypes lays bitfields out by rules of its own).
"""
from __future__ import annotations

from typing import Any

from ...diagnostics import Diagnostic
from ...frozen import frozen_dataclass
from ...model import Array, CType, FunctionType, Pointer, Primitive, Record, RecordRef, TypedefRef, assert_never
from ...passes.binding import BindingModel
from ...passes.select import is_synthetic
from ...target import LayoutError, RecordLayout, integer_primitive, record_layout
from .speller import CtypesSpeller, CtypesSpellingError, ctypes_attr

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


@frozen_dataclass()
class StructMember:
    """One ``_fields_`` entry."""

    name: str
    ctype: str
    anonymous: bool


@frozen_dataclass()
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


@frozen_dataclass()
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
        match resolved:
            case Array():
                return self.natural_align(resolved.element)
            case Pointer() | FunctionType():
                return self.target.sizes["pointer"][1]
            case RecordRef():
                if resolved.kind == "enum":
                    return self.target.align_of(integer_primitive(self.module, resolved, self.target) or "int")
                return self.plans[resolved.key].align
            case Primitive():
                return self.target.align_of(resolved.name)
            case TypedefRef():  # a typedef that leads to no type: undeclared (a compiler builtin) or circular
                raise CtypesSpellingError(f"cannot spell {ctype.to_c()} in ctypes")
            case _:
                assert_never(resolved)

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
        to give the class that alignment, and it must divide the record's size, which ctypes
        rounds up to it (an ``aligned`` typedef gives glibc's 104-byte ``__pthread_unwind_buf_t``
        an alignment of 16)."""
        pack = 1
        while pack * 2 <= layout.align:
            pack *= 2
        while pack > 1 and (
            self.aligner(pack) is None or layout.size % pack
            or any(offset % min(pack, align) for offset, align in typed)
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


def struct_plans(binding: BindingModel) -> tuple[list[StructPlan], CtypesSpeller, list[Diagnostic]]:
    """Every complete record as a ctypes class, anonymous member types before their parents.

    Returns the plans; the speller of the module, which knows the classes of
    the records planned (a record ctypes cannot express has none, and members
    of its type then do not spell either); and a warning for each record left
    out, with the reason.
    """
    speller = CtypesSpeller(binding)
    left_out: list[Diagnostic] = []
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
                inner = module.find_record(resolved.key)
                if inner is not None and not inner.is_opaque:
                    attempt(inner)
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
            if not is_synthetic(record.key):
                left_out.append(Diagnostic(
                    record.coord, f"record '{record.key}' is not in the ctypes module: {problem}", "warning"
                ))

    # Type order first (dependencies first), then whatever it left out.
    ordered = [module.find_record(key) for kind, key in binding.type_order if kind == "record"]
    for record in [*ordered, *module.records]:
        if record is not None and not record.is_opaque:
            attempt(record)
    return plans, speller, left_out
