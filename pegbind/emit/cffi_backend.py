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

Argument specs, field plans and integer ranges come from the ctypes backend's
module so the two dynamic backends cannot drift apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import __version__
from ..model import Array, CType, Field, FunctionType, Module, Pointer, Primitive, Record, RecordRef, TypedefRef
from ..config import BindingConfig
from ..passes.binding import BindingModel, FunctionBinding, ParamBinding
from ..passes.select import is_synthetic
from .ctypes_backend import arg_label, arg_spec, element_size, field_plans, link_spec, ordered_records, wrappable
from .cython import banner, py_docstring, py_literal, py_string

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


def _mentions_unspellable(module: Module, ctype: CType, seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``ctype`` needs a type cffi's parser cannot read (``__int128``)."""
    if isinstance(ctype, Primitive):
        return ctype.name in _UNSPELLABLE
    if isinstance(ctype, TypedefRef):
        typedef = module.get("typedef", ctype.name)
        if typedef is None:  # a compiler builtin (__builtin_va_list) unless cffi knows it
            return ctype.name not in CFFI_KNOWN_TYPES
        if ctype.name in seen:
            return False
        return _mentions_unspellable(module, typedef.type, seen | {ctype.name})  # type: ignore[union-attr]
    if isinstance(ctype, (Pointer, Array)):
        return _mentions_unspellable(module, ctype.target if isinstance(ctype, Pointer) else ctype.element, seen)
    if isinstance(ctype, FunctionType):
        return any(_mentions_unspellable(module, t, seen) for t in (ctype.ret, *(p.type for p in ctype.params)))
    return False


def cdef_field(module: Module, member: Field, indent: str = "    ") -> str:
    """One member line; an anonymous struct/union member prints its body in place."""
    text = member.to_c()
    for record in module.records:
        # an anonymous record type has no name: its body goes where the key was printed
        if is_synthetic(record.key) and record.key in text:
            text = text.replace(record.key, cdef_record_body(module, record, indent))
    return indent + text


def cdef_record_body(module: Module, record: Record, indent: str = "") -> str:
    """``struct TAG { ... }`` (tag omitted when untagged), members one per line."""
    head = record.kind if record.tag is None else f"{record.kind} {record.tag}"
    lines = [cdef_field(module, member, indent + "    ") for member in record.fields or ()]
    if any(member.aligned is not None or member.packed for member in record.fields or ()):
        # cffi cannot say where an aligned/packed member goes: in API mode the
        # compiler fills in the layout.
        lines.append(indent + "    ...;")
    return head + " {\n" + "\n".join(lines) + "\n" + indent + "}"


def cdef_enum_body(enum) -> str:
    head = "enum" if enum.tag is None else f"enum {enum.tag}"
    members = ", ".join(f"{m.name} = {m.value}" for m in enum.members)
    return f"{head} {{ {members} }}"


@dataclass(frozen=True, slots=True)
class CdefChunk:
    """Declarations passed to one ``ffi.cdef`` call (one ``pack`` value)."""

    text: str
    pack: int | None


def cdef_chunks(binding: BindingModel) -> list[CdefChunk]:
    """The cdef of the binding: forward tags, types in dependency order, then functions."""
    module = binding.module
    pieces: list[tuple[str, int | None | str]] = []  # (text, pack or "any")
    for record in module.records:
        if record.tag is not None and not is_synthetic(record.key):
            pieces.append((f"{record.kind} {record.tag};", "any"))
    untagged = {
        r.key for r in module.records if r.tag is None and not is_synthetic(r.key)
    } | {e.key for e in module.enums if e.tag is None}
    for kind, key in binding.type_order:
        decl = module.get(kind, key)
        if kind == "typedef":
            target = decl.type  # type: ignore[union-attr]
            if key in CFFI_KNOWN_TYPES or _mentions_unspellable(module, target):
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
            if any(_mentions_unspellable(module, m.type) for m in record.fields or ()):
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
    for function in binding.functions:
        if not _mentions_unspellable(module, function.function.type) and wrappable(binding, function):
            pieces.append((function.function.to_c(), "any"))
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
    target = resolved.target if isinstance(resolved, Pointer) else resolved.element if isinstance(resolved, Array) else None
    if target is None or (isinstance(module.resolve(target), Primitive) and module.resolve(target).is_void):  # type: ignore[union-attr]
        return "char[]"
    return target.unqualified().to_c() + "[]"


@dataclass(frozen=True, slots=True)
class CallPlan:
    binding: FunctionBinding
    args: tuple[str, ...]
    specs: str


def cffi_arg(binding: BindingModel, param: ParamBinding) -> str:
    """What the fast path passes for ``param``; cffi checks integer ranges and types itself."""
    name = param.py_name
    size = element_size(binding.module, binding.target, param.element)
    label = repr(arg_label(param))
    # A nonnull parameter's None is swapped for a non-buffer, so the helper
    # fails and the slow path says "must not be None".
    value = f"({name} if {name} is not None else _MISSING)" if param.nonnull else name
    if param.kind == "buffer":
        call = f"_pb_rbuf({value}, {size}, {label}, {buffer_array_type(binding, param)!r})"
        return f"{name} if {name}.__class__ is bytes else {call}" if size == 0 else call
    if param.kind == "writable_buffer":
        return f"_pb_wbuf({value}, {size}, {label}, {buffer_array_type(binding, param)!r})"
    if param.kind == "record_ptr" and param.nonnull:
        return f"{name}._p"
    if param.kind == "record_ptr":
        return f"_NULL if {name} is None else {name}._p"
    if param.kind == "record":
        return f"{name}._p[0]"
    return name


def call_plans(binding: BindingModel, classes: dict[str, str]) -> list[CallPlan]:
    plans = []
    for function in binding.functions:
        if _mentions_unspellable(binding.module, function.function.type) or not wrappable(binding, function):
            continue
        specs = ", ".join(arg_spec(binding, classes, p) for p in function.inputs)
        plans.append(CallPlan(
            function, tuple(cffi_arg(binding, p) for p in function.params), f"({specs},)" if specs else "()",
        ))
    return plans


def include_lines(headers: tuple[str, ...]) -> str:
    """The C source of the compiled module: the binding's headers, by name."""
    return "".join(f'#include "{header}"\n' for header in headers)


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
    "include_lines": include_lines,
    "record_ref_of": record_ref_of,
    "py_literal": py_literal,
    "py_docstring": py_docstring,
    "py_string": py_string,
    "py_repr": repr,
    "c_spelling": c_spelling,
}

#: (template, output suffix) pairs, rendered in this order.
OUTPUTS = (
    ("cffi/cffi_build.py.jinja", "_build.py"),
    ("cffi/cffi.py.jinja", ".py"),
)


def context(binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
    """What the cffi templates see."""
    classes = {r.record.key: r.py_name for r in binding.records}
    records = ordered_records(binding)
    link, folders = link_spec(binding)
    api_mode = getattr(binding, "load", "link") != "dynamic"
    return {
        "binding": binding,
        "banner": banner(binding.headers, __version__),
        "headers": binding.headers,
        "module_name": f"_{binding.name}_cffi",
        "api_mode": api_mode,
        "chunks": cdef_chunks(binding),
        "constants": binding.constants,
        "enums": binding.enums,
        "records": records,
        "fields": field_plans(binding, classes),
        "aliases": [(alias, r.py_name) for r in records for alias in r.aliases],
        "classes": classes,
        "calls": call_plans(binding, classes),
        "link": link,
        "library_dirs": folders,
        "has_errors": any(f.error is not None for f in binding.functions),
    }
