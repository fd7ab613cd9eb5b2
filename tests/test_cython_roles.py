"""The Cython backend with dynamic loading, a function table, parameter roles and an error policy.

tests/clib/roles.c is built into a shared library and the binding of
tests/clib/roles.h (read by the real preprocessor and parser) is compiled
once per session with ``load = "dynamic"``; every test then loads the library
with ``load(path)`` and calls it the way a PKCS#11 user would.
"""
from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from unittest import mock

import pytest

from conftest import UNOPTIMISED, import_from

from pegbind.build import build
from pegbind.config import BindingConfig, ErrorPolicy, FunctionRule, FunctionTable, ParamRole
from pegbind.emit import generate
from pegbind.passes import run_passes
from pegbind.pipeline import read_binding

# one worker under --dist loadgroup: its fixtures build the modules the tests share once (see conftest.one_worker_each)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cython_roles")]

CLIB = Path(__file__).parent / "clib"
MODULE_NAME = "pegbind_roles_cy"
R = ParamRole


def roles_config() -> BindingConfig:
    return BindingConfig(
        name=MODULE_NAME,
        headers=(CLIB / "roles.h",),
        load="dynamic",
        function_table=FunctionTable("rl_get_table", "rl_table"),
        error_policy=ErrorPolicy("rl_rv", "RL_OK", "RL_ERR_*"),
        functions=(
            FunctionRule("rl_bump", {"total": R("out")}),
            FunctionRule("rl_login", {"pin": R("in-array", "pin_len")}),
            FunctionRule("rl_get_list", {"items": R("out-array", "count")}),
            FunctionRule("rl_encrypt", {"data": R("in-array", "data_len"), "out": R("out-bytes", "out_len")}),
            FunctionRule("rl_random", {"buf": R("out-bytes", "len")}),
            FunctionRule("rl_sum", {"values": R("in-array", "count"), "sum": R("out")}),
            FunctionRule("rl_get_version", {"version": R("out")}),
            FunctionRule("rl_double", {"x": R("inout")}),
            FunctionRule("rl_get_attributes", {"tmpl": R("in-array", "count")}),
            FunctionRule("rl_open", {"counter": R("out")}),
            FunctionRule("rl_init", {"reserved": R("null")}),
            FunctionRule("rl_raw_status", errors=False),
            FunctionRule("rl_wait_flag", release_gil=True),
            FunctionRule("rl_point_len", nonnull=("*",)),
        ),
    )


@pytest.fixture(scope="session")
def libroles(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("libroles")
    library = folder / "libroles.so"
    subprocess.run(
        ["gcc", "-Wall", "-Werror", "-shared", "-fPIC", "-O1", str(CLIB / "roles.c"), "-o", str(library)], check=True
    )
    return library


@pytest.fixture(scope="session")
def roles_module(tmp_path_factory):
    out = tmp_path_factory.mktemp("roles_cy")
    config = roles_config()
    read = read_binding(config)
    binding = run_passes(read.module, config, read.target)
    files = generate(binding, config, out_dir=out)
    with mock.patch.dict(os.environ, UNOPTIMISED):
        build(config, files, out)
    return import_from(out, MODULE_NAME)


@pytest.fixture()
def lib(roles_module, libroles):
    return roles_module.load(str(libroles))


# ---- loading ---------------------------------------------------------------------

def test_each_loaded_copy_keeps_its_own_state(roles_module, libroles, tmp_path):
    copy = tmp_path / "libroles_copy.so"
    shutil.copy(libroles, copy)
    first, second = roles_module.load(libroles), roles_module.load(copy)
    start = first.rl_bump(0)
    assert first.rl_bump(5) == start + 5
    assert second.rl_bump(100) == 100
    assert first.rl_bump(1) == start + 6
    assert repr(second) == f"<{MODULE_NAME}.Library {str(copy)!r}>"


def test_a_library_that_cannot_be_loaded_raises_os_error_naming_it(roles_module, tmp_path):
    missing = tmp_path / "nope.so"
    with pytest.raises(OSError, match=rf"^cannot load {missing}: .*No such file"):
        roles_module.load(missing)
    not_a_library = tmp_path / "text.so"
    not_a_library.write_text("hello")
    with pytest.raises(OSError, match=r"cannot load .*text\.so: .*(invalid ELF|too short)"):
        roles_module.load(not_a_library)
    with pytest.raises(TypeError):
        roles_module.Library()


def test_a_library_without_the_table_getter_is_refused(roles_module, tmp_path):
    other = tmp_path / "libother.so"
    source = tmp_path / "other.c"
    source.write_text("int other(void) { return 1; }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", str(source), "-o", str(other)], check=True)
    with pytest.raises(OSError, match=r"no symbol rl_get_table"):
        roles_module.load(other)


def test_missing_functions_raise_attribute_error_when_called(lib, libroles):
    with pytest.raises(AttributeError, match=r"function table from rl_get_table has no entry for rl_missing_entry"):
        lib.rl_missing_entry()
    with pytest.raises(AttributeError, match=rf"^{libroles}: the library has no symbol 'rl_not_exported'$"):
        lib.rl_not_exported()
    assert lib.rl_by_symbol(1) == 1001  # not in the table: found by dlsym


