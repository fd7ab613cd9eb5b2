"""The C side of a cffi module: the ``cdef`` text, the C source of API mode, and what cffi cannot hold.

Input: a :class:`~pegbind.passes.binding.BindingModel`.  Output: the cdef,
printed from the model (every type prints itself back as C; untagged records
and anonymous members print their bodies) and split into chunks by ``#pragma
pack`` value; the ``set_source`` C text; the declarations left out, with the
reason.  Plain ``char`` parameters and results are declared as ``signed
char``/``unsigned char`` (the same ABI) so they cross as integers, as in the
other backends, not as 1-byte ``bytes``.
"""
from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Diagnostic, PegbindError
from ...frozen import frozen_dataclass, replace
from ...model import (
    Array,
    CType,
    Enum,
    Field,
    FunctionType,
    Module,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    Typedef,
    TypedefRef,
    as_type,
    assert_never,
)
from ...passes.binding import BindingModel
from ...passes.select import is_synthetic
from ...target import builtin_size_align, get_target, typedef_aligned
from ..common import unsized_items
from ..env import undef_lines, weak_lines

#: Type names cffi declares itself (``cffi.model.PrimitiveType`` and
#: ``cffi.commontypes``); a typedef of one of them in the cdef would clash.
CFFI_KNOWN_TYPES = frozenset(
    """_Bool bool char16_t char32_t FILE wchar_t size_t ssize_t ptrdiff_t intptr_t uintptr_t
    intmax_t uintmax_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
    int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t
    uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t
    uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t""".split()
)

_UNSPELLABLE = ("__int128", "unsigned __int128", "long double _Complex")


def unspellable(module: Module, ctype: CType, seen: frozenset[str] = frozenset()) -> str | None:
    """Why cffi's parser cannot read ``ctype`` (``__int128``, ``long double _Complex``, a compiler
    builtin type), or None."""
    match as_type(ctype):
        case Primitive(name=name):
            return f"cffi's C parser has no {name.replace('unsigned ', '')}" if name in _UNSPELLABLE else None
        case TypedefRef(name=name):
            typedef = module.find_typedef(name)
            if typedef is None:  # a compiler builtin (__builtin_va_list) unless cffi knows it
                if name in CFFI_KNOWN_TYPES or builtin_size_align(name, get_target(module.target)):
                    return None  # known to cffi, or declared by cdef_chunks as a struct of its size
                return f"the type '{name}' it needs was left out"
            if name in seen:
                return None
            return unspellable(module, typedef.type, seen | {name})
        case Pointer(target=target):
            return unspellable(module, target, seen)
        case Array(element=element):
            return unspellable(module, element, seen)
        case FunctionType(ret=ret, params=params):
            for part in (ret, *(p.type for p in params)):
                reason = unspellable(module, part, seen)
                if reason is not None:
                    return reason
            return None
        case RecordRef():
            return None  # a record is judged by its members, in ``excluded``
        case unhandled:
            assert_never(unhandled)


def _record_unspellable(module: Module, record: Record) -> str | None:
    for member in record.fields or ():
        reason = unspellable(module, member.type)
        if reason is not None:
            return reason
    return None


def _by_value_records(module: Module, ctype: CType) -> Iterator[str]:
    """Keys of the records ``ctype`` holds by value (through typedefs and arrays)."""
    resolved = module.resolve(ctype)
    while isinstance(resolved, Array):
        resolved = module.resolve(resolved.element)
    if isinstance(resolved, RecordRef) and resolved.kind != "enum":
        yield resolved.key


#: what :func:`excluded` finds: (record key -> reason, function name -> reason)
Excluded = tuple[dict[str, str], dict[str, str]]


