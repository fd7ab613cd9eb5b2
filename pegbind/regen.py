"""The regeneration cache: ``generate`` and ``build`` with nothing changed answer from disk.

In: what a run depends on -- the command and its settings (the whole config,
the backends, the output folder, the environment a build reads), pegbind's own
files, and, recorded by the run itself, every file it read (headers, what they
included, the config file, the C sources) and every folder it searched.
Out: the files the run wrote and the warnings it gave, or nothing (a miss).

An entry is found by a digest of the settings and pegbind's own files; it is
valid while each file read has the same content (size and modification time
first, the SHA-256 when they differ), each folder searched has the same
modification time (a header added or removed changes it), and each file the run
wrote is still there with the content it was given (judged as a file read is).
Entries are written whole and renamed into place, so a concurrent run sees an
old entry or a new one, never half of one.  They live in the cache folder the grammars use
(``$PEGBIND_CACHE_DIR`` ...); an unreadable cache is a miss, never an error.

Facts a run would otherwise work out from files every time (the feature macros
Python's ``pyconfig.h`` defines, the symbols a library defines) are kept the
same way, each holding its value, valid while the files it was worked out
from are unchanged (:func:`recall`, :func:`remember`).

This module imports only the standard library: a hit must cost less than the
imports of a run.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: the environment variables every run reads: the compiler (whose folders are searched, and
#: where PATH finds it) and the package database (which headers are a package's)
ENVIRONMENT = ("CC", "PATH", "DPKG_ADMINDIR")
#: and those a build reads besides: the compiler's flags
BUILD_ENVIRONMENT = ("CFLAGS", "LDFLAGS", "CPPFLAGS")
#: bumped when what an entry holds changes
FORMAT = 1
#: the most recently used files kept in each folder of the cache (entries of runs and facts,
#: compiled templates ...), and how long unused (seconds) a file is kept at all
KEEP, UNUSED = 500, 30 * 24 * 3600
#: the most recently used compiled parsers kept of each grammar (one per text of the grammar,
#: Python version and parser writer: other pegbind versions, other Pythons, edited grammars)
GRAMMAR_VERSIONS = 4
#: how often the cache folder is looked through (seconds): a look stats every file
PRUNE_EVERY = 24 * 3600


def cache_dir() -> Path | None:
    """pegbind's cache folder, or None when caching is off (an empty ``PEGBIND_CACHE_DIR``)."""
    environ = os.environ
    return _cache_dir(environ.get("PEGBIND_CACHE_DIR"), environ.get("XDG_CACHE_HOME"), environ.get("HOME"))


@functools.lru_cache(maxsize=8)
def _cache_dir(configured: str | None, base: str | None, home: str | None) -> Path | None:
    """:func:`cache_dir` for these values of the variables it reads (a run asks some eighty
    times, each asking the home folder a path again)."""
    if configured is not None:
        return Path(configured) if configured else None
    if base:
        return Path(base) / "pegbind"
    try:
        return Path.home() / ".cache" / "pegbind"
    except RuntimeError:  # no home directory to be found
        return None


def _digest(path: str | Path) -> str:
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def _own_files() -> Iterable[str]:
    """pegbind's sources, templates, grammars and data: a change to any is a change of pegbind."""
    package = Path(__file__).resolve().parent
    roots = [package]
    for name in ("templates", "grammars"):  # beside the package in a checkout, inside it when installed
        roots.append(package.parent / name)
    for root in roots:
        if not root.is_dir():
            continue
        for folder, _, files in os.walk(root):
            if "__pycache__" in folder:
                continue
            for name in files:
                if not name.endswith((".pyc", ".so")):
                    yield os.path.join(folder, name)