# ---- roles -----------------------------------------------------------------------

def test_out_scalars_records_and_inout(lib, roles_module):
    version = lib.rl_get_version()
    assert isinstance(version, roles_module.rl_version) and (version.major, version.minor) == (2, 40)
    assert lib.rl_double(21) == (21, 42)  # the C return value first, then the inout value
    with pytest.raises(OverflowError):
        lib.rl_double(2**31)


def test_in_array_of_bytes_fills_the_length(lib, roles_module):
    assert lib.rl_login(b"1234") is None
    assert lib.rl_login(bytearray(b"1234")) is None
    assert lib.rl_login(memoryview(b"xx1234")[2:]) is None
    with pytest.raises(roles_module.Error):
        lib.rl_login(b"12345")
    with pytest.raises(TypeError):
        lib.rl_login("1234")


def test_argument_numbers_count_what_the_caller_passes(lib):
    # rl_random(buf, len): the caller passes only len, its first argument
    with pytest.raises(TypeError, match=r"argument 1 \(len_\) must be an integer, not str"):
        lib.rl_random("16")


def test_in_array_of_integers(lib):
    assert lib.rl_sum([1, 2, 3]) == 6
    assert lib.rl_sum(range(101)) == 5050
    assert lib.rl_sum([]) == 0
    with pytest.raises(TypeError, match=r"argument 1 \(values\) items must be an integer"):
        lib.rl_sum([1, "2"])
    with pytest.raises(OverflowError):
        lib.rl_sum([-1])


def test_out_array_probes_the_length_first(lib):
    lib.rl_set_count(3)
    assert lib.rl_get_list() == [10, 20, 30]
    lib.rl_set_count(0)
    assert lib.rl_get_list() == []
    lib.rl_set_count(1000)
    assert lib.rl_get_list() == [10 * (i + 1) for i in range(1000)]
    lib.rl_set_count(3)


def test_out_bytes_probe_and_caller_given_length(lib):
    assert lib.rl_encrypt(b"hello") == b"OLLEH"
    assert lib.rl_encrypt(b"") == b""
    assert lib.rl_random(5) == bytes(range(5))
    assert lib.rl_random(0) == b""
    with pytest.raises(ValueError, match=r"must not be negative"):
        lib.rl_random(-1)


def test_null_role_is_hidden_and_passes_null(lib):
    assert lib.rl_init() is None  # RL_ERR_ARGS would raise unless reserved is NULL
    with pytest.raises(TypeError):
        lib.rl_init(None)


# ---- errors ----------------------------------------------------------------------

def test_error_classes_per_code(lib, roles_module):
    m = roles_module
    with pytest.raises(m.errors.RL_ERR_PIN_INCORRECT) as caught:
        lib.rl_login(b"0000")
    error = caught.value
    assert isinstance(error, m.Error) and isinstance(error, Exception)
    assert (error.code, error.function) == (0xA0, "rl_login")
    assert str(error) == "rl_login failed: RL_ERR_PIN_INCORRECT (0xa0)"
    assert m.errors_by_code[0xA0] is m.errors.RL_ERR_PIN_INCORRECT  # RL_ERR_PIN_WRONG shares the value
    assert not hasattr(m.errors, "RL_ERR_PIN_WRONG")
    assert m.errors.RL_ERR_ARGS.__name__ == "RL_ERR_ARGS"
    assert m.RL_ERR_ARGS == 7  # the constant stays an int
    with pytest.raises(m.errors.RL_ERR_ARGS, match=r"^rl_open failed: RL_ERR_ARGS \(0x7\)$"):
        lib.rl_open(b"no such counter")


def test_errors_false_returns_the_code(lib, roles_module):
    assert lib.rl_raw_status(0xA0) == 0xA0
    assert str(roles_module.Error(0x1234, "f")) == "f failed: unknown code (0x1234)"


# ---- GIL, nonnull ------------------------------------------------------------------

def test_released_gil_lets_another_thread_call_in(lib):
    result = []
    waiter = threading.Thread(target=lambda: result.append(lib.rl_wait_flag(5000)))
    waiter.start()
    deadline = time.monotonic() + 5
    # rl_waiting() needs the GIL: with it held by the waiter this loop would stall
    # until the wait timed out, and the flag would come too late.
    while not lib.rl_waiting() and time.monotonic() < deadline:
        time.sleep(0.001)
    lib.rl_set_flag()
    waiter.join()
    assert result == [1]


def test_nonnull_pointers_refuse_none(lib, roles_module):
    v = roles_module.rl_version(major=3)
    assert lib.rl_point_len(v, b"ab") == 5
    with pytest.raises(TypeError, match=r"argument 1 \(v\) must not be None"):
        lib.rl_point_len(None, b"ab")
    with pytest.raises(TypeError, match=r"argument 2 \(s\) must not be None"):
        lib.rl_point_len(v, None)
    # rl_strlen is __attribute__((nonnull(1))) in the header
    assert lib.rl_strlen(b"abc") == 3
    with pytest.raises(TypeError, match=r"argument 1 \(s\) must not be None"):
        lib.rl_strlen(None)


