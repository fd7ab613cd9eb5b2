"""The ctypes spelling of the wrapper steps (:class:`CtypesWriter`), rendered by :mod:`pegbind.emit.pywrapper`.

Calls go through a ``CFUNCTYPE`` prototype of the symbol: with ``argtypes``,
or with the ``restype`` only where the wrapper hands ctypes nothing but values
it passes exactly as C expects (see :meth:`CtypesWriter.bare_call`).
"""
from __future__ import annotations

from ...diagnostics import Diagnostic
from ...frozen import frozen_dataclass
from ...model import CType
from ...passes.binding import LIST_KINDS, BindingModel, CallbackBinding, FunctionBinding, ParamBinding
from ...passes.callplan import Slot, element_size, fewest_bytes
from ..common import text_argument, text_flag
from ..pywrapper import SMALL_INT, WrapperWriter, arg_label, in_range
from .speller import CtypesSpeller, CtypesSpellingError


def ctypes_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for an ``in`` parameter (ctypes converts and type-checks the rest)."""
    name = param.py_name
    size = fewest_bytes(binding.module, binding.target, param)
    if param.kind == "buffer":
        # c_void_p takes bytes as they are: only other buffers (and short
        # bytes, for the error) need _pb_rbuf's Python call
        text = text_flag(param)
        extra = f", {text}, {param.cell_tag!r}" if param.cell_tag else f", {text}" if param.text else ""
        call = f"_pb_rbuf({name}, {size}, {arg_label(param)!r}, {param.pointer_type!r}{extra})"
        if size == 0:
            return f"{name} if {name}.__class__ is bytes else {call}"
        if size == 1:
            return f"{name} if {name}.__class__ is bytes and {name} else {call}"
        return f"{name} if {name}.__class__ is bytes and len({name}) >= {size} else {call}"
    if param.kind == "writable_buffer":
        cell = f", {param.cell_tag!r}" if param.cell_tag else ""
        # None (a user-data pointer left NULL) passes without a call
        call = f"_pb_wbuf({name}, {size}, {arg_label(param)!r}, {param.pointer_type!r}{cell})"
        return f"None if {name} is None else {call}"
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
        if role == "in" and p.kind == "callback":
            return True  # a closure object, None, or a c_void_p of another function's address
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
        small = f"{value} <= {SMALL_INT} and {value} >= {-SMALL_INT}" if lo < 0 else f"{value} <= {SMALL_INT}"
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
        if p.kind == "record_ptr" and p.role.role == "inout":
            # the cell takes any address: only a record of the class (or None)
            return f"({name} is None or isinstance({name}, {self.classes[p.record_key or '']}))"
        if p.kind == "pointer" and p.role.role == "in":
            # only a Pointer of this type (or void *) gives its address
            same = f"{name}.__class__ is Pointer and ({name}._ctype == {p.pointer_type!r} or {name}._ctype == 'void *')"
            return f"({same})" if p.nonnull else f"({name} is None or {same})"
        if p.nonnull:
            return ""
        if (p.kind in ("int", "enum") and p.role.role in ("in", "inout")) or p.is_input:
            lo, hi = self.int_range(p.element if p.role.role == "inout" else p.ctype)  # type: ignore[arg-type]
            lo = max(lo, 0) if p.is_input else lo
            # Where no argtype says what C wants (a bare call), ctypes passes
            # anything it knows how to: an object's _as_parameter_, a record by
            # value.  So the value is first made an exact int (operator.index,
            # which also takes IntEnum and __index__ objects without a retry).
            return in_range(name, lo, hi, f"({name} := _pb_exact_int({name}))" if self.bare else None)
        if p.kind == "bool" and p.role.role in ("in", "inout"):
            return f"({name}.__class__ is bool or {name}.__class__ is int)"
        return ""

    def in_arg(self, p: ParamBinding) -> str:
        if p.kind in ("handle", "pointer"):
            return f"None if {p.py_name} is None else {p.py_name}._h"
        if self.bare and p.kind == "int":
            return self.bare_int(p.py_name, p.ctype)
        if self.bare and p.kind == "bool":
            return f"(1 if {p.py_name} else 0)"  # C reads a _Bool as 0 or 1, nothing else
        if p.kind == "complex":  # the structure of its two parts (see CtypesSpeller.by_value)
            return f"{self.speller.by_value(p.ctype)}({p.py_name}.real, {p.py_name}.imag)"
        if p.kind == "cstring":
            # a str is encoded here (without c_char_p, ctypes would pass it as a wide string)
            counted = ", True" if p.counted else ""  # C reads as many as a length says: NULs too
            return (f"{p.py_name} if {p.py_name}.__class__ is bytes else "
                    f"_pb_cstring({p.py_name}, {arg_label(p)!r}{counted})")
        return ctypes_arg(self.binding, p)

    def length_value(self, p: ParamBinding, value: str) -> str:
        return self.bare_int(value, p.ctype) if self.bare else value

    def class_pointer(self, value: str) -> str:
        # a bare call passes the closure itself, which ctypes hands C as its code
        # address; with argtypes (c_void_p) the address goes as an int
        return f"{value}._closure" if self.bare else super().class_pointer(value)

    def as_parameter(self, p: ParamBinding, pointer: str) -> str:
        # without argtypes an int would pass as a C int: an address goes in a c_void_p
        return f"_ct.c_void_p({pointer})" if self.bare else pointer

    def exact_int(self, p: ParamBinding) -> list[str]:
        # a bare call's guard has made every int argument an exact int already
        return [] if self.bare and p.kind == "int" else super().exact_int(p)

    def elem(self, p: ParamBinding) -> str:
        if p.kind == "string":  # a char ** out cell: its value reads as bytes (owned: the address, to
            # free; with a length C writes beside it: the address, to read that many from)
            return "_ct.c_void_p" if p.owner is not None or p.length_param is not None else "_ct.c_char_p"
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
        value = (f"None if {name} is None else {name}._h" if p.kind == "handle"
                 else f"None if {name} is None else _ct.addressof({name}._s)" if p.kind == "record_ptr"
                 else f"{name}.real, {name}.imag" if p.kind == "complex" else name)
        return [f"{cell} = {self.elem(p)}({value})"], f"_ct.byref({cell})"

    def out_result(self, p: ParamBinding, s: Slot, owner: str) -> tuple[list[str], str]:
        if p.kind == "complex":  # the cell is the structure of the two parts, not a simple type
            return [], self.complex_value(s.cell)
        return super().out_result(p, s, owner)

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
        if p.kind in LIST_KINDS:  # pointers: the array ends with a NULL, as C reads such lists
            cls = self.classes[p.record_key or ""] if p.kind == "record_ptr" else None
            fill = [f"{items} = _pb_list_items({name}, {p.kind!r}, {cls}, {p.pointer_type!r}, {arg_label(p)!r})",
                    f"{a} = _pb_list_array({items})"]
        elif p.kind == "int":
            lo, hi = self.int_range(p.element)  # type: ignore[arg-type]
            fill = [f"{a} = _pb_ints({self.elem(p)}, {name}, {lo}, {hi}, {arg_label(p)!r})"]
        elif p.kind == "record":
            fill = [f"{items} = list({name})",
                    f"{a} = ({self.elem(p)} * len({items}))(*[_pb_item._s for _pb_item in {items}])"]
        elif p.kind == "handle":
            fill = [f"{items} = _pb_handles({name}, {self.classes[p.record_key or '']})",
                    f"{a} = (_ct.c_void_p * len({items}))(*{items})"]
        elif p.kind == "complex":  # each item the structure of its two parts, made from a tuple
            fill = [f"{items} = list({name})",
                    f"{a} = ({self.elem(p)} * len({items}))(*[(_pb_v.real, _pb_v.imag) for _pb_v in {items}])"]
        else:  # float, bool: ctypes converts and rejects
            fill = [f"{items} = list({name})", f"{a} = ({self.elem(p)} * len({items}))(*{items})"]
        fill.append(f"{n} = len({items if p.kind in LIST_KINDS else a})")
        if p.nonnull:
            return fill
        return [f"if {name} is None:", f"    {a} = None", f"    {n} = 0", "else:", *("    " + line for line in fill)]

    def length_cell(self, p: ParamBinding, s: Slot, measured: str) -> list[str]:
        return [f"{s.length} = {self.elem(p)}({measured})"]

    def cell_value(self, cell: str) -> str:
        return f"{cell}.value"

    def length_arg(self, p: ParamBinding, s: Slot) -> str:
        return f"_ct.byref({s.length})"

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
        if p.kind == "complex":
            return [f"{res} = [{self.complex_value('_pb_v')} for _pb_v in {a}[:{n}]]"]
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
        if kind == "record":
            return [f"_pb_ret = _pb_view({self.classes[f.ret.record_key or '']}, _pb_r)"]
        # c_char_p gives bytes or None, c_bool gives bool, c_void_p an int or None
        return [f"_pb_ret = {self.pointer_value(kind, f.ret.record_key, f.ret.pointer_type, '_pb_r', owner)}"]

    def closure(self, cb: CallbackBinding, trampoline: str, refused: bool = False) -> tuple[str, str]:
        # a ctypes closure takes the GIL itself, on any thread; pointers come in as
        # the return values of the same types do (c_char_p: bytes or None)
        types = [self.speller.spell(cb.ret.ctype)]
        types += [text_argument(a) or self.speller.spell(a.ctype) for a in cb.args]
        return f"_ct.CFUNCTYPE({', '.join(types)})({trampoline})", "_ct.cast(_pb_closure, _ct.c_void_p).value"

    def record_at(self, key: str, pointer: str, owner: str) -> str:
        return f"_pb_view_at({self.classes[key]}, {self.speller.struct_name(key)}, {pointer}, {owner})"

    def string_at(self, pointer: str) -> str:
        return pointer  # a c_char_p result or cell reads as bytes or None

    def complex_value(self, value: str) -> str:
        return f"complex({value}.real, {value}.imag)"

    def owned_string(self, pointer: str) -> str:
        return f"_ct.string_at({pointer}) if {pointer} else None"  # an owned string comes as c_void_p

    def address_of(self, s: Slot) -> str:
        return f"_ct.addressof({s.struct})"

    def direct(self, f: FunctionBinding) -> bool:
        # c_char_p gives bytes to the NUL: not a string whose length C states
        return f.ret.kind in ("int", "bool", "float", "void") or (f.ret.kind == "string" and f.ret.length_param is None)

    # ---- prototypes ------------------------------------------------------

    def argtype(self, p: ParamBinding) -> str:
        role = p.role.role
        if role == "in":
            return "_ct.c_void_p" if p.kind in ("handle", "pointer") else self.speller.argtype(p)
        if role in ("out", "inout"):
            return f"_ct.POINTER({self.elem(p)})"
        if role == "len" and p.by_pointer:
            return f"_ct.POINTER({self.elem(p)})"
        if role == "len" or (role == "null" and not self._is_pointer(p.ctype)):
            return self.speller.spell(p.ctype)
        return "_ct.c_void_p"

    def restype(self, f: FunctionBinding) -> str:
        if f.ret.kind == "handle" or f.ret.owner is not None or f.ret.length_param is not None:
            # an owned string comes as its address: it is freed after the copy; one C states the
            # length of (ReturnBinding.length_param) is read to that length, not to a NUL
            return "_ct.c_void_p"
        return self.speller.restype(f)

    def prototype(self, f: FunctionBinding) -> str:
        """``CFUNCTYPE(restype, *argtypes)``: called without the GIL, like every ctypes foreign call.

        A bare call's prototype has the restype only.
        """
        argtypes = [] if self.bare_call(f) else [self.argtype(p) for p in f.params]
        return f"_ct.CFUNCTYPE({', '.join([self.restype(f), *argtypes])})"


@frozen_dataclass()
class RenderedWrapper:
    """One wrapper: its prototype and its source, a module function or a Library method as the
    module is loaded."""

    binding: FunctionBinding
    prototype: str
    source: str


def render_wrappers(binding: BindingModel, writer: CtypesWriter, left_out: list[Diagnostic]) -> list[RenderedWrapper]:
    """A wrapper per function; what ctypes cannot express goes to ``left_out`` with the reason."""
    plans = []
    method = binding.load == "dynamic"
    for function in binding.functions:
        try:
            prototype = writer.prototype(function)
            plans.append(RenderedWrapper(function, prototype, writer.wrapper(function, method)))
        except CtypesSpellingError as problem:  # __int128 and the like: ctypes has no type for them
            name = function.function.name
            left_out.append(Diagnostic(
                function.function.coord, f"function '{name}' is not in the ctypes module: {problem}", "warning"
            ))
    return plans
