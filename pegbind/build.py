"""Build: generated Cython sources -> an importable extension module.

Input: the :class:`~pegbind.config.BindingConfig` (headers, include and
library folders, libraries, defines, extra C sources) and the files written
by :func:`pegbind.emit.generate`.  Output: ``<name><EXT_SUFFIX>`` in
``out_dir``, linked against ``config.link`` with an rpath to each library
folder so it loads without ``LD_LIBRARY_PATH``.  Failures raise
:class:`~pegbind.diagnostics.BuildError` carrying the tool's own message.

Cython runs as ``python -m cython`` and the system C compiler (``$CC``, else
``cc``) is called directly: the flags are few, and a failure then shows the
compiler's text unfiltered.  A stamp file records a digest of the inputs and
the commands, so an unchanged binding is not compiled again.
"""
from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

from .config import BindingConfig
from .diagnostics import BuildError, Coord, Diagnostic


def _run(command: list[str], what: str) -> None:
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise BuildError(f"{what}: cannot run {command[0]!r}: {exc.strerror}") from None
    if result.returncode != 0:
        output = (result.stderr + result.stdout).strip()
        raise BuildError(_diagnostics(output, f"{what} failed ({shlex.join(command)})"))


def _diagnostics(output: str, headline: str) -> list[Diagnostic]:
    """The tool's ``file:line:col: message`` lines as diagnostics, after a headline with all the text."""
    found = [Diagnostic(None, f"{headline}:\n{output}")]
    for line in output.splitlines():
        parts = line.split(":", 3)
        if len(parts) == 4 and parts[1].strip().isdigit() and parts[2].strip().isdigit():
            found.append(Diagnostic(Coord(parts[0], int(parts[1]), int(parts[2])), parts[3].strip()))
    return found


def compiler_command(config: BindingConfig, c_file: Path, output: Path, include_dirs: list[Path]) -> list[str]:
    """The C compiler call that turns the Cython output into the extension."""
    compiler = shlex.split(os.environ.get("CC") or "cc")
    python_include = sysconfig.get_paths()["include"]
    command = [*compiler, "-shared", "-fPIC", "-O2", "-fno-strict-aliasing", "-w"]
    for folder in [*include_dirs, Path(python_include)]:
        command.append(f"-I{folder}")
    for name, value in config.defines.items():
        command.append(f"-D{name}" if value is None else f"-D{name}={value}")
    for name in config.undefines:
        command.append(f"-U{name}")
    command += [str(c_file), *(str(source) for source in config.sources)]
    for folder in config.library_dirs:
        command += [f"-L{folder}", f"-Wl,-rpath,{Path(folder).resolve()}"]
    command += [f"-l{library}" for library in config.link]
    command += ["-o", str(output)]
    return command


def build(config: BindingConfig, files: list[Path], out_dir: Path) -> Path:
    """Cythonize and compile ``files`` (the generated .pyx/.pxd/.pyi) into ``out_dir``; return the module path."""
    pyx = [Path(f) for f in files if str(f).endswith(".pyx")]
    if len(pyx) != 1:
        raise BuildError(f"expected one generated .pyx file among {[str(f) for f in files]}")
    source = pyx[0]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    c_file = out_dir / f"{config.name}.c"
    module = out_dir / f"{config.name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    # The generated code includes headers by file name: their folders come first.
    include_dirs = list(dict.fromkeys([*(Path(h).resolve().parent for h in config.headers), *config.include_dirs]))
    cython_command = [sys.executable, "-m", "cython", "-3", "-I", str(source.parent), "-o", str(c_file), str(source)]
    cc_command = compiler_command(config, c_file, module, include_dirs)

    digest = hashlib.sha256()
    for part in (cython_command, cc_command):
        digest.update("\0".join(part).encode())
    for path in [*files, *config.headers, *config.sources]:
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(str(path).encode())
    stamp = out_dir / f".{config.name}.build-stamp"
    if module.exists() and stamp.exists() and stamp.read_text() == digest.hexdigest():
        return module

    _run(cython_command, "cython")
    _run(cc_command, "C compiler")
    stamp.write_text(digest.hexdigest())
    return module
