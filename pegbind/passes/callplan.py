"""Pass ``plan-calls``: the steps of each wrapper, decided once for every backend.

Input: the :class:`~pegbind.passes.binding.FunctionBinding` values of
``plan-functions`` (what each parameter *is*) and the target.  Output: a
:class:`CallPlan` per function — what its wrapper *does*, in order: each
parameter's conversion, the lengths, the size probe, the allocations, the call
with its error policy, the copy-backs, the results and what is released after.
Every derived fact (which length is read through a pointer, which records are
copied back, how many bytes an allocation may take, the messages) and every
local name a wrapper uses is decided here; the backends only spell the steps:
Cython with one macro per step kind, ctypes and cffi through the shared
Python-wrapper renderer (:mod:`pegbind.emit.pywrapper`).  ``pegbind dump
--stage plan`` prints the plans.
"""
from __future__ import annotations

from typing import Literal

from ..frozen import frozen_dataclass
from ..model import Array, CType, Module, Pointer
from ..target import LayoutError, TargetInfo, integer_range, size_align
from .binding import LIST_KINDS, FunctionBinding, ParamBinding


@frozen_dataclass()
class Slot:
    """The local names a wrapper uses for one parameter (``_pb_<what><index>``)."""

    arg: str  #: what C receives
    count: str  #: the number of elements of a sequence or buffer
    cell: str  #: an ``out``/``inout`` value C writes through a pointer
    length: str  #: the cell a ``len`` parameter points at
    items: str  #: the snapshot of an ``in-array`` sequence's items
    memory: str  #: memory the wrapper allocates and frees (Cython)
    storage: str  #: the ``bytes`` object an ``out-bytes`` buffer is written into (Cython)
    view: str  #: a buffer export of the caller's object (Cython)
    held: str  #: whether :attr:`view` holds an export to release (Cython)
    struct: str  #: the C struct of an ``out`` record (ctypes)
    result: str  #: the Python value of an output
    text: str  #: the bytes a ``str`` argument is encoded into (Cython)

    @classmethod
    def of(cls, index: int) -> Slot:
        prefixes = ("a", "n", "o", "l", "s", "m", "b", "v", "h", "c", "res", "t")
        return cls(*(f"_pb_{prefix}{index}" for prefix in prefixes))


# ---- the steps, in the order a wrapper runs them ------------------------------------------


@frozen_dataclass()
class CheckNotNone:
    """A ``nonnull`` pointer parameter: ``None`` raises TypeError with :attr:`message`."""

    param: ParamBinding
    slot: Slot
    message: str
    kind: Literal["check_not_none"] = "check_not_none"


@frozen_dataclass()
class PassIn:
    """An ``in`` parameter converted into what C receives."""

    param: ParamBinding
    slot: Slot
    #: a ``len`` parameter measures this buffer: its element count is kept in ``slot.count``
    measured: bool
    #: the fewest bytes a buffer argument must hold (0: nothing known, ``void *``)
    min_bytes: int
    #: bytes of one element of a buffer (1 for ``void`` and incomplete types)
    element_size: int
    #: a length parameter bounds it (:class:`CheckLength`): what it holds is kept in
    #: ``slot.count``, in items of this many bytes (0: not kept; -1 there: not known)
    bound_item: int = 0
    kind: Literal["pass_in"] = "pass_in"


@frozen_dataclass()
class PassNull:
    """A ``null`` parameter: C receives NULL (a pointer) or 0 (an integer)."""

    param: ParamBinding
    slot: Slot
    pointer: bool
    kind: Literal["pass_null"] = "pass_null"


@frozen_dataclass()
class PassCell:
    """An ``out``/``inout`` parameter: C receives a pointer to a cell the wrapper owns."""

    param: ParamBinding
    slot: Slot
    inout: bool
    kind: Literal["pass_cell"] = "pass_cell"


@frozen_dataclass()
class PassArray:
    """An ``in-array`` parameter: C receives the items of a sequence (or a buffer) and their count."""

    param: ParamBinding
    slot: Slot
    kind: Literal["pass_array"] = "pass_array"


