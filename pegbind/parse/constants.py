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
import re
import struct
from dataclasses import dataclass
from typing import Protocol

from ..model import Array, CType, Pointer, Primitive, RecordRef, TypedefRef
from ..preprocess.token import Token
from ..target import TargetInfo
from . import syntax as s


class NotConstant(Exception):
    """The expression is not an arithmetic/string constant expression; says why and where."""

    def __init__(self, reason: str, token: Token | None = None):
        super().__init__(reason)
        self.reason = reason
        self.token = token


@dataclass(frozen=True, slots=True)
class Value:
    """A constant's value and type.

    ``prim`` is the arithmetic type used for further arithmetic (a name from
    :data:`pegbind.model.PRIMITIVE_NAMES`), None for a string literal;
    ``ctype`` is the type as C would name it — a cast to a typedef keeps the
    typedef (``((CK_ULONG)1)`` is a ``CK_ULONG``).
    """

    value: int | float | str | bytes
    prim: str | None
    ctype: CType


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


# --------------------------------------------------------------------------
# Integer types of the target (C11 6.2.5, 6.3.1.1)
# --------------------------------------------------------------------------

_RANK = {
    "_Bool": 0, "char": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2,
    "int": 3, "unsigned int": 3, "long": 4, "unsigned long": 4, "long long": 5,
    "unsigned long long": 5, "__int128": 6, "unsigned __int128": 6,
}
_FLOATING = ("float", "double", "long double")


def is_signed(prim: str, target: TargetInfo) -> bool:
    if prim == "char":
        return target.char_signed
    return not (prim.startswith("unsigned") or prim == "_Bool")


def bits_of(prim: str, target: TargetInfo) -> int:
    return 8 * target.sizes[prim][0]


def _unsigned_of(prim: str) -> str:
    if prim == "char" or prim == "signed char":
        return "unsigned char"
    return prim if prim.startswith("unsigned") else f"unsigned {prim}"


def wrap(value: int, prim: str, target: TargetInfo) -> int:
    """``value`` converted to integer type ``prim`` (C11 6.3.1.3; modulo 2**N like gcc)."""
    if prim == "_Bool":
        return int(value != 0)
    bits = bits_of(prim, target)
    value &= (1 << bits) - 1
    if is_signed(prim, target) and value >> (bits - 1):
        value -= 1 << bits
    return value


def fits(value: int, prim: str, target: TargetInfo) -> bool:
    bits = bits_of(prim, target)
    if is_signed(prim, target):
        return -(1 << (bits - 1)) <= value < (1 << (bits - 1))
    return 0 <= value < (1 << bits)


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
    signed_a, signed_b = is_signed(a, target), is_signed(b, target)
    if signed_a == signed_b:
        return a if _RANK[a] >= _RANK[b] else b
    unsigned, signed = (b, a) if signed_a else (a, b)
    if _RANK[unsigned] >= _RANK[signed]:
        return unsigned
    if bits_of(signed, target) > bits_of(unsigned, target):
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
    return wrap(value, prim, target)


# --------------------------------------------------------------------------
# Literals (C11 6.4.4)
# --------------------------------------------------------------------------

_INTEGER = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)\Z")
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
        if fits(value, prim, target):
            return Value(value, prim, Primitive(prim))
    # gcc: "integer constant is so large that it is unsigned" (C11 leaves it to the implementation)
    if 0 <= value < 1 << 64:
        return Value(value, "unsigned long long", Primitive("unsigned long long"))
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
    return Value(_round_float(value, prim), prim, Primitive(prim))


def number(text: str, target: TargetInfo) -> Value:
    lowered = text.lower()
    is_hex = lowered.startswith("0x")
    if "." in text or (is_hex and "p" in lowered) or (not is_hex and "e" in lowered):
        return floating_literal(text)
    return integer_literal(text, target)


