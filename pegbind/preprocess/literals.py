"""Preprocessing layer: the meaning of C character constants and string literals (C11 6.4.4.4, 6.4.5).

In: the text of one ``char`` or ``string`` pp-token as the lexer wrote it —
encoding prefix, quotes and escapes included (``L'\\xff'``, ``u8"caf\\u00e9"``) —
and the :class:`~pegbind.target.TargetInfo`.  Out: a :class:`CharacterValue`
(value, C type, signedness for #if) or a literal's code units; a malformed
literal raises :class:`LiteralError` with gcc's message.

The one home of these facts, shared by the #if evaluator (:mod:`.cexpr`) and
the constant evaluator of the parse layer (:mod:`pegbind.parse.constants`), so
that ``#if '\\u00e9' == 50089`` and ``#define A '\\u00e9'`` cannot disagree.
Values are gcc's for the target: the execution character set is UTF-8 for
plain and ``u8`` literals, UTF-16 for ``u``, UTF-32 for ``U``, and UTF-16 or
UTF-32 for ``L`` by the size of wchar_t; an octal or hex escape is one code
unit, truncated to the unit's width; a plain character constant whose bytes
are more than one is a multi-character constant (bytes big-endian in an
``int``, so ``'\\u00e9'`` is 0xC3A9); a wide one keeps its last code unit.
"""
from __future__ import annotations

import struct

from ..frozen import frozen_dataclass
from ..target import TargetInfo

PREFIXES = ("", "u8", "u", "U", "L")

_SIMPLE_ESCAPES = {
    "n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27, "E": 27,
    "\\": 92, "'": 39, '"': 34, "?": 63,
}
_OCTAL_DIGITS = "01234567"
_HEX_DIGITS = "0123456789abcdefABCDEF"


class LiteralError(ValueError):
    """A literal gcc rejects; ``message`` is gcc's wording."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@frozen_dataclass()
class CharacterValue:
    """A character constant as gcc evaluates it."""

    value: int  #: the value in C, already converted to its type
    #: its C type as a primitive name: ``int`` for plain constants, ``unsigned char`` for u8 (C23),
    #: ``unsigned short`` / ``unsigned int`` for u / U, the target's wchar_t for L
    type: str
    #: whether gcc's #if treats it as uintmax_t: one character of an unsigned character type
    #: (plain char where char is unsigned, u8, u, U, an unsigned wchar_t); multi-character ones are int
    unsigned: bool


def character_type(prefix: str, target: TargetInfo) -> str:
    """The type of one element of a literal with this prefix (the C17 one: u8 strings are char)."""
    return {"": "char", "u8": "char", "u": "unsigned short", "U": "unsigned int", "L": target.wchar_type}[prefix]


def split_literal(text: str) -> tuple[str, str]:
    """(encoding prefix, body between the quotes) of a character constant or string literal token."""
    quote_at = min((i for i in (text.find("'"), text.find('"')) if i >= 0), default=-1)
    prefix = text[:quote_at]
    if quote_at < 0 or prefix not in PREFIXES or len(text) < quote_at + 2 or text[-1] != text[quote_at]:
        raise LiteralError(f"{text} is not a character constant or string literal")
    return prefix, text[quote_at + 1 : -1]


def code_units(body: str, prefix: str, target: TargetInfo) -> list[int]:
    """The code units a literal's body is stored as: bytes for plain and u8, else 16- or 32-bit units."""
    bits = _unit_bits(prefix, target)
    mask = (1 << bits) - 1
    units: list[int] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            units.extend(_source_character(ch, bits))
            i += 1
            continue
        i += 1
        if i >= len(body):
            raise LiteralError("a literal ends with a backslash")
        ch = body[i]
        if ch in _SIMPLE_ESCAPES:
            units.append(_SIMPLE_ESCAPES[ch])
            i += 1
        elif ch in _OCTAL_DIGITS:
            end = i
            while end < len(body) and end - i < 3 and body[end] in _OCTAL_DIGITS:
                end += 1
            units.append(int(body[i:end], 8) & mask)  # gcc: "octal escape sequence out of range", truncated
            i = end
        elif ch == "x":
            end = i + 1
            while end < len(body) and body[end] in _HEX_DIGITS:
                end += 1
            if end == i + 1:
                raise LiteralError("\\x used with no following hex digits")
            units.append(int(body[i + 1 : end], 16) & mask)  # gcc: "hex escape sequence out of range", truncated
            i = end
        elif ch in "uU":
            width = 4 if ch == "u" else 8
            window = body[i + 1 : i + 1 + width]
            digits = window[: len(window) - len(window.lstrip(_HEX_DIGITS))]
            if len(digits) < width:
                raise LiteralError(f"incomplete universal character name \\{ch}{digits}")
            units.extend(_universal_character(int(digits, 16), f"\\{ch}{digits}", bits))
            i += 1 + width
        else:  # gcc warns of an unknown escape and keeps the character
            units.extend(_source_character(ch, bits))
            i += 1
    return units


