"""Build: generated sources -> an importable module, per backend.

Input: the :class:`~pegbind.config.BindingConfig` (headers, include and
library folders, libraries, defines, extra C sources), the files written by
:func:`pegbind.emit.generate` and the backend that wrote them, whose build
step registered in :mod:`pegbind.backends` is one of the functions here.
Output: ``<name><EXT_SUFFIX>`` in ``out_dir``, linked against ``config.link``
with an rpath to each library folder so it loads without ``LD_LIBRARY_PATH``
(unless ``config.run_path`` is off, as the setuptools hook sets it).
Failures raise :class:`~pegbind.diagnostics.BuildError` carrying the tool's
own message.

Cython runs as ``python -m cython`` does, but with the cycle collector off
(:data:`CYTHON_MAIN`), and the system C compiler (``$CC``, else
``cc``) is called directly: the flags are few, and a failure then shows the
compiler's text unfiltered.  A stamp file records a digest of the inputs and
the commands, so an unchanged binding is not compiled again.

The cffi backend (``<name>_build.py`` + ``<name>.py``) is compiled by cffi
itself in API mode: the generated builder gives the ``FFI`` with its ``cdef``,
and :func:`build_cffi` adds the include/library options of the config and
calls ``compile``.  In ABI mode (``load = "dynamic"``) and for ctypes nothing
is compiled: the generated module carries the library names and folders of
the config (link time) or opens what ``load(path)`` is given.

The compiled modules refer to the library's functions weakly (the generated
C says ``#pragma weak``), so one the library at run time lacks fails when it
is called; :func:`link_arguments` keeps such weakly used libraries linked.
Every module built is imported once in a fresh interpreter
(:func:`check_import`) before the build counts as done.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from .backends import get_backend
from .config import BindingConfig
from .diagnostics import BuildError, Coord, Diagnostic
from .toolchain import include_spelling, is_gcc, system_compiler

#: what a build runs, and how long it took (``pegbind -v`` shows it)
log = logging.getLogger("pegbind.build")
#: what a build is running now (on a terminal, pegbind's status line shows it)
progress = logging.getLogger("pegbind.progress")


def _run(command: list[str], what: str, subject: Path) -> None:
    progress.info("%s: %s", what, Path(subject).name)
    started = time.perf_counter()
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise BuildError(f"{what}: cannot run {command[0]!r}: {exc.strerror}") from None
    log.info("%s: %s (%.2f s)", what, shlex.join(command), time.perf_counter() - started)
    if result.returncode != 0:
        output = (result.stderr + result.stdout).strip()
        raise BuildError(_diagnostics(output, f"{what} failed ({shlex.join(command)})"))


def _diagnostics(output: str, headline: str) -> list[Diagnostic]:
    """The tool's ``file:line:col: message`` lines as diagnostics, after a headline with all the text."""
    found = [Diagnostic(None, f"{headline}:\n{output}")]
    for line in output.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[1].strip().isdigit() and parts[2].strip().isdigit():
            message = parts[3].strip()
            severity: Literal["warning", "error"] = "warning" if message.startswith("warning: ") else "error"
            # the compiler's own "error: " or "warning: " is the diagnostic's severity, said once
            message = message.removeprefix(f"{severity}: ")
            found.append(Diagnostic(Coord(parts[0], int(parts[1]), int(parts[2])), message, severity))
    return found


def compiler_command(config: BindingConfig, c_file: Path, output: Path, include_dirs: list[Path]) -> list[str]:
    """The C compiler call that turns the Cython output into the extension.

    ``$CFLAGS`` come after pegbind's own flags, so they win (``-O0`` for a quick build); an
    optimisation level there replaces pegbind's whole choice, whose ``-f`` options a later
    ``-O`` would not undo (``CFLAGS=-O2`` is GCC's ``-O2``).
    """
    compiler = system_compiler()
    python_include = sysconfig.get_paths()["include"]
    flags = shlex.split(os.environ.get("CFLAGS", ""))
    level = [] if any(flag.startswith("-O") for flag in flags) else optimisation(compiler)
    command = [*compiler, "-shared", "-fPIC", *level, *parallel_code_generation(compiler, [*level, *flags]),
               "-fno-strict-aliasing", "-w", *flags, *HEADERS_AS_READ]
    for folder in [*include_dirs, Path(python_include)]:
        command.append(f"-I{folder}")
    for name, value in config.defines.items():
        command.append(f"-D{name}" if value is None else f"-D{name}={value}")
    for name in config.undefines:
        command.append(f"-U{name}")
    command += [str(c_file), *(str(source) for source in config.sources)]
    for folder in config.library_dirs:
        command += [f"-L{folder}", *([f"-Wl,-rpath,{Path(folder).resolve()}"] if config.run_path else [])]
    command += link_arguments(config)
    command += ["-o", str(output)]
    return command


