"""Locates the data pegbind ships: grammars, templates and its own headers.

In the source tree (and in an editable install) these are the top-level
``grammars/`` and ``templates/`` folders; in an installed wheel they are the
data packages ``pegbind/grammars`` and ``pegbind/templates``.  Everything that
reads one of them goes through this module.
"""
from __future__ import annotations

import functools
from importlib import resources as _importlib_resources
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _locate(folder: str) -> Path:
    # Source tree or editable install: the folder stands beside the package.
    in_tree = _PACKAGE_DIR.parent / folder
    if in_tree.is_dir() and (_PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return in_tree
    # Installed wheel: setup.py maps the folder to the data package pegbind.<folder>.
    installed = _PACKAGE_DIR / folder
    if installed.is_dir():
        return installed
    try:
        found = Path(str(_importlib_resources.files(f"pegbind.{folder}")))
    except ModuleNotFoundError:
        found = None
    if found is not None and found.is_dir():
        return found
    raise FileNotFoundError(f"pegbind is installed without its {folder}/ folder")


@functools.cache
def grammars_dir() -> Path:
    """The folder holding the ``*.ppeg`` grammars."""
    return _locate("grammars")


@functools.cache
def templates_dir() -> Path:
    """The folder holding the built-in Jinja templates, one subfolder per backend."""
    return _locate("templates")


def standard_include_dir() -> Path:
    """pegbind's own freestanding headers (what a compiler ships: ``stddef.h``, ``stdint.h`` ...)."""
    return _PACKAGE_DIR / "include"


def fallback_include_dir() -> Path:
    """pegbind's bundled C library headers, read only for a target with none installed here."""
    return _PACKAGE_DIR / "fallback-include"


@functools.cache
def read_grammar(name: str) -> str:
    """The text of ``grammars/<name>.ppeg``."""
    return (grammars_dir() / f"{name}.ppeg").read_text(encoding="utf-8")
