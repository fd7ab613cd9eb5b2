"""Ownership rules checked against the header before anything is generated: the user's mistakes."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_pegbind

CAPI = Path(__file__).resolve().parent / "capi" / "capi.h"


def generate(tmp_path: Path, rules: str) -> tuple[int, str]:
    config = tmp_path / "pegbind.toml"
    config.write_text(f'name = "capi"\nheaders = ["{CAPI}"]\n' + rules)
    result = run_pegbind("generate", "-c", str(config), "--backend", "ctypes", "-o", str(tmp_path / "out"))
    return result.returncode, result.stderr


def test_a_rule_that_names_no_function_of_the_binding_is_an_error(tmp_path):
    code, stderr = generate(tmp_path, '[[functions]]\nmatch = "capi_strdup"\nreturns = "owned(capi_decref)"\n')
    assert code == 1
    assert "functions: owned(capi_decref), for what capi_strdup gives: the binding wraps no function 'capi_decref' " \
           "(name a function the library exports, or free)" in stderr
    assert not (tmp_path / "out").exists()


def test_a_deallocator_must_take_the_one_pointer_it_frees(tmp_path):
    code, stderr = generate(tmp_path, '[[functions]]\nmatch = "capi_strdup"\nreturns = "owned(capi_crc)"\n')
    assert code == 1
    assert "owned(capi_crc), for what capi_strdup gives: capi_crc must take one pointer, the thing it frees: " \
           "unsigned long capi_crc(unsigned long crc, const unsigned char *buf, unsigned int len)" in stderr


def test_only_what_c_hands_over_can_be_owned(tmp_path):
    code, stderr = generate(tmp_path, '[[functions]]\nmatch = "capi_live"\nreturns = "owned(free)"\n')
    assert code == 1
    assert "functions[0].returns: owned(free) is for what C hands over (a returned pointer, an out parameter), " \
           "but what it returns in capi_live is not one" in stderr
    code, stderr = generate(tmp_path, '[[functions]]\nmatch = "capi_strlen"\nparams = { s = "owned(free)" }\n')
    assert code == 1
    assert "functions[0].params.s: owned(free) is for what C hands over" in stderr


@pytest.mark.parametrize("rule", [
    'returns = "owned(free)"',  # the C library's free needs no binding of its own
    'returns = "owned(capi_free)"',
])
def test_a_valid_rule_generates(tmp_path, rule):
    code, stderr = generate(tmp_path, f'[[functions]]\nmatch = "capi_strdup"\n{rule}\n')
    assert code == 0, stderr


def test_the_command_line_names_the_result_as_return(tmp_path):
    result = run_pegbind("generate", str(CAPI), "--function", "capi_strdup:return=owned(capi_free)",
                         "--backend", "ctypes", "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    module = (tmp_path / "capi.py").read_text()
    wrapper = module[module.index("def capi_strdup("):]
    assert "_pb_free_capi_free(_pb_r)" in wrapper[:wrapper.index("\n\n\n")]  # a string: copied, then freed
    bad = run_pegbind("generate", str(CAPI), "--function", "capi_strdup:return=capi_free", "--backend", "ctypes",
                      "-o", str(tmp_path))
    assert bad.returncode != 0 and "expected return=owned(FUNCTION)" in bad.stderr


def test_a_rule_names_a_parameter_c_leaves_unnamed_as_its_python_name(tmp_path):
    # pcap's and libmagic's prototypes name no parameter: arg0, arg1 ... in signatures and in rules
    result = run_pegbind("generate", str(CAPI), "--function", "capi_unnamed_sum:arg1=len(arg0)",
                         "--backend", "ctypes", "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    stub = (tmp_path / "capi.pyi").read_text()
    assert "def capi_unnamed_sum(arg0: _Buffer | Pointer | None, /) -> int:" in stub  # arg1 measured from arg0
    code, stderr = generate(tmp_path, '[[functions]]\nmatch = "capi_unnamed_sum"\nparams = { arg7 = "in" }\n')
    assert code == 1 and "capi_unnamed_sum has no parameter 'arg7' (did you mean 'arg1'?)" in stderr
