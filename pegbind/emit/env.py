"""The one Jinja environment every backend and the layout probe render through.

Input: a backend name and optional user template folders (searched first, so
users can override a built-in template).  Output: a configured
:class:`jinja2.Environment`.  Templates hold loops and conditionals only; C ->
Cython/cffi/ctypes spelling lives in tested filters that each backend's
emitter module adds to the environment it renders with.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

import jinja2

from ..resources import templates_dir


def undef_lines(names: Iterable[str]) -> str:
    """``#undef`` lines for the macros that hide names generated C spells (``Module.hiding_macros``)."""
    return "".join(f"#undef {name}\n" for name in names)


def make_environment(extra_dirs: Iterable[str | Path] = ()) -> jinja2.Environment:
    """A strict environment over the user folders (first) and the built-in templates."""
    search = [str(Path(d)) for d in extra_dirs] + [str(templates_dir())]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["undef_lines"] = undef_lines
    return env
