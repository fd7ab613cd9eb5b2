"""A downstream project that ships bindings, built in isolation as its users would build it.

The project is the README's (its ``pyproject.toml`` is read from the README's
"At build time" section), with its C in ``csrc/`` and its Python package
``mypkg``.  pegbind comes from its own wheel, found by pip's build isolation
(``--find-links``); each install goes into a fresh virtual environment.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, new_venv, outside_env

pytestmark = pytest.mark.slow

HEADER = """\
#ifndef TINYMATH_H
#define TINYMATH_H
#include "tinymath_types.h"
/* Adds two integers. */
int tm_add(int a, int b);
/* TM_EXTRA as the C source was compiled. */
int tm_extra(void);
tm_real tm_scale(tm_real x, tm_real k);
#endif
"""

SOURCE = """\
#include "tinymath.h"
#ifndef TM_EXTRA
#define TM_EXTRA 0
#endif
#warning "tinymath.c is compiled with the project's own flags"
int tm_add(int a, int b) { return a + b; }
int tm_extra(void) { return TM_EXTRA; }
tm_real tm_scale(tm_real x, tm_real k) { return x * k; }
"""

#: what a user of the installed project runs, and what it must print
SCRIPT = """\
from mypkg import _fast, _native, libm
print(_native.tm_add(40, 2), _fast.tm_add(40, 2), _native.tm_scale(1.5, 2.0), _fast.tm_scale(1.5, 2.0))
print(_native.tm_extra(), _fast.tm_extra(), round(libm.cbrt(27.0), 9))
"""
PRINTS = "42 42 3.0 3.0\n{extra} {extra} 3.0\n"

#: the project's own flags, as a user would set them: -O0 keeps the build quick
FLAGS = {"CFLAGS": "-O0 -DTM_EXTRA=2"}


def readme_pyproject() -> str:
    """The complete ``pyproject.toml`` the README shows for a project shipping bindings."""
    section = (ROOT / "README.md").read_text().split("## At build time", 1)[1]
    found = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert found, "the README's 'At build time' section shows no pyproject.toml"
    return found.group(1)


def write_project(root: Path, pyproject: str) -> Path:
    (root / "csrc").mkdir(parents=True)
    (root / "mypkg").mkdir()
    (root / "csrc" / "tinymath.h").write_text(HEADER)
    (root / "csrc" / "tinymath_types.h").write_text("typedef double tm_real;\n")
    (root / "csrc" / "tinymath.c").write_text(SOURCE)
    (root / "csrc" / "mathfns.h").write_text("double cbrt(double x);\n")
    (root / "mypkg" / "__init__.py").write_text('"""The project\'s Python."""\n')
    (root / "pyproject.toml").write_text(pyproject)
    return root