def excluded(binding: BindingModel) -> Excluded:
    """What the cffi module cannot hold, with the reasons: (record key -> reason, function name -> reason).

    A record goes when cffi's parser cannot read a member's type, and so does
    every record that holds it by value; a function goes when it needs such a
    type, or the class of a record that went.  The answer walks every type of
    every record and function: the emitter finds it once and hands it to the
    cdef, the wrappers and the warnings (asked by each, it was a fifth of the
    cffi writer's time for sqlite3.h).
    """
    module = binding.module
    records: dict[str, str] = {}
    for record in module.records:
        reason = _record_unspellable(module, record)
        if reason is not None:
            records[record.key] = reason
    changed = True
    while changed:  # a record holding a left-out record by value cannot be declared either
        changed = False
        for record in module.records:
            if record.key in records:
                continue
            for member in record.fields or ():
                held = next((key for key in _by_value_records(module, member.type) if key in records), None)
                if held is not None:
                    records[record.key] = f"its member {member.name or '(anonymous)'} holds {held}, which is not in it"
                    changed = True
                    break
        # An anonymous record is declared inside its parent's body: the two go together
        # (and the parent's own warning says why).
        for place in binding.anonymous.values():
            if module.find_record(place.key) is None or module.find_record(place.parent) is None:
                continue  # an enum, which cffi always reads, or one a typedef writes
            if place.key in records and place.parent not in records:
                records[place.parent] = records[place.key]
                changed = True
            elif place.parent in records and place.key not in records:
                records[place.key] = records[place.parent]
                changed = True
    functions: dict[str, str] = {}
    for function in binding.functions:
        reason = unspellable(module, function.function.type)
        if reason is None and binding.load == "dynamic":
            reason = _abi_unpassable(module, function.function.type)
        if reason is None:
            keys = [p.record_key for p in function.params] + [function.ret.record_key]
            reason = next((f"it takes or returns {key}, which is not in it" for key in keys if key in records), None)
        if reason is not None:
            functions[function.function.name] = reason
    return records, functions


def _abi_unpassable(module: Module, function: FunctionType) -> str | None:
    """Why cffi's ABI mode cannot call a function of type ``function``, or None: libffi has no
    complex type, so a complex value by value needs a compiled call (API mode)."""
    for part in (function.ret, *(p.type for p in function.params)):
        resolved = module.resolve(part)
        if isinstance(resolved, Primitive) and resolved.is_complex:
            return (f"cffi's ABI mode (load = \"dynamic\") cannot pass {resolved.name} by value: link at "
                    "build time (API mode), or use the Cython or ctypes backend")
    return None


def cdef_field(module: Module, member: Field, indent: str = "    ") -> str:
    """One member line; an anonymous struct/union member prints its body in place."""
    return indent + _with_bodies(module, member.to_c(), indent)


def _with_bodies(module: Module, text: str, indent: str) -> str:
    """C text with the body of each anonymous struct, union or enum where its key was printed."""
    for record in module.records:
        # an anonymous record type has no name: its body goes where the key was printed
        if is_synthetic(record.key) and record.key in text:
            text = text.replace(record.key, cdef_record_body(module, record, indent))
    for enum in module.enums:  # so does an anonymous enum's
        if is_synthetic(enum.key) and enum.key in text:
            text = text.replace(enum.key, cdef_enum_body(enum))
    return text


def needs_compiler_layout(module: Module, record: Record) -> bool:
    """Whether cffi's cdef cannot state ``record``'s layout: an ``aligned`` attribute on it
    (libsodium's ``CRYPTO_ALIGN(16)`` states) or on the typedef that names it untagged
    (glibc's ``__pthread_unwind_buf_t``), an aligned or packed member, or a member of a
    type an ``aligned`` typedef names."""
    if record.aligned is not None or any(m.aligned is not None or m.packed for m in record.fields or ()):
        return True
    named = module.find_typedef(record.key) if record.tag is None else None
    if named is not None and named.aligned is not None:
        return True
    return any(typedef_aligned(module, m.type) for m in record.fields or ())


def cdef_record_body(module: Module, record: Record, indent: str = "") -> str:
    """``struct TAG { ... }`` (tag omitted when untagged), members one per line."""
    head = record.kind if record.tag is None else f"{record.kind} {record.tag}"
    lines = [cdef_field(module, member, indent + "    ") for member in record.fields or ()]
    if needs_compiler_layout(module, record):
        # cffi cannot say where an aligned/packed member goes, nor align the
        # record: in API mode the compiler fills in the layout.
        lines.append(indent + "    ...;")
    return head + " {\n" + "\n".join(lines) + "\n" + indent + "}"


def _opaque_storage(size: int, align: int, load: str) -> str:
    """The members of a struct standing for a type of ``size`` and ``align`` cffi cannot name."""
    if load != "dynamic":
        return "...;"  # API mode: the compiler lays it out
    element = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long"}[align]
    return f"{element} _pb_opaque[{size // align}];"


