"""The backend-neutral plan of roles, lengths, errors, handles and function tables (no compiler).

Reads tests/clib/roles.h with the real parser and checks what every backend
is told: which parameters the caller passes, what comes back and in which
order, when the size probe applies, and the errors of bad configurations.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from pegbind.config import FunctionRule, FunctionTable, ParamRole
from pegbind.diagnostics import ConfigError
from pegbind.passes import run_passes
from pegbind.pipeline import read_binding
from test_cython_roles import roles_config


@pytest.fixture(scope="module")
def read():
    return read_binding(roles_config())


def plan(read, config=None):
    return run_passes(read.module, config or roles_config(), read.target)


def function(binding, name):
    (found,) = [f for f in binding.functions if f.function.name == name]
    return found


def test_inputs_results_and_probe(read):
    binding = plan(read)
    encrypt = function(binding, "rl_encrypt")
    assert [p.py_name for p in encrypt.inputs] == ["data"]
    assert [(p.role.role, p.kind) for p in encrypt.params] == [
        ("in-array", "buffer"), ("len", "int"), ("out-bytes", "bytes"), ("len", "int")]
    assert [p.length for p in encrypt.params] == [1, None, 3, None]
    assert [p.length_of for p in encrypt.params] == [None, 0, None, 2]
    assert [p.by_pointer for p in encrypt.params] == [False, False, False, True]
    assert encrypt.probe and not encrypt.returns_value and encrypt.result_count == 1
    random = function(binding, "rl_random")
    assert [p.py_name for p in random.inputs] == ["len_"] and not random.probe
    # messages count arguments as the caller passes them, not as C declares them
    assert [p.label for p in random.params] == ["C parameter 1 (buf)", "argument 1 (len_)"]
    assert [p.label for p in encrypt.params][0] == "argument 1 (data)"
    double = function(binding, "rl_double")
    assert double.returns_value and [p.py_name for p in double.outputs] == ["x"] and double.result_count == 2
    assert function(binding, "rl_init").inputs == ()


def test_table_fields_handles_and_errors(read):
    binding = plan(read)
    assert binding.load == "dynamic"
    assert binding.function_table.getter.name == "rl_get_table" and not binding.function_table.returns_table
    assert function(binding, "rl_bump").table_field == "rl_bump"
    assert function(binding, "rl_by_symbol").table_field is None
    assert "rl_get_table" not in {f.function.name for f in binding.functions}
    assert [h.py_name for h in binding.handles] == ["rl_counter"]
    assert function(binding, "rl_open").outputs[0].kind == "handle"
    assert binding.errors.codes == (
        ("RL_ERR_ARGS", "RL_ERR_ARGS", 7),
        ("RL_ERR_PIN_INCORRECT", "RL_ERR_PIN_INCORRECT", 0xA0),
        ("RL_ERR_BUFFER_TOO_SMALL", "RL_ERR_BUFFER_TOO_SMALL", 0x150),
    )
    assert function(binding, "rl_raw_status").error is None
    assert function(binding, "rl_strlen").params[0].nonnull  # from __attribute__((nonnull(1)))
    fields = {f.py_name: f.kind for f in binding.record_binding("struct rl_info").fields}
    assert fields == {"version": "record", "label": "char_array", "notify": "function_pointer", "counter": "handle"}


def test_len_written_explicitly_measures_an_in_buffer(read):
    config = roles_config()
    rule = FunctionRule("rl_login", {"pin_len": ParamRole("len", "pin")})
    login = function(plan(read, replace(config, functions=(rule,))), "rl_login")
    assert [(p.role.role, p.kind, p.length, p.length_of) for p in login.params] == [
        ("in", "buffer", 1, None), ("len", "int", None, 0)]


def test_release_gil_min_bytes_is_kept_where_there_is_data_to_count(read):
    config = roles_config()
    rules = (FunctionRule("rl_*", release_gil=True, release_gil_min_bytes=4096),
             FunctionRule("rl_encrypt", {"data": ParamRole("in-array", "data_len"),
                                         "out": ParamRole("out-bytes", "out_len")}))
    binding = plan(read, replace(config, functions=rules))
    encrypt, init = function(binding, "rl_encrypt"), function(binding, "rl_init")
    assert (encrypt.release_gil, encrypt.release_gil_min_bytes) == (True, 4096)
    assert [p.py_name for p in encrypt.data] == ["data"]  # what comes out is not counted
    # a buffer a len parameter measures is data; a function given none keeps the GIL
    login = function(plan(read, replace(config, functions=(
        *rules, FunctionRule("rl_login", {"pin_len": ParamRole("len", "pin")})))), "rl_login")
    assert [p.py_name for p in login.data] == ["pin"] and login.release_gil
    assert (init.data, init.release_gil, init.release_gil_min_bytes) == ((), False, 0)
    # the binding's default, which a rule overrides
    default = plan(read, replace(config, release_gil=True, release_gil_min_bytes=64,
                                 functions=(rules[1], FunctionRule("rl_login", release_gil=True))))
    assert (function(default, "rl_encrypt").release_gil, function(default, "rl_encrypt").release_gil_min_bytes) == (
        True, 64)
    assert (function(default, "rl_login").release_gil, function(default, "rl_login").release_gil_min_bytes) == (
        True, 0)
    assert not function(default, "rl_init").release_gil
    # a later rule saying true releases it for every call again
    always = plan(read, replace(config, functions=(*rules, FunctionRule("rl_encrypt", release_gil=True))))
    assert (function(always, "rl_encrypt").release_gil, function(always, "rl_encrypt").release_gil_min_bytes) == (
        True, 0)


def test_bad_function_table_settings_are_config_errors(read):
    config = roles_config()
    with pytest.raises(ConfigError, match=r"function_table.getter: the headers declare no function 'nope'"):
        plan(read, replace(config, function_table=FunctionTable("nope", "rl_table")))
    with pytest.raises(ConfigError, match=r"function_table.struct: 'rl_version_x' is not a struct"):
        plan(read, replace(config, function_table=FunctionTable("rl_get_table", "rl_version_x")))
    with pytest.raises(ConfigError, match=r"rl_bump must be 'R rl_bump\(rl_table \*\*\)'"):
        plan(read, replace(config, function_table=FunctionTable("rl_bump", "rl_table")))
    with pytest.raises(ConfigError, match=r'needs load = "dynamic"'):
        plan(read, replace(config, load="link"))


def test_enum_bitfields_are_signed_when_an_enumerator_is_negative():
    from pegbind.parse import parse_tokens
    from pegbind.passes.plan import _bit_range
    from pegbind.preprocess import tokenize
    from pegbind.target import get_target

    target = get_target(None)
    module = parse_tokens(tokenize(
        "enum s { S_NEG = -1, S_POS = 1 }; enum u { U_A, U_B };"
        "struct holder { enum s signed_bits : 3; enum u unsigned_bits : 3; };", "t.h"), target)
    signed_field, unsigned_field = module.record("struct holder").fields
    assert _bit_range(module, signed_field, target) == (-4, 3)
    assert _bit_range(module, unsigned_field, target) == (0, 7)
