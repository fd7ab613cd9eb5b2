"""A parsimonious grammar written as Python code: parsimonious's trees and errors, without parsimonious.

In: a :class:`parsimonious.grammar.Grammar` (read from a ``.ppeg`` file when
the compiled code is not already kept, see :mod:`pegbind.peg`).  Out:
:func:`source`, the text of a Python module that parses by that grammar, and
:class:`Parser`, which runs that module's compiled code.  A run of pegbind
needs parsimonious only to compile a grammar: what parses a header is this
module and the code it wrote.

parsimonious interprets a grammar: every expression tried at every position
goes through its packrat cache and two method calls, and each node is made by
a Python ``__init__``.  The generated code does what those methods do, with
the grammar fixed: a rule's function calls its members' functions directly,
a regex or literal leaf is matched in place, and nodes are made by storing
their slots; it parses about three times as fast.  What it keeps of
parsimonious's behaviour is exact (``tests/test_pegcode.py`` compares them):

- the tree: a :class:`Node` for every expression matched (a
  :class:`RegexNode` with its ``match`` for a regex), whose ``expr`` is one
  :class:`Expression` per expression of the grammar, of the same kind, name
  and members, so that walkers look their methods up by it;
- the error: the expression and position parsimonious's ``match_core``
  records for a failed parse (the furthest failure of a named expression, or
  the first of an unnamed one until a named one fails), and an
  :class:`IncompleteParseError` at the end of what matched;
- packrat parsing: a named rule's result at a position is kept for the parse,
  so time stays linear in the text.  An unnamed expression is reached only
  through its rule, so it needs no table of its own.

Regex leaves run on the standard library's ``re`` where their pattern and
flags mean the same there (all of pegbind's do), the others on ``regex``,
parsimonious's engine; each is compiled when first tried, as a run tries only
some of a grammar's patterns and compiling them all took a tenth of a small
header's run.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from types import CodeType
from typing import TYPE_CHECKING, Any

from . import patterns

if TYPE_CHECKING:
    from parsimonious.grammar import Grammar

__all__ = ["Expression", "IncompleteParseError", "Node", "NodeVisitor", "ParseError", "Parser", "RegexNode",
           "VisitationError", "expressions", "source"]


# ---- what a parse gives: the grammar's expressions, nodes, errors ----------------------------

class Expression:
    """One expression of a grammar: a rule when it has a ``name``, else part of one.

    Its kind is its class; the code that makes it gives its kind's fields by keyword
    (``Literal("SEMI", literal=";")``) and its ``members`` once all are made.
    """

    __slots__ = ("name", "members")

    def __init__(self, name: str = "", **fields: Any):
        self.name = name
        self.members: tuple[Expression, ...] = ()
        for field, value in fields.items():
            setattr(self, field, value)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name or '(unnamed)'}>"


class Literal(Expression):
    __slots__ = ("literal",)
    literal: str


class Regex(Expression):
    """A regex leaf, compiled when first matched: a run uses a few of a grammar's patterns."""

    __slots__ = ("pattern", "flags", "engine", "_compiled")
    pattern: str
    flags: int  #: flags of ``engine``: ``re``, or ``regex`` for what only it reads
    engine: str

    @property
    def re(self) -> Any:
        """The compiled pattern."""
        compiled = getattr(self, "_compiled", None)
        if compiled is None:
            engine = patterns.compiled if self.engine == "re" else __import__("regex").compile
            compiled = self._compiled = engine(self.pattern, self.flags)
        return compiled


class Sequence(Expression):
    __slots__ = ()


class OneOf(Expression):
    __slots__ = ()


class Lookahead(Expression):
    __slots__ = ("negativity",)
    negativity: bool


class Quantifier(Expression):
    __slots__ = ("min", "max")
    min: int
    max: float


class Node:
    """What an expression matched: ``full_text[start:end]``, with a node per member matched."""

    __slots__ = ("expr", "full_text", "start", "end", "children")

    expr: Expression
    full_text: str
    start: int
    end: int
    children: list[Node]

    @property
    def expr_name(self) -> str:
        return self.expr.name

    @property
    def text(self) -> str:
        return self.full_text[self.start:self.end]

    def __iter__(self) -> Iterator[Node]:
        return iter(self.children)

    def __repr__(self) -> str:
        return f"<Node {self.expr!r} {self.text!r}>"


class RegexNode(Node):
    __slots__ = ("match",)

    match: re.Match[str]


class ParseError(Exception):
    """The text does not match: ``pos`` is where ``expr`` failed, the furthest a named rule got."""

    def __init__(self, text: str, pos: int = -1, expr: Expression | None = None):
        super().__init__(text, pos, expr)
        self.text = text
        self.pos = pos
        self.expr = expr

    def __str__(self) -> str:
        name = self.expr.name if self.expr is not None else ""
        return f"rule {name!r} did not match at {self.text[self.pos:self.pos + 20]!r} (offset {self.pos})"


