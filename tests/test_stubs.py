"""What IDEs and type checkers see: help() text in every backend, the Cython .pyi under mypy.

tests/conformance/stubs.h is built once per backend.  ``help()`` (rendered
with pydoc, exactly what ``help`` prints) must show each header comment.
In every backend, mypy run on a small user script, with the built module's
folder on MYPYPATH, must accept correct calls and flag mistakes the same way,
and stubtest must find the ``.pyi`` true to the module as it runs.
"""
from __future__ import annotations

import array
import inspect
import os
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import build_and_import, compile_library

from pegbind.config import BindingConfig

pytestmark = pytest.mark.slow

CONF = Path(__file__).resolve().parent / "conformance"
BACKENDS = [pytest.param(backend, id=backend) for backend in ("cython", "cffi", "ctypes")]


@pytest.fixture(scope="session")
def libstubs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("libstubs")
    compile_library([CONF / "stubs.c"], folder / "libstubs.so", "-Wall", "-Werror")
    return folder


_built: dict[str, tuple[Path, object] | BaseException] = {}


def built_module(backend: str, libstubs: Path, tmp_path_factory) -> tuple[Path, object]:
    """(output folder, imported module) of stubs.h for ``backend``, built once."""
    if backend not in _built:
        name = f"stubs_{backend}"
        config = BindingConfig(
            name=name, headers=(CONF / "stubs.h",), link=("stubs",), library_dirs=(libstubs,), backends=(backend,)
        )
        out = tmp_path_factory.mktemp(name)
        try:
            _built[backend] = (out, build_and_import(config, out))
        except Exception as exc:  # noqa: BLE001 - every test of this backend reports it
            _built[backend] = exc
    result = _built[backend]
    if isinstance(result, BaseException):
        pytest.fail(f"the {backend} backend could not build stubs.h: {type(result).__name__}: {result}")
    return result


@pytest.mark.parametrize("backend", BACKENDS)
def test_help_shows_the_header_comments(backend, libstubs, tmp_path_factory):
    _, module = built_module(backend, libstubs, tmp_path_factory)
    text = pydoc.render_doc(module.stub_add, renderer=pydoc.plaintext)
    assert "stub_add" in text
    assert "Add two numbers and return the sum." in text
    assert "Sum of the two members of *pair, or -1 for NULL." in pydoc.render_doc(
        module.stub_pair_sum, renderer=pydoc.plaintext
    )
    # help(module) lists every function with its comment too
    whole = pydoc.render_doc(module, renderer=pydoc.plaintext)
    assert "Half of x." in whole


