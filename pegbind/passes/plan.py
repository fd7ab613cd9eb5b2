"""Passes ``plan-functions`` and ``plan-records``: how each value crosses the boundary.

Input: the selected Module, the Python names and the config's per-function
rules (parameter roles, GIL release, error policy, nonnull) and loading
settings.  Output: :class:`~pegbind.passes.binding.FunctionBinding` and
:class:`~pegbind.passes.binding.RecordBinding` values, and a diagnostic for
every function or field left out, saying why.  The classification is
backend-neutral: every backend reads the same *kind* for a parameter.
"""
from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Literal

from ..config import BindingConfig, ParamRole
from ..diagnostics import ConfigError, Coord, Diagnostic
from ..frozen import frozen_dataclass, replace
from ..model import (
    COMPLEX_PARTS,
    Array,
    CType,
    Field,
    Function,
    FunctionType,
    Module,
    Param,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    Type,
    TypedefRef,
    as_type,
    assert_never,
    canonical_type,
    unnamed,
)
from ..patterns import compiled
from ..target import LayoutError, TargetInfo, bit_range, integer_primitive, integer_range, size_align
from .binding import (
    ANY_CELL,
    CELL_ALIASES,
    CELL_TYPES,
    ENUM_CELL,
    MODULE_NAMES,
    CallbackBinding,
    CallbackValue,
    CellBinding,
    Deallocator,
    ErrorCheck,
    ErrorClasses,
    FieldBinding,
    FunctionBinding,
    FunctionTableBinding,
    HandleBinding,
    ParamBinding,
    PointerElements,
    RecordBinding,
    ReturnBinding,
)
from .callplan import element_size
from .naming import field_identifier, python_identifier

if TYPE_CHECKING:  # what the build found of the linked libraries; passes read no binaries
    from ..exports import Exports

_CHARS = ("char", "signed char", "unsigned char")
_POINTER_KINDS = ("cstring", "buffer", "writable_buffer", "record_ptr", "handle", "pointer", "callback")
#: Roles that take a length parameter, and the element kinds each accepts.
_SEQUENCE_ROLES = ("in-array", "out-array", "out-bytes")


class Unsupported(Exception):
    """A type has no default Python conversion; the message says which and why."""


def _arithmetic(resolved: CType) -> str | None:
    """``int``/``bool``/``float``/``complex`` for an arithmetic type (enums are ``int``), else None."""
    if isinstance(resolved, RecordRef) and resolved.kind == "enum":
        return "int"
    if isinstance(resolved, Primitive):
        if resolved.name in ("void", "__int128", "unsigned __int128"):
            return None
        if resolved.name == "_Bool":
            return "bool"
        if resolved.is_complex:
            return "complex"
        return "float" if resolved.is_floating else "int"
    return None


def _has_class(module: Module, names: dict, ref: RecordRef) -> bool:
    record = module.find_record(ref.key)
    return record is not None and not record.is_opaque and ("record", ref.key) in names


def opaque_key(module: Module, names: dict, target: CType) -> str | None:
    """The handle class key of a pointed-to type with no layout, else None.

    That is an incomplete struct/union with a Python name (its record key), or
    a typedef of ``void`` (``typedef void CURL``: the typedef's name, the
    innermost one of a chain of typedefs).
    """
    for name, inner in _typedef_chain(module, target):
        if isinstance(inner, Primitive) and inner.is_void and ("handle", name) in names:
            return name
    resolved = module.resolve(target)
    if isinstance(resolved, RecordRef) and resolved.kind != "enum":
        record = module.find_record(resolved.key)
        if record is not None and record.is_opaque and ("record", resolved.key) in names:
            return resolved.key
    return None


def pointer_handle_key(module: Module, names: dict, ctype: CType) -> str | None:
    """The name of the typedef of ``void *`` with a handle class (one the library hands out, see
    :func:`~pegbind.passes.naming.assign_names`) that ``ctype`` is spelled by, directly or
    through typedefs of it (``tjhandle handle``), else None."""
    for name, inner in _typedef_chain(module, ctype):
        if isinstance(inner, Pointer) and ("handle", name) in names:
            return name
    return None


def _typedef_chain(module: Module, ctype: CType) -> Iterator[tuple[str, CType]]:
    """(name, the type it stands for) of each typedef ``ctype`` is spelled by, outermost first,
    up to the first that is not a typedef's name or that no header declares."""
    current = as_type(ctype)
    seen: set[str] = set()
    while isinstance(current, TypedefRef) and current.name not in seen:
        seen.add(current.name)
        typedef = module.find_typedef(current.name)
        if typedef is None:
            return
        current = as_type(typedef.type)
        yield typedef.name, current


def handle_key(module: Module, names: dict, ctype: CType) -> str | None:
    """The handle class key when ``ctype`` points to an opaque type with a handle class."""
    key = pointer_handle_key(module, names, ctype)
    if key is not None:
        return key
    resolved = module.resolve(ctype)
    if not isinstance(resolved, Pointer):
        return None
    return opaque_key(module, names, resolved.target)


def pointer_type(module: Module, ctype: CType) -> str:
    """The C text of a pointer type with every typedef resolved: what a ``Pointer`` object is typed by."""
    return module.canonical(ctype).to_c()


def function_pointer_type(module: Module, ctype: CType) -> str:
    """The C text of a function pointer type that a ``FunctionPointer`` of it goes by, and a
    parameter, member or callback class of that type compares one with: every typedef resolved
    and parameter names dropped, as :func:`pointer_type`, but the qualifiers in its parameters
    kept, as they tell function types apart (``int (*)(const char *)`` is not
    ``int (*)(char *)``) and messages name them."""
    return canonical_type(module.resolve(ctype).unqualified(), module.resolve).to_c()


def _pointee(module: Module, ctype: CType) -> CType | None:
    """The pointed-to type of a pointer (or adjusted array) parameter, else None."""
    resolved = module.resolve(ctype)
    adjusted = adjusted_array(module, ctype)
    if adjusted is not None:
        return adjusted[0].target
    if isinstance(resolved, Pointer):
        return resolved.target
    return None


def _is_bytes_element(module: Module, element: CType) -> bool:
    resolved = module.resolve(element)
    return isinstance(resolved, Primitive) and (resolved.name in _CHARS or resolved.is_void)


