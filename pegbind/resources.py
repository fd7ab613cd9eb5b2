"""Locates the data pegbind ships: grammars, templates, runtime sources, its own headers and compiler data.

In the source tree (and in an editable install) the grammars and templates are
the top-level ``grammars/`` and ``templates/`` folders; in an installed wheel
they are the data packages ``pegbind/grammars`` and ``pegbind/templates``.  The
runtime sources are the ordinary package ``pegbind.runtime`` in both.
Everything that reads one of them goes through this module.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from .patterns import compiled

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
    from importlib import resources  # a layout other than these two: ask the import system

    try:
        found = Path(str(resources.files(f"pegbind.{folder}")))
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


def compilers_dir() -> Path:
    """What the compiler pegbind stands in for predefines and answers, one JSON file per target
    (written by scripts/compiler-data.py from the real compilers)."""
    return _PACKAGE_DIR / "data" / "compilers"


def target_names() -> list[str]:
    """The targets pegbind knows: one compiler data file each (``TARGETS`` in
    :mod:`pegbind.target` holds their data models), for the CLI's choices without that import."""
    return sorted(path.stem for path in compilers_dir().glob("*.json"))


def fallback_include_dir() -> Path:
    """pegbind's bundled C library headers, read only for a target with none installed here."""
    return _PACKAGE_DIR / "fallback-include"


@functools.cache
def read_grammar(name: str) -> str:
    """The text of ``grammars/<name>.ppeg``."""
    return (grammars_dir() / f"{name}.ppeg").read_text(encoding="utf-8")


#: ``# pegbind-paste: begin NAME`` / ``# pegbind-paste: end NAME``, each on a line of its own
_PASTE_MARKER = compiled(r"# pegbind-paste: (begin|end) (\w+)")


def paste_sections(source: str, where: str) -> dict[str, str]:
    """The sections of Python ``source`` marked for pasting: section name -> its text.

    A section is the lines between ``# pegbind-paste: begin NAME`` and
    ``# pegbind-paste: end NAME``, verbatim, without the last line's newline
    (so that a template line ``{{ ... }}`` ends where the section does).
    ValueError, located at ``where`` and a line, for markers that do not pair.
    """
    sections: dict[str, str] = {}
    current: tuple[str, int, list[str]] | None = None
    for number, line in enumerate(source.splitlines(), start=1):
        marker = _PASTE_MARKER.fullmatch(line)
        if marker is None:
            if current is not None:
                current[2].append(line)
            continue
        verb, name = marker.groups()
        if verb == "begin":
            if current is not None:
                raise ValueError(f"{where}:{number}: section {name!r} begins inside section {current[0]!r}")
            if name in sections:
                raise ValueError(f"{where}:{number}: section {name!r} is marked twice")
            current = (name, number, [])
        elif current is None or current[0] != name:
            raise ValueError(f"{where}:{number}: section {name!r} ends where it did not begin")
        else:
            sections[name] = "\n".join(current[2])
            current = None
    if current is not None:
        raise ValueError(f"{where}:{current[1]}: section {current[0]!r} has no end marker")
    return sections


@functools.cache
def runtime_sections(module: str) -> Mapping[str, str]:
    """The sections of ``pegbind/runtime/<module>.py`` marked for pasting (see :func:`paste_sections`).

    Templates paste them into generated modules, which must not import pegbind.
    """
    path = _PACKAGE_DIR / "runtime" / f"{module}.py"
    if path.is_file():
        source = path.read_text(encoding="utf-8")
    else:  # installed some other way (a zip): ask the import system
        from importlib import resources

        source = resources.files("pegbind.runtime").joinpath(f"{module}.py").read_text(encoding="utf-8")
    return MappingProxyType(paste_sections(source, f"pegbind/runtime/{module}.py"))