def run_mypy(folder: Path, script: str, work: Path) -> subprocess.CompletedProcess:
    work.mkdir(parents=True, exist_ok=True)
    (work / "user_code.py").write_text(script)
    env = dict(os.environ, MYPYPATH=str(folder))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--strict",
         "--no-error-summary", "user_code.py"],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_inspect_reads_every_wrapper_s_signature(backend, libstubs, tmp_path_factory):
    # the compiled module's functions say theirs in their docstrings' first lines, as CPython reads them
    _, module = built_module(backend, libstubs, tmp_path_factory)
    signatures = {name: str(inspect.signature(getattr(module, name)))
                  for name in ("stub_add", "stub_pair_sum", "stub_zero", "stub_sum_of")}
    assert signatures == {"stub_add": "(a, b, /)", "stub_pair_sum": "(pair, /)", "stub_zero": "()",
                          "stub_sum_of": "(n, /, *args)"}
    assert module.stub_sum_of(3, 1, 2, 3) == 6 and module.stub_zero() == 0
    assert pydoc.render_doc(module.stub_add, renderer=pydoc.plaintext).count("Add two numbers") == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_stub_lets_mypy_check_calls(backend, libstubs, tmp_path_factory, tmp_path):
    # each backend's module has the same .pyi beside it: the same script is checked the same way
    folder, module = built_module(backend, libstubs, tmp_path_factory)
    name = f"stubs_{backend}"
    assert (folder / f"{name}.pyi").exists()
    good = (
        f"import {name} as m\n"
        "total: int = m.stub_add(1, 2)\n"
        "half: float = m.stub_half(3.0)\n"
        "pair = m.stub_pair(left=1, right=2)\n"
        "both: int = m.stub_pair_sum(pair) + m.stub_pair_sum(None)\n"
        "counted: int = m.stub_sum_of(2, 1, 2) + m.stub_zero()\n"
        "mode = m.stub_next(m.STUB_FAST)\n"
        "made = m.stub_counter_new(5)\n"
        "assert made is not None\n"
        "with made as counter:\n"
        "    start: int = m.stub_counter_get(counter)\n"
        "visited: int = m.stub_each(3, lambda value, data: 0, None)\n"
        "total_cell = m.c_int32()\n"
        "m.stub_add_into(1, 2, total_cell)\n"
        "summed: int = total_cell.value\n"
        "first: int = m.stub_first_byte(pair) + m.stub_first_byte(b'x')  # a record where C takes void *\n"
        "import array\n"
        "m.stub_add_into(1, 2, array.array('i', [0]))  # any buffer, as the README shows\n"
        "first += m.stub_first_byte(array.array('B', [7]))\n"
        "driver = m.stub_driver(version=3)  # a member named close: the stub names it once\n"
        "version: int = driver.version + m.stub_driver_version(driver)\n"
    )
    accepted = run_mypy(folder, good, tmp_path / "good")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    bad = f"import {name} as m\nm.stub_add('one', 2)\nm.stub_pair_sum(3)\n"
    rejected = run_mypy(folder, bad, tmp_path / "bad")
    assert rejected.returncode == 1, rejected.stdout + rejected.stderr
    lines = rejected.stdout.splitlines()
    assert any(line.startswith("user_code.py:2:") and "[arg-type]" in line for line in lines), rejected.stdout
    assert any(line.startswith("user_code.py:3:") and "[arg-type]" in line for line in lines), rejected.stdout
    # the stub describes the module that was really built
    assert module.stub_add(1, 2) == 3 and module.stub_first_byte(module.stub_pair(left=7, right=2)) == 7
    total = array.array("i", [0])
    module.stub_add_into(1, 2, total)
    assert total[0] == 3 and module.stub_driver_version(module.stub_driver(version=3)) == 3


#: deliberate mistakes: each line is one, and mypy must say so the same way for every backend
MISTAKES = """\
import {name} as m
m.stub_add('one', 2)
m.stub_pair_sum(3)
m.stub_pair(left='x')
m.stub_counter_get(m.stub_pair())
m.stub_each(3, lambda value: 0, None)
m.stub_add_into(1, 2, 3)
name: str = m.stub_half(1.0)
m.Pointer.nope
"""


def test_every_backend_s_stub_matches_its_module_and_catches_the_same_mistakes(libstubs, tmp_path_factory, tmp_path):
    said = {}
    for backend in ("cython", "cffi", "ctypes"):
        folder, _ = built_module(backend, libstubs, tmp_path_factory)
        name = f"stubs_{backend}"
        # The stub against the module as it is at run time. @disjoint_base (PEP 800) is not
        # written: a stub that imports it cannot be read by the type checkers before it.
        checked = subprocess.run(
            [sys.executable, "-m", "mypy.stubtest", name, "--ignore-disjoint-bases", "--mypy-config-file",
             os.devnull], cwd=tmp_path, env=dict(os.environ, MYPYPATH=str(folder), PYTHONPATH=str(folder)),
            capture_output=True, text=True, timeout=300)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        rejected = run_mypy(folder, MISTAKES.format(name=name), tmp_path / backend)
        said[backend] = rejected.stdout.replace(name, "M")
    assert said["cffi"] == said["cython"] and said["ctypes"] == said["cython"], said
    lines = said["cython"].splitlines()
    assert sorted({int(line.split(":")[1]) for line in lines if ": error:" in line}) == list(range(2, 10)), lines
