"""The build-time hook: a user's project whose setup.py builds a binding with pegbind."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

SETUP_EXPLICIT = """
from setuptools import setup
from pegbind.setuptools_ext import bindings
setup(name="geometry", version="1.0", py_modules=[], **bindings("pegbind.toml"))
"""


def make_project(root: Path, setup_py: str, library_dir: Path, backend: str = "cython") -> Path:
    root.mkdir()
    shutil.copy(EXAMPLES / "demo" / "vecmath.h", root)
    (root / "pegbind.toml").write_text(
        f'name = "vecmath"\nheaders = ["vecmath.h"]\nlink = ["vecmath"]\nlibrary_dirs = ["{library_dir}"]\n'
        f'backends = ["{backend}"]\n'
    )
    (root / "setup.py").write_text(setup_py)
    return root


def run(command: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **extra)
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cython", "cffi", "ctypes"])
def test_explicit_bindings_build_in_place(tmp_path, vecmath_library, backend):
    project = make_project(tmp_path / "explicit", SETUP_EXPLICIT, vecmath_library, backend)
    built = run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], project)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (project / "vecmath.pyi").is_file()
    # no run path is written into the module: the library is found as the loader finds any
    called = run([sys.executable, "-c", "import vecmath; print(vecmath.vm_add(40, 2))"], project,
                 LD_LIBRARY_PATH=str(vecmath_library))
    assert called.stdout.strip() == "42", called.stderr


@pytest.mark.slow
def test_config_error_stops_the_build_with_the_diagnostic(tmp_path, vecmath_library):
    project = make_project(tmp_path / "broken", SETUP_EXPLICIT, vecmath_library)
    (project / "pegbind.toml").write_text('name = "vecmath"\nheaders = ["vecmath.h"]\nlinks = ["vecmath"]\n')
    built = run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], project)
    assert built.returncode != 0
    assert "pegbind.toml:3:1: error: links: unknown key (did you mean 'link'?" in built.stderr
    assert "Traceback" not in built.stderr
