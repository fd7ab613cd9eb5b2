"""Preprocessing layer, step 3: the value of an #if / #elif expression (C11 6.10.1).

In: the expression's tokens after macro expansion (``defined`` and the ``__has_*``
operators already replaced by 0/1 by the expander).  Out: an int, or an
:class:`ExpressionError` with the message and the offending token.

Arithmetic is done as a 64-bit compiler does it: every value is intmax_t or
uintmax_t (6.10.1p4), the usual arithmetic conversions make a mixed operation
unsigned (so ``-1 < 0u`` is false), signed results wrap like GCC's.  The walker is
bottom-up (NodeVisitor), so an operand that must not be evaluated — the right of
``0 && x``, the other branch of ``?:`` — is still visited; an error found there
(division by zero) is a :class:`_Poison` value that only becomes an error if the
operator actually uses it.  Character constants are decoded by :mod:`.literals`,
as the parse layer's constant evaluator decodes them.
"""
from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from operator import add, and_, mul, or_, sub, xor
from typing import TypeVar

from ..frozen import frozen_dataclass
from ..patterns import compiled
from ..peg import MAX_NESTING, Parser, TextCache, nesting_room, parser, token_starts, too_deep
from ..pegcode import Node, NodeVisitor, Regex, VisitationError
from ..pegcode import ParseError as GrammarParseError
from ..target import TargetInfo, get_target
from .literals import LiteralError, character_constant
from .token import Token

_BITS = 64
_MASK = (1 << _BITS) - 1
_SIGN = 1 << (_BITS - 1)
INTMAX_MAX = _SIGN - 1


class ExpressionError(Exception):
    """An #if expression that cannot be evaluated; ``token`` is where, if known (``offset``:
    where in the expression's joined text, while the tokens are not at hand)."""

    def __init__(self, message: str, token: Token | None = None, offset: int = -1):
        super().__init__(message)
        self.message = message
        self.token = token
        self.offset = offset


@frozen_dataclass()
class _Value:
    """An ``#if`` operand: its value, and whether it is unsigned."""

    value: int
    unsigned: bool = False


@frozen_dataclass()
class _Poison:
    """An error in an operand; it becomes the result only if that operand is used."""

    message: str


_Result = _Value | _Poison
_TRUE = _Value(1)
_FALSE = _Value(0)


def _wrap(value: int, unsigned: bool) -> _Value:
    value &= _MASK
    if not unsigned and value & _SIGN:
        value -= 1 << _BITS
    return _Value(value, unsigned)


def expression_parser() -> Parser:
    return parser("cexpr")


_INTEGER = compiled(r"(0[xX][0-9A-Fa-f]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)")
_SUFFIXES = {"", "u", "l", "ul", "lu", "ll", "ull", "llu"}


def integer_constant(text: str) -> tuple[_Value, bool]:
    """A pp-number as an #if operand (6.4.4.1), and whether it was too large for intmax_t's
    width: gcc then warns and keeps its low bits.  Raises ExpressionError for floats and bad
    suffixes."""
    m = _INTEGER.fullmatch(text)
    if m is None:
        if re.fullmatch(r"(0[xX][0-9A-Fa-f.]*[pP][+-]?\d+|[0-9.]+([eE][+-]?\d+)?)[fFlL]?", text) and not text.isdigit():
            raise ExpressionError("floating constant in preprocessor expression")
        octal = re.match(r"0[0-7]*([89])[0-9]*[uUlL]*\Z", text)
        if octal:
            raise ExpressionError(f'invalid digit "{octal.group(1)}" in octal constant')
        # as gcc reads it: "0x" and "0b" with no digit after them are 0 with a suffix
        digits = re.match(r"0[xX][0-9A-Fa-f]+|0[bB][01]+|[0-9]*", text).group()  # type: ignore[union-attr]
        raise ExpressionError(f'invalid suffix "{text[len(digits):]}" on integer constant')
    digits, suffix = m.groups()
    folded = suffix.lower()
    if folded not in _SUFFIXES or (("ll" in folded) and suffix.replace("u", "").replace("U", "") not in ("ll", "LL")):
        raise ExpressionError(f'invalid suffix "{suffix}" on integer constant')
    if digits[:2] in ("0x", "0X"):
        value = int(digits, 16)
    elif digits[:2] in ("0b", "0B"):
        value = int(digits[2:], 2)
    elif digits.startswith("0"):
        value = int(digits, 8)
    else:
        value = int(digits)
    too_large = value > _MASK
    value &= _MASK
    return _Value(value, "u" in folded or value > INTMAX_MAX), too_large


