"""pegbind installed from a wheel into a fresh virtual environment, used outside the source tree."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, new_venv, outside_env


@pytest.fixture(scope="module")
def installed(tmp_path_factory, pegbind_wheel) -> Path:
    """A fresh venv with pegbind installed from its wheel; returns its bin folder."""
    bin_dir = new_venv(tmp_path_factory.mktemp("installed") / "venv")
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", "--find-links", str(pegbind_wheel), "pegbind"],
                   check=True, timeout=900)
    return bin_dir


def run(bin_dir: Path, *command, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=outside_env(bin_dir), capture_output=True, text=True, timeout=600)


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
