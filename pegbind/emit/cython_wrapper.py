"""The Cython backend's wrappers: each function's call plan written as a compiled ``def``.

Input: a :class:`~pegbind.passes.binding.FunctionBinding` whose call plan
(:mod:`pegbind.passes.callplan`) the passes made, and what the module around
it defines (record classes, the closures and trampolines of callables, the
slots of kept callables, the tuples of cell classes).  Output: the source of
the ``def`` (:meth:`CythonWrappers.wrapper`), which ``cython.pyx.jinja``
places among the module's functions or the ``Library``'s methods.

As the ctypes and cffi wrappers are (:mod:`pegbind.emit.pywrapper`), these
are written in Python, not in the template: a step of a plan per method,
given the step; the local names are the plan's slots (``s.arg``,
``s.count`` ...), and nothing here reads the model.  Written by Jinja macros,
the wrappers were nine tenths of the time the ``.pyx`` took to render
(sqlite3.h: 23 of 26 ms), most of it Jinja's attribute lookups and macro calls.

Each step's text ends with a newline, and a blank line follows each step but
those of one statement (:data:`_ONE_LINERS`): the generated code reads as its
plan.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from jinja2.filters import do_indent  # what the templates indent with: the same text

from ..model import Array, CType, Pointer, Primitive
from ..passes.binding import LIST_KINDS, BindingModel, FunctionBinding, ParamBinding
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
    Release,
    Slot,
)
from ..target import integer_primitive
from .common import cells_taken, docstring, given_callables, py_string
from .ctypes_backend.speller import CtypesSpeller
from .cython import cy_cast, cy_convert, cy_converts, cy_decl, cy_name, cy_pointer_to, cy_sizeof, cy_var
from .pywrapper import input_item_spec, input_spec


def _element(p: ParamBinding) -> CType:
    """What ``p`` points at, in a step that is only planned for a pointer to a known type."""
    assert p.element is not None, f"{p.py_name} points at a known type"
    return p.element


def convert(ctype: CType, value: str, target: str, spec: str, original: str) -> str:
    """Cython's conversion of ``value`` into ``target``, through a helper whose failure Cython
    does not check (``cy_convert``): on the error path only, the pending exception and
    ``original`` go to ``_pb_refused`` for the message every backend gives.  ``_pb_status < 0``
    is the test Cython would have made.  (The template's record classes convert with it too.)"""
    return (f"_pb_status = {cy_convert(ctype)}({value}, &{target})\n"
            "if _pb_status < 0:\n"
            f"    _pb_refused(_pb_take_error(), {spec}, {original})\n")


def call_args(binding: FunctionBinding) -> str:
    """The C locals a wrapper passes, in C parameter order (the call plan's slots)."""
    assert binding.call is not None, "the plan-calls pass has run"
    return ", ".join(slot.arg for slot in binding.call.slots)


def cy_def_params(binding: FunctionBinding, method: bool = False) -> str:
    """The parameter list of a wrapper: positional-only and untyped.

    Records and handles are checked in the body, not by typing the parameter:
    Cython's own check would raise its own message ("Argument 'p' has
    incorrect type"), where every backend names the argument as ``_pb_fix``
    does.  The check in the body is the same inline type test.
    """
    parts = (["self"] if method else []) + [param.py_name for param in binding.inputs]
    if parts:
        parts.append("/")
    if binding.varargs:
        parts.append(f"*{binding.varargs}")
    return ", ".join(parts)


def cy_docstring(binding: FunctionBinding, classes: dict[str, str], method: bool = False) -> str:
    """The wrapper's docstring (:func:`py_docstring`), after the text signature CPython reads
    from the docstring of a compiled function (``name(a, b, /)``, then ``--``): what
    ``inspect.signature`` gives, with nothing added to the call."""
    params = cy_def_params(binding, method).replace("self", "$self", 1) if method else cy_def_params(binding)
    return repr(f"{binding.py_name}({params})\n--\n\n{docstring(binding, classes)}")


def va_call(binding: BindingModel, speller: CtypesSpeller, f: FunctionBinding, fn: str) -> str:
    """The call of the variadic function ``fn`` through ctypes, as an expression of its C result type.

    Each fixed argument goes as a ctypes value of its own type (a pointer as
    ``c_void_p``) and the extra ones as ``_pb_va`` holds them, so the
    prototype needs only its result type; ctypes gives the result back as a
    Python value, made the C value again here.
    """
    assert f.call is not None, "the plan-calls pass has run"
    module = binding.module

    def c_value(ctype: CType, value: str) -> tuple[str, str]:
        """(the ctypes type of ``ctype``, ``value`` cast to the C type Cython converts it through)."""
        resolved = module.resolve(ctype)
        if isinstance(resolved, (Pointer, Array)):
            return "_ct.c_void_p", f"<size_t>{value}"
        if isinstance(resolved, Primitive) and resolved.is_floating:
            return speller.spell(ctype), f"<{resolved.name}>{value}"
        primitive = integer_primitive(module, ctype, binding.target) or "int"
        wide = "long long" if binding.target.is_signed(primitive) else "unsigned long long"
        return speller.spell(ctype), f"<{wide}>{value}"

    passed = []
    for p in f.params:
        ctypes_type, value = c_value(p.c_type, f.call.slots[p.index].arg)
        passed.append(f"{ctypes_type}({value})")
    passed.append("*_pb_va")
    ret = module.resolve(f.function.ret)
    restype = "None" if isinstance(ret, Primitive) and ret.is_void else c_value(f.function.ret, "")[0]
    call = f"_ct.CFUNCTYPE({restype})(<size_t><void *>{fn})({', '.join(passed)})"
    if restype == "None":
        return call
    _, cast = c_value(f.function.ret, f"({call} or 0)" if restype == "_ct.c_void_p" else call)
    return f"<{cy_decl(f.function.ret)}>{cast}"


def cy_min_size(param: ParamBinding) -> str:
    """The fewest bytes a buffer argument must hold: its element, times the length of an array
    parameter; none where C is told its size or reads text (:attr:`ParamBinding.takes_empty`)."""
    size = cy_sizeof(param.element)
    if param.array_length is not None:
        return f"{size} * {param.array_length}"
    return "0" if param.takes_empty else size


#: the largest ``out-bytes`` buffer of a size known when the module is written that a wrapper
#: keeps on the C stack
STACK_BUFFER_MAX_BYTES = 4096


def cy_stack_buffers(binding: FunctionBinding) -> dict[int, str]:
    """The ``out-bytes`` buffers a wrapper keeps on the C stack: parameter index -> the local's declaration.

    Those the config bounds (``at_most``) to at most :data:`STACK_BUFFER_MAX_BYTES`.  C writes into
    the local array, and the result is one ``bytes`` object of the length C reports; a ``bytes``
    object of the bound's size, cut to that length, was two allocations and a copy.
    """
    assert binding.call is not None, "the plan-calls pass has run"
    declarations = {}
    for step in binding.call.steps:
        if (isinstance(step, Allocate) and step.capacity is not None and step.buffer.param.role.role == "out-bytes"
                and step.capacity * step.element_size <= STACK_BUFFER_MAX_BYTES):
            param, array = step.buffer.param, f"{step.buffer.slot.storage}[{step.capacity}]"
            # bytes (and void, or a type whose size is not known, taken as bytes): char; a wider
            # element: its own type, whose alignment the array then has
            element = param.element if step.element_size > 1 else None
            declarations[param.index] = f"char {array}" if element is None else cy_var(element, array)
    return declarations


def cy_released(releases: tuple[Release, ...]) -> tuple[list[Release], list[Release]]:
    """A call's releases split by what they release: (buffer views, memory)."""
    return [r for r in releases if r.what == "view"], [r for r in releases if r.what == "memory"]


def cy_data_bytes(binding: FunctionBinding) -> str:
    """The bytes of a call's :attr:`~FunctionBinding.data`, a C expression (``release_gil = { min_bytes = N }``)."""
    assert binding.call is not None, "the plan-calls pass has run"
    # each count is of elements (0 for None), at most PY_SSIZE_T_MAX // the element's size
    return " + ".join(f"<size_t>{binding.call.slots[p.index].count} * {cy_sizeof(p.element)}" for p in binding.data)


def result_tuple(binding: FunctionBinding) -> str:
    """The expression a wrapper returns: the locals holding its results, one or a tuple."""
    assert binding.call is not None, "the plan-calls pass has run"
    names = binding.call.results
    if not names:
        return "None"
    return names[0] if len(names) == 1 else f"({', '.join(names)})"


class _Wrapping(NamedTuple):
    """What the steps of one wrapper share."""

    f: FunctionBinding
    fn: str  #: what the wrapper calls: the function, or the Library's pointer to it
    owner: str  #: what the objects the call gives back keep alive
    library: str  #: the Library of a method ("" in a module function)
    stack: dict[int, str]  #: the out-bytes buffers kept on the C stack (cy_stack_buffers)


#: the kinds of step of a call plan, each written by the CythonWrappers method of its name
_KINDS = ("check_not_none", "pass_in", "pass_null", "pass_cell", "pass_array", "pass_length", "check_length",
          "check_same_count", "pass_user_data", "pass_varargs", "probe", "capacity", "allocate", "check_freer",
          "call", "disown", "copy_back", "convert_return", "collect_output")
#: the steps of one statement: no blank line after them
_ONE_LINERS = frozenset({"pass_user_data", "pass_varargs", "capacity", "disown"})


class CythonWrappers:
    """The wrappers of one module's functions (see the module's docstring)."""

    def __init__(self, binding: BindingModel, classes: dict[str, str], speller: CtypesSpeller,
                 callbacks: dict[str, dict[str, Any]], trampolines: dict[tuple[str, int], dict[str, Any]],
                 module_slots: dict[str, int], cell_sets: dict[tuple[str, ...], str]):
        self.binding = binding
        self.classes = classes
        self.speller = speller  # ctypes', for the calls of variadic functions (va_call)
        self.callbacks = callbacks
        self.trampolines = trampolines
        self.module_slots = module_slots
        self.cell_sets = cell_sets
        self.dynamic = binding.load == "dynamic"
        #: step kind -> the method writing it (each named as its kind)
        self._writers: dict[str, Callable[[Any, _Wrapping], str]] = {kind: getattr(self, kind) for kind in _KINDS}

    # ---- the wrapper ------------------------------------------------------

    def wrapper(self, f: FunctionBinding, method: bool, fn: str, library: str) -> str:
        """The ``def`` of ``f``: a method of the ``Library`` (``method``) or a module function;
        ``fn`` is what the wrapper calls, ``library`` what the objects it returns keep alive
        when the plan names no argument."""
        assert f.call is not None, "the plan-calls pass has run"
        plan = f.call
        classes = self.classes
        stack = cy_stack_buffers(f)
        # what the objects the call gives back keep alive: the argument the plan names, else the Library
        owner = plan.keeps.py_name if plan.keeps is not None else library
        views, memory = cy_released(plan.releases)
        out = []
        if not method and not f.inputs and not f.variadic:
            # A module function without arguments takes one optional positional-only
            # argument no caller can supply (_MISSING is not reachable from Python) and
            # refuses any other.  Declared without it, Cython makes it METH_NOARGS,
            # which CPython 3.11-3.13 does not specialise at the call site: every call
            # took the generic vectorcall path, about 6 ns more than this METH_FASTCALL
            # form (a quarter of a struct out-parameter call).
            out.append(f"def {f.py_name}(_pb_none=_MISSING, /):\n"
                       f"    {cy_docstring(f, classes)}\n"
                       "    if _pb_none is not _MISSING:\n"
                       f'        raise TypeError("{f.py_name}() takes 0 positional arguments but 1 was given")\n')
        else:
            out.append(f"def {f.py_name}({cy_def_params(f, method)}):\n"
                       f"    {cy_docstring(f, classes, method)}\n")
        for p in f.params:
            s = plan.slots[p.index]
            role = p.role.role
            out.append(f"    cdef {cy_var(p.c_type, s.arg)}\n")
            if role in ("out", "inout") and p.kind == "record":
                out.append(f"    cdef object {s.cell}\n")
            elif role in ("out", "inout"):
                out.append(f"    cdef {cy_var(_element(p), s.cell)}\n")
            if role == "len" and p.by_pointer:
                out.append(f"    cdef {cy_var(_element(p), s.length)} = 0\n")
            if p.index in stack:
                out.append(f"    cdef {stack[p.index]}\n")
            elif role == "out-bytes":
                out.append(f"    cdef object {s.storage}\n")
            if p.kind in ("buffer", "writable_buffer"):
                out.append(f"    cdef object {s.text}\n")
            elif p.text and role == "in":
                out.append(f"    cdef bytes {s.text}\n")
        for s in plan.counted:
            out.append(f"    cdef Py_ssize_t {s.count} = 0\n")
        if cy_converts(f):
            out.append("    cdef int _pb_status\n")
        for r in memory:
            out.append(f"    cdef {cy_pointer_to(_element(r.param))}{r.slot.memory} = NULL\n")
        for r in views:
            out.append("    # a buffer argument's export, if it was exported (see _pb_buffer_in)\n"
                       f"    cdef Py_buffer {r.slot.view}\n"
                       f"    cdef bint {r.slot.held} = False\n")
        if views:
            out.append("    cdef Py_ssize_t _pb_n\n")
        out.append("    cdef Py_ssize_t _pb_k\n")
        if self.callbacks and not f.release_gil_ruled and not f.release_gil and not f.variadic:
            out.append("    cdef PyThreadState *_pb_ts  # the GIL let go for the call (see call_c)\n")
        if self.retained(f):
            out.append("    cdef unsigned long _pb_seen  # the closures' count before the call (see _pb_retain)\n")
        if f.ret.kind != "void":
            out.append(f"    cdef {cy_var(f.function.ret, '_pb_r')}\n")
        name = f.function.name
        if method:
            missing = f.function.symbol if f.table_field is None else name
            out.append(f"    cdef _pb_fp_{name} _pb_fn = self._f_{name}\n"
                       "    if _pb_fn == NULL:\n"
                       f'        raise AttributeError(self._missing("{missing}"))\n')
        body = self.body(f, fn, owner, library if method else "", stack)
        if plan.releases:
            out.append(f"    try:\n        {do_indent(body, 8).strip()}\n    finally:\n")
            for r in views:
                out.append(f"        if {r.slot.held}:\n"
                           f"            PyBuffer_Release(&{r.slot.view})\n")
            for r in memory:
                out.append(f"        free({r.slot.memory})\n")
        else:
            out.append(f"    {do_indent(body, 4).strip()}\n")
        return "".join(out)

    def body(self, f: FunctionBinding, fn: str, owner: str, library: str, stack: dict[int, str]) -> str:
        assert f.call is not None, "the plan-calls pass has run"
        w = _Wrapping(f, fn, owner, library, stack)
        writers = self._writers
        text = []
        for step in f.call.steps:
            text.append(writers[step.kind](step, w))
            if step.kind not in _ONE_LINERS:
                text.append("\n")
        text.append(f"return {result_tuple(f)}\n")
        return "".join(text)

    # ---- checks -----------------------------------------------------------

    def check_same_count(self, step: CheckSameCount, w: _Wrapping) -> str:
        # two lists one count gives C: as many items in each
        other, first = step.other_slot.count, step.first_slot.count
        return (f"if {step.other.py_name} is not None and {other} != {first}:\n"
                f"    raise ValueError({py_string(step.message)}.replace(\"{{n}}\", str({other}))"
                f".replace(\"{{m}}\", str({first})))\n")

    def check_length(self, step: CheckLength, w: _Wrapping) -> str:
        # a length the header states beside a buffer may not exceed what the buffer holds
        # (-1: not known, for a Pointer; None holds nothing)
        held, message = step.buffer_slot.count, py_string(step.message)
        if step.in_a_cell:
            n = step.length.py_name
            return (f"if {held} >= 0:\n"
                    f"    _pb_stated_n = {n}.value if isinstance({n}, _pb_Cell) else "
                    f"_pb_stated({n}, {step.cell_int[0]}, {step.cell_int[1]})\n"
                    f"    if _pb_stated_n is not None and _pb_stated_n > {held}:\n"
                    f"        _pb_too_long({message}, _pb_stated_n, {held})\n")
        n = step.length_slot.arg
        negative = f"if {n} < 0:\n    _pb_too_long({py_string(step.negative)}, {n}, 0)\n" if step.negative else ""
        if step.factor_slot is not None:
            assert not step.negative  # (both unsigned: see _factors)
            # a length and the integer it is multiplied by (qsort's nmemb, size), both unsigned:
            # their product, compared without overflowing
            m = step.factor_slot.arg
            return (f"if {held} >= 0 and {m} != 0 and {n} > <size_t>{held} // {m}:\n"
                    f"    _pb_too_long({message}, <object>{n} * <object>{m}, {held})\n")
        # the library's (size_t)-1 for "to the NUL", where the buffer ends with one
        nul = "" if step.terminated is None else \
            f" and not ({n} == {step.terminated}U and isinstance({step.buffer.py_name}, (bytes, bytearray, str)))"
        return (f"{negative}if {held} >= 0 and {n} > {held}{nul}:\n"
                f"    _pb_too_long({message}, {n}, {held})\n")

    def check_not_none(self, step: CheckNotNone, w: _Wrapping) -> str:
        return (f"if {step.param.py_name} is None:\n"
                f'    raise TypeError("{step.message}")\n')

    def check_freer(self, step: CheckFreer, w: _Wrapping) -> str:
        library = w.library
        if step.name == "free":
            return ""
        if self.dynamic:
            return (f"if {library}._f_{step.name} == NULL:\n"
                    f'    raise AttributeError({library}._missing("{step.name}"))\n')
        return (f"if <void *>{cy_name(step.name)} == NULL:\n"
                f"    raise AttributeError(\"no loaded library defines '{step.name}'\")\n")

    # ---- arguments --------------------------------------------------------

    def _callback_into(self, f: FunctionBinding, p: ParamBinding, s: Slot) -> str:
        cb = p.callback
        assert cb is not None
        keeper = "None" if cb.keeper is None else f.params[cb.keeper].py_name
        return (f"_pb_callback_into(&{s.arg}, {p.py_name}, {self.callbacks[cb.factory_key]['name']}, "
                f"{input_spec(self.binding, self.classes, p)}, {keeper}, {self._kept_under(f, p)})\n")

    def _kept_under(self, f: FunctionBinding, p: ParamBinding) -> str:
        """The arguments saying what a callable passed for ``p`` is kept under: the key, its slot
        of what the module keeps, and the values of the call's integers and strings, which may
        name the slot C keeps it in (their count, then each)."""
        key = f.callback_key(p)
        names = [q.py_name for q in f.callback_selectors(p)]
        # one by one (see _pb_last_kept), up to four; more as a tuple
        values = (f"{len(names)}, {', '.join([*names, *['None'] * (4 - len(names))])}" if len(names) <= 4
                  else f"-1, ({', '.join(names)}), None, None, None")
        return f"{py_string(key)}, {self.module_slots[key]}, {values}"

    def pass_in(self, step: PassIn, w: _Wrapping) -> str:
        p, s = step.param, step.slot
        kind, name, label = p.kind, p.py_name, p.label
        classes = self.classes
        if kind == "callback":
            cb = p.callback
            assert cb is not None
            if cb.user_data is not None and (cb.factory_key, cb.user_data[1]) in self.trampolines:
                # a callable is given later, with the user-data pointer (pass_user_data)
                return f"if not _pb_takes_user_data({name}):\n    " + self._callback_into(w.f, p, s)
            return self._callback_into(w.f, p, s)
        if kind == "int":
            # An exact int goes straight into Cython's one range-checked conversion; only other
            # objects pay for the __index__ call.  The parameter itself is never reassigned, so
            # Cython need not take a reference to it.
            to = cy_convert(p.c_type)
            return (f"if PyLong_CheckExact({name}):\n"
                    f"    _pb_status = {to}({name}, &{s.arg})\n"
                    "else:\n"
                    f'    _pb_status = {to}(_pb_as_int({name}, "{label}"), &{s.arg})\n'
                    "if _pb_status < 0:\n"
                    f"    _pb_refused(_pb_take_error(), {input_spec(self.binding, classes, p)}, {name})\n")
        if kind == "bool":
            return (f"if PyLong_CheckExact({name}):\n"
                    f"    {s.arg} = {name}\n"
                    "else:\n"
                    f'    {s.arg} = _pb_as_int({name}, "{label}")\n')
        if kind in ("float", "complex"):
            return convert(p.c_type, name, s.arg, input_spec(self.binding, classes, p), name) + "\n"
        if kind == "cstring":
            bound = step.bound_item
            return "".join((
                f"if {name} is None:\n    {s.arg} = NULL\n",
                f"    {s.count} = 0\n" if bound else "",
                f"elif PyBytes_CheckExact({name}):\n    {s.arg} = PyBytes_AS_STRING({name})\n",
                f"    {s.count} = PyBytes_GET_SIZE({name})\n" if bound else "",
                f'else:\n    {s.text} = _pb_cstring_copy({name}, "{label}", {p.counted}, {not p.nonnull})\n',
                f"    {s.arg} = PyBytes_AS_STRING({s.text})\n",
                f"    {s.count} = PyBytes_GET_SIZE({s.text})\n" if bound else "",
            ))
        if kind in ("buffer", "writable_buffer"):
            wanted = (("str or " if p.text else "")
                      + ("a writable contiguous buffer" if kind == "writable_buffer" else "a contiguous buffer")
                      + (" or a " + cells_taken(p) if p.cells else ""))
            how = ((1 if kind == "writable_buffer" else 0) + (2 if p.text else 0) + (0 if step.measured else 4)
                   + (8 if p.text and p.counted else 0))
            helper = (f"{s.text} = _pb_buffer_in({name}, {how}, {cy_min_size(p)}, \"{label}\", \"{wanted}\", "
                      f"{py_string(p.pointer_type)}, {self.cell_sets[p.cells] if p.cells else 'None'}, "
                      f"&{s.view}, &{s.held}, <void **>&{s.arg}, &_pb_n{self._items_tag(p)})")
            if kind == "buffer":
                # bytes are read in place: no export, no call (see _pb_buffer_in)
                text = (f"if PyBytes_CheckExact({name}) and <size_t>PyBytes_GET_SIZE({name}) >= {cy_min_size(p)}:\n"
                        f"    {s.arg} = {cy_cast(p.c_type)}PyBytes_AS_STRING({name})\n"
                        f"    _pb_n = PyBytes_GET_SIZE({name})\n"
                        "else:\n"
                        f"    {helper}\n")
            else:
                text = f"{helper}\n"
            if step.measured:
                text += f"{s.count} = _pb_n // {cy_sizeof(p.element)} if _pb_n >= 0 else 0\n"
            elif step.bound_item:
                text += f"{s.count} = _pb_n // {step.bound_item} if _pb_n >= 0 else -1\n"
            return text
        nullable = "False" if p.nonnull else "True"
        if kind == "pointer":
            return (f"{s.arg} = {cy_cast(p.c_type)}_pb_pointer_arg({name}, {py_string(p.pointer_type)}, "
                    f'"{label}", {nullable})\n')
        cls = classes.get(p.record_key or "", "")
        if kind == "handle":
            cast = cy_cast(p.c_type)
            return (f"if {name} is None:\n"
                    f"    {s.arg} = NULL\n"
                    f"elif type({name}) is {cls}:\n"
                    f"    {s.arg} = {cast}(<Pointer>{name})._ptr\n"
                    f"    if {s.arg} == NULL:\n"
                    f'        _pb_closed_arg("{label}")\n'
                    "else:\n"
                    f'    {s.arg} = {cast}_pb_handle_arg({name}, {cls}, "{label}", {nullable})\n')
        owned = p.record_key in self.binding.owned_records
        if kind == "record_ptr":
            return "".join((
                f"if {name} is None:\n"
                f"    {s.arg} = NULL\n"
                f"elif isinstance({name}, {cls}):\n",
                f"    if (<{cls}>{name})._pb_closed:\n"
                f'        _pb_closed_arg("{label}")\n' if owned else "",
                f"    {s.arg} = {cy_cast(p.c_type)}(<{cls}>{name})._ptr\n"
                "else:\n"
                f'    _pb_record_arg_error({name}, {cls}, "{label}", {nullable})\n',
            ))
        if kind == "record":
            return "".join((
                f"if not isinstance({name}, {cls}):\n"
                f'    _pb_record_arg_error({name}, {cls}, "{label}", False)\n',
                f"if (<{cls}>{name})._pb_closed:\n"
                f'    _pb_closed_arg("{label}")\n' if owned else "",
                f"memcpy(&{s.arg}, (<{cls}>{name})._ptr, sizeof({s.arg}))",
            ))
        return ""

    def pass_null(self, step: PassNull, w: _Wrapping) -> str:
        return f"{step.slot.arg} = {cy_cast(step.param.c_type)}0\n"

    def pass_cell(self, step: PassCell, w: _Wrapping) -> str:
        p, s = step.param, step.slot
        name, label, kind = p.py_name, p.label, p.kind
        cls = self.classes.get(p.record_key or "", "")
        if kind == "record":
            return "".join((
                f"if not isinstance({name}, {cls}):\n"
                f'    _pb_record_arg_error({name}, {cls}, "{label}", False)\n' if step.inout else "",
                f"{s.cell} = {cls}.__new__({cls})\n",
                f"memcpy((<{cls}>{s.cell})._ptr, (<{cls}>{name})._ptr, {cy_sizeof(p.element)})\n"
                if step.inout else "",
                f"{s.arg} = {cy_cast(p.c_type)}(<{cls}>{s.cell})._ptr\n",
            ))
        if not step.inout:
            text = f"{s.cell} = {'NULL' if kind in ('handle', 'pointer', 'record_ptr', 'string') else '0'}\n"
        elif kind == "handle":
            text = (f"{s.cell} = NULL if {name} is None else "
                    f'<{cy_decl(_element(p))}>_pb_handle_arg({name}, {cls}, "{label}", True)\n')
        elif kind == "record_ptr":
            text = (f"if {name} is not None and not isinstance({name}, {cls}):\n"
                    f'    _pb_record_arg_error({name}, {cls}, "{label}", True)\n'
                    f"{s.cell} = NULL if {name} is None else <{cy_decl(_element(p))}>(<{cls}>{name})._ptr\n")
        elif kind in ("float", "complex"):
            text = convert(_element(p), name, s.cell, input_spec(self.binding, self.classes, p), name) + "\n"
        elif kind == "int":
            text = convert(_element(p), f'_pb_as_int({name}, "{label}")', s.cell,
                           input_spec(self.binding, self.classes, p), name) + "\n"
        else:
            text = f'{s.cell} = _pb_as_int({name}, "{label}")\n'
        return text + f"{s.arg} = {cy_cast(p.c_type)}&{s.cell}\n"

    def fill_array(self, p: ParamBinding, s: Slot) -> str:
        # A snapshot: the sequence may change while the call runs (another thread, a __getitem__
        # with side effects); only the items checked here are used.  A str is not a sequence of
        # items here, even an empty one (_pb_sequence refuses it, and anything that is no
        # sequence, with the shared message).
        name, label, kind = p.py_name, p.label, p.kind
        size = cy_sizeof(p.element)
        cls = self.classes.get(p.record_key or "", "")
        text = [f"if PyList_CheckExact({name}) or PyTuple_CheckExact({name}):\n"
                f"    {s.items} = list({name})\n"
                "else:\n"
                f'    {s.items} = _pb_sequence({name}, "{label}")\n'
                f"{s.count} = len({s.items})\n"]
        if p.array_length and kind == "record":
            least = p.array_length
            text.append(f"if {s.count} < {least}:  # C reads that many\n"
                        f'    raise ValueError("{label} needs at least {least} items, got " + str({s.count}))\n')
        text.append(f"if {s.count} > PY_SSIZE_T_MAX // {size}:\n"
                    f'    raise OverflowError("{label} is too long")\n'
                    f"{s.memory} = <{cy_pointer_to(_element(p))}>malloc(({s.count} or 1) * {size})\n"
                    f"if {s.memory} == NULL:\n"
                    "    raise MemoryError()\n"
                    f"for _pb_k in range({s.count}):\n"
                    f"    _pb_item = {s.items}[_pb_k]\n")
        if kind == "record":
            text.append(f"    if not isinstance(_pb_item, {cls}):\n"
                        f'        raise TypeError(f"{label} items must be {cls}, not {{type(_pb_item).__name__}}")\n'
                        f"    memcpy(&{s.memory}[_pb_k], (<{cls}>_pb_item)._ptr, {size})\n")
        elif kind == "handle":
            text.append(f"    if _pb_item is not None and not isinstance(_pb_item, {cls}):\n"
                        f'        raise TypeError(f"{label} items must be {cls} or None, '
                        "not {type(_pb_item).__name__}\")\n"
                        f"    {s.memory}[_pb_k] = NULL if _pb_item is None else "
                        f"<{cy_decl(_element(p))}>(<{cls}>_pb_item)._ptr\n")
        elif kind in ("float", "complex"):
            converted = convert(_element(p), "_pb_item", f"{s.memory}[_pb_k]",
                                input_item_spec(self.binding, self.classes, p), "_pb_item")
            text.append(f"    {do_indent(converted, 4).strip()}\n")
        elif kind == "bool":
            text.append(f'    {s.memory}[_pb_k] = _pb_as_int(_pb_item, "{label} items")\n')
        else:
            converted = convert(_element(p), "_pb_item", f"{s.memory}[_pb_k]",
                                input_item_spec(self.binding, self.classes, p), "_pb_item")
            text.append(f'    _pb_item = _pb_as_int(_pb_item, "{label} items")\n'
                        f"    {do_indent(converted, 4).strip()}\n")
        text.append(f"{s.arg} = {cy_cast(p.c_type)}{s.memory}\n")
        return "".join(text)

    def fill_list(self, p: ParamBinding, s: Slot) -> str:
        # pointers into what the caller's objects hold, kept in the snapshot for the call
        # (_pb_list_items), and a NULL after the last, as C reads such lists
        name, label = p.py_name, p.label
        size, element = cy_sizeof(p.element), cy_decl(_element(p))
        cls = self.classes[p.record_key] if p.kind == "record_ptr" and p.record_key is not None else "None"
        text = [f'{s.items} = _pb_list_items({name}, "{p.kind}", {cls}, {py_string(p.pointer_type)}, "{label}")\n'
                f"{s.count} = len({s.items})\n"
                f"if {s.count} >= PY_SSIZE_T_MAX // {size}:\n"
                f'    raise OverflowError("{label} is too long")\n'
                f"{s.memory} = <{cy_pointer_to(_element(p))}>malloc(({s.count} + 1) * {size})\n"
                f"if {s.memory} == NULL:\n"
                "    raise MemoryError()\n"
                f"{s.memory}[{s.count}] = NULL\n"
                f"for _pb_k in range({s.count}):\n"
                f"    _pb_item = {s.items}[_pb_k]\n"
                "    if _pb_item is None:\n"
                f"        {s.memory}[_pb_k] = NULL\n"]
        if p.kind == "record_ptr":
            text.append("    else:\n"
                        f"        if (<{cls}>_pb_item)._ptr == NULL:\n"
                        f'            _pb_closed_arg("{label} items")\n'
                        f"        {s.memory}[_pb_k] = <{element}>(<{cls}>_pb_item)._ptr\n")
        else:
            text.append("    elif PyBytes_CheckExact(_pb_item):\n"
                        f"        {s.memory}[_pb_k] = <{element}>PyBytes_AS_STRING(_pb_item)\n"
                        "    elif PyMemoryView_Check(_pb_item):\n"
                        f"        {s.memory}[_pb_k] = <{element}>PyMemoryView_GET_BUFFER(_pb_item).buf\n"
                        "    else:  # a Pointer\n"
                        "        if (<Pointer>_pb_item)._ptr == NULL:\n"
                        f'            _pb_closed_arg("{label} items")\n'
                        f"        {s.memory}[_pb_k] = <{element}>(<Pointer>_pb_item)._ptr\n")
        text.append(f"{s.arg} = {cy_cast(p.c_type)}{s.memory}\n")
        return "".join(text)

    def pass_array(self, step: PassArray, w: _Wrapping) -> str:
        p, s = step.param, step.slot
        name = p.py_name
        none = f"if {name} is None:\n    {s.arg} = NULL\n"
        if p.kind in LIST_KINDS:
            return none + f"else:\n    {do_indent(self.fill_list(p, s), 4).strip()}\n"
        if p.kind == "buffer":
            test = f"PyObject_CheckBuffer({name})" if p.element is not None else "True"
            text = (none + f"elif {test}:\n"
                    f'    {s.text} = _pb_buffer_in({name}, 0, 0, "{p.label}", "a contiguous buffer", "", None, '
                    f"&{s.view}, &{s.held}, <void **>&{s.arg}, &{s.count})\n")
            if p.element is not None:
                text += f"else:\n    {do_indent(self.fill_array(p, s), 4).strip()}\n"
            return text
        return none + f"else:\n    {do_indent(self.fill_array(p, s), 4).strip()}\n"

    def pass_length(self, step: PassLength, w: _Wrapping) -> str:
        # a len parameter; its value comes from the parameter it measures
        p, s, n = step.param, step.slot, step.measured.count
        if step.mode == "input":
            name = p.py_name
            return (f'{name} = _pb_as_int({name}, "{p.label}")\n'
                    f"if {name} < 0:\n"
                    f'    raise ValueError("{p.label} must not be negative")\n'
                    + convert(p.c_type, name, s.arg, input_spec(self.binding, self.classes, p), name) + "\n"
                    f"{n} = <Py_ssize_t>{s.arg}\n")
        if step.mode == "cell":
            return (f"{s.length} = <{cy_decl(_element(p))}>{n}\n"
                    f"if <Py_ssize_t>{s.length} != {n}:\n"
                    f'    raise OverflowError("{step.message}")\n'
                    f"{s.arg} = {cy_cast(p.c_type)}&{s.length}\n")
        return (f"{s.arg} = <{cy_var(p.c_type, '')}>{n}\n"
                f"if <Py_ssize_t>{s.arg} != {n}:\n"
                f'    raise OverflowError("{step.message}")\n')

    def pass_user_data(self, step: PassUserData, w: _Wrapping) -> str:
        cb = step.callback.callback
        assert cb is not None, "a user-data pointer is paired with a callback"
        t = self.trampolines.get((cb.factory_key, step.arg))
        if t is None:
            return ""
        keeper = "None" if cb.keeper is None else w.f.params[cb.keeper].py_name
        return (f"_pb_user_data_into(&{step.callback_slot.arg}, &{step.user_slot.arg}, {step.callback.py_name}, "
                f"<void *>{t['name']}, {self.callbacks[cb.factory_key]['name']}, "
                f"{input_spec(self.binding, self.classes, step.callback)}, {keeper}, "
                f"{self._kept_under(w.f, step.callback)})\n")

    def pass_varargs(self, step: PassVarargs, w: _Wrapping) -> str:
        f = w.f
        keeper = step.keeper.py_name if step.keeper is not None else "None"
        selectors = ", ".join([py_string(f.function.name)] + [s.py_name for s in step.selectors])
        return f"_pb_va = _pb_varargs({f.varargs}, {step.first}, {keeper}, ({selectors},))\n"

    # ---- the call ---------------------------------------------------------

    def probe(self, step: Probe, w: _Wrapping) -> str:
        # first call: NULL buffers, zero lengths; the function stores the sizes it needs
        text = []
        for b in step.buffers:
            text.append(f"{b.slot.arg} = NULL\n")
            if b.length_slot is not None:
                text.append(f"{b.length_slot.length} = 0\n")
        text.append(self.call_c(w.f, w.fn) + "\n")
        for b in step.buffers:
            if b.length_slot is not None:
                text.append(f"{b.slot.count} = <Py_ssize_t>{b.length_slot.length}\n")
        return "".join(text)

    def allocate(self, step: Allocate, w: _Wrapping) -> str:
        p, s = step.buffer.param, step.buffer.slot
        size = cy_sizeof(p.element)
        if p.index in w.stack:
            # a local array of the config's bound (cy_stack_buffers)
            text = f"{s.arg} = {cy_cast(p.c_type)}{s.storage}\n"
        else:
            text = (f"if {s.count} < 0 or {s.count} > PY_SSIZE_T_MAX // {size}:\n"
                    f'    raise OverflowError("{step.message}")\n')
            if p.role.role == "out-bytes":
                text += (f"{s.storage} = PyBytes_FromStringAndSize(NULL, {s.count} * {size})\n"
                         f"{s.arg} = {cy_cast(p.c_type)}PyBytes_AS_STRING({s.storage})\n")
            else:
                text += (f"{s.memory} = <{cy_pointer_to(_element(p))}>calloc({s.count} or 1, {size})\n"
                         f"if {s.memory} == NULL:\n"
                         "    raise MemoryError()\n"
                         f"{s.arg} = {cy_cast(p.c_type)}{s.memory}\n")
        length = step.buffer.length
        if length is not None:
            assert step.buffer.length_slot is not None
            text += f"{step.buffer.length_slot.length} = <{cy_decl(_element(length))}>{s.count}\n"
        return text

    def capacity(self, step: Capacity, w: _Wrapping) -> str:
        return f"{step.buffer.slot.count} = {step.count}\n"

    def call(self, step: Call, w: _Wrapping) -> str:
        # what a callable raised while C ran is raised once C returns (see _pb_raise_kept); one C
        # did not call meanwhile is kept for later (see _pb_retain)
        retained = self.retained(w.f)
        text = self.call_c(w.f, w.fn, retained + ("if _pb_maybe_pending:\n    _pb_raise_pending()"
                                                 if self.callbacks else ""))
        return ("_pb_seen = _pb_invoked\n" + text) if retained else text

    def retained(self, f: FunctionBinding) -> str:
        """What runs after the call of ``f`` keeping each callable given that C did not call
        meanwhile past the next one given in its place (see ``_pb_retain``); ``""`` for none."""
        given = given_callables(f)
        if not given:
            return ""
        lines = ["if _pb_invoked == _pb_seen:"]
        for p, keeper, key in given:
            lines += [f"    if {p.py_name} is not None:",
                      f"        _pb_retain({keeper}, {py_string(key)}, {self.module_slots[key]})"]
        return "\n".join(lines) + "\n"

    def disown(self, step: Disown, w: _Wrapping) -> str:
        return f"_pb_disown({step.param.py_name})\n"

    def call_c(self, f: FunctionBinding, fn: str, after: str = "") -> str:
        if f.variadic:
            # through ctypes, which lets the GIL go for the call itself
            text = f"{'_pb_r = ' if f.ret.kind != 'void' else ''}{va_call(self.binding, self.speller, f, fn)}\n"
        else:
            call = f"{'_pb_r = ' if f.ret.kind != 'void' else ''}{fn}({call_args(f)})"
            # once the module has given C a callable, C may call it from a thread of its own
            # while this call waits for that thread: the call lets the GIL go
            # (_pb_gave_callables) unless a rule says
            for_callbacks = self.callbacks and not f.release_gil_ruled
            if f.release_gil and f.release_gil_min_bytes:
                # Cython's `with nogil(condition)` takes only a constant
                text = (f"if {'_pb_gave_callables or ' if for_callbacks else ''}{cy_data_bytes(f)} >= "
                        f"{f.release_gil_min_bytes}:\n"
                        f"    with nogil:\n        {call}\n"
                        f"else:\n    {call}\n")
            elif f.release_gil:
                text = f"with nogil:\n    {call}\n"
            elif for_callbacks:
                # nothing between these three lines touches a Python object: the call is C's alone
                text = f"_pb_ts = _pb_let_go()\n{call}\n_pb_take_back(_pb_ts)\n"
            else:
                text = f"{call}\n"
        if after:
            text += f"{after}\n"
        if f.error is not None:
            text += (f"if _pb_r != {f.error.success}:\n"
                     f'    raise _pb_error(_pb_r, "{f.function.name}")\n')
        return text

    # ---- results ----------------------------------------------------------

    def copy_back(self, step: CopyBack, w: _Wrapping) -> str:
        p, s = step.param, step.slot
        cls = self.classes[p.record_key or ""]
        return ("# the function may have written into the records (a PKCS#11 template): copy back\n"
                f"for _pb_k in range({s.count}):\n"
                f"    memcpy((<{cls}>{s.items}[_pb_k])._ptr, &{s.memory}[_pb_k], {cy_sizeof(p.element)})\n")

    @staticmethod
    def _items_tag(p: ParamBinding) -> str:
        """The extra argument of ``_pb_buffer_in`` saying what numbers C reads from the buffer
        (a cell's tag: see ``_pb_check_items``), for a pointer to numbers wider than a byte."""
        tag = p.cell_tag or ""
        return f', "{tag}"' if tag[:1] in ("i", "u", "f") and tag[1:] in ("2", "4", "8") else ""

    def made_constant(self, kind: str, key: str | None, ctype: str, address: int) -> str:
        """A constant that is an integer cast to a pointer type (see
        :func:`~pegbind.emit.common.pointer_constants`), made at import as a result is: a
        ``Pointer`` with no elements to read or write (``MAP_FAILED``, libtcc's ``(void *)1``)."""
        if kind == "pointer":
            return f"_pb_counted_pointer(<void *><size_t>{address:#x}, {ctype!r}, 0)"
        return self.pointer_value(kind, key, ctype, f"<size_t>{address:#x}", "None")

    def pointer_value(self, kind: str, key: str | None, ctype: str, value: str, owner: str) -> str:
        """The Python value of a C pointer (or enum) value coming out of a call: an expression."""
        if kind == "handle":
            return f"_pb_new_{self.classes[key or '']}(<void *>{value}, {owner})"
        if kind == "pointer":
            return f"_pb_make_pointer(<void *>{value}, {py_string(ctype)}, {owner})"
        if kind == "function_pointer":
            return f"_pb_make_function_pointer(<void *>{value}, {py_string(ctype)}, {owner})"
        if kind == "record_ptr":
            return f"_pb_at_{self.classes[key or '']}(<void *>{value}, {owner})"
        if kind == "string":
            return f"None if {value} == NULL else <bytes>{value}"
        if kind == "enum":
            return f"_pb_members_{self.classes[key or '']}.get({value}, {value})"
        return value

    def _freer(self, freer: str, library: str) -> str:
        return f"<void *>{library}._f_{freer}" if library and freer != "free" and self.dynamic else "NULL"

    def owned(self, kind: str, key: str | None, ctype: str, value: str, owner: str, freer: str, into: str,
              library: str) -> str:
        """What an ownership rule gives: a string copied then freed; any other object owns the memory."""
        function = self._freer(freer, library)
        if kind == "string":
            return (f"{into} = None if {value} == NULL else <bytes>{value}\n"
                    f"if {value} != NULL:\n"
                    f"    _pb_release_{freer}({function}, <void *>{value})\n")
        return (f"{into} = {self.pointer_value(kind, key, ctype, value, owner)}\n"
                f"_pb_own({into}, _pb_release_{freer}, {function}, <void *>{value})\n")

    def _counted_read(self, into: str, pointer: str, length: tuple[ParamBinding, Slot, tuple[int, bool]],
                      freer: str | None, library: str) -> str:
        """``into`` set to the characters at ``pointer`` whose length C wrote to the cell of
        ``length`` (see ConvertReturn.length), then freed by ``freer`` if an ownership rule says so."""
        _, cell, (size, signed) = length
        read = f"{into} = _pb_counted_result(<const char *>{pointer}, <void *>{cell.arg}, {size}, {signed})\n"
        if freer is None:
            return read
        return read + (f"if {pointer} != NULL:\n"
                       f"    _pb_release_{freer}({self._freer(freer, library)}, <void *>{pointer})\n")

    def convert_return(self, step: ConvertReturn, w: _Wrapping) -> str:
        r, owner, library = w.f.ret, w.owner, w.library
        if step.length is not None:  # characters C wrote the length of to a cell the call was given
            return self._counted_read("_pb_ret", "_pb_r", step.length, r.owner, library)
        if r.owner is not None:
            return self.owned(r.kind, r.record_key, r.pointer_type, "_pb_r", owner, r.owner, "_pb_ret", library) + "\n"
        if r.kind in ("int", "bool", "float", "complex"):
            return "_pb_ret = _pb_r\n"
        if r.kind in ("string", "handle", "pointer", "function_pointer", "record_ptr", "enum"):
            return f"_pb_ret = {self.pointer_value(r.kind, r.record_key, r.pointer_type, '_pb_r', owner)}\n"
        if r.kind == "record":
            cls = self.classes[r.record_key or ""]
            return (f"_pb_ret = {cls}.__new__({cls})\n"
                    f"memcpy((<{cls}>_pb_ret)._ptr, &_pb_r, sizeof(_pb_r))\n")
        return ""

    def collect_output(self, step: CollectOutput, w: _Wrapping) -> str:
        owner, library = w.owner, w.library
        p, s, b = step.param, step.slot, step.buffer
        if b is None and step.length is not None:  # characters C wrote the length of to a cell
            return self._counted_read(s.result, s.cell, step.length, p.owner, library)
        cls = self.classes.get(p.record_key or "", "")
        if b is None and p.owner is not None and p.kind == "record":
            return (f"{s.result} = {s.cell}\n"
                    f"_pb_own({s.result}, _pb_release_{p.owner}, {self._freer(p.owner, library)}, "
                    f"(<{cls}>{s.cell})._ptr)\n")
        if b is None and p.owner is not None:
            return self.owned(p.kind, p.record_key, p.pointer_type, s.cell, owner, p.owner, s.result, library) + "\n"
        if b is None:
            return f"{s.result} = {self.pointer_value(p.kind, p.record_key, p.pointer_type, s.cell, owner)}\n"
        # out-bytes / out-array: cut to the length the function reported
        text = ""
        if b.length_slot is not None:
            text = (f"if <size_t>{b.length_slot.length} < <size_t>{s.count}:\n"
                    f"    {s.count} = <Py_ssize_t>{b.length_slot.length}\n")
        size = cy_sizeof(p.element)
        if p.index in w.stack:
            return text + f"{s.result} = PyBytes_FromStringAndSize(<char *>{s.storage}, {s.count} * {size})\n"
        if p.role.role == "out-bytes":
            return text + (f"{s.result} = {s.storage} if PyBytes_GET_SIZE({s.storage}) == {s.count} * {size} "
                           f"else {s.storage}[:{s.count} * {size}]\n")
        if p.kind == "record":
            return text + (f"{s.result} = []\n"
                           f"for _pb_k in range({s.count}):\n"
                           f"    _pb_item = {cls}.__new__({cls})\n"
                           f"    memcpy((<{cls}>_pb_item)._ptr, &{s.memory}[_pb_k], {size})\n"
                           f"    {s.result}.append(_pb_item)\n")
        if p.kind == "handle":
            return text + (f"{s.result} = [_pb_new_{cls}(<void *>{s.memory}[_pb_k], {owner}) "
                           f"for _pb_k in range({s.count})]\n")
        return text + f"{s.result} = [{s.memory}[_pb_k] for _pb_k in range({s.count})]\n"
