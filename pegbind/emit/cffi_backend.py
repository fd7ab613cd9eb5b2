"""cffi spelling of the binding model, and what the ``templates/cffi/`` files see.

Input: a :class:`~pegbind.passes.binding.BindingModel`.  Output: the context
of two templates:

* ``<name>_build.py`` — the ``cdef`` text, printed from the model (every type
  prints itself back as C; untagged records and anonymous members print their
  bodies), split into chunks by ``#pragma pack`` value, and ``make_ffi()``
  which :func:`pegbind.build.build_cffi` calls with the config's compiler
  options to compile the out-of-line module ``_<name>_cffi`` (API mode);
* ``<name>.py`` — the Python face, the same names, checks and errors as the
  Cython backend, over ``lib`` (API mode) or ``ffi.dlopen`` (ABI mode, for
  ``load = "dynamic"``).

Argument specs, field plans, integer ranges and the shape of every wrapper
(:class:`~pegbind.emit.ctypes_backend.WrapperWriter`) come from the ctypes
backend's module so the two dynamic backends cannot drift apart; this module
gives the cffi spellings.  Plain ``char`` parameters and results are declared
to cffi as ``signed char``/``unsigned char`` (the same ABI) so they cross as
integers, as in the other backends, not as 1-byte ``bytes``.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..config import BindingConfig
from ..diagnostics import Diagnostic, PegbindError
from ..model import Array, CType, Field, FunctionType, Module, Pointer, Primitive, Record, RecordRef, TypedefRef
from ..passes.binding import BindingModel, FunctionBinding, ParamBinding
from ..passes.callplan import Slot
from ..passes.select import is_synthetic
from ..target import builtin_size_align, get_target
from .cython import banner, c_type_text, py_docstring, py_literal, py_string
from .env import undef_lines, weak_lines
from .pywrapper import WrapperWriter, arg_label, cffi_member, field_plans, min_bytes, ordered_records

#: Type names cffi declares itself (``cffi.model.PrimitiveType`` and
#: ``cffi.commontypes``); a typedef of one of them in the cdef would clash.
CFFI_KNOWN_TYPES = frozenset(
    """_Bool bool char16_t char32_t FILE wchar_t size_t ssize_t ptrdiff_t intptr_t uintptr_t
    intmax_t uintmax_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
    int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t
    uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t
    uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t""".split()
)

_UNSPELLABLE = ("__int128", "unsigned __int128")


def unspellable(module: Module, ctype: CType, seen: frozenset[str] = frozenset()) -> str | None:
    """Why cffi's parser cannot read ``ctype`` (``__int128``, a compiler builtin type), or None."""
    if isinstance(ctype, Primitive):
        return "cffi's C parser has no __int128" if ctype.name in _UNSPELLABLE else None
    if isinstance(ctype, TypedefRef):
        typedef = module.get("typedef", ctype.name)
        if typedef is None:  # a compiler builtin (__builtin_va_list) unless cffi knows it
            if ctype.name in CFFI_KNOWN_TYPES or builtin_size_align(ctype.name, get_target(module.target)):
                return None  # known to cffi, or declared by cdef_chunks as a struct of its size
            return f"the type '{ctype.name}' it needs was left out"
        if ctype.name in seen:
            return None
        return unspellable(module, typedef.type, seen | {ctype.name})  # type: ignore[union-attr]
    if isinstance(ctype, (Pointer, Array)):
        return unspellable(module, ctype.target if isinstance(ctype, Pointer) else ctype.element, seen)
    if isinstance(ctype, FunctionType):
        for part in (ctype.ret, *(p.type for p in ctype.params)):
            reason = unspellable(module, part, seen)
            if reason is not None:
                return reason
    return None


def _record_unspellable(module: Module, record: Record) -> str | None:
    for member in record.fields or ():
        reason = unspellable(module, member.type)
        if reason is not None:
            return reason
    return None


def _by_value_records(module: Module, ctype: CType) -> Iterator[str]:
    """Keys of the records ``ctype`` holds by value (through typedefs and arrays)."""
    resolved = module.resolve(ctype)
    while isinstance(resolved, Array):
        resolved = module.resolve(resolved.element)
    if isinstance(resolved, RecordRef) and resolved.kind != "enum":
        yield resolved.key


