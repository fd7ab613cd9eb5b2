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

Each wrapper is generated as straight-line Python (:class:`WrapperWriter`):
a *fast path* (the plain call, with only the checks ctypes cannot do itself:
integer ranges and buffer conversions) inside a ``try``; anything unusual
(an object with ``__index__``, ``None`` where the fast path needs a pointer,
a wrong type) falls through to ``_pb_fix``, which either raises the precise
error or normalises the arguments, and the same body runs once more.  That
keeps the common call within a few comparisons of hand-written ctypes.
"""
from __future__ import annotations

import keyword
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .. import __version__
from ..model import Array, CType, FunctionType, Module, Pointer, Primitive, Record, RecordRef, TypedefRef
from ..config import BindingConfig
from ..passes.binding import BindingModel, FieldBinding, FunctionBinding, ParamBinding
from ..diagnostics import Diagnostic
from ..passes.select import is_synthetic
from ..target import TargetInfo, enum_type
from .cython import banner, c_type_text, is_const_target, py_docstring, py_literal, py_string


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


def ctypes_attr(name: str) -> str:
    """The attribute a C member is reached by on a ctypes Structure (Python keywords are renamed)."""
    return f"_pb_{name}" if keyword.iskeyword(name) else name


def cffi_member(pointer: str, name: str) -> str:
    """An expression for a member of the struct ``pointer`` points to (also an assignment target).

    A member named like a Python keyword is reached through ``ffi.addressof``.
    """
    if keyword.iskeyword(name):
        return f"_ffi.addressof({pointer}, {name!r})[0]"
    return f"{pointer}.{name}"

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


def struct_plans(
    binding: BindingModel, speller: CtypesSpeller, left_out: list[Diagnostic] | None = None
) -> list[StructPlan]:
    """Every complete record as a ctypes class, anonymous member types before their parents;
    a record ctypes cannot express goes to ``left_out`` with the reason."""
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
            members.append(StructMember(ctypes_attr(member.name), ctype, member.bit_width, False))
        layout = binding.layouts.get(record.key)
        offsets: list[tuple[str, int]] = []
        if layout is not None:
            for placed in layout.fields:
                if placed.name is not None and placed.bit_width is None:
                    offsets.append((ctypes_attr(placed.name), placed.offset))
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
            except CtypesSpellingError as problem:
                done.add(record.key)  # type: ignore[union-attr]
                speller.struct_names.pop(record.key, None)  # type: ignore[union-attr]
                if left_out is not None and not is_synthetic(record.key):  # type: ignore[union-attr]
                    left_out.append(Diagnostic(
                        record.coord,  # type: ignore[union-attr]
                        f"record '{record.key}' is not in the ctypes module: {problem}",  # type: ignore[union-attr]
                        "warning",
                    ))
    return plans


# --------------------------------------------------------------------------
# Wrapper functions: straight-line Python per C function
# --------------------------------------------------------------------------

#: The module-level tuple of the exceptions after which a wrapper's fast path
#: hands over to ``_pb_fix``: what the FFI raises for an argument it cannot
#: convert (each template defines it).
FAST_PATH_ERRORS = "_PB_RETRY"


class WrapperWriter(ABC):
    """Writes the Python source of one wrapper per function, the same shape for ctypes and cffi.

    A wrapper converts each parameter by its role (``_pb_a<i>`` is what C
    gets), calls C once — twice for the size probe — applies the error
    policy and returns the results as :mod:`pegbind.passes.binding` says.
    The body runs first as a *fast path* inside ``try``, converting only what
    the FFI cannot; when the FFI rejects an argument, ``_pb_fix`` raises the
    precise error or normalises the inputs (``__index__`` objects, ranges,
    sequences), and the body runs again, this time outside ``try``.  Nothing
    is interpreted at call time: each wrapper is its own code.

    Subclasses supply the FFI spellings: ``in_arg``, ``out_value``,
    ``out_result``, ``in_array``, ``length_cell``/``length_arg``/
    ``set_length``/``get_length``, ``out_buffer``, ``buffer_result``,
    ``copy_back``, ``ret`` and :attr:`null`.
    """

    null = "None"

    def __init__(self, binding: BindingModel, classes: dict[str, str]):
        self.binding = binding
        self.module = binding.module
        self.target = binding.target
        self.classes = classes

    # ---- hooks the backends fill in ------------------------------------

    def guard(self, p: ParamBinding) -> str:
        """A condition the fast path needs before an FFI that does not check ranges ("" for none)."""
        return ""

    # ---- what each backend spells (see CtypesWriter, CffiWriter) --------

    @abstractmethod
    def in_arg(self, p: ParamBinding) -> str:
        """The expression passed for an ``in`` parameter."""

    @abstractmethod
    def out_value(self, p: ParamBinding, inout: bool) -> tuple[list[str], str]:
        """(lines allocating the cell of an ``out``/``inout`` value, the expression passed)."""

    @abstractmethod
    def out_result(self, p: ParamBinding, owner: str) -> str:
        """The Python value of an ``out``/``inout`` cell after the call."""

    @abstractmethod
    def in_array(self, p: ParamBinding) -> list[str]:
        """Lines setting ``_pb_a<i>`` (the C array) and ``_pb_n<i>`` (its length) from a sequence."""

    @abstractmethod
    def length_cell(self, p: ParamBinding, measured: str) -> list[str]:
        """Lines allocating the cell a ``len`` parameter points at, holding ``measured``."""

    @abstractmethod
    def length_arg(self, p: ParamBinding) -> str:
        """The pointer to a ``len`` cell, as passed."""

    @abstractmethod
    def set_length(self, p: ParamBinding, value: str) -> str:
        """A statement storing ``value`` in a ``len`` cell."""

    @abstractmethod
    def get_length(self, p: ParamBinding) -> str:
        """An expression reading a ``len`` cell."""

    @abstractmethod
    def out_buffer(self, p: ParamBinding) -> list[str]:
        """Lines allocating ``_pb_n<i>`` elements for an ``out-bytes``/``out-array`` parameter."""

    @abstractmethod
    def buffer_result(self, p: ParamBinding, owner: str) -> list[str]:
        """Lines setting ``_pb_res<i>`` from an out buffer cut to ``_pb_n<i>`` elements."""

    @abstractmethod
    def copy_back(self, p: ParamBinding) -> list[str]:
        """Lines copying an ``in-array`` of records back into the caller's objects."""

    @abstractmethod
    def ret(self, f: FunctionBinding, owner: str) -> list[str]:
        """Lines setting ``_pb_ret`` from the C result ``_pb_r``."""

    # ---- shared --------------------------------------------------------

    def int_range(self, ctype: CType) -> tuple[int, int]:
        return integer_range(self.module, self.target, ctype)

    def value_spec(self, kind: str, ctype: CType | None, key: str | None, label: str, nullable: bool) -> str:
        if kind == "int" and ctype is not None:
            lo, hi = self.int_range(ctype)
            return f"('int', {label}, {lo}, {hi})"
        if kind in ("bool", "float", "cstring"):
            return f"('{kind}', {label})"
        if kind in ("record", "record_ptr", "handle"):
            return f"('record', {label}, {self.classes[key or '']}, {nullable})"
        raise CtypesSpellingError(f"no argument spec for kind {kind!r}")

    def spec(self, p: ParamBinding) -> str:
        """The literal telling ``_pb_fix`` how to check and normalise one input."""
        label = repr(arg_label(p))
        role = p.role.role
        if role == "in":
            spec = arg_spec(self.binding, self.classes, p) if p.kind != "handle" else \
                self.value_spec("handle", None, p.record_key, label, not p.nonnull)
            return spec
        if role == "inout":
            return self.value_spec(p.kind, p.element, p.record_key, label, p.kind == "handle")
        if role == "in-array":
            items = repr(f"{arg_label(p)} items")
            if p.kind == "buffer":
                item = "None" if p.element is None else self.value_spec("int", p.element, None, items, False)
                return f"('array', {label}, {not p.nonnull}, {item}, True)"
            item = self.value_spec(p.kind, p.element, p.record_key, items, p.kind == "handle")
            return f"('array', {label}, {not p.nonnull}, {item}, False)"
        if role == "len" and p.is_input:
            lo, hi = self.int_range(p.ctype)
            return f"('count', {label}, {max(lo, 0)}, {hi})"
        raise CtypesSpellingError(f"parameter {p.py_name} is not passed")

    def specs(self, f: FunctionBinding) -> str:
        items = [self.spec(p) for p in f.inputs]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    def wrapper(self, f: FunctionBinding, method: bool) -> str:
        """The ``def`` of ``f`` (a Library method when ``method``)."""
        names = [p.py_name for p in f.inputs]
        params = (["self"] if method else []) + names
        head = f"def {f.py_name}({', '.join(params)}{', /' if params else ''}):"
        fn = "_pb_fn" if method else f"_f_{f.function.name}"
        owner = "self" if method else "None"
        lines = [head, "    " + py_docstring(f, self.classes)]
        if method:
            lines.append(f"    _pb_fn = self._f_{f.function.name}")
        body = self.body(f, fn, owner)
        guards = [g for g in (self.guard(p) for p in f.inputs) if g]
        lines.append("    try:")
        if guards:
            lines.append(f"        if {' and '.join(guards)}:")
            lines += ["            " + line for line in body]
        else:
            lines += ["        " + line for line in body]
        lines.append(f"    except {FAST_PATH_ERRORS}:")
        lines.append("        pass")
        if names:
            lines.append(f"    {', '.join(names)}, = _pb_fix({self.specs(f)}, ({', '.join(names)},))")
        lines += ["    " + line for line in body]
        return "\n".join(lines) + "\n"

    def nonnull_check(self, p: ParamBinding) -> list[str]:
        if not p.nonnull:
            return []
        return [f"if {p.py_name} is None:", f"    raise TypeError({arg_label(p) + ' must not be None'!r})"]

    def body(self, f: FunctionBinding, fn: str, owner: str) -> list[str]:
        out: list[str] = []
        args: dict[int, str] = {}
        for p in f.params:
            out += self.nonnull_check(p)
            role = p.role.role
            if role == "in":
                args[p.index] = self.in_arg(p)
            elif role == "null":
                args[p.index] = self.null if p.kind == "null" and self._is_pointer(p.ctype) else "0"
            elif role in ("out", "inout"):
                lines, passed = self.out_value(p, role == "inout")
                out += lines
                args[p.index] = passed
            elif role == "in-array":
                out += self.in_array(p)
                args[p.index] = f"_pb_a{p.index}"
        for p in f.params:
            if p.role.role != "len":
                continue
            measured = f"_pb_n{p.length_of}"
            if p.is_input:
                out.append(f"{measured} = {p.py_name}")
                args[p.index] = p.py_name
            elif p.by_pointer:
                # an out buffer's length is set before each call (the probe sets it to 0)
                start = "0" if f.params[p.length_of].role.role in ("out-bytes", "out-array") else measured  # type: ignore[index]
                out += self.length_cell(p, start)
                args[p.index] = self.length_arg(p)
            else:
                args[p.index] = measured
        buffers = [p for p in f.params if p.role.role in ("out-bytes", "out-array")]
        call = f"{fn}({', '.join(args.get(p.index, f'_pb_a{p.index}') for p in f.params)})"
        if f.error is None and self.direct(f) and all(p.role.role in ("in", "null") for p in f.params):
            return out + [f"return {call}"]  # nothing to convert back: the FFI's result is the result
        if f.probe:
            for p in buffers:
                out.append(f"_pb_a{p.index} = {self.null}")
                if p.length is not None and f.params[p.length].by_pointer:
                    out.append(self.set_length(f.params[p.length], "0"))
            out += self.call(f, call)
            for p in buffers:
                if p.length is not None and f.params[p.length].by_pointer:
                    out.append(f"_pb_n{p.index} = {self.get_length(f.params[p.length])}")
        for p in buffers:
            out += self.out_buffer(p)
            if p.length is not None and f.params[p.length].by_pointer:
                out.append(self.set_length(f.params[p.length], f"_pb_n{p.index}"))
        out += self.call(f, call)
        for p in f.params:
            if p.role.role == "in-array" and p.kind == "record" and not is_const_target(p.ctype, self.module):
                out += self.copy_back(p)
        results = []
        if f.returns_value:
            out += self.ret(f, owner)
            results.append("_pb_ret")
        for p in f.outputs:
            role = p.role.role
            if role in ("out", "inout"):
                results.append(self.out_result(p, owner))
                continue
            if p.length is not None and f.params[p.length].by_pointer:
                length = self.get_length(f.params[p.length])
                out.append(f"if {length} < _pb_n{p.index}:")
                out.append(f"    _pb_n{p.index} = {length}")
            out += self.buffer_result(p, owner)
            results.append(f"_pb_res{p.index}")
        if not results:
            out.append("return None")
        elif len(results) == 1:
            out.append(f"return {results[0]}")
        else:
            out.append(f"return ({', '.join(results)})")
        return out

    def _is_pointer(self, ctype: CType) -> bool:
        return isinstance(self.module.resolve(ctype), (Pointer, Array))

    def call(self, f: FunctionBinding, call: str) -> list[str]:
        if f.error is None:
            return [f"_pb_r = {call}" if f.ret.kind != "void" else call]
        return [
            f"_pb_r = {call}",
            f"if _pb_r != {f.error.success}:",
            f"    raise _pb_error(_pb_r, {f.function.name!r})",
        ]

    def direct(self, f: FunctionBinding) -> bool:
        """Whether the FFI already returns the Python value of ``f``'s result."""
        return f.ret.kind in ("int", "bool", "float", "void")

    def element_size(self, p: ParamBinding) -> int:
        return element_size(self.module, self.target, p.element) or 1