@functools.cache
def _own_stamp() -> str:
    """A digest of this pegbind and this Python: the path, size and modification time of each of
    pegbind's own files, worked out once per process (they do not change under a run)."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0{sys.executable}".encode())
    for path in sorted(_own_files()):
        try:
            stat = os.stat(path)
        except OSError:
            continue
        digest.update(f"\0{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def key(command: str, settings: object) -> str:
    """The entry name for ``command`` run with ``settings`` (anything with a stable repr) by
    this pegbind and this Python."""
    # the working folder too: the settings' relative paths, and the paths printed, depend on it
    digest = hashlib.sha256(f"{_own_stamp()}\0{command}\0{settings!r}\0{os.getcwd()}".encode())
    for name in ENVIRONMENT + (BUILD_ENVIRONMENT if command == "build" else ()):
        digest.update(f"\0{name}={os.environ.get(name)}".encode())
    return digest.hexdigest()


def fact_key(fact: str, subject: object) -> str:
    """The entry name for a ``fact`` pegbind works out about ``subject`` (anything with a stable
    repr) from files alone: unlike :func:`key`, the working folder and the environment do not
    enter it."""
    return hashlib.sha256(f"{_own_stamp()}\0{fact}\0{subject!r}".encode()).hexdigest()


def _entry_path(name: str, kind: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / kind / f"{name}.json"


#: the SHA-256 of files as this process found them: (path, size, modification time) -> digest,
#: from the entries it found valid and the records it made
_known_digests: dict[tuple[str, int, int], str] = {}


def _file_record(path: str) -> list[object]:
    """[path, size, modification time, SHA-256] of a file as it is now.

    A file whose size and modification time are those a valid entry recorded
    is taken to hold what it held then, as :func:`_unchanged` takes it: its
    digest is that entry's, not worked out again.  The libraries a binding
    links are read for their symbols, a fact kept in an entry of its own, and
    hashing them again for each run's entry took 4.5 ms of sqlite3.h's
    ``generate`` (the C library, libm, the loader and libsqlite3).
    """
    stat = os.stat(path)
    key = (path, stat.st_size, stat.st_mtime_ns)
    digest = _known_digests.get(key)
    if digest is None:
        digest = _known_digests[key] = _digest(path)
    return [path, stat.st_size, stat.st_mtime_ns, digest]


def _unchanged(record: list[object]) -> bool:
    path, size, mtime, digest = record
    try:
        stat = os.stat(str(path))
    except OSError:
        return False
    if stat.st_size != size:
        return False
    return stat.st_mtime_ns == mtime or _digest(str(path)) == digest


def _valid_entry(name: str, kind: str) -> dict[str, Any] | None:
    """The entry ``name`` of ``kind``, if nothing it depends on has changed since it was stored."""
    path = _entry_path(name, kind)
    if path is None:
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            return None
        for folder, mtime in entry["folders"]:
            try:
                if os.stat(folder).st_mtime_ns != mtime:
                    return None
            except FileNotFoundError:
                if mtime is not None:
                    return None
        if not all(_unchanged(record) for record in entry["read"]):
            return None
        for path_read, size, mtime, digest in entry["read"]:
            _known_digests.setdefault((str(path_read), size, mtime), str(digest))
        # what the run wrote: still there, as it was written (judged as a file read is: its size
        # and time, its content where the time changed; hashing 1.2 MB of sqlite3.h's module
        # again was a twentieth of the answer)
        if not all(_unchanged(record) for record in entry["wrote"]):
            return None
        os.utime(path)  # used: the pruning in store() goes by the time of last use
        return entry
    except (OSError, ValueError, KeyError, TypeError):
        return None


def lookup(name: str) -> tuple[list[str], list[str]] | None:
    """(what the run printed, the warnings it gave) of the run the entry ``name`` recorded, if
    nothing it depends on has changed since; else None (facts: see :func:`recall`)."""
    entry = _valid_entry(name, "runs")
    try:
        return None if entry is None else ([str(line) for line in entry["printed"]],
                                           [str(line) for line in entry["warnings"]])
    except (KeyError, TypeError):
        return None


def recall(name: str, kind: str = "facts") -> Any:
    """The value a fact's entry ``name`` holds (see :func:`remember`), if none of the files and
    folders it was worked out from has changed since; else None."""
    entry = _valid_entry(name, kind)
    return None if entry is None else entry.get("value")


def remember(name: str, value: Any, read: Iterable[str | Path], folders: Iterable[str | Path] = (),
             kind: str = "facts") -> None:
    """Keep ``value`` (anything JSON holds) as the fact ``name`` (see :func:`fact_key`), worked
    out from the files ``read`` and the ``folders`` searched: a fact pegbind would otherwise
    work out on every run, such as Python's feature macros or a library's symbols."""
    store(name, read, folders, [], [], [], kind, value)


def store(name: str, read: Iterable[str | Path], folders: Iterable[str | Path], wrote: Iterable[str | Path],
          printed: Iterable[str], warnings: Iterable[str], kind: str = "runs", value: Any = None) -> None:
    """Record a run: the files it ``read`` and ``wrote``, the ``folders`` it searched, what it
    ``printed`` and the ``warnings`` it gave (``kind``, ``value``: see :func:`lookup` and
    :func:`remember`).  A cache that cannot be written is passed over."""
    path = _entry_path(name, kind)
    if path is None:
        return
    try:
        folder_records = []
        for folder in dict.fromkeys(str(f) for f in folders):
            try:
                folder_records.append([folder, os.stat(folder).st_mtime_ns])
            except FileNotFoundError:
                folder_records.append([folder, None])
        entry = {
            "format": FORMAT,
            "read": [_file_record(str(p)) for p in dict.fromkeys(str(p) for p in read)],
            "folders": folder_records,
            "wrote": [_file_record(p) for p in dict.fromkeys(str(p) for p in wrote)],
            "printed": list(printed),
            "warnings": list(warnings),
            "value": value,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, scratch = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(entry, file)
        os.replace(scratch, path)
    except OSError:
        return
    tidy()


#: the folders of the cache folder that pegbind writes, besides ``templates-*`` (only these and
#: pegbind's own files there are looked through: the folder may be shared)
_FOLDERS = frozenset({"runs", "facts", "dpkg"})


def _scratch(name: str, kind: str) -> bool:
    """Whether ``name`` is a writer's temporary file for a file ending in ``kind``."""
    return name.startswith(".") and kind + "." in name and name.endswith(".tmp")


