"""Parse layer: C constant expressions -> typed values, with C's rules (C11 6.4.4, 6.3.1, 6.6).

In: an expression node of :mod:`pegbind.parse.syntax` and a :class:`Scope`
(what was declared so far: enumerators, typedefs, records, and the target's
sizes).  Out: a :class:`Value` — the value *and* its C type — or a
:class:`NotConstant` exception carrying the reason and the token at fault.

Integers are Python ints kept inside the range of their C type after every
operation, so unsigned arithmetic wraps exactly as the target's compiler does
(``~0UL`` is 18446744073709551615 where long has 8 bytes and 4294967295 where
it has 4).  Used for macro bodies, enumerator values, array lengths,
bit-field widths and alignments alike.
"""
from __future__ import annotations

import math
import operator
import struct
from collections.abc import Callable
from typing import Any, Protocol

from ..frozen import frozen_dataclass
from ..model import Address, Array, CType, Pointer, Primitive, RecordRef, TypedefRef
from ..patterns import compiled
from ..peg import MAX_NESTING, nesting_room
from ..preprocess.literals import (
    LiteralError,
    character_constant,
    character_type,
    code_units,
    decode_text,
    split_literal,
)
from ..preprocess.token import Token
from ..target import TargetInfo
from . import syntax as s


class NotConstant(Exception):
    """The expression is not an arithmetic/string constant expression; says why and where."""

    def __init__(self, reason: str, token: Token | None = None):
        super().__init__(reason)
        self.reason = reason
        self.token = token


@frozen_dataclass()
class Value:
    """A constant's value and type.

    ``prim`` is the arithmetic type used for further arithmetic (a name from
    :data:`pegbind.model.PRIMITIVE_NAMES`), None for a string literal or an
    integer cast to a pointer type, whose :attr:`address` it is;
    ``ctype`` is the type as C would name it — a cast to a typedef keeps the
    typedef (``((CK_ULONG)1)`` is a ``CK_ULONG``).
    """

    value: int | float | str | bytes
    prim: str | None
    ctype: CType
    address: Address | None = None


class Scope(Protocol):
    """What the evaluator may ask about the declarations seen so far."""

    target: TargetInfo

    def value_of(self, name: str) -> Value | None:
        """An enumerator's value, or None for an unknown name."""

    def type_of(self, type_name: s.TypeName) -> CType:
        """The model type of a type name (raises NotConstant when it cannot be built)."""

    def resolve(self, ctype: CType) -> CType:
        """``ctype`` with typedefs followed (as :meth:`pegbind.model.Module.resolve`)."""

    def size_align(self, ctype: CType, token: Token) -> tuple[int, int]:
        """(size, alignment) of a complete type, or NotConstant."""

    def offset_of(self, ctype: CType, member: str, token: Token) -> int:
        """Byte offset of ``member`` in a record type, or NotConstant."""

    def enum_primitive(self, key: str) -> str:
        """The integer type GCC gives the enum of ``key`` (``unsigned int`` where no member is
        negative: see :func:`pegbind.target.enum_type`)."""


# --------------------------------------------------------------------------
# Integer types of the target (C11 6.2.5, 6.3.1.1)
# --------------------------------------------------------------------------

_RANK = {
    "_Bool": 0, "char": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2,
    "int": 3, "unsigned int": 3, "long": 4, "unsigned long": 4, "long long": 5,
    "unsigned long long": 5, "__int128": 6, "unsigned __int128": 6,
}
_FLOATING = ("float", "double", "long double")

#: one Primitive per arithmetic type the evaluator gives its values (they are immutable)
_PRIMITIVES: dict[str, Primitive] = {}


def shared_primitive(prim: str) -> Primitive:
    """The one Primitive of the arithmetic type ``prim`` (Primitives are immutable)."""
    found = _PRIMITIVES.get(prim)
    if found is None:
        found = _PRIMITIVES[prim] = Primitive(prim)
    return found


def _unsigned_of(prim: str) -> str:
    if prim == "char" or prim == "signed char":
        return "unsigned char"
    return prim if prim.startswith("unsigned") else f"unsigned {prim}"


