"""Pass ``select``: keep the declarations the config asks for, plus the types they need.

Input: the parsed :class:`~pegbind.model.Module` and the include/exclude globs.
Output: a smaller Module.  Only the library's own declarations are bound for
themselves (``Module.is_library``: the named headers and their folders, as the
preprocessor decided); those of the C library and of other packages stay only
where a kept declaration uses their types (``uint32_t``, ``size_t``, ``fd_set``).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..config import BindingConfig
from ..frozen import replace
from ..model import (
    Address,
    Array,
    Constant,
    CType,
    Enum,
    Function,
    FunctionType,
    Module,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    Typedef,
    TypedefRef,
    TypeNode,
    Variable,
    as_type,
    assert_never,
)


def is_synthetic(key: str) -> bool:
    """Whether a record/enum key names an anonymous member type (no C name at all)."""
    return "<" in key


def referenced_types(ctype: CType) -> Iterator[TypeNode]:
    """(``"typedef"`` | ``"record"``, name-or-key) of every named type ``ctype`` mentions."""
    match as_type(ctype):
        case Primitive():
            pass  # arithmetic types and void have no name to declare
        case TypedefRef(name=name):
            yield ("typedef", name)
        case RecordRef(kind=kind, key=key):
            yield ("enum" if kind == "enum" else "record", key)
        case Pointer(target=target):
            yield from referenced_types(target)
        case Array(element=element):
            yield from referenced_types(element)
        case FunctionType(ret=ret, params=params):
            yield from referenced_types(ret)
            for param in params:
                yield from referenced_types(param.type)
        case unhandled:
            assert_never(unhandled)


def _record_name(decl: Record | Enum) -> str:
    return decl.tag if decl.tag is not None else decl.key


def _own_types(module: Module, config: BindingConfig) -> tuple[set[str], list[TypeNode]]:
    """The enums the config selects (keys), and every record, typedef and enum bound for itself."""
    enums_kept = {
        e.key
        for e in module.enums
        if module.is_library(e.coord)
        and (config.selects(_record_name(e)) or any(config.selects(m.name) for m in e.members))
    }
    roots: list[TypeNode] = [("enum", key) for key in enums_kept]
    roots += [("record", r.key) for r in module.records
              if config.selects(_record_name(r)) and module.is_library(r.coord)]
    roots += [("typedef", t.name) for t in module.typedefs if config.selects(t.name) and module.is_library(t.coord)]
    return enums_kept, roots


#: Types the C standard gives no members (C11 7.21.1: a FILE records a stream's state
#: in ways it leaves to the implementation): bound as opaque handles, whatever the C
#: library's header shows (glibc's struct _IO_FILE, MinGW's struct _iobuf).
STANDARD_OPAQUE_TYPES = frozenset({"FILE"})


def _standard_opaque(module: Module) -> set[str]:
    """Keys of the C library's records that :data:`STANDARD_OPAQUE_TYPES` name."""
    found = set()
    for name in STANDARD_OPAQUE_TYPES:
        typedef = module.find_typedef(name)
        if typedef is None:
            continue
        target = module.resolve(typedef.type)
        if isinstance(target, RecordRef) and not module.is_library(typedef.coord):
            found.add(target.key)
    return found


def _addresses(module: Module) -> tuple[Constant, ...]:
    """The constants that are an integer cast to a pointer type: their type is made with them."""
    return tuple(c for c in module.constants if isinstance(c.value, Address))


def _with_types(module: Module, roots: list[TypeNode], users: Iterable[Function | Variable | Constant]) -> Module:
    """``module`` keeping only the types named in ``roots``, those ``users`` mention, and what they need."""
    pending = list(roots)
    for user in users:
        pending += referenced_types(user.type)
    opaque = _standard_opaque(module)
    # Closure over the type graph: a kept record needs its field types, a
    # typedef its target.
    kept: set[TypeNode] = set()
    while pending:
        node = pending.pop()
        if node in kept:
            continue
        decl = module.get(*node)
        if decl is None:
            continue
        kept.add(node)
        if isinstance(decl, Record) and decl.key not in opaque:
            for member in decl.fields or ():
                pending += referenced_types(member.type)
        elif isinstance(decl, Typedef):
            pending += referenced_types(decl.type)
    return module.replace(
        records=tuple(replace(r, fields=None) if r.key in opaque else r
                      for r in module.records if ("record", r.key) in kept),
        enums=tuple(e for e in module.enums if ("enum", e.key) in kept),
        typedefs=tuple(t for t in module.typedefs if ("typedef", t.name) in kept),
    )


def select_declarations(module: Module, config: BindingConfig) -> Module:
    """The declarations ``config.selects`` and the closure of the types they use."""

    def wanted(decl, name: str) -> bool:
        return config.selects(name) and module.is_library(decl.coord)

    functions = tuple(f for f in module.functions if wanted(f, f.name))
    variables = tuple(v for v in module.variables if wanted(v, v.name))
    enums_kept, roots = _own_types(module, config)
    member_names = {m.name for e in module.enums if e.key in enums_kept for m in e.members}
    # An enumerator may also be listed as a constant (dumps do that); the enum binds it.
    constants = tuple(
        c for c in module.constants if wanted(c, c.name) and c.name not in member_names
    )
    kept_functions = {f.name for f in functions}
    aliases = tuple(
        a for a in module.function_aliases if wanted(a, a.name) and a.target in kept_functions
    )
    selected = module.replace(functions=functions, function_aliases=aliases, variables=variables, constants=constants)
    return _with_types(selected, roots, (*functions, *variables, *constants))


def undeclared_types(module: Module, users: Iterable[Function]) -> tuple[str, ...]:
    """Type names the module's types and ``users`` mention but no header declares: the
    compiler's own (``__builtin_va_list``) and what the model left out (a vector type)."""
    found: dict[str, None] = {}
    types: list[CType] = [t.type for t in module.typedefs] + [f.type for f in users]
    types += [member.type for record in module.records for member in record.fields or ()]
    for ctype in types:
        for kind, name in referenced_types(ctype):
            if kind == "typedef" and module.find_typedef(name) is None:
                found[name] = None
    return tuple(found)


def types_of_bound(module: Module, config: BindingConfig, bound: Iterable[Function]) -> Module:
    """The selected ``module`` keeping only the types the library declares for themselves and those
    the ``bound`` functions (and the variables) need: a function that is left out leaves no type
    behind (a ``va_list`` it alone took, a C library record only it used); the constants that are
    addresses keep their types."""
    _enums, roots = _own_types(module, config)
    return _with_types(module, roots, (*bound, *module.variables, *_addresses(module)))