#: What makes the compiler read the headers as pegbind did, its optimisation aside: pegbind's
#: predefined macros are the compiler's own without ``-O`` (pegbind/data/compilers), where
#: ``__OPTIMIZE__`` is undefined and ``__NO_INLINE__`` defined.  A header choosing between a
#: prototype and a ``static inline`` definition by them (libunistring's ``u8_mbtouc``, glibc's
#: extern inlines) must declare to the compiled module what the model holds: the prototype
#: pegbind bound, where the optimising compiler saw a static function it could not make weak.
HEADERS_AS_READ = ["-U__OPTIMIZE__", "-D__NO_INLINE__"]


def optimisation(compiler: list[str]) -> list[str]:
    """How much the C compiler optimises a Cython module: GCC's ``-O1`` with the three parts of
    ``-O2`` a wrapper's speed depends on, without its points-to analysis; else ``-O2``.

    A wrapper is fast when Cython's small helpers (argument conversions, allocating a record)
    are inlined into it, whole (``-finline-small-functions``) or their quick path
    (``-fpartial-inlining``), and when its calls in tail position are jumps
    (``-foptimize-sibling-calls``); the rest of a call's time is spent in CPython and the
    library, behind calls no analysis sees through (``-fno-tree-pta``).  Measured side by side
    (``benchmarks/optimisation_level.py``): ``-O1`` alone made the calls that return a record
    and a field's read a few percent slower than ``-O2``; with these options every call timed,
    the flagship's PKCS#11 calls included, is as fast as at ``-O2``, and GCC takes about a third
    less time over sqlite3.h's module.  Other compilers keep ``-O2``: the options are GCC's.
    """
    if compiler and is_gcc(tuple(compiler)):
        return ["-O1", "-finline-small-functions", "-fpartial-inlining", "-foptimize-sibling-calls", "-fno-tree-pta"]
    return ["-O2"]


def parallel_code_generation(compiler: list[str], flags: list[str]) -> list[str]:
    """``-flto=auto`` where the compiler is GCC and ``flags`` (the compile command's, in order)
    optimise; else nothing.

    A Cython module is one translation unit, which a compiler optimises on one core.  With
    ``-flto=auto`` GCC splits it into partitions after deciding what to inline across the whole unit,
    and optimises them in parallel, one process per core (or as many as a make jobserver grants):
    the build of sqlite3.h's binding went from 44 s to 26 s on 2 cores, at the same CPU time.
    Unoptimised (``-O0``, ``-Og``) there is nothing to share out, and the extra step costs a third
    more, so those builds go without.  ``-fno-lto`` in ``$CFLAGS`` turns it off.
    """
    levels = [flag for flag in flags if flag.startswith("-O")]
    if levels and levels[-1] in ("-O0", "-Og"):
        return []
    if [flag for flag in flags if flag.startswith(("-flto", "-fno-lto"))][-1:] == ["-fno-lto"]:
        return []
    return ["-flto=auto"] if compiler and is_gcc(tuple(compiler)) else []


def link_arguments(config: BindingConfig) -> list[str]:
    """``-lNAME`` for each library, kept as a dependency of the module even where the system's
    linker drops libraries only weakly referred to (``--as-needed``): the generated code refers
    to every function weakly, so that one the library lacks fails when called, not at import."""
    libraries = [f"-l{library}" for library in config.link]
    if libraries and sys.platform.startswith("linux"):
        return ["-Wl,--push-state,--no-as-needed", *libraries, "-Wl,--pop-state"]
    return libraries


