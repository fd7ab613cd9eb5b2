"""The binding model: what the passes hand to the emitters.

Input: built by :func:`pegbind.passes.run_passes` from a
:class:`~pegbind.model.Module` and a :class:`~pegbind.config.BindingConfig`.
Output: read by ``emit/`` (templates see these values, never the config).

The C declarations stay in :attr:`BindingModel.module` untouched; this layer
adds the Python side: the Python name of each declaration, how each
parameter, return value and record field crosses the language boundary (a
*kind*, backend-neutral, so cffi and ctypes read the same plan), the error
policy per function and the dependency order of type declarations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ..config import ErrorPolicy, ParamRole
from ..diagnostics import Diagnostic
from ..model import CType, Constant, Enum, Function, Module, Record
from ..target import TargetInfo

#: How a value crosses the boundary:
#:
#: * ``int`` / ``bool`` / ``float`` — arithmetic values (enums are ``int``);
#: * ``cstring`` — ``const char *`` in: ``bytes`` or any buffer (copied with a
#:   terminating NUL unless it is ``bytes``), ``None`` for NULL;
#: * ``buffer`` — other ``const`` data pointers: any readable buffer or ``None``;
#: * ``writable_buffer`` — non-``const`` data pointers: a writable buffer or ``None``;
#: * ``record_ptr`` — pointer to a struct/union: an instance of its class or ``None``;
#: * ``record`` — a struct/union by value: an instance of its class;
#: * ``string`` — returned ``char *``: ``bytes`` (``None`` for NULL);
#: * ``void`` — no value (returns only).
ValueKind = Literal[
    "int", "bool", "float", "cstring", "buffer", "writable_buffer", "record_ptr", "record", "string", "void"
]

#: How a record field is presented (see :class:`FieldBinding`).
FieldKind = Literal["int", "bool", "float", "char_array", "byte_array", "array", "record_array", "record", "string", "pointer"]


@dataclass(frozen=True, slots=True)
class ParamBinding:
    """One C parameter and how the Python caller supplies it."""

    index: int  #: position in the C parameter list
    c_name: str | None  #: the name in the header (None when unnamed)
    py_name: str  #: the Python parameter name (keywords renamed, ``argN`` when unnamed)
    ctype: CType  #: the declared C type
    role: ParamRole  #: ``in`` unless a config rule says otherwise
    kind: ValueKind
    #: registry key of the record for ``record``/``record_ptr``
    record_key: str | None = None
    #: the pointed-to type for buffer kinds (None for ``void``): the wrapper
    #: checks the buffer holds at least one element of it
    element: CType | None = None


@dataclass(frozen=True, slots=True)
class ReturnBinding:
    ctype: CType
    kind: ValueKind
    record_key: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorCheck:
    """The error policy as it applies to one function: raise unless ``ret == success``."""

    policy: ErrorPolicy
    success: int  #: the success value, resolved from a constant name when needed


@dataclass(frozen=True, slots=True)
class FunctionBinding:
    """A wrapped function: the C declaration plus its Python face."""

    function: Function
    py_name: str
    params: tuple[ParamBinding, ...]
    ret: ReturnBinding
    error: ErrorCheck | None = None
    release_gil: bool = False

    @property
    def inputs(self) -> tuple[ParamBinding, ...]:
        """The parameters the Python caller passes, in order."""
        return tuple(p for p in self.params if p.role.role in ("in", "inout", "in-array"))


@dataclass(frozen=True, slots=True)
class FieldBinding:
    """A record member visible from Python.

    ``path`` is the C member name; members of anonymous struct/union members
    are lifted into their parent (C11 6.7.2.1p13 lets C name them directly).
    """

    path: str
    py_name: str
    ctype: CType  #: the declared type
    kind: FieldKind
    record_key: str | None = None  #: for ``record`` / ``record_array``
    length: int | None = None  #: array length
    element: CType | None = None  #: array element type
    element_kind: str | None = None  #: ``int``/``bool``/``float`` for arithmetic arrays
    bit_width: int | None = None
    #: inclusive range accepted on assignment for bitfields (None: the C type's range)
    bit_range: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class RecordBinding:
    """A struct/union with a Python class."""

    record: Record
    py_name: str
    aliases: tuple[str, ...]  #: other Python names bound to the same class (typedef or tag)
    #: accessible members (lifted from anonymous members); also what backends declare
    fields: tuple[FieldBinding, ...]


@dataclass(frozen=True, slots=True)
class EnumBinding:
    enum: Enum
    py_name: str | None  #: the IntEnum class name (None for an untagged, untypedef'd enum)
    members: tuple[tuple[str, int], ...]  #: (Python name, value)


@dataclass(frozen=True, slots=True)
class ConstantBinding:
    constant: Constant
    py_name: str


@dataclass(frozen=True, slots=True)
class BindingModel:
    """The module after the passes, ready for an emitter."""

    name: str  #: Python module name
    module: Module  #: the selected C declarations (plus the types they need)
    target: TargetInfo
    headers: tuple[str, ...]  #: header names as the generated code includes them
    functions: tuple[FunctionBinding, ...]
    records: tuple[RecordBinding, ...]
    enums: tuple[EnumBinding, ...]
    constants: tuple[ConstantBinding, ...]
    #: ("typedef" | "record" | "enum", key) in an order where each comes after what it needs
    type_order: tuple[tuple[str, str], ...]
    #: record key -> layout from :func:`pegbind.target.record_layout` (empty when unavailable)
    layouts: Mapping[str, Any] = field(default_factory=dict)
    #: functions declared to the C side but given no Python wrapper (variadic ...)
    declared_only: tuple[Function, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    def record_binding(self, key: str) -> RecordBinding | None:
        for binding in self.records:
            if binding.record.key == key:
                return binding
        return None