def run(bin_dir: Path, *command: str | Path, cwd: Path, wheels: Path, **env: str) -> subprocess.CompletedProcess:
    """``command`` run with the venv ``bin_dir`` first on the PATH; pip finds pegbind in ``wheels``."""
    links = " ".join(filter(None, [str(wheels), os.environ.get("PIP_FIND_LINKS")]))
    result = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=900,
                            env=outside_env(bin_dir, PIP_FIND_LINKS=links, **env))
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def uses(bin_dir: Path, tmp_path: Path, extra: int) -> None:
    """The user's script, run outside the project folder, prints what the bindings must give."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    ran = subprocess.run([str(bin_dir / "python"), "-c", SCRIPT], cwd=elsewhere, capture_output=True, text=True,
                         env=outside_env(bin_dir), timeout=120)
    assert ran.stdout == PRINTS.format(extra=extra), ran.stderr


def test_pyproject_only_wheel_holds_every_backend_in_the_package(tmp_path, pegbind_wheel):
    project = write_project(tmp_path / "tinymath", readme_pyproject())
    bin_dir = new_venv(tmp_path / "venv")
    wheels = tmp_path / "wheels"
    built = run(bin_dir, "python", "-m", "pip", "wheel", "-v", "--no-deps", "-w", wheels, ".", cwd=project,
                wheels=pegbind_wheel, **FLAGS)
    # the project's own C is compiled with warnings shown (and CFLAGS: see tm_extra below)
    assert "tinymath.c is compiled with the project's own flags" in built.stdout + built.stderr
    (wheel,) = wheels.glob("tinymath-1.0-*.whl")
    names = sorted(n for n in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in n)
    assert [re.sub(r"\.cpython-[^.]+\.so$", ".<abi>.so", n) for n in names] == [
        "mypkg/__fast_cffi.abi3.so", "mypkg/__init__.py", "mypkg/_fast.py", "mypkg/_fast.pyi",
        "mypkg/_native.<abi>.so", "mypkg/_native.pyi", "mypkg/libm.py", "mypkg/libm.pyi",
    ]
    run(bin_dir, "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path, wheels=pegbind_wheel)
    uses(bin_dir, tmp_path, extra=2)
    # nothing of the build machine's folders in what is installed
    (site,) = (tmp_path / "venv" / "lib").glob("python3*/site-packages")
    for module in (site / "mypkg").glob("*.so"):
        dynamic = subprocess.run(["readelf", "-d", str(module)], capture_output=True, text=True, check=True).stdout
        assert str(tmp_path) not in dynamic and "/tmp/" not in dynamic, dynamic
    for text in (site / "mypkg").glob("*.py"):
        assert str(project) not in text.read_text(), text


def test_sdist_carries_the_binding_inputs_and_installs_in_a_fresh_venv(tmp_path, pegbind_wheel):
    project = write_project(tmp_path / "tinymath", readme_pyproject())
    # `build` from the test environment (make test installs it); it makes its own isolated one
    run(Path(sys.executable).parent, sys.executable, "-m", "build", "--sdist", "-o", tmp_path / "dist", ".",
        cwd=project, wheels=pegbind_wheel)
    (sdist,) = (tmp_path / "dist").glob("tinymath-1.0.tar.gz")
    members = {name.split("/", 1)[1] for name in tarfile.open(sdist).getnames() if "/" in name}
    # the included header too, found by preprocessing, with no MANIFEST.in
    assert {"pyproject.toml", "csrc/tinymath.h", "csrc/tinymath_types.h", "csrc/tinymath.c",
            "csrc/mathfns.h", "mypkg/__init__.py"} <= members
    user = new_venv(tmp_path / "user")
    run(user, "python", "-m", "pip", "install", "-q", sdist, cwd=tmp_path, wheels=pegbind_wheel, CFLAGS="-O0")
    uses(user, tmp_path, extra=0)
    (site,) = (tmp_path / "user" / "lib").glob("python3*/site-packages")
    assert not (site / "csrc").exists()


def test_setup_py_project_installs_and_installs_editable_with_its_stubs(tmp_path, pegbind_wheel):
    # the bindings in a pegbind.toml of their own, named by setup.py's keyword: one module at the
    # top level, one in the package (a cffi one: its wrapper, compiled module and stub side by side)
    pyproject = readme_pyproject().split("[tool.setuptools]")[0]
    project = write_project(tmp_path / "tinymath", pyproject)
    (project / "pegbind.toml").write_text(
        '[[binding]]\nname = "tinymath"\nheaders = ["csrc/tinymath.h"]\nsources = ["csrc/tinymath.c"]\n\n'
        '[[binding]]\nname = "mypkg._fast"\nheaders = ["csrc/tinymath.h"]\nsources = ["csrc/tinymath.c"]\n'
        'backends = ["cffi"]\n')
    (project / "setup.py").write_text('from setuptools import setup\n'
                                      'setup(packages=["mypkg"], pegbind_bindings=["pegbind.toml"])\n')
    bin_dir = new_venv(tmp_path / "venv")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def where_they_run() -> tuple[Path, Path]:
        ran = subprocess.run([str(bin_dir / "python"), "-c", "import tinymath; from mypkg import _fast; "
                              "print(tinymath.tm_add(1, 2), tinymath.tm_extra(), _fast.tm_add(2, 2), "
                              "tinymath.__file__, _fast.__file__)"], cwd=elsewhere, capture_output=True,
                             text=True, env=outside_env(bin_dir), timeout=120)
        assert ran.returncode == 0, ran.stderr
        three, extra, four, top, packaged = ran.stdout.split()
        assert (three, extra, four) == ("3", "2", "4"), ran.stdout
        return Path(top), Path(packaged)

    run(bin_dir, "python", "-m", "pip", "install", "-q", ".", cwd=project, wheels=pegbind_wheel, **FLAGS)
    top, packaged = where_they_run()
    assert top.parent.name == "site-packages" and (top.parent / "tinymath.pyi").is_file()
    assert packaged.parent == top.parent / "mypkg" and (packaged.parent / "_fast.pyi").is_file()
    run(bin_dir, "python", "-m", "pip", "install", "-q", "-e", ".", cwd=project, wheels=pegbind_wheel, **FLAGS)
    top, packaged = where_they_run()
    assert top.parent == project and (project / "tinymath.pyi").is_file()
    assert packaged.parent == project / "mypkg" and (project / "mypkg" / "_fast.pyi").is_file()
    assert list((project / "mypkg").glob("__fast_cffi.abi3.so"))
