"""Pass ``order``: type declarations in an order where each follows what it uses.

Input: the selected Module.  Output: ``("typedef" | "record" | "enum", key)``
pairs.  Source order is kept wherever it already works; a declaration is
pulled earlier only when something before it needs it.

C asks for two different things, and telling them apart is what makes real
headers order cleanly (PKCS#11's ``CK_FUNCTION_LIST`` holds pointers to
functions whose parameters are pointers to ``CK_FUNCTION_LIST``):

* a name must be **declared** before any use: a typedef name, an enum, an
  untagged record (declared by its definition).  Tagged records are always
  declared, because every emitter writes a forward declaration for each of
  them first;
* a type must be **complete** where it is used by value: a record member of
  record or array type, through any number of typedefs, and the element of
  any array type.  Pointers, function parameters and return types only need
  their names declared.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from ..model import (
    Array,
    CType,
    Enum,
    FunctionType,
    Module,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    Typedef,
    TypedefRef,
    TypeNode,
    as_type,
    assert_never,
)
from .select import is_synthetic

Node = TypeNode  #: ("typedef" | "record" | "enum", name or key)
Need = Literal["declared", "complete"]


def uses(ctype: CType, by_value: bool = True) -> Iterator[tuple[Node, Need]]:
    """What declaring something of type ``ctype`` needs; ``by_value`` False behind a pointer."""
    match as_type(ctype):
        case Primitive():
            pass  # arithmetic types and void are always declared
        case TypedefRef(name=name):
            yield ("typedef", name), "complete" if by_value else "declared"
        case RecordRef(kind="enum", key=key):
            yield ("enum", key), "complete"
        case RecordRef(tag=tag, key=key):
            if by_value:
                yield ("record", key), "complete"
            elif tag is None:  # no forward declaration can name it: its definition must come first
                yield ("record", key), "declared"
        case Pointer(target=target):
            yield from uses(target, by_value=False)
        case Array(element=element):
            # an array type needs a complete element wherever it is written, even
            # behind a typedef or a pointer (C11 6.7.6.2p1): glibc's jmp_buf
            yield from uses(element, by_value=True)
        case FunctionType(ret=ret, params=params):
            yield from uses(ret, by_value=False)
            for param in params:
                yield from uses(param.type, by_value=False)
        case unhandled:
            assert_never(unhandled)


def order_types(module: Module) -> tuple[Node, ...]:
    nodes: list[Node] = [("typedef", t.name) for t in module.typedefs]
    nodes += [("record", r.key) for r in module.records]
    nodes += [("enum", e.key) for e in module.enums]

    # Source order: the model keeps each registry in source order; merge by coordinate,
    # files ranked by where they first appear (never by their path, which would make
    # the output depend on where pegbind or the headers are installed).
    rank: dict[str, int] = {}
    declarations: list[Typedef | Record | Enum] = [*module.typedefs, *module.records, *module.enums]
    for declaration in declarations:
        if declaration.coord is not None:
            rank.setdefault(declaration.coord.file, len(rank))

    def position(node: Node) -> tuple[int, int, int]:
        coord = getattr(module.get(*node), "coord", None)
        return (rank[coord.file], coord.line, coord.col) if coord is not None else (-1, 0, 0)

    nodes.sort(key=position)
    ordered: list[Node] = []
    emitted: set[Node] = set()
    state: dict[tuple[Node, Need], str] = {}

    def needs(node: Node, need: Need) -> Iterator[tuple[Node, Need]]:
        decl = module.get(*node)
        if isinstance(decl, Typedef):
            if need == "declared":
                yield from uses(decl.type, by_value=False)
            else:
                yield node, "declared"
                yield from uses(decl.type, by_value=True)
        elif isinstance(decl, Record):
            for member in decl.fields or ():
                for dep, dep_need in uses(member.type):
                    if dep[0] == "record" and is_synthetic(dep[1]):
                        # Anonymous member records are written inside their parent,
                        # so what they need, the parent needs.
                        yield from needs(dep, "complete")
                    else:
                        yield dep, dep_need

    def emits(node: Node, need: Need) -> bool:
        # A typedef is written once its name can be declared; records and enums
        # are written whole (and an untagged record is declared by that too).
        return node[0] != "typedef" or need == "declared"

    def visit(node: Node, need: Need) -> None:
        key = (node, need)
        if state.get(key) is not None or module.get(*node) is None:
            return
        state[key] = "visiting"  # a back edge (a cycle) is not followed
        for dep, dep_need in needs(node, need):
            visit(dep, dep_need)
        state[key] = "done"
        if emits(node, need) and node not in emitted and not is_synthetic(node[1]):
            emitted.add(node)
            ordered.append(node)

    for node in nodes:
        visit(node, "complete")
    return tuple(ordered)