@frozen_dataclass()
class CheckSameCount:
    """Two ``in-array`` lists one count gives C (glShaderSource's ``string`` and ``length``):
    ``other`` holding another number of items than ``first`` raises ValueError(:attr:`message`)."""

    first: ParamBinding
    first_slot: Slot
    other: ParamBinding
    other_slot: Slot
    #: the ValueError's text, with ``{n}`` for the other's count and ``{m}`` for the first's
    message: str
    kind: Literal["check_same_count"] = "check_same_count"


@frozen_dataclass()
class PassLength:
    """A ``len`` parameter: the element count of the parameter it measures.

    ``mode``: ``input`` (the caller passes it: the count of an out buffer),
    ``cell`` (C receives a pointer to it and may write the length it used or
    needs), ``value`` (C receives the count itself).
    """

    param: ParamBinding
    slot: Slot
    measures: ParamBinding
    measured: Slot
    mode: Literal["input", "cell", "value"]
    #: the measured parameter is an out buffer: its cell starts at 0 (the size probe)
    starts_at_zero: bool
    #: the largest count the length's type holds, when a measured length may exceed it
    #: (None: every object size fits, or the count is not measured from an input)
    limit: int | None
    #: the OverflowError raised when a measured length does not fit
    message: str
    kind: Literal["pass_length"] = "pass_length"


@frozen_dataclass()
class CheckLength:
    """A length the header states (``crc32(crc, buf, len)``): one larger than what the
    buffer holds raises ValueError(:attr:`message`), before C reads or writes past it.

    The buffer's capacity is in ``buffer_slot.count`` (-1: not known, as for a
    ``Pointer`` or ``None``: no check); the length is the length parameter's
    value, or the value of the cell passed for it (``compress2``'s ``destLen``).
    """

    buffer: ParamBinding
    buffer_slot: Slot
    length: ParamBinding
    length_slot: Slot
    #: the length is in a cell the caller passes (a pointer to an integer), not an integer
    in_a_cell: bool
    #: bytes of one item the capacity is counted in (1 for a length in bytes)
    item_size: int
    #: the ValueError's text, with ``{n}`` for the length and ``{held}`` for the capacity
    message: str
    #: for a length in a cell: the bytes and signedness of the integer C reads there (a
    #: buffer given for the cell is read as C reads it)
    cell_int: tuple[int, bool] = (0, False)
    #: the largest value of an unsigned length's type where the library names it the length of
    #: text read to its NUL (pcre2's PCRE2_ZERO_TERMINATED), let through for ``bytes``,
    #: ``bytearray`` and ``str``, which end with one (a signed length's -1 is below any
    #: capacity); None for no such value
    terminated: int | None = None
    #: the integer parameter the length is multiplied by, and its slot (``ParamBinding.bound_factor``:
    #: qsort's ``nmemb, size``): the product is compared, in bytes; None for none
    factor: ParamBinding | None = None
    factor_slot: Slot | None = None
    #: the ValueError's text (with ``{n}``) for a negative length of numbers C writes, which C
    #: takes for a huge size; "" where a negative one passes (an unsigned length, which its own
    #: range refuses; bytes or text, where -1 may say "to the NUL")
    negative: str = ""
    kind: Literal["check_length"] = "check_length"


@frozen_dataclass()
class PassUserData:
    """A callable given with the function's user-data pointer (:attr:`CallbackBinding.user_data`),
    after both are converted: a backend that reaches callables through that pointer may put
    its own context and function there instead of a closure, the callable still being given
    what the caller passed.  Closures need nothing here: their backends render no statement.
    """

    callback: ParamBinding
    callback_slot: Slot
    user: ParamBinding
    user_slot: Slot
    #: the callback's argument C passes the user-data pointer back in
    arg: int
    kind: Literal["pass_user_data"] = "pass_user_data"