def promote(prim: str) -> str:
    """Integer promotions (C11 6.3.1.1p2): everything narrower than int becomes int."""
    return "int" if _RANK.get(prim, 3) < 3 else prim


def usual_arithmetic(a: str, b: str, target: TargetInfo) -> str:
    """The common type of two arithmetic operands (C11 6.3.1.8)."""
    for floating in reversed(_FLOATING):
        if floating in (a, b):
            return floating
    a, b = promote(a), promote(b)
    if a == b:
        return a
    signed_a, signed_b = target.is_signed(a), target.is_signed(b)
    if signed_a == signed_b:
        return a if _RANK[a] >= _RANK[b] else b
    unsigned, signed = (b, a) if signed_a else (a, b)
    if _RANK[unsigned] >= _RANK[signed]:
        return unsigned
    if target.bits_of(signed) > target.bits_of(unsigned):
        return signed
    return _unsigned_of(signed)


def _round_float(value: float, prim: str) -> float:
    if prim == "float" and math.isfinite(value):
        try:
            return struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    return value


def convert(value: int | float, prim: str, target: TargetInfo) -> int | float:
    """``value`` converted to arithmetic type ``prim`` (C11 6.3.1.2-6.3.1.5)."""
    if prim in _FLOATING:
        return _round_float(float(value), prim)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotConstant("a non-finite floating value converted to an integer type")
        if prim == "_Bool":
            return int(value != 0.0)
        value = int(value)  # truncation toward zero
    return target.wrap(value, prim)


# --------------------------------------------------------------------------
# Literals (C11 6.4.4)
# --------------------------------------------------------------------------

_INTEGER = compiled(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)\Z")
_SUFFIXES = {"": "", "u": "u", "l": "l", "ul": "ul", "lu": "ul", "ll": "ll", "ull": "ull", "llu": "ull"}


def integer_literal(text: str, target: TargetInfo) -> Value:
    """The value and type of an integer constant (C11 6.4.4.1p5 table)."""
    match = _INTEGER.match(text)
    suffix = _SUFFIXES.get(match.group(2).lower()) if match else None
    # `lL` mixes cases, which C forbids
    if match is None or suffix is None or "lL" in match.group(2) or "Ll" in match.group(2):
        raise NotConstant(f"invalid integer constant '{text}'")
    digits = match.group(1)
    decimal = not digits.startswith("0") or digits == "0"
    if digits[:2].lower() == "0x":
        value = int(digits[2:], 16)
    elif digits[:2].lower() == "0b":
        value = int(digits[2:], 2)
    elif decimal:
        value = int(digits)
    else:
        if any(ch in "89" for ch in digits):
            raise NotConstant(f"invalid digit in octal constant '{text}'")
        value = int(digits, 8)
    unsigned = "u" in suffix
    start = {"": "int", "u": "int", "l": "long", "ul": "long", "ll": "long long", "ull": "long long"}[suffix]
    ladder = ["int", "long", "long long"]
    candidates: list[str] = []
    for prim in ladder[ladder.index(start):]:
        if not unsigned:
            candidates.append(prim)
        if unsigned or not decimal:
            candidates.append(f"unsigned {prim}")
    for prim in candidates:
        if target.fits(value, prim):
            return Value(value, prim, shared_primitive(prim))
    # gcc: "integer constant is so large that it is unsigned" (C11 leaves it to the implementation)
    if 0 <= value < 1 << 64:
        return Value(value, "unsigned long long", shared_primitive("unsigned long long"))
    raise NotConstant(f"integer constant '{text}' is too large for any integer type")


def floating_literal(text: str) -> Value:
    """A floating constant (C11 6.4.4.2): ``f`` float, ``l`` long double, else double."""
    body, prim = text, "double"
    lowered = text.lower()
    is_hex = lowered.startswith("0x")
    if lowered.endswith("f") and not (is_hex and "p" not in lowered):
        body, prim = text[:-1], "float"
    elif lowered.endswith("l"):
        body, prim = text[:-1], "long double"
    try:
        value = float.fromhex(body) if is_hex else float(body)
    except ValueError:
        raise NotConstant(f"invalid floating constant '{text}'") from None
    except OverflowError:  # gcc: "floating constant exceeds range of 'double'", and the value is infinity
        value = math.inf
    return Value(_round_float(value, prim), prim, shared_primitive(prim))


