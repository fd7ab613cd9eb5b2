"""Regular expressions compiled once per Python and kept on disk.

In: a pattern and its flags.  Out: the compiled :class:`re.Pattern`, the
same object ``re.compile`` gives (``==`` holds: same pattern, flags and code).

``re.compile`` runs a parser and a compiler written in Python before the
engine gets its code: for the patterns a run of pegbind compiles (the
grammars' leaves, the lexer's alternation of every token, the shapes the
walkers match), about 10 ms of every ``generate``, a thirtieth of sqlite3.h's.
The engine's code is a list of integers that depends only on the pattern,
the flags and the Python that compiled it, so it is kept, with the group
names, in one file of pegbind's cache folder (see :func:`pegbind.regen.cache_dir`)
named by the Python's version and the engine's own version stamp; a later
run hands it straight to the engine.

Only the standard library's engine is used, and its compiler's internals
(``re._parser``, ``re._compiler``, ``_sre.compile``) only to get the code: a
pattern whose code, handed to the engine, does not give what ``re.compile``
gives is not kept, and anything unexpected (a Python whose internals differ,
an unreadable or foreign file) falls back to ``re.compile``.  A missing,
unwritable or disabled cache folder only costs the time.
"""
from __future__ import annotations

import contextlib
import functools
import marshal
import os
import re
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Any

from .regen import cache_dir

try:  # the engine's own compiler, whose steps re.compile runs (Python 3.11 and later)
    import _sre  # type: ignore[import-not-found]
    from re import _compiler, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10 spells them sre_compile and sre_parse
    _sre = _compiler = _parser = None

#: (pattern, flags) -> (flags, code as bytes, groups, group index, index group)
_Entry = tuple[int, bytes, int, dict[str, int], tuple[Any, ...]]

#: what this process compiled or read: (pattern, flags) -> the compiled pattern
_compiled: dict[tuple[str, int], re.Pattern[str]] = {}
#: the kept entries, read at the first call; None until then
_kept: dict[tuple[str, int], _Entry] | None = None


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the kept code when a run of this Python compiled it before."""
    flags = int(flags)  # a RegexFlag is kept as the number it is
    found = _compiled.get((pattern, flags))
    if found is None:
        found = _compiled[pattern, flags] = _from_kept(pattern, flags)
    return found


def _store_path() -> str | None:
    return _store_path_in(cache_dir())


@functools.lru_cache(maxsize=8)
def _store_path_in(folder: Path | None) -> str | None:
    if folder is None or _sre is None:
        return None
    version = "".join(c if c.isalnum() else "-" for c in sys.version.split()[0])
    implementation = sys.implementation.cache_tag or sys.implementation.name
    return str(folder / f"patterns-{implementation}-{version}-{_sre.MAGIC}-{_sre.CODESIZE}.marshal")


def _read(path: str) -> dict[tuple[str, int], _Entry]:
    try:
        with open(path, "rb") as stream:
            entries = marshal.loads(stream.read())
    except Exception:  # missing, truncated or foreign: compile afresh
        return {}
    return entries if isinstance(entries, dict) else {}


def _from_kept(pattern: str, flags: int) -> re.Pattern[str]:
    global _kept
    path = _store_path()
    if path is None:
        return re.compile(pattern, flags)
    if _kept is None:
        _kept = _read(path)
    entry = _kept.get((pattern, flags))
    if entry is not None:
        try:
            return _engine(pattern, entry)
        except Exception:  # not what this engine takes after all: compile it as re does
            pass
    made = re.compile(pattern, flags)
    entry = _code(pattern, flags)
    try:
        same = entry is not None and _engine(pattern, entry) == made
    except Exception:  # an engine that takes its code otherwise: nothing is kept
        same = False
    if entry is None or not same:
        return made
    _kept[pattern, flags] = entry
    _write(path, (pattern, flags), entry)
    return made


def _engine(pattern: str, entry: _Entry) -> re.Pattern[str]:
    flags, code, groups, groupindex, indexgroup = entry
    words = array("I" if _sre.CODESIZE == 4 else "H")
    words.frombytes(code)
    return _sre.compile(pattern, flags, words.tolist(), groups, groupindex, indexgroup)


def _code(pattern: str, flags: int) -> _Entry | None:
    """What ``re._compiler.compile`` hands the engine for ``pattern``, or None where its steps are not there."""
    try:
        parsed = _parser.parse(pattern, flags)
        words = array("I" if _sre.CODESIZE == 4 else "H", _compiler._code(parsed, flags))
        state = parsed.state
        indexgroup: list[str | None] = [None] * state.groups
        for name, index in state.groupdict.items():
            indexgroup[index] = name
        return flags | state.flags, words.tobytes(), state.groups - 1, dict(state.groupdict), tuple(indexgroup)
    except Exception:
        return None


def _write(path: str, key: tuple[str, int], entry: _Entry) -> None:
    """Add one entry to the file, keeping what other runs added since it was read; written whole
    and renamed into place, so a concurrent run reads an old file or a new one, never half."""
    entries = _read(path)
    entries[key] = entry
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    except OSError:
        return
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(marshal.dumps(entries))
        os.replace(temporary, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
