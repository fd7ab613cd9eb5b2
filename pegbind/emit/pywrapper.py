"""The Python wrappers of the ctypes and cffi backends: one renderer of the call plans, two FFIs.

Input: a :class:`~pegbind.passes.binding.BindingModel` whose functions carry
their :class:`~pegbind.passes.callplan.CallPlan`.  Output: the Python source
of each wrapper (:class:`WrapperWriter`, spelled for an FFI by the subclasses
``CtypesWriter`` and ``CffiWriter``) and what the backends present alike: the
argument specs the runtime's ``_pb_fix`` reads, the record field plans.  The
Cython backend reads the same specs and plans (its wrappers call ``_pb_fix``
on their error path), so all three agree here on every range and message
(DESIGN §4).

Each wrapper is straight-line Python: a *fast path* (the plain call, with only
the checks the FFI cannot do itself: integer ranges and buffer conversions)
inside a ``try``; anything unusual (an object with ``__index__``, ``None``
where the fast path needs a pointer, a wrong type) falls through to
``_pb_fix``, which either raises the precise error or normalises the
arguments, and the same body runs once more.  That keeps the common call
within a few comparisons of hand-written FFI code.
"""
from __future__ import annotations

import keyword
from abc import ABC, abstractmethod
from typing import Any

from ..frozen import frozen_dataclass, replace
from ..model import Array, CType, Pointer, assert_never
from ..passes.binding import (
    BindingModel,
    CallbackBinding,
    FieldBinding,
    FunctionBinding,
    ParamBinding,
    RecordBinding,
)
from ..passes.callplan import (
    Allocate,
    Call,
    Capacity,
    CheckFreer,
    CheckLength,
    CheckNotNone,
    CheckSameCount,
    CollectOutput,
    ConvertReturn,
    CopyBack,
    Disown,
    PassArray,
    PassCell,
    PassIn,
    PassLength,
    PassNull,
    PassUserData,
    PassVarargs,
    Probe,
    Slot,
    element_size,
    fewest_bytes,
)
from ..passes.naming import unmangled
from ..target import integer_range
from .common import (
    callback_count,
    cells_taken,
    class_aliases,
    given_callables,
    is_primitive,
    py_docstring,
    text_flag,
)
from .stubs import stub_context


def classes_context(
    binding: BindingModel, records: list[RecordBinding], classes: dict[str, str], calls: list[Any]
) -> dict[str, Any]:
    """What the ctypes and cffi templates both see of the record classes and the wrappers
    (``calls``: the rendered wrappers, each with its ``binding``)."""
    return {
        "records": records,
        "fields": field_plans(binding, classes, {r.record.key for r in records}),
        "aliases": class_aliases(records, binding.handles),
        "classes": classes,
        "calls": calls,
        "function_aliases": binding.aliases_of(c.binding for c in calls),
        "cells": binding.cells,
        "cell_aliases": binding.cell_aliases,
        "freeing": {d.name for d in binding.deallocators},
        **stub_context(records, classes, (c.binding for c in calls)),
    }


class UnspellableError(ValueError):
    """A C type or value an FFI has no spelling for (``__int128`` in ctypes, a function by value)."""


# --------------------------------------------------------------------------
# Argument specs and record field plans, alike in every backend
# --------------------------------------------------------------------------


#: the largest int CPython keeps in one 30-bit digit, whose comparisons it specialises
SMALL_INT = (1 << 30) - 1


def in_range(value: str, lo: int, hi: int, first: str | None = None) -> str:
    """A test that the int ``value`` is in [lo, hi], as CPython 3.11 runs it fastest.

    Two comparisons joined by ``and``, not one chained (``lo <= v <= hi``):
    CPython specialises ``v >= lo`` followed by a jump when both ints are small
    (one 30-bit digit), never the chained form.  A bound of a 32- or 64-bit
    type is not small, so the small range is tried first: about 10 ns less
    for one value.  ``first``: the expression the first comparison reads
    ``value`` from (an assignment expression converting it).
    """
    first = first or value
    small_lo, small_hi = max(lo, -SMALL_INT), min(hi, SMALL_INT)
    if (small_lo, small_hi) == (lo, hi):
        return f"({first} >= {lo} and {value} <= {hi})"
    return f"({first} >= {small_lo} and {value} <= {small_hi} or {value} >= {lo} and {value} <= {hi})"


def arg_label(param: ParamBinding) -> str:
    """How messages name a parameter: ``argument 1 (a)``, as the Cython backend does."""
    return param.label


