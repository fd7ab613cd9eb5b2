"""Pass ``name``: the Python name of every bound declaration.

Input: the selected Module and the config (``strip_prefix``).  Output: a
mapping ``(kind, C name or key) -> Python name`` plus warnings for names
that had to change to stay unique.  Names that are Python or Cython
keywords, or that would shadow a Python builtin, get a trailing ``_``
(``lambda`` -> ``lambda_``) so the generated module compiles and ``open``
still means the builtin inside it.

A struct, union or enum with no C name, written as the type of a member
(libyaml's ``yaml_event_t.data``, a union of structs ``scalar``, ``alias``
...), is named after the class of the record holding the member and the
member: ``yaml_event_t_data``, ``yaml_event_t_data_scalar`` (through arrays
and pointers alike: ``struct { int a; } items[4]`` in ``P`` is ``P_items``).
One a typedef points to (``typedef struct { ... } *P``) is named ``P``.
Those names are claimed last, so a name C gives something keeps it; one
taken gets a ``_`` like any other, with a warning.  :func:`anonymous_types`
says where each is written.
"""
from __future__ import annotations

import builtins
import keyword
from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..model import (
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
    TypedefRef,
    as_type,
    assert_never,
)
from .binding import MODULE_NAMES, AnonymousType
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
#: What the Cython module declares at C level by these names (its cimports; a test reads
#: them from the template): a record or handle class, a C-level type there too, may not take
#: one (a record named ``free`` or ``cython`` did not compile).  Functions and other classes
#: are Python names beside them, and keep theirs.
C_LEVEL_NAMES = frozenset(
    """cython calloc free malloc memchr memcpy memset int8_t int16_t int32_t int64_t uint8_t uint16_t
    uint32_t uint64_t PyBUF_FORMAT PyBUF_ND PyBUF_SIMPLE PyBUF_WRITABLE PyBuffer_Release PyObject_CheckBuffer
    PyObject_GetBuffer
    PyBytes_AS_STRING PyBytes_CheckExact PyBytes_FromObject PyBytes_FromStringAndSize PyBytes_GET_SIZE
    PyMemoryView_Check PyMemoryView_GET_BUFFER PyList_CheckExact PyTuple_CheckExact PyTypeObject
    PY_SSIZE_T_MAX PyThreadState PyObject Py_INCREF Py_XDECREF dlerror dlopen dlsym RTLD_LOCAL
    RTLD_NOW""".split()
)


def python_identifier(name: str) -> str:
    """``name`` made safe as a Python/Cython identifier: reserved words get a trailing ``_``."""
    while keyword.iskeyword(name) or name in CYTHON_RESERVED or name in _BUILTINS:
        name += "_"
    return name


#: What a record class's body uses by name after its fields: a field so named would hide it
#: there (Xlib's ``XSelectionRequestEvent.property``), and Cython reads ``property`` in a
#: ``cdef class`` body as its old property syntax; and the class's own methods, which a
#: field so named would replace.
_CLASS_BODY_NAMES = frozenset({"property", "staticmethod", "classmethod", "from_bytes", "from_pointer"})
#: The attributes a record object keeps its own state in, in some backend (its memory, what
#: owns it, what it keeps alive): a field so named (pthread's ``__owner``, once unmangled)
#: would take its place.
_RECORD_STATE = frozenset({"_p", "_s", "_ptr", "_owner", "_keep", "_ref", "_value"})


def class_identifier(name: str) -> str:
    """Like :func:`python_identifier`, for the class of a record or handle (see :data:`C_LEVEL_NAMES`)."""
    name = python_identifier(name)
    while name in C_LEVEL_NAMES:
        name = python_identifier(name + "_")
    return name


def _reserved_as(name: str) -> str:
    """Why :func:`python_identifier` or :func:`class_identifier` renames ``name``."""
    if keyword.iskeyword(name):
        return "a Python keyword"
    if name in CYTHON_RESERVED:
        return "a word Cython reserves"
    if name in C_LEVEL_NAMES:
        return "a name the compiled module declares in C"
    return "a Python builtin, which the module's own code calls"