# ---- handles and record fields -------------------------------------------------------

def test_opaque_pointers_are_handles(lib, roles_module):
    a = lib.rl_open(b"a")
    assert isinstance(a, roles_module.rl_counter)
    assert a == lib.rl_counter_find(b"a") and a != lib.rl_counter_find(b"b")
    assert hash(a) == hash(lib.rl_counter_find(b"a"))
    assert int(a) != 0 and repr(a) == f"<rl_counter handle at {int(a):#x}>"
    first = lib.rl_counter_next(a)
    assert lib.rl_counter_next(a) == first + 1
    assert lib.rl_counter_find(b"zz") is None
    assert lib.rl_counter_next(None) == 0
    with pytest.raises(TypeError):
        lib.rl_counter_next(int(a))
    with pytest.raises(TypeError):
        roles_module.rl_counter()


def test_record_templates_with_buffers_like_pkcs11(lib, roles_module):
    m = roles_module
    template = [m.rl_attribute(type=1), m.rl_attribute(type=22)]
    lib.rl_get_attributes(template)  # first pass: lengths only, copied back into the records
    assert [a.ulValueLen for a in template] == [2, 3]
    for attribute in template:
        attribute.pValue = bytearray(attribute.ulValueLen)
    values = [a.pValue for a in template]
    assert all(type(v) is m.Pointer and repr(v).startswith("<Pointer void * at ") for v in values)
    gc.collect()  # the records keep their buffers alive
    lib.rl_get_attributes(template)
    assert lib.rl_attribute_bytes(template[0]) == ord("v") + ord("1")
    kept = bytearray(b"\x01\x02")
    attribute = m.rl_attribute(pValue=kept, ulValueLen=2)
    assert lib.rl_attribute_bytes(attribute) == 3
    with pytest.raises(BufferError):
        kept.extend(b"x")  # held while the record points into it
    attribute.pValue = None
    kept.extend(b"x")
    assert attribute.pValue is None and lib.rl_attribute_bytes(attribute) == 0
    with pytest.raises(TypeError):
        attribute.pValue = 5
    with pytest.raises(TypeError, match=r"items must be rl_attribute"):
        lib.rl_get_attributes([b"x"])


def test_function_pointer_handle_and_nested_fields(lib, roles_module):
    info = roles_module.rl_info()
    assert info.notify is None and info.counter is None
    lib.rl_fill_info(info)
    notify = info.notify
    assert isinstance(notify, roles_module.FunctionPointer) and int(notify) != 0
    # the type spelled as every FunctionPointer of it is, its typedefs resolved (rl_rv (*)(rl_ulong))
    assert repr(notify).startswith("<FunctionPointer unsigned long (*)(unsigned long) at 0x")
    assert (info.version.major, info.version.minor, info.label) == (1, 7, b"roles")
    assert info.counter == lib.rl_counter_find(b"b")
    info.counter = lib.rl_counter_find(b"a")
    assert info.counter == lib.rl_counter_find(b"a")
    info.counter = None
    assert info.counter is None
    with pytest.raises(TypeError, match=r"rl_info.notify must be a callable, a FunctionPointer or None, not int"):
        info.notify = int(notify)  # an arbitrary address could crash when called
    other = roles_module.rl_info(notify=notify)
    assert other.notify == notify
    other.notify = None
    assert other.notify is None


# ---- names, docs, stubs -------------------------------------------------------------

def test_hostile_names_are_renamed_and_docs_survive(lib, roles_module):
    m = roles_module
    assert lib.print_(1, 2, 3) == 123
    obj = m.object_(None_=1, cdef_=2, print=3, type=4)
    assert (obj.None_, obj.cdef_, obj.print, obj.type) == (1, 2, 3, 4)
    assert lib.load_(obj) == 10 and lib.object_type(obj) == 4
    doc = type(lib).print_.__doc__
    assert doc.splitlines()[0] == "print_(def_: int, type_: int, len_: int, /) -> int"
    assert 'Docs with """ triple quotes """, a */ lookalike, a back\\slash \\n and ünïcödé.' in doc
    assert "C: int print(int def, int type, int len);" in doc


def test_stub_lets_mypy_catch_a_wrong_argument_type(roles_module, tmp_path):
    script = tmp_path / "use_roles.py"
    script.write_text(
        f"import {MODULE_NAME} as m\n"
        "lib = m.load('libroles.so')\n"
        "total: int = lib.rl_bump(1)\n"
        "data: bytes = lib.rl_encrypt(b'x')\n"
        "pair: tuple[int, int] = lib.rl_double(2)\n"
        "lib.rl_bump(b'one')\n"
        "lib.rl_counter_next(3)\n"
    )
    stub_dir = Path(roles_module.__file__).parent
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(script)],
        capture_output=True, text=True, env={"MYPYPATH": str(stub_dir), "PATH": "/usr/bin:/bin"},
    )
    lines = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in lines] == ["6", "7"], result.stdout
    assert 'Argument 1 to "rl_bump" of "Library" has incompatible type "bytes"; expected "int"' in lines[0]