@frozen_dataclass()
class PassVarargs:
    """The extra arguments of a variadic function: what the caller passes after the inputs,
    each converted by C's default argument promotions for the target (the runtime's
    ``_pb_varargs`` says how; the wrapper keeps the converted values in ``_pb_va``).

    A FunctionPointer among them may be kept by C (``curl_easy_setopt``'s
    write function): it lives with :attr:`keeper`, in a slot named by the
    function, the values of :attr:`selectors` and its position, where only the
    same call replaces it.
    """

    #: the number messages give the first extra argument (one after the last input)
    first: int
    #: the first handle or record input, as :attr:`CallbackBinding.keeper` (None: the module)
    keeper: ParamBinding | None
    #: the integer inputs whose values say what the extra arguments set (curl's option)
    selectors: tuple[ParamBinding, ...]
    kind: Literal["pass_varargs"] = "pass_varargs"


@frozen_dataclass()
class OutBuffer:
    """An ``out-bytes``/``out-array`` parameter, and the ``len`` cell that reports its length (if any)."""

    param: ParamBinding
    slot: Slot
    length: ParamBinding | None  #: the ``len`` parameter C writes through, else None
    length_slot: Slot | None


@frozen_dataclass()
class Probe:
    """The first of two calls: NULL buffers and zero lengths; C stores the sizes it needs."""

    buffers: tuple[OutBuffer, ...]
    kind: Literal["probe"] = "probe"


@frozen_dataclass()
class Capacity:
    """An out buffer whose size the config bounds (``at_most``): ``count`` elements, no probe."""

    buffer: OutBuffer
    count: int
    kind: Literal["capacity"] = "capacity"


@frozen_dataclass()
class Allocate:
    """The memory of an out buffer, ``slot.count`` elements of ``element_size`` bytes."""

    buffer: OutBuffer
    element_size: int
    #: the most elements whose byte size is addressable; more raise OverflowError(:attr:`message`)
    limit: int
    message: str
    #: the element count the config bounds the buffer with (``at_most``, a :class:`Capacity`
    #: step before this one), known when the module is written; None: known only when it runs
    capacity: int | None = None
    kind: Literal["allocate"] = "allocate"


@frozen_dataclass()
class CheckFreer:
    """What the call gives back is owned and freed by the deallocator ``name``: a library
    that lacks it (another version) makes the call raise AttributeError first, not leak."""

    name: str
    kind: Literal["check_freer"] = "check_freer"


@frozen_dataclass()
class Call:
    """The C call; with an error policy, a result other than success raises."""

    kind: Literal["call"] = "call"


@frozen_dataclass()
class Disown:
    """The function is a deallocator: the object passed as its first argument, if it owned
    the memory, no longer does (the call freed it) and is closed."""

    param: ParamBinding
    slot: Slot
    kind: Literal["disown"] = "disown"


@frozen_dataclass()
class CopyBack:
    """An ``in-array`` of records C may have written into: copied back into the caller's objects."""

    param: ParamBinding
    slot: Slot
    kind: Literal["copy_back"] = "copy_back"


@frozen_dataclass()
class ConvertReturn:
    """The C result made the Python value ``_pb_ret``."""

    #: a ``string`` result's length, written by C to a cell the call was given (see
    #: :attr:`~pegbind.passes.binding.ReturnBinding.length_param`): that parameter, its slot, and
    #: the (bytes, signed) of the cell's integer
    length: tuple[ParamBinding, Slot, tuple[int, bool]] | None = None
    kind: Literal["convert_return"] = "convert_return"


@frozen_dataclass()
class CollectOutput:
    """An output parameter's Python value, after the call (out buffers cut to the length C reports)."""

    param: ParamBinding
    slot: Slot
    buffer: OutBuffer | None  #: for ``out-bytes``/``out-array``
    #: characters C wrote the length of to a cell the call was given (as ConvertReturn's)
    length: tuple[ParamBinding, Slot, tuple[int, bool]] | None = None
    kind: Literal["collect_output"] = "collect_output"


Step = (CheckNotNone | PassIn | PassNull | PassCell | PassArray | CheckSameCount | PassLength | CheckLength
        | PassUserData
        | PassVarargs | Probe | Capacity | Allocate | CheckFreer | Call | Disown | CopyBack | ConvertReturn
        | CollectOutput)


