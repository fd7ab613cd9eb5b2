"""A parsimonious grammar as Python code: the same parse trees and errors, about three times faster.

In: a :class:`parsimonious.grammar.Grammar`.  Out: :func:`source`, Python
text with one function per expression of the grammar, and :class:`Parser`,
which runs that code (compiled once, see :mod:`pegbind.peg`).

parsimonious interprets a grammar: every expression tried at every position
goes through its packrat cache and two method calls, and each node is made by
a Python ``__init__``.  The generated code does what those methods do, with
the grammar fixed: a rule's function calls its members' functions directly,
a regex or literal leaf is matched in place, and nodes are made by storing
their five slots.  What it keeps of parsimonious's behaviour is exact:

- the tree: a node for every expression matched, of the expression's own
  object (the walkers look their methods up by it), a ``RegexNode`` with its
  ``match`` for a regex;
- the error: the expression and position parsimonious's ``match_core``
  records for a failed parse (the furthest failure of a named expression, or
  the first of an unnamed one until a named one fails), and
  ``IncompleteParseError`` at the end of what matched;
- packrat parsing: a named rule's result at a position is kept for the parse,
  so time stays linear in the text.  An unnamed expression is reached only
  through its rule, so it needs no table of its own.

The regex leaves run on the standard library's ``re`` when their pattern
and flags mean the same there (all of pegbind's do); ``regex``, which
parsimonious compiles them with, is slower to call for such short matches.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from types import CodeType
from typing import Any

import regex
from parsimonious.exceptions import IncompleteParseError, ParseError
from parsimonious.expressions import Expression, Literal, Lookahead, OneOf, Quantifier, Regex, Sequence
from parsimonious.grammar import Grammar
from parsimonious.nodes import Node, RegexNode

__all__ = ["Parser", "expressions", "source"]

#: ``regex`` flags with the same meaning in ``re`` (and VERSION0, ``regex``'s ``re``-compatible behaviour)
_SAME_FLAGS = {int(getattr(regex, name)): getattr(re, name) for name in "IMSXALU"}
_COMPATIBLE = sum(_SAME_FLAGS) | int(regex.VERSION0)


def expressions(grammar: Grammar) -> list[Expression]:
    """Every expression of ``grammar``, each once, in a fixed order: the index of its function."""
    found: list[Expression] = []
    seen: set[int] = set()

    def visit(expression: Expression) -> None:
        stack = [expression]
        while stack:
            current = stack.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            found.append(current)
            stack.extend(reversed(getattr(current, "members", ())))

    for name in grammar:
        visit(grammar[name])
    if grammar.default_rule is not None:
        visit(grammar.default_rule)
    return found


def source(grammar: Grammar) -> str:
    """The Python text of ``grammar``'s matchers: ``f<i>(text, pos, memo, err)`` for expression i.

    Each returns the node expression i matches at ``pos``, or None.  ``memo``
    holds the parse's named-rule results; ``err`` is ``[pos, expression]``,
    the failure parsimonious would report so far.
    """
    found = expressions(grammar)
    index = {id(expression): i for i, expression in enumerate(found)}
    count = len(found)
    out: list[str] = []

    def record(i: int, pos: str, indent: str) -> list[str]:
        # parsimonious's match_core: a named expression's failure counts if it is the furthest
        # so far; an unnamed one's only while nothing has been recorded
        condition = f"{pos} >= err[0]" + ("" if found[i].name else " and err[1] is None")
        return [f"{indent}if {condition}:", f"{indent}    err[0] = {pos}; err[1] = E{i}"]

    def node(into: str, kind: str, i: int, start: str, end: str, children: str, indent: str) -> list[str]:
        return [f"{indent}{into} = NEW({kind})",
                f"{indent}{into}.expr = E{i}; {into}.full_text = text; {into}.start = {start}; "
                f"{into}.end = {end}; {into}.children = {children}"]

    def attempt(i: int, pos: str, into: str, indent: str) -> list[str]:
        # ``into`` = the node of expression i at ``pos``, or None; a leaf is matched in place
        expression = found[i]
        more = indent + "    "
        if type(expression) is Regex:
            return [f"{indent}_m = R{i}(text, {pos})",
                    f"{indent}if _m is None:",
                    f"{more}{into} = None",
                    *record(i, pos, more),
                    f"{indent}else:",
                    *node(into, "RegexNode", i, pos, "_m.end()", "[]", more),
                    f"{more}{into}.match = _m"]
        if type(expression) is Literal:
            return [f"{indent}if text.startswith(L{i}, {pos}):",
                    *node(into, "Node", i, pos, f"{pos} + {len(expression.literal)}", "[]", more),
                    f"{indent}else:",
                    f"{more}{into} = None",
                    *record(i, pos, more)]
        return [f"{indent}{into} = f{i}(text, {pos}, memo, err)"]

    for i, expression in enumerate(found):
        kind = type(expression)
        out.append(f"def f{i}(text, pos, memo, err):")
        if kind is Regex or kind is Literal:
            out += [*attempt(i, "pos", "node", "    "), "    return node", ""]
            continue
        members = [index[id(member)] for member in expression.members]
        body: list[str] = []
        if kind is Sequence:
            body.append("    p = pos")
            for k, member in enumerate(members):
                body += [*attempt(member, "p", f"n{k}", "    "),
                         f"    if n{k} is None:", "        return None", f"    p = n{k}.end"]
            children = ", ".join(f"n{k}" for k in range(len(members)))
            body += [*node("node", "Node", i, "pos", "p", f"[{children}]", "    "), "    return node"]
        elif kind is OneOf:
            for member in members:
                body += [*attempt(member, "pos", "n", "    "), "    if n is not None:",
                         *node("node", "Node", i, "pos", "n.end", "[n]", "        "), "        return node"]
            body.append("    return None")
        elif kind is Lookahead:
            test = "n is None" if expression.negativity else "n is not None"
            body += [*attempt(members[0], "pos", "n", "    "), f"    if {test}:",
                     *node("node", "Node", i, "pos", "pos", "[]", "        "), "        return node",
                     "    return None"]
        elif kind is Quantifier:
            # parsimonious stops at the end of the text without trying the member again,
            # and after a match of nothing once the minimum is reached
            bound = "" if expression.max == float("inf") else f" and len(c) < {expression.max}"
            body += ["    p = pos", "    c = []", "    size = len(text)", f"    while p < size{bound}:",
                     *attempt(members[0], "p", "n", "        "), "        if n is None:", "            break",
                     "        c.append(n)",
                     "        if n.end == n.start" + (f" and len(c) >= {expression.min}:" if expression.min else ":"),
                     "            break", "        p = n.end"]
            if expression.min:
                body += [f"    if len(c) < {expression.min}:", "        return None"]
            body += [*node("node", "Node", i, "pos", "p", "c", "    "), "    return node"]
        else:
            raise TypeError(f"{kind.__name__} expressions cannot be compiled")
        if expression.name:
            out += [f"    key = pos * {count} + {i}", "    node = memo.get(key, MISSING)",
                    "    if node is not MISSING:", "        if node is None:",
                    *record(i, "pos", "            "), "        return node"]
        for line in body:  # each way out records a failure, and a rule keeps its result
            statement = line.lstrip()
            indent = line[:len(line) - len(statement)]
            if statement in ("return None", "return node") and expression.name:
                out.append(f"{indent}memo[key] = {statement[7:]}")
            if statement == "return None":
                out += record(i, "pos", indent)
            out.append(line)
        out.append("")
    return "\n".join(out)


def _matcher(expression: Regex) -> Callable[[str, int], Any]:
    """The regex's ``match``, through ``re`` where it means the same there."""
    pattern = expression.re
    flags = int(pattern.flags)
    if flags & ~_COMPATIBLE:
        return pattern.match
    try:
        return re.compile(pattern.pattern, sum(mine for theirs, mine in _SAME_FLAGS.items() if flags & theirs)).match
    except re.error:
        return pattern.match


