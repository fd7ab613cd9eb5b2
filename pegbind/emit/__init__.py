"""Emit: the binding model -> source files, rendered through the one Jinja environment.

Input: a :class:`~pegbind.passes.binding.BindingModel`, the config, a backend
name and optional user template folders (searched before the built-ins).
Output: files written under ``out_dir`` — deterministically, and only when
their bytes change (written to a temporary file, then ``os.replace``), so a
second run leaves every file and its mtime alone.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable

import importlib
from types import ModuleType

from ..config import BindingConfig
from ..diagnostics import Diagnostic, PegbindError
from ..passes.binding import BindingModel
from .env import make_environment

#: backend name -> the module under ``pegbind.emit`` that defines it.  Each such
#: module provides ``FILTERS`` (registered in the Jinja environment),
#: ``OUTPUTS`` ((template, output suffix) pairs, rendered in order) and
#: ``context(binding, config) -> dict`` (what its templates see; the config
#: says how the module finds its library: link time, ``load(path)``, tables).
#: A context's ``left_out`` entry lists, as warnings, what that backend cannot
#: express beyond what the passes already reported.
BACKEND_MODULES = {"cython": "cython", "cffi": "cffi_backend", "ctypes": "ctypes_backend"}


def backend_module(backend: str) -> ModuleType:
    """The emitter module of ``backend``; PegbindError for an unknown one."""
    if backend not in BACKEND_MODULES:
        raise PegbindError(f"backend {backend!r} has no templates (available: {', '.join(sorted(BACKEND_MODULES))})")
    return importlib.import_module(f".{BACKEND_MODULES[backend]}", __name__)


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` atomically unless it already holds exactly those bytes."""
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
    emitter = backend_module(backend)
    out_dir = Path(out_dir) if out_dir is not None else Path(config.output_dir)
    env = make_environment(template_dirs)
    env.filters.update(emitter.FILTERS)
    context = emitter.context(binding, config)
    # What this backend cannot express (e.g. __int128 in ctypes) is said, not dropped.
    if report is not None:
        for diagnostic in context.get("left_out", ()):
            report(diagnostic)
    paths = []
    for template, suffix in emitter.OUTPUTS:
        text = env.get_template(template).render(context)
        path = out_dir / f"{binding.name}{suffix}"
        write_if_changed(path, text)
        paths.append(path)
    return paths