def field_identifier(name: str) -> str:
    """Like :func:`python_identifier`, but attributes may shadow builtins (``obj.type`` is fine),
    except those a class body uses (:data:`_CLASS_BODY_NAMES`) and a record's own
    (:data:`_RECORD_STATE`, ``_pb_...``); and as a class body can spell them (:func:`unmangled`)."""
    name = unmangled(name)
    while (keyword.iskeyword(name) or name in CYTHON_RESERVED or name in _CLASS_BODY_NAMES or name in _RECORD_STATE
           or (name.startswith("_pb_") and not name.endswith("_"))):  # none of pegbind's own ends so
        name += "_"
    return name


def unmangled(name: str) -> str:
    """``name`` as a class body can spell it.  Python rewrites a name with two leading
    underscores and fewer than two trailing ones where a class body or method spells it
    (``__x`` in class ``C`` is ``_C__x``): glibc's ``__pad0`` member, its ``__sigset_t`` as
    the type of another class's member, an enumerator ``__RLIM_NLIMITS`` of an enum class.
    Such a name keeps one leading underscore (``_pad0``); any other is returned as it is."""
    if name.startswith("__") and not name.endswith("__"):
        return "_" + name.lstrip("_")
    return name


def _strip(name: str, prefix: str) -> str:
    if prefix and name.startswith(prefix):
        rest = name[len(prefix):]
        if rest.isidentifier():
            return rest
    return name


def class_names(module: Module) -> dict[str, list[str]]:
    """Record and enum key -> the C names its class goes by, preferred first: the typedefs
    naming it, then its tag, then the typedefs naming it further (header order in each).
    An opaque record's class is a handle class, whose objects are pointers to it: the
    typedefs of a pointer to it name it too, before its tag (Z3's ``typedef struct
    _Z3_context *Z3_context``, Tcl's ``Tcl_Command``), also through a typedef of it
    (libtasn1's ``typedef asn1_node_st *asn1_node``).

    A typedef of such a typedef (``typedef name_t other_t``) names the same type.  So, for a
    struct or union, does a typedef of an array of one (GMP's ``typedef __mpz_struct
    mpz_t[1]``, ``jmp_buf``): C code declares its variables with that name, and passes
    them where C takes a pointer to the record, as the record class's instances are.  So,
    last, does a typedef of a pointer to a complete record (FreeType's ``FT_Face``).
    """
    direct: dict[str, list[str]] = {}
    further: dict[str, list[str]] = {}
    pointers: dict[str, list[str]] = {}  # a record -> the typedefs of a pointer to it
    for typedef in module.typedefs:
        named = as_type(typedef.type)
        if isinstance(named, RecordRef):
            if not named.quals:
                direct.setdefault(named.key, []).append(typedef.name)
            continue
        if isinstance(named, Pointer) and not named.quals:
            pointee = as_type(named.target)
            if isinstance(pointee, TypedefRef) and not pointee.quals:  # libtasn1's asn1_node_st *asn1_node
                pointee = module.resolve(pointee)
            if isinstance(pointee, RecordRef) and not pointee.quals and pointee.kind != "enum":
                pointers.setdefault(pointee.key, []).append(typedef.name)
            continue
        array_of_one = False
        if isinstance(named, Array) and named.length == 1:
            array_of_one, named = True, as_type(named.element)
        elif not isinstance(named, TypedefRef):
            continue
        resolved = module.resolve(named)
        if (isinstance(resolved, RecordRef) and not resolved.quals
                and not (array_of_one and resolved.kind == "enum")):
            further.setdefault(resolved.key, []).append(typedef.name)
    found: dict[str, list[str]] = {}
    decls: list[Record | Enum] = [*module.records, *module.enums]
    for decl in decls:
        names = list(direct.get(decl.key, ()))
        if isinstance(decl, Record) and decl.is_opaque:
            # its objects are pointers to it: Z3's typedef struct _Z3_context *Z3_context names them
            names += pointers.get(decl.key, ())
        if decl.tag is not None:
            names.append(decl.tag)
        elif not is_synthetic(decl.key) and decl.key not in names:
            names.append(decl.key)
        names += [name for name in further.get(decl.key, ()) if name not in names]
        if names and isinstance(decl, Record) and not decl.is_opaque:
            # last, the typedefs of a pointer to it (FreeType's ``typedef struct FT_FaceRec_ *FT_Face``):
            # the class's instances are what C passes under that name, as for an array of one (a
            # record named by no other is named after that typedef already: see anonymous_types)
            names += [name for name in pointers.get(decl.key, ()) if name not in names]
        found[decl.key] = names
    return found