def cdef_enum_body(enum) -> str:
    head = "enum" if enum.tag is None else f"enum {enum.tag}"
    members = ", ".join(f"{m.name} = {m.value}" for m in enum.members)
    return f"{head} {{ {members} }}"


def integer_char(module: Module, target, ctype: CType) -> CType:
    """``ctype``, with plain ``char`` (also through typedefs) spelled ``signed``/``unsigned char``."""
    resolved = module.resolve(ctype)
    if isinstance(resolved, Primitive) and resolved.name == "char":
        return Primitive("signed char" if target.char_signed else "unsigned char", resolved.quals)
    return ctype


def _passable(ctype: CType) -> CType:
    """``ctype`` as the cdef can declare a parameter of it: arrays of no stated length (see
    :func:`~pegbind.emit.common.unsized_items`) as ``void *``."""
    return Pointer(Primitive("void")) if unsized_items(ctype) else ctype


def cffi_function_decl(module: Module, target, function, by_symbol: bool = False) -> str:
    """The declaration of ``function`` for the cdef, ``char`` values as integers; ``by_symbol``
    (ABI mode, where cffi looks the name up itself) names it by its symbol, an asm label's."""
    params = tuple(replace(p, type=_passable(integer_char(module, target, p.type))) for p in function.params)
    name = function.symbol if by_symbol else function.name
    return replace(function, name=name, params=params,
                               ret=integer_char(module, target, function.ret)).to_c()


@frozen_dataclass()
class CdefChunk:
    """Declarations passed to one ``ffi.cdef`` call (one ``pack`` value)."""

    text: str
    pack: int | None


def cdef_chunks(binding: BindingModel, gone: Excluded) -> list[CdefChunk]:
    """The cdef of the binding: forward tags, types in dependency order, then functions
    (without what is ``gone``, found by :func:`excluded`)."""
    module = binding.module
    pieces: list[tuple[str, int | None | str]] = []  # (text, pack or "any")
    for name in binding.undeclared_types:
        # The compiler's own types (__builtin_va_list): no Python value has one, but a
        # function pointer may take one.  In API mode the compiler gives the size; in ABI
        # mode the target's layout does.
        size_align = builtin_size_align(name, binding.target)
        if size_align is not None:
            pieces.append((f"typedef struct {{ {_opaque_storage(*size_align, binding.load)} }} {name};", "any"))
    for tagged in module.records:
        if tagged.tag is not None and not is_synthetic(tagged.key):
            pieces.append((f"{tagged.kind} {tagged.tag};", "any"))
    untagged = {
        r.key for r in module.records if r.tag is None and not is_synthetic(r.key)
    } | {e.key for e in module.enums if e.tag is None}
    for kind, key in binding.type_order:
        decl = module.get(kind, key)
        if isinstance(decl, Typedef):
            target = decl.type
            if key in CFFI_KNOWN_TYPES or unspellable(module, target) is not None:
                continue
            if isinstance(target, RecordRef) and target.tag is None and target.key == key:
                continue  # printed with its record or enum body
            # (typedef struct { ... } *name: the body is written in place)
            pieces.append((f"typedef {_with_bodies(module, target.to_c(key), '')};", "any"))
        elif isinstance(decl, Record):
            record = decl
            if record.is_opaque:
                if record.tag is None and key in untagged:
                    pieces.append((f"typedef {record.kind} {key} {key};", "any"))
                continue
            if record.key in gone[0]:
                continue
            body = cdef_record_body(module, record)
            text = f"typedef {body} {key};" if record.tag is None else body + ";"
            pieces.append((text, 1 if record.packed else record.pack))
        elif isinstance(decl, Enum):
            if not decl.members:
                continue
            body = cdef_enum_body(decl)
            typedef = module.find_typedef(key)
            text = f"typedef {body} {key};" if decl.tag is None and typedef is not None else body + ";"
            pieces.append((text, "any"))
    declared = [f.function for f in binding.functions]
    if binding.function_table is not None:
        declared.append(binding.function_table.getter)  # load() calls it
    called = set(called_functions(binding, gone))
    for function in declared:
        if function.name in called or (binding.function_table is not None
                                       and function is binding.function_table.getter):
            pieces.append((cffi_function_decl(module, binding.target, function, binding.load == "dynamic") + ";",
                           "any"))
    if any(d.function is None for d in binding.deallocators):
        pieces.append(("void free(void *);", "any"))  # the C library's, named by an ownership rule
    if binding.load != "dynamic":
        pieces.append((f"void {DEFINED_CHECK}(unsigned char *);", "any"))
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