def excluded(binding: BindingModel) -> tuple[dict[str, str], dict[str, str]]:
    """What the cffi module cannot hold, with the reasons: (record key -> reason, function name -> reason).

    A record goes when cffi's parser cannot read a member's type, and so does
    every record that holds it by value; a function goes when it needs such a
    type, or the class of a record that went.
    """
    module = binding.module
    records: dict[str, str] = {}
    for record in module.records:
        reason = _record_unspellable(module, record)
        if reason is not None:
            records[record.key] = reason
    changed = True
    while changed:  # a record holding a left-out record by value cannot be declared either
        changed = False
        for record in module.records:
            if record.key in records:
                continue
            for member in record.fields or ():
                held = next((key for key in _by_value_records(module, member.type) if key in records), None)
                if held is not None:
                    records[record.key] = f"its member {member.name or '(anonymous)'} holds {held}, which is not in it"
                    changed = True
                    break
    functions: dict[str, str] = {}
    for function in binding.functions:
        reason = unspellable(module, function.function.type)
        if reason is None:
            keys = [p.record_key for p in function.params] + [function.ret.record_key]
            reason = next((f"it takes or returns {key}, which is not in it" for key in keys if key in records), None)
        if reason is not None:
            functions[function.function.name] = reason
    return records, functions


def cdef_field(module: Module, member: Field, indent: str = "    ") -> str:
    """One member line; an anonymous struct/union member prints its body in place."""
    text = member.to_c()
    for record in module.records:
        # an anonymous record type has no name: its body goes where the key was printed
        if is_synthetic(record.key) and record.key in text:
            text = text.replace(record.key, cdef_record_body(module, record, indent))
    return indent + text


def needs_compiler_layout(record: Record) -> bool:
    """Whether cffi's cdef cannot state ``record``'s layout: an ``aligned`` attribute on it
    (libsodium's ``CRYPTO_ALIGN(16)`` states) or an aligned or packed member."""
    return record.aligned is not None or any(m.aligned is not None or m.packed for m in record.fields or ())


def cdef_record_body(module: Module, record: Record, indent: str = "") -> str:
    """``struct TAG { ... }`` (tag omitted when untagged), members one per line."""
    head = record.kind if record.tag is None else f"{record.kind} {record.tag}"
    lines = [cdef_field(module, member, indent + "    ") for member in record.fields or ()]
    if needs_compiler_layout(record):
        # cffi cannot say where an aligned/packed member goes, nor align the
        # record: in API mode the compiler fills in the layout.
        lines.append(indent + "    ...;")
    return head + " {\n" + "\n".join(lines) + "\n" + indent + "}"


def _opaque_storage(size: int, align: int, load: str) -> str:
    """The members of a struct standing for a type of ``size`` and ``align`` cffi cannot name."""
    if load != "dynamic":
        return "...;"  # API mode: the compiler lays it out
    element = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long"}[align]
    return f"{element} _pb_opaque[{size // align}];"


def cdef_enum_body(enum) -> str:
    head = "enum" if enum.tag is None else f"enum {enum.tag}"
    members = ", ".join(f"{m.name} = {m.value}" for m in enum.members)
    return f"{head} {{ {members} }}"


def integer_char(module: Module, target, ctype: CType) -> CType:
    """``ctype``, with plain ``char`` (also through typedefs) spelled ``signed``/``unsigned char``."""
    resolved = module.resolve(ctype)
    if isinstance(resolved, Primitive) and resolved.name == "char":
        return Primitive("signed char" if target.char_signed else "unsigned char", resolved.quals)
    return ctype


def cffi_function_decl(module: Module, target, function, by_symbol: bool = False) -> str:
    """The declaration of ``function`` for the cdef, ``char`` values as integers; ``by_symbol``
    (ABI mode, where cffi looks the name up itself) names it by its symbol, an asm label's."""
    params = tuple(dataclasses.replace(p, type=integer_char(module, target, p.type)) for p in function.params)
    name = function.symbol if by_symbol else function.name
    return dataclasses.replace(function, name=name, params=params,
                               ret=integer_char(module, target, function.ret)).to_c()


@dataclass(frozen=True, slots=True)
class CdefChunk:
    """Declarations passed to one ``ffi.cdef`` call (one ``pack`` value)."""

    text: str
    pack: int | None