class IncompleteParseError(ParseError):
    """The rule ``expr`` matched, but only up to ``pos``."""

    def __str__(self) -> str:
        name = self.expr.name if self.expr is not None else ""
        return f"rule {name!r} matched, but not {self.text[self.pos:self.pos + 20]!r} (offset {self.pos}) after it"


class VisitationError(Exception):
    """An exception a visit method raised, with the node it was visiting."""

    def __init__(self, exc: BaseException, exc_class: type, node: Node):
        super().__init__(f"{exc_class.__name__}: {exc} (visiting {node!r})")
        self.original = exc
        self.node = node


class NodeVisitor:
    """Walks a tree bottom-up: ``visit_<rule name>(node, visited_children)``, else ``generic_visit``."""

    #: what a visit method may raise as it is, not wrapped in a :class:`VisitationError`
    unwrapped_exceptions: tuple[type[BaseException], ...] = ()

    def visit(self, node: Node) -> Any:
        method = getattr(self, "visit_" + node.expr.name, self.generic_visit)
        try:
            return method(node, [self.visit(child) for child in node.children])
        except VisitationError:
            raise
        except Exception as exc:
            if isinstance(exc, self.unwrapped_exceptions):
                raise
            raise VisitationError(exc, type(exc), node) from exc

    def generic_visit(self, node: Node, visited_children: list[Any]) -> Any:
        """What a node no method visits gives: its children's values, or the node itself for a
        node with none (a leaf, a lookahead, a repetition that matched nothing)."""
        return visited_children or node


# ---- writing the code ------------------------------------------------------------------------

def expressions(grammar: Grammar) -> list[Any]:
    """Every expression of ``grammar``, each once, in a fixed order: that of the code's ``E<i>``."""
    found: list[Any] = []
    seen: set[int] = set()
    roots = [grammar[name] for name in grammar]
    if grammar.default_rule is not None:
        roots.append(grammar.default_rule)
    for root in roots:
        stack = [root]
        while stack:
            current = stack.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            found.append(current)
            stack.extend(reversed(getattr(current, "members", ())))
    return found


def _regex_arguments(pattern: Any) -> str:
    """:class:`Regex`'s arguments for parsimonious's ``regex`` pattern: ``re`` where it means the same there."""
    import regex  # parsimonious's engine: only to compile a grammar

    same = {int(getattr(regex, name)): getattr(re, name) for name in "IMSXALU"}
    flags = int(pattern.flags)
    if not flags & ~(sum(same) | int(regex.VERSION0)):
        translated = sum(mine for theirs, mine in same.items() if flags & theirs)
        try:
            re.compile(pattern.pattern, translated)
            return f"pattern={pattern.pattern!r}, flags={translated}, engine='re'"
        except re.error:
            pass
    return f"pattern={pattern.pattern!r}, flags={flags}, engine='regex'"