@frozen_dataclass()
class Release:
    """What a wrapper gives back when it ends, however it ends: a buffer export or allocated memory."""

    what: Literal["view", "memory"]
    param: ParamBinding
    slot: Slot


@frozen_dataclass()
class CallPlan:
    """The wrapper of one function, as steps every backend renders."""

    steps: tuple[Step, ...]
    slots: tuple[Slot, ...]  #: by C parameter index
    #: nothing to convert back: every parameter is ``in``/``null``, no error policy applies and
    #: nothing is owned or disowned (a backend whose FFI returns the Python value itself may
    #: return the call's result)
    passes_through: bool
    #: parameters whose element count a wrapper keeps (sequences, out buffers, measured buffers)
    counted: tuple[Slot, ...]
    releases: tuple[Release, ...]
    #: the names of the results, in order (``_pb_ret`` first when the C result is one)
    results: tuple[str, ...]
    #: the argument the objects the call gives back keep alive (record views, handles,
    #: pointers): the first record, handle or pointer the caller passed, whose memory
    #: they most likely point into (``xmlDocGetRootElement(doc)``); None: the Library,
    #: or nothing for a module function
    keeps: ParamBinding | None = None


# ---- planning -----------------------------------------------------------------------------

_OUT_BUFFERS = ("out-bytes", "out-array")
#: the kinds of value whose Python object is one of the module's classes
_OBJECT_KINDS = ("record", "record_ptr", "handle", "pointer")
_BUFFER_KINDS = ("buffer", "writable_buffer")


def element_size(module: Module, target: TargetInfo, element: CType | None) -> int:
    """Bytes of one element; 0 for ``void`` or an incomplete type."""
    if element is None:
        return 0
    try:
        return size_align(module, element, target)[0]
    except LayoutError:  # void or an incomplete element type: nothing to check against
        return 0


def _points_to_const(module: Module, ctype: CType) -> bool:
    resolved = module.resolve(ctype)
    target = (resolved.target if isinstance(resolved, Pointer)
              else resolved.element if isinstance(resolved, Array) else None)
    return target is not None and "const" in module.resolve(target).quals


def vararg_bits(target: TargetInfo) -> int:
    """How many bits a Python int takes among a variadic function's extra arguments: as wide as
    a pointer on LP64 and LLP64 (C reads it as a long, size_t, int64_t, or as an int from the
    same register or stack slot), an int's width elsewhere (ILP32: a wider one takes two slots)."""
    return 64 if target.pointer_size >= 8 else 8 * target.size_of("int")


def _terminated(module: Module, target: TargetInfo, length: CType) -> int | None:
    """The largest value of the unsigned type ``length``, where the library names a constant of
    that type with it as the length of text read to its end (``TERMINATED`` in its name:
    pcre2's ``#define PCRE2_ZERO_TERMINATED (~(PCRE2_SIZE)0)``): C reads "to the NUL" there,
    not that many (see :attr:`CheckLength.terminated`).  None otherwise: all ones is no such
    length to a library that does not say so (PKCS#11's ``CK_UNAVAILABLE_INFORMATION`` marks
    a length not known, and C would read that far)."""
    low, high = integer_range(module, length, target)
    if low != 0:
        return None
    values = module._derived.get("terminated_lengths")
    if values is None:  # the (type, value) of each such constant of the library
        values = module._derived["terminated_lengths"] = {
            (module.canonical(c.type).to_c(), c.value) for c in module.constants
            if "TERMINATED" in c.name.upper() and isinstance(c.value, int) and c.value > 0
            and (c.value + 1) & c.value == 0}
    return high if (module.canonical(length).to_c(), high) in values else None


