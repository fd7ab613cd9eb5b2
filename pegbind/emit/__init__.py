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
from typing import Any, Iterable

from .. import __version__
from ..config import BindingConfig
from ..diagnostics import PegbindError
from ..model import RecordRef
from ..passes.binding import BindingModel
from . import cython as cython_filters
from .env import make_environment, register_filters

register_filters(cython_filters.FILTERS)

#: backend -> (template, output suffix) pairs, rendered in this order.
OUTPUTS: dict[str, tuple[tuple[str, str], ...]] = {
    "cython": (("cython/cython.pxd.jinja", ".pxd"), ("cython/cython.pyx.jinja", ".pyx"), ("cython/cython.pyi.jinja", ".pyi")),
}


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


def cython_context(binding: BindingModel) -> dict[str, Any]:
    """What the Cython templates see: the binding plus declaration lists in emission order."""
    module = binding.module
    classes = {r.record.key: r.py_name for r in binding.records}
    fields = {r.record.key: r.fields for r in binding.records}
    types = []
    for kind, key in binding.type_order:
        decl = module.get(kind, key)
        if kind == "typedef":
            target = decl.type  # type: ignore[union-attr]
            # ``typedef struct {...} name`` is declared by the record itself.
            if isinstance(target, RecordRef) and target.tag is None and target.key == key:
                continue
            if not cython_filters.cy_can_spell(target):
                continue
        elif kind == "enum" and not decl.members:  # type: ignore[union-attr]
            continue
        types.append((kind, decl))
    forward = [
        r for r in module.records if r.tag is not None and not r.is_opaque and ("record", r.key) in binding.type_order
    ]
    wrapped = {f.function.name for f in binding.functions}
    declared = [
        f for f in module.functions
        if (f.name in wrapped or f in binding.declared_only) and cython_filters.cy_can_spell(f.type)
    ]
    order = {key: index for index, (kind, key) in enumerate(binding.type_order) if kind == "record"}
    records = sorted(binding.records, key=lambda r: order.get(r.record.key, len(order)))
    aliases = [(alias, r.py_name) for r in records for alias in r.aliases]
    return {
        "binding": binding,
        "banner": cython_filters.banner(binding.headers, __version__),
        "headers": binding.headers,
        "types": types,
        "forward": forward,
        "fields": fields,
        "declared": declared,
        "classes": classes,
        "records": records,
        "aliases": aliases,
        "functions": binding.functions,
        "enums": binding.enums,
        "constants": binding.constants,
        "has_errors": any(f.error is not None for f in binding.functions),
    }


def generate(
    binding: BindingModel,
    config: BindingConfig,
    backend: str = "cython",
    out_dir: Path | None = None,
    template_dirs: Iterable[str | Path] = (),
) -> list[Path]:
    """Render ``backend``'s templates for ``binding`` into ``out_dir``; return the file paths."""
    if backend not in OUTPUTS:
        raise PegbindError(f"backend {backend!r} has no templates (available: {', '.join(sorted(OUTPUTS))})")
    out_dir = Path(out_dir) if out_dir is not None else Path(config.output_dir)
    env = make_environment(template_dirs)
    context = cython_context(binding)
    paths = []
    for template, suffix in OUTPUTS[backend]:
        text = env.get_template(template).render(context)
        path = out_dir / f"{binding.name}{suffix}"
        write_if_changed(path, text)
        paths.append(path)
    return paths
