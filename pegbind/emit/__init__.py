"""Emit: the binding model -> source files, rendered through the one Jinja environment.

Input: a :class:`~pegbind.passes.binding.BindingModel`, the config, a backend
name (its templates, filters and context come from :mod:`pegbind.backends`)
and optional user template folders (searched before the built-ins).
Output: files written under ``out_dir`` — deterministically, and only when
their bytes change (written to a temporary file, then ``os.replace``), so a
second run leaves every file and its mtime alone.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from ..backends import get_backend
from ..config import BindingConfig
from ..diagnostics import Diagnostic
from ..passes.binding import BindingModel
from .env import make_environment


def _umask() -> int:
    mask = os.umask(0o022)  # reading it means setting it: put it back at once
    os.umask(mask)
    return mask


#: the mode a new file gets from open() under this process's umask (a temporary file's is 0600)
_FILE_MODE = 0o666 & ~_umask()


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically unless it already holds exactly those bytes; the
    file's mode is what the umask gives a new file, as for any file a command writes."""
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temp, _FILE_MODE)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return True


def generate(
    binding: BindingModel,
    config: BindingConfig,
    backend: str = "cython",
    out_dir: Path | None = None,
    template_dirs: Iterable[str | Path] = (),
    report: Callable[[Diagnostic], None] | None = None,
) -> list[Path]:
    """Render ``backend``'s templates for ``binding`` into ``out_dir``; return the file paths."""
    chosen = get_backend(backend)
    out_dir = Path(out_dir) if out_dir is not None else Path(config.output_dir)
    env = make_environment(template_dirs)
    env.filters.update(chosen.filters)
    context = chosen.context(binding, config)
    # What this backend cannot express (e.g. __int128 in ctypes) is said, not dropped.
    if report is not None:
        for diagnostic in context.get("left_out", ()):
            report(diagnostic)
    paths = []
    for template, suffix in chosen.outputs:
        text = env.get_template(template).render(context)
        path = out_dir / f"{binding.name}{suffix}"
        write_if_changed(path, text)
        paths.append(path)
    return paths