def check_import(config: BindingConfig, out_dir: Path, built: Path | None = None) -> None:
    """Import the built module in a fresh interpreter: a build that cannot be imported is no success.

    Raises :class:`BuildError` with the error the import ended with (a
    library that cannot be opened, a symbol the loader cannot resolve ...).
    ``built``: the file the build made, which the import must find.
    """
    folder = str(Path(out_dir).resolve())
    progress.info("importing %s", config.name)
    # The module imported must be the one built, not one of the same name found first (a
    # built-in module, or another backend's build in the same folder: Python takes an
    # extension module there before a .py).
    wanted = os.path.realpath(built) if built is not None else None
    found = (f"os.path.realpath(f) == {wanted!r}" if wanted is not None
             else f"os.path.dirname(os.path.realpath(f)) == os.path.realpath({folder!r})")
    instead = f", not the one built ({wanted}): remove it, or build into another folder" if wanted else \
        ", not the one built"
    code = (f"import os, sys; sys.path.insert(0, {folder!r}); import {config.name} as m; "
            f"f = getattr(m, '__file__', None); "
            f"sys.exit(None if f and {found} "
            f"else 'ImportError: importing {config.name} found ' + (f or 'a built-in module') + {instead!r})")
    try:
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                                cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        raise BuildError(f"the built module {config.name} did not finish importing in 300 s") from None
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        raise BuildError(f"the built module {config.name} cannot be imported: {lines[-1] if lines else 'no message'}")


def build(config: BindingConfig, files: list[Path], out_dir: Path, backend: str | None = None) -> Path:
    """Build the generated ``files`` into ``out_dir``; return the path of the importable module.

    ``backend`` is the one that generated ``files`` (default: the config's
    only backend); its build step in :mod:`pegbind.backends` compiles them
    (Cython: cythonize and compile the .pyx; cffi: the out-of-line module).
    A backend without one (ctypes) has nothing to compile: the generated
    ``<name>.py`` is the module.
    """
    if backend is None:
        if len(config.backends) != 1:
            raise BuildError(f"which backend generated {[str(f) for f in files]}? the config names "
                             f"{', '.join(config.backends) or 'none'}: pass backend=")
        (backend,) = config.backends
    step = get_backend(backend).build
    if step is not None:
        return step(config, files, out_dir)
    modules = [Path(f) for f in files if Path(f).name == f"{config.name}.py"]
    if len(modules) != 1:
        raise BuildError(f"expected one generated {backend} module {config.name}.py among {[str(f) for f in files]}")
    return modules[0]


def _one(files: list[Path], suffix: str, what: str, name: str | None = None) -> Path:
    """The one file of ``files`` ending in ``suffix``; with ``name``, the one named ``name + suffix``
    (a module named ``x_build`` has a wrapper ``x_build.py`` beside its builder ``x_build_build.py``)."""
    found = [Path(f) for f in files if (Path(f).name == name + suffix if name else str(f).endswith(suffix))]
    if len(found) != 1:
        raise BuildError(f"expected one generated {what} among {[str(f) for f in files]}")
    return found[0]


def header_folders(config: BindingConfig) -> list[Path]:
    """The include folders of the generated C: the folders of the headers it includes by file
    name first (see :func:`pegbind.toolchain.include_spelling`), then the config's ``include_dirs``."""
    own = [include_spelling(h, config.include_dirs)[1] for h in config.headers]
    return list(dict.fromkeys([*(folder for folder in own if folder is not None), *config.include_dirs]))


def _builder(files: list[Path], config: BindingConfig) -> Any:
    """The generated cffi builder ``<name>_build.py``, loaded."""
    builder_file = _one(files, "_build.py", "cffi builder (_build.py)", config.name)
    spec = importlib.util.spec_from_file_location(f"_pegbind_builder_{config.name}", builder_file)
    if spec is None or spec.loader is None:
        raise BuildError(f"cannot load {builder_file}")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    return builder