def tidy() -> None:
    """Keep the cache folder within bounds; done once in :data:`PRUNE_EVERY`, which a marker
    file's time records (thousands of files take a tenth of a second to look at).

    Every writer into the folder leaves files a later run may not want: an entry
    per run and fact (one-off output folders, edited headers), a compiled parser
    per grammar text and Python (:mod:`pegbind.peg`), a folder of compiled
    templates per pegbind and Jinja version (:mod:`pegbind.emit.env`, a file per
    template path: each user template folder adds its own), dpkg's answers per
    state of its database (:mod:`pegbind.packages`).  A file's modification time
    is its last use (a reader that finds it valid touches it), so of each
    folder's files those unused for :data:`UNUSED` go and, past the :data:`KEEP`
    most recently used, the rest; a folder left empty goes; of each grammar's
    parsers, the :data:`GRAMMAR_VERSIONS` most recently used stay.  A temporary
    file a writer left (it stopped half-way) goes after a day.  What another
    process removes while a run needs it is a miss there, and made again.
    """
    folder = cache_dir()
    if folder is None:
        return
    marker = folder / ".tidied"
    now = time.time()
    with contextlib.suppress(OSError):
        if marker.stat().st_mtime > now - PRUNE_EVERY:
            return
    try:
        marker.touch()
        with os.scandir(folder) as listing:
            found = list(listing)
    except OSError:
        return  # an unwritable cache is passed over
    parsers: dict[str, list[tuple[float, str]]] = {}
    for entry in found:
        name = entry.name
        with contextlib.suppress(OSError):
            if name in _FOLDERS or name.startswith("templates-"):
                if entry.is_dir(follow_symlinks=False):
                    _keep_recent(entry.path, now)
            elif name.endswith(".parser.marshal"):
                parsers.setdefault(name.partition("-")[0], []).append((entry.stat().st_mtime, entry.path))
            elif _scratch(name, ".parser.marshal") and entry.stat().st_mtime < now - PRUNE_EVERY:
                os.unlink(entry.path)
    for versions in parsers.values():
        for _, path in sorted(versions, reverse=True)[GRAMMAR_VERSIONS:]:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _keep_recent(folder: str, now: float) -> None:
    """Of ``folder``'s files, remove those unused for :data:`UNUSED` and those past the
    :data:`KEEP` most recently used; and the folder itself if that empties it."""
    timed = []
    with os.scandir(folder) as listing:
        for entry in listing:
            with contextlib.suppress(OSError):
                if not entry.is_file(follow_symlinks=False):
                    continue
                if entry.name.endswith(".tmp"):  # a writer's scratch file
                    if entry.stat().st_mtime < now - PRUNE_EVERY:
                        os.unlink(entry.path)
                elif not entry.name.startswith("."):
                    timed.append((entry.stat().st_mtime, entry.path))
    timed.sort(reverse=True)
    for index, (used, path) in enumerate(timed):
        if index >= KEEP or used < now - UNUSED:
            with contextlib.suppress(OSError):
                os.unlink(path)
    with contextlib.suppress(OSError):
        os.rmdir(folder)  # only if now empty