def number(text: str, target: TargetInfo) -> Value:
    lowered = text.lower()
    is_hex = lowered.startswith("0x")
    if "." in text or (is_hex and "p" in lowered) or (not is_hex and "e" in lowered):
        return floating_literal(text)
    return integer_literal(text, target)


def char_constant(text: str, target: TargetInfo) -> Value:
    """A character constant (C11 6.4.4.4) with gcc's value and type; decoded as #if decodes it."""
    try:
        constant = character_constant(text, target)
    except LiteralError as problem:
        raise NotConstant(problem.message) from None
    return Value(constant.value, constant.type, shared_primitive(constant.type))


def string_literal(tokens: tuple[Token, ...], target: TargetInfo) -> Value:
    """Adjacent string literals concatenated (C11 6.4.5); str when UTF-8 or wide, else bytes."""
    try:
        pieces = [split_literal(token.text) for token in tokens]
        prefixes = {prefix for prefix, _body in pieces} - {"", "u8"}
        if len(prefixes) > 1:
            raise NotConstant("concatenation of differently prefixed string literals")
        prefix = prefixes.pop() if prefixes else ""  # an unprefixed piece takes the wide prefix
        units = [unit for _prefix, body in pieces for unit in code_units(body, prefix, target)]
    except LiteralError as problem:
        raise NotConstant(problem.message) from None
    array = Array(Primitive(character_type(prefix, target)), len(units) + 1)
    text = decode_text(units, prefix, target)
    if text is not None:
        return Value(text, None, array)
    if prefix:
        raise NotConstant("a wide string literal whose code units are not valid Unicode")
    return Value(bytes(units), None, array)


# --------------------------------------------------------------------------
# Expressions (C11 6.5, 6.6)
# --------------------------------------------------------------------------


def _c_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