def _written_types(ctype: CType, steps: tuple[str, ...]) -> Iterator[tuple[RecordRef, tuple[str, ...]]]:
    """The struct/union/enum ``ctype`` names as written (typedefs are not followed: an anonymous
    type is written in place), with the steps from a member of ``ctype`` to a value of it."""
    match as_type(ctype):
        case RecordRef() as ref:
            yield ref, steps
        case Array(element=element):
            yield from _written_types(element, (*steps, "[]"))
        case Pointer(target=target):
            yield from _written_types(target, (*steps, "*"))
        case Primitive() | TypedefRef() | FunctionType():
            pass  # a function type's parameters cannot write a type C code could reach
        case unhandled:
            assert_never(unhandled)


def _named_members(module: Module, record: Record) -> Iterator[tuple[str | None, Field, Record | None]]:
    """(member name, Field, the anonymous member's record) of each member, in order."""
    for member in record.fields or ():
        inner = None
        if member.name is None:
            resolved = as_type(member.type)
            if isinstance(resolved, RecordRef) and resolved.kind != "enum":
                inner = module.find_record(resolved.key)
        yield member.name, member, inner


def anonymous_types(module: Module) -> dict[str, AnonymousType]:
    """Where each anonymous struct, union or enum written inside a record is: key -> its place.

    Records are walked in source order; an anonymous type reached twice
    (``struct { int a; } x, y;``) keeps its first place.
    """
    places: dict[str, AnonymousType] = {}

    def place(ref: RecordRef, parent: str, root: str, root_c: str, path: tuple[str, ...]) -> None:
        if not is_synthetic(ref.key) or ref.key in places:
            return
        text = f"(*({root_c} *)0)"
        for step in path:
            text = f"{text}[0]" if step == "[]" else f"(*{text})" if step == "*" else f"{text}.{step}"
        places[ref.key] = AnonymousType(ref.key, parent, root, path, f"__typeof__({text})")
        nested = module.find_record(ref.key) if ref.kind != "enum" else None
        if nested is not None:
            visit(nested, root, root_c, path)

    def visit(record: Record, root: str, root_c: str, steps: tuple[str, ...]) -> None:
        for name, member, inner in _named_members(module, record):
            if inner is not None:  # an anonymous member: its members are reached as the parent's
                if is_synthetic(inner.key) and inner.key not in places:
                    places[inner.key] = AnonymousType(inner.key, record.key, root)
                    visit(inner, root, root_c, steps)
                continue
            if name is None:
                continue  # an unnamed bitfield is padding
            for ref, path in _written_types(member.type, (*steps, name)):
                place(ref, record.key, root, root_c, path)

    for record in module.records:
        if not is_synthetic(record.key) and record.fields is not None:
            visit(record, record.key, record.ref.to_c(), ())
    for typedef in module.typedefs:  # typedef struct { ... } *name: reached from the typedef
        for ref, path in _written_types(typedef.type, ()):
            if path:
                place(ref, typedef.name, typedef.name, typedef.name, path)
    return places


def _names_a_pointer(name: str) -> bool:
    """Whether a typedef's name says it is a pointer: ``gpointer``, ``LPVOID``, ``voidpf``, ``VOIDPTR``."""
    lowered = name.lower().strip("_")
    return "pointer" in lowered or "void" in lowered or lowered.endswith(("ptr", "_p"))


def _handed_out_void_pointers(module: Module) -> set[str]:
    """The typedefs of ``void *`` (not ``const``) that a function returns, spelled by their name:
    handles the library makes and takes back (TurboJPEG's ``tjhandle``, EGL's ``EGLDisplay``,
    iconv's ``iconv_t``), as a typedef of ``void`` names one (``CURL *``).  A ``void *``
    parameter takes any buffer; one spelled by such a typedef takes only what the library
    gave, as a buffer there is memory C would read as its own object.

    A typedef only taken (zlib's ``voidp buf``, PKCS#11's ``CK_VOID_PTR``) stays ``void *``, and
    so does one whose name says it is a pointer, of any data (GLib's ``gpointer``, which
    ``g_hash_table_insert`` takes for keys and values and ``g_memdup2`` returns; Windows'
    ``LPVOID``).
    """
    found: set[str] = set()
    for function in module.functions:
        ret = as_type(function.ret)
        if not isinstance(ret, TypedefRef) or ret.name in found or _names_a_pointer(ret.name):
            continue
        typedef = module.find_typedef(ret.name)
        pointer = as_type(typedef.type) if typedef is not None else None
        if isinstance(pointer, Pointer) and isinstance(pointer.target, Primitive) and pointer.target.is_void \
                and not pointer.target.is_const:
            found.add(ret.name)
    return found