def arg_spec(binding: BindingModel, classes: dict[str, str], param: ParamBinding) -> str:
    """A Python literal describing one input for the runtime ``_pb_fix`` function.

    ``(kind, label, ...)``: ``("int", label, lo, hi)``, ``("bool", label)``,
    ``("float", label)``, ``("complex", label)``, ``("cstring", label[, counted])``, ``("buffer", label, min)``,
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
        lo, hi = integer_range(binding.module, param.ctype, binding.target)
        return f"('int', {label}, {lo}, {hi})"
    if kind == "cstring" and param.counted:
        return f"('cstring', {label}, True)"  # C reads as many as a length says: a str may hold NULs
    if kind in ("bool", "float", "complex", "cstring"):
        return f"('{kind}', {label})"
    if kind in ("buffer", "writable_buffer"):
        first = cells_taken(param)
        least = fewest_bytes(binding.module, binding.target, param)
        return (f"('{kind}', {label}, {least}, {param.pointer_type!r}, {text_flag(param)}, "
                f"{param.cell_tag!r}, {first!r})")
    if kind in ("record", "record_ptr"):
        return f"('record', {label}, {classes[param.record_key or '']}, {kind == 'record_ptr' and not param.nonnull})"
    if kind == "pointer":
        return f"('pointer', {label}, {param.pointer_type!r}, {not param.nonnull})"
    if kind == "callback" and param.callback is not None:
        return f"('callback', {label}, {param.callback.c_text!r}, {not param.nonnull})"
    raise UnspellableError(f"no argument spec for kind {kind!r}")


def _value_spec(classes: dict[str, str], kind: str, label: str, int_range: tuple[int, int] | None = None,
                key: str | None = None, nullable: bool = False) -> str:
    """The spec of a value of ``kind`` named ``label`` (a literal): what :func:`input_spec` is made of."""
    if kind == "int" and int_range is not None:
        return f"('int', {label!r}, {int_range[0]}, {int_range[1]})"
    if kind in ("bool", "float", "complex", "cstring"):
        return f"('{kind}', {label!r})"
    if kind in ("record", "record_ptr", "handle"):
        return f"('record', {label!r}, {classes[key or '']}, {nullable})"
    raise UnspellableError(f"no argument spec for kind {kind!r}")


def _element_spec(binding: BindingModel, classes: dict[str, str], kind: str, ctype: CType | None,
                  key: str | None, what: str, nullable: bool) -> str:
    if kind == "enum":  # an enum goes in as the int it is
        kind, key = "int", None
    rng = integer_range(binding.module, ctype, binding.target) if kind == "int" and ctype is not None else None
    return _value_spec(classes, kind, what, rng, key, nullable)


def input_item_spec(binding: BindingModel, classes: dict[str, str], p: ParamBinding) -> str:
    """The spec of one item of an ``in-array`` input (``None``: bytes of a ``void`` buffer, unchecked)."""
    items = f"{arg_label(p)} items"
    if p.kind == "buffer":
        return "None" if p.element is None else _element_spec(binding, classes, "int", p.element, None, items, False)
    if p.kind == "writable_buffer":  # a list's buffer, as a parameter of the item's type takes it
        return f"('writable_buffer', {items!r}, 0, {p.pointer_type!r}, False, '', '')"
    if p.kind == "record_ptr":
        return _value_spec(classes, "record", items, key=p.record_key, nullable=True)
    return _element_spec(binding, classes, p.kind, p.element, p.record_key, items, p.kind == "handle")


def input_spec(binding: BindingModel, classes: dict[str, str], p: ParamBinding) -> str:
    """The literal telling ``_pb_fix`` how to check and normalise one input of a wrapper."""
    label = arg_label(p)
    role = p.role.role
    if role == "in":
        if p.kind == "handle":
            spec = _element_spec(binding, classes, "handle", None, p.record_key, label, not p.nonnull)
            # None refused as every backend's wrapper refuses it first (readdir(None))
            return f"('nonnull', {label!r}, {spec})" if p.nonnull else spec
        return arg_spec(binding, classes, p)
    if role == "inout":
        nullable = p.kind in ("handle", "record_ptr")  # None: C is given NULL in the cell
        return _element_spec(binding, classes, p.kind, p.element, p.record_key, label, nullable)
    if role == "in-array":
        item = input_item_spec(binding, classes, p)
        return f"('array', {label!r}, {not p.nonnull}, {item}, {p.kind == 'buffer'})"
    if role == "len" and p.is_input:
        lo, hi = integer_range(binding.module, p.ctype, binding.target)
        return f"('count', {label!r}, {max(lo, 0)}, {hi})"
    raise UnspellableError(f"parameter {p.py_name} is not passed")


def input_specs(binding: BindingModel, classes: dict[str, str], f: FunctionBinding) -> str:
    """The tuple literal of the specs of ``f``'s inputs, in order."""
    items = [input_spec(binding, classes, p) for p in f.inputs]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


@frozen_dataclass()
class FieldPlan:
    """One record attribute as every backend presents it."""

    binding: FieldBinding
    #: inclusive range checked on assignment (ints, array items), or None
    int_range: tuple[int, int] | None
    #: Python class of the nested record (record/record_array kinds)
    record_class: str | None
    #: an ``int`` member of plain ``char``: ``signed`` or ``unsigned`` as the target has it (cffi
    #: reads and writes such a member as ``bytes`` of one, every other backend as a number)
    plain_char: str = ""
    #: a ``float`` member of ``long double`` (cffi reads it as a cdata, every other backend as a float)
    long_double: bool = False


def field_plans(
    binding: BindingModel, classes: dict[str, str], present: set[str] | None = None
) -> dict[str, tuple[FieldPlan, ...]]:
    """Record key -> the plans of its fields, with ranges resolved for the target.

    ``present``: the keys of the record classes the module has (all when None).  A
    pointer to a record the FFI cannot hold is a plain data pointer there (the
    module warns that the record is left out); a record held by value takes its
    holder with it.
    """
    module, target = binding.module, binding.target
    plans: dict[str, tuple[FieldPlan, ...]] = {}
    for record in binding.records:
        items = []
        for field in record.fields:
            if field.kind == "record_ptr" and present is not None and field.record_key not in present:
                field = replace(field, kind="data_pointer", record_key=None)
            rng = None
            if field.kind in ("int", "enum"):
                rng = field.int_range
            elif field.kind == "array" and field.element_kind == "int" and field.element is not None:
                rng = integer_range(module, field.element, target)
            plain_char = ("signed" if target.char_signed else "unsigned") if (
                field.kind == "int" and is_primitive(module, field.ctype, "char")) else ""
            long_double = field.kind == "float" and is_primitive(module, field.ctype, "long double")
            items.append(FieldPlan(field, rng, classes.get(field.record_key or ""), plain_char, long_double))
        plans[record.record.key] = tuple(items)
    return plans


