"""Cython spelling of the binding model: the filters the ``templates/cython/`` files use.

Input: model types and binding values.  Output: strings of Cython source
(declarations, Python literals, docstrings, stub annotations).  Templates hold
only loops and conditionals; every spelling decision lives here, tested in
``tests/test_emit_cython_filters.py``, and the wrappers are written from
their call plans with these spellings by :mod:`pegbind.emit.cython_wrapper`.

Naming on the Cython side: the generated ``<name>.pxd`` declares each C
declaration under a prefixed Cython name with its real C name as the cname
string (``int32_t _c_demo_add "demo_add"(...)``), so the Python wrappers
and classes in ``<name>.pyx`` can take the plain names.  The prefixes keep the
four C name spaces apart: ``_c_`` ordinary identifiers, ``_cs_`` struct tags,
``_cu_`` union tags, ``_ce_`` enum tags.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..config import BindingConfig
from ..frozen import replace
from ..model import (
    Array,
    CType,
    Enum,
    Function,
    FunctionType,
    Module,
    Pointer,
    Primitive,
    RecordRef,
    Typedef,
    TypedefRef,
    as_type,
    assert_never,
    join_declarator,
)
from ..passes.binding import (
    LIST_KINDS,
    BindingModel,
    CallbackBinding,
    FieldBinding,
    FunctionBinding,
    RecordBinding,
)
from ..passes.plan import adjusted_parameter
from ..passes.select import is_synthetic
from ..target import integer_primitive
from .common import (
    base_context,
    callback_count,
    cell_arg_doc,
    class_aliases,
    class_names,
    param_annotation,
    pointer_constants,
    py_annotation,
    py_docstring,
    py_literal,
    py_signature,
    py_string,
    result_annotation,
    text_argument,
    unsized_items,
)
from .ctypes_backend.speller import CtypesSpeller
from .pywrapper import field_plans, field_spec, input_item_spec, input_spec
from .stubs import STUB_FILTERS, STUB_OUTPUT, stub_context

_TAG_PREFIX = {"struct": "_cs_", "union": "_cu_", "enum": "_ce_"}
#: Qualifiers Cython understands; the others only matter to the C compiler,
#: which sees the real header anyway.
_KEPT_QUALS = ("const",)


class SpellingError(ValueError):
    """A C type Cython cannot spell (``__int128``)."""


def cy_name(name: str) -> str:
    """The Cython name of an ordinary C identifier (function, typedef, enumerator)."""
    return "_c_" + name


def cy_record_name(ref: RecordRef) -> str:
    """The Cython name of a struct/union/enum: by tag, else by the typedef name that is its key.

    One C leaves unnamed (a member's type) is named after its key, which says where it is
    written: ``union <anonymous at yaml.h:395:5>`` is ``_ca_union_anonymous_at_yaml_h_395_5``;
    its cname is the ``__typeof__`` text of :attr:`~pegbind.passes.binding.AnonymousType.c_type`.
    """
    if ref.tag is not None:
        return _TAG_PREFIX[ref.kind] + ref.tag
    if is_synthetic(ref.key):
        return "_ca_" + re.sub(r"[^0-9A-Za-z]+", "_", ref.key).strip("_")
    return "_c_" + ref.key


def cy_record_cname(ref: RecordRef) -> str:
    """The cname string: the tag (Cython adds ``struct``/``union``/``enum``) or the typedef name."""
    return ref.tag if ref.tag is not None else ref.key


def _quals(quals: tuple[str, ...]) -> str:
    kept = [q for q in quals if q in _KEPT_QUALS]
    return " ".join(kept) + " " if kept else ""


def cy_decl(ctype: CType, declarator: str = "") -> str:
    """``ctype`` declaring ``declarator`` in Cython syntax (``""`` for an abstract type).

    ``cy_decl(Pointer(Primitive("char", ("const",))), "s")`` is ``"const char *s"``;
    typedef and record names get their Cython prefix.
    """
    match as_type(ctype):
        case Primitive() as primitive:
            if primitive.name in ("__int128", "unsigned __int128"):
                raise SpellingError(f"Cython has no {primitive.name} type")
            name = "bint" if primitive.name == "_Bool" else primitive.name.replace("_Complex", "complex")
            return join_declarator(_quals(primitive.quals) + name, declarator)
        case TypedefRef() as typedef:
            return join_declarator(_quals(typedef.quals) + cy_name(typedef.name), declarator)
        case RecordRef() as ref:
            return join_declarator(_quals(ref.quals) + cy_record_name(ref), declarator)
        case Pointer() | Array() as pointer if unsized_items(pointer):  # which Cython cannot declare
            return join_declarator(_quals(pointer.quals) + "void *", declarator)
        case Pointer() as pointer:
            inner = "*" + ("const " if "const" in pointer.quals else "") + declarator
            inner = inner.rstrip()
            if isinstance(pointer.target, (Array, FunctionType)):
                inner = f"({inner})"
            return cy_decl(pointer.target, inner)
        case Array() as array:
            size = "" if array.length is None else str(array.length)
            return cy_decl(array.element, f"{declarator}[{size}]")
        case FunctionType() as function:
            params = [cy_decl(p.type) for p in function.params]
            if function.variadic:
                params.append("...")
            # C calls through it with no Python error to report, and may without the GIL
            # (extern declarations are so already; a local of the type must agree with them)
            return cy_decl(function.ret, f"{declarator}({', '.join(params)}) noexcept nogil")
        case unhandled:
            assert_never(unhandled)


def cy_named_decl(ctype: CType, cython_name: str, c_name: str) -> str:
    """A declaration of ``cython_name`` bound to the C symbol ``c_name`` (cname string)."""
    return cy_decl(ctype, f'{cython_name} "{c_name}"')


def cy_function_decl(function: Function, param_names: tuple[str, ...] | None = None) -> str:
    """The extern declaration of a function; parameters unnamed unless names are given."""
    params = [
        cy_decl(p.type, param_names[i] if param_names else "") for i, p in enumerate(function.params)
    ]
    if function.variadic:
        params.append("...")
    return cy_decl(function.ret, f'{cy_name(function.name)} "{function.name}"({", ".join(params)})')


def cy_primitive(name: str) -> str:
    """The Cython spelling of the primitive type ``name`` (``double _Complex`` is ``double complex``)."""
    return cy_decl(Primitive(name))


def cy_can_spell(ctype: CType) -> bool:
    try:
        cy_decl(ctype)
    except SpellingError:
        return False
    return True


def _adjusted(ctype: CType) -> CType:
    # C adjusts an array parameter to a pointer; a top-level const would
    # forbid assigning the local the wrapper converts into.
    match as_type(ctype):
        case Array(element=element):
            return Pointer(element)
        case Primitive() | TypedefRef() | RecordRef() | Pointer() as value:
            return value.unqualified()
        case FunctionType():
            return ctype
        case unhandled:
            assert_never(unhandled)


def cy_var(ctype: CType, name: str) -> str:
    """A local variable of ``ctype`` that can be assigned (top-level qualifiers dropped)."""
    return cy_decl(_adjusted(ctype), name)


def cy_cast(ctype: CType) -> str:
    """``<T>`` cast text for a parameter's adjusted type."""
    return f"<{cy_decl(_adjusted(ctype))}>"


def cy_pointer_to(ctype: CType) -> str:
    """The abstract type ``T *`` for ``ctype``."""
    return cy_decl(Pointer(_adjusted(ctype)))


def _converted_inputs(function: FunctionBinding) -> list[CType]:
    """The C types ``function``'s wrapper converts Python numbers to (parameters, cells, items)."""
    found: list[CType] = []
    for param in function.inputs:
        role = param.role.role
        if role in ("in", "len") and param.kind in ("int", "float", "complex"):
            found.append(param.c_type)
        elif (role in ("inout", "in-array") and param.kind in ("int", "float", "complex", "buffer")
              and param.element is not None):
            found.append(param.element)
    return found


def cy_converts(function: FunctionBinding) -> bool:
    """Whether the wrapper of ``function`` converts a number (and so needs ``_pb_status``)."""
    return bool(_converted_inputs(function))


def _conversion_types(binding: BindingModel) -> list[CType]:
    """The C types Python values are converted to by Cython's own, raising conversion (ints and
    floats: parameters, their cells and items, record fields and their items)."""
    found = [ctype for function in binding.functions for ctype in _converted_inputs(function)]
    for record in binding.records:
        for field in record.fields:
            if field.kind in ("float", "complex") or (field.kind == "int" and field.bit_range is None):
                found.append(field.ctype)
            elif (field.kind == "array" and field.element_kind in ("int", "float", "complex")
                  and field.element is not None):
                found.append(field.element)
    return found


def _conversion_name(ctype: CType) -> str:
    return "_pb_to_" + re.sub(r"\W+", "_", cy_var(ctype, "")).strip("_")


def cy_conversions(binding: BindingModel) -> list[tuple[str, str, str]]:
    """(helper name, Cython type, C type) of each conversion helper the module defines, by name.

    A helper converts a Python object to the C type with Cython's own
    conversion and reports failure by its result, not by raising where it is
    called (see :func:`cy_convert`).  Its C name is ``__pyx`` and its name,
    declared beforehand in C as always inlined: left to itself, the C
    compiler keeps a helper called from many places out of line, a call more
    on every conversion.
    """
    found = {
        _conversion_name(ctype): (cy_var(ctype, ""), _adjusted(ctype).to_c())
        for ctype in _conversion_types(binding) if cy_can_spell(ctype)
    }
    return [(name, cython_type, c_type) for name, (cython_type, c_type) in sorted(found.items())]


def cy_convert(ctype: CType) -> str:
    """The call of the conversion helper for ``ctype``, which Cython does not check after it:
    ``(<_pb_unchecked_to_int>_pb_to_int)``, called as ``(value, &target)``, returns -1 when
    the conversion failed, with its exception still pending.

    The wrapper tests that result itself and, on that error path only, hands
    the pending exception and the value to ``_pb_refused``, which raises what
    every backend raises.  Cython's own check after a conversion jumps
    straight out of the function: catching its error with ``try`` costs the
    success path an exception-state save (``except``) or the registers and
    stack of a ``finally`` error path, about a nanosecond in a 20 ns call.
    Through the helper, inlined by the C compiler, the success path is the
    code Cython generates for a plain conversion.
    """
    name = _conversion_name(ctype)
    return f"(<{name.replace('_pb_to_', '_pb_unchecked_to_', 1)}>{name})"


def cy_sizeof(ctype: CType | None) -> str:
    """``sizeof(T)`` for an element type; 1 for ``void`` (a byte buffer)."""
    if ctype is None or (isinstance(ctype, Primitive) and ctype.is_void):
        return "1"
    return f"sizeof({cy_decl(_adjusted(ctype))})"


def _as_passed(module: Module, function: Function) -> Function:
    """``function`` with each parameter of function type declared as the pointer C adjusts it
    to (C11 6.7.6.3p8, Z3's ``Z3_error_handler h``): Cython adjusts an array parameter, not
    that, and would refuse the wrapper's pointer."""
    params = tuple(replace(p, type=adjusted_parameter(module, p.type))
                   if isinstance(module.resolve(p.type), FunctionType) else p for p in function.params)
    return function if params == function.params else replace(function, params=params)


def cy_fp_typedef(function: Function, name: str) -> str:
    """A ``ctypedef`` of a pointer to ``function``'s type, callable without the GIL."""
    return f"ctypedef {cy_decl(Pointer(function.type), name)}"


def trampoline(cb: CallbackBinding, arg: int, name: str, classes: dict[str, str]) -> dict[str, Any] | None:
    """A C function of ``cb``'s type that reaches its callable through argument ``arg``, the
    user-data pointer, where the wrapper put a ``_pb_UserData`` (None: a type Cython cannot
    spell, for which the closure serves).  Its declaration, the callable's arguments (Python
    expressions), and the statements returning ``_pb_result`` and the value for a raised error."""
    try:
        params = ", ".join(cy_decl(a.ctype, f"_pb_a{i}") for i, a in enumerate(cb.args))
        declaration = cy_decl(cb.ret.ctype, f"{name}({params}) noexcept with gil")
        result_type = cy_decl(cb.ret.ctype)
    except SpellingError:
        return None
    args = []
    counts = [f"<Py_ssize_t>_pb_a{i}" for i in range(len(cb.args))]
    for i, a in enumerate(cb.args):
        n, cls = f"_pb_a{i}", classes.get(a.record_key or "", "")
        args.append(
            "_pb_state.user" if i == arg
            else f"_pb_members_{cls}.get({n}, {n})" if a.kind == "enum"
            else f"_pb_counted_text(<const char *>{n}, {callback_count(a, counts)})"
            if a.kind == "string" and a.counted_by
            else f"(None if {n} == NULL else <bytes>(<const char *>{n}))" if a.kind == "string"
            else f"_pb_lent(_pb_new_{cls}(<void *>{n}, None))" if a.kind == "handle"
            else f"_pb_at_{cls}(<void *>{n}, None)" if a.kind == "record_ptr"
            else f"_pb_counted_pointer(<void *>{n}, {a.pointer_type!r}, {callback_count(a, counts)})" if a.counted_by
            else f"_pb_make_pointer(<void *>{n}, {a.pointer_type!r}, None)" if a.kind == "pointer"
            else n
        )
    r, what = cb.ret, repr(f"the result of a callback {cb.c_text}")
    cast = f"<{result_type}>"
    if r.kind == "void":
        returns, failed = [], "return"
    elif r.kind in ("int", "enum"):
        assert r.int_range is not None
        lo, hi = r.int_range
        returns = [f"if type(_pb_result) is not int or not {lo} <= _pb_result <= {hi}:",
                   f"    _pb_result = _pb_index(_pb_result, {what}, {lo}, {hi})",
                   f"return {cast}<{'long long' if lo < 0 else 'unsigned long long'}>_pb_result"]
        failed = f"return {cast}{int(cb.on_error or 0)}"
    elif r.kind == "bool":
        returns = [f"return {cast}(<int>_pb_bool(_pb_result, {what}))"]
        failed = f"return {cast}{int(bool(cb.on_error))}"
    elif r.kind == "float":
        returns = [f"return {cast}(<double>_pb_float(_pb_result, {what}))"]
        failed = f"return {cast}{float(cb.on_error or 0)!r}"
    else:  # a handle or a pointer C handed out, or NULL
        owner = classes[r.record_key or ""] if r.kind == "handle" else "None"
        returns = [f"return {cast}<void *><size_t>_pb_result_address(_pb_result, {owner}, {r.pointer_type!r}, {what})"]
        failed = "return NULL"
    return {"name": name, "arg": arg, "declaration": declaration, "args": args, "returns": returns, "failed": failed,
            "void": r.kind == "void"}


def closure_spec(cb: CallbackBinding, ctypes_types: list[str], classes: dict[str, str],
                 views: dict[str, int]) -> str:
    """The arguments of ``_pb_CallbackType`` for closures of ``cb``'s type: its ctypes
    function pointer type (result first in ``ctypes_types``), how each argument reaches the
    callable, how the result returns to C, the result's name in errors, and what C gets from
    a callable that raised -- data read by one compiled class instead of code per type."""
    args = []
    for a in cb.args:
        cls = classes.get(a.record_key or "", "")
        args.append(
            f"(6, None, {a.counted_by!r}, 1)" if a.kind == "string" and a.counted_by
            else f"(5, {a.pointer_type!r}, {a.counted_by!r}, {a.per_element})" if a.counted_by
            else f"(1, {a.pointer_type!r})" if a.kind == "pointer"
            else f"(2, {cls})" if a.kind == "handle"
            else f"(3, {views[a.record_key or '']})" if a.kind == "record_ptr"
            else f"(4, _pb_members_{cls})" if a.kind == "enum"
            else "(0, None)"
        )
    r = cb.ret
    if r.kind == "void":
        ret = "(0,)"
    elif r.kind in ("int", "enum"):
        assert r.int_range is not None
        ret = f"(1, {r.int_range[0]}, {r.int_range[1]})"
    elif r.kind == "bool":
        ret = "(2,)"
    elif r.kind in ("handle", "pointer"):
        ret = f"(3, {classes[r.record_key or ''] if r.kind == 'handle' else 'None'}, {r.pointer_type!r})"
    else:
        ret = "(4,)"
    make = f"_ct.CFUNCTYPE({', '.join(ctypes_types)})"
    arg_tuple = f"({', '.join(args)}{',' if len(args) == 1 else ''})"
    return f"{make}, {arg_tuple}, {ret}, {f'the result of a callback {cb.c_text}'!r}, {cb.failed}"


def table_member(binding: BindingModel, function: FunctionBinding) -> str:
    """The Cython name of the function table member ``function`` is called through."""
    table = binding.function_table
    record = binding.record_binding(table.struct_key) if table is not None else None
    for member in record.fields if record is not None else ():
        if member.path == function.table_field:
            return member.py_name
    raise SpellingError(f"no member {function.table_field!r} in the function table")


def cy_field_decl(binding: FieldBinding) -> str:
    """A member line of an extern struct: Cython name, the C name as cname when they differ.

    Bitfields are declared as plain members: Cython only reads and assigns
    them, and the C compiler, which sees the real header, does the masking.
    """
    name = binding.py_name if binding.py_name == binding.path else f'{binding.py_name} "{binding.path}"'
    return cy_decl(binding.ctype, name)


#: Records up to this many bytes keep freed instances for reuse (``@cython.freelist``).
FREELIST_MAX_BYTES = 1024
#: How many freed instances of each such record class are kept.
FREELIST_LENGTH = 8


def cy_freelist(record: RecordBinding, binding: BindingModel) -> int:
    """How many freed instances the record's class keeps for reuse (0: none).

    A function with an ``out`` record returns a new instance on every call;
    taking it from a free list instead of the allocator saves about a quarter
    of such a call's time (measured for an 8-byte struct).  Each
    class holds at most ``FREELIST_LENGTH`` spare instances, so only records
    of known, modest size get one: a large record would pin that much memory
    for little gain, its copy costing more than the allocation.
    """
    layout = binding.layouts.get(record.record.key)
    size = getattr(layout, "size", None)
    if not isinstance(size, int) or size > FREELIST_MAX_BYTES:
        return 0
    return FREELIST_LENGTH


#: how many values an integer field of each size a descriptor reads (1, 2, 4 and 8 bytes)
_DESCRIPTOR_INT_VALUES = (1 << 8, 1 << 16, 1 << 32, 1 << 64)


def cy_field_descriptor(field: FieldBinding) -> bool:
    """Whether one of the module's field descriptor classes reads and writes ``field`` (an
    integer of 1, 2, 4 or 8 bytes that is no bitfield, or a function pointer), rather
    than a property of its own: each property is about a hundred lines of C."""
    if field.kind == "function_pointer":
        return True
    if field.kind != "int" or field.bit_width is not None or field.int_range is None or field.counts:
        return False  # (a count of characters is checked against them too)
    low, high = field.int_range
    return high - low + 1 in _DESCRIPTOR_INT_VALUES


FILTERS: dict[str, Callable[..., Any]] = {
    "cy_decl": cy_decl,
    "cy_named_decl": cy_named_decl,
    "cy_name": cy_name,
    "cy_record_name": cy_record_name,
    "cy_record_cname": cy_record_cname,
    "cy_function_decl": cy_function_decl,
    "py_literal": py_literal,
    "py_annotation": py_annotation,
    "py_signature": py_signature,
    "py_docstring": py_docstring,
    "py_string": py_string,
    "cell_arg_doc": cell_arg_doc,
    "cy_cast": cy_cast,
    "cy_var": cy_var,
    "field_spec": field_spec,
    **STUB_FILTERS,
    "param_annotation": param_annotation,
    "result_annotation": result_annotation,
    "cy_fp_typedef": cy_fp_typedef,
    "cy_primitive": cy_primitive,
    "table_member": table_member,
    "cy_field_decl": cy_field_decl,
    "cy_freelist": cy_freelist,
    "cy_field_descriptor": cy_field_descriptor,
}


# --------------------------------------------------------------------------
# The backend: what the Cython templates see and which files they make
# --------------------------------------------------------------------------

#: (template, output suffix) pairs, rendered in this order.
OUTPUTS = (
    ("cython/cython.pxd.jinja", ".pxd"),
    ("cython/cython.pyx.jinja", ".pyx"),
    STUB_OUTPUT,
)


def _table_struct(binding: BindingModel) -> str | None:
    """The Cython name of the function table's struct, when functions are reached through one."""
    table = binding.function_table
    record = binding.module.find_record(table.struct_key) if table is not None else None
    return cy_record_name(record.ref) if record is not None else None


def context(binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
    """What the Cython templates see: the binding plus declaration lists in emission order."""
    module = binding.module
    classes = class_names(binding, binding.records)
    fields = {r.record.key: r.fields for r in binding.records}
    types = []
    complex_typedefs = []
    for kind, key in binding.type_order:
        decl = module.get(kind, key)
        if isinstance(decl, Typedef):
            target = decl.type
            # ``typedef struct {...} name`` is declared by the record itself.
            if isinstance(target, RecordRef) and target.tag is None and target.key == key:
                continue
            if not cy_can_spell(target):
                continue
            resolved = module.resolve(target)
            if isinstance(resolved, Primitive) and resolved.is_complex:
                # Cython declares no typedef of a complex type extern: the module's own is the same C type
                complex_typedefs.append(decl)
                continue
        elif isinstance(decl, Enum) and not decl.members:
            continue
        types.append((kind, decl))
    forward = [
        r for r in module.records if r.tag is not None and not r.is_opaque and ("record", r.key) in binding.type_order
    ]
    wrapped = {f.function.name for f in binding.functions}
    # Dynamic loading reaches functions through pointers: nothing is declared
    # extern, so nothing needs to be resolved when the module is linked.
    declared = [
        _as_passed(module, f) for f in module.functions
        if (f.name in wrapped or f in binding.declared_only) and cy_can_spell(f.type)
    ] if binding.load == "link" else []
    records = binding.ordered_records()
    aliases = class_aliases(records, binding.handles)
    # The types C leaves unnamed that have a class are declared just before the named record
    # or typedef they are written in (innermost first): a struct or union by __typeof__ of a
    # member; an enum as its integer type (__typeof__ refuses a bitfield, and C converts)
    named = {r.record.key for r in binding.records} | {e.enum.key for e in binding.enums if e.py_name is not None}
    anonymous: dict[str, list[tuple[Any, str]]] = {}
    for place in sorted(binding.anonymous.values(), key=lambda place: -len(place.steps)):
        record = module.find_record(place.key)
        enum = module.find_enum(place.key)
        if place.key not in named:
            continue
        if record is not None:
            anonymous.setdefault(place.root, []).append((record, place.c_type))
        elif enum is not None:
            integer = integer_primitive(module, enum.ref, binding.target) or "int"
            anonymous.setdefault(place.root, []).append((enum, integer))
    # Python callables C calls: per function pointer type, the spec of a _pb_CallbackType, which
    # makes closures of it (ctypes', libffi's, which CPython carries: they need no user-data pointer)
    callbacks: dict[str, dict[str, Any]] = {}
    speller = CtypesSpeller(binding)
    # the records a closure gives its callable views of: their view makers, by index
    views: dict[str, int] = {}
    for cb in binding.callables():
        if cb.factory_key not in callbacks:
            spelled = [speller.spell(cb.ret.ctype)]
            spelled += [text_argument(a) or speller.spell(a.ctype) for a in cb.args]
            for a in cb.args:
                if a.kind == "record_ptr" and a.record_key is not None:
                    views.setdefault(a.record_key, len(views))
            callbacks[cb.factory_key] = {"name": f"_pb_callback_{len(callbacks)}", "binding": cb,
                                         "spec": closure_spec(cb, spelled, classes, views)}
    # where a function has a user-data pointer, a C function per callback type reaches the
    # callable through it: no closure to make, no libffi between C and the conversions
    trampolines: dict[tuple[str, int], dict[str, Any]] = {}
    for f in binding.functions:
        for p in f.params:
            paired = p.callback
            if paired is None or paired.user_data is None or (paired.factory_key, paired.user_data[1]) in trampolines:
                continue
            made = trampoline(paired, paired.user_data[1], f"_pb_trampoline_{len(trampolines)}", classes)
            if made is not None:
                trampolines[(paired.factory_key, paired.user_data[1])] = made
    # each function's callable parameter -> its slot of what the module keeps (_pb_module_kept)
    module_slots = {key: index for index, key in enumerate(dict.fromkeys(
        f.callback_key(p) for f in binding.functions for p in f.params if p.kind == "callback"))}
    cell_sets = _cell_sets(binding)
    from .cython_wrapper import CythonWrappers, convert  # which spell with this module's filters

    wrappers = CythonWrappers(binding, classes, speller, callbacks, trampolines, module_slots, cell_sets)
    return {
        **base_context(binding),
        "pointer_constants": pointer_constants(binding, wrappers.made_constant),
        "callbacks": callbacks,
        "module_slots": module_slots,
        # each function's def, from its call plan (pegbind.emit.cython_wrapper)
        "wrapper": wrappers.wrapper,
        "convert": convert,
        "views": views,
        "trampolines": trampolines,
        # what a cell class's arg() passes: its type as C promotes it among extra arguments
        "cell_arg_types": {cell.py_name: speller.spell(Primitive(cell.promoted)) for cell in binding.cells},
        "types": types,
        "complex_typedefs": complex_typedefs,
        "undeclared": binding.undeclared_types,
        "forward": forward,
        "fields": fields,
        "anonymous": anonymous,
        **stub_context(records, classes, binding.functions),
        "declared": declared,
        "classes": classes,
        # the specs of the inputs and of the fields, as the shared checks read them
        "input_spec": lambda param: input_spec(binding, classes, param),
        "input_item_spec": lambda param: input_item_spec(binding, classes, param),
        "list_kinds": LIST_KINDS,
        "field_plans": field_plans(binding, classes),
        "conversions": cy_conversions(binding),
        "records": records,
        "aliases": aliases,
        "functions": binding.functions,
        # each function as Cython must be told of it: see _as_passed
        "as_passed": {f.function.name: _as_passed(module, f.function) for f in binding.functions},
        "table": binding.function_table,
        "table_struct": _table_struct(binding),
        # macros of the headers that would hide a name the generated C spells
        "undefs": binding.module.hiding_macros(),
        "function_aliases": binding.aliases_of(binding.functions),
        "cells": binding.cells,
        "cell_aliases": binding.cell_aliases,
        "cell_sets": cell_sets,
    }


def _cell_sets(binding: BindingModel) -> dict[tuple[str, ...], str]:
    """The cell classes a buffer parameter takes (``ParamBinding.cells``) -> the module-level
    tuple holding them, one per distinct set: a tuple spelled in a wrapper is built on every
    call (a void * takes every cell class: fourteen lookups and a tuple, a fifth of a callback's
    round trip through its user-data pointer)."""
    sets: dict[tuple[str, ...], str] = {}
    for function in binding.functions:
        for param in function.params:
            if param.cells and param.cells not in sets:
                sets[param.cells] = f"_pb_cells_{len(sets)}"
    return sets
