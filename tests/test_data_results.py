"""Characters C hands over that are data, not text: the ``pointer`` rule, in every backend.

A returned ``unsigned char *`` or one C writes to a ``uint8_t **`` reads as
text up to its NUL unless a rule says it is data (libwebp's WebPEncodeRGB
returns the size of what it writes to ``output``): then it is a ``Pointer``,
sliced with its length and freed by the library's function.
"""
from __future__ import annotations

import pytest

from conftest import one_worker_each, run_pegbind, small_library_module

from pegbind.config import FunctionRule, parse_role

pytestmark = pytest.mark.slow  # builds a module per backend

HEADER = """\
#include <stddef.h>
#include <stdint.h>

/* 'a' 0 'b' 0 255 in memory C allocates: its size is returned, as WebPEncodeRGB's */
size_t dr_encode(int seed, uint8_t **output);
/* the same bytes returned, their size written to *size, as WebPDecodeRGB's pixels */
uint8_t *dr_decode(size_t *size);
/* frees what the two give; counts the calls */
void dr_free(void *data);
int dr_freed(void);
/* text C allocates, for the default: up to its NUL */
char *dr_name(void);
"""

SOURCE = """\
#include <stdlib.h>
#include <string.h>
#include "dr.h"

static const uint8_t bytes[5] = {'a', 0, 'b', 0, 255};
static int freed;

size_t dr_encode(int seed, uint8_t **output) {
    *output = malloc(sizeof bytes);
    memcpy(*output, bytes, sizeof bytes);
    (*output)[4] = (uint8_t)(255 - seed);
    return sizeof bytes;
}
uint8_t *dr_decode(size_t *size) {
    uint8_t *data = malloc(sizeof bytes);
    memcpy(data, bytes, sizeof bytes);
    *size = sizeof bytes;
    return data;
}
void dr_free(void *data) { free(data); freed++; }
int dr_freed(void) { return freed; }
char *dr_name(void) { char *name = malloc(4); memcpy(name, "dr\\0x", 4); return name; }
"""


@pytest.fixture(scope="session", params=one_worker_each("data_results"))
def dr(request, tmp_path_factory):
    rules = (FunctionRule("dr_encode", {"output": parse_role("pointer owned(dr_free)")}),
             FunctionRule("dr_decode", returns_owner="dr_free", returns_pointer=True))
    return small_library_module(tmp_path_factory.mktemp(f"dr-{request.param}"), "dr", HEADER, SOURCE,
                                request.param, rules)


def test_data_c_writes_to_an_out_parameter_is_a_pointer_sliced_with_its_size(dr):
    size, output = dr.dr_encode(5)
    assert size == 5 and repr(output).startswith("<Pointer unsigned char * at ")
    assert output[:size] == b"a\0b\0\xfa"  # NULs inside: text would have stopped at the first
    before = dr.dr_freed()
    output.close()  # owned: freed once, with the library's function
    assert dr.dr_freed() == before + 1
    with pytest.raises(ValueError, match="closed"):
        output[:1]


def test_returned_data_is_a_pointer_too(dr):
    size = dr.c_size_t()
    pixels = dr.dr_decode(size)
    assert size.value == 5 and pixels[:size.value] == b"a\0b\0\xff"
    before = dr.dr_freed()
    with pixels:
        pass
    assert dr.dr_freed() == before + 1


def test_without_the_rule_characters_are_text_up_to_the_nul(dr):
    assert dr.dr_name() == b"dr"


@pytest.mark.parametrize(("rule", "message"), [
    ('returns = "pointer"', "functions[0].returns: 'pointer' is for characters C gives back (a returned or out "
                            "char *), but what it returns in dr_freed is not one"),
    ('params = { data = "in pointer" }', "functions[0].params.data: 'pointer' is for characters C gives back"),
])
def test_the_rule_is_for_characters_c_gives_back(tmp_path, rule, message):
    (tmp_path / "dr.h").write_text(HEADER)
    name = "dr_freed" if "returns" in rule else "dr_free"
    config = tmp_path / "pegbind.toml"
    config.write_text(f'name = "dr"\nheaders = ["{tmp_path / "dr.h"}"]\n[[functions]]\nmatch = "{name}"\n{rule}\n')
    result = run_pegbind("generate", "-c", str(config), "--backend", "ctypes", "-o", str(tmp_path / "out"))
    assert result.returncode == 1 and message in result.stderr, result.stderr


def test_the_command_line_says_it_as_the_config_does(tmp_path):
    (tmp_path / "dr.h").write_text(HEADER)
    result = run_pegbind("generate", str(tmp_path / "dr.h"), "--function", "dr_decode:return=pointer owned(dr_free)",
                         "--function", "dr_encode:output=pointer", "--backend", "ctypes", "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    stub = (tmp_path / "out" / "dr.pyi").read_text()
    assert "def dr_decode(size: _WritableBuffer | c_ulong | c_ulonglong | Pointer | None, /) -> Pointer | None:" in stub
    assert "def dr_encode(seed: int, /) -> tuple[int, Pointer | None]:" in stub
    assert "def dr_name() -> bytes | None:" in stub
