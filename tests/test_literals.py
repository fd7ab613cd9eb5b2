"""The one decoder of C character constants and string literals, with gcc 12's values as the reference."""
from __future__ import annotations

import pytest

from pegbind.parse.constants import NotConstant, char_constant, string_literal
from pegbind.preprocess import tokenize
from pegbind.preprocess.cexpr import evaluate
from pegbind.preprocess.literals import CharacterValue, LiteralError, character_constant, code_units, split_literal
from pegbind.target import get_target

LP64 = get_target("linux-x86_64")
AARCH64 = get_target("linux-aarch64")
WIN64 = get_target("win-x86_64")


@pytest.mark.parametrize(
    "text, value, type_name, unsigned",
    [  # values printed by a program gcc -std=c2x compiled for x86_64 Linux
        ("'a'", 97, "int", False),
        (r"'\xff'", -1, "int", False),
        (r"'\377'", -1, "int", False),
        (r"'\0'", 0, "int", False),
        (r"'\n'", 10, "int", False),
        (r"'\e'", 27, "int", False),
        (r"'\%'", 37, "int", False),  # an unknown escape keeps its character
        (r"'\u00e9'", 50089, "int", False),  # two UTF-8 bytes: a multi-character constant
        ("'é'", 50089, "int", False),
        (r"'\U0001F600'", -257976192, "int", False),
        ("'ab'", 0x6162, "int", False),
        ("'abcde'", 0x62636465, "int", False),  # the first byte is lost
        (r"'\x1ff'", -1, "int", False),  # escapes are truncated to the unit's width
        (r"'\400'", 0, "int", False),
        (r"'\U00110000'", -191856512, "int", False),  # past Unicode: gcc's four-byte UTF-8
        (r"'\U7FFFFFFF'", -1077952577, "int", False),  # six bytes, the last four kept
        (r"L'\xff'", 255, "int", False),
        (r"L'\xffffffff'", -1, "int", False),
        ("L'ab'", 98, "int", False),  # a wide constant keeps its last unit
        (r"L'\u00e9'", 233, "int", False),
        (r"u'\u00e9'", 233, "unsigned short", True),
        (r"u'\x12345'", 0x2345, "unsigned short", True),
        (r"u'\U0001F600'", 0xDE00, "unsigned short", True),  # the low surrogate
        (r"U'\U0001F600'", 0x1F600, "unsigned int", True),
        (r"U'\xffffffff'", 0xFFFFFFFF, "unsigned int", True),
        ("u8'a'", 97, "unsigned char", True),
        (r"u8'\xff'", 255, "unsigned char", True),
    ],
)
def test_character_constants_have_gccs_value_and_type(text: str, value: int, type_name: str, unsigned: bool) -> None:
    assert character_constant(text, LP64) == CharacterValue(value, type_name, unsigned)


@pytest.mark.parametrize(
    "text, message",
    [  # gcc's own errors
        ("''", "empty character constant"),
        (r"'\x'", "\\x used with no following hex digits"),
        (r"'\u12'", "incomplete universal character name \\u12"),
        (r"'\u0041'", "\\u0041 is not a valid universal character"),
        (r"'\uD800'", "\\uD800 is not a valid universal character"),
        (r"'\UFFFFFFFF'", "\\UFFFFFFFF is not a valid universal character"),
        (r"u'\U00110000'", "converting UCN to execution character set: Invalid or incomplete multibyte or wide character"),
        ("u8'ab'", "character constant too long for its type"),
    ],
)
def test_malformed_character_constants_are_refused_with_gccs_message(text: str, message: str) -> None:
    with pytest.raises(LiteralError) as refused:
        character_constant(text, LP64)
    assert refused.value.message == message


def test_the_target_decides_char_and_wchar_t() -> None:
    assert character_constant(r"'\xff'", AARCH64) == CharacterValue(255, "int", True)  # char is unsigned
    assert character_constant(r"L'\xffffffff'", AARCH64) == CharacterValue(0xFFFFFFFF, "unsigned int", True)
    assert character_constant(r"L'\U0001F600'", WIN64) == CharacterValue(0xDE00, "unsigned short", True)  # UTF-16


def test_code_units_follow_the_prefix_encoding() -> None:
    assert split_literal('u8"caf\\u00e9"') == ("u8", "caf\\u00e9")
    assert code_units("caf\\u00e9", "", LP64) == [0x63, 0x61, 0x66, 0xC3, 0xA9]
    assert code_units("\\U0001F600", "u", LP64) == [0xD83D, 0xDE00]
    assert code_units("\\U0001F600", "L", LP64) == [0x1F600]
    assert code_units("\\U0001F600", "L", WIN64) == [0xD83D, 0xDE00]
    assert code_units("\udcff", "", LP64) == [0xFF]  # a source byte that was not UTF-8 stays itself


@pytest.mark.parametrize(
    "text",
    [r"'\u00e9'", r"'\xff'", "'ab'", r"L'\xffffffff'", r"u'\u00e9'", r"U'\U0001F600'", r"'\U0001F600'"],
)
def test_if_and_constant_evaluators_agree(text: str) -> None:
    """#if sees the C value, in intmax_t or (for an unsigned character type) uintmax_t."""
    constant = char_constant(text, LP64)
    assert evaluate(tokenize(f"{text} == {constant.value}", "t.h"), target=LP64) == 1
    assert evaluate(tokenize(f"{text} - {constant.value} - 1 < 0", "t.h"), target=LP64) == (constant.prim == "int")


def test_string_literals_count_code_units() -> None:
    wide = string_literal(tuple(tokenize('u"\\U0001F600" "!"', "t.h")), LP64)
    assert (wide.value, wide.ctype.to_c()) == ("\U0001F600!", "unsigned short[4]")
    with pytest.raises(NotConstant, match="not valid Unicode"):
        string_literal(tuple(tokenize('L"\\xD800"', "t.h")), LP64)