def _arith(op: str, a: _Value, b: _Value) -> _Result:
    unsigned = a.unsigned or b.unsigned
    x = a.value & _MASK if unsigned else a.value
    y = b.value & _MASK if unsigned else b.value
    if op == "*":
        return _wrap(x * y, unsigned)
    if op in ("/", "%"):
        if y == 0:
            return _Poison("division by zero in #if")
        quotient = abs(x) // abs(y)
        if (x < 0) != (y < 0):
            quotient = -quotient
        return _wrap(quotient if op == "/" else x - y * quotient, unsigned)
    if op == "+":
        return _wrap(x + y, unsigned)
    if op == "-":
        return _wrap(x - y, unsigned)
    if op in ("<<", ">>"):
        # The result has the left operand's type; a negative count shifts the other way.
        count = b.value if not b.unsigned else b.value & _MASK
        left = op == "<<"
        if count < 0:
            left, count = not left, -count
        value = a.value & _MASK if a.unsigned else a.value
        if left:
            return _wrap(value << count if count < _BITS else 0, a.unsigned)
        return _wrap(value >> count if count < _BITS else (-1 if value < 0 else 0), a.unsigned)
    if op == "<":
        return _Value(int(x < y))
    if op == ">":
        return _Value(int(x > y))
    if op == "<=":
        return _Value(int(x <= y))
    if op == ">=":
        return _Value(int(x >= y))
    if op == "==":
        return _Value(int(x == y))
    if op == "!=":
        return _Value(int(x != y))
    if op == "&":
        return _wrap(x & y, unsigned)
    if op == "^":
        return _wrap(x ^ y, unsigned)
    if op == "|":
        return _wrap(x | y, unsigned)
    raise AssertionError(op)


#: binary operator -> its level, tighter binding higher (C11 6.5.5 multiplicative,
#: 6.5.6 additive, 6.5.7 shift, 6.5.8 relational, 6.5.9 equality, 6.5.10 &,
#: 6.5.11 ^, 6.5.12 |, 6.5.13 &&, 6.5.14 ||); all are left-associative
BINARY_PRECEDENCE = {
    "*": 10, "/": 10, "%": 10,
    "+": 9, "-": 9,
    "<<": 8, ">>": 8,
    "<": 7, ">": 7, "<=": 7, ">=": 7,
    "==": 6, "!=": 6,
    "&": 5,
    "^": 4,
    "|": 3,
    "&&": 2,
    "||": 1,
}

@functools.cache
def _run_part() -> re.Pattern[str]:
    """A run's parts (operand_runs): an operator, a number, a character constant or a name
    (cexpr.ppeg's own leaves), a parenthesis or a prefix operator."""
    grammar = expression_parser()
    patterns = [_operators()]
    for name in ("NUMBER", "CHAR", "IDENTIFIER"):
        leaf = grammar[name]
        assert isinstance(leaf, Regex)
        patterns.append(leaf.pattern)
    return compiled("|".join([*patterns, r"[()~!]"]))


#: the operators an operand of a run may have before it (cexpr.ppeg's UNARY_OP)
_PREFIXES = frozenset({"-", "+", "~", "!"})


#: the operators whose result is the operands' own, wrapped to their type
_WRAPPING: dict[str, Callable[[int, int], int]] = {
    "+": add, "-": sub, "*": mul, "&": and_, "|": or_, "^": xor,
}


def _chain(operators: list[str], operands: list[_Result]) -> _Result:
    """``operands`` joined by ``operators`` of one level, applied left to right.

    Most steps take operands of one type and give a result in its range, which is
    what _arith gives them (these operators agree with it modulo 2**64): those run
    on a plain integer, ``total``, ahead of ``value`` while ``ahead``.
    """
    value = operands[0]
    total, ahead = 0, False
    for operator, operand in zip(operators, operands[1:], strict=True):
        plain = _WRAPPING.get(operator)
        if plain is not None and type(operand) is _Value and type(value) is _Value \
                and operand.unsigned == value.unsigned:
            result = plain(total if ahead else value.value, operand.value)
            if (0 <= result <= _MASK) if value.unsigned else (-_SIGN <= result < _SIGN):
                total, ahead = result, True
                continue
        if ahead:
            value, ahead = _Value(total, value.unsigned), False  # type: ignore[union-attr]
        value = _binary(operator, value, operand)
    return _Value(total, value.unsigned) if ahead else value  # type: ignore[union-attr]