def left_out(binding: BindingModel, gone: Excluded) -> list[Diagnostic]:
    """The warnings for the functions and records the cffi module cannot hold (``gone``, found
    by :func:`excluded`), each with the reason.

    Raises :class:`PegbindError` for records whose layout only the compiler
    knows in ABI mode (``load = "dynamic"``), where no compiler is asked: the
    module could not be imported.
    """
    module = binding.module
    if binding.load == "dynamic":
        unaligned = [r.record for r in binding.records if needs_compiler_layout(module, r.record)]
        if unaligned:
            raise PegbindError([
                Diagnostic(record.coord, f"{record.key} has an alignment or packing attribute, which cffi's ABI mode "
                                         "(load = \"dynamic\") cannot express: link at build time (API mode), use "
                                         "the Cython or ctypes backend, or exclude it and what uses it (--exclude)",
                                         "error")
                for record in unaligned
            ])
    records, functions = gone
    found = [
        Diagnostic(f.function.coord,
                   f"function '{f.function.name}' is not in the cffi module: {functions[f.function.name]}",
                   "warning")
        for f in binding.functions if f.function.name in functions
    ]
    found += [
        Diagnostic(r.coord, f"record '{r.key}' is not in the cffi module: {records[r.key]}", "warning")
        for r in module.records if r.key in records and not is_synthetic(r.key)
    ]
    return found


#: a function of the compiled module (API mode) that says which functions the loaded libraries define
DEFINED_CHECK = "_pegbind_defined"


def called_functions(binding: BindingModel, gone: Excluded) -> list[str]:
    """The C functions the cdef declares and the wrappers call, in order: not those ``gone``
    (found by :func:`excluded`)."""
    left_out_functions = gone[1]
    return [f.function.name for f in binding.functions if f.function.name not in left_out_functions]


def c_source(binding: BindingModel, called: list[str]) -> str:
    """The C source of the compiled module: the binding's headers, by name, then ``#undef`` of
    the macros that would hide a name the cdef spells (libxml2's member ``xmlParserVersion``),
    and, in API mode, weak references to the functions it calls (``called``: see
    :func:`called_functions`), with the function that tells which of them the libraries loaded
    at run time define."""
    text = "#include <stdlib.h>\n" if any(d.function is None for d in binding.deallocators) else ""  # free
    text += "".join(f'#include "{header}"\n' for header in binding.headers)
    text += undef_lines(binding.module.hiding_macros())
    if binding.load == "dynamic":
        return text
    weak = weak_lines(called) if binding.weak_references else ""
    # Each address is compared with 0 through a function's parameter: compared directly, the
    # address of a function referred to strongly, or defined in the header (gmp.h's inline
    # ones), makes gcc say it is never 0, a note per function even under -w.
    checks = "".join(f"    defined[{i}] = {DEFINED_CHECK}_one((void (*)(void)){name});\n"
                     for i, name in enumerate(called))
    one = f"static int {DEFINED_CHECK}_one(void (*function)(void)) {{ return function != 0; }}\n"
    return text + weak + one + f"static void {DEFINED_CHECK}(unsigned char *defined)\n{{\n{checks}}}\n"


def cffi_ctype(key: str, binding: BindingModel, pointer: bool = False) -> str:
    """A Python expression for the record ``key`` as cffi's ``sizeof``/``new`` take it (a pointer
    to it when ``pointer``): its C name, or, for an anonymous record, the type cffi gives the
    member it is written in (``_pb_anonymous``), whose pointer type ``getctype`` spells."""
    place = binding.anonymous.get(key)
    if place is None:
        text = record_ref_of(key, binding) + (" *" if pointer else "")
        return f"_ffi.typeof({text!r})" if pointer else repr(text)
    root = f"_ffi.typeof({record_ref_of(place.root, binding)!r})"
    found = f"_pb_anonymous({root}, {place.steps!r})"
    return f"_ffi.typeof(_ffi.getctype({found}, '*'))" if pointer else found


def record_ref_of(key: str, binding: BindingModel) -> str:
    """The C spelling of the record registered under ``key``."""
    record = binding.module.find_record(key)
    return c_spelling(record.ref) if record is not None else key
