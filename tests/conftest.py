"""Shared fixtures: the repository layout, running the CLI as a user would, compilers."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


def run_pegbind(*args: str, cwd: Path | str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m pegbind ARGS`` in a fresh process, the way a user's shell would."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "pegbind", *args],
        cwd=cwd or ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="session")
def cc() -> str:
    compiler = shutil.which("gcc")
    if compiler is None:
        pytest.fail("gcc is required (make test installs it)")
    return compiler


@pytest.fixture(scope="session")
def vecmath_library(tmp_path_factory, cc) -> Path:
    """The demo's C library compiled into a shared object; returns its folder."""
    lib_dir = tmp_path_factory.mktemp("vecmath-lib")
    subprocess.run(
        [cc, "-shared", "-fPIC", "-O2", str(EXAMPLES / "demo" / "vecmath.c"), "-o", str(lib_dir / "libvecmath.so"), "-lm"],
        check=True,
    )
    return lib_dir