def fewest_bytes(module: Module, target: TargetInfo, param: ParamBinding) -> int:
    """Bytes a buffer argument must hold at least: one element, or the length of an array
    parameter (``uuid_t``: 16); one byte for ``void *`` and incomplete types, of which nothing
    more is known (C reads or writes at least that: an empty buffer's storage is shared by every
    empty ``bytearray``); 0 when C is told its size or reads text (:attr:`ParamBinding.takes_empty`)."""
    if param.takes_empty:
        return 0
    return (element_size(module, target, param.element) or 1) * (param.array_length or 1)


def max_object_size(target: TargetInfo) -> int:
    """The largest object size in bytes on ``target`` (``PY_SSIZE_T_MAX``)."""
    return (1 << (8 * target.pointer_size - 1)) - 1


def _written_length(module: Module, target: TargetInfo, params: tuple[ParamBinding, ...], slots: tuple[Slot, ...],
                    index: int | None) -> tuple[ParamBinding, Slot, tuple[int, bool]] | None:
    """The cell parameter ``index`` C writes a length of characters to, its slot, and the
    (bytes, signed) of its integer (None for no such parameter)."""
    if index is None:
        return None
    cell = params[index]
    assert cell.element is not None
    signed = integer_range(module, cell.element, target)[0] < 0
    return cell, slots[index], (element_size(module, target, cell.element), signed)