def character_constant(text: str, target: TargetInfo) -> CharacterValue:
    """The value and type of a character-constant token (``'a'``, ``L'\\xff'``, ``'ab'``...) as gcc has them."""
    prefix, body = split_literal(text)
    if text[len(prefix)] != "'":
        raise LiteralError(f"{text} is not a character constant")
    units = code_units(body, prefix, target)
    if not units:
        raise LiteralError("empty character constant")
    if prefix == "":
        if len(units) == 1:  # a single char is converted through `char` first: '\xff' is -1 where char is signed
            return CharacterValue(target.wrap(units[0], "char"), "int", not target.is_signed("char"))
        packed = 0
        for unit in units:  # gcc's multi-character constant: big-endian bytes, the high ones lost past int's width
            packed = (packed << 8) | unit
        return CharacterValue(target.wrap(packed, "int"), "int", False)
    if prefix == "u8":
        if len(units) > 1:
            raise LiteralError("character constant too long for its type")
        return CharacterValue(units[0], "unsigned char", True)
    element = character_type(prefix, target)  # wide: gcc warns when there are more units and keeps the last
    return CharacterValue(target.wrap(units[-1], element), element, not target.is_signed(element))


def decode_text(units: list[int], prefix: str, target: TargetInfo) -> str | None:
    """The text the code units of a string spell, or None when they are not valid UTF-8/16/32."""
    bits = _unit_bits(prefix, target)
    if bits == 8:
        data, codec = bytes(units), "utf-8"
    else:
        data, codec = struct.pack(f"<{len(units)}{'H' if bits == 16 else 'I'}", *units), f"utf-{bits}-le"
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def _unit_bits(prefix: str, target: TargetInfo) -> int:
    if prefix not in PREFIXES:
        raise LiteralError(f"unknown encoding prefix {prefix!r}")
    return 8 * target.size_of(character_type(prefix, target))


def _source_character(ch: str, bits: int) -> list[int]:
    """A character written in the source, in the literal's encoding (a byte that was not UTF-8 stays itself)."""
    if bits == 8:
        return list(ch.encode("utf-8", "surrogateescape"))
    if 0xD800 <= ord(ch) <= 0xDFFF:
        raise LiteralError("converting to execution character set: Invalid or incomplete multibyte or wide character")
    return _encode(ord(ch), bits)


def _universal_character(code: int, spelling: str, bits: int) -> list[int]:
    """A \\u or \\U escape (C11 6.4.3) in the literal's encoding, with gcc's checks."""
    if (code < 0xA0 and code not in (0x24, 0x40, 0x60)) or 0xD800 <= code <= 0xDFFF or code >= 0x80000000:
        raise LiteralError(f"{spelling} is not a valid universal character")
    if bits == 16 and code > 0x10FFFF:
        raise LiteralError("converting UCN to execution character set: "
                           "Invalid or incomplete multibyte or wide character")
    return _encode(code, bits)


def _encode(code: int, bits: int) -> list[int]:
    """One code point as UTF-8 bytes (gcc's original form, up to six bytes past U+10FFFF), UTF-16 or UTF-32 units."""
    if bits == 32:
        return [code]
    if bits == 16:
        if code < 0x10000:
            return [code]
        code -= 0x10000
        return [0xD800 | (code >> 10), 0xDC00 | (code & 0x3FF)]
    if code < 0x80:
        return [code]
    length = next(n for n, limit in ((2, 0x800), (3, 0x10000), (4, 0x200000), (5, 0x4000000), (6, 0x80000000))
                  if code < limit)
    trail = [0x80 | ((code >> (6 * k)) & 0x3F) for k in range(length - 2, -1, -1)]
    lead = ((0xFF << (8 - length)) & 0xFF) | (code >> (6 * (length - 1)))
    return [lead, *trail]
