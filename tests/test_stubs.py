"""What IDEs and type checkers see: help() text in every backend, the Cython .pyi under mypy.

tests/conformance/stubs.h is built once per backend.  ``help()`` (rendered
with pydoc, exactly what ``help`` prints) must show each header comment.
For the Cython backend, mypy run on a small user script, with the built
module's folder on MYPYPATH, must accept correct calls and flag a call with
a wrong argument type -- proof that the generated ``.pyi`` is found and typed.
"""
from __future__ import annotations

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


def test_the_cython_stub_lets_mypy_check_calls(libstubs, tmp_path_factory, tmp_path):
    folder, module = built_module("cython", libstubs, tmp_path_factory)
    assert (folder / "stubs_cython.pyi").exists()
    good = (
        "import stubs_cython\n"
        "total: int = stubs_cython.stub_add(1, 2)\n"
        "half: float = stubs_cython.stub_half(3.0)\n"
        "pair = stubs_cython.stub_pair(left=1, right=2)\n"
        "both: int = stubs_cython.stub_pair_sum(pair) + stubs_cython.stub_pair_sum(None)\n"
    )
    accepted = run_mypy(folder, good, tmp_path / "good")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    bad = "import stubs_cython\nstubs_cython.stub_add('one', 2)\nstubs_cython.stub_pair_sum(3)\n"
    rejected = run_mypy(folder, bad, tmp_path / "bad")
    assert rejected.returncode == 1, rejected.stdout + rejected.stderr
    lines = rejected.stdout.splitlines()
    assert any(line.startswith("user_code.py:2:") and "[arg-type]" in line for line in lines), rejected.stdout
    assert any(line.startswith("user_code.py:3:") and "[arg-type]" in line for line in lines), rejected.stdout
    # the stub describes the module that was really built
    assert module.stub_add(1, 2) == 3
