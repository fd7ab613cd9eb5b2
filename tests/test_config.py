"""Configuration files: every key read, every mistake named with its key and file."""
from __future__ import annotations

from pathlib import Path

import pytest

from pegbind.config import ErrorPolicy, FunctionTable, ParamRole, load_config, parse_role
from pegbind.diagnostics import ConfigError


def write(tmp_path: Path, text: str, name: str = "pegbind.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_full_binding_table_is_read(tmp_path):
    path = write(
        tmp_path,
        """
name = "pkcs11"
headers = ["inc/pkcs11.h"]
include_dirs = ["inc"]
defines = { CK_PTR = "*", NULL_PTR = "0", CK_FLAG = true }
target = "win-x86_64"
backends = ["cython", "ctypes"]
load = "dynamic"
function_table = { getter = "C_GetFunctionList", struct = "CK_FUNCTION_LIST" }
exclude = ["C_Internal*"]
strip_prefix = "C_"
error_policy = { return_type = "CK_RV", success = "CKR_OK", codes = "CKR_*" }

[[functions]]
match = "C_GetSlotList"
params = { pSlotList = "out-array(pulCount)", pulCount = "len" }
release_gil = true
nonnull = ["pulCount"]

[[functions]]
match = "C_Open*"
params = { pApplication = "null" }
nonnull = true
""",
    )
    (binding,) = load_config(path)
    assert binding.name == "pkcs11"
    assert binding.headers == (tmp_path / "inc/pkcs11.h",)
    assert binding.include_dirs == (tmp_path / "inc",)
    assert binding.defines == {"CK_PTR": "*", "NULL_PTR": "0", "CK_FLAG": None}
    assert binding.target == "win-x86_64"
    assert binding.backends == ("cython", "ctypes")
    assert binding.function_table == FunctionTable("C_GetFunctionList", "CK_FUNCTION_LIST")
    assert binding.error_policy == ErrorPolicy("CK_RV", "CKR_OK", "CKR_*")
    assert binding.selects("C_Login") and not binding.selects("C_InternalThing")
    (rule,) = binding.rules_for("C_GetSlotList")
    assert rule.params["pSlotList"] == ParamRole("out-array", "pulCount")
    assert rule.params["pulCount"] == ParamRole("len")
    assert rule.release_gil is True
    assert rule.nonnull == ("pulCount",)
    assert binding.rules_for("C_Login") == []
    (open_rule,) = binding.rules_for("C_OpenSession")
    assert open_rule.params["pApplication"] == ParamRole("null") and open_rule.nonnull == ("*",)


def test_several_bindings_and_pyproject(tmp_path):
    path = write(
        tmp_path,
        """
[project]
name = "x"

[[tool.pegbind.binding]]
name = "a"
headers = ["a.h"]

[[tool.pegbind.binding]]
name = "b"
headers = ["b.h"]
""",
        name="pyproject.toml",
    )
    assert [b.name for b in load_config(path)] == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "m"\nheaders = ["a.h"]\nheadrs = ["b.h"]\n', "headrs: unknown key"),
        ('name = "m"\nheaders = 3\n', "headers: expected a list or a string, got int"),
        ('headers = ["a.h"]\n', "name: missing"),
        ('name = "not valid"\nheaders = ["a.h"]\n', "name: 'not valid' is not a valid Python module name"),
        ('name = "m"\nheaders = ["a.h"]\nbackends = ["rust"]\n', "backends: unknown backend 'rust'"),
        ('name = "m"\nheaders = ["a.h"]\ntarget = "vax"\n', "target: unknown target 'vax'"),
        ('name = "m"\nheaders = ["a.h"]\nload = "lazy"\n', 'load: expected "link" or "dynamic"'),
        (
            'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nparams = { p = "outt" }\n',
            "functions[0].params.p: unknown role 'outt'",
        ),
        ('name = "m"\nheaders = ["a.h"]\nerror_policy = { success = 0 }\n', "error_policy.return_type: expected a string"),
    ],
)
def test_mistakes_name_the_key_and_file(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    rendered = caught.value.render()
    assert rendered.startswith(f"{path}:1:1: error: ")
    assert message in rendered


def test_invalid_toml_points_at_line_and_column(tmp_path):
    path = write(tmp_path, 'name = "m"\nheaders = [\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    first = caught.value.diagnostics[0]
    assert first.coord.file == str(path) and first.coord.line >= 2
    assert first.message.startswith("invalid TOML")


@pytest.mark.parametrize(
    ("text", "role"),
    [("out", ParamRole("out")), ("in-array(n)", ParamRole("in-array", "n")), (" out-bytes( len ) ", ParamRole("out-bytes", "len")),
     ("out owned(sqlite3_free)", ParamRole("out", owner="sqlite3_free")), ("owned( free )", ParamRole("", owner="free")),
     ("on_error(SQLITE_ABORT)", ParamRole("", on_error="SQLITE_ABORT")), ("in on_error(-1)", ParamRole("in", on_error="-1")),
     ("out owned(f) on_error(0x1)", ParamRole("out", owner="f", on_error="0x1"))],
)
def test_parse_role(text, role):
    assert parse_role(text) == role


@pytest.mark.parametrize("text", ["", "outt", "in-array(", "in-array()", "out(x", "owned()", "out owned(1x)", "owned(a) out",
                                  "on_error()", "on_error(a b)", "on_error(1) out"])
def test_parse_role_rejects(text):
    with pytest.raises(ValueError):
        parse_role(text)


def test_ownership_rules_name_the_function_that_frees(tmp_path):
    path = write(tmp_path, '''
name = "m"
headers = ["a.h"]

[[functions]]
match = "json_loads"
returns = "owned(json_delete)"

[[functions]]
match = "sqlite3_open*"
params = { ppDb = "owned(sqlite3_close)", pzErr = "out owned(sqlite3_free)" }
''')
    (config,) = load_config(path)
    loads, opens = config.functions
    assert loads.returns_owner == "json_delete" and loads.key == "functions[0]"
    assert opens.params["ppDb"] == ParamRole("", owner="sqlite3_close")
    assert opens.params["pzErr"] == ParamRole("out", owner="sqlite3_free")


@pytest.mark.parametrize("value", ['"json_delete"', '"owned()"', "3"])
def test_a_returns_key_that_names_no_function_is_an_error(tmp_path, value):
    path = write(tmp_path, f'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nreturns = {value}\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = caught.value.diagnostics[0].message
    assert message.startswith('functions[0].returns: expected "owned(FUNCTION)", the C function that frees the result')


def test_callbacks_name_what_a_raising_callable_gives_c(tmp_path):
    path = write(tmp_path, '''
name = "m"
headers = ["a.h"]

[callbacks]
curl_write_callback = "on_error(CURL_WRITEFUNC_ERROR)"
''')
    (config,) = load_config(path)
    assert config.callbacks == {"curl_write_callback": "CURL_WRITEFUNC_ERROR"}


@pytest.mark.parametrize("value", ['"CURL_WRITEFUNC_ERROR"', '"on_error()"', "3"])
def test_a_callbacks_entry_that_is_no_on_error_is_an_error(tmp_path, value):
    path = write(tmp_path, f'name = "m"\nheaders = ["a.h"]\n[callbacks]\nsink = {value}\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = caught.value.diagnostics[0].message
    assert message.startswith('callbacks.sink: expected "on_error(VALUE)", what the callables of this function pointer')