def is_character(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` is one of C's character types (``char``, ``signed char``, ``unsigned char``)."""
    resolved = module.resolve(ctype)
    return isinstance(resolved, Primitive) and resolved.name in _CHARS


def adjusted_array(module: Module, ctype: CType) -> tuple[Pointer, int | None] | None:
    """For a parameter declared as an array, directly or through a typedef: the pointer C passes
    instead (C11 6.7.6.3p7), the array's qualifiers on its element, and the declared length."""
    resolved = module.resolve(ctype)
    if not isinstance(resolved, Array):
        return None
    element = resolved.element.with_quals(*resolved.quals) if resolved.quals else resolved.element
    return Pointer(element), resolved.length


def _enum_key(module: Module, names: dict, resolved: CType) -> str | None:
    """The key of an enum type that has an ``IntEnum`` class, else None."""
    if isinstance(resolved, RecordRef) and resolved.kind == "enum" and ("enum", resolved.key) in names:
        return resolved.key
    return None


def _pointer_value(module: Module, names: dict, ctype: CType, what: str) -> tuple[str, str | None]:
    """(kind, key) of a pointer value C gives back: a return, or the cell of a ``T **`` out parameter."""
    key = handle_key(module, names, ctype)
    pointer = module.resolve(ctype)
    assert isinstance(pointer, Pointer)
    if key is not None:
        return "handle", key
    target = module.resolve(pointer.target)
    if isinstance(target, FunctionType):
        raise Unsupported(f"{what} {pointer.to_c()} has no default Python conversion")
    if isinstance(target, Primitive) and target.name in _CHARS and not octets(module, pointer.target):
        return "string", None
    if isinstance(target, RecordRef) and target.kind != "enum" and _has_class(module, names, target):
        return "record_ptr", target.key
    return "pointer", None


#: the names C gives bytes that are data, not characters (<stdint.h>'s, and glibc's beneath them)
_OCTET_TYPES = frozenset({"uint8_t", "int8_t", "__uint8_t", "__int8_t", "u_int8_t"})


def octets(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` is spelled, through its typedefs, as ``uint8_t`` or ``int8_t``: bytes of
    data (libwebp's ``uint8_t *`` it encodes into), which C reads by a length, not to a NUL as
    the character types (``char``, libxml2's ``xmlChar``) it otherwise is."""
    return any(name in _OCTET_TYPES for name, _ in _typedef_chain(module, ctype))


def pointer_item(module: Module, names: dict, item: CType) -> tuple[str, str | None] | None:
    """(kind, key) of one item of an array of pointers C reads, ``item`` being the pointer
    type (``char *`` of ``char *const argv[]``), or None for an item no list takes.

    A pointer to ``char`` is a C string (``cstring``: str, bytes or None), whatever
    its constness, as ``argv`` is; a pointer to other writable bytes or numbers is a
    buffer C may write into (``writable_buffer``: libpng's and libjpeg's rows); a
    pointer to a record with a class or an opaque type is that record's object
    (``record_ptr``) or handle (``handle``).
    """
    pointer = module.resolve(item)
    if not isinstance(pointer, Pointer):
        return None
    key = handle_key(module, names, item)
    if key is not None:
        return "handle", key
    target = module.resolve(pointer.target)
    if isinstance(target, RecordRef) and target.kind != "enum" and _has_class(module, names, target):
        return "record_ptr", target.key
    if isinstance(target, Primitive) and target.name == "char":
        return "cstring", None
    if isinstance(target, Primitive) and not target.is_const and (target.is_void or _arithmetic(target) is not None):
        return "writable_buffer", None
    return None


#: the standard headers that declare a type name a header may use without including them, as
#: gcc names them in its note ("'size_t' is defined in header '<stddef.h>'")
_STANDARD_TYPES = {
    **dict.fromkeys(("size_t", "ptrdiff_t", "wchar_t", "max_align_t"), "stddef.h"),
    **dict.fromkeys(("FILE", "fpos_t"), "stdio.h"),
    "va_list": "stdarg.h",
    "bool": "stdbool.h",
    **dict.fromkeys([f"{u}int{kind}{bits}_t" for u in ("", "u") for kind in ("", "_least", "_fast")
                     for bits in (8, 16, 32, 64)] + ["intptr_t", "uintptr_t", "intmax_t", "uintmax_t"], "stdint.h"),
    **dict.fromkeys(("time_t", "clock_t"), "time.h"),
    **dict.fromkeys(("ssize_t", "off_t", "pid_t", "mode_t", "uid_t", "gid_t"), "sys/types.h"),
    **dict.fromkeys(("wint_t", "mbstate_t"), "wchar.h"),
    "jmp_buf": "setjmp.h",
    "sig_atomic_t": "signal.h",
}


def _unconvertible(module: Module, ctype: CType, why: str) -> Unsupported:
    """Why ``ctype`` has no conversion: ``why``, or that no header read declares its name
    (jpeglib.h read without the <stdio.h> it expects first names size_t and FILE; gcc stops
    there too), and, for a standard type, the header to read first.  The compiler's own types
    (``__builtin_va_list``) are no such names."""
    resolved = module.resolve(ctype)
    if isinstance(resolved, TypedefRef) and not resolved.name.startswith("__builtin_"):
        header = _STANDARD_TYPES.get(resolved.name)
        hint = f"; <{header}> does: read it first with --include-first {header} (config key: include_first)" \
            if header else ""
        return Unsupported(f"unknown type name '{resolved.name}' (no header read declares it{hint})")
    return Unsupported(why)


def adjusted_parameter(module: Module, ctype: CType) -> CType:
    """A parameter's type as C adjusts it: an array to a pointer to its element (see
    :func:`adjusted_array`), a function to a pointer to the function (C11 6.7.6.3p7-8:
    Z3's ``Z3_error_handler h``, a typedef of a function type); else ``ctype``."""
    adjusted = adjusted_array(module, ctype)
    if adjusted is not None:
        return adjusted[0]
    return Pointer(ctype) if isinstance(module.resolve(ctype), FunctionType) else ctype


def classify_param(module: Module, names: dict, ctype: CType) -> tuple[str, str | None, CType | None]:
    """(kind, record key, buffer element) for a parameter of the ``in`` role."""
    resolved = module.resolve(adjusted_parameter(module, ctype))
    kind = _arithmetic(resolved)
    if kind is not None:
        return kind, None, None
    if isinstance(resolved, RecordRef) and resolved.kind != "enum":
        if _has_class(module, names, resolved):
            return "record", resolved.key, None
        raise Unsupported(f"{resolved.to_c()} is opaque or has no class")
    if isinstance(resolved, Pointer):
        key = handle_key(module, names, ctype)
        if key is not None:
            return "handle", key, None
        target = module.resolve(resolved.target)
        if isinstance(target, FunctionType):
            return "callback", None, target  # planned by plan_callback
        if isinstance(target, RecordRef) and target.kind != "enum" and _has_class(module, names, target):
            return "record_ptr", target.key, None
        if isinstance(target, Primitive) and target.name == "char" and target.is_const:
            return "cstring", None, target
        if isinstance(target, Primitive) and target.is_void:
            return ("buffer" if target.is_const else "writable_buffer"), None, None
        if _arithmetic(target) is not None:
            return ("buffer" if target.is_const else "writable_buffer"), None, target
        inner, complete = _innermost(module, target)
        if inner is not target and _arithmetic(inner) is not None and complete:
            # a pointer to arrays of numbers (FFTW's fftw_complex *, of typedef double fftw_complex[2]):
            # their memory, each item the array (const where the array typedef is, as C has it)
            const = inner.is_const or "const" in target.quals
            return ("buffer" if const else "writable_buffer"), None, target
        return "pointer", None, None  # to a pointer, an opaque record of no name, __int128 ...
    raise _unconvertible(module, ctype, f"{ctype.to_c()} has no default Python conversion")


def _innermost(module: Module, ctype: CType) -> tuple[Type, bool]:
    """The element of the arrays ``ctype`` nests (``double`` of ``double[2]``), or ``ctype``
    itself where it is no array, resolved; and whether each of those arrays states its length
    (not a variable length array's ``[cols]``, whose items have no size to count a buffer in)."""
    resolved, complete = module.resolve(ctype), True
    while isinstance(resolved, Array):
        complete = complete and resolved.length is not None
        resolved = module.resolve(resolved.element)
    return resolved, complete


#: what a callback's arguments may be, and its result (see :class:`CallbackValue`)
_CALLBACK_ARGS = ("int", "bool", "float", "enum", "handle", "record_ptr", "string", "pointer")
_CALLBACK_RESULTS = ("void", "int", "bool", "float", "enum", "handle", "pointer")


def callback_typedef(module: Module, ctype: CType) -> str:
    """The typedef a function pointer of type ``ctype`` is named by, whose ``callbacks`` rule and
    class are its own: ``ctype`` itself, or the function type it points to (Tcl's
    ``Tcl_ObjCmdProc *proc``, of ``typedef int (Tcl_ObjCmdProc)(...)``); "" for neither."""
    if isinstance(ctype, Pointer) and isinstance(ctype.target, TypedefRef) and isinstance(
            module.resolve(ctype.target), FunctionType):
        return ctype.target.name
    return ctype.name if isinstance(ctype, TypedefRef) else ""


def callback_on_error(module: Module, config: BindingConfig, cb: CallbackBinding, text: str, where: str
                      ) -> CallbackBinding:
    """``cb`` giving C the value ``text`` names (a constant of the headers, or a number) when its
    callable raises; a ConfigError naming ``where`` (the config key) when that cannot be."""
    def fail(problem: str) -> ConfigError:
        return ConfigError(Diagnostic(config.coord(where), f"{where}: on_error({text}): {problem}"))

    value: int | float | None = None
    named = next((c.value for c in module.constants if c.name == text), None)
    if named is None:
        named = next((m.value for e in module.enums for m in e.members if m.name == text), None)
    if isinstance(named, (int, float)) and not isinstance(named, bool):
        value = named
    else:
        try:
            value = int(text, 0)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                raise fail("no constant of the headers has that name, and it is no number") from None
    kind = cb.ret.kind
    if kind == "void":
        raise fail("the function returns void: C takes no result from it")
    if kind in ("handle", "pointer"):
        raise fail("the function returns a pointer: C gets NULL")
    if kind in ("int", "enum"):
        lo, hi = cb.ret.int_range  # type: ignore[misc]  # set for int results
        if not isinstance(value, int) or not lo <= value <= hi:
            raise fail(f"{value!r} is no value of its result type {cb.ret.ctype.to_c()} [{lo}, {hi}]")
    elif kind == "bool" and not isinstance(value, int):
        raise fail(f"{value!r} is no value of its result type {cb.ret.ctype.to_c()}")
    return replace(cb, on_error=value)


def _user_pointer(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` is a plain ``void *`` (a user-data pointer's type)."""
    resolved = module.resolve(ctype)
    if not isinstance(resolved, Pointer):
        return False
    pointee = module.resolve(resolved.target)
    return isinstance(pointee, Primitive) and pointee.is_void and not pointee.is_const


def _user_data(module: Module, params: list[ParamBinding]) -> tuple[int, int] | None:
    """(parameter, callback argument) of a function's user-data pointer: the one ``void *``
    parameter, next to the one function pointer parameter, whose callback takes one ``void *``
    (``sqlite3_exec(db, sql, callback, arg, errmsg)``, ``qsort_r``, ``pthread_create``).

    Not when the callback is shaped as a destructor, ``void (*)(void *)``: the pointer beside it
    is then data it will free, which C may hand out again (``sqlite3_set_auxdata``)."""
    callbacks = [p for p in params if p.kind == "callback" and p.callback is not None]
    pointers = [p for p in params if p.role.role == "in" and _user_pointer(module, p.ctype)]
    if len(callbacks) != 1 or len(pointers) != 1 or abs(callbacks[0].index - pointers[0].index) != 1:
        return None
    callback = callbacks[0].callback
    assert callback is not None
    slots = [i for i, arg in enumerate(callback.args) if _user_pointer(module, arg.ctype)]
    if len(slots) != 1 or (callback.ret.kind == "void" and len(callback.args) == 1):
        return None
    return pointers[0].index, slots[0]


def _const_plain_char(module: Module, ctype: CType) -> bool:
    resolved = module.resolve(ctype)
    return isinstance(resolved, Primitive) and resolved.name == "char" and resolved.is_const


def plan_callback(module: Module, target: TargetInfo, names: dict, pointer: CType, function: FunctionType
                  ) -> CallbackBinding:
    """How a Python callable stands for a C function of type ``function`` (see :class:`CallbackBinding`)."""
    text = function_pointer_type(module, pointer)
    if function.variadic:
        raise Unsupported(f"a callback {text} takes variable arguments, which Python cannot be given yet")

    def value(ctype: CType, what: str, kinds: tuple[str, ...]) -> CallbackValue:
        try:
            kind, key = classify_return(module, names, ctype)
        except Unsupported:
            kind, key = "", None
        resolved = module.resolve(ctype)
        if kind == "string" and isinstance(resolved, Pointer) and not _const_plain_char(module, resolved.target):
            # only a const char * is text; other characters (curl's char *ptr, pcap's const u_char *)
            # are data of a length the callable is told: a Pointer, whose slice is bytes
            kind = "pointer"
        lo, hi = integer_range(module, ctype, target) if kind in ("int", "enum") else (0, 0)
        if kind not in kinds or lo < -(1 << 63) or hi >= 1 << 64:  # wider than libffi's integers
            raise Unsupported(f"a callback {text}: {what} of type {ctype.to_c()} cannot cross to Python yet")
        return CallbackValue(
            ctype, kind, key,  # type: ignore[arg-type]  # one of the kinds above
            pointer_type(module, ctype) if kind in ("pointer", "handle") else "",
            (lo, hi) if kind in ("int", "enum") else None,
        )

    # what C passes for a parameter declared as an array (Tcl's const char *argv[]) is a pointer
    args = tuple(value(adjusted_parameter(module, p.type), f"its parameter {i + 1}", _CALLBACK_ARGS)
                 for i, p in enumerate(function.params))
    args = _counted_arguments(module, target, function, args)
    return CallbackBinding(text, args, value(function.ret, "its result", _CALLBACK_RESULTS))


def _counted_arguments(module: Module, target: TargetInfo, function: FunctionType,
                       args: tuple[CallbackValue, ...]) -> tuple[CallbackValue, ...]:
    """``args`` with each pointer argument that an integer right after it is named as the length
    of (:func:`length_unit`) bounded by it: a callback's ``(buffer, size)``, where writing past
    ``size`` went past the library's buffer.  A size in bytes followed by a count (fwrite's and
    curl's ``size, nmemb``) bounds it by their product.  Text (a ``const char *``) so followed
    is that many bytes, not the characters up to a NUL."""
    names = [p.name or "" for p in function.params]
    others = frozenset(name for name in names if name)
    bounded = list(args)
    for i, arg in enumerate(args[:-1]):
        if arg.kind not in ("pointer", "string") or args[i + 1].kind != "int":
            continue
        unit = length_unit(names[i], names[i + 1], others)
        if unit is None and not names[i] and not names[i + 1] and _is_size_like(module, args[i + 1].ctype):
            # neither named (libpng's png_rw_ptr: png_structp, png_bytep, size_t): a size_t right
            # after a buffer is its size, as for a function's parameters (see _bounds)
            unit = "items"
        element = module.resolve(arg.ctype)
        size = element_size(module, target, element.target) if isinstance(element, Pointer) else 0
        if not size and isinstance(element, Pointer) and _is_void(module, module.resolve(element.target)):
            size = 1  # a void * reads as bytes (libsndfile's sf_vio_read(void *ptr, sf_count_t count, ...))
        if arg.kind == "string" and unit is not None:
            # text C gives with its length (yajl's numberVal, numberLen; leveldb's k, klen):
            # exactly that many bytes, NULs and all, and none past them
            bounded[i] = replace(arg, counted_by=(i + 1,))
            continue
        if unit is None or not size:
            continue
        counted: tuple[int, ...] = (i + 1,)
        if unit == "bytes" and i + 2 < len(args) and args[i + 2].kind == "int" and names[i + 2] in _COUNT_NAMES:
            counted = (i + 1, i + 2)
        bounded[i] = replace(arg, counted_by=counted, per_element=size if unit == "bytes" else 1)
    return tuple(bounded)


def classify_value(module: Module, names: dict, ctype: CType) -> tuple[str, str | None]:
    """(kind, record key) of a value the wrapper allocates: an out value or an array element."""
    resolved = module.resolve(ctype)
    enum = _enum_key(module, names, resolved)
    if enum is not None:
        return "enum", enum
    kind = _arithmetic(resolved)
    if kind is not None:
        return kind, None
    if isinstance(resolved, RecordRef) and resolved.kind != "enum" and _has_class(module, names, resolved):
        return "record", resolved.key
    if isinstance(resolved, Pointer):
        return _pointer_value(module, names, ctype, "a cell of type")
    raise _unconvertible(module, ctype, f"{ctype.to_c()} values have no Python conversion")


def classify_return(module: Module, names: dict, ctype: CType) -> tuple[str, str | None]:
    resolved = module.resolve(ctype)
    if _is_void(module, resolved):
        return "void", None
    if isinstance(resolved, Pointer) and isinstance(module.resolve(resolved.target), FunctionType):
        # a FunctionPointer, as a function pointer field reads (signal(), OpenSSL's *_meth_get_*)
        return "function_pointer", None
    enum = _enum_key(module, names, resolved)
    if enum is not None:
        return "enum", enum
    kind = _arithmetic(resolved)
    if kind is not None:
        return kind, None
    if isinstance(resolved, RecordRef) and _has_class(module, names, resolved):
        return "record", resolved.key
    if isinstance(resolved, Pointer):
        return _pointer_value(module, names, ctype, "returning")
    raise _unconvertible(module, ctype, f"returning {ctype.to_c()} has no default Python conversion")


def default_role(module: Module, names: dict, ctype: CType) -> ParamRole:
    """The role of a parameter no config rule names: ``out`` for a non-const ``T **`` where C
    gives back a pointer to a record, an opaque type, ``void`` or characters, or to pointers
    (a ``U ***``: Tcl_SplitList's ``const char ***argvPtr`` gives back a list, a ``Pointer``
    read as ``argv[:argc]``), else ``in``.

    A parameter declared as an array (``char *argv[]``) is taken, not given back.
    """
    resolved = module.resolve(ctype)
    if not isinstance(resolved, Pointer) or adjusted_array(module, ctype) is not None:
        return ParamRole("in")
    cell = module.resolve(resolved.target)
    if not isinstance(cell, Pointer) or cell.is_const:
        return ParamRole("in")
    try:
        kind, _key = _pointer_value(module, names, resolved.target, "")
    except Unsupported:
        return ParamRole("in")
    if kind in ("handle", "string", "record_ptr"):
        return ParamRole("out")
    if kind == "pointer" and isinstance(module.resolve(cell.target), Pointer):
        return ParamRole("out")  # nothing but an out-parameter is a U *** in C APIs
    if kind == "pointer" and octets(module, cell.target):
        return ParamRole("out")  # bytes C gives back (libwebp's uint8_t **output): a Pointer to read by length
    return ParamRole("out") if _is_void(module, cell.target) else ParamRole("in")


def _counted_out_numbers(module: Module, function: Function, defaults: list[ParamRole]) -> list[ParamRole]:
    """``defaults`` with each non-const ``T **`` of numbers that a pointer to an integer right
    after it counts made ``out``: C gives back an array and writes its length, as Xlib's
    ``XQueryTree(..., Window **children_return, unsigned int *nchildren_return)`` and
    ``XGetWMProtocols(..., Atom **protocols_return, int *count_return)`` do (a ``Pointer``,
    read as ``children[:n.value]``), or where neither is named; and each one named as what C
    gives back (``syms_out``, ``_return``). Otherwise a ``T **`` of numbers stays what C reads
    (``int **rows``)."""
    params = function.params
    roles = list(defaults)
    for index, param in enumerate(params):
        # one named as what C gives back (xkbcommon's xkb_state_key_get_syms(state, key, const
        # xkb_keysym_t **syms_out), which returns their number): given back, count or none
        resolved = module.resolve(param.type)
        cell = module.resolve(resolved.target) if isinstance(resolved, Pointer) else None
        if (roles[index].role == "in" and adjusted_array(module, param.type) is None and isinstance(cell, Pointer)
                and not cell.is_const and _arithmetic(module.resolve(cell.target)) is not None
                and (_words(param.name or "") or [""])[-1] in ("out", "return")):
            roles[index] = ParamRole("out")
    for index, (param, following) in enumerate(zip(params, params[1:], strict=False)):
        if roles[index].role != "in" or adjusted_array(module, param.type) is not None:
            continue
        resolved, count = module.resolve(param.type), module.resolve(following.type)
        cell = module.resolve(resolved.target) if isinstance(resolved, Pointer) else None
        if (not isinstance(cell, Pointer) or cell.is_const or _arithmetic(module.resolve(cell.target)) is None
                or not isinstance(count, Pointer) or adjusted_array(module, following.type) is not None):
            continue
        number = module.resolve(count.target)
        # named so, or neither named (Xlib's prototypes name them in comments only)
        named = _counts_given_back(param.name, following.name) or not param.name and not following.name
        if not number.is_const and _arithmetic(number) == "int" and named:
            roles[index] = ParamRole("out")
    return roles


def _counts_given_back(items: str | None, count: str | None) -> bool:
    """Whether ``count`` names the number of ``items`` C gives back, the words both names end
    with left out (Xlib's ``_return``): ``n`` and the items' name, or a count alone."""
    first, second = _words((items or "").strip("_")), _words((count or "").strip("_"))
    while len(first) > 1 and len(second) > 1 and first[-1] == second[-1]:
        first, second = first[:-1], second[:-1]
    name, number = "_".join(first), "_".join(second)
    return bool(name) and (counts_of(name, number) or number in ("n", "count", "cnt", "num", "nitems", "nmemb"))


def _cell_kind(primitive: str) -> Literal["int", "bool", "float", "complex"]:
    """What a cell of the arithmetic type ``primitive`` holds (:attr:`CellBinding.kind`)."""
    if primitive == "_Bool":
        return "bool"
    if primitive in ("float", "double", "long double"):
        return "float"
    return "complex" if primitive in COMPLEX_PARTS else "int"


def _cell_tag(target: TargetInfo, primitive: str) -> str:
    """Kind, signedness and size of a cell of ``primitive``: cells of one tag hold the same bits."""
    kind = _cell_kind(primitive)
    prefix = {"bool": "b", "float": "f", "complex": "c"}.get(kind) or ("i" if target.is_signed(primitive) else "u")
    return f"{prefix}{target.size_of(primitive)}"


def _promoted(target: TargetInfo, primitive: str) -> str:
    """The type C's default argument promotions make of ``primitive``: what a variadic function reads."""
    if primitive == "float":
        return "double"
    if primitive in ("double", "long double"):
        return primitive
    if target.size_of(primitive) < target.size_of("int") or primitive == "_Bool":
        # every value of a narrower type fits in an int, whatever its signedness
        return "int"
    return primitive


def plan_cells(target: TargetInfo) -> tuple[tuple[CellBinding, ...], tuple[tuple[str, str], ...]]:
    """The cell classes of every module on ``target``, and their other names (``c_int32`` -> ``c_int``)."""
    cells = []
    for name, primitive in CELL_TYPES:
        kind = _cell_kind(primitive)
        cells.append(CellBinding(name, primitive, kind, _cell_tag(target, primitive),
                                 target.int_range(primitive) if kind == "int" else None,
                                 _promoted(target, primitive)))
    by_tag: dict[str, str] = {}
    for cell in cells:
        by_tag.setdefault(cell.tag, cell.py_name)
    of_type = {cell.primitive: cell.py_name for cell in cells}
    aliases = []
    for alias in CELL_ALIASES:
        if alias == "c_size_t":
            aliases.append((alias, of_type[target.size_type]))
        elif alias == "c_ssize_t":
            aliases.append((alias, of_type[target.ptrdiff_type]))
        else:  # c_int16 ... c_uint64: the first cell class of that width and signedness
            signed, bits = not alias.startswith("c_u"), int(alias.rsplit("int", 1)[1])
            aliases.append((alias, by_tag[f"{'i' if signed else 'u'}{bits // 8}"]))
    return tuple(cells), tuple(aliases)


#: the kinds of Pointer element Python may set (PointerElements.writable)
_SETTABLE = ("int", "bool", "float", "complex", "char", "enum")


def pointer_elements(module: Module, target: TargetInfo, names: dict, pointers: Iterable[CType]
                     ) -> tuple[PointerElements, ...]:
    """What the elements of Pointers of each of the types ``pointers`` read as (see :class:`PointerElements`).

    Only element types every backend can read: the arithmetic types of the
    cell classes (complex ones too), characters and ``void`` (bytes), enums with
    a class, pointers to characters, to records with a class, to opaque types and
    to any of these (``float **``: Pointers).
    """
    cell_primitives = {primitive for _, primitive in CELL_TYPES}
    found: dict[str, PointerElements] = {}
    for ctype in pointers:
        _add_pointer_elements(module, target, names, ctype, found, cell_primitives)
    return tuple(found[text] for text in sorted(found))


def _add_pointer_elements(module: Module, target: TargetInfo, names: dict, ctype: CType,
                          found: dict[str, PointerElements], cell_primitives: set[str]) -> None:
    """:func:`pointer_elements` of one pointer type ``ctype``, into ``found`` (by pointer type);
    for a pointer to pointers whose own elements Python reads, those too."""
    resolved = module.resolve(ctype)
    if not isinstance(resolved, Pointer):
        return
    text = pointer_type(module, ctype)
    element = module.resolve(resolved.target)
    if text in found:
        # one type to Python whatever the qualifiers (see pointer_type): its elements may be
        # set if C may set them through any pointer of that type
        if not found[text].writable and not element.is_const and found[text].kind in _SETTABLE:
            found[text] = replace(found[text], writable=True)
        # ... and so may those of the Pointers its elements are (int cells[2][3] after a const one)
        if found[text].kind == "array" and isinstance(element, Array):
            _add_pointer_elements(module, target, names, Pointer(element.element), found, cell_primitives)
        elif found[text].kind == "pointer" and isinstance(element, Pointer):
            _add_pointer_elements(module, target, names, element, found, cell_primitives)
        return
    enum = _enum_key(module, names, element)
    primitive = integer_primitive(module, element, target)
    if isinstance(element, Primitive) and element.is_floating:
        primitive = element.name
    # what C may write through the pointer, Python may: its elements are not const
    writable = not element.is_const
    if enum is not None and primitive in cell_primitives:
        low, high = integer_range(module, element, target)
        found[text] = PointerElements(text, "enum", primitive, enum, writable, low, high)
    elif primitive in cell_primitives and enum is None and isinstance(element, Primitive):
        kind: Literal["int", "bool", "float"] = (
            "bool" if primitive == "_Bool" else "float" if element.is_floating else "int")
        low, high = integer_range(module, element, target) if kind == "int" else (0, 0)
        found[text] = PointerElements(text, kind, element.name, None, writable, low, high)
    elif isinstance(element, Primitive) and element.is_complex and element.name in cell_primitives:
        found[text] = PointerElements(text, "complex", element.name, None, writable)
    elif isinstance(element, Primitive) and (element.name in _CHARS or element.is_void):
        # p[i] a code, a slice bytes; the bytes of memory C hands over as void *, as its
        # memcpy reads them (sqlite3_column_blob's, an MDB_val's mv_data), and as a
        # callback fills a buffer C gives it (curl's read function, libpng's read_fn)
        found[text] = PointerElements(text, "char", "unsigned char", None, writable, 0, 255)
    elif isinstance(element, Pointer) and is_character(module, element.target):
        found[text] = PointerElements(text, "string", "char *")
    elif (item := pointer_item(module, names, element)) is not None and item[0] in ("handle", "record_ptr"):
        found[text] = PointerElements(text, "handle" if item[0] == "handle" else "record", "void *", item[1])
    elif isinstance(element, Array) and element.length is not None:
        # a pointer to arrays (a record's int grid[3][4] decays to int (*)[4]): each element a
        # Pointer to the array's first, bounded by its length, where that type's elements are read
        decayed = Pointer(element.element)
        inner = pointer_type(module, decayed)
        _add_pointer_elements(module, target, names, decayed, found, cell_primitives)
        if inner in found:
            found[text] = PointerElements(text, "array", "void *", inner, count=element.length,
                                          step=size_align(module, element, target)[0])
    elif isinstance(element, Pointer):
        # a pointer to pointers to numbers (FLAC's const FLAC__int32 *const buffer[], what
        # vorbis_analysis_buffer returns): each element a Pointer of its own type, read as C's
        # buffer[channel][i] is, where that type's elements are read themselves
        inner = pointer_type(module, element)
        _add_pointer_elements(module, target, names, element, found, cell_primitives)
        if inner in found:
            found[text] = PointerElements(text, "pointer", "void *", inner)


def rule_name(name: str | None, index: int) -> str:
    """How a config rule names parameter ``index`` (0-based): its C name, or ``argN`` where C
    gives it none (pcap's and libmagic's prototypes), as its Python name is then."""
    return name or f"arg{index}"


def _is_void(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` is ``void`` (through typedefs, qualified or not)."""
    resolved = module.resolve(ctype)
    return isinstance(resolved, Primitive) and resolved.is_void


def _points_to_void(module: Module, ctype: CType) -> bool:
    resolved = module.resolve(ctype)
    return isinstance(resolved, Pointer) and _is_void(module, resolved.target)


def cells_for(module: Module, target: TargetInfo, cells: tuple[CellBinding, ...], element: CType | None,
              array_length: int | None) -> tuple[tuple[str, ...], str]:
    """The cell classes a pointer to one ``element`` takes (its own type's first) and their tag."""
    if element is None or (array_length or 1) > 1 or is_character(module, element):
        return (), ""
    resolved = module.resolve(element)
    primitive = integer_primitive(module, element, target)
    if primitive is None and isinstance(resolved, Primitive) and (resolved.is_floating or resolved.is_complex):
        primitive = resolved.name
    if primitive is None or primitive not in {cell.primitive for cell in cells}:
        return (), ""
    tag = _cell_tag(target, primitive)
    if isinstance(resolved, RecordRef) and resolved.kind == "enum":
        # an enum's integer type is the compiler's choice (unsigned for fontconfig's FcResult),
        # and its values fit either: an integer cell of its size, of either signedness
        tag = ENUM_CELL + tag[1:]
    same = [cell.py_name for cell in cells if cell.tag == tag or tag[0] == ENUM_CELL and cell.tag[0] in "iu"
            and cell.tag[1:] == tag[1:]]
    own = next(cell.py_name for cell in cells if cell.primitive == primitive)
    return (own, *(name for name in same if name != own)), tag


#: Names that state a count of items (elements of the pointed-to type) ...
_COUNT_NAMES = ("len", "length", "n", "count", "cnt", "nmemb", "nitems", "items", "num", "capacity")
_COUNT_SUFFIXES = ("_len", "Len", "_length", "Length", "_count", "Count", "_cnt", "Cnt", "_capacity", "Capacity")
#: ... and names that state a size in bytes.
_SIZE_NAMES = ("size", "nbytes", "bytes")
_SIZE_SUFFIXES = ("_size", "Size", "_bytes", "Bytes", "_nbytes", "NBytes", "Nbytes")


def length_unit(pointer: str | None, length: str | None, others: frozenset[str] = frozenset()
                ) -> Literal["bytes", "items"] | None:
    """What the parameter ``length``, right after the pointer ``pointer``, counts of it, by its name.

    ``len``, ``length``, ``n``, ``count``, ``cnt``, ``nmemb``, ``nitems``, ``items``, ``num``,
    ``capacity``, a name ending in ``_len``/``Len``/``_length``/``Length``/``_count``/``Count``/``_cnt``/
    ``Cnt``/``_capacity``/``Capacity`` (zstd's ``dstCapacity``), or the pointer's own name, or its first
    three letters or more, followed by ``len``/``length``/``count``/``cnt``/``cap`` (``buflen`` after
    ``buf`` or ``buffer``, ``iovcnt``) count items of the pointed-to
    type (where the items are larger than a byte, a capacity in bytes is held to the stricter count); ``size``,
    ``nbytes``, a name ending in
    ``_size``/``Size``/``_bytes``/``Bytes``/``_nbytes``, or the pointer's name followed by
    ``size`` count bytes (the same for ``void`` and character pointers; a parameter's
    size not named in bytes of larger items is held to items, see :func:`_stricter_unit`), except a
    ``_size``/``Size`` name that does not start as the pointer's (opus's ``pcm,
    frame_size``, in samples), which counts items, the stricter reading.  Any
    other name states no length: ``nArg`` after ``zFunctionName``, ``flags``,
    ``mode``, ``c`` after ``memset``'s ``s``, ``maxlen`` (a bound, not a length); but a
    name made of the pointer's and a length, then ``_avail`` (libdeflate's
    ``out_nbytes_avail``), is the room C has there, a length too.
    Nor does a name whose stem is another parameter of the function (``others``), or
    starts another's name where it does not start the pointer's: liblzma's ``out_size``
    after ``size_t *out_pos`` is the size of ``out``, brotli's ``encoded_size`` after
    ``input_buffer`` that of ``encoded_buffer``.
    """
    # the underscores of a reserved name (glibc's __buf, __n) or of one kept from a keyword
    # (zmq's buf_, len_) say nothing of what it is
    pointer, length = (pointer or "").strip("_"), (length or "").strip("_")
    if not pointer or not length:
        return None
    others = frozenset(other.strip("_") for other in others)
    if (_words(pointer) or [""])[-1] in _CONTEXT_WORDS | _POSITION_WORDS and not length.startswith(pointer):
        # an object memory is made for or in (talloc's talloc_named_const(const void *context,
        # size_t size, ...), _talloc_array(ctx, el_size, count, ...), an APR pool), not data it
        # holds: a length not named after it is of something else; so is a position in
        # something (gnutls_record_send_file(session, fd, off_t *offset, size_t count))
        return None
    if length.startswith(pointer) and length.endswith(_ROOM_ENDINGS):
        # the room left in it (libdeflate's out, out_nbytes_avail): its capacity, as a length
        length = length[: -len(next(e for e in _ROOM_ENDINGS if length.endswith(e)))]
    own = length[len(pointer):].lower() if length.startswith(pointer) and length != pointer else ""
    for cut in range(len(pointer) - 1, 2, -1) if not own else ():
        # the pointer's name shortened (jansson's json_loadb(buffer, buflen)), at least 3 letters
        if length.startswith(pointer[:cut]) and length[cut:].lower() in _OWN_SUFFIXES:
            own = length[cut:].lower()
            break
    for suffix in (*_SIZE_SUFFIXES, *_COUNT_SUFFIXES):
        stem = length[: -len(suffix)] if length.endswith(suffix) else ""
        if stem and stem != pointer and stem in others:
            return None
        if stem and not _named_after(pointer, stem) and any(
                _named_after(other, stem) or _ends_with(stem, other) for other in others
                if other not in (pointer, length)):
            return None
    if length.endswith(("_size", "Size")) and not own and not _named_after(pointer, length[: -len("size")].rstrip("_")):
        # the size of something the name does not say is the pointer (opus's pcm, frame_size: in
        # samples): counted in items, the stricter reading for items larger than a byte
        return "items"
    if length in _SIZE_NAMES or length.endswith(_SIZE_SUFFIXES) or own in ("size", "_size", "sz", "_sz"):
        return "bytes"
    if length in _COUNT_NAMES or length.endswith(_COUNT_SUFFIXES) or own in _OWN_SUFFIXES:
        return "items"
    return None


def _room_unit(pointer: str | None, length: str | None, others: frozenset[str]) -> Literal["bytes", "items"] | None:
    """What a length named as the most C may write (``maxlength``, ``max_size``) after a buffer C
    writes counts of it, as :func:`length_unit` reads the name without ``max``: the room C has
    (libgcrypt's ``gcry_sexp_sprint(sexp, mode, void *buffer, size_t maxlength)`` wrote past a
    short buffer).  Not after one C only reads: ``strnlen(s, maxlen)`` stops at the NUL."""
    bare = (length or "").strip("_")
    for prefix in ("max_", "max", "Max"):
        if bare.startswith(prefix) and len(bare) > len(prefix):
            rest = bare[len(prefix):]
            return length_unit(pointer, rest[0].lower() + rest[1:], others)
    return None


#: the last words of the names of pointers to a context, not to data (see length_unit)
_CONTEXT_WORDS = frozenset({"ctx", "context", "parent", "pool", "arena", "allocator", "owner"})
#: ... and of pointers to a position in data (an offset C reads and moves on)
_POSITION_WORDS = frozenset({"offset", "off", "pos", "position", "cursor", "index", "idx"})

#: what may end the name of a length named after its pointer, saying it is the room C has there
_ROOM_ENDINGS = ("_avail", "Avail", "_available", "Available")

#: what follows the pointer's name in the name of its length, in items (but ``size``, in bytes)
_OWN_SUFFIXES = frozenset({"len", "length", "count", "cnt", "_len", "cap", "_cap", "capacity", "size", "_size",
                           "sz", "_sz"})


def _named_after(name: str, stem: str) -> bool:
    """Whether ``name`` is ``stem`` or starts with it as a word (``encoded_buffer``, ``encodedBuffer``)."""
    if not name.startswith(stem):
        return False
    rest = name[len(stem):]
    return not rest or rest[0] == "_" or (rest[0].isupper() and not stem[-1:].isupper())


#: a word of a name: a run of capitals not starting a capitalised word, or an optionally capitalised word
_WORD = compiled(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def _words(name: str) -> list[str]:
    """The words of a name, lower-cased: ``targetDstSize`` -> target, dst, size; ``out_buf`` -> out, buf."""
    return [word.lower() for word in _WORD.findall(name)]


def _ends_with(stem: str, name: str) -> bool:
    """Whether ``stem`` ends with the words of ``name`` after others (lz4's ``targetDst``, ``dst``)."""
    words, last = _words(stem), _words(name)
    return bool(last) and len(words) > len(last) and words[-len(last):] == last


def _bounds(module: Module, function: Function, params: list[ParamBinding],
            explicit: set[str]) -> dict[int, tuple[tuple[int, ...], str]]:
    """Length parameter index -> (the pointers it bounds, its unit): a length the header states.

    An array parameter states its own (``size_t n, const uint8_t buf[n]``, or ``*n`` in a
    cell, C11 6.7.6.2): it counts items.  Otherwise the name of the integer right after a
    pointer the caller passes may state it (:func:`length_unit`), or, anywhere else, a name
    made of the pointer's and a size or count ending (:func:`_stem_and_unit`), or a name
    that says "length" alone (:data:`_GENERIC_LENGTHS`) right before buffers.  A role the
    config gives that integer (``n = "in"``) says it is no such length.
    """
    arrays: dict[int, list[int]] = {}  # length -> the array parameters declared with it
    index_of = {p.c_name: p.index for p in params if p.c_name}
    for declared, pointer in zip(function.params, params, strict=True):
        if declared.length_from is None:
            continue
        length = params[index_of[declared.length_from.lstrip("*")]]
        in_a_cell = declared.length_from.startswith("*")
        if _may_bound(module, pointer, length, explicit) == ("cell" if in_a_cell else "value"):
            arrays.setdefault(length.index, []).append(pointer.index)
    found: dict[int, tuple[tuple[int, ...], str]] = {
        length: (tuple(pointers), "items") for length, pointers in arrays.items()}
    stated = {pointer for pointers in arrays.values() for pointer in pointers}
    names = frozenset(p.c_name for p in params if p.c_name)
    # a pointer another integer is named after is that one's: lz4's src, dst, compressedSize,
    # dstCapacity (compressedSize, right after dst, is not its length), and an integer named
    # after another pointer is that one's (source, dest, inputSize); worked out once needed
    owners: dict[int, int] | None = None  # length -> the pointer its name says
    named: dict[int, int] = {}  # ... and back
    for pointer, length in zip(params, params[1:], strict=False):
        if (pointer.index in stated or length.index in found or pointer.index in found
                or not _may_bound(module, pointer, length, explicit)):
            continue  # (a length in a cell is no buffer: gnutls's salt, salt_size, iter_count)
        if owners is None:
            owners = {other.index: owner for other in params
                      if (owner := _named_owner(module, params, explicit, other, stated)) is not None}
            named = {owner: other for other, owner in owners.items()}
        if named.get(pointer.index, length.index) != length.index:
            continue
        if owners.get(length.index, pointer.index) != pointer.index:
            continue
        if pointer.kind == "cstring" and (_counts_only(length.c_name) or _names_another(pointer.c_name, length.c_name)):
            # a C string states its own length: a count after it counts something else, and so
            # does a size named after something else (libarchive's _filename, _block_size)
            continue
        bound = _may_bound(module, pointer, length, explicit)
        # a length in a cell may say that it is one by a pointer's ending (lz4frame's
        # LZ4F_decompress(dctx, dstBuffer, size_t *dstSizePtr, srcBuffer, size_t *srcSizePtr, ...))
        said = _without_pointer_ending(length.c_name) if bound == "cell" else length.c_name
        unit = length_unit(pointer.c_name, said, names)
        if unit is None and counts_of(pointer.c_name, said):
            unit = "items"  # the number of them (cairo's cairo_set_dash(cr, dashes, num_dashes, offset))
        if unit is None and pointer.kind == "writable_buffer":
            unit = _room_unit(pointer.c_name, said, names)
        if unit is None and pointer.c_name is None:  # a name that says "length" alone needs none
            unit = _GENERIC_LENGTHS.get((said or "").strip("_"))
        integer = length.ctype if bound == "value" else _pointee(module, length.ctype) if bound else None
        if (unit is None and pointer.c_name is None and length.c_name is None and pointer.kind != "cstring"
                and integer is not None and _is_size_like(module, integer)
                and (bound == "value" or _holds_units(module, pointer))):
            # neither named (pcre2's, libmagic's and mpfr's prototypes): a size_t right after a
            # buffer is its size, as C's own (void *, size_t) pairs are (and libzip's void *,
            # zip_uint64_t); counted in items, the stricter. So is the size_t in a cell after
            # bytes or code units (pcre2_substring_copy_bynumber's PCRE2_SIZE *, which C reads as
            # the room it has, then sets to what it wrote), not after a cell of a signed number:
            # that is what C writes (pcre2_compile's int *errorcode, PCRE2_SIZE *erroroffset)
            unit = "items"
        if unit is not None:
            found[length.index] = ((pointer.index,), _stricter_unit(module, pointer, length.c_name, unit))
    # A count in a cell right before the buffer it is named for: HarfBuzz's
    # hb_face_get_table_tags(face, start_offset, unsigned int *table_count, hb_tag_t *table_tags),
    # whose cell says the room there and then how many C wrote (C wrote past a short list)
    taken = {pointer for pointers, _ in found.values() for pointer in pointers}
    for length, pointer in zip(params, params[1:], strict=False):
        if (length.index not in found and pointer.index not in stated | taken and _counts_only(length.c_name)
                and _named_for(pointer.c_name, length.c_name)
                and _may_bound(module, pointer, length, explicit) == "cell"):
            found[length.index] = ((pointer.index,), "items")
            taken.add(pointer.index)
    # A copy's destination too: memcpy's and strncpy's ``dest, src, n``, PQescapeString's ``to,
    # from, length`` (a shorter ``dest`` was written past).  Text as above: strncpy reads ``src``
    # only up to its NUL, whatever ``n`` is.
    for dest, source, length in zip(params, params[1:], params[2:], strict=False):
        generic = (length.c_name or "").strip("_")
        if ((source.c_name or "").strip("_") in _COPIES.get((dest.c_name or "").strip("_"), ())
                and generic in _GENERIC_LENGTHS and dest.kind != "cstring" and dest.index not in stated
                and _may_bound(module, dest, length, explicit) == "value"):
            sources, counted = found.get(length.index, ((), _GENERIC_LENGTHS[generic]))
            if (source.kind != "cstring" and source.index not in (*stated, *sources)
                    and _may_bound(module, source, length, explicit) == "value"):
                sources = (source.index,)  # glibc's __n, which the rule above does not read
            found[length.index] = ((dest.index, *sources), counted)
    # ... and a source before its destination, the length after both: libsamplerate's
    # ``src_short_to_float_array(const short *in, float *out, int len)`` (``in`` was read past)
    for source, dest, length in zip(params, params[1:], params[2:], strict=False):
        generic = (length.c_name or "").strip("_")
        pair = ((source.c_name or "").strip("_").lower(), (dest.c_name or "").strip("_").lower())
        bounded_here = found.get(length.index)
        if (pair in _SOURCE_FIRST and generic in _GENERIC_LENGTHS and bounded_here is not None
                and bounded_here[0] == (dest.index,) and source.kind != "cstring" and source.index not in stated
                and _may_bound(module, source, length, explicit) == "value"
                and not _text_from_data(module, source, dest)):
            found[length.index] = ((dest.index, source.index), bounded_here[1])
    # Apart from its buffer, a length named after it states it too, before or after it:
    # liblzma's ``out, size_t *out_pos, size_t out_size``; gnutls's ``label_size, label``;
    # ``input_size`` before ``input_buffer`` (the buffer named so exactly first, else the one
    # buffer named after it).  Not a length in a cell: apart from its buffer, that is mostly
    # what C writes (libsodium's ``size_t *bin_len``, the length of what it wrote to ``bin``).
    bounded = stated | {pointer for pointers, _ in found.values() for pointer in pointers}
    # the room C has first (lz4's maxOutputSize before targetOutputSize, both dst's)
    for length in sorted(params, key=lambda p: not _says_room(p.c_name)):
        owner = None if length.index in found else _named_owner(module, params, explicit, length, bounded)
        if owner is not None:
            found[length.index] = ((owner,), _stricter_unit(module, params[owner], length.c_name,
                                                            _stem_and_unit(length.c_name)[1]))
            bounded.add(owner)
    # A length named only as one, right before the data it measures and after no buffer it
    # could be another's: nettle's ``size_t length, uint8_t *dst, const uint8_t *src`` (every
    # buffer in the run after it).  Not text after a count (a C string states its own length),
    # but text right after a length.
    for at, length in enumerate(params):
        generic = (length.c_name or "").strip("_")
        if length.index in found or generic not in _GENERIC_LENGTHS or any(
                _may_bound(module, pointer, length, explicit) for pointer in params[:at]):
            continue
        following = params[at + 1] if at + 1 < len(params) else None
        if (following is not None and following.kind == "cstring" and generic in ("len", "length")
                and following.index not in bounded and _may_bound(module, following, length, explicit) == "value"):
            # but text right after a length (not a count, nor a size: xmlMallocLoc(size, file, line))
            # is that many bytes, NULs and all: Z3's Z3_mk_lstring(c, unsigned len, Z3_string s)
            # read past b"abc" for len 40; libxml2's xmlOutputBufferWrite(out, len, buf)
            found[length.index] = ((following.index,), _GENERIC_LENGTHS[generic])
            bounded.add(following.index)
            continue
        run = []
        for pointer in params[at + 1:]:
            if pointer.kind not in ("buffer", "writable_buffer") or pointer.index in bounded:
                break
            if _may_bound(module, pointer, length, explicit) != "value":
                break
            element = _pointee(module, pointer.ctype)
            if pointer.array_length or (element is not None and _is_size_like(module, element)):
                # an array of its own length, or a size or offset C reads and moves on, within
                # the run: mbedtls_aes_crypt_cbc(ctx, mode, length, iv[16], input, output), its
                # _ctr(ctx, length, size_t *nc_off, nonce_counter[16], ..., input, output)
                continue
            run.append(pointer.index)
        if run:
            # a size of numbers larger than a byte counts them, the stricter reading: GSL's
            # gsl_sf_bessel_sequence_Jnu_e(nu, mode, size_t size, double *v) fills size doubles
            unit = _GENERIC_LENGTHS[generic]
            if any(_stricter_unit(module, params[index], length.c_name, unit) == "items" for index in run):
                unit = "items"
            found[length.index] = (tuple(run), unit)
            bounded.update(run)
    return found


def _factors(module: Module, target: TargetInfo, params: list[ParamBinding],
             bounds: dict[int, tuple[tuple[int, ...], str]], explicit: set[str]) -> dict[int, int]:
    """Length index -> the integer right after it that multiplies it, where the length bounds
    one pointer to untyped memory or characters: a size in bytes then a count of items of that
    size (fread's ``ptr, size, nmemb``), or the count then the size (qsort's and bsearch's
    ``base, nmemb, size``). C reads or writes their product: a count of bytes let through
    20 four-byte items of a 20-byte buffer. Both unsigned, as C's sizes are."""
    factors: dict[int, int] = {}
    for index, (pointers, _unit) in bounds.items():
        if (len(pointers) != 1 or index + 1 >= len(params) or params[index].kind != "int"
                or index + 1 in bounds):
            continue
        element, factor = _pointee(module, params[pointers[0]].ctype), params[index + 1]
        if element is None or not (_is_void(module, module.resolve(element)) or is_character(module, element)):
            continue
        if (factor.kind != "int" or factor.role.role != "in" or rule_name(factor.c_name, factor.index) in explicit
                or integer_range(module, factor.ctype, target)[0] < 0
                or integer_range(module, params[index].ctype, target)[0] < 0):
            continue
        # one names the size of an item, the other counts items (not an extent: libssh2's
        # channel_type_len, window_size)
        sizes = [_names_item_size(p.c_name) for p in (params[index], factor)]
        counts = [_counts_only(p.c_name) or counts_of(params[pointers[0]].c_name, p.c_name)
                  for p in (params[index], factor)]
        if (sizes, counts) in (([True, False], [False, True]), ([False, True], [True, False])):
            factors[index] = factor.index
    return factors


#: the words that may come before ``size`` in the name of the size of one item (see _names_item_size)
_ITEM_WORDS = frozenset({"el", "elem", "element", "item", "memb", "member", "obj", "object", "entry", "record"})
#: ... and those words and ``size`` written as one (``elsize``, ``itemsize``)
_ITEM_SIZES = frozenset(word + "size" for word in _ITEM_WORDS)


def _names_item_size(name: str | None) -> bool:
    """Whether ``name`` is that of the size of one item: ``size`` (qsort's), ``element_size``
    (GLib's), ``elsize``, ``item_size``; not the size of a whole (``buf_size``, ``window_size``)."""
    bare = (name or "").strip("_")
    words = _words(bare)
    if bare.lower() in _ITEM_SIZES:
        return True
    return bool(words) and words[-1] == "size" and all(word in _ITEM_WORDS for word in words[:-1])


def _text_from_data(module: Module, source: ParamBinding, dest: ParamBinding) -> bool:
    """Whether ``dest`` is room for plain characters and ``source`` is not characters: text made
    of data, whose length is the room's (inet_ntop's, libevent's evutil_inet_ntop(af, const void
    *src, char *dst, size_t len): the size of src is af's)."""
    source_element, dest_element = _pointee(module, source.ctype), _pointee(module, dest.ctype)
    plain = module.resolve(dest_element) if dest_element is not None else None
    return (isinstance(plain, Primitive) and plain.name == "char"
            and (source_element is None or not is_character(module, source_element)))


def _without_pointer_ending(name: str | None, p: bool = False) -> str | None:
    """``name`` without an ending that says it is a pointer (``dstSizePtr``, ``size_ptr``); ``_p``
    too with ``p`` (libdbus's ``len_p``), not otherwise: libsodium ends the cells it only writes
    a length to with it (``clen_p``)."""
    for ending in ("Ptr", "_ptr", "_p") if p else ("Ptr", "_ptr"):
        if name and name.endswith(ending) and len(name) > len(ending) + 1:
            return name[: -len(ending)]
    return name


def _named_owner(module: Module, params: list[ParamBinding], explicit: set[str], length: ParamBinding,
                 taken: AbstractSet[int]) -> int | None:
    """The one pointer (not in ``taken``) the name of ``length`` says it measures, or None: the
    pointer's name, or the start of it, then a size or count ending (liblzma's ``out_size``,
    gnutls's ``label_size``), or a stem ending with the pointer's name (lz4's ``targetDstSize``).
    A pointer named exactly so is taken first; a name that fits two pointers is neither's."""
    stem, _ = _stem_and_unit(length.c_name)
    if stem is None:
        return None
    candidates = [pointer for pointer in params if pointer.index not in taken and pointer.c_name
                  and pointer.index != length.index
                  and (_named_after(pointer.c_name, stem) or _ends_with(stem, pointer.c_name))
                  and _may_bound(module, pointer, length, explicit) == "value"]
    owners = [pointer for pointer in candidates if pointer.c_name == stem] or candidates
    if not owners:
        # a stem that says a side of a copy names the one pointer of that side (lz4's
        # LZ4_compress_withState(state, source, dest, inputSize): inputSize is source's)
        side = _side(stem)
        owners = [pointer for pointer in params if side and pointer.index not in taken and pointer.c_name
                  and pointer.index != length.index and _side(pointer.c_name) == side
                  and _may_bound(module, pointer, length, explicit) == "value"]
    return owners[0].index if len(owners) == 1 else None


#: the words that say which side of a copy a name is on
_SIDES = {"input": frozenset({"src", "source", "in", "input"}),
          "output": frozenset({"dst", "dest", "destination", "out", "output"})}


def _says_room(name: str | None) -> bool:
    """Whether ``name`` says the most there is room for (``maxOutputSize``, ``dstCapacity``)."""
    words = _words((name or "").strip("_"))
    return bool(words) and (words[0] == "max" or words[-1] in ("capacity", "cap", "room", "avail"))


def _side(name: str) -> str | None:
    """``input`` or ``output``, where the words of ``name`` say one side of a copy and not the other."""
    words = set(_words(name))
    sides = [side for side, said in _SIDES.items() if words & said]
    return sides[0] if len(sides) == 1 else None


def _is_size_like(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` is ``size_t`` or ``uint64_t``, or a typedef of one (pcre2's
    ``PCRE2_SIZE``, libzip's ``zip_uint64_t``): a size wherever it follows a buffer."""
    while isinstance(ctype, TypedefRef):
        if ctype.name in ("size_t", "uint64_t"):
            return True
        typedef = module.find_typedef(ctype.name)
        if typedef is None:
            return False
        ctype = typedef.type
    return False


#: the names that say "a length" and nothing more, and what they count
_GENERIC_LENGTHS: dict[str, Literal["bytes", "items"]] = {
    "length": "items", "len": "items", "n": "items", "count": "items", "size": "bytes", "nbytes": "bytes",
    "bytes": "bytes"}


#: a copy's destination -> the names of its source right after it (a length after both)
_COPIES = {"dest": ("src",), "dst": ("src",), "to": ("from",)}
#: a source and its destination, in that order, which a length after both counts alike
_SOURCE_FIRST = frozenset({("in", "out"), ("input", "output"), ("src", "dst"), ("src", "dest"),
                           ("source", "dest"), ("source", "destination"), ("from", "to")})

#: the names of :data:`_COUNT_NAMES` that count things (``n``, ``count``), not the extent of
#: data (``len``), and the suffixes that do; ``num`` is both (OpenSSL's ``buf, num``)
_COUNTS = tuple(name for name in _COUNT_NAMES if name not in ("len", "length", "num"))
_COUNT_ONLY_SUFFIXES = tuple(suffix for suffix in _COUNT_SUFFIXES if not suffix.lower().endswith(("len", "length")))


def _counts_only(name: str | None) -> bool:
    """Whether ``name`` says a count and not a length (glibc's ``__count`` as ``count``)."""
    bare = (name or "").strip("_")
    return bare in _COUNTS or bare.endswith(_COUNT_ONLY_SUFFIXES)


def _names_another(pointer: str | None, length: str | None) -> bool:
    """Whether the name ``length`` says whose length it is, and that is not ``pointer``: its stem
    does not start the pointer's name, even as a shortening (lz4's ``dictionary, dictSize`` is
    one pair; libarchive's ``_filename, _block_size`` is not)."""
    stem, _ = _stem_and_unit(length)
    if stem is not None and stem.strip("_").lower() in _DATA_STEMS:
        return False  # what any data is called: cJSON_ParseWithLength(const char *value, size_t buffer_length)
    return stem is not None and not (pointer or "").strip("_").lower().startswith(stem.strip("_").lower())


#: the stems of a length's name that say only "the data" (see _names_another)
_DATA_STEMS = frozenset({"buffer", "buf", "data", "input", "string", "str", "text"})


def _result_length(params: list[ParamBinding], explicit: set[str]) -> int | None:
    """The parameter a function returning characters writes their length to, by its name: the one
    integer cell the caller passes whose name ends as a length's (``len``, ``vallen``,
    ``out_len``, ``outlength``, ``size``, ``nbytes``; then perhaps ``p`` or ``_ptr``), which C
    may write (lua_tolstring's ``size_t *len``; GEOS's WKB writer's ``size_t *size``), and which
    the config gives no role (libxml2's xmlSplitQName3 writes the length of a prefix to its
    ``len``: ``len = "in"`` says so)."""
    found = []
    for p in params:
        if (p.role.role != "in" or p.kind != "writable_buffer" or p.cell_tag[:1] not in ("i", "u")
                or rule_name(p.c_name, p.index) in explicit):
            continue
        name = (p.c_name or "").rstrip("_").lower()
        for pointer_ending in ("_ptr", "ptr", "_p", "p", ""):
            stem = name[: len(name) - len(pointer_ending)] if name.endswith(pointer_ending) else ""
            if stem.endswith(("len", "length", "size", "sz", "bytes")):
                found.append(p.index)
                break
    return found[0] if len(found) == 1 else None


def _stricter_unit(module: Module, pointer: ParamBinding, length: str | None,
                   unit: Literal["bytes", "items"]) -> Literal["bytes", "items"]:
    """``unit``, or ``items`` for a size a parameter's name does not say is in bytes (``bufsize``,
    ``out_size``; not ``nbytes``, ``in_bytes``) of a buffer of items larger than a byte: held to
    the stricter reading, as a capacity is (utf8proc's ``int32_t *buffer, bufsize`` counts code
    points, and C wrote four times what a buffer of ``bufsize`` bytes held)."""
    if unit != "bytes" or (length or "").lower().endswith("bytes") or _holds_bytes(module, pointer):
        return unit
    return "items"


def _holds_units(module: Module, pointer: ParamBinding) -> bool:
    """Whether ``pointer`` points to bytes or other unsigned units of text or data."""
    element = module.resolve(pointer.element) if pointer.element is not None else None
    return _holds_bytes(module, pointer) or isinstance(element, Primitive) and element.is_unsigned


def _holds_bytes(module: Module, pointer: ParamBinding) -> bool:
    """Whether ``pointer`` points to bytes: ``void`` (no element), or characters."""
    element = module.resolve(pointer.element) if pointer.element is not None else None
    return element is None or isinstance(element, Primitive) and (element.is_void or element.name in _CHARS)


def _stem_and_unit(name: str | None) -> tuple[str | None, Literal["bytes", "items"]]:
    """The parameter a length's own name says it measures, and in what: ``out_size`` -> ``out``
    in bytes, ``argsCount`` -> ``args`` in items; (None, ...) for another name.  The leading
    underscores of a reserved name are no stem (glibc's ``__size``, ``__len``)."""
    whole = (name or "").rstrip("_")  # zmq's len_
    bare = whole.strip("_")
    for suffixes, unit in ((_SIZE_SUFFIXES, "bytes"), (_COUNT_SUFFIXES, "items")):
        for suffix in suffixes:
            if bare.endswith(suffix) and len(bare) > len(suffix):
                return whole[: -len(suffix)], unit  # type: ignore[return-value]
    return None, "bytes"


def _may_bound(module: Module, pointer: ParamBinding, length: ParamBinding,
               explicit: set[str]) -> Literal["value", "cell", ""]:
    """Whether ``length`` may state the length of ``pointer``, a buffer the caller passes:
    ``value`` as an integer, ``cell`` as a pointer to one (``uLongf *destLen``), else ``""``."""
    if pointer.role.role != "in" or pointer.kind not in ("buffer", "writable_buffer", "cstring"):
        return ""
    if pointer.length is not None or length.role.role != "in" or rule_name(length.c_name, length.index) in explicit:
        return ""  # a buffer a len role measures, or a length the config speaks of
    if length.kind == "int" and isinstance(module.resolve(length.ctype), Primitive):
        return "value"
    if (length.kind == "writable_buffer" and length.cell_tag[:1] in ("i", "u")
            and adjusted_array(module, length.ctype) is None):
        # (an array declared [] is no cell: gsl_ran_multinomial(r, K, N, const double p[],
        # unsigned int n[]) fills n, which says nothing of p)
        element, count = _pointee(module, pointer.ctype), _pointee(module, length.ctype)
        if (element is not None and _is_size_like(module, element) and not module.resolve(element).is_const
                and count is not None and _is_size_like(module, count)):
            # a size C writes, beside another: HDF5's H5Pget_sizes(plist, size_t *sizeof_addr,
            # size_t *sizeof_size) gives back two sizes, not one counting the other
            return ""
        return "cell"
    return ""


def _resolve_success(module: Module, value: str | int) -> int:
    if isinstance(value, int):
        return value
    constant = module.find_constant(value)
    if constant is not None and isinstance(constant.value, int):
        return constant.value
    for enum in module.enums:
        for member in enum.members:
            if member.name == value:
                return member.value
    raise Unsupported(f"error_policy.success names {value!r}, which is not an integer constant")


def error_check(module: Module, config: BindingConfig, ret: CType) -> ErrorCheck | None:
    """The error policy for a function returning ``ret`` (None when it does not apply)."""
    policy = config.error_policy
    if policy is None:
        return None
    if isinstance(ret, TypedefRef) and ret.name == policy.return_type or ret.to_c() == policy.return_type:
        return ErrorCheck(policy, _resolve_success(module, policy.success))
    return None


def _plan_param(module: Module, names: dict, index: int, ctype: CType,
                role: ParamRole) -> tuple[str, str | None, CType | None]:
    """(kind, record key, element) of one parameter in its role; see the table in ParamBinding."""
    what = role.role
    if what == "in":
        return classify_param(module, names, ctype)
    if what == "null":
        resolved = module.resolve(ctype)
        if isinstance(resolved, (Pointer, Array)) or _arithmetic(resolved) is not None:
            return "null", None, None
        raise Unsupported(f"role 'null' needs a pointer or an integer, not {ctype.to_c()}")
    element = _pointee(module, ctype)
    if what == "len":
        if _arithmetic(module.resolve(ctype)) == "int":
            return "int", None, None
        if element is not None and _arithmetic(module.resolve(element)) == "int":
            return "int", None, element
        raise Unsupported(f"role 'len' needs an integer or a pointer to one, not {ctype.to_c()}")
    if element is None:
        raise Unsupported(f"role {what!r} needs a pointer, not {ctype.to_c()}")
    if what == "out-bytes":
        if _is_bytes_element(module, element) or _arithmetic(module.resolve(element)) is not None:
            return "bytes", None, element
        raise Unsupported(f"role 'out-bytes' needs a pointer to bytes or numbers, not {ctype.to_c()}")
    if what == "in-array" and _is_bytes_element(module, element):
        resolved = module.resolve(element)
        return "buffer", None, (None if isinstance(resolved, Primitive) and resolved.is_void else element)
    if what == "in-array" and isinstance(module.resolve(element), Pointer):
        item = pointer_item(module, names, element)
        if item is None:
            raise Unsupported(f"role 'in-array' takes no {element.to_c()} items yet")
        return item[0], item[1], element
    kind, key = classify_value(module, names, element)
    if what == "in-array" and kind == "enum":
        return "int", None, element  # enum items go in as the ints they are
    if kind in ("pointer", "string") and what != "out" or kind == "record_ptr" and what not in ("out", "inout"):
        raise Unsupported(f"role {what!r} takes no {element.to_c()} values yet (role 'out' does)")
    return kind, key, element


def _pointer_text(module: Module, kind: str, role: ParamRole, ctype: CType, element: CType | None) -> str:
    """:attr:`ParamBinding.pointer_type`: the C type of a ``pointer`` value, passed or given back,
    or of the data pointer a ``Pointer`` object may be passed for (``buffer`` kinds, ``cstring``)."""
    if role.role == "in" and kind in ("buffer", "writable_buffer", "cstring", "pointer"):
        adjusted = adjusted_array(module, ctype)
        return pointer_type(module, adjusted[0] if adjusted is not None else ctype)
    if element is not None and (kind == "pointer" or role.role == "in-array" and kind == "writable_buffer"):
        return pointer_type(module, element)  # a list's items: each may be a Pointer of this type
    return ""


def _with_default(configured: ParamRole | None, default: ParamRole) -> ParamRole:
    """A parameter's role: the configured one, or the default, with an ``owned(F)`` the config gives either."""
    if configured is None:
        return default
    if configured.role == "":  # "owned(F)" or "on_error(V)" alone: the default role, with them
        return ParamRole(default.role, default.length, configured.owner, configured.on_error)
    return configured


def _as_pointer(kind: str, what: str, key: str, config: BindingConfig, function: str) -> str:
    """The kind of a value the ``pointer`` modifier reads as a Pointer: characters C gives back
    (``string``) become one; a located error for anything else."""
    if kind in ("string", "pointer"):
        return "pointer"
    raise ConfigError(Diagnostic(
        config.coord(key),
        f"{key}: 'pointer' is for characters C gives back (a returned or out char *), but {what} in {function} "
        "is not one",
    ))


#: the kinds of value an ownership rule may free: what C hands over by pointer
_OWNABLE = ("string", "handle", "pointer", "record_ptr")


def _check_owned(config: BindingConfig, key: str, function: str, owner: str, kind: str, role: str, what: str) -> None:
    """An ``owned(F)`` rule must name what C hands over: a returned or out pointer (or out record)."""
    if role == "out" and (kind in _OWNABLE or kind == "record"):
        return
    raise ConfigError(Diagnostic(
        config.coord(key),
        f"{key}: owned({owner}) is for what C hands over (a returned pointer, an out parameter), "
        f"but {what} in {function} is not one",
    ))


def counts_of(pointer: str | None, count: str | None) -> bool:
    """Whether the integer ``count`` is named as the number of the ``pointer``'s items: ``n``
    or ``num_`` and its name (poll's ``__nfds`` for ``__fds``, Z3's ``num_args`` for ``args``,
    LLVM's ``NumArgs`` for ``Args``), or, for a plural name, one item's and ``_count``
    (libgit2's ``parent_count`` for ``parents``, ``entry_count`` for ``entries``)."""
    if not pointer or not count:
        return False
    items, number = pointer.strip("_"), count.strip("_")
    titled = f"{items[:1].upper()}{items[1:]}"
    if bool(items) and number in (f"n{items}", f"n_{items}", f"num_{items}", f"num{titled}", f"Num{titled}"):
        return True
    if len(items) < 3 or not items.endswith("s") or items.endswith(("ss", "us", "is")):
        return False
    one = items[:-3] + "y" if items.endswith("ies") else items[:-1]
    return number in (f"{one}_count", f"{one}Count", f"{one}_cnt", f"{one}Cnt")


def _counts_records(pointer: str | None, count: str, others: Iterable[str]) -> bool:
    """Whether ``count``, right after the pointer to records ``pointer``, is named as their
    count: by :func:`counts_of`, or by :func:`length_unit` with a name that says count, not
    length (connect's ``__len`` and accept's ``addrlen`` are the byte size of a sockaddr) nor
    size (json-c's ``lh_table_resize(struct lh_table *t, int new_size)`` resizes one table)."""
    if counts_of(pointer, count):
        return True
    bare, number = (pointer or "").strip("_"), count.strip("_")
    if _says_many(bare) and number[len(bare):] in ("_len", "_length", "Len", "Length", "len", "length") \
            and number.startswith(bare) and len(number) > len(bare):
        return True  # the whole plural name, then its length: HarfBuzz's variations, variations_length
    return (length_unit(pointer, count, frozenset(others)) == "items"
            and not number.lower().endswith(("len", "length", "size")))


def _counts_handles(pointer: str | None, count: str, others: Iterable[str]) -> bool:
    """Whether ``count``, right after the pointer to handles ``pointer``, is named as their
    count: by :func:`counts_of`, or by :func:`length_unit` (a handle has no byte size, so any
    length counts them: LLVM's ``LLVMValueRef *ConstantVals, unsigned Length`` and
    ``ScalarConstantVals, unsigned Size``), ``N`` (``RetVals, unsigned N``), or ``Num``, ``num_``
    or ``n`` and the last words of the pointer's name (``ConstantIndices, unsigned NumIndices``).
    Taken for one handle C gives back instead, C read or wrote that many from one cell."""
    if counts_of(pointer, count) or length_unit(pointer, count, frozenset(others)) is not None:
        return True
    number = count.strip("_")
    if number == "N":
        return True
    if not pointer:
        return False
    words = _words(pointer)
    return any(number.startswith(prefix) and len(number) > len(prefix)
               and words[-len(_words(number[len(prefix):])):] == _words(number[len(prefix):])
               for prefix in ("Num", "num_", "n"))


def _makes(function: str) -> bool:
    """Whether a function's name says it makes an object (``init``, ``new``, ``create``): what it
    gives back through a ``T **`` of a handle is that one object."""
    return _says(function, ("init", "new", "create"))


def _says(function: str, words: tuple[str, ...]) -> bool:
    """Whether one of the words of a function's name is one of ``words``."""
    return any(word in words for word in _words(function))


def _sizes_only(name: str | None) -> bool:
    """Whether ``name`` says a size and not a count (``size``, ``hash_size``, ``nbytes``)."""
    bare = (name or "").strip("_")
    return bare in _SIZE_NAMES or bare.endswith(_SIZE_SUFFIXES)


def _reallocates(function: str) -> bool:
    """Whether a function's name says it gives the memory it is given a new size (``realloc``,
    ``reallocarray``, ``g_realloc_n``, ``_talloc_realloc_array``): its sizes are the new memory's,
    not what the old holds (``realloc(None, 16)`` was refused as 16 bytes more than None holds)."""
    return any(word.startswith("realloc") for word in _words(function))


def _frees(function: str) -> bool:
    """Whether a function's name says it frees what it is given (``uv_free_cpu_info``,
    ``XML_ParserFree``, ``g_list_free_full``, ``proj_destroy``, ``cJSON_Delete``)."""
    return _says(function, ("free", "destroy", "delete", "dispose", "dealloc", "deallocate", "release"))


def _named_for(pointer: str | None, length: str | None) -> bool:
    """Whether a length's name starts with its pointer's, or its stem starts the pointer's name
    (``out, out_count``, ``handle, handle_count``; not ``deflater_ptr, max_..._size``)."""
    bare, count = (pointer or "").strip("_"), (length or "").strip("_")
    if not bare or not count:
        return False
    stem, _ = _stem_and_unit(count)
    return count.startswith(bare) or stem is not None and bool(stem.strip("_")) and _named_after(bare, stem.strip("_"))


def _may_count(module: Module, param: Param, in_a_cell: bool = False) -> bool:
    """Whether ``param`` is an integer (``in_a_cell``: a pointer to one) whose name may say how
    many of something there are: ``n``, ``count``, ``argc``, ``n_properties``, ``num_items``,
    ``..._count`` or ``..._len`` (not a ``flag`` or ``mode``)."""
    integer = _pointee(module, param.type) if in_a_cell else param.type
    if integer is None or _arithmetic(module.resolve(integer)) != "int":
        return False
    bare = (param.name or "").strip("_")
    words = _words(bare)
    return (not bare or bare in _GENERIC_LENGTHS or _counts_only(bare) or bare in ("argc", "nargs", "num")
            or (bool(words) and words[0] in ("n", "num", "nb")) or bare.endswith(_COUNT_SUFFIXES + _SIZE_SUFFIXES))


def _says_many(name: str | None) -> bool:
    """Whether a pointer's name says it points to many: a plural (``regs``, ``ParamTypes``), or
    a list, an array or a vector (``argv``)."""
    bare = (name or "").strip("_")
    lowered = bare.lower()
    return (len(bare) > 2 and bare.endswith("s") and not bare.endswith(("ss", "us", "is"))
            or lowered.endswith(("list", "array", "vec", "argv", "items")))


def _links_to_itself(module: Module, ctype: CType) -> bool:
    """Whether ``ctype`` is a record with a member pointing to its own type: a node of a list or
    tree (GLib's GList, GNode), of which a pointer is one node, not an array."""
    resolved = module.resolve(ctype)
    record = module.find_record(resolved.key) if isinstance(resolved, RecordRef) else None
    for member in (record.fields or ()) if record is not None else ():
        target = module.resolve(member.type)
        if isinstance(target, Pointer):
            pointee = module.resolve(target.target)
            if isinstance(pointee, RecordRef) and pointee.key == resolved.key:  # type: ignore[union-attr]
                return True
    return False


def _has_record_class(module: Module, names: dict, ctype: CType) -> bool:
    resolved = module.resolve(ctype)
    return isinstance(resolved, RecordRef) and resolved.kind != "enum" and _has_class(module, names, resolved)


def _default_sequences(module: Module, names: dict, function: Function, roles: Mapping[str, ParamRole],
                       returned_records: AbstractSet[str] = frozenset()) -> dict[int, str | None]:
    """Parameter index -> the length parameter, for the parameters C reads (or fills) as many
    records or handles of as another parameter says: ``in-array`` of that length, as a config
    would say, so that C gets as many as it is told of (one record passed for poll's ``nfds``
    of 2 let C read and write past it); and -> None for an array of N records (futimens'
    ``const struct timespec times[2]``), an ``in-array`` of at least N.  Such a parameter is

    - an array of records whose length an earlier parameter states (``size_t nmatch,
      regmatch_t pmatch[nmatch]``);
    - a pointer to records followed by their count, by the name rule of :func:`length_unit`
      or :func:`counts_of` (``struct pollfd *fds, nfds_t nfds``; ``const struct iovec *iov,
      int count``), or to handles (LLVM's ``LLVMTypeRef *ParamTypes, unsigned ParamCount``:
      not the ``out`` a non-const ``T **`` is otherwise);
    - a pointer to records or handles after their count named for them by :func:`counts_of`
      (pixman's ``int n_rects, const pixman_rectangle16_t *rects``), or an array declared
      ``[]`` after a count or size named for it (``unsigned num_args, Z3_ast const args[]``,
      ``unsigned domain_size, Z3_sort const domain[]``);
    - pointers to strings, buffers or records (:func:`pointer_item`) followed by a count
      :func:`counts_of` names for them (``const char **parts, int nparts``: a length alone
      is not enough, as ``BIO_nread(bio, char **buf, int num)`` gives back one pointer);
    - pointers C cannot write (``char *const argv[]``, ``const char *const *keywords``),
      counted as handles are, or else read to their NULL: the wrapper passes every list
      with a NULL after its last item.

    Not where the config gives either parameter a role, nor where one length would count
    two (an array stating its length for another array, or two pointers).
    """
    params = function.params
    by_name = {p.name: p for p in params if p.name}
    stated = [p.length_from for p in params if p.length_from]
    found: dict[int, str | None] = {}
    frees = _frees(function.name)
    for index, param in enumerate(params):
        adjusted = adjusted_array(module, param.type)
        pointer = adjusted[0] if adjusted is not None else module.resolve(param.type)
        if not isinstance(pointer, Pointer):
            continue
        element = module.resolve(pointer.target)
        records = _has_record_class(module, names, element)
        if records and frees:
            # the records C frees are those it handed out, not a copy the wrapper makes of them:
            # libuv's uv_free_cpu_info(uv_cpu_info_t *cpu_infos, int count) freed the copy
            continue
        if adjusted is not None and adjusted[1] is not None:  # N items, declared
            if records and adjusted[1] > 1:
                found[index] = None
            continue
        if param.length_from is not None:  # stated by an earlier parameter
            if records and adjusted is not None and not param.length_from.startswith("*"):
                found[index] = param.length_from
            continue
        # (the element as declared: a typedef of void * may name a handle, lcms2's cmsHPROFILE)
        item = pointer_item(module, names, pointer.target) if isinstance(element, Pointer) else None
        handles = item is not None and item[0] == "handle"
        after = params[index + 1].name if index + 1 < len(params) else None
        before = params[index - 1].name if index else None
        # pointers C cannot write (char *const argv[]): a list it reads, not an out-parameter;
        # so is an array of strings declared [] (libblkid's char *names[], which C only
        # reads) where no integer beside it may count it (g_object_setv(object, guint
        # n_properties, const gchar *names[], ...), setproctitle_init(int argc, char *argv[], ...))
        fixed = item is not None and isinstance(element, Pointer) and (
            element.is_const or adjusted is not None and item[0] == "cstring"
            and not any(_may_count(module, params[at]) for at in (index - 1, index + 1) if 0 <= at < len(params)))
        # A length not named for the pointer counts no node of a linked list where it names
        # nothing (n, len, count: GLib's g_list_nth(GList *list, guint n) takes an index), and
        # no handles C gives back through a T ** whose name says one (oniguruma's
        # onig_regset_new(OnigRegSet **rset, int n, ...), nghttp2's
        # nghttp2_hd_deflate_new(nghttp2_hd_deflater **deflater_ptr, size_t max_..._size))
        named = counts_of(param.name, after) or fixed or _named_for(param.name, after)
        # Nor one record the library makes and a bound for it: GSL's gsl_rng_uniform_int(const
        # gsl_rng *r, unsigned long n) (of the rng gsl_rng_alloc returns; not boxes, a plural)
        vague = not named and (
            (after or "").strip("_") in _GENERIC_LENGTHS and (
                _links_to_itself(module, element)
                or isinstance(element, RecordRef) and element.key in returned_records
                and not _says_many(param.name)) if records
            else handles and (not _says_many(param.name)
                              # nor a size the handle a function makes is made with (GnuTLS's
                              # gnutls_x509_trust_list_init(gnutls_x509_trust_list_t *list, unsigned size))
                              or _makes(function.name) and _sizes_only(after)))
        if after in by_name and after not in stated and not vague and (
                records and _counts_records(param.name, after or "", by_name)
                or (handles or fixed) and _counts_handles(param.name, after or "", by_name)
                or item is not None and counts_of(param.name, after)):
            found[index] = after
        elif before in by_name and before not in stated and (records or handles or fixed) and (
                counts_of(param.name, before)  # pixman's int n_rects, const pixman_rectangle16_t *rects
                # a count named for them (libseccomp's unsigned int arg_cnt, const struct
                # scmp_arg_cmp *arg_array), not a length (a sockaddr's addrlen is its bytes)
                or records and _named_for(param.name, before) and _counts_only(before)
                or adjusted is not None and (
                    (before or "").strip("_") in _GENERIC_LENGTHS and _says_many(param.name)
                    # a handle has no byte size: Z3's unsigned domain_size, Z3_sort const domain[]
                    or (handles or fixed) and _named_for(param.name, before))):
            found[index] = before
        elif fixed:
            found[index] = None  # read to its NULL
    counted = [length for length in found.values() if length is not None]
    return {index: length for index, length in found.items()
            if rule_name(params[index].name, index) not in roles and (length is None or (
                length not in roles and counted.count(length) == 1 and stated.count(length) <= 1
                and _arithmetic(module.resolve(by_name[length].type)) == "int"))}


def _releases_through(module: Module, names: dict, function: Function) -> tuple[str, ...] | None:
    """The roles of the parameters of a function that takes nothing but non-const ``T **`` and
    returns nothing, where the ``out`` each otherwise is would leave nothing to pass (None for
    other functions): each as below, a list of characters only alone.  libpng's
    ``png_destroy_read_struct(png_structpp, png_infopp, png_infopp)`` frees them all.

    Of a record or opaque type, ``inout``: C reads the pointer there and writes it back, as
    libcbor's ``cbor_decref(cbor_item_t **item)`` frees and clears it; it still gives back
    what C wrote, for ``None`` passed in.  But where its name says a list (:func:`_names_a_list`),
    ``in``, as for characters.  Of characters of any sign, ``in``: C takes a list of
    strings it handed out, to free (``sqlite3_free_table(char **result)``, GLib's ``g_strfreev``,
    pcre2's ``pcre2_substring_list_free(PCRE2_SPTR *list)``), passed as the ``Pointer`` it came
    back as.
    """
    ret = module.resolve(function.ret)
    if not function.params or not (isinstance(ret, Primitive) and ret.is_void):
        return None
    roles = []
    for param in function.params:
        pointer = module.resolve(param.type)
        if not isinstance(pointer, Pointer) or adjusted_array(module, param.type) is not None:
            return None
        cell = module.resolve(pointer.target)
        if not isinstance(cell, Pointer) or cell.is_const:
            return None
        item = pointer_item(module, names, cell)
        characters = module.resolve(cell.target)
        if item is not None and item[0] in ("handle", "record_ptr"):
            # one named as a list takes the list's Pointer, as the lists of characters below:
            # PROJ's proj_crs_info_list_destroy(PROJ_CRS_INFO **list) frees what another gave
            roles.append("in" if _names_a_list(param.name) else "inout")
        elif (isinstance(characters, Primitive) and characters.name in _CHARS
              and len(function.params) == 1):
            roles.append("in")  # pcre2's PCRE2_SPTR lists (const unsigned char *) too
        else:
            return None
    return tuple(roles)


def _names_a_list(name: str | None) -> bool:
    """Whether a parameter's name says it is many things, not one: ``list``, ``items``,
    ``node_array``, ``infoList``; not ``item``, ``node``, ``address``, ``status``."""
    word = re.split(r"_|(?<=[a-z])(?=[A-Z])", name or "")[-1].lower()
    return word in ("list", "array", "vector", "vec", "table") or (
        len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")))


def _callable_types(module: Module) -> frozenset[str]:
    """The function types the module's functions take pointers to (as :meth:`Module.canonical`
    spells them): a function of one of them is made to be passed as such a pointer (glibc's
    ``alphasort``, ``scandir``'s comparator)."""
    found = set()
    for function in module.functions:
        for param in function.params:
            pointer = module.resolve(adjusted_parameter(module, param.type))
            if isinstance(pointer, Pointer) and isinstance(module.resolve(pointer.target), FunctionType):
                found.add(module.canonical(pointer.target).to_c())
    return frozenset(found)


def _pointer_values(module: Module) -> frozenset[str]:
    """The typedefs of a non-const ``T **`` that the module's functions hand out, returned or
    written through a pointer to one: values of their own, which C takes as they are.
    OpenLDAP's ``typedef LDAPAVA **LDAPRDN`` (and ``LDAPDN``, of ``LDAPRDN *``), which
    ``ldap_str2dn(str, LDAPDN *dn, flags)`` gives and ``ldap_dn2str(LDAPDN dn, ...)`` and
    ``ldap_dnfree(LDAPDN dn)`` take: a parameter spelled by one is no out-parameter, as the
    ``T **`` a declarator writes is.  One whose name says it is a pointer to a pointer stays
    the address of the caller's pointer: libpng's ``png_charpp`` (``png_get_iCCP(png, info,
    png_charpp name, ...)`` writes ``*name``) and ``png_structpp``."""
    found = set()
    for function in module.functions:
        candidates = [as_type(function.ret)]
        for param in function.params:
            pointer = as_type(param.type)
            if isinstance(pointer, Pointer) and not pointer.target.is_const:
                candidates.append(as_type(pointer.target))
        for ctype in candidates:
            if not isinstance(ctype, TypedefRef) or ctype.name in found or _names_a_double_pointer(ctype.name):
                continue
            resolved = module.resolve(ctype)
            if isinstance(resolved, Pointer) and isinstance(cell := module.resolve(resolved.target), Pointer) \
                    and not cell.is_const:
                found.add(ctype.name)
    return frozenset(found)


def _returned_records(module: Module) -> frozenset[str]:
    """The keys of the records a function returns a pointer to: objects the library makes
    (GSL's ``gsl_rng *gsl_rng_alloc(const gsl_rng_type *T)``), see :func:`_default_sequences`."""
    found = set()
    for function in module.functions:
        pointer = module.resolve(function.ret)
        record = module.resolve(pointer.target) if isinstance(pointer, Pointer) else None
        # one object, not an array a count says the size of (point_array_new(int n),
        # hb_buffer_get_glyph_infos(buffer, unsigned int *length))
        if isinstance(record, RecordRef) and record.kind != "enum" and not any(
                _may_count(module, param) or _may_count(module, param, in_a_cell=True) for param in function.params):
            found.add(record.key)
    return frozenset(found)


@frozen_dataclass()
class ModuleFacts:
    """What the plan of every function of a module reads of the whole module, worked out once."""

    #: :func:`_callable_types`: a function of one of them takes its parameters as a callable of
    #: that type is given them: its non-const ``T **`` are no out-parameters (``alphasort(const
    #: struct dirent **, const struct dirent **)``, given two empty cells, read through them)
    callable_types: frozenset[str] = frozenset()
    pointer_values: frozenset[str] = frozenset()  #: :func:`_pointer_values`
    returned_records: frozenset[str] = frozenset()  #: :func:`_returned_records`

    @classmethod
    def of(cls, module: Module) -> ModuleFacts:
        return cls(_callable_types(module), _pointer_values(module), _returned_records(module))


def _names_a_double_pointer(name: str) -> bool:
    """Whether a typedef's name says it is a pointer to a pointer: ``png_charpp``, ``LPPVOID``,
    ``voidpp``, ``CharPtrPtr``."""
    lowered = name.lower().rstrip("_")
    return lowered.endswith(("pp", "ptrptr", "ptr_ptr", "pointerpointer")) or lowered.startswith("lpp")


def plan_function(
    module: Module, config: BindingConfig, names: dict, function: Function, target: TargetInfo,
    table_fields: frozenset[str], module_names: AbstractSet[str], cell_types: tuple[CellBinding, ...],
    facts: ModuleFacts | None = None,
) -> FunctionBinding:
    """The wrapper plan of one function; raises :class:`Unsupported` when it cannot be wrapped.

    ``module_names``: the module-level names (``names``' values), which no parameter
    may hide; ``cell_types``: :func:`plan_cells` on ``target``; ``facts``: what it reads of
    the whole module.  They are the same for every function, so :func:`plan_functions`
    works them out once.
    """
    facts = facts or ModuleFacts()
    callable_types, pointer_values = facts.callable_types, facts.pointer_values
    roles: dict[str, ParamRole] = {}
    nonnull: set[str] = set()
    release_gil, min_bytes = config.release_gil, config.release_gil_min_bytes
    errors = None
    returns_owner: tuple[str, str] | None = None  # (deallocator, the config key that names it)
    returns_pointer = ""  # the config key that reads returned characters as a Pointer
    role_keys: dict[str, str] = {}
    # a rule may name the function by a macro that stands for it (pcre2's pcre2_compile for
    # pcre2_compile_8): the check of rules counted it as matched, so it applies
    aliases = [alias.name for alias in module.function_aliases if alias.target == function.name]
    rules = config.rules_for(function.name, aliases)
    for rule in rules:
        roles.update(rule.params)
        role_keys.update({name: f"{rule.key}.params.{name}" for name in rule.params})
        nonnull.update(rule.nonnull)
        if rule.release_gil is not None:
            release_gil, min_bytes = rule.release_gil, rule.release_gil_min_bytes
        if rule.errors is not None:
            errors = rule.errors
        if rule.returns_owner is not None:
            returns_owner = (rule.returns_owner, f"{rule.key}.returns")
        if rule.returns_pointer:
            returns_pointer = f"{rule.key}.returns"
    attribute_nonnull = function.nonnull
    by_name = {rule_name(p.name, i): i for i, p in enumerate(function.params)}
    # Roles naming parameters this function lacks are ignored: a glob rule
    # (``C_*``) applies its roles where the names fit.
    defaults = _counted_out_numbers(module, function, [default_role(module, names, p.type) for p in function.params])
    # a T ** spelled by a typedef the library hands out is a value, taken as it is
    values = {i for i, p in enumerate(function.params)
              if isinstance(spelled := as_type(p.type), TypedefRef) and spelled.name in pointer_values}
    defaults = [ParamRole("in") if i in values else role for i, role in enumerate(defaults)]
    if (callable_types and any(role.role != "in" for role in defaults)
            and module.canonical(function.type).to_c() in callable_types):
        defaults = [ParamRole("in")] * len(defaults)  # made to be passed as a callable
    param_roles = [_with_default(roles.get(rule_name(p.name, i)), defaults[i]) for i, p in enumerate(function.params)]
    for index, counted_by in _default_sequences(module, names, function, roles, facts.returned_records).items():
        param_roles[index] = ParamRole("in-array", counted_by)
    for index, released in enumerate(_releases_through(module, names, function) or ()):
        if not roles.get(rule_name(function.params[index].name, index)) and index not in values:
            param_roles[index] = ParamRole(released, None, param_roles[index].owner)

    # Lengths: a parameter named by an array role measures it, whatever its own role says.
    length: dict[int, int] = {}
    length_of: dict[int, int] = {}
    also: dict[int, list[int]] = {}  # a count -> the in-array parameters it counts besides length_of's
    for index, role in enumerate(param_roles):
        target_name = None
        if role.role in _SEQUENCE_ROLES and role.length:
            target_name = role.length
        elif role.role == "len" and role.length:
            target_name = role.length
        if target_name is None:
            continue
        if target_name not in by_name:
            raise Unsupported(f"parameter {index + 1} ({function.params[index].name}): no parameter {target_name!r} "
                              f"for its {role.role} role")
        other = by_name[target_name]
        measured, measure = (index, other) if role.role != "len" else (other, index)
        if role.role == "len" and param_roles[measured].role not in ("in", *_SEQUENCE_ROLES):
            raise Unsupported(f"parameter {index + 1} ({function.params[index].name}) measures {target_name!r}, "
                              f"whose role {param_roles[measured].role!r} has no length")
        if length.get(measured, measure) != measure:
            raise Unsupported(f"parameter {function.params[measured].name!r} is measured by two parameters")
        if length_of.get(measure, measured) != measured:
            # one count of two lists C reads as many items of (glShaderSource's string and length)
            if not (role.role == "in-array" and param_roles[length_of[measure]].role == "in-array"):
                raise Unsupported(f"parameter {function.params[measure].name!r} cannot measure two parameters, "
                                  "except lists both given as in-array")
            if measured not in also.setdefault(measure, []):
                also[measure].append(measured)
            length[measured] = measure
            continue
        length[measured] = measure
        length_of[measure] = measured
        param_roles[measure] = ParamRole("len", function.params[measured].name)
    for index, role in enumerate(param_roles):
        if role.role == "len" and index not in length_of:
            raise Unsupported(f"parameter {index + 1} ({function.params[index].name}) has role 'len' but measures "
                              "nothing: name it in an array role or write len(NAME)")
        if role.role in ("out-array", "out-bytes") and index not in length:
            raise Unsupported(f"parameter {index + 1} ({function.params[index].name}): role {role.role!r} "
                              "needs a length parameter, e.g. out-bytes(pulLen)")
        if role.at_most is not None and not isinstance(module.resolve(function.params[length[index]].type),
                                                       (Pointer, Array)):
            # the caller's length goes to C as it is: a smaller buffer could be overrun
            raise Unsupported(f"parameter {index + 1} ({function.params[index].name}): at_most bounds a length C "
                              f"writes back through a pointer, and {function.params[length[index]].name!r} is "
                              "passed by value (the caller gives the size): drop at_most")

    params = []
    used: set[str] = {"self"}  # wrappers may be methods of the Library
    position = 0  # among the arguments the Python caller passes
    for index, param in enumerate(function.params):
        role = param_roles[index]
        try:
            kind, key, element = _plan_param(module, names, index, param.type, role)
            callback = (plan_callback(module, target, names, adjusted_parameter(module, param.type),
                                      element)  # type: ignore[arg-type]
                        if kind == "callback" else None)
        except Unsupported as exc:
            raise Unsupported(f"parameter {index + 1} ({param.name or 'unnamed'}): {exc}") from None
        if role.as_pointer:
            kind = _as_pointer(kind if role.role == "out" else "", f"its parameter {rule_name(param.name, index)!r}",
                               role_keys.get(rule_name(param.name, index), config.key("functions")), config,
                               function.name)
        typedef = callback_typedef(module, param.type)
        if role.on_error is not None or typedef in config.callbacks:
            where = (role_keys.get(rule_name(param.name, index), config.key("functions")) if role.on_error is not None
                     else config.key(f"callbacks.{typedef}"))
            text = role.on_error or config.callbacks[typedef]
            if callback is None:
                raise ConfigError(Diagnostic(
                    config.coord(where),
                    f"{where}: on_error({text}) is for a function pointer parameter, but {param.name!r} "
                    f"of {function.name} is not one"))
            callback = callback_on_error(module, config, callback, text, where)
        if index in length_of and role.role == "len":
            measured_role = param_roles[length_of[index]].role
            measured_kind = _plan_param(module, names, length_of[index], function.params[length_of[index]].type,
                                        param_roles[length_of[index]])[0]
            if measured_role == "in" and measured_kind not in ("buffer", "writable_buffer"):
                raise Unsupported(f"parameter {index + 1} ({param.name}) measures "
                                  f"{function.params[length_of[index]].name!r}, which is not a buffer")
        # A parameter may not hide a module-level name the wrapper body needs (a class, a function).
        py_name = python_identifier(param.name) if param.name else f"arg{index}"
        while py_name in module_names or py_name in used:
            py_name += "_"
        used.add(py_name)
        by_pointer = role.role == "len" and element is not None
        is_input = (
            role.role == "len" and not by_pointer and param_roles[length_of[index]].role in ("out-array", "out-bytes")
        )
        passed = role.role in ("in", "inout", "in-array")
        position = position + 1 if passed or is_input else position
        is_nonnull = passed and (kind in _POINTER_KINDS or role.role == "in-array") and (
            "*" in nonnull or rule_name(param.name, index) in nonnull or index + 1 in attribute_nonnull
        )
        adjusted = adjusted_array(module, param.type)
        passes_as = adjusted_parameter(module, param.type)
        # a buffer a len parameter is measured from takes only what has a length: no cells, no Pointers
        measured = index in length and role.role == "in"
        cells, cell_tag = (cells_for(module, target, cell_types, element, adjusted[1] if adjusted else None)
                           if role.role == "in" and kind in ("buffer", "writable_buffer") and not measured
                           else ((), ""))
        if (role.role == "in" and kind in ("buffer", "writable_buffer") and not measured and not cells
                and _points_to_void(module, param.type)):
            # C takes any object's address (libmagic's magic_getparam, getsockopt's optval): any cell
            cells, cell_tag = tuple(cell.py_name for cell in cell_types), ANY_CELL
        params.append(ParamBinding(
            index, param.name, py_name, param.type, role, kind, key, element,  # type: ignore[arg-type]
            nonnull=is_nonnull, length=length.get(index),
            length_of=length_of.get(index) if role.role == "len" else None,
            also_measures=tuple(also.get(index, ())) if role.role == "len" else (),
            by_pointer=by_pointer, is_input=is_input, position=position if passed or is_input else 0,
            array_length=adjusted[1] if adjusted is not None and (kind in ("buffer", "writable_buffer") or (
                role.role == "in-array" and role.length is None and kind == "record")) else None,
            adjusted=None if passes_as is param.type else passes_as,
            pointer_type="" if measured else _pointer_text(module, kind, role, param.type, element),
            text=kind in ("cstring", "buffer") and role.role == "in" and element is not None
            and is_character(module, element),
            cells=cells, cell_tag=cell_tag,
            callback=callback, counted=measured,
        ))
    # a callable C may keep lives with the first handle or record the call was given
    keeper = next((p.index for p in params if p.kind in ("handle", "record_ptr") and p.role.role == "in"), None)
    user_data = _user_data(module, params)
    for index, planned in enumerate(params):
        if planned.callback is not None:
            params[index] = replace(planned, callback=replace(
                planned.callback, keeper=keeper, user_data=user_data))
    names_of = frozenset(p.c_name for p in params if p.c_name)
    for chars, cell in zip(params, params[1:], strict=False):
        # characters C writes a pointer to, and their length to the cell after, named for them,
        # both perhaps ending as pointers do (libdbus's dbus_message_marshal(msg, char
        # **marshalled_data_p, int *len_p): a message holds NULs)
        if (chars.role.role == "out" and chars.kind == "string" and cell.role.role == "in"
                and cell.kind == "writable_buffer" and cell.cell_tag[:1] in ("i", "u")
                and rule_name(cell.c_name, cell.index) not in roles
                and length_unit(_without_pointer_ending(chars.c_name, p=True),
                                _without_pointer_ending(cell.c_name, p=True), names_of) is not None):
            params[chars.index] = replace(chars, length_param=cell.index)
    bounds = {} if _reallocates(function.name) else _bounds(module, function, params, set(roles))
    factors = _factors(module, target, params, bounds, set(roles))
    for index, (pointers, unit) in bounds.items():
        params[index] = replace(params[index], bounds=pointers, bound_unit=unit, bound_factor=factors.get(index))
        for bounded in pointers:
            params[bounded] = replace(params[bounded], counted=True)
    for index, planned in enumerate(params):
        if planned.role.owner is not None:
            named = rule_name(planned.c_name, index)
            _check_owned(config, role_keys.get(named, config.key("functions")), function.name,
                         planned.role.owner, planned.kind, planned.role.role, f"its parameter {named!r}")
            params[index] = replace(planned, owner=planned.role.owner)
    ret_kind, ret_key = classify_return(module, names, function.ret)
    if returns_pointer:
        ret_kind = _as_pointer(ret_kind, "what it returns", returns_pointer, config, function.name)
    by_value = {ret_kind, *(p.kind for p in params if p.role.role == "in")}
    # a variadic call is made through libffi where a backend cannot spell it in C
    if function.variadic and "record" in by_value:
        raise Unsupported("a variadic function taking or returning a record by value cannot be called yet")
    if function.variadic and "complex" in by_value:  # libffi has no complex type
        raise Unsupported("a variadic function taking or returning a complex value cannot be called yet")
    if returns_owner is not None:
        _check_owned(config, returns_owner[1], function.name, returns_owner[0], ret_kind, "out", "what it returns")
    check = error_check(module, config, function.ret) if errors is not False else None
    ruled = any(rule.release_gil is not None for rule in rules)
    if any(p.kind == "callback" for p in params) and not ruled:
        # C may call the callable from a thread of its own while this one waits for it:
        # that thread needs the GIL (ctypes and cffi release it around every call)
        release_gil = True
    binding = FunctionBinding(
        function,
        names[("function", function.name)],
        tuple(params),
        ReturnBinding(function.ret, ret_kind, ret_key,  # type: ignore[arg-type]
                      pointer_type(module, function.ret) if ret_kind == "pointer"
                      else function_pointer_type(module, function.ret) if ret_kind == "function_pointer" else "",
                      returns_owner[0] if returns_owner is not None else None,
                      _result_length(params, set(roles)) if ret_kind == "string" else None),
        check,
        release_gil,
        min_bytes if release_gil else 0,
        function.name if function.name in table_fields else None,
        varargs=_varargs_name(used) if function.variadic else None,
        release_gil_ruled=ruled,
    )
    if binding.release_gil_min_bytes and not binding.data:
        # no data to count, so never N bytes of it: the GIL is kept (C_DigestInit beside C_Digest)
        return replace(binding, release_gil=False, release_gil_min_bytes=0)
    return binding


def _varargs_name(used: set[str]) -> str:
    """The name of a variadic wrapper's ``*args``: ``args``, unless a parameter has it."""
    name = "args"
    while name in used:
        name += "_"
    return name


def table_function_fields(module: Module, struct_key: str) -> frozenset[str]:
    """The members of a function table struct that hold function pointers."""
    record = module.find_record(struct_key)
    found = set()
    for member in (record.fields if record is not None else None) or ():
        resolved = module.resolve(member.type)
        if member.name and isinstance(resolved, Pointer) and isinstance(module.resolve(resolved.target), FunctionType):
            found.add(member.name)
    return frozenset(found)


def plan_functions(
    module: Module, config: BindingConfig, names: dict, target: TargetInfo, table: FunctionTableBinding | None = None,
    exports: Exports | None = None,
) -> tuple[list[FunctionBinding], list[Function], list[Diagnostic]]:
    """Wrapper plans, the functions only declared, and why each of those was left out.

    With ``exports`` (what the linked libraries define, when that is known),
    a function they do not export is left out too: all of those in one warning.
    """
    table_fields = table_function_fields(module, table.struct_key) if table is not None else frozenset()
    module_names = frozenset(names.values()) | MODULE_NAMES  # what a parameter may not hide
    cell_types = plan_cells(target)[0]
    facts = ModuleFacts.of(module)
    bound, declared_only, dropped = [], [], []
    unexported: list[Function] = []
    for function in module.functions:
        if table is not None and function.name == table.getter.name:
            continue  # load() calls it; the Library has no method for it
        if exports is not None and exports.complete and not exports.defines(function.symbol):
            unexported.append(function)
            continue
        try:
            bound.append(plan_function(module, config, names, function, target, table_fields, module_names,
                                       cell_types, facts))
        except Unsupported as exc:
            dropped.append(Diagnostic(function.coord, f"function {function.name!r} is not wrapped: {exc}", "warning"))
            if function.variadic:
                declared_only.append(function)
    if unexported:
        count = f"{len(unexported)} function{'s' if len(unexported) > 1 else ''}"
        dropped.append(Diagnostic(
            unexported[0].coord,
            f"{count} the headers declare {'are' if len(unexported) > 1 else 'is'} not exported by "
            f"{exports.describe()}; left out: {', '.join(f.name for f in unexported)}",  # type: ignore[union-attr]
            "warning",
        ))
    return bound, declared_only, dropped


def plan_ownership(
    config: BindingConfig, functions: list[FunctionBinding]
) -> tuple[list[FunctionBinding], tuple[Deallocator, ...], frozenset[str]]:
    """The functions ownership rules name as deallocators, checked against what the binding wraps;
    the functions marked as those that disown their argument, and the record keys that may be owned.

    A deallocator is a function the binding wraps that takes one pointer (the
    thing it frees), or the C library's ``free``.
    """
    users: dict[str, str] = {}  # deallocator -> the first function whose results it frees
    for f in functions:
        for owner in (f.ret.owner, *(p.owner for p in f.params)):
            if owner is not None:
                users.setdefault(owner, f.function.name)
    by_name = {f.function.name: f for f in functions}
    deallocators, problems = [], []
    for name in sorted(users):
        binding = by_name.get(name)
        if binding is None and name == "free":
            deallocators.append(Deallocator("free"))
            continue
        where = f"owned({name}), for what {users[name]} gives"
        if binding is None:
            problems.append(f"{where}: the binding wraps no function {name!r} "
                            "(name a function the library exports, or free)")
        elif len(binding.params) != 1 or binding.params[0].role.role != "in" \
                or binding.params[0].kind not in _POINTER_KINDS:
            problems.append(f"{where}: {name} must take one pointer, the thing it frees: {binding.function.to_c()}")
        else:
            deallocators.append(Deallocator(name, binding))
    if problems:
        key = config.key("functions")
        raise ConfigError([Diagnostic(config.coord(key), f"{key}: {problem}") for problem in problems])
    owned = [f.ret.record_key for f in functions if f.ret.owner is not None and f.ret.kind == "record_ptr"]
    owned += [p.record_key for f in functions for p in f.params
              if p.owner is not None and p.kind in ("record", "record_ptr")]
    freeing = {d.name for d in deallocators}
    marked = [replace(f, disowns=True) if f.function.name in freeing else f for f in functions]
    return marked, tuple(deallocators), frozenset(key for key in owned if key is not None)


def plan_function_table(module: Module, config: BindingConfig) -> FunctionTableBinding | None:
    """Check ``function_table`` against the headers: the getter's shape and the struct it fills."""
    table = config.function_table
    if table is None:
        return None
    setting = config.key("function_table")
    where = config.coord(setting)
    if config.load != "dynamic":
        raise ConfigError(Diagnostic(where, f"{setting}: needs load = \"dynamic\""))
    getter = module.find_function(table.getter)
    if getter is None:
        raise ConfigError(Diagnostic(config.coord(f"{setting}.getter"),
                                     f"{setting}.getter: the headers declare no function {table.getter!r} "
                                     "(or include/exclude leave it out)"))
    struct = module.find_typedef(table.struct)
    struct_type = module.resolve(struct.type) if struct is not None else None
    if not isinstance(struct_type, RecordRef):
        for key in (table.struct, f"struct {table.struct}"):
            record = module.find_record(key)
            if record is not None:
                struct_type = record.ref
                break
    if not isinstance(struct_type, RecordRef) or struct_type.kind != "struct":
        raise ConfigError(Diagnostic(config.coord(f"{setting}.struct"),
                                     f"{setting}.struct: {table.struct!r} is not a struct of the headers"))
    record_key = struct_type.key

    def points_to_table(ctype: CType, depth: int) -> bool:
        for _ in range(depth):
            resolved = module.resolve(ctype)
            if not isinstance(resolved, Pointer):
                return False
            ctype = resolved.target
        resolved = module.resolve(ctype)
        return isinstance(resolved, RecordRef) and resolved.key == record_key

    function = getter
    if len(function.params) == 1 and points_to_table(function.params[0].type, 2):
        return FunctionTableBinding(function, record_key, False, error_check(module, config, function.ret))
    if not function.params and points_to_table(function.ret, 1):
        return FunctionTableBinding(function, record_key, True)
    raise ConfigError(Diagnostic(
        function.coord or where,
        f"{setting}.getter: {table.getter} must be 'R {table.getter}({table.struct} **)' or "
        f"'{table.struct} *{table.getter}(void)'",
    ))


def plan_handles(module: Module, names: dict) -> list[HandleBinding]:
    """A handle class for each opaque type with a name: incomplete structs/unions, typedefs of ``void``."""
    from .naming import class_names

    handles = []
    every_class = class_names(module)
    for record in module.records:
        if record.is_opaque and ("record", record.key) in names:
            aliases = tuple(
                names[("alias", alias)] for alias in every_class[record.key] if ("alias", alias) in names
            )
            handles.append(HandleBinding(record.key, names[("record", record.key)], aliases, record.doc, record))
    for typedef in module.typedefs:
        if ("handle", typedef.name) in names:
            doc = typedef.doc
            if not doc and isinstance(as_type(typedef.type), Pointer):  # a typedef of void *, not of void
                doc = f"A {typedef.name}, which functions of the library return and take."
            handles.append(HandleBinding(typedef.name, names[("handle", typedef.name)], (), doc))
    return handles


def plan_error_classes(module: Module, config: BindingConfig, names: dict) -> ErrorClasses | None:
    """The exception subclasses: one per error-code constant, the first of each value."""
    import fnmatch

    policy = config.error_policy
    if policy is None:
        return None
    try:
        success = _resolve_success(module, policy.success)
    except Unsupported as exc:
        raise ConfigError(Diagnostic(config.coord(config.key("error_policy.success")), str(exc))) from None
    candidates: list[tuple[Coord | None, str, int, str]] = []
    for constant in module.constants:
        if isinstance(constant.value, int) and not isinstance(constant.value, bool):
            candidates.append((constant.coord, constant.name, constant.value,
                               names.get(("constant", constant.name), "")))
    for enum in module.enums:
        for member in enum.members:
            candidates.append((member.coord, member.name, member.value, names.get(("member", member.name), "")))
    candidates.sort(key=lambda c: (c[0].file, c[0].line, c[0].col) if c[0] is not None else ("", 0, 0))
    seen: set[int] = {success}
    codes = []
    for _coord, c_name, value, _py_name in candidates:
        if fnmatch.fnmatchcase(c_name, policy.codes) and value not in seen:
            seen.add(value)
            codes.append((python_identifier(c_name), c_name, value))
    return ErrorClasses(policy, success, tuple(codes))


def _bit_range(module: Module, member: Field, target: TargetInfo) -> tuple[int, int] | None:
    if member.bit_width is None:
        return None
    # gcc gives an enum bitfield the enum's underlying type: unsigned unless some enumerator is negative
    primitive = integer_primitive(module, member.type, target)
    return bit_range(member.bit_width, primitive is None or target.is_signed(primitive))


def plan_field(module: Module, names: dict, member: Field, path: str, target: TargetInfo,
               data: bool = False) -> FieldBinding:
    """How one named member is presented; raises :class:`Unsupported` for the rest.  ``data``:
    characters it points at are data (``pointer_fields``), read as a ``Pointer``, not as text."""
    binding = _field_kind(module, names, member, path, target, data)
    if binding.kind == "function_pointer":
        return replace(binding, c_text=function_pointer_type(module, member.type))
    return replace(binding, c_text=unnamed(module.resolve(member.type)).to_c())


def _field_kind(module: Module, names: dict, member: Field, path: str, target: TargetInfo,
                data: bool) -> FieldBinding:
    py_name = field_identifier(path)
    resolved = module.resolve(member.type)
    enum = _enum_key(module, names, resolved)
    kind = "enum" if enum is not None else _arithmetic(resolved)  # an enum reads as its IntEnum's member
    if kind is not None:
        bits = _bit_range(module, member, target)
        # what an assignment takes: the bitfield's range, else the type's
        values = bits or (integer_range(module, member.type, target) if kind in ("int", "enum") else None)
        return FieldBinding(path, py_name, member.type, kind, record_key=enum,  # type: ignore[arg-type]
                            bit_width=member.bit_width, bit_range=bits, int_range=values)
    if isinstance(resolved, RecordRef):
        if _has_class(module, names, resolved):  # anonymous ones too: the naming pass named them
            return FieldBinding(path, py_name, member.type, "record", record_key=resolved.key)
        raise Unsupported(f"{resolved.to_c()} is opaque")
    if isinstance(resolved, Array):
        if resolved.length is None:
            raise Unsupported("flexible array members have no fixed size")
        element = module.resolve(resolved.element)
        if isinstance(element, Primitive) and element.name in _CHARS:
            kind = "char_array" if element.name == "char" else "byte_array"
            return FieldBinding(path, py_name, member.type, kind, length=resolved.length, element=resolved.element)  # type: ignore[arg-type]
        element_kind = _arithmetic(element)
        if element_kind is not None:
            return FieldBinding(path, py_name, member.type, "array", length=resolved.length,
                                element=resolved.element, element_kind=element_kind)
        if isinstance(element, RecordRef) and _has_class(module, names, element):
            return FieldBinding(path, py_name, member.type, "record_array", record_key=element.key,
                                length=resolved.length, element=resolved.element)
        # an array of pointers or of arrays (a matrix's double m[4][4], char *argv[4], int *rows[2]):
        # a Pointer to its first element, as the array decays in C, where Python reads its elements
        decayed = Pointer(resolved.element)
        text = pointer_type(module, decayed)
        if any(e.pointer_type == text for e in pointer_elements(module, target, names, [decayed])):
            return FieldBinding(path, py_name, member.type, "array_pointer", length=resolved.length,
                                element=resolved.element, pointer_type=text)
        raise Unsupported(f"arrays of {resolved.element.to_c()} are not supported")
    if isinstance(resolved, Pointer):
        return _pointer_field(module, names, member, path, py_name, resolved, target, data)
    raise _unconvertible(module, member.type, f"{member.type.to_c()} has no Python conversion")


def _pointer_field(module: Module, names: dict, member: Field, path: str, py_name: str, pointer: Pointer,
                   target: TargetInfo, data: bool) -> FieldBinding:
    """A pointer member: what it points to decides how it reads and what it takes (see :class:`FieldBinding`)."""
    pointee = module.resolve(pointer.target)
    if isinstance(pointee, FunctionType):
        try:
            callback: CallbackBinding | None = plan_callback(module, target, names, member.type, pointee)
        except Unsupported:
            callback = None  # only FunctionPointers: what C calls it with cannot reach Python
        return FieldBinding(path, py_name, member.type, "function_pointer", callback=callback)
    key = handle_key(module, names, member.type)
    if key is not None:
        return FieldBinding(path, py_name, member.type, "handle", record_key=key)
    writable_pointee = "const" not in pointee.quals
    if is_character(module, pointer.target) and not data:  # text, as C's string functions read it
        return FieldBinding(path, py_name, member.type, "string", copies_readonly=writable_pointee)
    # data: assignable from a buffer the record keeps alive; C may write through
    # a typed pointer to non-const, and reads one element.  ``void *`` says
    # nothing of direction: APIs declare read-only data so (PKCS#11's
    # CK_MECHANISM.pParameter), so it takes bytes, copied when C may write.
    void = isinstance(pointee, Primitive) and pointee.is_void
    try:
        size = 0 if void else size_align(module, pointer.target, target)[0]
    except LayoutError:
        size = 0  # an incomplete pointee: no element size to check
    binding = FieldBinding(path, py_name, member.type, "data_pointer", pointee_size=size,
                           needs_writable=not void and writable_pointee, copies_readonly=void and writable_pointee,
                           pointer_type=pointer_type(module, pointer))
    if isinstance(pointee, RecordRef) and pointee.kind != "enum" and _has_class(module, names, pointee):
        # a record of its class; the data pointer's facts stay for a backend without the class
        return replace(binding, kind="record_ptr", record_key=pointee.key)
    return binding


def _members(module: Module, record: Record, shared: bool = False):
    """(C path, Field, shared) of every named member, lifting anonymous struct/union members;
    ``shared``: the member's bytes are another member's too (a union's, or one lifted from an
    anonymous union)."""
    shared = shared or record.kind == "union"
    for member in record.fields or ():
        if member.name is not None:
            yield member.name, member, shared
            continue
        resolved = module.resolve(member.type)
        if isinstance(resolved, RecordRef) and resolved.kind != "enum":
            inner = module.find_record(resolved.key)
            if inner is not None:
                yield from _members(module, inner, shared)
        # an unnamed bitfield is padding: nothing to bind


def _distinct_names(fields: list[FieldBinding]) -> list[FieldBinding]:
    """``fields``, a Python name two of them share made distinct by a trailing ``_`` on the later
    (``__x`` and ``_x`` are both ``_x``: see :func:`~pegbind.passes.naming.unmangled`)."""
    taken: set[str] = set()
    distinct = []
    for field in fields:
        name = field.py_name
        while name in taken:
            name += "_"
        taken.add(name)
        distinct.append(field if name == field.py_name else replace(field, py_name=name))
    return distinct


def follows_text(module: Module, ctype: CType, seen: frozenset[str] = frozenset()) -> bool:
    """Whether reading a member of ``ctype`` as Python reads it follows a pointer: one to
    characters (read up to the NUL), held directly or in a record or array held by value."""
    resolved = module.resolve(ctype)
    match resolved:
        case Pointer():
            return is_character(module, resolved.target)
        case Array():
            return follows_text(module, resolved.element, seen)
        case RecordRef():
            inner = module.find_record(resolved.key) if resolved.kind != "enum" else None
            if inner is None or resolved.key in seen:
                return False
            return any(follows_text(module, member.type, seen | {resolved.key}) for member in inner.fields or ())
        case Primitive() | TypedefRef() | FunctionType():
            return False
        case _:
            assert_never(resolved)


def holds_pointers(module: Module, ctype: CType, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a value of ``ctype`` holds an address anywhere in its bytes.

    Walks the C layout rather than the bound fields: a member left unbound (an
    anonymous record, an unsupported array) still occupies bytes that
    ``from_bytes`` would fill.
    """
    resolved = module.resolve(ctype)
    match resolved:
        case Pointer():
            return True
        case Array():
            return holds_pointers(module, resolved.element, seen)
        case RecordRef():
            if resolved.kind == "enum" or resolved.key in seen:
                return False
            inner = module.find_record(resolved.key)
            if inner is None or inner.fields is None:
                return False
            return any(holds_pointers(module, member.type, seen | {resolved.key}) for member in inner.fields)
        case Primitive() | TypedefRef() | FunctionType():
            return False
        case _:
            assert_never(resolved)


#: what the rest of a character pointer member's name is, once the start it shares with
#: its length member is taken off (``dptr``/``dsize``, ``mv_data``/``mv_size``, ``str``/``len``,
#: krb5's ``krb5_keyblock { ...; unsigned int length; krb5_octet *contents; }``)
_DATA_WORDS = frozenset({"", "ptr", "p", "data", "buf", "buffer", "str", "string", "s", "text", "bytes", "chars",
                         "val", "value", "mem", "base", "packet", "payload", "contents", "content"})
#: ... and the rest of the length member's name
_LENGTH_WORDS = frozenset({"size", "sz", "len", "length", "n", "nbytes", "bytes", "count", "cnt"})


def _states_length_of(pointer: str, length: str) -> bool:
    """Whether the member ``length`` is named as the length of the character pointer member ``pointer``."""
    shared = os.path.commonprefix([pointer, length])
    rest_p, rest_n = pointer[len(shared):].strip("_").lower(), length[len(shared):].strip("_").lower()
    return rest_p in _DATA_WORDS and rest_n in _LENGTH_WORDS


def _with_length_members(fields: list[FieldBinding]) -> list[FieldBinding]:
    """``fields``, each pointer to characters given the integer member that states its length.

    A record that holds characters with their count (gdbm's ``datum``, gnutls's
    ``gnutls_datum_t { unsigned char *data; unsigned int size; }``, hiredis's
    ``size_t len; char *str;``, libyaml's ``anchor, tag, value, length``, libuv's
    ``uv_buf_t { char *base; size_t len; }``) says so by
    the two names (:func:`_states_length_of`): the characters are data, which may hold
    NULs and need not end with one.  An integer is the length of one pointer at most,
    and a pointer with two candidates has none.
    """
    strings = [f for f in fields if f.kind == "string"]
    counts = [f for f in fields if f.kind == "int" and f.bit_width is None]
    paired: dict[str, str] = {}  # a pointer's path -> its length member's Python name
    for string in strings:
        found = [count for count in counts if _states_length_of(string.path, count.path)]
        if len(found) == 1:
            paired[string.path] = found[0].py_name
    taken = list(paired.values())
    paired = {path: count for path, count in paired.items() if taken.count(count) == 1}
    counted = {count: string for string in strings for path, count in paired.items() if string.path == path}
    out = []
    for f in fields:
        if f.kind == "string" and f.path in paired:
            f = replace(f, length_member=paired[f.path])
        elif f.kind == "int" and f.py_name in counted:
            f = replace(f, counts=(counted[f.py_name].path, counted[f.py_name].py_name))
        out.append(f)
    return out


def _member_glob(entry: str, record_names: Iterable[str]) -> str | None:
    """The member glob of a ``pointer_fields`` entry (``RECORD.MEMBER``) if its record glob
    matches a name C gives the record (its typedefs and tag: see
    :func:`~pegbind.passes.naming.class_names`), else None."""
    record, _, member = entry.partition(".")
    return member if any(fnmatch.fnmatchcase(name, record) for name in record_names) else None


def data_members(config: BindingConfig, record_names: Iterable[str]) -> list[str]:
    """The member globs ``config.pointer_fields`` gives the record C calls by ``record_names``."""
    names = list(record_names)
    return [glob for entry in config.pointer_fields if (glob := _member_glob(entry, names)) is not None]


def check_pointer_fields(module: Module, config: BindingConfig) -> None:
    """A ``pointer_fields`` entry that names no member pointing at characters is a mistake (a
    misspelt name, a member that reads as a ``Pointer`` already): ConfigError at the entry."""
    from .naming import class_names

    every_class = class_names(module) if config.pointer_fields else {}
    problems = []
    for index, entry in enumerate(config.pointer_fields):
        key = config.key(f"pointer_fields[{index}]") if config.from_file else "--pointer-field"
        record_glob, _, member_glob = entry.partition(".")
        if not record_glob or not member_glob:
            problems.append(Diagnostic(config.coord(key), f"{key}: {entry!r} is not RECORD.MEMBER "
                                                          "(as FT_Bitmap.buffer)"))
            continue
        matched = [(record, path, member) for record in module.records
                   if _member_glob(entry, every_class.get(record.key, [record.key])) is not None
                   for path, member, _ in _members(module, record) if fnmatch.fnmatchcase(path, member_glob)]
        if not matched:
            problems.append(Diagnostic(config.coord(key), f"{key}: {entry!r} matches no member of a record the "
                                                          "headers declare"))
            continue
        pointers = [module.resolve(member.type) for _, _, member in matched]
        if not any(isinstance(p, Pointer) and is_character(module, p.target) for p in pointers):
            record, path, member = matched[0]
            named = every_class.get(record.key, [record.key])[0]
            problems.append(Diagnostic(config.coord(key), f"{key}: {named}.{path} is {member.type.to_c()}, no "
                                                          "pointer to characters: only those are read as text"))
    if problems:
        raise ConfigError(problems)


def plan_records(
    module: Module, names: dict, target: TargetInfo, config: BindingConfig | None = None
) -> tuple[list[RecordBinding], list[tuple[tuple[str, str], Diagnostic]]]:
    """Each named record's class, and why a field is left out (keyed by ``("record", key)``);
    ``config``: its ``callbacks`` say what the callables of function pointer fields give C on error."""
    from .naming import class_names  # the same preference order as the naming pass

    bindings, dropped = [], []
    every_class = class_names(module)
    for record in module.records:
        if record.is_opaque or ("record", record.key) not in names:
            continue
        fields = []
        data = data_members(config, every_class.get(record.key, [record.key])) if config is not None else []
        for path, member, shared in _members(module, record):
            try:
                binding = plan_field(module, names, member, path, target,
                                     any(fnmatch.fnmatchcase(path, pattern) for pattern in data))
                if shared and follows_text(module, member.type):
                    binding = replace(binding, elided_in_repr=True)
                typedef = callback_typedef(module, member.type)
                if binding.callback is not None and config is not None and typedef in config.callbacks:
                    binding = replace(binding, callback=callback_on_error(
                        module, config, binding.callback, config.callbacks[typedef], f"callbacks.{typedef}"))
                fields.append(binding)
            except Unsupported as exc:
                dropped.append((("record", record.key),
                                Diagnostic(member.coord, f"field {path!r} of {record.key} is not bound: {exc}",
                                           "warning")))
        fields = _with_length_members(_distinct_names(fields))
        aliases = tuple(names[("alias", alias)] for alias in every_class[record.key] if ("alias", alias) in names)
        has_pointers = any(holds_pointers(module, member.type, frozenset({record.key}))
                           for member in record.fields or ())
        through = pointer_type(module, Pointer(RecordRef(record.kind, record.tag, record.key)))
        bindings.append(RecordBinding(record, names[("record", record.key)], aliases, tuple(fields), has_pointers,
                                      pointer_type=through))
    every = [f for binding in bindings for f in binding.fields]
    anything = any(f.kind == "data_pointer" and f.pointer_type == "void *" for f in every)  # takes any record
    pointed = {f.record_key for f in every if f.kind == "record_ptr"}
    bindings = [replace(b, kept_by_records=anything or b.record.key in pointed) for b in bindings]
    return bindings, dropped