def cdef_chunks(binding: BindingModel) -> list[CdefChunk]:
    """The cdef of the binding: forward tags, types in dependency order, then functions."""
    module = binding.module
    gone = excluded(binding)[0]
    pieces: list[tuple[str, int | None | str]] = []  # (text, pack or "any")
    for name in binding.undeclared_types:
        # The compiler's own types (__builtin_va_list): no Python value has one, but a
        # function pointer may take one.  In API mode the compiler gives the size; in ABI
        # mode the target's layout does.
        size_align = builtin_size_align(name, binding.target)
        if size_align is not None:
            pieces.append((f"typedef struct {{ {_opaque_storage(*size_align, binding.load)} }} {name};", "any"))
    for tagged in module.records:
        if tagged.tag is not None and not is_synthetic(tagged.key):
            pieces.append((f"{tagged.kind} {tagged.tag};", "any"))
    untagged = {
        r.key for r in module.records if r.tag is None and not is_synthetic(r.key)
    } | {e.key for e in module.enums if e.tag is None}
    for kind, key in binding.type_order:
        decl = module.get(kind, key)
        if kind == "typedef":
            target = decl.type  # type: ignore[union-attr]
            if key in CFFI_KNOWN_TYPES or unspellable(module, target) is not None:
                continue
            if isinstance(target, RecordRef) and target.tag is None and target.key == key:
                continue  # printed with its record or enum body
            pieces.append((f"typedef {target.to_c(key)};", "any"))
        elif kind == "record":
            record: Record = decl  # type: ignore[assignment]
            if record.is_opaque:
                if record.tag is None and key in untagged:
                    pieces.append((f"typedef {record.kind} {key} {key};", "any"))
                continue
            if record.key in gone:
                continue
            body = cdef_record_body(module, record)
            text = f"typedef {body} {key};" if record.tag is None else body + ";"
            pieces.append((text, 1 if record.packed else record.pack))
        elif kind == "enum":
            if not decl.members:  # type: ignore[union-attr]
                continue
            body = cdef_enum_body(decl)
            typedef = module.get("typedef", key)
            text = f"typedef {body} {key};" if decl.tag is None and typedef is not None else body + ";"  # type: ignore[union-attr]
            pieces.append((text, "any"))
    declared = [f.function for f in binding.functions]
    if binding.function_table is not None:
        declared.append(binding.function_table.getter)  # load() calls it
    called = set(called_functions(binding))
    for function in declared:
        if function.name in called or (binding.function_table is not None
                                       and function is binding.function_table.getter):
            pieces.append((cffi_function_decl(module, binding.target, function, binding.load == "dynamic") + ";",
                           "any"))
    if binding.load != "dynamic":
        pieces.append((f"void {DEFINED_CHECK}(unsigned char *);", "any"))
    chunks: list[CdefChunk] = []
    current: list[str] = []
    pack: int | None | str = "any"
    for text, wanted in pieces:
        if wanted != "any" and pack != "any" and wanted != pack and current:
            chunks.append(CdefChunk("\n".join(current) + "\n", None if pack == "any" else pack))  # type: ignore[arg-type]
            current, pack = [], "any"
        if wanted != "any":
            pack = wanted
        current.append(text)
    if current:
        chunks.append(CdefChunk("\n".join(current) + "\n", None if pack == "any" else pack))  # type: ignore[arg-type]
    return chunks


