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
    ("text", "where", "message"),
    [
        ('name = "m"\nheaders = ["a.h"]\nheadrs = ["b.h"]\n', "3:1", "headrs: unknown key (did you mean 'headers'?"),
        ('name = "m"\nheaders = 3\n', "2:1", "headers: expected a list or a string, got int"),
        ('headers = ["a.h"]\n', "1:1", "name: missing"),
        ('name = "not valid"\nheaders = ["a.h"]\n', "1:1", "name: 'not valid' is not a valid Python module name"),
        ('name = "pkg..m"\nheaders = ["a.h"]\n', "1:1", "name: 'pkg..m' is not a valid Python module name"),
        ('name = "pkg.class"\nheaders = ["a.h"]\n', "1:1", "name: 'pkg.class' is not a valid Python module name"),
        ('name = "m"\nheaders = ["a.h"]\npackage = "p"\n', "3:1", "package: unknown key"),
        ('name = "m"\nheaders = ["a.h"]\nbackends = ["rust"]\n', "3:1", "backends: unknown backend 'rust'"),
        ('name = "m"\nheaders = ["a.h"]\ntarget = "vax"\n', "3:1", "target: unknown target 'vax'"),
        ('name = "m"\nheaders = ["a.h"]\nload = "lazy"\n', "3:1", 'load: expected "link" or "dynamic"'),
        (
            'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nparams = { p = "outt" }\n', "5:12",
            "functions[0].params.p: unknown role 'outt'",
        ),
        ('name = "m"\nheaders = ["a.h"]\nerror_policy = { success = 0 }\n', "3:1",
         "error_policy.return_type: expected a string"),
        ('name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nparms = { p = "out" }\n', "5:1",
         "functions[0].parms: unknown key (did you mean 'params'?"),
    ],
)
def test_mistakes_name_the_key_and_file(tmp_path, text, where, message):
    # at the key's own line and column (a missing key: the table that should hold it)
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    rendered = caught.value.render()
    assert rendered.startswith(f"{path}:{where}: error: {message}")


def test_a_dotted_name_puts_the_module_in_a_package(tmp_path):
    # a package's module may share a standard module's last name: it does not replace it
    (config,) = load_config(write(tmp_path, 'name = "mypkg.sub.time"\nheaders = ["a.h"]\n'))
    assert (config.package, config.name, config.qualified_name) == ("mypkg.sub", "time", "mypkg.sub.time")


def test_a_pyproject_s_keys_are_named_from_its_root(tmp_path):
    path = write(tmp_path, '[project]\nname = "p"\n\n[tool.pegbind]\nname = "m"\nheaders = ["a.h"]\n'
                           'functions = { "f*" = { params = { x = "sideways" } } }\n', name="pyproject.toml")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.render().startswith(
        f"{path}:7:35: error: tool.pegbind.functions[0].params.x: unknown role 'sideways'")
    binding = write(tmp_path, '[[tool.pegbind.binding]]\nname = "a"\nheaders = ["a.h"]\n\n'
                              '[[tool.pegbind.binding]]\nname = "b"\nheders = ["b.h"]\n', name="pyproject.toml")
    with pytest.raises(ConfigError) as caught:
        load_config(binding)
    assert caught.value.render().startswith(f"{binding}:7:1: error: tool.pegbind.binding[1].heders: unknown key")


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
     ("out owned(f) on_error(0x1)", ParamRole("out", owner="f", on_error="0x1")),
     ("out-bytes(len, at_most=64)", ParamRole("out-bytes", "len", at_most=64)),
     ("out-array( n ,at_most = 3 )", ParamRole("out-array", "n", at_most=3)),
     ("pointer", ParamRole("out", as_pointer=True)), ("out pointer", ParamRole("out", as_pointer=True)),
     ("pointer owned(WebPFree)", ParamRole("out", owner="WebPFree", as_pointer=True)),
     ("out owned(WebPFree) pointer", ParamRole("out", owner="WebPFree", as_pointer=True))],
)
def test_parse_role(text, role):
    assert parse_role(text) == role


@pytest.mark.parametrize("text", ["", "outt", "in-array(", "in-array()", "out(x", "owned()", "out owned(1x)", "owned(a) out",
                                  "on_error()", "on_error(a b)", "on_error(1) out", "in-array(n, at_most=3)",
                                  "out-bytes(n, at_most=0)", "out-bytes(n, most=3)", "out-bytes(, at_most=3)"])
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