@functools.cache
def _spaced_run() -> re.Pattern[str]:
    """A run (operand_runs) of plain operands as evaluate() writes one (tokens joined by single
    spaces) with no character constant, which may hold a space: its spaces cut it into its parts."""
    grammar = expression_parser()
    number, name = grammar["NUMBER"], grammar["IDENTIFIER"]
    assert isinstance(number, Regex) and isinstance(name, Regex)
    operand = f"(?:{number.pattern}|{name.pattern})"
    return compiled(f"(?:{operand} (?:{_operators()}) )*{operand}")


def _operators() -> str:
    """The binary operators as one alternation, longest first."""
    return "|".join(re.escape(op) for op in sorted(BINARY_PRECEDENCE, key=len, reverse=True))


def _unary(op: str, operand: _Result) -> _Result:
    """``op operand``, for one of UNARY_OP's operators."""
    if isinstance(operand, _Poison):
        return operand
    if op == "-":
        return _wrap(-operand.value, operand.unsigned)
    if op == "~":
        return _wrap(~operand.value, operand.unsigned)
    if op == "!":
        return _Value(int(operand.value == 0))
    return operand


def _applied(operators: list[str], operands: list[_Result]) -> _Result:
    """``operands`` joined by binary ``operators``, by C's precedence."""
    if len({BINARY_PRECEDENCE[operator] for operator in set(operators)}) <= 1:
        return _chain(operators, operands)
    return by_precedence(operators, operands, BINARY_PRECEDENCE.__getitem__, _binary)


_Operator = TypeVar("_Operator")
_Operand = TypeVar("_Operand")


def by_precedence(operators: Sequence[_Operator], operands: Sequence[_Operand], level: Callable[[_Operator], int],
                  apply: Callable[[_Operator, _Operand, _Operand], _Operand]) -> _Operand:
    """``operands`` joined by the binary ``operators`` between them, applied by precedence
    climbing: an operator waits until the next one binds no tighter (all of C's binary
    levels are left-associative), which gives the tree the cascade of rules gives.  The
    ``#if`` evaluator applies values here, the declarations' walker builds syntax."""
    done = [operands[0]]
    waiting: list[tuple[int, _Operator]] = []
    for operator, operand in zip(operators, operands[1:], strict=True):
        rank = level(operator)
        while waiting and waiting[-1][0] >= rank:
            right = done.pop()
            done[-1] = apply(waiting.pop()[1], done[-1], right)
        waiting.append((rank, operator))
        done.append(operand)
    while waiting:
        right = done.pop()
        done[-1] = apply(waiting.pop()[1], done[-1], right)
    return done[0]


def _binary(op: str, a: _Result, b: _Result) -> _Result:
    """``a op b``, as logical_or, logical_and and _fold apply it: the left operand's error first;
    ``&&`` and ``||`` do not use a right operand they do not need."""
    if isinstance(a, _Poison):
        return a
    if op == "&&":
        if not a.value:
            return _FALSE
        return b if isinstance(b, _Poison) else _Value(int(b.value != 0))
    if op == "||":
        if a.value:
            return _TRUE
        return b if isinstance(b, _Poison) else _Value(int(b.value != 0))
    if isinstance(b, _Poison):
        return b
    return _arith(op, a, b)


