"""Python spellings every backend shares: literals, docstrings, stub annotations, the banner.

Input: model values and function bindings.  Output: strings of Python source
that the Cython, cffi and ctypes modules write alike (a wrapper's docstring and
its annotations are the same text in all three), so that the contract they
share has one spelling.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from .. import __version__
from ..model import Address, Array, CType, Module, Pointer, Primitive
from ..passes.binding import (
    ANY_CELL,
    BindingModel,
    CallbackBinding,
    CallbackValue,
    CellBinding,
    FunctionBinding,
    HandleBinding,
    ParamBinding,
    RecordBinding,
)
from ..passes.callplan import vararg_bits


def py_literal(value: int | float | str | bytes) -> str:
    """A Python literal with exactly ``value`` (computed by the model, never a C expression)."""
    if isinstance(value, bool):
        return repr(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return "float('nan')"
        if math.isinf(value):
            return "float('inf')" if value > 0 else "-float('inf')"
        return repr(value)
    if isinstance(value, (int, str, bytes)):
        return repr(value)
    raise TypeError(f"no Python literal for {value!r}")


_PY_TYPES = {
    "int": "int",
    "bool": "bool",
    "float": "float",
    "complex": "complex",
    "cstring": "str | _Buffer | None",
    "buffer": "_Buffer | Pointer | None",
    "writable_buffer": "_WritableBuffer | Pointer | None",
    "pointer": "Pointer | None",
    "function_pointer": "FunctionPointer | None",
    "string": "bytes | None",
    "bytes": "bytes",
    "void": "None",
}


def py_annotation(kind: str, record_class: str | None = None) -> str:
    """The stub annotation for a value of ``kind`` (record kinds name the class)."""
    if kind == "record":
        return str(record_class)
    if kind in ("record_ptr", "handle"):
        return f"{record_class} | None"
    if kind == "enum":  # the member, or an int for a value that is none
        return f"{record_class} | int" if record_class else "int"
    return _PY_TYPES[kind]


def _not_none(annotation: str, param: ParamBinding) -> str:
    return annotation.removesuffix(" | None") if param.nonnull else annotation


def callable_annotation(cb: CallbackBinding, classes: dict[str, str]) -> str:
    """``Callable[[int, Pointer | None], int]``: the Python callables a function pointer type takes."""
    args = ", ".join(py_annotation(a.kind, classes.get(a.record_key or "")) for a in cb.args)
    return f"Callable[[{args}], {py_annotation(cb.ret.kind, classes.get(cb.ret.record_key or ''))}]"


def param_annotation(param: ParamBinding, classes: dict[str, str]) -> str:
    """The stub annotation of a parameter the caller passes, after its role."""
    cls = classes.get(param.record_key or "")
    if param.role.role == "len":
        return "int"
    if param.role.role == "in-array":
        if param.kind == "buffer":
            element = "_Buffer"
        else:
            element = f"Sequence[{py_annotation(param.kind, cls)}]"
        return element if param.nonnull else f"{element} | None"
    if param.role.role == "inout":
        return py_annotation(param.kind, cls)
    if param.kind == "callback" and param.callback is not None:
        return _not_none(f"{callable_annotation(param.callback, classes)} | FunctionPointer | None", param)
    annotation = py_annotation(param.kind, cls)
    if param.cells:  # before "| Pointer | None"
        named = " | _Cell" if param.cell_tag == ANY_CELL else "".join(f" | {c}" for c in param.cells)
        annotation = annotation.replace(" | Pointer", named + " | Pointer", 1)
    if param.kind in ("buffer", "writable_buffer") and param.pointer_type == "void *":
        # a record's memory too (a handle is a Pointer): mbedtls_ctr_drbg_seed(ctx, f, entropy, ...)
        annotation = annotation.replace(" | Pointer", " | _AnyRecord | Pointer", 1)
    if param.kind == "buffer" and param.text:
        annotation = "str | " + annotation
    return _not_none(annotation, param)


def result_annotation(binding: FunctionBinding, classes: dict[str, str]) -> str:
    """The stub annotation of a wrapper's result: None, one value, or a tuple."""
    parts = []
    if binding.returns_value:
        parts.append(py_annotation(binding.ret.kind, classes.get(binding.ret.record_key or "")))
    for param in binding.outputs:
        value = py_annotation(param.kind, classes.get(param.record_key or ""))
        parts.append(f"list[{value}]" if param.role.role == "out-array" else value)
    if not parts:
        return "None"
    return parts[0] if len(parts) == 1 else f"tuple[{', '.join(parts)}]"


