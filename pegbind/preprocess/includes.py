"""Preprocessing layer, step 5: where ``#include`` finds a file (C11 6.10.2), and whose it is.

In: the header name as written, the including file, the -I directories, the
named headers, the target and the ``bind_headers`` globs.  Out: the path to
open (as a compiler would spell it), the position in the search chain (for
``#include_next``), and the file's origin:

* ``"user"`` — the library being bound, whose declarations the binding
  exposes: the named headers; every file under their folders and under the
  -I folders (unless such a folder is a system folder itself, as
  ``/usr/include`` is for ``zlib.h``); the same sub-folder under any other
  system folder (``openssl/`` is split between ``/usr/include`` and its
  multiarch twin); files a library file includes with quotes from its own
  folder (zlib's ``"zconf.h"``); and any file outside the known folders;
* ``"standard"`` — pegbind's own headers (``pegbind/include``);
* ``"system"`` — what the C library and the system's other packages provide.

``bind_headers`` globs, matched against a file's real path in order (the last
match wins; ``!`` in front takes a file out; a glob that does not start with
``/`` or ``*`` matches the end of the path), widen or narrow the default.

Search order, as GCC: ``"x.h"`` first in the including file's folder, then like
``<x.h>``: the -I folders, pegbind's standard headers, the target's system folders.
"""
from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..resources import standard_include_dir

# Multiarch folder of each target on Debian-style systems.
_MULTIARCH = {
    "linux-x86_64": "x86_64-linux-gnu",
    "linux-aarch64": "aarch64-linux-gnu",
    "linux-i386": "i386-linux-gnu",
}


def system_include_dirs(target: str) -> list[str]:
    """The target's system folders, in search order (only existing ones)."""
    if target == "linux-x86_64":
        candidates = ["/usr/local/include", "/usr/include/x86_64-linux-gnu", "/usr/include"]
    else:
        candidates = ["/usr/include"]
        multiarch = _MULTIARCH.get(target)
        if multiarch:
            candidates.insert(0, f"/usr/include/{multiarch}")
    return [d for d in candidates if os.path.isdir(d)]


@dataclass(frozen=True, slots=True)
class SearchDir:
    path: str
    origin: str  #: origin of the files found there


def _under(path: str, folder: str) -> bool:
    """Whether the real path ``path`` is ``folder`` or lies inside it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _glob_pattern(glob: str) -> str:
    """A ``bind_headers`` glob as an fnmatch pattern over absolute real paths."""
    if glob.startswith(("/", "*")):
        return glob
    return "*/" + glob


@dataclass
class IncludeResolver:
    """The search chain of one run and the origin of every file it hands out."""

    user_dirs: Sequence[str]
    target: str
    #: the headers named on the command line or in the config
    headers: Sequence[str] = ()
    #: ``bind_headers``: globs that widen (or, with ``!``, narrow) what is the library's
    bind_globs: Sequence[str] = ()
    chain: list[SearchDir] = field(init=False)
    _user_files: set[str] = field(default_factory=set)  # real paths that are the library's by how they were reached
    _library_dirs: list[str] = field(init=False)
    _namespaces: list[str] = field(init=False)  # folders relative to a system folder
    _exists: dict[str, bool] = field(default_factory=dict)
    _origins: dict[str, str] = field(default_factory=dict)  # spelling -> origin

    def __post_init__(self) -> None:
        self.chain = [SearchDir(str(d), "user") for d in self.user_dirs]
        self.chain.append(SearchDir(str(standard_include_dir()), "standard"))
        self.chain.extend(SearchDir(d, "system") for d in system_include_dirs(self.target))
        self._standard = [os.path.realpath(standard_include_dir())]
        self._system = [os.path.realpath(e.path) for e in self.chain if e.origin == "system"]
        roots = {*self._standard, *self._system}
        folders = [os.path.dirname(os.path.realpath(h)) for h in self.headers]
        folders += [os.path.realpath(d) for d in self.user_dirs]
        self._library_dirs, self._namespaces = [], []
        for folder in dict.fromkeys(folders):
            if folder in roots:
                continue  # /usr/include holds far more than the library
            self._library_dirs.append(folder)
            for root in self._system:
                if _under(folder, root):
                    self._namespaces.append(os.path.relpath(folder, root))
        self._patterns = [(glob.startswith("!"), _glob_pattern(glob.lstrip("!"))) for glob in self.bind_globs]
        for header in self.headers:
            self._user_files.add(os.path.realpath(header))

    def _is_file(self, path: str) -> bool:
        known = self._exists.get(path)
        if known is None:
            known = self._exists[path] = os.path.isfile(path)
        return known

    def claim(self, path: str) -> None:
        """Make ``path`` the library's: a named header, or one a library file includes from its own folder."""
        real = os.path.realpath(path)
        if real not in self._user_files:
            self._user_files.add(real)
            self._origins.clear()

    def origin(self, path: str) -> str:
        """"user", "standard" or "system" for a file of this run (by any spelling)."""
        # Asked once per declaration and diagnostic: decide each spelling once.
        known = self._origins.get(path)
        if known is None:
            known = self._origins[path] = self._decide(os.path.realpath(path))
        return known

    def _decide(self, real: str) -> str:
        if any(_under(real, d) for d in self._standard):
            return "standard"
        origin = self._default_origin(real)
        for negated, pattern in self._patterns:
            if fnmatch.fnmatchcase(real, pattern):
                origin = "system" if negated else "user"
        return origin

    def _default_origin(self, real: str) -> str:
        if real in self._user_files or any(_under(real, d) for d in self._library_dirs):
            return "user"
        for root in self._system:
            if _under(real, root):
                inside = os.path.relpath(real, root)
                return "user" if any(_under(inside, n) for n in self._namespaces) else "system"
        return "user"

    def find(self, name: str, quoted: bool, includer: str | None, includer_origin: str,
             next_after: int | None = None) -> tuple[str, int, str] | None:
        """(path, chain index or -1 for the includer's folder, origin) or None if not found.

        ``next_after`` is the chain index the including file was found at, for #include_next.
        """
        if os.path.isabs(name):
            return (name, -1, self.origin(name)) if self._is_file(name) else None
        if quoted and includer is not None and next_after is None:
            folder = os.path.dirname(includer)
            candidate = os.path.join(folder, name) if folder else name
            if self._is_file(candidate):
                if includer_origin == "user":
                    self.claim(candidate)
                return candidate, -1, self.origin(candidate)
        start = 0 if next_after is None else next_after + 1
        for index in range(start, len(self.chain)):
            entry = self.chain[index]
            candidate = os.path.join(entry.path, name)
            if self._is_file(candidate):
                return candidate, index, self.origin(candidate)
        return None

    def chain_index_of(self, path: str) -> int | None:
        """For #include_next from a file not found through the chain: the chain entry holding it."""
        folder = os.path.realpath(os.path.dirname(path) or ".")
        for index, entry in enumerate(self.chain):
            if os.path.realpath(entry.path) == folder:
                return index
        return None


def read_source(path: str) -> str:
    """A header's text; undecodable bytes are kept as surrogates rather than failing."""
    return Path(path).read_text(encoding="utf-8", errors="surrogateescape")
