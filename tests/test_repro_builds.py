"""Minimal headers that real libraries showed to break a generated module (``tests/repro/``).

Each is built as a user would (``pegbind build HEADER -l NAME -L DIR --backend B``)
into a module that is then imported and called in a fresh process, in every
backend, linked at build time and loaded with ``load(path)``.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import compile_library, run_pegbind

pytestmark = pytest.mark.slow

REPRO = Path(__file__).resolve().parent / "repro"
BACKENDS = ("cython", "cffi", "ctypes")


def build(tmp_path: Path, name: str, backend: str, *flags: str, library: str | None = None) -> tuple[Path, str]:
    """``tests/repro/NAME.h`` built with BACKEND (its .c as ``libNAME.so`` when there is one).

    Returns the output folder and what pegbind printed on stderr.
    """
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir(exist_ok=True)
    source = REPRO / f"{library or name}.c"
    link: list[str] = []
    if source.exists():
        compile_library([source], lib_dir / f"lib{library or name}.so")
        link = ["-l", library or name, "-L", str(lib_dir)]
    out = tmp_path / f"{name}-{backend}-{'-'.join(flags) or 'link'}"
    if "--load" in flags:
        link = []
    result = run_pegbind("build", str(REPRO / f"{name}.h"), *link, "--backend", backend, "-o", str(out), *flags)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


def run_in(folder: Path, code: str, lib_dir: Path | None = None) -> str:
    """``code`` run by a fresh interpreter with ``folder`` first on sys.path; returns its stdout."""
    prelude = f"import sys\nsys.path.insert(0, {str(folder)!r})\n"
    if lib_dir is not None:
        prelude += f"LIB_DIR = {str(lib_dir)!r}\n"
    result = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("backend", BACKENDS)
def test_va_list_is_spelled_in_every_backend(tmp_path, backend):
    out, stderr = build(tmp_path, "va_list", backend)
    assert "va_list.h:6:5: warning: function 'vlog' is not wrapped: parameter 2 (args): va_list has no default " \
           "Python conversion" in stderr
    printed = run_in(out, """
        import va_list as m
        logger = m.logger(level=3)
        print(m.add(2, 3), m.logger_level(logger), logger.sink, hasattr(m, "vlog"))
    """)
    assert printed.split() == ["5", "3", "None", "False"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_va_list_loaded_at_run_time(tmp_path, backend):
    out, _ = build(tmp_path, "va_list", backend, "--load", "dynamic")
    compile_library([REPRO / "va_list.c"], tmp_path / "libva.so")
    printed = run_in(out, f"""
        import va_list as m
        lib = m.load({str(tmp_path / 'libva.so')!r})
        print(lib.add(2, 3), lib.logger_level(m.logger(level=7)))
    """)
    assert printed.split() == ["5", "7"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_macros_that_name_functions_are_aliases(tmp_path, backend):
    out, _ = build(tmp_path, "aliases", backend)
    printed = run_in(out, """
        import aliases as m
        print(m.scale is m.scale64, m.scale(6, 7), m.offset is m.offset64, m.offset(1), hasattr(m, "NOT_A_FUNCTION"))
    """)
    assert printed.split() == ["True", "42", "True", "65", "False"]
    out, _ = build(tmp_path, "aliases", backend, "--load", "dynamic")
    compile_library([REPRO / "aliases.c"], tmp_path / "libaliases.so")
    printed = run_in(out, f"""
        import aliases as m
        lib = m.load({str(tmp_path / 'libaliases.so')!r})
        print(lib.scale(6, 7), lib.offset(1), type(lib).scale is type(lib).scale64)
    """)
    assert printed.split() == ["42", "65", "True"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_member_named_like_a_macro(tmp_path, backend):
    out, _ = build(tmp_path, "macro_field", backend)
    printed = run_in(out, """
        import macro_field as m
        state = m.parser_state(level=4)
        print(m.state_level(state), state.parserVersion, sorted(f for f in dir(state) if not f.startswith("_")))
    """)
    assert printed.strip().split(maxsplit=2) == ["4", "None", "['from_bytes', 'level', 'parserVersion', 'sizeof']"]