#: what a variadic function's extra arguments may be (DESIGN section 4; the runtime's ``_pb_varargs``)
VARARG_ANNOTATION = "int | float | str | bytes | _Buffer | Pointer | FunctionPointer | _Cell | _Arg | None"


def py_signature(binding: FunctionBinding, classes: dict[str, str], method: bool = False) -> str:
    """``name(a: int, b: bytes | None, /) -> int`` with ``classes`` mapping record key -> class."""
    params = ["self"] if method else []
    params += [f"{p.py_name}: {param_annotation(p, classes)}" for p in binding.inputs]
    if params:
        params.append("/")
    if binding.varargs:
        params.append(f"*{binding.varargs}: {VARARG_ANNOTATION}")
    return f"{binding.py_name}({', '.join(params)}) -> {result_annotation(binding, classes)}"


def docstring(binding: FunctionBinding, classes: dict[str, str]) -> str:
    """The wrapper's docstring: signature, header comment, C prototype."""
    parts = [py_signature(binding, classes)]
    if binding.function.doc.strip():
        parts.append(binding.function.doc.strip())
    parts.append("C: " + binding.function.to_c())
    return "\n\n".join(parts)


def py_docstring(binding: FunctionBinding, classes: dict[str, str]) -> str:
    """The wrapper's docstring as a Python string literal."""
    return repr(docstring(binding, classes))


def cell_arg_doc(cell: CellBinding) -> str:
    """The docstring of a cell class's ``arg()``, the same in every backend."""
    passed = ("as exactly that type" if cell.promoted == cell.primitive
              else f"as C promotes one, as {'an' if cell.promoted == 'int' else 'a'} {cell.promoted}")
    return (f"A C {cell.primitive} among a variadic function's extra arguments: passed {passed} "
            "(a Python int goes as a pointer-wide integer, a float as a double).")


def py_string(text: str) -> str:
    """Any text as a Python string literal."""
    return repr(text)


def banner(headers: tuple[str, ...], version: str) -> str:
    """The first line of every generated file (no timestamp, no build-machine paths)."""
    return f"Generated by pegbind {version} from {', '.join(headers)} — do not edit."


def class_aliases(records: Iterable[RecordBinding], handles: Iterable[HandleBinding]) -> list[tuple[str, str]]:
    """(other name, class name) of each record and handle class with more than one Python name."""
    return [(alias, r.py_name) for r in records for alias in r.aliases] + [
        (alias, h.py_name) for h in handles for alias in h.aliases
    ]


def class_names(binding: BindingModel, records: Iterable[RecordBinding]) -> dict[str, str]:
    """Key -> Python class of every class a wrapper may make or check: the ``records`` a
    backend emits, the handles, and the enums that have an ``IntEnum`` class."""
    classes = {r.record.key: r.py_name for r in records}
    classes.update({h.key: h.py_name for h in binding.handles})
    classes.update({e.enum.key: e.py_name for e in binding.enums if e.py_name is not None})
    return classes


def callback_count(value: CallbackValue, args: list[str]) -> str:
    """How many elements the pointer argument ``value`` of a callback is given with (see
    :attr:`CallbackValue.counted_by`), the callback's arguments spelled ``args``."""
    product = " * ".join(args[i] for i in value.counted_by)
    return product if value.per_element == 1 else f"({product}) // {value.per_element}"


