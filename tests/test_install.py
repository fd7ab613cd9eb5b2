"""pegbind installed from a wheel into a fresh virtual environment, used outside the source tree."""
from __future__ import annotations

import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with ``pip install <checkout>``; returns its bin folder."""
    home = tmp_path_factory.mktemp("installed")
    env_dir = home / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    # Install from a copy so nothing of the checkout (build/, egg-info) can leak in or be written.
    source = home / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "build", "demo-out", "*.egg-info", "__pycache__"))
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", str(source)], check=True, timeout=900)
    shutil.rmtree(source)
    return bin_dir


def run(bin_dir: Path, *command, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_installed_cli_builds_the_example(installed, tmp_path, vecmath_library):
    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copy(EXAMPLES / "demo" / "vecmath.h", work)
    for command in (["pegbind", "--help"], ["python", "-m", "pegbind", "--help"]):
        result = run(installed, *command, cwd=work)
        assert result.returncode == 0, result.stderr
        assert "generate" in result.stdout
    where = run(installed, "python", "-c", "import pegbind.resources as r; print(r.grammars_dir()); print(r.templates_dir())", cwd=work)
    assert where.returncode == 0, where.stderr
    assert all(str(ROOT) not in line and "site-packages" in line for line in where.stdout.splitlines())
    # every backend, so that each one's modules are in the wheel
    for backend in ("cython", "cffi", "ctypes"):
        out = f"out-{backend}"
        built = run(installed, "pegbind", "build", "vecmath.h", "-l", "vecmath", "-L", str(vecmath_library),
                    "--backend", backend, "-o", out, cwd=work)
        assert built.returncode == 0, built.stderr
        called = run(installed, "python", "-c", "import vecmath; print(vecmath.vm_add(40, 2))", cwd=work / out)
        assert called.returncode == 0, called.stderr
        assert called.stdout.strip() == "42"
