"""The cffi spelling of the wrapper steps (:class:`CffiWriter`), rendered by :mod:`pegbind.emit.pywrapper`."""
from __future__ import annotations

from ...frozen import frozen_dataclass
from ...model import Array, CType, Pointer, Primitive
from ...passes.binding import LIST_KINDS, BindingModel, CallbackBinding, FunctionBinding, ParamBinding
from ...passes.callplan import Slot, element_size, fewest_bytes
from ..common import is_primitive, text_flag
from ..pywrapper import WrapperWriter, arg_label
from .cdef import integer_char


def buffer_array_type(binding: BindingModel, param: ParamBinding) -> str:
    """The ``T[]`` type ``ffi.from_buffer`` gives for a buffer parameter (``char[]`` for ``void *``)."""
    module = binding.module
    resolved = module.resolve(param.ctype)
    target = (resolved.target if isinstance(resolved, Pointer)
              else resolved.element if isinstance(resolved, Array) else None)
    pointee = module.resolve(target) if target is not None else None
    if pointee is None or (isinstance(pointee, Primitive) and pointee.is_void):
        return "char[]"
    return target.unqualified().to_c() + "[]"  # type: ignore[union-attr]


class CffiWriter(WrapperWriter):
    """The cffi spellings of a wrapper: ``ffi.new`` cells and arrays, ``ffi.from_buffer`` views.

    cffi checks integer ranges and pointer types itself, so the fast path
    passes most arguments untouched.
    """

    null = "_NULL"

    def __init__(self, binding: BindingModel, classes: dict[str, str]):
        super().__init__(binding, classes)
        #: C type text -> the module-level name of its parsed type, in first-use order
        self.types: dict[str, str] = {}

    def new_type(self, text: str) -> str:
        """The name of the module global holding cffi's parsed type ``text``, for ``ffi.new``.

        ``ffi.new`` given a type object skips the lookup of the type string
        (about 15 ns a call); the template defines the globals (see ``types``).
        """
        if text not in self.types:
            self.types[text] = f"_pb_t{len(self.types)}"
        return self.types[text]

    def ctype(self, ctype: CType) -> str:
        """A C type as cffi's parser reads it in ``ffi.new``."""
        return integer_char(self.module, self.target, ctype).unqualified().to_c()

    # cffi converts any object with __int__ by truncating it (Decimal("1.5")
    # becomes 1), where the other backends take __index__ objects only.  So
    # only integers reach cffi on the fast path; anything else goes to
    # _pb_fix, which turns __index__ objects into ints and refuses the rest.
    # cffi still checks the range itself (OverflowError, also retried).

    def guard(self, p: ParamBinding) -> str:
        name = p.py_name
        if p.role.role == "in" and (p.kind == "pointer" or p.kind == "handle" and self._untyped_handle(p)):
            # cffi passes a void * for any pointer: the class is what tells a
            # CURL from a CURLM (both typedefs of void), a Pointer from a handle
            cls = "Pointer" if p.kind == "pointer" else self.classes[p.record_key or ""]
            return f"{name}.__class__ is {cls}" if p.nonnull else f"({name} is None or {name}.__class__ is {cls})"
        if p.is_input:
            # the count sizes an allocation before cffi sees it: its range first
            hi = self.int_range(p.ctype)[1]
            return f"({name}.__class__ is int and {name} >= 0 and {name} <= {hi})"
        if p.kind == "bool" and p.role.role in ("in", "inout"):
            return f"({name}.__class__ is bool or {name}.__class__ is int)"
        return ""

    def _untyped_handle(self, p: ParamBinding) -> bool:
        """Whether ``p``'s handle class is a typedef of ``void``, which cffi sees as ``void *``,
        or another class is: cffi passes its ``void *`` where C takes any pointer (a ``CURL``
        handle given where C takes a table read as one)."""
        handle = self.binding.handle_binding(p.record_key or "")
        return handle is not None and (handle.record is None or any(h.record is None for h in self.binding.handles))

    @staticmethod
    def integer(name: str) -> str:
        """An int argument as the fast path passes it: an exact int through
        ``operator.index``, or the TypeError that hands it to ``_pb_fix``.
        (``name & -1``, a little cheaper, let through any object whose ``&``
        returns an int, such as NumPy's bool.)"""
        return f"_pb_exact_int({name})"

    def in_arg(self, p: ParamBinding) -> str:
        name = p.py_name
        if p.kind in ("handle", "pointer"):
            return f"_NULL if {name} is None else {name}._h"
        if p.kind == "cstring":
            counted = ", True" if p.counted else ""  # C reads as many as a length says: NULs too
            return f"{name} if {name}.__class__ is bytes else _pb_cstr({name}, {arg_label(p)!r}{counted})"
        if p.kind == "int":
            return self.integer(name)
        return cffi_arg(self.binding, p)

    def exact_int_arg(self, p: ParamBinding) -> str:
        return p.py_name  # cffi range-checks an exact int itself (OverflowError: to _pb_fix)

    def out_value(self, p: ParamBinding, s: Slot, inout: bool) -> tuple[list[str], str]:
        name, cell = p.py_name, s.cell
        if p.kind == "record":
            cls = self.classes[p.record_key or ""]
            if inout:
                cell_type = self.new_type(self.ctype(p.element) + " *")  # type: ignore[arg-type]  # set for records
                return [f"{cell} = _pb_view({cls}, _pb_alloc({cell_type}, {name}._p[0]), None)"], f"{cell}._p"
            # the record object is made around one ffi.new of its struct,
            # through the preparsed pointer type and without running __init__
            pointer = s.struct
            return [
                f"{cell} = _pb_new({cls})",
                f"{cell}._p = {pointer} = _pb_alloc(_pb_ptr_{cls})",
                f"{cell}._owner = None",
                f"{cell}._keep = None",
            ], pointer
        cell_type = self.new_type(self.ctype(p.element) + " *")  # type: ignore[arg-type]
        if not inout:
            return [f"{cell} = _pb_alloc({cell_type})"], cell
        value = (f"_NULL if {name} is None else {name}._h" if p.kind == "handle"
                 else f"_NULL if {name} is None else {name}._p" if p.kind == "record_ptr" else name)
        if p.kind == "int":
            value = self.integer(name)
        return [f"{cell} = _pb_alloc({cell_type}, {value})"], cell

    def in_array(self, p: ParamBinding, s: Slot) -> list[str]:
        name, a, n = p.py_name, s.arg, s.count
        if p.kind == "buffer":
            array = "None" if p.element is None else self.new_type(self.ctype(p.element) + "[]")
            return [f"{a}, {n} = _pb_bytes_in({name}, {array}, {arg_label(p)!r})"]
        array = self.new_type(self.ctype(p.element) + "[]")  # type: ignore[arg-type]
        if p.kind in LIST_KINDS:  # pointers: the array ends with a NULL, as C reads such lists
            cls = self.classes[p.record_key or ""] if p.kind == "record_ptr" else None
            item = self.module.resolve(p.element)  # type: ignore[arg-type]
            assert isinstance(item, Pointer), "a list's items are pointers"
            resolved = self.module.resolve(item.target)
            buffer = "char" if isinstance(resolved, Primitive) and resolved.is_void else self.ctype(item.target)
            fill = [f"{s.items} = _pb_list_items({name}, {p.kind!r}, {cls}, {p.pointer_type!r}, {arg_label(p)!r})",
                    f"{a} = _pb_list_array({s.items}, {array}, {self.new_type(buffer + '[]')})",
                    f"{n} = len({s.items})"]
        else:
            fill = self._fill_array(p, s, array)
        if p.nonnull:
            return fill
        return [f"if {name} is None:", f"    {a} = _NULL", f"    {n} = 0", "else:", *("    " + line for line in fill)]

    def _fill_array(self, p: ParamBinding, s: Slot, array: str) -> list[str]:
        """Lines filling a new C array of ``array`` type from a sequence of numbers, records or handles."""
        name, a, n = p.py_name, s.arg, s.count
        snapshot: list[str] = []
        if p.kind == "record":
            # read once: the records are copied back through this snapshot,
            # not by reading a sequence that may have changed during the call
            snapshot = [f"{s.items} = list({name})"]
            items = f"[_pb_item._p[0] for _pb_item in {s.items}]"
        elif p.kind == "handle":
            items = f"[_NULL if _pb_item is None else _pb_item._h for _pb_item in {name}]"
        else:  # cffi checks ranges and item types; an int would give an array of that length
            items = (f"{name} if {name}.__class__ is list or {name}.__class__ is tuple "
                     f"else _pb_sequence({name}, {arg_label(p)!r})")
            if p.kind in ("int", "bool"):
                # cffi would truncate an item with only __int__ (see guard)
                items = f"_pb_exact_ints({items})"
        return [*snapshot, f"{a} = _pb_alloc({array}, {items})", f"{n} = len({a})"]

    def length_cell(self, p: ParamBinding, s: Slot, measured: str) -> list[str]:
        return [f"{s.length} = _pb_alloc({self.new_type(self.ctype(p.element) + ' *')}, {measured})"]  # type: ignore[arg-type]

    def cell_value(self, cell: str) -> str:
        return f"{cell}[0]"

    def length_arg(self, p: ParamBinding, s: Slot) -> str:
        return s.length

    def out_buffer(self, p: ParamBinding, s: Slot) -> list[str]:
        resolved = self.module.resolve(p.element) if p.element is not None else None
        void = resolved is None or (isinstance(resolved, Primitive) and resolved.is_void)
        element = "char" if void else self.ctype(p.element)  # type: ignore[arg-type]
        return [f"{s.arg} = _pb_alloc({self.new_type(element + '[]')}, {s.count} or 1)"]

    def buffer_result(self, p: ParamBinding, s: Slot, owner: str) -> list[str]:
        a, n, res = s.arg, s.count, s.result
        if p.role.role == "out-bytes":
            return [f"{res} = _ffi.buffer({a}, {n} * {self.element_size(p)})[:]"]
        if p.kind == "record":
            cls, cell = self.classes[p.record_key or ""], self.new_type(self.ctype(p.element) + " *")  # type: ignore[arg-type]
            return [f"{res} = [_pb_view({cls}, _pb_alloc({cell}, {a}[_pb_k]), None) for _pb_k in range({n})]"]
        if p.kind == "handle":
            return [f"{res} = [_pb_handle({self.classes[p.record_key or '']}, {a}[_pb_k], {owner}) "
                    f"for _pb_k in range({n})]"]
        return [f"{res} = _ffi.unpack({a}, {n})"]

    def copy_back(self, p: ParamBinding, s: Slot) -> list[str]:
        # the function may have written into the records (a PKCS#11 template)
        return [
            f"if {p.py_name} is not None:",
            f"    for _pb_k, _pb_item in enumerate({s.items}):",
            f"        _pb_item._p[0] = {s.arg}[_pb_k]",
        ]

    def float_value(self, ctype: CType, value: str) -> str:
        # cffi gives a long double as a cdata, which no arithmetic takes: a float, as the other
        # backends give it
        return f"float({value})" if is_primitive(self.module, ctype, "long double") else value

    def direct(self, f: FunctionBinding) -> bool:
        return super().direct(f) and not is_primitive(self.module, f.ret.ctype, "long double")

    def ret(self, f: FunctionBinding, owner: str) -> list[str]:
        kind, cls = f.ret.kind, self.classes.get(f.ret.record_key or "")
        if kind == "float":
            return [f"_pb_ret = {self.float_value(f.ret.ctype, '_pb_r')}"]
        if kind == "record":
            return [f"_pb_ret = _pb_view({cls}, _pb_alloc({self.new_type(self.ctype(f.ret.ctype) + ' *')}, "
                    "_pb_r), None)"]
        return [f"_pb_ret = {self.pointer_value(kind, f.ret.record_key, f.ret.pointer_type, '_pb_r', owner)}"]

    def passes_as_is(self, p: ParamBinding, cls: str) -> bool:
        return p.ctype.to_c() == cls  # the class's pointers are of its typedef's type (verbs)

    def as_parameter(self, p: ParamBinding, pointer: str) -> str:
        # cffi tells function pointer types apart by their spelling (size_t is not unsigned
        # long to it): any other pointer is cast to the parameter's own type
        return f"_ffi.cast({p.c_type.to_c()!r}, {pointer})"

    #: cffi refuses an int out of the range of a closure's result type, and calls its onerror
    checks_int_results = True

    def closure(self, cb: CallbackBinding, trampoline: str, refused: bool = False) -> tuple[str, str]:
        # cffi's closure is the C function pointer it is passed as; it takes the GIL itself
        onerror = ", onerror=_pb_refused" if refused else ""
        return f"_ffi.callback({self.closure_type(cb)!r}, {trampoline}{onerror})", "_pb_closure"

    def closure_type(self, cb: CallbackBinding) -> str:
        """``cb``'s C type as the closures are made: a plain ``char`` argument or result as
        ``signed``/``unsigned char``, which cffi gives and takes as a number, as every other
        backend does (a plain ``char`` is ``bytes`` of one to cffi); cast to ``cb``'s own type
        where C takes it."""
        values = (cb.ret.ctype, *(a.ctype for a in cb.args))
        if all(integer_char(self.module, self.target, ctype) is ctype for ctype in values):
            return cb.c_text
        return f"{self.ctype(cb.ret.ctype)} (*)({', '.join(self.ctype(a.ctype) for a in cb.args) or 'void'})"

    def address_value(self, ctype: str, address: int) -> str:
        return f"_ffi.cast({ctype!r}, {address:#x})"

    def pointer_result(self, address: str) -> str:
        # cdata, as cffi converts a callback's result; C converts a void * to any object pointer
        return f"_ffi.cast('void *', {address})"

    def record_at(self, key: str, pointer: str, owner: str) -> str:
        return f"_pb_view_at({self.classes[key]}, {pointer}, {owner})"

    def string_at(self, pointer: str) -> str:
        return f"None if {pointer} == _NULL else _string({pointer})"

    def owned_string(self, pointer: str) -> str:
        return self.string_at(pointer)

    def address_of(self, s: Slot) -> str:
        return s.struct


