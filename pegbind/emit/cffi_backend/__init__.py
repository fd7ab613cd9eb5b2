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

The package by concern: ``cdef`` (the C side: declarations, source, what is
left out), ``writer`` (the wrapper steps of :mod:`pegbind.passes.callplan`
spelled in cffi, rendered by the renderer it shares with ctypes,
:mod:`pegbind.emit.pywrapper`, so the two Python backends cannot drift
apart), and here what the templates see.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...backends import cffi_module_name
from ...config import BindingConfig
from ...passes.binding import BindingModel
from ..common import base_context, cell_arg_doc, class_names, pointer_constants, py_docstring, py_literal, py_string
from ..pywrapper import cffi_member, classes_context, ordered_records
from ..stubs import STUB_FILTERS, STUB_OUTPUT
from .cdef import (
    DEFINED_CHECK,
    c_source,
    c_spelling,
    called_functions,
    cdef_chunks,
    cffi_ctype,
    excluded,
    left_out,
    record_ref_of,
)
from .writer import CffiWriter, render_wrappers


def py_text_block(text: str) -> str:
    """C declarations as a readable triple-quoted literal (``repr`` when that would change them)."""
    if '"""' in text or "\\" in text or text.endswith('"'):
        return repr(text)
    return '"""\\\n' + text + '"""'


FILTERS: dict[str, Callable[..., Any]] = {
    **STUB_FILTERS,
    "py_text_block": py_text_block,
    "record_ref_of": record_ref_of,
    "py_literal": py_literal,
    "py_docstring": py_docstring,
    "py_string": py_string,
    "cell_arg_doc": cell_arg_doc,
    "py_repr": repr,
    "c_spelling": c_spelling,
    "cffi_member": cffi_member,
    "cffi_ctype": cffi_ctype,
}

#: (template, output suffix) pairs, rendered in this order.
OUTPUTS = (
    ("cffi/cffi_build.py.jinja", "_build.py"),
    ("cffi/cffi.py.jinja", ".py"),
    STUB_OUTPUT,
)


def context(binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
    """What the cffi templates see."""
    gone = excluded(binding)
    records = [r for r in ordered_records(binding) if r.record.key not in gone[0]]
    classes = class_names(binding, records)
    called = called_functions(binding, gone)
    calls, types, callbacks = render_wrappers(binding, classes, called)
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
        **base_context(binding),
        "module_name": cffi_module_name(binding.name),
        "api_mode": binding.load != "dynamic",
        "table": getter,
        "chunks": cdef_chunks(binding, gone),
        "c_source": c_source(binding, called),
        **classes_context(binding, records, classes, calls),
        "defined_check": DEFINED_CHECK,
        "types": types,
        "callbacks": [source for _, source in callbacks.values()],
        "callback_factories": {key: name for key, (name, _) in callbacks.items()},
        "left_out": left_out(binding, gone),
        "pointer_constants": pointer_constants(binding, CffiWriter(binding, classes).made_constant),
    }