_MISSING = object()


class Parser:
    """``grammar``'s rules parsing through ``code`` (:func:`source` compiled for that grammar)."""

    def __init__(self, grammar: Grammar, code: CodeType):
        self.grammar = grammar
        found = expressions(grammar)
        namespace: dict[str, Any] = {"NEW": object.__new__, "Node": Node, "RegexNode": RegexNode, "MISSING": _MISSING}
        for i, expression in enumerate(found):
            namespace[f"E{i}"] = expression
            if type(expression) is Regex:
                namespace[f"R{i}"] = _matcher(expression)
            elif type(expression) is Literal:
                namespace[f"L{i}"] = expression.literal
        exec(code, namespace)
        index = {id(expression): i for i, expression in enumerate(found)}
        self._rules = {name: (grammar[name], namespace[f"f{index[id(grammar[name])]}"]) for name in grammar}
        self._default = self._rules[grammar.default_rule.name] if grammar.default_rule is not None else None

    def parse(self, text: str, rule: str | None = None) -> Node:
        """The tree of all of ``text`` as ``rule`` (the default rule), as parsimonious's ``parse`` gives it.

        Raises ``ParseError``, or ``IncompleteParseError`` when the rule matched less than the text.
        """
        expression, match = self._rules[rule] if rule is not None else self._default  # type: ignore[misc]
        failure: list[Any] = [-1, None]
        found = match(text, 0, {}, failure)
        if found is None:
            raise ParseError(text, failure[0], failure[1])
        if found.end < len(text):
            raise IncompleteParseError(text, found.end, expression)
        return found
