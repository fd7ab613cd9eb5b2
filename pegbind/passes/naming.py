"""Pass ``name``: the Python name of every bound declaration.

Input: the selected Module and the config (``strip_prefix``).  Output: a
mapping ``(kind, C name or key) -> Python name`` plus warnings for names
that had to change to stay unique.  Names that are Python or Cython
keywords, or that would shadow a Python builtin, get a trailing ``_``
(``lambda`` -> ``lambda_``) so the generated module compiles and ``open``
still means the builtin inside it.
"""
from __future__ import annotations

import builtins
import keyword

from ..diagnostics import Diagnostic
from ..model import Enum, Module, Primitive, Record, RecordRef
from .binding import MODULE_NAMES
from .select import is_synthetic

#: Words Cython reserves on top of Python's keywords, and its type names
#: (a parameter called ``char`` would parse as a type).
CYTHON_RESERVED = frozenset(
    """cdef cpdef ctypedef cimport struct union enum extern include inline public api readonly
    nogil gil sizeof NULL DEF IF ELIF ELSE by except const volatile fused new operator
    char short long double unsigned signed void bint Py_ssize_t Py_hash_t Py_UCS4 Py_UNICODE
    size_t ssize_t ptrdiff_t complex object""".split()
)
_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_"))


def python_identifier(name: str) -> str:
    """``name`` made safe as a Python/Cython identifier: reserved words get a trailing ``_``."""
    while keyword.iskeyword(name) or name in CYTHON_RESERVED or name in _BUILTINS:
        name += "_"
    return name


def field_identifier(name: str) -> str:
    """Like :func:`python_identifier`, but attributes may shadow builtins (``obj.type`` is fine)."""
    while keyword.iskeyword(name) or name in CYTHON_RESERVED:
        name += "_"
    return name


def _strip(name: str, prefix: str) -> str:
    if prefix and name.startswith(prefix):
        rest = name[len(prefix):]
        if rest.isidentifier():
            return rest
    return name


def record_class_names(module: Module, decl: Record | Enum) -> list[str]:
    """The C names a record/enum goes by, preferred first: typedefs naming it, then its tag."""
    names = [
        t.name
        for t in module.typedefs
        if isinstance(t.type, RecordRef) and not t.type.quals and t.type.key == decl.key
    ]
    if decl.tag is not None:
        names.append(decl.tag)
    elif not is_synthetic(decl.key) and decl.key not in names:
        names.append(decl.key)
    return names


def assign_names(
    module: Module, strip_prefix: str
) -> tuple[dict[tuple[str, str], str], list[tuple[tuple[str, str], Diagnostic]]]:
    """Python names for functions, records, enums, enum members and constants.

    Keys are ``("function", name)``, ``("record", key)``, ``("enum", key)``,
    ``("member", name)``, ``("constant", name)``, ``("function_alias", name)``
    and ``("alias", C name)`` for the extra names of a record or enum class.  Opaque records get a
    ``("record", key)`` name as well: the name of their handle class; so does a
    typedef of ``void``, as ``("handle", typedef name)``.
    """
    names: dict[tuple[str, str], str] = {}
    # The module's own names (load, Library, Error ...) are never given away.
    taken: set[str] = set(MODULE_NAMES)
    warnings: list[tuple[tuple[str, str], Diagnostic]] = []  # (the declaration's key, the warning)

    def claim(key: tuple[str, str], c_name: str, coord) -> str:
        wanted = python_identifier(_strip(c_name, strip_prefix))
        name = wanted
        if name in taken:
            name = python_identifier(c_name)
        while name in taken:
            name += "_"
        if name != wanted:
            warnings.append(
                (key, Diagnostic(coord, f"{key[0]} {c_name!r} is bound as {name!r}: {wanted!r} is already used",
                                 "warning"))
            )
        taken.add(name)
        names[key] = name
        return name

    # Functions first: they are what users call, so they keep the plain names;
    # then the names C callers use for them (zlib's gzopen for gzopen64).
    for function in module.functions:
        claim(("function", function.name), function.name, function.coord)
    for other_name in module.function_aliases:
        claim(("function_alias", other_name.name), other_name.name, other_name.coord)
    for kind, decls in (("record", module.records), ("enum", module.enums)):
        for decl in decls:
            # opaque records are named too: their handle class takes the name
            c_names = record_class_names(module, decl)
            if not c_names:
                continue
            claim((kind, decl.key), c_names[0], decl.coord)
            for alias in c_names[1:]:
                python = python_identifier(_strip(alias, strip_prefix))
                if python not in taken:
                    taken.add(python)
                    names[("alias", alias)] = python
    # A typedef of void names an opaque type (libcurl's ``typedef void CURL``): its handle class
    for typedef in module.typedefs:
        if isinstance(typedef.type, Primitive) and typedef.type.is_void:
            claim(("handle", typedef.name), typedef.name, typedef.coord)
    for enum in module.enums:
        for member in enum.members:
            claim(("member", member.name), member.name, member.coord)
    for constant in module.constants:
        claim(("constant", constant.name), constant.name, constant.coord)
    return names, warnings