def field_spec(plan: FieldPlan, what: str) -> str:
    """The spec of a value assigned to an arithmetic field, named ``what`` (of one item, for an array)."""
    field = plan.binding
    kind = field.element_kind if field.kind == "array" else field.kind
    return _value_spec({}, kind or "", what, plan.int_range)


def ordered_records(binding: BindingModel):
    """The record bindings in dependency order (a nested record's class comes first)."""
    return binding.ordered_records()


def cffi_member(pointer: str, name: str) -> str:
    """An expression for a member of the struct ``pointer`` points to (also an assignment target).

    A member named like a Python keyword, or a name a class body would rewrite (``__x``: see
    :func:`~pegbind.passes.naming.unmangled`), is reached through ``ffi.addressof``.
    """
    if keyword.iskeyword(name) or unmangled(name) != name:
        return f"_ffi.addressof({pointer}, {name!r})[0]"
    return f"{pointer}.{name}"


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
    ``cell_value`` (how a one-element cell is read and written),
    ``in_array``, ``length_cell``/``length_arg``, ``out_buffer``,
    ``buffer_result``, ``copy_back``, ``ret`` and :attr:`null`.
    """

    null = "None"

    def __init__(self, binding: BindingModel, classes: dict[str, str]):
        self.binding = binding
        self.module = binding.module
        self.target = binding.target
        self.classes = classes
        #: the closure factory of each callback type a wrapper takes: C type -> (name, source)
        self.callbacks: dict[str, tuple[str, str]] = {}
        #: whether some function takes a callable, or a function pointer class makes one (given
        #: among extra arguments, or set in a field): then every wrapper raises what one raised
        self.takes_callables = bool(binding.callables())

    # ---- callbacks --------------------------------------------------------

    def callback_factory(self, cb: CallbackBinding) -> str:
        """The name of the module function making a C function pointer of type ``cb`` from a
        callable: ``(closure, pointer)``; written once per type (and result on error), in :attr:`callbacks`."""
        if cb.factory_key in self.callbacks:
            return self.callbacks[cb.factory_key][0]
        name = f"_pb_callback_{len(self.callbacks)}"
        names = [f"_pb_a{i}" for i in range(len(cb.args))]
        # NULL (a user-data pointer left so) reaches the callable as None without a call
        args = ", ".join(
            f"_pb_counted_text({n}, {callback_count(a, names)})" if a.kind == "string" and a.counted_by else
            f"_pb_counted_pointer({n}, {a.pointer_type!r}, {callback_count(a, names)})" if a.counted_by else
            f"None if not {n} else _pb_lent({self.pointer_value(a.kind, a.record_key, a.pointer_type, n, 'None')})"
            if a.kind == "handle" else
            f"None if not {n} else {self.pointer_value(a.kind, a.record_key, a.pointer_type, n, 'None')}"
            if a.kind in ("pointer", "record_ptr") else
            self.float_value(a.ctype, n) if a.kind == "float" else
            self.pointer_value(a.kind, a.record_key, a.pointer_type, n, "None")
            for a, n in zip(cb.args, names, strict=True))
        what = repr(f"the result of a callback {cb.c_text}")
        r = cb.ret
        failed = self.null if r.kind in ("handle", "pointer") else cb.failed
        # the lines making the closure, after the trampoline: set when the FFI checks the range
        made: list[str] = []
        if r.kind == "int" and self.checks_int_results:
            lo, hi = r.int_range  # type: ignore[misc]  # set for int results
            # an exact int goes back as it is, its range checked by the FFI; one out of range
            # makes the FFI call refused(), which raises what the shared check would
            body = (f"_pb_result = _pb_function({args})\n"
                    f"            if _pb_result.__class__ is int:\n"
                    f"                _pb_last = _pb_result\n"
                    f"                return _pb_result\n"
                    f"            return _pb_index(_pb_result, {what}, {lo}, {hi})")
            made = [  # _pb_refused: the FFI refused an int the trampoline returned
                "    def _pb_refused(_pb_kind, _pb_error, _pb_traceback):",
                f"        _pb_int_refused(_pb_last, {what}, {lo}, {hi}, _pb_error)",
                f"        return {failed}",
                "",
            ]
        elif r.kind in ("int", "enum"):
            lo, hi = r.int_range  # type: ignore[misc]  # set for int results
            # an exact int in range goes back as it is; anything else through the shared check
            body = (f"_pb_result = _pb_function({args})\n"
                    f"            if _pb_result.__class__ is int and {in_range('_pb_result', lo, hi)}:\n"
                    f"                return _pb_result\n"
                    f"            return _pb_index(_pb_result, {what}, {lo}, {hi})")
        elif r.kind == "bool":
            body = f"return _pb_bool(_pb_function({args}), {what})"
        elif r.kind == "float":
            body = f"return _pb_float(_pb_function({args}), {what})"
        elif r.kind in ("handle", "pointer"):
            cls = self.classes[r.record_key or ""] if r.kind == "handle" else "None"
            address = f"_pb_result_address(_pb_function({args}), {cls}, {r.pointer_type!r}, {what})"
            body = f"return {self.pointer_result(address)}"
        else:
            body = f"_pb_function({args})\n            return None"
        closure, pointer = self.closure(cb, "_pb_trampoline", refused=bool(made))
        doc = f"A C {cb.c_text} calling function: (the closure to keep alive, the pointer C is given)."
        lines = [
            f"def {name}(_pb_function):",
            f"    {doc!r}",
            *(["    _pb_last = 0  # the int the trampoline last returned, for _pb_refused()"] if made else []),
            "",
            f"    def _pb_trampoline({', '.join(names)}):",
            *(["        nonlocal _pb_last"] if made else []),
            "        _pb_called[0] = True  # C called it: see _pb_retain",
            "        _pb_held = _pb_hold() if _pb_pending else None  # what another raised waits: see _pb_hold",
            "        try:",
            f"            {body}",
            f"        except BaseException as _pb_error:  # C cannot take it: kept for the call, C gets {failed}",
            "            _pb_callback_failed(_pb_error)",
            f"            return {failed}",
            "        finally:",
            "            if _pb_held is not None:",
            "                _pb_restore(_pb_held)",
            "",
            *made,
            f"    _pb_closure = {closure}",
            f"    return _pb_closure, {pointer}",
        ]
        source = "\n".join(lines) + "\n"
        self.callbacks[cb.factory_key] = (name, source)
        return name

    def class_factories(self) -> dict[str, tuple[str, str]]:
        """:attr:`callbacks`, with the factories of the typedef classes and record fields among them."""
        for cb in self.binding.callables():
            self.callback_factory(cb)
        return self.callbacks

    def callback_arg(self, f: FunctionBinding, p: ParamBinding, s: Slot, keeper: str) -> tuple[list[str], str]:
        """What is passed for a ``callback`` parameter: NULL, a FunctionPointer's address, or a new
        closure's; and the statements before, which keep a typedef class's FunctionPointer."""
        cb = p.callback
        assert cb is not None
        factory = self.callback_factory(cb)
        key = repr(f.callback_key(p))
        selectors = f.callback_selectors(p)
        values = f"({''.join(q.py_name + ', ' for q in selectors)})" if selectors else ""
        call = f"_pb_callback({p.py_name}, {factory}, {cb.c_text!r}, {keeper}, {key}{', ' + values if values else ''})"
        other = f"{self.null} if {p.py_name} is None else {self.as_parameter(p, call)}"
        # a FunctionPointer made once (a typedef's class) is passed without a call, kept as its
        # closure would be: C may call it after the caller dropped it
        cls = self.callback_class(cb)
        if not (cls and self.passes_as_is(p, cls)):
            return [], other
        if not values:
            keep = [f"_pb_callbacks[{key}] = {p.py_name}" if keeper == "None"
                    else f"_pb_keep_callback({keeper}, {key}, {p.py_name})"]
        elif keeper == "None":  # the same again, as a loop passes it, is kept already
            same = " or ".join(f"_pb_k[{i}] is not {q.py_name}" for i, q in enumerate((p, *selectors)))
            keep = [f"_pb_k = _pb_callbacks.get({key})",
                    f"if _pb_k is None or {same}:",
                    f"    _pb_keep_callback(None, {key}, {p.py_name}, {values})"]
        else:
            keep = [f"_pb_keep_callback({keeper}, {key}, {p.py_name}, {values})"]
        return ([f"if {p.py_name}.__class__ is {cls}:", *(f"    {line}" for line in keep),
                 f"    {s.arg} = {self.class_pointer(p.py_name)}", "else:", f"    {s.arg} = {other}"], s.arg)

    def retained(self, f: FunctionBinding) -> str:
        """What runs after the call of ``f`` (``_pb_called`` cleared before it) keeping each
        callable given that C did not call meanwhile past the next one given in its place (see
        ``_pb_retain``): ``""`` for a function taking none."""
        given = given_callables(f)
        if not given:
            return ""
        lines = ["if not _pb_called[0]:"]
        for p, keeper, key in given:
            lines += [f"    if {p.py_name} is not None:", f"        _pb_retain({keeper}, {key!r})"]
        return "\n".join(lines) + "\n"

    def class_pointer(self, value: str) -> str:
        """What is passed for an instance ``value`` of a function pointer typedef's class."""
        return f"{value}._ptr"

    def pointer_result(self, address: str) -> str:
        """What a closure returns to C for a pointer result at the int ``address`` (0: NULL)."""
        return address

    def passes_as_is(self, p: ParamBinding, cls: str) -> bool:
        """Whether the pointer of an instance of the typedef class ``cls`` is passed for ``p`` as it is."""
        return True

    def as_parameter(self, p: ParamBinding, pointer: str) -> str:
        """A C function pointer (a closure's, or a FunctionPointer's) as the FFI passes it for ``p``."""
        return pointer

    def callback_class(self, cb: CallbackBinding) -> str:
        """The typedef class of the callback type ``cb`` ("" for none)."""
        return next((c.py_name for c in self.binding.callback_classes if c.callback.c_text == cb.c_text), "")

    #: whether the FFI checks the range of an int a closure returns (and calls ``refused`` when out of it)
    checks_int_results = False

    @abstractmethod
    def closure(self, cb: CallbackBinding, trampoline: str, refused: bool = False) -> tuple[str, str]:
        """(an expression making the FFI's closure calling ``trampoline``, the C pointer of ``closure``);
        ``refused``: the FFI calls the function ``refused`` when it cannot convert what ``trampoline`` returned."""

    # ---- hooks the backends fill in ------------------------------------

    def guard(self, p: ParamBinding) -> str:
        """A condition the fast path needs before an FFI that does not check ranges ("" for none)."""
        return ""

    def length_value(self, p: ParamBinding, value: str) -> str:
        """What is passed for a ``len`` parameter taken by value, whose int is ``value``."""
        return value

    # ---- what each backend spells (see CtypesWriter, CffiWriter) --------

    @abstractmethod
    def in_arg(self, p: ParamBinding) -> str:
        """The expression passed for an ``in`` parameter."""

    @abstractmethod
    def out_value(self, p: ParamBinding, s: Slot, inout: bool) -> tuple[list[str], str]:
        """(lines allocating the cell of an ``out``/``inout`` value, the expression passed)."""

    @abstractmethod
    def in_array(self, p: ParamBinding, s: Slot) -> list[str]:
        """Lines setting ``_pb_a<i>`` (the C array) and ``_pb_n<i>`` (its length) from a sequence."""

    @abstractmethod
    def length_cell(self, p: ParamBinding, s: Slot, measured: str) -> list[str]:
        """Lines allocating the cell a ``len`` parameter points at, holding ``measured``."""

    @abstractmethod
    def cell_value(self, cell: str) -> str:
        """The value in a one-element C cell the wrapper allocated: an expression, and a place to assign."""

    @abstractmethod
    def length_arg(self, p: ParamBinding, s: Slot) -> str:
        """The pointer to a ``len`` cell, as passed."""

    @abstractmethod
    def out_buffer(self, p: ParamBinding, s: Slot) -> list[str]:
        """Lines allocating ``_pb_n<i>`` elements for an ``out-bytes``/``out-array`` parameter."""

    @abstractmethod
    def buffer_result(self, p: ParamBinding, s: Slot, owner: str) -> list[str]:
        """Lines setting ``_pb_res<i>`` from an out buffer cut to ``_pb_n<i>`` elements."""

    @abstractmethod
    def copy_back(self, p: ParamBinding, s: Slot) -> list[str]:
        """Lines copying an ``in-array`` of records back into the caller's objects."""

    @abstractmethod
    def ret(self, f: FunctionBinding, owner: str) -> list[str]:
        """Lines setting ``_pb_ret`` from the C result ``_pb_r``."""

    # ---- shared --------------------------------------------------------

    @abstractmethod
    def record_at(self, key: str, pointer: str, owner: str) -> str:
        """The view (``None`` for NULL) of the record ``key`` at the C pointer ``pointer``, keeping ``owner`` alive."""

    @abstractmethod
    def string_at(self, pointer: str) -> str:
        """``bytes`` (``None`` for NULL) of the C string a ``char *`` cell or result holds."""

    def made_constant(self, kind: str, key: str | None, ctype: str, address: int) -> str:
        """A constant that is an integer cast to a pointer type (see
        :func:`~pegbind.emit.common.pointer_constants`), made at import as a result is: a
        ``Pointer`` with no elements to read or write (``MAP_FAILED``, libtcc's ``(void *)1``)."""
        if kind == "pointer":
            return f"_pb_counted_pointer({self.address_value(ctype, address)}, {ctype!r}, 0)"
        return self.pointer_value(kind, key, ctype, self.address_value(ctype, address), "None")

    def address_value(self, ctype: str, address: int) -> str:
        """A pointer of C type ``ctype`` holding ``address``, as the FFI gives one."""
        return str(address)

    def pointer_value(self, kind: str, key: str | None, ctype: str, pointer: str, owner: str) -> str:
        """The Python value of a C value of a pointer kind (``handle``, ``pointer``, ``record_ptr``,
        ``string``) or an ``enum``, as the FFI gives it: an expression."""
        if kind == "handle":
            return f"_pb_handle({self.classes[key or '']}, {pointer}, {owner})"
        if kind == "pointer":
            return f"_pb_pointer({pointer}, {ctype!r}, {owner})"
        if kind == "function_pointer":
            return f"_pb_function_pointer({pointer}, {ctype!r}, {owner})"
        if kind == "record_ptr":
            return self.record_at(key or "", pointer, owner)
        if kind == "string":
            return self.string_at(pointer)
        if kind == "enum":
            return f"_pb_members_{self.classes[key or '']}.get({pointer}, {pointer})"
        if kind == "complex":
            return self.complex_value(pointer)
        return pointer

    def complex_value(self, value: str) -> str:
        """Python's complex of a C complex value as the FFI gives it (a name): an expression."""
        return value

    def counted_read(self, into: str, pointer: str, length: tuple[ParamBinding, Slot, tuple[int, bool]],
                     freer: str | None) -> list[str]:
        """Lines setting ``into`` to the characters at ``pointer`` whose length C wrote to the cell
        of ``length`` (see ConvertReturn.length; to the NUL where the call was given no cell), then
        freeing them with ``freer`` if an ownership rule says so."""
        cell, _, (size, signed) = length
        lines = [f"{into} = _pb_counted_text({pointer}, _pb_stated({cell.py_name}, {size}, {signed}))"]
        if freer is not None:
            lines += [f"if {into} is not None:", f"    {self.freer(freer)}({pointer})"]
        return lines

    def float_value(self, ctype: CType, value: str) -> str:
        """Python's float of a C floating value of ``ctype`` as the FFI gives it: an expression."""
        return value

    def out_result(self, p: ParamBinding, s: Slot, owner: str) -> tuple[list[str], str]:
        """(lines, the Python value) of an ``out``/``inout`` cell after the call."""
        if p.kind == "record":
            if p.owner is None:
                return [], s.cell
            return [f"_pb_own({s.cell}, {self.freer(p.owner)}, {self.address_of(s)})"], s.cell
        pointer = self.cell_value(s.cell)
        if p.owner is None:
            return [], self.pointer_value(p.kind, p.record_key, p.pointer_type, pointer, owner)
        return self.owned(p.kind, p.record_key, p.pointer_type, pointer, owner, p.owner, s.result)

    def owned(self, kind: str, key: str | None, ctype: str, pointer: str, owner: str, freer: str,
              into: str) -> tuple[list[str], str]:
        """(lines, ``into``): the Python value of a pointer an ownership rule gives, in ``into``.

        A string is copied into bytes and freed at once; any other object owns
        the memory, freed once by its ``close()`` or when it is collected.
        """
        if kind == "string":
            return [f"{into} = {self.owned_string(pointer)}",
                    f"if {into} is not None:",
                    f"    {self.freer(freer)}({pointer})"], into
        value = self.pointer_value(kind, key, ctype, pointer, owner)
        return [f"{into} = _pb_own({value}, {self.freer(freer)}, {pointer})"], into

    def freer(self, name: str) -> str:
        """The expression of the deallocator ``name``: the module's, or the Library's in a method."""
        return f"{self.library}_pb_free_{name}"

    @abstractmethod
    def owned_string(self, pointer: str) -> str:
        """``bytes`` (``None`` for NULL) copied from an owned ``char *`` result or cell, which is freed after."""

    @abstractmethod
    def address_of(self, s: Slot) -> str:
        """The address of an ``out`` record's C struct, as a deallocator takes it."""

    def set_length(self, s: Slot, value: str) -> str:
        """A statement storing ``value`` in a ``len`` cell."""
        return f"{self.cell_value(s.length)} = {value}"

    def get_length(self, s: Slot) -> str:
        """An expression reading a ``len`` cell."""
        return self.cell_value(s.length)

    def int_range(self, ctype: CType) -> tuple[int, int]:
        return integer_range(self.module, ctype, self.target)

    def spec(self, p: ParamBinding) -> str:
        """The literal telling ``_pb_fix`` how to check and normalise one input."""
        return input_spec(self.binding, self.classes, p)

    def specs(self, f: FunctionBinding) -> str:
        return input_specs(self.binding, self.classes, f)

    #: what the deallocators are reached through: "" (module globals) or "self." (a Library's)
    library = ""

    def wrapper(self, f: FunctionBinding, method: bool) -> str:
        """The ``def`` of ``f`` (a Library method when ``method``)."""
        self.library = "self." if method else ""
        names = [p.py_name for p in f.inputs]
        params = (["self"] if method else []) + names
        star = f", *{f.varargs}" if params and f.varargs else f"*{f.varargs}" if f.varargs else ""
        head = f"def {f.py_name}({', '.join(params)}{', /' if params else ''}{star}):"
        fn = "_pb_fn" if method else f"_f_{f.function.name}"
        keeps = f.call.keeps if f.call is not None else None
        owner = keeps.py_name if keeps is not None else "self" if method else "None"
        lines = [head, "    " + py_docstring(f, self.classes)]
        if method:
            lines.append(f"    _pb_fn = self._f_{f.function.name}")
        body = self.body(f, fn, owner)
        guards = [g for g in (self.guard(p) for p in f.inputs) if g]
        if not names:
            # Nothing for _pb_fix to normalise: a second run could only fail the
            # same way (after calling C twice), so the body runs once, unguarded.
            lines += ["    " + line for line in body]
            return "\n".join(lines) + "\n"
        for p in f.inputs:
            if p.role.role == "in-array":
                # read once, so that the fast path and the retry see the same items
                lines.append(f"    if {p.py_name}.__class__ is not list and {p.py_name}.__class__ is not tuple:")
                lines.append(f"        {p.py_name} = _pb_once({p.py_name})")
        lines.append("    try:")
        fast = self.body(f, fn, owner, FAST_PATH_ERRORS)
        if guards:
            lines.append(f"        if {' and '.join(guards)}:")
            lines += ["            " + line for line in fast]
        else:
            lines += ["        " + line for line in fast]
        if self.takes_callables:
            # what a callable raised, raised once C returned, is no argument to retry with
            lines.append(f"    except {FAST_PATH_ERRORS} as _pb_raised:")
            lines.append("        _pb_not_kept(_pb_raised)")
        else:
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

    def body(self, f: FunctionBinding, fn: str, owner: str, retry: str = "") -> list[str]:
        """The statements of ``f``'s wrapper: its call plan's steps, spelled for this FFI.

        ``retry``: the exceptions the fast path's handler hands over to the retry, when the
        body is the fast path's: what a callable raised is noted for that handler to raise on.
        """
        plan = f.call
        assert plan is not None, "the plan-calls pass runs before emitting"
        out: list[str] = []
        args: dict[int, str] = {}  # what C receives, where it is not the slot's local
        results: list[str] = []
        # whether text C gives back is read after the call: it may point into text it was given
        reads_text_after = (f.returns_value and f.ret.kind == "string") or any(o.kind == "string" for o in f.outputs)

        def call() -> str:
            passed = [args.get(p.index, plan.slots[p.index].arg) for p in f.params]
            if f.variadic:
                passed.append("*_pb_va")
            return f"{fn}({', '.join(passed)})"

        for step in plan.steps:
            match step:
                case CheckNotNone(param=p):
                    out += [f"if {p.py_name} is None:", f"    raise TypeError({step.message!r})"]
                case PassIn(param=p, slot=s) if p.kind == "callback":
                    keeper = p.callback.keeper if p.callback is not None else None
                    keeps = "None" if keeper is None else f.params[keeper].py_name
                    lines, args[p.index] = self.callback_arg(f, p, s, keeps)
                    out += lines
                case PassIn(param=p, slot=s):
                    # held in a local: a buffer a ``len`` parameter is measured from, and the
                    # characters C is given (a str's UTF-8 copy) where the text C gives back, read
                    # after the call, may point into them (cJSON_ParseWithOpts's end, strchr)
                    if step.measured or (p.kind == "cstring" and reads_text_after):
                        out.append(f"{s.arg} = {self.in_arg(p)}")
                        args[p.index] = s.arg
                    else:
                        args[p.index] = self.in_arg(p)
                    if step.measured:  # its length in elements
                        out.append(f"{s.count} = _pb_measure({p.py_name}, {step.element_size})")
                case PassUserData():
                    pass  # the closure needs no user-data pointer: C gets the caller's
                case PassVarargs(first=first, keeper=keeper, selectors=selectors):
                    slot = ", ".join([repr(f.function.name), *(p.py_name for p in selectors)])
                    out.append(f"_pb_va = _pb_varargs({f.varargs}, {first}, "
                               f"{keeper.py_name if keeper is not None else 'None'}, ({slot},))")
                case CheckLength(buffer=held, buffer_slot=held_slot, length=stated, factor=factor):
                    out += self.check_length(step, held, held_slot, stated, bool(retry))
                    if not step.in_a_cell:  # the check made the length (and its factor) an exact int
                        args[stated.index] = self.exact_int_arg(stated)
                    if factor is not None:
                        args[factor.index] = self.exact_int_arg(factor)
                case PassNull(param=p):
                    args[p.index] = self.null if step.pointer else "0"
                case PassCell(param=p):
                    lines, passed = self.out_value(p, step.slot, step.inout)
                    out += lines
                    args[p.index] = passed
                case PassArray(param=p, slot=s):
                    out += self.in_array(p, s)
                    if p.array_length and p.kind == "record":  # C reads that many (futimens' times[2])
                        message = f"{arg_label(p)} needs at least {p.array_length} items, got "
                        out += [f"if {p.py_name} is not None and {s.count} < {p.array_length}:",
                                f"    raise ValueError({message!r} + str({s.count}))"]
                    args[p.index] = s.arg
                case CheckSameCount(first_slot=first, other_slot=other):
                    message = step.message.replace("{n}", f"{{{other.count}}}").replace("{m}", f"{{{first.count}}}")
                    # None is NULL, as for any in-array (glShaderSource's length: NUL-terminated strings)
                    out += [f"if {step.other.py_name} is not None and {other.count} != {first.count}:",
                            f"    raise ValueError(f{message!r})"]
                case PassLength(param=p, slot=s, measured=counted):
                    if step.mode == "input":
                        out.append(f"{counted.count} = {p.py_name}")
                        args[p.index] = self.length_value(p, p.py_name)
                        continue
                    if step.limit is not None:  # an FFI may wrap a length silently (ctypes does)
                        out += [f"if {counted.count} > {step.limit}:", f"    raise OverflowError({step.message!r})"]
                    if step.mode == "cell":
                        # an out buffer's length is set before each call (the probe sets it to 0)
                        out += self.length_cell(p, s, "0" if step.starts_at_zero else counted.count)
                        args[p.index] = self.length_arg(p, s)
                    else:
                        args[p.index] = self.length_value(p, counted.count)
                case Probe(buffers=buffers):
                    for b in buffers:
                        out.append(f"{b.slot.arg} = {self.null}")
                        if b.length_slot is not None:
                            out.append(self.set_length(b.length_slot, "0"))
                    out += self.call(f, call())
                    out += [
                        f"{b.slot.count} = {self.get_length(b.length_slot)}"
                        for b in buffers if b.length_slot is not None
                    ]
                case Capacity(buffer=b, count=count):
                    out.append(f"{b.slot.count} = {count}")
                case Allocate(buffer=b):
                    # the byte size must be addressable (a huge count would overflow
                    # the size computation or ask the allocator for the impossible)
                    n = b.slot.count
                    out += [f"if {n} < 0 or {n} > {step.limit}:", f"    raise OverflowError({step.message!r})"]
                    out += self.out_buffer(b.param, b.slot)
                    if b.length_slot is not None:
                        out.append(self.set_length(b.length_slot, n))
                case Call() if self.takes_callables:
                    # what a callable raised while C ran is raised once C returns (see _pb_raise_kept);
                    # one C did not call meanwhile is kept for later (see _pb_retain)
                    retained = self.retained(f)
                    if retained:
                        out.append("_pb_called[0] = False")
                    out += self.call(f, call(), retained + f"if _pb_pending:\n    _pb_raise_kept({retry})")
                case Call():
                    if plan.passes_through and self.direct(f):
                        return out + [f"return {call()}"]  # nothing to convert back: the FFI's result is the result
                    out += self.call(f, call())
                case CopyBack(param=p, slot=s):
                    out += self.copy_back(p, s)
                case CheckFreer(name=name):
                    missing = (f"f\"{{self._pb_path}}: the library has no symbol {name!r}\"" if self.library
                               else repr(f"no loaded library defines {name!r}"))
                    out += [f"if {self.freer(name)} is None:", f"    raise AttributeError({missing})"]
                case Disown(param=p):
                    out.append(f"_pb_disown({p.py_name})")
                case ConvertReturn(length=written) if written is not None:
                    # characters C wrote the length of to the cell the call was given (if it was one)
                    out += self.counted_read("_pb_ret", "_pb_r", written, f.ret.owner)
                    results.append("_pb_ret")
                case ConvertReturn():
                    if f.ret.owner is not None:
                        lines, _ = self.owned(f.ret.kind, f.ret.record_key, f.ret.pointer_type, "_pb_r", owner,
                                              f.ret.owner, "_pb_ret")
                        out += lines
                    else:
                        out += self.ret(f, owner)
                    results.append("_pb_ret")
                case CollectOutput(param=p, slot=s, buffer=None, length=written) if written is not None:
                    # characters C wrote the length of to the cell after them (if one was given)
                    out += self.counted_read(s.result, self.cell_value(s.cell), written, p.owner)
                    results.append(s.result)
                case CollectOutput(param=p, slot=s, buffer=b):
                    if b is None:  # an out/inout cell
                        lines, value = self.out_result(p, s, owner)
                        out += lines
                        results.append(value)
                        continue
                    if b.length_slot is not None:
                        length = self.get_length(b.length_slot)
                        out += [f"if {length} < {s.count}:", f"    {s.count} = {length}"]
                    out += self.buffer_result(p, s, owner)
                    results.append(s.result)
                case _:
                    assert_never(step)
        if not results:
            out.append("return None")
        elif len(results) == 1:
            out.append(f"return {results[0]}")
        else:
            out.append(f"return ({', '.join(results)})")
        return out

    def check_length(self, step: CheckLength, b: ParamBinding, bs: Slot, n: ParamBinding, fast: bool = False
                     ) -> list[str]:
        """Lines refusing a stated length larger than the buffer before it holds (see :class:`CheckLength`).

        On the ``fast`` path a length too large hands over to ``_pb_fix`` (a TypeError), which
        checks every argument in order first, as the Cython module converts them all before
        this check: the run after it raises the ValueError, if no other argument is wrong.

        Run on the fast path before any argument is converted: a length that is
        not an int yet (``_pb_exact_int`` raises TypeError) hands over to
        ``_pb_fix`` and the second run; a buffer whose capacity is not known
        (``None``, a ``Pointer``) gives -1, which nothing exceeds.
        """
        item, name = step.item_size, b.py_name
        known = f"_pb_capacity({name}, {item})"
        if step.in_a_cell:
            size, signed = step.cell_int
            message = step.message.replace("{n}", "{_pb_stated_n}").replace("{held}", "{" + bs.count + "}")
            return [
                f"{bs.count} = {known}",
                f"if {bs.count} >= 0:",
                # a cell, the common case, read inline; anything else through the shared reading
                f"    _pb_stated_n = {n.py_name}.value if isinstance({n.py_name}, _pb_Cell) "
                f"else _pb_stated({n.py_name}, {size}, {signed})",
                f"    if _pb_stated_n is not None and _pb_stated_n > {bs.count}:",
                f"        {self._too_long(message, fast)}",
            ]
        # The length is made an exact int once, compared, and passed as it is (see
        # exact_int_arg): no int subclass's comparison decides the check.  bytes,
        # the common case, are measured inline (len() is their size in bytes).  An
        # empty buffer holds no item, nor does one holding part of one: any length
        # is more (the buffer's conversion asks for no item, C being told how many).
        held = f"len({name})" + (f" // {item}" if item > 1 else "")
        # a length and the integer it is multiplied by (qsort's nmemb, size): their product
        stated = n.py_name if step.factor is None else f"{n.py_name} * {step.factor.py_name}"
        message = step.message.replace("{n}", "{" + stated + "}")
        # the library's (size_t)-1 for "to the NUL", where the buffer ends with one
        nul = "" if step.terminated is None else f" and {n.py_name} != {step.terminated}"
        # a negative length of a buffer C writes, which C takes for a huge size
        negative = step.negative.replace("{n}", "{" + n.py_name + "}")
        lines = [
            *self.exact_int(n),
            *(self.exact_int(step.factor) if step.factor is not None else ()),
            *([f"if {n.py_name} < 0:", f"    {self._too_long(negative, fast)}"] if negative else []),
            f"if {name}.__class__ is bytes:",
            f"    if {stated} > {held}{nul}:",
            f"        {self._too_long(message.replace('{held}', '{' + held + '}'), fast)}",
            f"elif {stated} > {known} >= 0:",
            f"    {self._too_long(message.replace('{held}', '{' + known + '}'), fast)}",
        ]
        if nul:
            lines[-2] = (f"elif {stated} > {known} >= 0 and not ({n.py_name} == {step.terminated} "
                         f"and isinstance({name}, (bytes, bytearray, str))):")
        return lines

    @staticmethod
    def _too_long(message: str, fast: bool) -> str:
        """The statement refusing a length too large: see :meth:`check_length`."""
        return "raise TypeError  # to _pb_fix: every argument is checked first" if fast else \
            f"raise ValueError(f{message!r})"

    def exact_int(self, p: ParamBinding) -> list[str]:
        """Lines making the int argument ``p`` an exact int, where the wrapper needs its value.

        On the retry path ``_pb_fix`` has already made it one; on the fast path
        an object that is no int raises TypeError here and goes to ``_pb_fix``.
        """
        name = p.py_name
        return [f"if {name}.__class__ is not int:", f"    {name} = _pb_exact_int({name})"]

    def exact_int_arg(self, p: ParamBinding) -> str:
        """What is passed for the int argument ``p`` once :meth:`exact_int` has run."""
        return self.in_arg(p)

    def _is_pointer(self, ctype: CType) -> bool:
        return isinstance(self.module.resolve(ctype), (Pointer, Array))

    def call(self, f: FunctionBinding, call: str, after: str = "") -> list[str]:
        """Lines calling C (``after``: what runs right after, before the error policy)."""
        lines = [f"_pb_r = {call}" if f.ret.kind != "void" else call, *after.splitlines()]
        if f.error is None:
            return lines
        return [
            *lines,
            f"if _pb_r != {f.error.success}:",
            f"    raise _pb_error(_pb_r, {f.function.name!r})",
        ]

    def direct(self, f: FunctionBinding) -> bool:
        """Whether the FFI already returns the Python value of ``f``'s result."""
        return f.ret.kind in ("int", "bool", "float", "void")

    def element_size(self, p: ParamBinding) -> int:
        """Bytes of one element of ``p``'s buffer (1 for ``void`` and incomplete types)."""
        return element_size(self.module, self.target, p.element) or 1