class Evaluator:
    """Evaluates expression nodes in a :class:`Scope`."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.target = scope.target
        #: a literal's spelling -> its Value (a long expression repeats its literals)
        self._numbers: dict[str, Value] = {}
        #: integer type of rank int or higher -> its range, for arithmetic that needs no conversion
        #: (filled on use: an evaluator is made for each macro constant, most of which do no arithmetic)
        self._ranges: dict[str, tuple[int, int]] = {}

    def value(self, expr: s.Expr) -> Value:
        """The value of a whole expression: the entry point, where nesting beyond what the
        evaluator's recursion can take (a chain of casts) is a NotConstant naming the limit."""
        with nesting_room():
            try:
                return self.evaluate(expr)
            except RecursionError:
                raise NotConstant(f"expression nested more than {MAX_NESTING} levels deep (pegbind's limit)",
                                  _token_of(expr)) from None

    def int_value(self, expr: s.Expr) -> int:
        """An integer constant expression (array length, bit width, enumerator)."""
        result = self.value(expr)
        if result.prim is None or result.prim in _FLOATING:
            raise NotConstant("not an integer constant expression", _token_of(expr))
        return int(result.value)

    def is_constant(self, expr: s.Expr) -> bool:
        """Whether ``expr`` is an integer constant expression here."""
        try:
            self.int_value(expr)
        except NotConstant:
            return False
        return True

    def evaluate(self, expr: s.Expr) -> Value:
        method = _EVALUATE.get(type(expr))
        if method is None:
            method = _EVALUATE[type(expr)] = getattr(Evaluator, f"_eval_{type(expr).__name__}")
        return method(self, expr)

    def _arith(self, expr: s.Expr) -> Value:
        result = self.evaluate(expr)
        if result.prim is None:
            what = "a pointer" if result.address is not None else "a string literal"
            raise NotConstant(f"{what} used as a number", _token_of(expr))
        return result

    def _eval_Number(self, expr: s.Number) -> Value:
        text = expr.token.text
        found = self._numbers.get(text)
        if found is None:
            try:
                found = self._numbers[text] = number(text, self.target)
            except NotConstant as problem:
                raise NotConstant(problem.reason, expr.token) from None
        return found

    def _eval_CharConstant(self, expr: s.CharConstant) -> Value:
        try:
            return char_constant(expr.token.text, self.target)
        except NotConstant as problem:
            raise NotConstant(problem.reason, expr.token) from None

    def _eval_StringLiteral(self, expr: s.StringLiteral) -> Value:
        try:
            return string_literal(expr.tokens, self.target)
        except NotConstant as problem:
            raise NotConstant(problem.reason, expr.token) from None

    def _eval_Name(self, expr: s.Name) -> Value:
        found = self.scope.value_of(expr.token.text)
        if found is None:
            raise NotConstant(f"'{expr.token.text}' is not a constant", expr.token)
        return found

    def _eval_NonConstant(self, expr: s.NonConstant) -> Value:
        raise NotConstant(f"{expr.what} is not allowed in a constant expression", expr.token)

    def _eval_Comma(self, expr: s.Comma) -> Value:
        raise NotConstant("the comma operator is not allowed in a constant expression", expr.token)

    def _eval_Unary(self, expr: s.Unary) -> Value:
        if expr.op in ("&", "*"):
            raise NotConstant(f"unary '{expr.op}' (address or indirection) does not give an arithmetic constant",
                              expr.token)
        operand = self._arith(expr.operand)
        if expr.op == "!":
            return _int(int(not operand.value))
        if operand.prim in _FLOATING:
            if expr.op == "~":
                raise NotConstant("'~' applied to a floating value", expr.token)
            value = float(operand.value)
            return Value(value if expr.op == "+" else -value, operand.prim, shared_primitive(operand.prim))
        prim = promote(operand.prim)  # type: ignore[arg-type]
        value = int(operand.value)
        op = expr.op
        result = -value if op == "-" else ~value if op == "~" else value
        span = self._ranges.get(prim)
        if span is None or not span[0] <= result <= span[1]:
            result = self.target.wrap(result, prim)
        return Value(result, prim, shared_primitive(prim))

    def _eval_Binary(self, expr: s.Binary) -> Value:
        # A flat chain (1 + 1 + ... + 1) is a left-deep tree as deep as the chain is
        # long: its left spine is walked with a loop, so its length is not bounded
        # by Python's recursion limit.
        spine = [expr]
        while isinstance(spine[-1].left, s.Binary):
            spine.append(spine[-1].left)
        value = self._arith(spine[-1].left)
        # The common step, taken here without a call or a Value: an operand of the running
        # value's type (of int's rank or above), both in its range and the result too,
        # needs no conversion.  ``total`` runs ahead of ``value`` while ``ahead``.  A
        # literal seen before is looked up; any other operand is evaluated, as _apply would
        # (these operators always evaluate both), and handed to it where the step is not plain.
        numbers, ranges = self._numbers, self._ranges
        total: Any = value.value
        span, ahead = ranges.get(value.prim), False  # type: ignore[arg-type]
        for node in reversed(spine):
            right_value: Value | None = None
            if span is not None and span[0] <= total <= span[1]:
                plain, right = _INTEGER_OPS.get(node.op), node.right
                if plain is not None:
                    operand: Any = None
                    if type(right) is s.Number:
                        right_value = numbers.get(right.token.text)
                    elif isinstance(right, s.Unary) and type(right.operand) is s.Number and right.op in _NEGATIONS:
                        # a negated literal of the running type: its type's, unpromoted (out of
                        # the range negated, it is applied as _apply does)
                        known = numbers.get(right.operand.token.text)
                        literal: Any = known.value if known is not None and known.prim == value.prim else None
                        if literal is not None and span[0] <= literal <= span[1]:
                            operand = _NEGATIONS[right.op](literal)
                    if operand is None:
                        if right_value is None:
                            right_value = self._arith(right)
                        operand = right_value.value if right_value.prim == value.prim else None
                    if operand is not None and span[0] <= operand <= span[1]:
                        result = plain(total, operand)
                        if span[0] <= result <= span[1]:
                            total, ahead = result, True
                            continue
            if ahead:
                value, ahead = Value(total, value.prim, shared_primitive(value.prim)), False  # type: ignore[arg-type]
            value = self._apply(node, value, right_value)
            total, span = value.value, ranges.get(value.prim)  # type: ignore[arg-type]
        if ahead:
            value = Value(total, value.prim, shared_primitive(value.prim))  # type: ignore[arg-type]
        return value

    def _apply(self, expr: s.Binary, left: Value, right: Value | None = None) -> Value:
        """``expr``'s operator applied to its left operand's value ``left`` and its right
        operand (``right``, where it was evaluated already)."""
        op = expr.op
        if op in ("&&", "||"):
            if op == "&&" and not left.value:
                return _int(0)
            if op == "||" and left.value:
                return _int(1)
            return _int(int(bool(self._arith(expr.right).value)))
        if right is None:
            right = self._arith(expr.right)
        if op in ("<<", ">>"):
            return self._shift(op, left, right, expr.token)
        # _arith's values are numbers of an arithmetic type
        prim: str = left.prim  # type: ignore[assignment]
        a: Any = left.value
        b: Any = right.value
        # The same integer type of int's rank or above, as most operands are, needs no conversion.
        span = None
        if prim == right.prim:
            span = self._ranges.get(prim)
            if span is None and prim in _PROMOTED and prim in self.target.sizes:
                span = self._ranges[prim] = self.target.int_range(prim)
        if span is None or not (span[0] <= a <= span[1] and span[0] <= b <= span[1]):
            prim = usual_arithmetic(prim, right.prim, self.target)  # type: ignore[arg-type]
            a = convert(a, prim, self.target)
            b = convert(b, prim, self.target)
        compare = _COMPARISONS.get(op)
        if compare is not None:
            return _int(int(compare(a, b)))
        if prim in _FLOATING:
            if op in ("%", "&", "|", "^"):
                raise NotConstant(f"'{op}' applied to a floating value", expr.token)
            if op == "/":
                value = a / b if b else math.copysign(math.inf, a) if a else math.nan
            else:
                value = _INTEGER_OPS[op](a, b)
            return Value(_round_float(value, prim), prim, shared_primitive(prim))
        a, b = int(a), int(b)
        if op in ("/", "%"):
            if b == 0:
                raise NotConstant("division by zero", expr.token)
            result = _c_div(a, b) if op == "/" else a - b * _c_div(a, b)
        else:
            result = _INTEGER_OPS[op](a, b)
        return Value(self.target.wrap(result, prim), prim, shared_primitive(prim))

    def _shift(self, op: str, left: Value, right: Value, token: Token) -> Value:
        if left.prim in _FLOATING or right.prim in _FLOATING:
            raise NotConstant(f"'{op}' applied to a floating value", token)
        prim = promote(left.prim)  # type: ignore[arg-type]
        count = int(right.value)
        if not 0 <= count < self.target.bits_of(prim):
            raise NotConstant(f"shift count {count} is out of range for '{prim}'", token)
        value = int(left.value)
        result = value << count if op == "<<" else value >> count
        return Value(self.target.wrap(result, prim), prim, shared_primitive(prim))

    def _eval_Conditional(self, expr: s.Conditional) -> Value:
        condition = self._arith(expr.condition)
        chosen = expr.if_true if condition.value else expr.if_false
        other = expr.if_false if condition.value else expr.if_true
        result = self.evaluate(chosen)
        try:
            other_value = self.evaluate(other)
        except NotConstant:
            return result  # an unevaluated operand may be anything (C11 6.6p3)
        if result.prim is None or other_value.prim is None:
            return result
        prim = usual_arithmetic(result.prim, other_value.prim, self.target)
        return Value(convert(result.value, prim, self.target), prim, shared_primitive(prim))  # type: ignore[arg-type]

    def _eval_Cast(self, expr: s.Cast) -> Value:
        spec = expr.type_name.specifiers
        # `(NAME) -1` where NAME is an enumerator, not a type: C parses it as a subtraction.
        if (
            spec.typedef_name is not None and expr.type_name.declarator is None
            and isinstance(expr.operand, s.Unary) and expr.operand.op in ("+", "-")
            and self.scope.value_of(spec.typedef_name.text) is not None
            and isinstance(self.scope.resolve(TypedefRef(spec.typedef_name.text)), TypedefRef)
        ):
            binary = s.Binary(expr.operand.op, s.Name(spec.typedef_name), expr.operand.operand, expr.operand.token)
            return self.evaluate(binary)
        target_type = self.scope.type_of(expr.type_name).unqualified()
        resolved = self.scope.resolve(target_type).unqualified()
        if isinstance(resolved, Primitive) and resolved.is_void:
            raise NotConstant("a cast to void has no value", expr.token)
        if isinstance(resolved, Pointer):
            # an address: SQLite's ((sqlite3_destructor_type)-1), signal.h's ((__sighandler_t) 1)
            operand = self.evaluate(expr.operand)
            if operand.address is not None:  # another pointer's: xmlsec's ((xmlSecTransformId)NULL)
                return Value(0, None, target_type, operand.address)
            if operand.prim is None:
                raise NotConstant("a string literal used as a number", _token_of(expr.operand))
            if operand.prim in _FLOATING:
                raise NotConstant(f"a floating value cast to the pointer type '{target_type.to_c()}'", expr.token)
            bits = 8 * self.target.pointer_size
            return Value(0, None, target_type, Address(int(operand.value) % (1 << bits)))
        if isinstance(resolved, RecordRef) and resolved.kind == "enum":
            # its underlying type: xkbcommon's ((enum xkb_keymap_format) -1) is 4294967295
            prim = self.scope.enum_primitive(resolved.key)
        elif isinstance(resolved, Primitive) and resolved.is_complex:
            raise NotConstant(f"a constant of the complex type '{target_type.to_c()}' has no binding", expr.token)
        elif isinstance(resolved, Primitive):
            prim = resolved.name
        else:
            raise NotConstant(f"a cast to '{target_type.to_c()}' is not an arithmetic conversion", expr.token)
        operand = self._arith(expr.operand)
        return Value(convert(operand.value, prim, self.target), prim, target_type)  # type: ignore[arg-type]

    def _eval_SizeofType(self, expr: s.SizeofType) -> Value:
        ctype = self.scope.type_of(expr.type_name)
        size, align = self.scope.size_align(ctype, expr.token)
        return self._size_value(align if expr.alignof else size)

    def _eval_SizeofExpr(self, expr: s.SizeofExpr) -> Value:
        operand = self.evaluate(expr.operand)
        if operand.address is not None:
            return self._size_value(self.target.pointer_size)
        if operand.prim is None:  # a string literal: its array type knows the size
            array = operand.ctype if isinstance(operand.ctype, Array) else None
            if array is None or not array.length or not isinstance(array.element, Primitive):
                return self._size_value(0)
            return self._size_value(array.length * self.target.sizes[array.element.name][0])
        return self._size_value(self.target.sizes[operand.prim][0])

    def _eval_Offsetof(self, expr: s.Offsetof) -> Value:
        ctype = self.scope.type_of(expr.type_name)
        return self._size_value(self.scope.offset_of(ctype, expr.member, expr.token))

    def _size_value(self, value: int) -> Value:
        prim = self.target.size_type
        return Value(value, prim, shared_primitive(prim))


#: Evaluator's method for each kind of expression node, found on first use
_EVALUATE: dict[type, Callable[[Evaluator, Any], Value]] = {}

#: the integer types the integer promotions leave as they are (C11 6.3.1.1p2)
_PROMOTED = ("int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
             "__int128", "unsigned __int128")

#: the operators of two arithmetic operands that give an int of 0 or 1 (C11 6.5.8, 6.5.9)
_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}

#: the operators that cannot fail, on two integers (and, the first three, on two floating values)
_INTEGER_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "&": operator.and_, "|": operator.or_,
    "^": operator.xor,
}
#: the prefix operators whose integer result is the operand's own type, with no promotion
#: where that type is of int's rank or above
_NEGATIONS: dict[str, Callable[[Any], Any]] = {"-": operator.neg, "~": operator.invert, "+": operator.pos}


def _int(value: int) -> Value:
    return Value(value, "int", shared_primitive("int"))


def _token_of(expr: s.Expr) -> Token | None:
    return getattr(expr, "token", None)
