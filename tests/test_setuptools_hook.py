"""The build-time hook: a user's project whose setup.py builds a binding with pegbind."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT

SETUP_KEYWORD = """
from setuptools import setup
setup(name="geometry", version="1.0", py_modules=[], pegbind_bindings=["pegbind.toml"])
"""

SETUP_EXPLICIT = """
from setuptools import setup
from pegbind.setuptools_ext import bindings
setup(name="geometry", version="1.0", py_modules=[], **bindings("pegbind.toml"))
"""


def make_project(root: Path, setup_py: str, library_dir: Path) -> Path:
    root.mkdir()
    shutil.copy(EXAMPLES / "demo" / "vecmath.h", root)
    (root / "pegbind.toml").write_text(
        f'name = "vecmath"\nheaders = ["vecmath.h"]\nlink = ["vecmath"]\nlibrary_dirs = ["{library_dir}"]\n'
    )
    (root / "setup.py").write_text(setup_py)
    return root


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_explicit_bindings_build_in_place(tmp_path, vecmath_library):
    project = make_project(tmp_path / "explicit", SETUP_EXPLICIT, vecmath_library)
    built = run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], project)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (project / "vecmath.pyi").is_file()
    called = run([sys.executable, "-c", "import vecmath; print(vecmath.vm_add(40, 2))"], project)
    assert called.stdout.strip() == "42", called.stderr


@pytest.mark.slow
def test_setup_keyword_builds_a_wheel(tmp_path, vecmath_library):
    # The keyword is found through pegbind's entry point, so pegbind must be installed
    # (make test installs it, editable, into .venv).
    from importlib.metadata import entry_points

    if not any(e.name == "pegbind_bindings" for e in entry_points(group="distutils.setup_keywords")):
        pytest.fail("pegbind is not installed in this environment: run make test, which installs it")
    project = make_project(tmp_path / "keyword", SETUP_KEYWORD, vecmath_library)
    wheel_dir = tmp_path / "wheels"
    built = run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w", str(wheel_dir), "."],
        project,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheel_dir.glob("geometry-1.0-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("vecmath.") and n.endswith(".so") for n in names), names
    assert "vecmath.pyi" in names


@pytest.mark.slow
def test_config_error_stops_the_build_with_the_diagnostic(tmp_path, vecmath_library):
    project = make_project(tmp_path / "broken", SETUP_EXPLICIT, vecmath_library)
    (project / "pegbind.toml").write_text('name = "vecmath"\nheaders = ["vecmath.h"]\nlinks = ["vecmath"]\n')
    built = run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], project)
    assert built.returncode != 0
    assert "pegbind.toml:3:1: error: links: unknown key (did you mean 'link'?" in built.stderr
    assert "Traceback" not in built.stderr