def test_returns_says_returned_characters_are_data(tmp_path):
    path = write(tmp_path, 'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "WebPDecode*"\n'
                           'returns = "pointer owned(WebPFree)"\n[[functions]]\nmatch = "g"\nreturns = "pointer"\n')
    (config,) = load_config(path)
    decode, other = config.functions
    assert (decode.returns_owner, decode.returns_pointer) == ("WebPFree", True)
    assert (other.returns_owner, other.returns_pointer) == (None, True)


@pytest.mark.parametrize("value", ['"json_delete"', '"owned()"', "3", '"pointers"', '"owned(f) pointer"'])
def test_a_returns_key_that_names_no_function_is_an_error(tmp_path, value):
    path = write(tmp_path, f'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nreturns = {value}\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = caught.value.diagnostics[0].message
    assert message.startswith('functions[0].returns: expected "owned(FUNCTION)", the C function that frees the result')


def test_release_gil_takes_a_bound_on_the_data_a_call_is_given(tmp_path):
    path = write(tmp_path, 'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "C_Digest*"\n'
                           'release_gil = { min_bytes = 2048 }\n[[functions]]\nmatch = "C_Sign"\nrelease_gil = false\n')
    (config,) = load_config(path)
    digest, sign = config.functions
    assert (digest.release_gil, digest.release_gil_min_bytes) == (True, 2048)
    assert (sign.release_gil, sign.release_gil_min_bytes) == (False, 0)


def test_release_gil_bound_as_every_function_s_default(tmp_path):
    path = write(tmp_path, 'name = "m"\nheaders = ["a.h"]\nrelease_gil = { min_bytes = 4096 }\n')
    (config,) = load_config(path)
    assert (config.release_gil, config.release_gil_min_bytes) == (True, 4096)
    path = write(tmp_path, 'name = "m"\nheaders = ["a.h"]\nrelease_gil = { min_bytes = "4k" }\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.diagnostics[0].message.startswith("release_gil: expected true, false or { min_bytes = N }")


@pytest.mark.parametrize("value", ["{ min_bytes = 0 }", "{ min_bytes = -1 }", '{ min_bytes = "2k" }',
                                   "{ min_bytes = 2.5 }", "{ min_bytes = true }", "{ bytes = 2 }",
                                   "{ min_bytes = 2, max = 3 }", "{}"])
def test_a_release_gil_bound_that_is_no_positive_number_of_bytes_is_an_error(tmp_path, value):
    path = write(tmp_path, f'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nrelease_gil = {value}\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.message.startswith(
        "functions[0].release_gil: expected true, false or { min_bytes = N }, N a positive")
    assert diagnostic.coord is not None and diagnostic.coord.line == 5


@pytest.mark.parametrize("value", ['"yes"', "1"])
def test_a_release_gil_that_is_no_boolean_or_table_is_an_error(tmp_path, value):
    path = write(tmp_path, f'name = "m"\nheaders = ["a.h"]\n[[functions]]\nmatch = "f"\nrelease_gil = {value}\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.diagnostics[0].message == (
        "functions[0].release_gil: expected true, false or { min_bytes = N } (release it only for calls given at "
        "least N bytes of data)")


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


def test_the_key_locator_reads_every_toml_form():
    from pegbind.tomlkeys import locate

    text = (
        '# a comment = "not a key"\n'
        'name = "m"  # trailing\n'
        'headers = [\n  "a.h",\n  "b.h",\n]\n'
        'notes = """\nkey = "not a key either"\n"""\n'
        "'quoted key' = 1\n"
        'functions = { "f*" = { params = { a = "out" } }, "g*" = { match = "x" } }\n'
        "[error_policy]\nreturn_type = 'CK_RV'\n"
        "[[rules]]\nx = 1\n[[rules]]\nx.y = 2\n"
    )
    assert locate(text, "name") == (2, 1)
    assert locate(text, "headers[1]") == (5, 3)
    assert locate(text, "key") == (1, 1)  # inside a comment and a string: not a key
    assert locate(text, "quoted key") == (10, 1)
    assert locate(text, "functions[1].match") == (11, 59)
    assert locate(text, "functions[0].params.a") == (11, 35)
    assert locate(text, "error_policy.return_type") == (13, 1)
    assert locate(text, "error_policy.codes") == (12, 1)  # missing: its table
    assert locate(text, "rules[1].x.y") == (17, 3)