def plan_call(module: Module, target: TargetInfo, f: FunctionBinding) -> CallPlan:
    """The steps of ``f``'s wrapper."""
    params = f.params
    slots = tuple(Slot.of(p.index) for p in params)
    largest = max_object_size(target)

    def buffer(p: ParamBinding) -> OutBuffer:
        length = params[p.length] if p.length is not None and params[p.length].by_pointer else None
        return OutBuffer(p, slots[p.index], length, slots[length.index] if length is not None else None)

    steps: list[Step] = []
    bounded = {index: p for p in params for index in p.bounds}  # buffer index -> its length
    items = {  # buffer index -> bytes of the items its length counts
        index: 1 if length.bound_unit == "bytes" else element_size(module, target, params[index].element) or 1
        for index, length in bounded.items()
    }
    for p in params:
        slot, role = slots[p.index], p.role.role
        if p.nonnull:
            steps.append(CheckNotNone(p, slot, f"{p.label} must not be None"))
        if role == "in":
            size = element_size(module, target, p.element)
            steps.append(PassIn(p, slot, p.length is not None, fewest_bytes(module, target, p), size or 1,
                                items.get(p.index, 0)))
        elif role == "null":
            steps.append(PassNull(p, slot, isinstance(module.resolve(p.ctype), (Pointer, Array))))
        elif role in ("out", "inout"):
            steps.append(PassCell(p, slot, role == "inout"))
        elif role == "in-array":
            steps.append(PassArray(p, slot))
    for p in params:
        if p.kind == "callback" and p.callback is not None and p.callback.user_data is not None:
            user, arg = p.callback.user_data
            steps.append(PassUserData(p, slots[p.index], params[user], slots[user], arg))
    for p in params:
        for other in p.also_measures:
            first = params[p.length_of]  # type: ignore[index]  # a len with also_measures measures one first
            message = (f"{params[other].label} holds {{n}} items and {first.label} {{m}}: "
                       f"C is given one count ({p.py_name}) for both")
            steps.append(CheckSameCount(first, slots[first.index], params[other], slots[other], message))
    for p in params:
        if p.role.role != "len" or p.length_of is None:
            continue
        measures = params[p.length_of]
        out_buffer = measures.role.role in _OUT_BUFFERS
        limit = None
        if not p.is_input and not out_buffer:
            counted = p.element if p.by_pointer and p.element is not None else p.ctype  # by pointer: the pointee
            hi = integer_range(module, counted, target)[1]
            limit = hi if hi < largest else None
        mode: Literal["input", "cell", "value"] = "input" if p.is_input else "cell" if p.by_pointer else "value"
        message = f"{measures.label} is too long for its length parameter {p.py_name}"
        steps.append(PassLength(p, slots[p.index], measures, slots[measures.index], mode, out_buffer, limit, message))
    for index, length in bounded.items():
        held, unit = params[index], "bytes" if items[index] == 1 else "items"
        factor = params[length.bound_factor] if length.bound_factor is not None else None
        said = length.label if factor is None else f"{length.label} times {factor.label}"
        message = f"{said}: {{n}} is more than {held.label} holds ({{held}} {unit})"
        in_a_cell = length.kind != "int"
        cell_int = (0, False)
        if in_a_cell and length.element is not None:
            signed = integer_range(module, length.element, target)[0] < 0
            cell_int = (element_size(module, target, length.element), signed)
        # (a product is no length of text read to its NUL)
        terminated = None if in_a_cell or factor is not None else _terminated(module, target, length.ctype)
        # (not of bytes: where a header is not const-correct, -1 may still say "to the NUL",
        # as OpenSSL 1.0's BIO_new_mem_buf(void *buf, int len) has it)
        negative = ""
        if (not in_a_cell and held.kind == "writable_buffer" and items[index] > 1
                and integer_range(module, length.ctype, target)[0] < 0):
            negative = f"{length.label}: {{n}} is no length of {held.label}, which C writes"
        steps.append(CheckLength(held, slots[index], length, slots[length.index], in_a_cell, items[index], message,
                                 cell_int, terminated, factor, None if factor is None else slots[factor.index],
                                 negative))
    if f.variadic:
        keeper = next((p for p in f.inputs if p.role.role == "in" and p.kind in ("handle", "record_ptr")), None)
        selectors = tuple(p for p in f.inputs if p.role.role == "in" and p.kind == "int")
        steps.append(PassVarargs(len(f.inputs) + 1, keeper, selectors))
    buffers = tuple(buffer(p) for p in params if p.role.role in _OUT_BUFFERS)
    if f.probe:
        steps.append(Probe(buffers))
    for out in buffers:
        if out.param.role.at_most is not None:
            steps.append(Capacity(out, out.param.role.at_most))
        size = element_size(module, target, out.param.element) or 1
        message = f"{f.function.name}: {out.param.py_name} would need more memory than can be addressed"
        steps.append(Allocate(out, size, largest // size, message, out.param.role.at_most))
    owners = [f.ret.owner] if f.returns_value else []
    owners += [p.owner for p in f.outputs]
    steps += [CheckFreer(name) for name in dict.fromkeys(o for o in owners if o is not None)]
    steps.append(Call())
    if f.disowns:
        steps.append(Disown(params[0], slots[0]))
    steps += [
        CopyBack(p, slots[p.index]) for p in params
        if p.role.role == "in-array" and p.kind == "record" and not _points_to_const(module, p.ctype)
    ]
    if f.returns_value:
        steps.append(ConvertReturn(_written_length(module, target, params, slots, f.ret.length_param)))
    by_param = {out.param.index: out for out in buffers}
    steps += [CollectOutput(p, slots[p.index], by_param.get(p.index),
                            _written_length(module, target, params, slots, p.length_param)) for p in f.outputs]

    sequences = [p for p in params if p.role.role in ("in-array", *_OUT_BUFFERS)]
    measured = [p for p in params if p.role.role == "in" and (p.length is not None or p.index in bounded)]
    views = [Release("view", p, slots[p.index]) for p in params  # a list's buffers are its items'
             if p.kind in _BUFFER_KINDS and not (p.role.role == "in-array" and p.kind in LIST_KINDS)]
    memory = [
        Release("memory", p, slots[p.index]) for p in params
        if p.role.role in ("in-array", "out-array") and p.element is not None
    ]
    results = (("_pb_ret",) if f.returns_value else ()) + tuple(slots[p.index].result for p in f.outputs)
    keeps = next((p for p in f.inputs if p.role.role in ("in", "inout") and p.kind in _OBJECT_KINDS), None)
    return CallPlan(
        steps=tuple(steps),
        slots=slots,
        passes_through=f.error is None and f.ret.owner is None and not f.disowns
        and all(p.role.role in ("in", "null") for p in params),
        counted=tuple(slots[p.index] for p in sequences + measured),
        releases=tuple(views + memory),
        results=results,
        keeps=keeps,
    )