_SIMPLE_ESCAPES = {
    "n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27, "E": 27,
    "\\": 92, "'": 39, '"': 34, "?": 63,
}


def _prefix_and_body(text: str, quote: str) -> tuple[str, str]:
    start = text.index(quote)
    return text[:start], text[start + 1 : -1]


def decode_units(body: str, wide: bool) -> list[int]:
    """The code units of a literal's body: bytes for narrow literals, code points for wide."""
    units: list[int] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            units.extend([ord(ch)] if wide else ch.encode("utf-8"))
            i += 1
            continue
        i += 1
        if i >= len(body):
            raise NotConstant("a literal ends with a backslash")
        ch = body[i]
        if ch in _SIMPLE_ESCAPES:
            units.append(_SIMPLE_ESCAPES[ch])
            i += 1
        elif ch in "01234567":
            end = i
            while end < len(body) and end - i < 3 and body[end] in "01234567":
                end += 1
            units.append(int(body[i:end], 8))
            i = end
        elif ch == "x":
            end = i + 1
            while end < len(body) and body[end] in "0123456789abcdefABCDEF":
                end += 1
            if end == i + 1:
                raise NotConstant("\\x used with no following hex digits")
            units.append(int(body[i + 1 : end], 16))
            i = end
        elif ch in "uU":
            width = 4 if ch == "u" else 8
            code = int(body[i + 1 : i + 1 + width], 16)
            units.extend([code] if wide else chr(code).encode("utf-8"))
            i += 1 + width
        else:
            raise NotConstant(f"unknown escape sequence '\\{ch}'")
    return units


def char_constant(text: str, target: TargetInfo) -> Value:
    """A character constant (C11 6.4.4.4): plain ones are ``int``, with gcc's values."""
    prefix, body = _prefix_and_body(text, "'")
    units = decode_units(body, wide=prefix in ("L", "u", "U"))
    if not units:
        raise NotConstant("empty character constant")
    if prefix in ("L", "u", "U"):
        prim = {"L": target.wchar_type, "u": "unsigned short", "U": "unsigned int"}[prefix]
        return Value(wrap(units[-1], prim, target), prim, Primitive(prim))
    if prefix == "u8":
        return Value(units[-1] & 0xFF, "unsigned char", Primitive("unsigned char"))
    if len(units) == 1:
        # a single char is converted through `char` first: '\xff' is -1 where char is signed
        return Value(wrap(units[0], "char", target), "int", Primitive("int"))
    value = 0
    for unit in units:  # gcc's multi-character constants: big-endian bytes in an int
        value = (value << 8) | (unit & 0xFF)
    return Value(wrap(value, "int", target), "int", Primitive("int"))