class ExpressionVisitor(NodeVisitor):
    """Evaluates a cexpr.ppeg tree; every visit returns a _Value or a _Poison."""

    unwrapped_exceptions = (ExpressionError,)

    def __init__(self, target: TargetInfo):
        self.target = target
        #: (message, offset in the text) of what gcc warns of and evaluates anyway
        self.warnings: list[tuple[str, int]] = []

    # expression = _ comma_expr _ END
    def visit_expression(self, node: Node, visited_children: list) -> _Result:
        _b1, value, _b2, _end = visited_children
        return value

    # comma_expr = conditional (_ "," _ conditional)*
    def visit_comma_expr(self, node: Node, visited_children: list) -> _Result:
        first, rest = visited_children
        value = first
        for _b1, _comma, _b2, operand in rest if isinstance(rest, list) else ():
            if isinstance(value, _Poison):
                return value
            value = operand
        return value

    # conditional = (operand_runs / logical_or) (_ "?" _ comma_expr _ ":" _ conditional)?
    def visit_conditional(self, node: Node, visited_children: list) -> _Result:
        (condition,), branches = visited_children
        if not isinstance(branches, list):
            return condition
        (_b1, _q, _b2, when_true, _b3, _colon, _b4, when_false), = branches
        if isinstance(condition, _Poison):
            return condition
        chosen, other = (when_true, when_false) if condition.value else (when_false, when_true)
        if isinstance(chosen, _Poison):
            return chosen
        unsigned = chosen.unsigned or (isinstance(other, _Value) and other.unsigned)
        return _wrap(chosen.value, unsigned)

    def _fold(self, visited_children: list, op: str = "") -> _Result:
        """``operand (op operand)*`` applied left to right (``op``: the level's one operator,
        where its leaf is a literal the visit gives as a node)."""
        first, rest = visited_children
        value = first
        for _b1, operator, _b2, operand in rest if isinstance(rest, list) else ():
            value = _binary(op or (operator if isinstance(operator, str) else operator.text), value, operand)
        return value

    # logical_or = logical_and (_ "||" _ logical_and)*
    def visit_logical_or(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children, "||")

    # logical_and = bit_or (_ "&&" _ bit_or)*
    def visit_logical_and(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children, "&&")

    # bit_or = bit_xor (_ BIT_OR _ bit_xor)*
    def visit_bit_or(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # bit_xor = bit_and (_ "^" _ bit_and)*
    def visit_bit_xor(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # bit_and = equality (_ BIT_AND _ equality)*
    def visit_bit_and(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # equality = relational (_ EQUALITY_OP _ relational)*
    def visit_equality(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # relational = shift (_ RELATIONAL_OP _ shift)*
    def visit_relational(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # shift = additive (_ SHIFT_OP _ additive)*
    def visit_shift(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # additive = multiplicative (_ ADDITIVE_OP _ multiplicative)*
    def visit_additive(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # multiplicative = unary (_ MULTIPLICATIVE_OP _ unary)*
    def visit_multiplicative(self, node: Node, visited_children: list) -> _Result:
        return self._fold(visited_children)

    # unary = (UNARY_OP _ unary) / primary
    def visit_unary(self, node: Node, visited_children: list) -> _Result:
        (branch,) = visited_children
        if not isinstance(branch, list):
            return branch
        op, _blank, operand = branch
        return _unary(op, operand)

    # primary = NUMBER / CHAR / IDENTIFIER / parenthesized
    def visit_primary(self, node: Node, visited_children: list) -> _Result:
        (value,) = visited_children
        return value

    # parenthesized = "(" _ comma_expr _ ")"
    def visit_parenthesized(self, node: Node, visited_children: list) -> _Result:
        _open, _b1, value, _b2, _close = visited_children
        return value

    # operand_runs = OPERAND_RUN MORE_OPERANDS* RUN_END: operands (after prefix operators,
    # parenthesized runs among them) and binary operators, applied by precedence climbing
    # (the cascade of rules from logical_or down to unary gives the same tree)
    def visit_operand_runs(self, node: Node, visited_children: list) -> _Result:
        text = node.text
        plain = _spaced_run().fullmatch(text) is not None
        if plain:  # as evaluate() joins tokens: cut at each space, in C
            pieces = text.split(" ")
            starts = token_starts(pieces)
        else:
            parts = list(_run_part().finditer(text))
            pieces, starts = [part.group() for part in parts], [part.start() for part in parts]
        # the operands' values: a number's or a name's found once, if no word was said
        known: dict[str, _Result] = {}
        at = node.start

        def value_of(piece: str, index: int) -> _Result:
            """The value of the operand ``pieces[index]``, not known yet."""
            if piece[-1] == "'":
                return self._char(piece, at + starts[index])
            if piece[0].isdigit() or piece[0] == ".":
                said = len(self.warnings)
                value = self._number(piece, at + starts[index])
                if len(self.warnings) == said:
                    known[piece] = value
                return value
            value = known[piece] = _FALSE  # an identifier
            return value

        if plain or ("(" not in text and _PREFIXES.isdisjoint(pieces[::2])):  # operands and operators alternating
            operands = [known.get(piece) or value_of(piece, 2 * index) for index, piece in enumerate(pieces[::2])]
            return _applied(pieces[1::2], operands)

        def run(index: int) -> tuple[_Result, int]:
            """The value of the run at ``pieces[index]``, up to the end or its ")", and where it ends."""
            operators: list[str] = []
            operands: list[_Result] = []
            while True:
                piece = pieces[index]
                prefixes = []
                while piece in _PREFIXES:
                    prefixes.append(piece)
                    index += 1
                    piece = pieces[index]
                if piece == "(":
                    value, index = run(index + 1)
                else:
                    value = known.get(piece) or value_of(piece, index)
                for prefix in reversed(prefixes):
                    value = _unary(prefix, value)
                operands.append(value)
                index += 1
                if index == len(pieces) or pieces[index] == ")":
                    return _applied(operators, operands), index
                operators.append(pieces[index])
                index += 1

        return run(0)[0]

    def visit_NUMBER(self, node: Node, visited_children: list) -> _Result:
        return self._number(node.text, node.start)

    def _number(self, text: str, at: int) -> _Result:
        try:
            value, too_large = integer_constant(text)
        except ExpressionError as problem:  # said at the number, as gcc does
            raise ExpressionError(problem.message, offset=at) from None
        if too_large:
            self.warnings.append(("integer constant is too large for its type", at))
        return value

    # A character constant keeps its value in C (gcc: '\xff' is -1 where char is signed),
    # and is uintmax_t when its character type is unsigned.
    def visit_CHAR(self, node: Node, visited_children: list) -> _Result:
        return self._char(node.text, node.start)

    def _char(self, text: str, at: int) -> _Result:
        try:
            constant = character_constant(text, self.target)
        except LiteralError as problem:
            raise ExpressionError(problem.message, offset=at) from None
        return _wrap(constant.value, constant.unsigned)

    # 6.10.1p4: identifiers left after expansion are replaced by 0.
    def visit_IDENTIFIER(self, node: Node, visited_children: list) -> _Result:
        return _FALSE

    def visit_UNARY_OP(self, node: Node, visited_children: list) -> str:
        return node.text


#: the result of each #if expression text evaluated lately, for a target (by name)
_RESULTS = TextCache(entries=4096, chars=1 << 18)


#: what one #if expression text gives: (value, error message, error offset, warnings)
_Outcome = tuple[int | None, str | None, int, tuple[tuple[str, int], ...]]


def _evaluate_text(text: str, target_name: str) -> _Outcome:
    """(value, error message, error offset, (warning, offset) pairs) for a joined expression text."""
    return _RESULTS.kept((text, target_name), len(text), lambda: _evaluate_new(text, target_name))


def _evaluate_new(text: str, target_name: str) -> _Outcome:
    if not text.strip():
        return None, "#if with no expression", 0, ()
    try:
        tree = expression_parser().parse(text)
    except GrammarParseError as err:
        return None, None, err.pos, ()
    visitor = ExpressionVisitor(get_target(target_name))
    try:
        result = visitor.visit(tree)
    except ExpressionError as err:
        return None, err.message, err.offset, tuple(visitor.warnings)
    except VisitationError:  # any other failure inside a visit
        return None, "invalid #if expression", -1, tuple(visitor.warnings)
    if isinstance(result, _Poison):
        return None, result.message, -1, tuple(visitor.warnings)
    return result.value, None, 0, tuple(visitor.warnings)


def evaluate(tokens: list[Token], *, target: TargetInfo,
             warn: Callable[[Token, str], None] | None = None) -> int:
    """The value of an expanded #if expression for ``target`` (one of ``TARGETS``); raises :class:`ExpressionError`.

    ``warn`` hears what gcc warns of and evaluates anyway (a constant too large for its type), at its token.
    """
    parts = [token.text for token in tokens]
    starts = token_starts(parts)
    offset = starts[-1] + len(parts[-1]) + 1 if parts else 0
    text = " ".join(parts)
    deep = too_deep(parts, text)
    if deep is not None:
        raise ExpressionError(f"#if expression nested more than {MAX_NESTING} levels deep (pegbind's limit)",
                              tokens[deep])
    with nesting_room():
        try:
            value, message, where, warnings = _evaluate_text(text, target.name)
        except RecursionError:  # nesting too_deep does not count (a chain of casts or conditionals)
            raise ExpressionError(f"#if expression nested more than {MAX_NESTING} levels deep (pegbind's limit)",
                                  tokens[0] if tokens else None) from None
    if warn is not None:
        for warning, at in warnings:
            warn(tokens[bisect_right(starts, at) - 1], warning)
    if value is not None:
        return value
    if message is not None:  # at its token, where the visit knew it
        return _raise(message, tokens[starts.index(where)] if where in starts else None)
    # A grammar failure: name the token at (or just before) the failure offset.
    index = max((i for i, start in enumerate(starts) if start <= where), default=0)
    if where >= offset - 1 or not tokens:
        raise ExpressionError("invalid #if expression: unexpected end of expression", tokens[-1] if tokens else None)
    bad = tokens[index]
    raise ExpressionError(f'invalid #if expression: unexpected "{bad.text}"', bad)


def _raise(message: str, token: Token | None) -> int:
    raise ExpressionError(message, token)