@frozen_dataclass()
class RenderedWrapper:
    """One wrapper: its source, a module function or a Library method as the module is loaded."""

    binding: FunctionBinding
    source: str


def _takes_bytes(binding: BindingModel, element: CType | None) -> bool:
    """Whether cffi accepts ``bytes`` for a pointer to ``element``: the 1-byte character types, not ``_Bool``."""
    resolved = binding.module.resolve(element) if element is not None else None
    return isinstance(resolved, Primitive) and resolved.name in ("char", "signed char", "unsigned char")


def cffi_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for ``param``; cffi checks integer ranges and types itself."""
    name = param.py_name
    size = fewest_bytes(binding.module, binding.target, param)
    label = repr(arg_label(param))
    if param.kind == "buffer":
        text = text_flag(param)
        extra = f", {text}, {param.cell_tag!r}" if param.cell_tag else f", {text}" if param.text else ""
        array = buffer_array_type(binding, param)
        call = f"_pb_rbuf({name}, {size}, {label}, {array!r}, {param.pointer_type!r}{extra})"
        # cffi passes bytes to void * and to a pointer to 1-byte characters as they are (no
        # from_buffer); where a byte is needed, b"" still goes to _pb_rbuf for its error
        if element_size(binding.module, binding.target, param.element) == 0 or _takes_bytes(binding, param.element):
            if size == 0:
                return f"{name} if {name}.__class__ is bytes else {call}"
            if size == 1:
                return f"{name} if {name}.__class__ is bytes and {name} else {call}"
        return call
    if param.kind == "writable_buffer":
        cell = f", {param.cell_tag!r}" if param.cell_tag else ""
        array = buffer_array_type(binding, param)
        # None (a user-data pointer left NULL) passes without a call
        call = f"_pb_wbuf({name}, {size}, {label}, {array!r}, {param.pointer_type!r}{cell})"
        return f"_NULL if {name} is None else {call}"
    if param.kind == "record_ptr" and param.nonnull:
        return f"{name}._p"
    if param.kind == "record_ptr":
        return f"_NULL if {name} is None else {name}._p"
    if param.kind == "record":
        return f"{name}._p[0]"
    return name


def render_wrappers(
    binding: BindingModel, classes: dict[str, str], called_functions: list[str]
) -> tuple[list[RenderedWrapper], list[tuple[str, str]], dict[str, tuple[str, str]]]:
    """A wrapper per function of the cdef (``called_functions``, in the binding's order; the
    rest is in ``left_out``), the cffi types they allocate: (module-level name, C type text), in
    first-use order, and the closure factories of the callbacks they take (C type -> (name, source))."""
    writer = CffiWriter(binding, classes)
    called = set(called_functions)
    method = binding.load == "dynamic"
    wrappers = [RenderedWrapper(function, writer.wrapper(function, method))
                for function in binding.functions if function.function.name in called]
    factories = writer.class_factories()
    return wrappers, [(text, name) for text, name in writer.types.items()], factories