def assign_names(
    module: Module, strip_prefix: str, methods: bool = False
) -> tuple[dict[tuple[str, str], str], list[tuple[tuple[str, str], Diagnostic]]]:
    """Python names for functions, records, enums, enum members and constants.

    The names of classes and of what a class body holds (enum members; the functions too
    where they are ``methods`` of the module's ``Library``, a dynamic binding's) are as a
    class body can spell them (:func:`unmangled`); functions and constants of the module
    keep C's.

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

    def claim(key: tuple[str, str], c_name: str, coord, strip: bool = True) -> str:
        module_level = key[0] == "constant" or (key[0] in ("function", "function_alias") and not methods)
        spell = str if module_level else unmangled
        plain = spell(_strip(c_name, strip_prefix) if strip else c_name)
        identifier = class_identifier if key[0] in ("record", "handle") else python_identifier
        wanted = spell(identifier(plain))
        name = wanted
        if name in taken:
            name = spell(identifier(c_name))
        while name in taken:
            name += "_"
        if name != wanted:
            warnings.append(
                (key, Diagnostic(coord, f"{key[0]} {c_name!r} is bound as {name!r}: {wanted!r} is already used",
                                 "warning"))
            )
        elif name != plain:
            warnings.append((key, Diagnostic(
                coord, f"{key[0]} {c_name!r} is bound as {name!r}: {plain!r} is {_reserved_as(plain)}", "warning")))
        taken.add(name)
        names[key] = name
        return name

    # Functions first: they are what users call, so they keep the plain names;
    # then the names C callers use for them (zlib's gzopen for gzopen64).
    for function in module.functions:
        claim(("function", function.name), function.name, function.coord)
    for other_name in module.function_aliases:
        claim(("function_alias", other_name.name), other_name.name, other_name.coord)
    every_class = class_names(module)
    for kind, decls in (("record", module.records), ("enum", module.enums)):
        for decl in decls:
            # opaque records are named too: their handle class takes the name
            c_names = every_class[decl.key]
            if not c_names:
                continue
            claimed = claim((kind, decl.key), c_names[0], decl.coord)
            spelt = class_identifier(_strip(c_names[0], strip_prefix))
            if kind == "record" and claimed != spelt and claimed == unmangled(spelt) and spelt not in taken:
                # the name C gives it, at module level where no class body rewrites it (enum
                # classes take no other names)
                taken.add(spelt)
                names[("alias", c_names[0])] = spelt
            for alias in c_names[1:]:
                python = unmangled(class_identifier(_strip(alias, strip_prefix)))
                if python not in taken:
                    taken.add(python)
                    names[("alias", alias)] = python
    # A typedef of void names an opaque type (libcurl's ``typedef void CURL``): its handle
    # class; so does a typedef of ``void *`` the library hands out (TurboJPEG's tjhandle)
    handed_out = _handed_out_void_pointers(module)
    for typedef in module.typedefs:
        if isinstance(typedef.type, Primitive) and typedef.type.is_void or typedef.name in handed_out:
            claim(("handle", typedef.name), typedef.name, typedef.coord)
    for enum in module.enums:
        for member in enum.members:
            claim(("member", member.name), member.name, member.coord)
    for constant in module.constants:
        claim(("constant", constant.name), constant.name, constant.coord)
    # Types C leaves unnamed, last: parents are placed before what they hold, so each
    # takes its name from its parent's (already stripped of the prefix)
    places = anonymous_types(module)
    for place in places.values():
        holder = place.parent
        while holder in places and not places[holder].steps:  # an anonymous member: its parent's class
            holder = places[holder].parent
        parent = names.get(("record", holder))
        unnamed: Record | Enum | None = module.find_record(place.key) or module.find_enum(place.key)
        kind = "enum" if isinstance(unnamed, Enum) else "record"
        if unnamed is None:
            continue
        if place.member is None and place.steps:  # what a typedef points to: named after the typedef
            claim((kind, place.key), place.root, unnamed.coord)
        elif place.member is not None and parent is not None:
            claim((kind, place.key), f"{parent}_{place.member}", unnamed.coord, strip=False)
    return names, warnings
