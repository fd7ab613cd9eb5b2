"""``pegbind dump``: the model as JSON, the oracle model tests assert on (and the call plans).

Input: a :class:`~pegbind.pipeline.ReadResult`.  Output: a JSON-ready dict
(DESIGN §5) holding only the library's declarations (``Module.is_library``:
the named headers, their folders and the -I folders, not the C library's).
Type spellings are C as written in the header (typedef names kept), with
single spaces (``const char *``).
"""
from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, PegbindError
from .model import Address, Constant, Module, Record, unnamed
from .passes.binding import BindingModel, ParamBinding
from .passes.callplan import Slot
from .pipeline import ReadResult
from .preprocess.includes import NOT_UTF8


def _where(coord) -> dict[str, Any]:
    return {"header": Path(coord.file).name, "line": coord.line} if coord is not None else {}


def _diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    entry: dict[str, Any] = {"severity": d.severity, "message": d.message}
    if d.coord is not None:
        entry = {"file": d.coord.file, "line": d.coord.line, "col": d.coord.col, **entry}
    return entry


def _enum_constants(module: Module, read: ReadResult) -> dict[str, dict[str, Any]]:
    from .target import enum_constant_type

    result: dict[str, dict[str, Any]] = {}
    for enum in module.enums:
        if enum.coord is None or not module.is_library(enum.coord):
            continue
        for member in enum.members:
            result[member.name] = {
                "value": member.value,
                "type": enum_constant_type(module, enum, member.value, read.target),
                "header": _where(member.coord or enum.coord)["header"],
            }
    return result


def _constant_json(constant: Constant) -> dict[str, Any]:
    header = _where(constant.coord).get("header")
    value = constant.value.value if isinstance(constant.value, Address) else constant.value  # the address
    return {"value": value, "type": unnamed(constant.type).to_c(), "header": header}


def _record_json(module: Module, record: Record, read: ReadResult) -> dict[str, Any]:
    from .target import record_layout

    entry: dict[str, Any] = {"kind": record.kind}
    if record.fields is None:
        entry["opaque"] = True
        return entry
    try:
        layout = record_layout(module, record.key, read.target)
    except PegbindError as exc:
        entry["error"] = exc.diagnostics[0].message if exc.diagnostics else str(exc)
        layout = None
    if layout is not None:
        entry["size"] = layout.size
        entry["align"] = layout.align
    fields = []
    for index, field in enumerate(record.fields):
        item: dict[str, Any] = {"name": field.name, "type": unnamed(field.type).to_c()}
        if layout is not None:
            placed = layout.fields[index]
            item["offset"] = placed.offset
            if field.bit_width is not None:
                item["bits"] = field.bit_width
                item["bit_offset"] = placed.bit_offset
        fields.append(item)
    entry["fields"] = fields
    return entry


def dump_model(read: ReadResult) -> dict[str, Any]:
    """The JSON object of DESIGN §5 for one read binding."""
    module = read.module

    def mine(decl) -> bool:
        return decl.coord is not None and module.is_library(decl.coord)

    functions = {
        f.name: {
            "ret": unnamed(f.ret).to_c(),
            "args": [[p.name, unnamed(p.type).to_c()] for p in f.params],
            "variadic": f.variadic,
            **_where(f.coord),
        }
        for f in module.functions
        if mine(f)
    }
    constants: dict[str, Any] = {}
    string_macros: dict[str, Any] = {}
    for constant in module.constants:
        if not mine(constant):
            continue
        if isinstance(constant.value, str):
            string_macros[constant.name] = constant.value
        elif isinstance(constant.value, bytes):
            string_macros[constant.name] = constant.value.decode("latin-1")
        else:
            constants[constant.name] = _constant_json(constant)
    constants.update(_enum_constants(module, read))
    records = {r.key: _record_json(module, r, read) for r in module.records if mine(r)}
    typedefs = {t.name: unnamed(t.type).to_c() for t in module.typedefs if mine(t)}
    variables = {v.name: {"type": unnamed(v.type).to_c(), **_where(v.coord)} for v in module.variables if mine(v)}
    aliases = {a.name: a.target for a in module.function_aliases if mine(a)}
    diagnostics = [
        _diagnostic_json(d)
        for d in (*read.preprocessed.diagnostics, *module.diagnostics)
        if module.is_library(d.coord)
    ]
    result = {
        "target": read.target.name,
        "functions": functions,
        "constants": constants,
        "string_macros": string_macros,
        "records": records,
        "typedefs": typedefs,
        "variables": variables,
        "function_aliases": aliases,
        "diagnostics": diagnostics,
    }
    return result


def json_text(data: object) -> str:
    """``data`` as indented JSON text that is valid UTF-8: a byte a header held that is not
    UTF-8 (a stray byte in a macro's body) is written as its escape
    (``"\\udcff"``), which ``json.loads`` reads back as it was."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return NOT_UTF8.sub(lambda found: f"\\u{ord(found.group()):04x}", text) + "\n"


def dump_json(read: ReadResult) -> str:
    """:func:`dump_model` as indented JSON text (keys in source order)."""
    return json_text(dump_model(read))


def _plan_value(value: Any) -> Any:
    """A call-plan field as JSON: parameters by their Python name, slots and steps field by field."""
    if isinstance(value, ParamBinding):
        return value.py_name
    if is_dataclass(value) and not isinstance(value, type):
        # the kind first; the local names (slots) are left out: each follows from the parameter's index
        names = sorted((f.name for f in fields(value)), key=lambda name: name != "kind")
        return {name: _plan_value(getattr(value, name)) for name in names if not isinstance(getattr(value, name), Slot)}
    if isinstance(value, tuple):
        return [_plan_value(item) for item in value]
    return value


def dump_plans(binding: BindingModel) -> dict[str, Any]:
    """Each bound function's call plan (``pegbind dump --stage plan``): what its wrapper does, step by step."""
    plans: dict[str, Any] = {}
    for f in binding.functions:
        assert f.call is not None, "the plan-calls pass has run"
        entry = _plan_value(f.call)
        del entry["slots"], entry["counted"]  # local names
        plans[f.py_name] = {"c_name": f.function.name, **entry}
    return {"functions": plans, "diagnostics": [_diagnostic_json(d) for d in binding.diagnostics]}
