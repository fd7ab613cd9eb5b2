"""What every backend's ``.pyi`` says of its module: one stub template, ``python/module.pyi.jinja``.

The three modules have one Python API, so one stub describes each; what differs is
which records and functions a backend could bind (ctypes cannot lay out every
record), given by its context.
"""
from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Iterable
from typing import Any

from ..passes.binding import FieldBinding, FunctionBinding, RecordBinding
from .common import callable_annotation, py_literal, py_signature

#: (template, output suffix) of the stub, in every backend's outputs
STUB_OUTPUT = ("python/module.pyi.jinja", ".pyi")

_FIELD_TYPES = {
    "int": "int", "bool": "bool", "float": "float", "complex": "complex", "char_array": "bytes", "byte_array": "bytes",
    "string": "bytes | None", "data_pointer": "Pointer | None", "function_pointer": "FunctionPointer | None",
    "array_pointer": "Pointer",
}
#: What a field takes where that is not what it reads as (the stub gives it a property).
_FIELD_SETTER_TYPES = {
    "char_array": "_Buffer", "byte_array": "_Buffer", "string": "str | _Buffer | None", "enum": "int",
}


def _item_type(binding: FieldBinding) -> str:
    """The annotation of one item of an arithmetic array field."""
    return binding.element_kind if binding.element_kind in ("float", "complex") else "int"


def field_annotation(binding: FieldBinding, classes: dict[str, str]) -> str:
    """The stub annotation of a record field: what reading it gives."""
    if binding.kind == "record":
        return classes[binding.record_key or ""]
    if binding.kind in ("handle", "record_ptr"):
        return f"{classes[binding.record_key or '']} | None"
    if binding.kind == "enum":
        return f"{classes[binding.record_key or '']} | int"
    if binding.kind == "record_array":
        return f"list[{classes[binding.record_key or '']}]"
    if binding.kind == "array":
        return f"list[{_item_type(binding)}]"
    return _FIELD_TYPES[binding.kind]


def field_setter_annotation(binding: FieldBinding, classes: dict[str, str]) -> str:
    """The stub annotation of what a record field takes (the constructor's keyword, an assignment)."""
    if binding.kind == "record_array":
        return f"Sequence[{classes[binding.record_key or '']}]"
    if binding.kind == "array":
        return f"Sequence[{_item_type(binding)}]"
    if binding.kind == "handle":
        return f"{classes[binding.record_key or '']} | Pointer | None"
    if binding.kind == "data_pointer":
        return ("_WritableBuffer" if binding.needs_writable else "_Buffer") + " | Pointer | None"
    if binding.kind == "function_pointer" and binding.callback is not None:
        return f"{callable_annotation(binding.callback, classes)} | FunctionPointer | None"
    return _FIELD_SETTER_TYPES.get(binding.kind) or field_annotation(binding, classes)


_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_BUILTIN_NAMES = frozenset(dir(builtins))


def class_scope(annotation: str, record: RecordBinding) -> str:
    """``annotation`` as the stub can write it in the class of ``record``, where each field's
    name means the field: a name a field takes is reached from outside the class, a builtin
    as ``builtins.bytes``, one of the module's as ``_pb_stub_<name>`` (see :func:`stub_aliases`)."""
    fields = {f.py_name for f in record.fields}

    def outside(match: re.Match[str]) -> str:
        name = match.group(0)
        if name not in fields:
            return name
        return f"builtins.{name}" if name in _BUILTIN_NAMES else f"_pb_stub_{name}"

    return _NAME.sub(outside, annotation)


def stub_aliases(records: list[RecordBinding], classes: dict[str, str]) -> list[str]:
    """The module's names a field's name hides in a record class of the stub (a field ``item``
    of a class ``item``): each is given a second name, ``_pb_stub_<name>``, that none hides."""
    hidden: set[str] = set()
    for record in records:
        fields = {f.py_name for f in record.fields}
        texts = [record.py_name, "_Buffer"]
        for field in record.fields:
            texts += [field_annotation(field, classes), field_setter_annotation(field, classes)]
        hidden |= {name for text in texts for name in _NAME.findall(text) if name in fields} - _BUILTIN_NAMES
    return sorted(hidden)


def stub_context(records: list[RecordBinding], classes: dict[str, str], functions: Iterable[FunctionBinding]
                 ) -> dict[str, Any]:
    """What the stub template sees besides the base context: the records and functions the
    backend binds (``functions``, the module's; ``records``' classes the template reads as
    ``records``) and the names fields hide."""
    return {"stub_aliases": stub_aliases(records, classes), "stub_functions": list(functions)}


STUB_FILTERS: dict[str, Callable[..., Any]] = {
    "py_literal": py_literal,
    "py_signature": py_signature,
    "field_annotation": field_annotation,
    "field_setter_annotation": field_setter_annotation,
    "class_scope": class_scope,
}