def c_spelling(ref: RecordRef) -> str:
    """The C type name cffi knows a record by (``struct point``, or the typedef name)."""
    return f"{ref.kind} {ref.tag}" if ref.tag is not None else ref.key


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
        if p.is_input:
            # the count sizes an allocation before cffi sees it: its range first
            hi = self.int_range(p.ctype)[1]
            return f"({name}.__class__ is int and {name} >= 0 and {name} <= {hi})"
        if p.kind == "bool" and p.role.role in ("in", "inout"):
            return f"({name}.__class__ is bool or {name}.__class__ is int)"
        return ""

    @staticmethod
    def integer(name: str) -> str:
        """An int argument as the fast path passes it: an exact int through
        ``operator.index``, or the TypeError that hands it to ``_pb_fix``.
        (``name & -1``, a little cheaper, let through any object whose ``&``
        returns an int, such as NumPy's bool.)"""
        return f"_pb_exact_int({name})"

    def in_arg(self, p: ParamBinding) -> str:
        name = p.py_name
        if p.kind == "handle":
            return f"_NULL if {name} is None else {name}._h"
        if p.kind == "cstring":
            return f"{name} if {name}.__class__ is bytes else _pb_cstr({name}, {arg_label(p)!r})"
        if p.kind == "int":
            return self.integer(name)
        return cffi_arg(self.binding, p)

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
        value = f"_NULL if {name} is None else {name}._h" if p.kind == "handle" else name
        if p.kind == "int":
            value = self.integer(name)
        return [f"{cell} = _pb_alloc({cell_type}, {value})"], cell

    def out_result(self, p: ParamBinding, s: Slot, owner: str) -> str:
        cell = s.cell
        if p.kind == "record":
            return cell
        if p.kind == "handle":
            return f"_pb_handle({self.classes[p.record_key or '']}, {cell}[0], {owner})"
        return f"{cell}[0]"

    def in_array(self, p: ParamBinding, s: Slot) -> list[str]:
        name, a, n = p.py_name, s.arg, s.count
        if p.kind == "buffer":
            array = "None" if p.element is None else self.new_type(self.ctype(p.element) + "[]")
            return [f"{a}, {n} = _pb_bytes_in({name}, {array}, {arg_label(p)!r})"]
        array = self.new_type(self.ctype(p.element) + "[]")  # type: ignore[arg-type]
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
        fill = [*snapshot, f"{a} = _pb_alloc({array}, {items})", f"{n} = len({a})"]
        if p.nonnull:
            return fill
        return [f"if {name} is None:", f"    {a} = _NULL", f"    {n} = 0", "else:", *("    " + line for line in fill)]

    def length_cell(self, p: ParamBinding, s: Slot, measured: str) -> list[str]:
        return [f"{s.length} = _pb_alloc({self.new_type(self.ctype(p.element) + ' *')}, {measured})"]  # type: ignore[arg-type]

    def length_arg(self, p: ParamBinding, s: Slot) -> str:
        return s.length

    def set_length(self, s: Slot, value: str) -> str:
        return f"{s.length}[0] = {value}"

    def get_length(self, s: Slot) -> str:
        return f"{s.length}[0]"

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

    def ret(self, f: FunctionBinding, owner: str) -> list[str]:
        kind, cls = f.ret.kind, self.classes.get(f.ret.record_key or "")
        if kind == "handle":
            return [f"_pb_ret = _pb_handle({cls}, _pb_r, {owner})"]
        if kind == "record":
            return [f"_pb_ret = _pb_view({cls}, _pb_alloc({self.new_type(self.ctype(f.ret.ctype) + ' *')}, "
                    "_pb_r), None)"]
        if kind == "string":
            return ["_pb_ret = None if _pb_r == _NULL else _string(_pb_r)"]
        return ["_pb_ret = _pb_r"]


@dataclass(frozen=True, slots=True)
class RenderedWrapper:
    """One wrapper: its source as a module function and as a Library method."""

    binding: FunctionBinding
    source: str
    method_source: str


def _takes_bytes(binding: BindingModel, element: CType | None) -> bool:
    """Whether cffi accepts ``bytes`` for a pointer to ``element``: the 1-byte character types, not ``_Bool``."""
    resolved = binding.module.resolve(element) if element is not None else None
    return isinstance(resolved, Primitive) and resolved.name in ("char", "signed char", "unsigned char")


