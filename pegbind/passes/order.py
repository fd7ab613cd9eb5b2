"""Pass ``order``: type declarations in an order where each follows what it uses.

Input: the selected Module.  Output: ``("typedef" | "record" | "enum", key)``
pairs.  Source order is kept wherever it already works; a declaration is
pulled earlier only when something before it needs it.  Pointer cycles
(``struct node { struct node *next; }``) are broken by the forward
declarations emitters write for every tagged record.
"""
from __future__ import annotations

from ..model import Module, Record
from .select import is_synthetic, referenced_types


def order_types(module: Module) -> tuple[tuple[str, str], ...]:
    nodes: list[tuple[str, str]] = []
    for decl in module.typedefs:
        nodes.append(("typedef", decl.name))
    for record in module.records:
        nodes.append(("record", record.key))
    for enum in module.enums:
        nodes.append(("enum", enum.key))
    # Source order: the model keeps each registry in source order; merge by coordinate.
    def position(node: tuple[str, str]):
        coord = getattr(module.get(*node), "coord", None)
        return (coord.file, coord.line, coord.col) if coord is not None else ("", 0, 0)

    nodes.sort(key=position)
    ordered: list[tuple[str, str]] = []
    state: dict[tuple[str, str], str] = {}

    def dependencies(node: tuple[str, str]):
        decl = module.get(*node)
        if isinstance(decl, Record):
            for member in decl.fields or ():
                for dep in referenced_types(member.type):
                    yield from _through_anonymous(dep)
        elif node[0] == "typedef":
            for dep in referenced_types(decl.type):  # type: ignore[union-attr]
                yield from _through_anonymous(dep)

    def _through_anonymous(dep: tuple[str, str]):
        # Anonymous member records are declared inside their parent, so their
        # own dependencies become the parent's.
        if is_synthetic(dep[1]):
            if dep not in state:
                state[dep] = "done"
                yield from dependencies(dep)
        else:
            yield dep

    def visit(node: tuple[str, str]) -> None:
        if state.get(node) is not None or module.get(*node) is None:
            return
        state[node] = "visiting"  # a back edge (cycle) is simply not followed
        for dep in dependencies(node):
            visit(dep)
        state[node] = "done"
        if not is_synthetic(node[1]):
            ordered.append(node)

    for node in nodes:
        visit(node)
    return tuple(ordered)