def given_callables(f: FunctionBinding) -> list[tuple[ParamBinding, str, str]]:
    """(parameter, its keeper's Python name or ``None``, the key it is kept under) of each
    callable ``f`` takes: what a wrapper keeps past the next one given when C did not call it
    while the call ran (see the runtime's ``_pb_retain``)."""
    given = []
    for p in f.params:
        if p.kind == "callback" and p.callback is not None:
            keeper = p.callback.keeper
            given.append((p, "None" if keeper is None else f.params[keeper].py_name, f.callback_key(p)))
    return given


def cells_taken(param: ParamBinding) -> str:
    """What a buffer parameter's refusal names as the cells it takes besides buffers: ``cell`` (a
    ``void *`` takes any), the cell classes of its type (``c_uint or c_int`` for a pointer to an
    enum, which takes either), or ``""`` for none."""
    if not param.cells:
        return ""
    return "cell" if param.cell_tag == ANY_CELL else " or ".join(param.cells)


def text_flag(param: ParamBinding) -> str:
    """How a buffer parameter takes a str, as the runtime's ``text`` arguments and specs say it:
    ``False`` (not at all), ``True`` (its UTF-8 bytes, with no NUL: C reads to one), ``2`` (NULs
    too: a length the header states says how many C reads)."""
    if not param.text:
        return "False"
    return "2" if param.counted else "True"


def is_primitive(module: Module, ctype: CType, name: str) -> bool:
    """Whether ``ctype`` is the primitive ``name`` (``char``, ``long double``), through typedefs:
    the types one FFI gives otherwise than the others (cffi: plain ``char`` as ``bytes`` of one,
    ``long double`` as a cdata)."""
    resolved = module.resolve(ctype)
    return isinstance(resolved, Primitive) and resolved.name == name


def text_argument(value: CallbackValue) -> str:
    """The ctypes type of a callback's ``const char *`` argument (``""`` for any other): bytes to
    its NUL (``c_char_p``), or its address where C states its count (see :attr:`CallbackValue.counted_by`)."""
    if value.kind != "string":
        return ""
    return "_ct.c_void_p" if value.counted_by else "_ct.c_char_p"


def unsized_items(ctype: CType) -> bool:
    """Whether ``ctype``, a pointer or an array parameter as written, holds arrays of no stated
    length (``double m[rows][cols]``, adjusted to ``double (*)[cols]``): items neither Cython nor
    cffi can size or declare, passed as the ``void *`` C converts to it."""
    item = ctype.element if isinstance(ctype, Array) else ctype.target if isinstance(ctype, Pointer) else None
    return isinstance(item, Array) and item.length is None


def pointer_constants(binding: BindingModel, made: Callable[[str, str | None, str, int], str]
                      ) -> list[tuple[str, str]]:
    """(Python name, expression) of each constant that is an integer cast to a pointer type
    (SQLITE_TRANSIENT, SIG_IGN, MAP_FAILED), made as a result of that type is: ``made(kind,
    handle key, C type, address)`` spells it in the backend's language (a writer's
    ``made_constant``).  They follow every class they are instances of."""
    made_ones = []
    for c in binding.constants:
        if c.pointer is not None:
            kind, ctype, key = c.pointer
            assert isinstance(c.constant.value, Address)
            made_ones.append((c.py_name, made(kind, key, ctype, c.constant.value.value)))
    return made_ones


def base_context(binding: BindingModel) -> dict[str, Any]:
    """What every backend's templates see: the binding, its values and errors, how it loads its library.

    Each backend's ``context`` adds its own keys to these.
    """
    return {
        "binding": binding,
        "banner": banner(binding.headers, __version__),
        "headers": binding.headers,
        "constants": binding.constants,
        "enums": binding.enums,
        "handles": binding.handles,
        "has_errors": binding.errors is not None or any(f.error is not None for f in binding.functions),
        "errors": binding.errors,
        "dynamic": binding.load == "dynamic",
        # a variadic function's extra arguments: whether there are any, and how wide an int goes
        "variadic": any(f.variadic for f in binding.functions),
        "va_bits": vararg_bits(binding.target),
    }