def cffi_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for ``param``; cffi checks integer ranges and types itself."""
    name = param.py_name
    size = min_bytes(binding, param)
    label = repr(arg_label(param))
    if param.kind == "buffer":
        call = f"_pb_rbuf({name}, {size}, {label}, {buffer_array_type(binding, param)!r})"
        if size == 0:
            return f"{name} if {name}.__class__ is bytes else {call}"
        if size == 1 and _takes_bytes(binding, param.element):
            # cffi passes bytes to a pointer to 1-byte characters as they are
            # (no from_buffer); b"" still goes to _pb_rbuf for its error
            return f"{name} if {name}.__class__ is bytes and {name} else {call}"
        return call
    if param.kind == "writable_buffer":
        return f"_pb_wbuf({name}, {size}, {label}, {buffer_array_type(binding, param)!r})"
    if param.kind == "record_ptr" and param.nonnull:
        return f"{name}._p"
    if param.kind == "record_ptr":
        return f"_NULL if {name} is None else {name}._p"
    if param.kind == "record":
        return f"{name}._p[0]"
    return name


def render_wrappers(binding: BindingModel, writer: CffiWriter) -> list[RenderedWrapper]:
    """One plan per function of the cdef, in :func:`called_functions` order (the rest is in ``left_out``)."""
    called = set(called_functions(binding))
    return [
        RenderedWrapper(function, writer.wrapper(function, False), writer.wrapper(function, True))
        for function in binding.functions if function.function.name in called
    ]


def left_out(binding: BindingModel) -> list[Diagnostic]:
    """Functions and records the cffi module cannot hold, each with the reason.

    Raises :class:`PegbindError` for records whose layout only the compiler
    knows in ABI mode (``load = "dynamic"``), where no compiler is asked: the
    module could not be imported.
    """
    module = binding.module
    if binding.load == "dynamic":
        unaligned = [r.record for r in binding.records if needs_compiler_layout(r.record)]
        if unaligned:
            raise PegbindError([
                Diagnostic(record.coord, f"{record.key} has an alignment or packing attribute, which cffi's ABI mode "
                                         "(load = \"dynamic\") cannot express: link at build time (API mode), use "
                                         "the Cython or ctypes backend, or exclude it and what uses it (--exclude)",
                                         "error")
                for record in unaligned
            ])
    records, functions = excluded(binding)
    found = [
        Diagnostic(f.function.coord,
                   f"function '{f.function.name}' is not in the cffi module: {functions[f.function.name]}",
                   "warning")
        for f in binding.functions if f.function.name in functions
    ]
    found += [
        Diagnostic(r.coord, f"record '{r.key}' is not in the cffi module: {records[r.key]}", "warning")
        for r in module.records if r.key in records and not is_synthetic(r.key)
    ]
    return found


#: a function of the compiled module (API mode) that says which functions the loaded libraries define
DEFINED_CHECK = "_pegbind_defined"


def called_functions(binding: BindingModel) -> list[str]:
    """The C functions the cdef declares and the wrappers call, in order."""
    left_out_functions = excluded(binding)[1]
    return [f.function.name for f in binding.functions if f.function.name not in left_out_functions]


def c_source(binding: BindingModel) -> str:
    """The C source of the compiled module: the binding's headers, by name, then ``#undef`` of
    the macros that would hide a name the cdef spells (libxml2's member ``xmlParserVersion``),
    and, in API mode, weak references to the functions it calls, with the function that
    tells which of them the libraries loaded at run time define."""
    text = "".join(f'#include "{header}"\n' for header in binding.headers) + undef_lines(binding.module.hiding_macros())
    if binding.load == "dynamic":
        return text
    called = called_functions(binding)
    checks = "".join(f"    defined[{i}] = {name} != 0;\n" for i, name in enumerate(called))
    weak = weak_lines(called) if binding.weak_references else ""
    return text + weak + f"static void {DEFINED_CHECK}(unsigned char *defined)\n{{\n{checks}}}\n"


def record_ref_of(key: str, binding: BindingModel) -> str:
    """The C spelling of the record registered under ``key``."""
    record = binding.module.get("record", key)
    return c_spelling(record.ref) if record is not None else key  # type: ignore[union-attr]


def py_text_block(text: str) -> str:
    """C declarations as a readable triple-quoted literal (``repr`` when that would change them)."""
    if '"""' in text or "\\" in text or text.endswith('"'):
        return repr(text)
    return '"""\\\n' + text + '"""'


FILTERS: dict[str, Callable[..., Any]] = {
    "py_text_block": py_text_block,
    "c_source": c_source,
    "record_ref_of": record_ref_of,
    "py_literal": py_literal,
    "py_docstring": py_docstring,
    "py_string": py_string,
    "py_repr": repr,
    "c_spelling": c_spelling,
    "c_type_text": c_type_text,
    "cffi_member": cffi_member,
}

#: (template, output suffix) pairs, rendered in this order.
OUTPUTS = (
    ("cffi/cffi_build.py.jinja", "_build.py"),
    ("cffi/cffi.py.jinja", ".py"),
)


def context(binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
    """What the cffi templates see."""
    gone = excluded(binding)[0]
    records = [r for r in ordered_records(binding) if r.record.key not in gone]
    classes = {r.record.key: r.py_name for r in records}
    classes.update({h.record.key: h.py_name for h in binding.handles})
    writer = CffiWriter(binding, classes)
    calls = render_wrappers(binding, writer)  # fills writer.types
    table = binding.function_table
    getter = None
    if table is not None:
        getter = {
            "name": table.getter.name,
            "struct": record_ref_of(table.struct_key, binding),
            "returns_table": table.returns_table,
            "success": table.error.success if table.error is not None else None,
        }
    return {
        "binding": binding,
        "banner": banner(binding.headers, __version__),
        "headers": binding.headers,
        "module_name": f"_{binding.name}_cffi",
        "api_mode": binding.load != "dynamic",
        "dynamic": binding.load == "dynamic",
        "table": getter,
        "chunks": cdef_chunks(binding),
        "constants": binding.constants,
        "enums": binding.enums,
        "records": records,
        "fields": field_plans(binding, classes),
        "aliases": [(alias, r.py_name) for r in records for alias in r.aliases]
        + [(alias, h.py_name) for h in binding.handles for alias in h.aliases],
        "classes": classes,
        "calls": calls,
        "defined_check": DEFINED_CHECK,
        "function_aliases": binding.aliases_of(c.binding for c in calls),
        "types": list(writer.types.items()),
        "left_out": left_out(binding),
        "handles": binding.handles,
        "has_errors": binding.errors is not None or any(f.error is not None for f in binding.functions),
        "errors": binding.errors,
    }
