"""Which installed package a header belongs to, where the system records it (Debian's dpkg).

Layer: infrastructure read by the preprocessor's include resolver
(:mod:`pegbind.preprocess.includes`), once per run, for the named headers
that lie in the system's folders.  In: header paths.  Out: every file of the
packages that own them, or None where nothing is recorded (no dpkg, or a
header installed by hand).

A library the system's package manager installed is exactly the files of its
package: libasound2-dev's ``sys/asoundlib.h`` and ``alsa/*.h``, but none of the
C library's ``sys/select.h`` beside it; libffi-dev's ``ffitarget.h``, which
``ffi.h`` includes with angle brackets from the same system folder; libssl-dev's
headers in ``/usr/include/openssl`` and in its multiarch twin.  Folder rules
can only guess that.  ``dpkg-query -S`` names the owners, and dpkg's own
record of each package's files lists them.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path


def _database() -> Path:
    return Path(os.environ.get("DPKG_ADMINDIR", "/var/lib/dpkg"))


@functools.cache
def _package_files(paths: tuple[str, ...]) -> frozenset[str] | None:
    """The answer of :func:`_ask_dpkg`, kept on disk while dpkg's database is unchanged: asking
    costs a process (80 ms), a run that reads the system's headers asks every time."""
    from .regen import cache_dir, tidy

    try:
        status = (_database() / "status").stat()
    except OSError:
        return _ask_dpkg(paths)
    folder = cache_dir()
    stamp = f"{_database()}\0{status.st_size}\0{status.st_mtime_ns}\0" + "\0".join(paths)
    entry = None if folder is None else folder / "dpkg" / f"{hashlib.sha256(stamp.encode()).hexdigest()}.json"
    if entry is not None:
        try:
            kept = json.loads(entry.read_text(encoding="utf-8"))
            os.utime(entry)  # used: the cache keeps what was used last (regen.tidy)
            return None if kept is None else frozenset(kept)
        except (OSError, ValueError):
            pass
    files = _ask_dpkg(paths)
    if entry is not None:
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle, scratch = tempfile.mkstemp(dir=entry.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(None if files is None else sorted(files), file)
            os.replace(scratch, entry)
            tidy()
        except OSError:
            pass  # an unwritable cache is passed over
    return files


def _ask_dpkg(paths: tuple[str, ...]) -> frozenset[str] | None:
    import subprocess  # here: a run that finds its answer in the cache starts no process

    query = shutil.which("dpkg-query")
    if query is None or not paths:
        return None
    try:
        # "pkg[:arch][, pkg2]: /path" per path found; the others are reported on stderr
        found = subprocess.run([query, "-S", *paths], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    owners: set[str] = set()
    for line in found.stdout.splitlines():
        names, separator, _path = line.rpartition(": ")
        if separator and not line.startswith(("diversion by", "local diversion")):
            owners.update(name.strip() for name in names.split(","))
    if not owners:
        return None
    records = _database() / "info"
    files: set[str] = set()
    for owner in owners:
        for record in (records / f"{owner}.list", records / f"{owner.partition(':')[0]}.list"):
            try:
                files.update(line for line in record.read_text(encoding="utf-8", errors="replace").splitlines() if line)
                break
            except OSError:
                continue
    return frozenset(files) or None


def package_files(paths: Sequence[str]) -> frozenset[str] | None:
    """Every file of the installed packages that own ``paths`` (absolute), or None when the
    system records no owner for any of them."""
    return _package_files(tuple(sorted(paths)))