def source(grammar: Grammar) -> str:
    """The Python text of a parser for ``grammar``.

    It makes ``E<i>``, the i-th of :func:`expressions`, and ``f<i>(text, pos,
    memo, err)``, which returns the node expression i matches at ``pos``, or
    None (``memo`` holds the parse's named-rule results; ``err`` is ``[pos,
    expression]``, the failure parsimonious would report so far); and
    ``RULES``, each rule's name -> (its expression, its function).
    """
    from parsimonious import expressions as kinds  # only to compile a grammar

    found = expressions(grammar)
    index = {id(expression): i for i, expression in enumerate(found)}
    count = len(found)
    out: list[str] = []
    for i, expression in enumerate(found):
        kind, name = type(expression), expression.name
        if kind is kinds.Literal:
            out.append(f"E{i} = Literal({name!r}, literal={expression.literal!r})")
        elif kind is kinds.Regex:
            out.append(f"E{i} = Regex({name!r}, {_regex_arguments(expression.re)})")
        elif kind is kinds.Lookahead:
            out.append(f"E{i} = Lookahead({name!r}, negativity={bool(expression.negativity)})")
        elif kind is kinds.Quantifier:
            most = "INF" if expression.max == float("inf") else repr(expression.max)
            out.append(f"E{i} = Quantifier({name!r}, min={expression.min}, max={most})")
        elif kind in (kinds.Sequence, kinds.OneOf):
            out.append(f"E{i} = {kind.__name__}({name!r})")
        else:
            raise TypeError(f"{kind.__name__} expressions cannot be compiled")
    for i, expression in enumerate(found):
        members = getattr(expression, "members", ())
        if members:
            out.append(f"E{i}.members = ({''.join(f'E{index[id(m)]}, ' for m in members)})")
        if type(expression) is kinds.Regex:
            out.append(f"R{i} = FIRST(E{i}, 'R{i}')")
        elif type(expression) is kinds.Literal:
            out.append(f"L{i} = E{i}.literal")
    out.append("")

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
        if type(expression) is kinds.Regex:
            return [f"{indent}_m = R{i}(text, {pos})",
                    f"{indent}if _m is None:",
                    f"{more}{into} = None",
                    *record(i, pos, more),
                    f"{indent}else:",
                    *node(into, "RegexNode", i, pos, "_m.end()", "[]", more),
                    f"{more}{into}.match = _m"]
        if type(expression) is kinds.Literal:
            return [f"{indent}if text.startswith(L{i}, {pos}):",
                    *node(into, "Node", i, pos, f"{pos} + {len(expression.literal)}", "[]", more),
                    f"{indent}else:",
                    f"{more}{into} = None",
                    *record(i, pos, more)]
        return [f"{indent}{into} = f{i}(text, {pos}, memo, err)"]

    for i, expression in enumerate(found):
        kind = type(expression)
        out.append(f"def f{i}(text, pos, memo, err):")
        if kind is kinds.Regex or kind is kinds.Literal:
            out += [*attempt(i, "pos", "node", "    "), "    return node", ""]
            continue
        members = [index[id(member)] for member in expression.members]
        body: list[str] = []
        if kind is kinds.Sequence:
            body.append("    p = pos")
            for k, member in enumerate(members):
                body += [*attempt(member, "p", f"n{k}", "    "),
                         f"    if n{k} is None:", "        return None", f"    p = n{k}.end"]
            children = ", ".join(f"n{k}" for k in range(len(members)))
            body += [*node("node", "Node", i, "pos", "p", f"[{children}]", "    "), "    return node"]
        elif kind is kinds.OneOf:
            for member in members:
                body += [*attempt(member, "pos", "n", "    "), "    if n is not None:",
                         *node("node", "Node", i, "pos", "n.end", "[n]", "        "), "        return node"]
            body.append("    return None")
        elif kind is kinds.Lookahead:
            test = "n is None" if expression.negativity else "n is not None"
            body += [*attempt(members[0], "pos", "n", "    "), f"    if {test}:",
                     *node("node", "Node", i, "pos", "pos", "[]", "        "), "        return node",
                     "    return None"]
        else:  # a quantifier
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
    rules = ", ".join(f"{name!r}: (E{index[id(grammar[name])]}, f{index[id(grammar[name])]})" for name in grammar)
    default = grammar.default_rule.name if grammar.default_rule is not None else None
    every = "".join(f"E{i}, " for i in range(count))
    out += [f"RULES = {{{rules}}}", f"DEFAULT = {default!r}", f"EXPRESSIONS = ({every})"]
    return "\n".join(out) + "\n"


# ---- running it ------------------------------------------------------------------------------

_MISSING = object()


class Parser:
    """The parser :func:`source` wrote for a grammar, from its compiled ``code``."""

    def __init__(self, code: CodeType):
        namespace: dict[str, Any] = {
            "NEW": object.__new__, "Node": Node, "RegexNode": RegexNode, "MISSING": _MISSING, "INF": float("inf"),
            "Literal": Literal, "Regex": Regex, "Sequence": Sequence, "OneOf": OneOf, "Lookahead": Lookahead,
            "Quantifier": Quantifier,
        }

        def first(expression: Regex, slot: str) -> Any:
            # what matches a regex leaf until it is first used: it compiles the pattern and puts
            # the pattern's match in its place, which the code's functions read as a global
            def match(text: str, pos: int) -> Any:
                found = namespace[slot] = expression.re.match
                return found(text, pos)
            return match

        namespace["FIRST"] = first
        exec(code, namespace)
        self._rules: dict[str, tuple[Expression, Any]] = namespace["RULES"]
        self._default: str | None = namespace["DEFAULT"]
        #: every expression, in :func:`expressions` order
        self.expressions: tuple[Expression, ...] = namespace["EXPRESSIONS"]

    def __getitem__(self, rule: str) -> Expression:
        """The expression of ``rule``."""
        return self._rules[rule][0]

    def parse(self, text: str, rule: str | None = None) -> Node:
        """The tree of all of ``text`` as ``rule`` (the default rule), as parsimonious's ``parse`` gives it.

        Raises :class:`ParseError`, or :class:`IncompleteParseError` when the rule matched less than the text.
        """
        expression, match = self._rules[rule if rule is not None else self._default]  # type: ignore[index]
        failure: list[Any] = [-1, None]
        found = match(text, 0, {}, failure)
        if found is None:
            raise ParseError(text, failure[0], failure[1])
        if found.end < len(text):
            raise IncompleteParseError(text, found.end, expression)
        return found