def build_cffi(config: BindingConfig, files: list[Path], out_dir: Path) -> Path:
    """Compile the cffi out-of-line module ``_<name>_cffi`` from the generated ``<name>_build.py``."""
    builder_file = _one(files, "_build.py", "cffi builder (_build.py)", config.name)
    wrapper = _one(files, ".py", "cffi wrapper module (.py)", config.name)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    builder = _builder(files, config)
    if not getattr(builder, "API_MODE", True):
        return wrapper  # ABI mode: the wrapper dlopens the library itself
    options = {
        "include_dirs": [str(d) for d in header_folders(config)],
        "library_dirs": [str(Path(d).resolve()) for d in config.library_dirs],
        # after the objects, as libraries must be; see link_arguments
        "extra_link_args": [f"-Wl,-rpath,{Path(d).resolve()}" for d in config.library_dirs if config.run_path]
        + link_arguments(config),
        "extra_compile_args": ["-w", *HEADERS_AS_READ],
        "define_macros": [(name, value) for name, value in config.defines.items()],
        "undef_macros": list(config.undefines),
        "sources": [str(Path(s).resolve()) for s in config.sources],
    }
    digest = _digest([[json.dumps(options, sort_keys=True)]], [builder_file, *config.headers, *config.sources])
    stamp = out_dir / f".{config.name}.cffi-stamp"
    existing = sorted(out_dir.glob(f"{builder.MODULE}.*.so")) + sorted(out_dir.glob(f"{builder.MODULE}.*.pyd"))
    if existing and stamp.exists() and stamp.read_text() == digest:
        log.info("cffi: %s is up to date", builder.MODULE)
        return wrapper
    ffi = builder.make_ffi(**options)
    progress.info("cffi: %s", builder.MODULE)
    started = time.perf_counter()
    verbose = log.isEnabledFor(logging.INFO)
    with _output_captured() as captured:
        try:
            ffi.compile(tmpdir=str(out_dir), verbose=verbose)
            failure = None
        except Exception as exc:  # cffi raises VerificationError / distutils errors with the compiler's text
            failure = exc
    output = "".join(captured)
    if failure is not None:
        headline = f"cffi compile of {builder.MODULE} failed: {failure}"
        raise BuildError(_diagnostics(output, headline) if output else headline)
    if verbose:  # what ran, and what the compiler and linker said (the Cython build's -v shows its commands)
        sys.stderr.write(output)
    log.info("cffi: compiled %s (%.2f s)", builder.MODULE, time.perf_counter() - started)
    stamp.write_text(digest)
    return wrapper


@contextlib.contextmanager
def _output_captured() -> Iterator[list[str]]:
    """What is written to this process's stdout and stderr meanwhile, by it and by the tools it
    runs (distutils' compiler and linker write to the descriptors they inherit), kept aside: the
    block is given a list that holds the text once it ends.  As the Cython build, a cffi build
    that succeeds says nothing of the compiler's warnings (glibc's linker notes on functions it
    calls obsolete, naming the generated C); one that fails shows them."""
    captured: list[str] = []
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as held:
        saved = os.dup(1), os.dup(2)
        try:
            os.dup2(held.fileno(), 1)
            os.dup2(held.fileno(), 2)
            yield captured
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            held.seek(0)
            captured.append(held.read().decode(errors="replace"))

