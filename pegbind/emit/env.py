"""The one Jinja environment every backend and the layout probe render through.

Input: a backend name and optional user template folders (searched first, so
users can override a built-in template).  Output: a configured
:class:`jinja2.Environment`.  Templates hold loops and conditionals only; C ->
Cython/cffi/ctypes spelling lives in the tested filters registered here.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Mapping

import jinja2

from ..resources import templates_dir

#: Filters available to every template; backends register theirs with :func:`register_filters`.
_FILTERS: dict[str, Callable] = {}


def register_filters(filters: Mapping[str, Callable]) -> None:
    """Add filters (name -> function) to every environment made afterwards."""
    _FILTERS.update(filters)


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
    env.filters.update(_FILTERS)
    return env
