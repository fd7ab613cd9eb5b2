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
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path


@functools.cache
def _package_files(paths: tuple[str, ...]) -> frozenset[str] | None:
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
    records = Path(os.environ.get("DPKG_ADMINDIR", "/var/lib/dpkg")) / "info"
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
