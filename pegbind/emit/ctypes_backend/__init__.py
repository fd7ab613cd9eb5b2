"""ctypes spelling of the binding model, and what the ``templates/ctypes/`` files see.

Input: a :class:`~pegbind.passes.binding.BindingModel`.  Output: the context
of ``ctypes/ctypes.py.jinja`` — one pure-Python module with a
``Structure``/``Union`` per record placed byte for byte as the
:mod:`pegbind.target` layout says (bitfields as plain storage members, see
:class:`BitAccess`; padding and ``_pack_`` where ctypes would place a member
elsewhere), a user-facing class per bound record, and one wrapper per
function over a ``CFUNCTYPE`` prototype of the symbol: with ``argtypes``, or
with the ``restype`` only where the wrapper hands ctypes nothing but values it
passes exactly as C expects (see :meth:`CtypesWriter.bare_call`).

The package by concern: ``speller`` (model types as ctypes types), ``layout``
(records placed byte for byte), ``writer`` (the wrapper steps of
:mod:`pegbind.passes.callplan` spelled in ctypes, rendered by the renderer it
shares with cffi, :mod:`pegbind.emit.pywrapper`), and here what the template sees.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...config import BindingConfig
from ...model import Primitive
from ...passes.binding import BindingModel
from ..common import base_context, cell_arg_doc, class_names, pointer_constants, py_docstring, py_literal, py_string
from ..pywrapper import classes_context, ordered_records
from ..stubs import STUB_FILTERS, STUB_OUTPUT
from .layout import struct_plans
from .speller import ctypes_attr
from .writer import CtypesWriter, render_wrappers


def link_libraries(config: BindingConfig) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(library names, absolute library folders) a link-time module opens at import.

    The names are searched in the folders first (as the rpath of a compiled
    backend would), then as the system finds them.
    """
    folders = config.library_dirs if config.run_path else ()
    return tuple(config.link), tuple(str(Path(folder).resolve()) for folder in folders)


FILTERS: dict[str, Callable[..., Any]] = {
    **STUB_FILTERS,
    "py_repr": repr,
    "ctypes_attr": ctypes_attr,
    "py_literal": py_literal,
    "py_docstring": py_docstring,
    "py_string": py_string,
    "cell_arg_doc": cell_arg_doc,
}

#: (template, output suffix) pairs, rendered in this order.
OUTPUTS = (("ctypes/ctypes.py.jinja", ".py"), STUB_OUTPUT)


def context(binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
    """What the ctypes template sees."""
    classes = class_names(binding, binding.records)
    structs, speller, left_out = struct_plans(binding)
    records = [r for r in ordered_records(binding) if r.record.key in speller.struct_names]
    writer = CtypesWriter(binding, classes, speller)
    link, folders = link_libraries(config)
    table = binding.function_table
    getter = None
    if table is not None:
        error = table.error
        getter = {
            "name": table.getter.name,
            "struct": speller.struct_names[table.struct_key],
            "returns_table": table.returns_table,
            "restype": speller.spell(table.getter.ret),
            "success": error.success if error is not None else None,
        }
    calls = render_wrappers(binding, writer, left_out)
    return {
        **base_context(binding),
        "structs": structs,
        "bits": {plan.key: {access.path: access for access in plan.bitfields} for plan in structs},
        "struct_names": speller.struct_names,
        **classes_context(binding, records, classes, calls),
        "left_out": left_out,
        "link": link,
        "library_dirs": folders,
        "table": getter,
        "cell_types": {cell.py_name: speller.spell(Primitive(cell.primitive)) for cell in binding.cells},
        # what a cell class's arg() passes: its type as C promotes it among extra arguments
        "cell_arg_types": {cell.py_name: speller.spell(Primitive(cell.promoted)) for cell in binding.cells},
        "callbacks": [source for _, source in writer.class_factories().values()],
        "callback_factories": {key: name for key, (name, _) in writer.callbacks.items()},
        # what a Pointer's elements are read as: a pointer to characters as c_char_p (bytes or None)
        "element_types": {
            e.pointer_type: "_ct.c_char_p" if e.kind == "string" else speller.spell(Primitive(e.primitive))
            for e in binding.pointer_elements if e.kind not in ("record", "handle", "pointer", "array")  # addresses
        },
        "pointer_constants": pointer_constants(binding, writer.made_constant),
        # last: the complex types spelled by everything above
        "complex_classes": sorted(speller.complex_classes.items()),
    }
