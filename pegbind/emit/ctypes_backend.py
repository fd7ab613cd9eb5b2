"""ctypes spelling of the binding model, and what the ``templates/ctypes/`` files see.

Input: a :class:`~pegbind.passes.binding.BindingModel`.  Output: the context
of ``ctypes/ctypes.py.jinja`` — one pure-Python module with a
``Structure``/``Union`` per record (``_fields_`` and ``_pack_`` following the
:mod:`pegbind.target` layout rules), a user-facing class per bound record,
and one wrapper per function over a ``CDLL`` symbol with ``argtypes`` and
``restype``.

The parts that are not ctypes-specific (integer ranges of C types, the
argument specs the runtime checks read, record field plans) are shared with
the cffi backend, which imports them from here: both backends must present
the same Python API as the Cython one (DESIGN §4), so they must agree on
every range and message.

Each wrapper has a *fast path* (the plain call, with only the checks ctypes
cannot do itself: integer ranges and buffer conversions) inside a ``try``;
anything unusual (an object with ``__index__``, ``None`` where the fast path
needs a pointer, a wrong type) falls through to one generic runtime function
that either raises the precise error or normalises the arguments and calls
again.  That keeps the common call within a few comparisons of hand-written
ctypes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import __version__
from ..model import Array, CType, FunctionType, Module, Pointer, Primitive, Record, RecordRef, TypedefRef
from ..config import BindingConfig
from ..passes.binding import BindingModel, FieldBinding, FunctionBinding, ParamBinding
from ..passes.select import is_synthetic
from ..target import TargetInfo, enum_type
from .cython import banner, py_docstring, py_literal, py_string


class CtypesSpellingError(ValueError):
    """A C type with no ctypes equivalent (``__int128``, a function by value)."""


# --------------------------------------------------------------------------
# Shared with the cffi backend: integer ranges and argument specs
# --------------------------------------------------------------------------


def integer_primitive(module: Module, target: TargetInfo, ctype: CType) -> str | None:
    """The primitive name behind an integer (or enum) type, else None."""
    resolved = module.resolve(ctype)
    if isinstance(resolved, RecordRef) and resolved.kind == "enum":
        enum = module.get("enum", resolved.key)
        return enum_type(module, enum, target) if enum is not None else "int"  # type: ignore[arg-type]
    if isinstance(resolved, Primitive) and not resolved.is_floating and not resolved.is_void:
        return resolved.name
    return None


def is_signed(name: str, target: TargetInfo) -> bool:
    if name == "char":
        return target.char_signed
    return not (name.startswith("unsigned") or name == "_Bool")


def integer_range(module: Module, target: TargetInfo, ctype: CType) -> tuple[int, int]:
    """The inclusive range of values an integer C type holds on ``target``."""
    name = integer_primitive(module, target, ctype)
    if name is None:
        raise CtypesSpellingError(f"{ctype.to_c()} is not an integer type")
    bits = 8 * target.size_of(name)
    if is_signed(name, target):
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def arg_label(param: ParamBinding) -> str:
    """How messages name a parameter: ``argument 1 (a)``, as the Cython backend does."""
    return f"argument {param.index + 1} ({param.py_name})"


def element_size(module: Module, target: TargetInfo, element: CType | None) -> int:
    """Bytes a typed buffer must hold at least (one element); 0 for ``void``."""
    if element is None:
        return 0
    from ..target import size_align

    try:
        return size_align(module, element, target)[0]
    except Exception:  # an incomplete element type: nothing to check against
        return 0


def arg_spec(binding: BindingModel, classes: dict[str, str], param: ParamBinding) -> str:
    """A Python literal describing one input for the runtime ``_pb_fix`` function.

    ``(kind, label, ...)``: ``("int", label, lo, hi)``, ``("bool", label)``,
    ``("float", label)``, ``("cstring", label)``, ``("buffer", label, min)``,
    ``("writable_buffer", label, min)``, ``("record", label, Class, nullable)``;
    a ``nonnull`` parameter's spec is wrapped as ``("nonnull", label, spec)``.
    """
    if param.nonnull:
        return f"('nonnull', {arg_label(param)!r}, {_plain_spec(binding, classes, param)})"
    return _plain_spec(binding, classes, param)


def _plain_spec(binding: BindingModel, classes: dict[str, str], param: ParamBinding) -> str:
    label = repr(arg_label(param))
    kind = param.kind
    if kind == "int":
        lo, hi = integer_range(binding.module, binding.target, param.ctype)
        return f"('int', {label}, {lo}, {hi})"
    if kind in ("bool", "float", "cstring"):
        return f"('{kind}', {label})"
    if kind in ("buffer", "writable_buffer"):
        return f"('{kind}', {label}, {element_size(binding.module, binding.target, param.element)})"
    if kind in ("record", "record_ptr"):
        return f"('record', {label}, {classes[param.record_key or '']}, {kind == 'record_ptr' and not param.nonnull})"
    raise CtypesSpellingError(f"no argument spec for kind {kind!r}")


@dataclass(frozen=True, slots=True)
class FieldPlan:
    """One record attribute as both dynamic backends present it."""

    binding: FieldBinding
    #: inclusive range checked on assignment (ints, array items), or None
    int_range: tuple[int, int] | None
    #: Python class of the nested record (record/record_array kinds)
    record_class: str | None


def field_plans(binding: BindingModel, classes: dict[str, str]) -> dict[str, tuple[FieldPlan, ...]]:
    """Record key -> the plans of its fields, with ranges resolved for the target."""
    module, target = binding.module, binding.target
    plans: dict[str, tuple[FieldPlan, ...]] = {}
    for record in binding.records:
        items = []
        for field in record.fields:
            rng = None
            if field.kind == "int":
                rng = field.bit_range or integer_range(module, target, field.ctype)
            elif field.kind == "array" and field.element_kind == "int" and field.element is not None:
                rng = integer_range(module, target, field.element)
            items.append(FieldPlan(field, rng, classes.get(field.record_key or "")))
        plans[record.record.key] = tuple(items)
    return plans


def ordered_records(binding: BindingModel):
    """The record bindings in dependency order (a nested record's class comes first)."""
    order = {key: index for index, (kind, key) in enumerate(binding.type_order) if kind == "record"}
    return sorted(binding.records, key=lambda r: order.get(r.record.key, len(order)))


# --------------------------------------------------------------------------
# ctypes spelling
# --------------------------------------------------------------------------

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
        return f"_ct.c_{'' if is_signed(name, self.target) else 'u'}int{bits}"

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
                return self.integer(integer_primitive(self.module, self.target, resolved) or "int")
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


@dataclass(frozen=True, slots=True)
class StructMember:
    """One ``_fields_`` entry."""

    name: str
    ctype: str
    bits: int | None
    anonymous: bool


@dataclass(frozen=True, slots=True)
class StructPlan:
    """A ``Structure``/``Union`` class of the generated module."""

    name: str
    kind: str  #: "struct" | "union"
    key: str
    pack: int | None
    members: tuple[StructMember, ...]
    size: int | None  #: the model's size (checked at import), None when unknown
    #: (member, offset) of the plain named members, checked at import
    offsets: tuple[tuple[str, int], ...]


def struct_plans(binding: BindingModel, speller: CtypesSpeller) -> list[StructPlan]:
    """Every complete record as a ctypes class, anonymous member types before their parents."""
    module = binding.module
    done: set[str] = set()
    plans: list[StructPlan] = []

    def emit(record: Record) -> None:
        if record.key in done:
            return
        done.add(record.key)
        members = []
        anon = 0
        for member in record.fields or ():
            resolved = module.resolve(member.type)
            if isinstance(resolved, RecordRef) and resolved.kind != "enum" and is_synthetic(resolved.key):
                inner = module.get("record", resolved.key)
                if inner is not None:
                    emit(inner)  # type: ignore[arg-type]
            if member.name is None:
                if member.bit_width is not None:
                    if member.bit_width == 0:
                        continue  # ctypes cannot express ':0'; the import-time check reports a shift
                    members.append(StructMember(f"_pb_pad{anon}", speller.spell(member.type), member.bit_width, False))
                else:
                    members.append(StructMember(f"_pb_anon{anon}", speller.spell(member.type), None, True))
                anon += 1
                continue
            ctype = speller.spell(member.type) if member.bit_width is not None else speller.field_type(member.type)
            if member.bit_width is not None and ctype == "_ct.c_bool":
                ctype = "_ct.c_uint8"  # ctypes takes bitfields of integer types only
            members.append(StructMember(member.name, ctype, member.bit_width, False))
        layout = binding.layouts.get(record.key)
        offsets: list[tuple[str, int]] = []
        if layout is not None:
            for placed in layout.fields:
                if placed.name is not None and placed.bit_width is None:
                    offsets.append((placed.name, placed.offset))
        pack = 1 if record.packed else record.pack
        plans.append(StructPlan(
            speller.struct_names[record.key], record.kind, record.key, pack, tuple(members),
            layout.size if layout is not None else None, tuple(offsets),
        ))

    # Type order first (dependencies first), then whatever it left out.
    ordered = [module.get("record", key) for kind, key in binding.type_order if kind == "record"]
    for record in [*ordered, *module.records]:
        if record is not None and not record.is_opaque:  # type: ignore[union-attr]
            try:
                emit(record)  # type: ignore[arg-type]
            except CtypesSpellingError:
                done.add(record.key)  # type: ignore[union-attr]
                speller.struct_names.pop(record.key, None)  # type: ignore[union-attr]
    return plans


@dataclass(frozen=True, slots=True)
class CallPlan:
    """One wrapper: the ctypes prototype and the Python fast path."""

    binding: FunctionBinding
    argtypes: tuple[str, ...]
    restype: str
    #: the fast path's guard (a Python expression; "" for none)
    guard: str
    #: the expression passed for each C parameter, in C order
    args: tuple[str, ...]
    #: the literal tuple of argument specs for ``_pb_fix``
    specs: str


def fast_guard(binding: BindingModel, param: ParamBinding) -> str:
    """The cheap check an argument must pass before the plain call (ranges ctypes does not check)."""
    name = param.py_name
    if param.nonnull:
        return f"{name} is not None"
    if param.kind == "int":
        lo, hi = integer_range(binding.module, binding.target, param.ctype)
        return f"{lo} <= {name} <= {hi}"
    if param.kind == "bool":
        return f"({name}.__class__ is bool or {name}.__class__ is int)"
    return ""


def ctypes_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for ``param`` (ctypes converts and type-checks the rest)."""
    name = param.py_name
    size = element_size(binding.module, binding.target, param.element)
    if param.kind == "buffer":
        if size == 0:
            return f"{name} if {name}.__class__ is bytes else _pb_rbuf({name}, 0, {arg_label(param)!r})"
        return f"_pb_rbuf({name}, {size}, {arg_label(param)!r})"
    if param.kind == "writable_buffer":
        return f"_pb_wbuf({name}, {size}, {arg_label(param)!r})"
    if param.kind == "record_ptr":
        return f"None if {name} is None else {name}._s"
    if param.kind == "record":
        return f"{name}._s"
    return name


#: Parameter kinds and roles the dynamic backends wrap in this version; other
#: functions are left out of the module (see :func:`wrappable`).
SUPPORTED_KINDS = ("int", "bool", "float", "cstring", "buffer", "writable_buffer", "record_ptr", "record")
SUPPORTED_RETURNS = ("int", "bool", "float", "record", "string", "void")


def wrappable(binding: BindingModel, function: FunctionBinding) -> bool:
    """Whether the cffi/ctypes wrappers cover ``function``: link-time loading, ``in`` roles, plain kinds."""
    if binding.load != "link" or function.table_field is not None:
        return False
    return function.ret.kind in SUPPORTED_RETURNS and all(
        p.role.role == "in" and p.kind in SUPPORTED_KINDS for p in function.params
    )


def call_plans(binding: BindingModel, speller: CtypesSpeller, classes: dict[str, str]) -> list[CallPlan]:
    plans = []
    for function in binding.functions:
        if not wrappable(binding, function):
            continue
        try:
            argtypes = tuple(speller.argtype(p) for p in function.params)
            restype = speller.restype(function)
        except CtypesSpellingError:
            continue
        guards = [g for g in (fast_guard(binding, p) for p in function.params) if g]
        specs = ", ".join(arg_spec(binding, classes, p) for p in function.inputs)
        plans.append(CallPlan(
            function, argtypes, restype, " and ".join(guards),
            tuple(ctypes_arg(binding, p) for p in function.params),
            f"({specs},)" if specs else "()",
        ))
    return plans


def link_spec(binding: BindingModel) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(library names, library folders) to load at import, when the binding model carries them.

    When it does not, the generated module reads them from the
    ``<name>.link.json`` file :func:`pegbind.build.build` writes beside it.
    """
    names = tuple(getattr(binding, "link", ()) or ())
    folders = tuple(str(folder) for folder in getattr(binding, "library_dirs", ()) or ())
    return names, folders


FILTERS: dict[str, Callable[..., Any]] = {
    "py_repr": repr,
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
    structs = struct_plans(binding, speller)
    records = [r for r in ordered_records(binding) if r.record.key in speller.struct_names]
    return {
        "binding": binding,
        "banner": banner(binding.headers, __version__),
        "headers": binding.headers,
        "constants": binding.constants,
        "enums": binding.enums,
        "structs": structs,
        "struct_names": speller.struct_names,
        "records": records,
        "fields": field_plans(binding, classes),
        "aliases": [(alias, r.py_name) for r in records for alias in r.aliases],
        "classes": classes,
        "calls": call_plans(binding, speller, classes),
        "link": link_spec(binding)[0],
        "library_dirs": link_spec(binding)[1],
        "has_errors": any(f.error is not None for f in binding.functions),
    }