def _digest(parts: list[list[str]], paths: list[Path]) -> str:
    """A digest of commands and of the content of files (a missing file by its name)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update("\0".join(part).encode())
    for path in paths:
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(str(path).encode())
    return digest.hexdigest()


def _pyx(files: list[Path]) -> Path:
    return _one(files, ".pyx", ".pyx file")


# Cython marks the functions that run once, at import, with CYTHON_SMALL_CODE (GCC's "cold", which
# still optimises them).  The largest is the module's initialisation: every module-level statement of
# the .pyx in one function, about 30,000 lines for sqlite3.h, on which GCC's -O2 passes spent a third
# of the build (points-to analysis alone is superlinear in a function's size).  Unoptimised, it builds
# in a fraction of that time and the import takes as long as before.  Clang's attribute is "cold" too
# (it knows no "optimize"); other compilers keep Cython's own choice.
COLD_CODE_HINT = b"""\
#if defined(__GNUC__) && !defined(__clang__) && !defined(CYTHON_SMALL_CODE)
#define CYTHON_SMALL_CODE __attribute__((cold, optimize("O0")))
#endif
"""


# For complex types Cython includes <complex.h>, after the library's headers, whose macros complex,
# imaginary and I (C11 7.3.1) would then rename a member or parameter of that name in the code that
# follows (``p->I``).  A program may undefine them (7.3.1p7); Cython spells _Complex and _Complex_I.
_COMPLEX_INCLUDE = re.compile(rb"^([ \t]*)#include <complex\.h>\n", re.MULTILINE)
COMPLEX_UNDEFS = rb"\g<0>\1#undef complex\n\1#undef imaginary\n\1#undef I\n"
#: what _cythonize writes into Cython's C: a change to it is a change of every build's inputs
_C_EDITS = [COLD_CODE_HINT.decode(), COMPLEX_UNDEFS.decode()]


def _cythonize(command: list[str], files: list[Path], c_file: Path) -> None:
    """Run Cython, then put :data:`COLD_CODE_HINT` first in the C file it wrote, and
    :data:`COMPLEX_UNDEFS` after its ``#include <complex.h>``.

    The file of an earlier run goes first: with the hint before Cython's own first line, Cython
    would take it for a file it did not write, and refuse to replace it.
    """
    c_file.unlink(missing_ok=True)
    _run(command, "cython", _pyx(files))
    c_file.write_bytes(COLD_CODE_HINT + _COMPLEX_INCLUDE.sub(COMPLEX_UNDEFS, c_file.read_bytes()))


# What ``python -m cython`` runs, with Python's cycle collector off.  Translating a module, Cython
# holds its whole syntax tree, scopes and code writers alive, and the collector went through them
# again and again as they aged: about a quarter of the translation (sqlite3.h's module 4.2 -> 3.1 s,
# libxml2's parser.h 10.3 -> 6.7 s, the same C written).  The process ends with the translation;
# the cycles it leaves cost a tenth more memory at its peak (320 -> 337 MB, 454 -> 497 MB).
CYTHON_MAIN = "import gc; gc.disable(); from Cython.Compiler.Main import main; main(command_line=1)"


def _cython_command(files: list[Path], c_file: Path, module: str | None = None) -> list[str]:
    source = _pyx(files)
    # --module-name: the module's name inside a package, which Cython cannot guess from a
    # generated folder without the package's __init__.py
    named = ["--module-name", module] if module else []
    return [sys.executable, "-c", CYTHON_MAIN, "-3", *named, "-I", str(source.parent), "-o", str(c_file), str(source)]


def cython_c_source(config: BindingConfig, files: list[Path], out_dir: Path, module: str) -> Path:
    """Cythonize the generated .pyx into ``out_dir/<name>.c`` for the module called ``module``; the C
    file is left as it is when neither the Cython sources nor the command changed (a stamp beside it)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    c_file = out_dir / f"{config.name}.c"
    package = module.split(".")[:-1]
    if package:
        # Cython finds a module's own .pxd by the module's full name: the sources go into
        # their package's folders, each marked a package by an empty __init__.pxd
        staged = out_dir / "package"
        folder = staged.joinpath(*package)
        folder.mkdir(parents=True, exist_ok=True)
        for depth in range(1, len(package) + 1):
            staged.joinpath(*package[:depth], "__init__.pxd").touch()
        for file in files:
            if Path(file).suffix in (".pyx", ".pxd"):
                shutil.copyfile(file, folder / Path(file).name)
        files = [folder / Path(file).name if Path(file).suffix in (".pyx", ".pxd") else file for file in files]
    command = _cython_command(files, c_file, module)
    digest = _digest([command, _C_EDITS], list(files))
    stamp = out_dir / f".{config.name}.cython-stamp"
    if c_file.exists() and stamp.exists() and stamp.read_text() == digest:
        log.info("cython: %s is up to date", c_file.name)
        return c_file
    _cythonize(command, files, c_file)
    stamp.write_text(digest)
    return c_file


def cffi_c_source(config: BindingConfig, files: list[Path], out_dir: Path, module: str) -> Path:
    """The C of the cffi module ``module`` (API mode), written by cffi into ``out_dir/<leaf>.c``;
    the file is rewritten only when its text changes, so an unchanged binding is not compiled again."""
    builder = _builder(files, config)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    c_file = out_dir / f"{module.rpartition('.')[2]}.c"
    with tempfile.TemporaryDirectory(dir=out_dir) as scratch:
        written = Path(scratch) / c_file.name
        builder.make_ffi(module=module).emit_c_code(str(written))
        text = written.read_bytes()
    if not c_file.exists() or c_file.read_bytes() != text:
        c_file.write_bytes(text)
    return c_file


def build_cython(config: BindingConfig, files: list[Path], out_dir: Path) -> Path:
    """Cythonize and compile ``files`` (the generated .pyx/.pxd/.pyi) into ``out_dir``; return the module path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    c_file = out_dir / f"{config.name}.c"
    module = out_dir / f"{config.name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    # The generated code includes headers by file name: their folders come first.
    cython_command = _cython_command(files, c_file)
    cc_command = compiler_command(config, c_file, module, header_folders(config))
    digest = _digest([cython_command, _C_EDITS, cc_command],
                     [*files, *config.headers, *config.sources])
    stamp = out_dir / f".{config.name}.build-stamp"
    if module.exists() and stamp.exists() and stamp.read_text() == digest:
        log.info("cython: %s is up to date", module.name)
        return module

    _cythonize(cython_command, files, c_file)
    _run(cc_command, "C compiler", c_file)
    stamp.write_text(digest)
    return module