def ctypes_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for an ``in`` parameter (ctypes converts and type-checks the rest)."""
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


class CtypesWriter(WrapperWriter):
    """The ctypes spellings of a wrapper: ``CFUNCTYPE`` prototypes, ``byref`` cells, ctypes arrays."""

    def __init__(self, binding: BindingModel, classes: dict[str, str], speller: CtypesSpeller):
        super().__init__(binding, classes)
        self.speller = speller

    def guard(self, p: ParamBinding) -> str:
        # ctypes truncates integers silently: the range is checked before the call
        name = p.py_name
        if p.nonnull:
            return ""
        if p.kind == "int" and p.role.role in ("in", "inout"):
            lo, hi = self.int_range(p.ctype if p.role.role == "in" else p.element)  # type: ignore[arg-type]
            return f"{lo} <= {name} <= {hi}"
        if p.kind == "bool" and p.role.role in ("in", "inout"):
            return f"({name}.__class__ is bool or {name}.__class__ is int)"
        return ""

    def in_arg(self, p: ParamBinding) -> str:
        if p.kind == "handle":
            return f"None if {p.py_name} is None else {p.py_name}._h"
        return ctypes_arg(self.binding, p)

    def elem(self, p: ParamBinding) -> str:
        return self.speller.spell(p.element)  # type: ignore[arg-type]

    def out_value(self, p: ParamBinding, inout: bool) -> tuple[list[str], str]:
        name, cell = p.py_name, f"_pb_o{p.index}"
        if p.kind == "record":
            cls = self.classes[p.record_key or ""]
            if inout:
                return [f"{cell} = _pb_view({cls}, {self.elem(p)}.from_buffer_copy({name}._s))"], f"{cell}._s"
            return [f"{cell} = {cls}()"], f"{cell}._s"
        if not inout:
            return [f"{cell} = {self.elem(p)}()"], f"_ct.byref({cell})"
        value = f"None if {name} is None else {name}._h" if p.kind == "handle" else name
        return [f"{cell} = {self.elem(p)}({value})"], f"_ct.byref({cell})"

    def out_result(self, p: ParamBinding, owner: str) -> str:
        cell = f"_pb_o{p.index}"
        if p.kind == "record":
            return cell
        if p.kind == "handle":
            return f"_pb_handle({self.classes[p.record_key or '']}, {cell}.value, {owner})"
        return f"{cell}.value"

    def in_array(self, p: ParamBinding) -> list[str]:
        name, a, n = p.py_name, f"_pb_a{p.index}", f"_pb_n{p.index}"
        if p.kind == "buffer":
            if p.element is None:
                return [f"{a}, {n} = _pb_bytes_in({name}, None, 0, 0, {arg_label(p)!r})"]
            lo, hi = self.int_range(p.element)
            return [f"{a}, {n} = _pb_bytes_in({name}, {self.elem(p)}, {lo}, {hi}, {arg_label(p)!r})"]
        if p.kind == "int":
            lo, hi = self.int_range(p.element)  # type: ignore[arg-type]
            fill = f"_pb_ints({self.elem(p)}, {name}, {lo}, {hi})"
        elif p.kind == "record":
            fill = f"({self.elem(p)} * len({name}))(*[_pb_item._s for _pb_item in {name}])"
        elif p.kind == "handle":
            fill = f"(_ct.c_void_p * len({name}))(*[None if _pb_item is None else _pb_item._h for _pb_item in {name}])"
        else:  # float, bool: ctypes converts and rejects
            fill = f"({self.elem(p)} * len({name}))(*{name})"
        if p.nonnull:
            return [f"{a} = {fill}", f"{n} = len({a})"]
        return [f"if {name} is None:", f"    {a} = None", f"    {n} = 0", "else:", f"    {a} = {fill}", f"    {n} = len({a})"]

    def length_cell(self, p: ParamBinding, measured: str) -> list[str]:
        return [f"_pb_l{p.index} = {self.elem(p)}({measured})"]

    def length_arg(self, p: ParamBinding) -> str:
        return f"_ct.byref(_pb_l{p.index})"

    def set_length(self, p: ParamBinding, value: str) -> str:
        return f"_pb_l{p.index}.value = {value}"

    def get_length(self, p: ParamBinding) -> str:
        return f"_pb_l{p.index}.value"

    def out_buffer(self, p: ParamBinding) -> list[str]:
        a, n = f"_pb_a{p.index}", f"_pb_n{p.index}"
        if p.role.role == "out-bytes":
            return [f"{a} = _ct.create_string_buffer({n} * {self.element_size(p)} or 1)"]
        return [f"{a} = ({self.elem(p)} * ({n} or 1))()"]

    def buffer_result(self, p: ParamBinding, owner: str) -> list[str]:
        a, n, res = f"_pb_a{p.index}", f"_pb_n{p.index}", f"_pb_res{p.index}"
        if p.role.role == "out-bytes":
            return [f"{res} = _ct.string_at({a}, {n} * {self.element_size(p)})"]
        if p.kind == "record":
            return [f"{res} = [_pb_view({self.classes[p.record_key or '']}, {a}[_pb_k]) for _pb_k in range({n})]"]
        if p.kind == "handle":
            return [f"{res} = [_pb_handle({self.classes[p.record_key or '']}, _pb_h, {owner}) for _pb_h in {a}[:{n}]]"]
        return [f"{res} = {a}[:{n}]"]

    def copy_back(self, p: ParamBinding) -> list[str]:
        # the function may have written into the records (a PKCS#11 template)
        return [
            f"if _pb_a{p.index} is not None:",
            f"    for _pb_k, _pb_item in enumerate({p.py_name}):",
            f"        _ct.pointer(_pb_item._s)[0] = _pb_a{p.index}[_pb_k]",
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
        """``CFUNCTYPE(restype, *argtypes)``: called without the GIL, like every ctypes foreign call."""
        return f"_ct.CFUNCTYPE({', '.join([self.restype(f), *(self.argtype(p) for p in f.params)])})"


@dataclass(frozen=True, slots=True)
class CallPlan:
    """One wrapper: its prototype and its source."""

    binding: FunctionBinding
    prototype: str
    source: str
    method_source: str


def call_plans(binding: BindingModel, writer: CtypesWriter, left_out: list[Diagnostic]) -> list[CallPlan]:
    """A wrapper per function; what ctypes cannot express goes to ``left_out`` with the reason."""
    plans = []
    for function in binding.functions:
        try:
            prototype = writer.prototype(function)
            plans.append(CallPlan(function, prototype, writer.wrapper(function, False), writer.wrapper(function, True)))
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
        "aliases": [(alias, r.py_name) for r in records for alias in r.aliases]
        + [(alias, h.py_name) for h in binding.handles for alias in h.aliases],
        "classes": classes,
        "calls": call_plans(binding, writer, left_out),
        "left_out": left_out,
        "link": link,
        "library_dirs": folders,
        "dynamic": binding.load == "dynamic",
        "table": getter,
        "handles": binding.handles,
        "has_errors": binding.errors is not None or any(f.error is not None for f in binding.functions),
        "errors": binding.errors,
    }