def string_literal(tokens: tuple[Token, ...], target: TargetInfo) -> Value:
    """Adjacent string literals concatenated (C11 6.4.5); str when UTF-8 or wide, else bytes."""
    prefixes = {_prefix_and_body(token.text, '"')[0] for token in tokens} - {"", "u8"}
    if len(prefixes) > 1:
        raise NotConstant("concatenation of differently prefixed string literals")
    wide = bool(prefixes)
    units: list[int] = []
    for token in tokens:
        units.extend(decode_units(_prefix_and_body(token.text, '"')[1], wide))
    if wide:
        prefix = prefixes.pop()
        element = {"L": target.wchar_type, "u": "unsigned short", "U": "unsigned int"}[prefix]
        text = "".join(chr(unit) for unit in units)
        return Value(text, None, Array(Primitive(element), len(units) + 1))
    raw = bytes(units)
    try:
        value: str | bytes = raw.decode("utf-8")
    except UnicodeDecodeError:
        value = raw
    return Value(value, None, Array(Primitive("char"), len(raw) + 1))


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

    def int_value(self, expr: s.Expr) -> int:
        """An integer constant expression (array length, bit width, enumerator)."""
        result = self.evaluate(expr)
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
        method = getattr(self, f"_eval_{type(expr).__name__}")
        return method(expr)

    def _arith(self, expr: s.Expr) -> Value:
        result = self.evaluate(expr)
        if result.prim is None:
            raise NotConstant("a string literal used as a number", _token_of(expr))
        return result

    def _eval_Number(self, expr: s.Number) -> Value:
        try:
            return number(expr.token.text, self.target)
        except NotConstant as problem:
            raise NotConstant(problem.reason, expr.token) from None

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
            raise NotConstant(f"unary '{expr.op}' (address or indirection) does not give an arithmetic constant", expr.token)
        operand = self._arith(expr.operand)
        if expr.op == "!":
            return _int(int(not operand.value))
        if operand.prim in _FLOATING:
            if expr.op == "~":
                raise NotConstant("'~' applied to a floating value", expr.token)
            value = float(operand.value)
            return Value(value if expr.op == "+" else -value, operand.prim, Primitive(operand.prim))
        prim = promote(operand.prim)  # type: ignore[arg-type]
        value = int(operand.value)
        result = {"+": value, "-": -value, "~": ~value}[expr.op]
        return Value(wrap(result, prim, self.target), prim, Primitive(prim))

    def _eval_Binary(self, expr: s.Binary) -> Value:
        op = expr.op
        if op in ("&&", "||"):
            left = self._arith(expr.left)
            if op == "&&" and not left.value:
                return _int(0)
            if op == "||" and left.value:
                return _int(1)
            return _int(int(bool(self._arith(expr.right).value)))
        left, right = self._arith(expr.left), self._arith(expr.right)
        if op in ("<<", ">>"):
            return self._shift(op, left, right, expr.token)
        prim = usual_arithmetic(left.prim, right.prim, self.target)  # type: ignore[arg-type]
        a = convert(left.value, prim, self.target)  # type: ignore[arg-type]
        b = convert(right.value, prim, self.target)  # type: ignore[arg-type]
        comparisons = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b}
        if op in comparisons:
            return _int(int(comparisons[op]))
        if prim in _FLOATING:
            if op in ("%", "&", "|", "^"):
                raise NotConstant(f"'{op}' applied to a floating value", expr.token)
            if op == "/" and b == 0:
                value = math.copysign(math.inf, a) if a else math.nan
            else:
                value = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0}[op]
            return Value(_round_float(value, prim), prim, Primitive(prim))
        if op in ("/", "%") and b == 0:
            raise NotConstant("division by zero", expr.token)
        a, b = int(a), int(b)
        result = {
            "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: _c_div(a, b),
            "%": lambda: a - b * _c_div(a, b), "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
        }[op]()
        return Value(wrap(result, prim, self.target), prim, Primitive(prim))

    def _shift(self, op: str, left: Value, right: Value, token: Token) -> Value:
        if left.prim in _FLOATING or right.prim in _FLOATING:
            raise NotConstant(f"'{op}' applied to a floating value", token)
        prim = promote(left.prim)  # type: ignore[arg-type]
        count = int(right.value)
        if not 0 <= count < bits_of(prim, self.target):
            raise NotConstant(f"shift count {count} is out of range for '{prim}'", token)
        value = int(left.value)
        result = value << count if op == "<<" else value >> count
        return Value(wrap(result, prim, self.target), prim, Primitive(prim))

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
        return Value(convert(result.value, prim, self.target), prim, Primitive(prim))  # type: ignore[arg-type]

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
            raise NotConstant(f"a cast to the pointer type '{target_type.to_c()}' is not an arithmetic constant", expr.token)
        if isinstance(resolved, RecordRef) and resolved.kind == "enum":
            prim = "int"
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
        return Value(value, prim, Primitive(prim))


def _int(value: int) -> Value:
    return Value(value, "int", Primitive("int"))


def _token_of(expr: s.Expr) -> Token | None:
    return getattr(expr, "token", None)
