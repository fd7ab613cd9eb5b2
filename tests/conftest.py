"""Shared fixtures: the repository layout, running the CLI as a user would, compilers."""
from __future__ import annotations

import fcntl
import importlib
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


def one_worker_each(group: str, backends: tuple[str, ...] = ("cython", "cffi", "ctypes")) -> list:
    """``backends`` as the parameters of tests, or of a session fixture, that share one built module
    per backend: under ``--dist loadgroup`` (``make test``) the tests of one backend then run on one
    pytest-xdist worker, which builds that module once, where spread over the workers each built it
    again or waited for the other.  A file whose module-scoped fixtures build for every backend at
    once says ``pytestmark = pytest.mark.xdist_group(...)``."""
    return [pytest.param(backend, id=backend, marks=pytest.mark.xdist_group(f"{group}-{backend}"))
            for backend in backends]


def compile_library(sources, output: Path, *flags: str) -> Path:
    """C ``sources`` compiled by gcc into the shared library ``output``; returns ``output``."""
    subprocess.run(["gcc", "-shared", "-fPIC", *flags, *(str(s) for s in sources), "-o", str(output)], check=True)
    return output


def can_verify(target: str) -> bool:
    """Whether ``pegbind verify`` finds a compiler for ``target`` here (gcc -m32, a cross gcc)."""
    from pegbind.diagnostics import VerifyError
    from pegbind.target import get_target
    from pegbind.verify import toolchain

    try:
        toolchain(None, get_target(target))
    except VerifyError:
        return False
    return True


def import_from(folder: Path, name: str) -> ModuleType:
    """The module ``name`` imported from ``folder``, and only from there."""
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
    assert Path(module.__file__).parent == Path(folder), f"{name} was imported from {module.__file__}"
    return module


def build_and_import(config, out: Path) -> ModuleType:
    """``config`` built into ``out`` by the pipeline (as ``pegbind build`` does, with :data:`UNOPTIMISED`
    flags: the callers test what the module does), then imported."""
    from unittest import mock

    from pegbind.pipeline import build_extension

    with mock.patch.dict(os.environ, UNOPTIMISED):
        build_extension(config, out_dir=out)
    return import_from(out, config.name)


def small_library_module(folder: Path, stem: str, header: str, source: str, backend: str,
                         functions: tuple = ()) -> ModuleType:
    """A test library, ``source`` with its header ``{stem}.h``, compiled in ``folder``, bound by
    ``backend`` with the ``functions`` rules and imported (as module ``{stem}_{backend}``)."""
    from pegbind.config import BindingConfig

    (folder / f"{stem}.h").write_text(header)
    (folder / f"{stem}.c").write_text(source)
    compile_library([folder / f"{stem}.c"], folder / f"lib{stem}.so", "-I", str(folder))
    config = BindingConfig(name=f"{stem}_{backend}", headers=(folder / f"{stem}.h",), link=(stem,),
                           library_dirs=(folder,), backends=(backend,), functions=functions)
    return build_and_import(config, folder / "out")


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
    compile_library([EXAMPLES / "demo" / "vecmath.c"], lib_dir / "libvecmath.so", "-O2", "-lm")
    return lib_dir


def session_folder(tmp_path_factory, name: str) -> Path:
    """A folder of the whole test session, shared by the pytest-xdist workers."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def exclusively(path: Path) -> Iterator[None]:
    """Within: no other worker of the session is within for the same ``path`` (a lock file beside it)."""
    with open(f"{path}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@contextmanager
def first_to_make(path: Path) -> Iterator[bool]:
    """Within, alone (see :func:`exclusively`): whether ``path`` is still to be made, by no worker of
    the session yet; made it is when the block ends without an exception."""
    done = Path(f"{path}.done")
    with exclusively(path):
        needed = not done.exists()
        yield needed
        if needed:
            done.touch()


#: $CFLAGS for a module whose tests check what it does, which the optimiser does not change (it
#: only takes time).  The conformance suite builds as users do, with pegbind's own flags, and so
#: do the reproductions whose subject is how the compiler and linker treat symbols.
UNOPTIMISED = {"CFLAGS": "-O0"}


@pytest.fixture(scope="session")
def pegbind_wheel(tmp_path_factory) -> Path:
    """pegbind's wheel, built once a session from a copy of the checkout; returns its folder.

    From a copy, so nothing of the checkout (build/, egg-info) can leak in or be written.
    """
    folder = session_folder(tmp_path_factory, "pegbind-wheel")
    with exclusively(folder):
        if not list(folder.glob("pegbind-*.whl")):
            source = folder.parent / "pegbind-source"
            shutil.rmtree(source, ignore_errors=True)
            shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
                ".venv", ".git", "build", "dist", "demo-out", "*.egg-info", "__pycache__"))
            subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(folder), str(source)],
                           check=True, timeout=900)
            shutil.rmtree(source)
    return folder


def new_venv(folder: Path) -> Path:
    """A fresh virtual environment in ``folder`` (with pip); returns its bin folder."""
    venv.EnvBuilder(with_pip=True).create(folder)
    return folder / "bin"


def outside_env(bin_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a command run as a user of the venv ``bin_dir`` would: none of this
    checkout on the path, the venv's programs first."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env.update(extra)
    return env


#: the binary operators, for random expressions
BINARY_OPERATORS = ("+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||")


def random_expression(rng, leaves: list[str], odd: list[str], depth: int = 0) -> str:
    """A C expression, tokens spaced, of ``leaves``, groups, prefix operators, the binary
    operators and now and then a conditional; ``odd`` are operands to try now and then
    (casts, calls, members...), written before an operand where they end in ")"."""
    def operand() -> str:
        pick = rng.random()
        if depth < 5 and pick < 0.3:
            return "( " + random_expression(rng, leaves, odd, depth + 1) + " )"
        if pick < 0.4 and odd:
            chosen = rng.choice(odd)
            return chosen + " " + operand() if chosen.endswith(")") and rng.random() < 0.5 else chosen
        if pick < 0.5:
            return rng.choice("-+~!") + " " + operand()
        return rng.choice(leaves)
    parts = [operand()]
    for _ in range(rng.randrange(0, 6)):
        parts += [rng.choice(BINARY_OPERATORS), operand()]
    text = " ".join(parts)
    if rng.random() < 0.05:
        text += " ? " + operand() + " : " + operand()
    return text


def long_run(rng, leaves: list[str], operands: int = 2500) -> str:
    """A run of ``operands`` operands (plain, prefixed, in parentheses) and binary operators,
    spaced: longer than one match of a run leaf takes."""
    shapes = ("{0}", "- {0}", "~ {0}", "( {0} + {1} )", "( ( {0} ) )", "! ( {0} << {1} )")
    parts = []
    for index in range(operands):
        if index:
            parts.append(rng.choice(BINARY_OPERATORS))
        parts.append(rng.choice(shapes).format(rng.choice(leaves), rng.choice(leaves)))
    return " ".join(parts)


def parser_without_run_leaf(name: str):
    """The parser of ``grammars/<name>.ppeg`` with its OPERAND_RUN leaf matching nothing: each
    operand goes through the grammar's rules (to check what the leaf gives against)."""
    from parsimonious.grammar import Grammar

    from pegbind import pegcode
    from pegbind.peg import read_grammar

    lines = [line if not line.startswith("OPERAND_RUN ") else 'OPERAND_RUN = ~r"(?!)"'
             for line in read_grammar(name).splitlines()]
    return pegcode.Parser(compile(pegcode.source(Grammar("\n".join(lines))), f"<{name} without runs>", "exec"))
