"""Preprocessing layer, step 5: where ``#include`` finds a file (C11 6.10.2), and whose it is.

In: the header name as written, the including file, the -I directories, the target.
Out: the path to open (as a compiler would spell it), the position in the search
chain (for ``#include_next``), and the file's origin: "user" (the named headers and
what they include outside pegbind's and the system's folders), "standard"
(pegbind/include, replacing the C library's headers), or "system" (found on the
target's system path, e.g. glibc's files in /usr/include).

Search order, as GCC: ``"x.h"`` first in the including file's folder, then like
``<x.h>``: the -I folders, pegbind's standard headers, the target's system folders.
"""
from __future__ import annotations

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


@dataclass
class IncludeResolver:
    """The search chain of one run and the origin of every file it handed out."""

    user_dirs: Sequence[str]
    target: str
    chain: list[SearchDir] = field(init=False)
    origins: dict[str, str] = field(default_factory=dict)  # real path -> origin
    _exists: dict[str, bool] = field(default_factory=dict)
    _real_paths: dict[str, str] = field(default_factory=dict)  # spelling -> real path

    def __post_init__(self) -> None:
        self.chain = [SearchDir(str(d), "user") for d in self.user_dirs]
        self.chain.append(SearchDir(str(standard_include_dir()), "standard"))
        self.chain.extend(SearchDir(d, "system") for d in system_include_dirs(self.target))

    def _is_file(self, path: str) -> bool:
        known = self._exists.get(path)
        if known is None:
            known = self._exists[path] = os.path.isfile(path)
        return known

    def register(self, path: str, origin: str) -> None:
        """Remember the origin of a file the first time it is met."""
        self.origins.setdefault(os.path.realpath(path), origin)

    def origin(self, path: str) -> str:
        """"user", "standard" or "system" for a file this run opened (by any spelling)."""
        # Asked once per declaration and diagnostic: resolve each spelling once.
        real = self._real_paths.get(path)
        if real is None:
            real = self._real_paths[path] = os.path.realpath(path)
        known = self.origins.get(real)
        if known is not None:
            return known
        std = os.path.realpath(standard_include_dir())
        if real.startswith(std + os.sep):
            return "standard"
        for entry in self.chain:
            if entry.origin == "system" and real.startswith(os.path.realpath(entry.path) + os.sep):
                return "system"
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
                origin = self.origins.get(os.path.realpath(candidate)) or includer_origin
                return candidate, -1, origin
        start = 0 if next_after is None else next_after + 1
        for index in range(start, len(self.chain)):
            entry = self.chain[index]
            candidate = os.path.join(entry.path, name)
            if self._is_file(candidate):
                return candidate, index, entry.origin
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
