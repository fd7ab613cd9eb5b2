"""The one Jinja environment every backend and the layout probe render through.

Input: a backend name and optional user template folders (searched first, so
users can override a built-in template).  Output: a configured
:class:`jinja2.Environment`.  Templates hold loops and conditionals only; C ->
Cython/cffi/ctypes spelling lives in tested filters that each backend's
emitter module adds to the environment it renders with, and code generated
modules carry verbatim lives in real source (``pegbind/runtime``), offered to
every template as a global.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

import jinja2

from ..patterns import compiled
from ..regen import cache_dir
from ..resources import runtime_sections, templates_dir


def undef_lines(names: Iterable[str]) -> str:
    """``#undef`` lines for the macros that hide names generated C spells (``Module.hiding_macros``)."""
    return "".join(f"#undef {name}\n" for name in names)


def weak_lines(names: Iterable[str]) -> str:
    """``#pragma weak`` for the functions a module calls, where the object format has weak symbols (ELF).

    A function the library at run time does not define (another version, a
    build without it) then resolves to NULL instead of failing the whole
    module's import; the module checks for that and raises when it is called.
    """
    pragmas = "".join(f"#pragma weak {name}\n" for name in names)
    return f"#if defined(__ELF__)\n{pragmas}#endif\n" if pragmas else ""


#: a function defined at the top level of a runtime section: ``def`` in its first column
_TOP_LEVEL_DEF = compiled(r"^def\s+([A-Za-z_]\w*)", re.MULTILINE)


@functools.cache
def defined_functions(source: str) -> tuple[str, ...]:
    """The names of the functions Python ``source`` (a section of ``pegbind/runtime``) defines at
    its top level.  The sections are linted source whose top-level code starts in the first
    column, so a line beginning with ``def`` defines one (``ast`` gives the same, a test checks,
    at the cost of a parse and its import in every run)."""
    return tuple(_TOP_LEVEL_DEF.findall(source))


@functools.cache
def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Jinja's compiled templates, kept in pegbind's cache folder: compiling the templates took
    a third of a small binding's ``generate``.  Jinja checks each entry against its template's
    source (and the Python version); the folder's name covers what it does not check, this
    environment's settings (this file) and Jinja's version."""
    folder = cache_dir()
    if folder is None:
        return None
    settings = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()).hexdigest()[:16]
    try:
        (folder / f"templates-{settings}").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # an unwritable cache is passed over
    return _BytecodeCache(str(folder / f"templates-{settings}"))


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates in a folder, whose files' times are their last use:
    the cache folder keeps the most recently used (:func:`pegbind.regen.tidy`)."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        super().load_bytecode(bucket)
        if bucket.code is not None:
            with contextlib.suppress(OSError):
                os.utime(os.path.join(self.directory, self.pattern % (bucket.key,)))


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
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["undef_lines"] = undef_lines
    env.filters["weak_lines"] = weak_lines
    env.filters["defined_functions"] = defined_functions
    # The Python the ctypes and cffi modules share, by section of pegbind/runtime/pyffi.py.
    env.globals["ffi_runtime"] = runtime_sections("pyffi")
    return env
