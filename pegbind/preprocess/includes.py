"""Preprocessing layer, step 5: where ``#include`` finds a file (C11 6.10.2), and whose it is.

In: the header name as written, the including file, the -I directories, the
named headers, the target and the ``bind_headers`` globs.  Out: the path to
open (as a compiler would spell it), the position in the search chain (for
``#include_next``), and the file's origin:

* ``"user"`` — the library being bound, whose declarations the binding
  exposes: the named headers; for one the system's package manager
  installed (:mod:`pegbind.packages`), every file of its package; for
  others, every file under their folders and the same sub-folder under any
  other system folder (``openssl/`` is split between ``/usr/include`` and its
  multiarch twin), unless that folder is a system folder itself (as
  ``/usr/include`` is for ``zlib.h``); every file under the -I folders (same
  exception); files a library file includes with quotes from its own folder
  (zlib's ``"zconf.h"``); and any file outside the known folders;
* ``"standard"`` — pegbind's own headers (``pegbind/include``, and the fallback);
* ``"system"`` — what the compiler, the C library and the system's other packages provide.

``bind_headers`` globs, matched against a file's real path in order (the last
match wins; ``!`` in front takes a file out; a glob that does not start with
``/`` or ``*`` matches the end of the path), widen or narrow the default.

Search order, as GCC: ``"x.h"`` first in the including file's folder, then like
``<x.h>``: the -I folders (except those that are system folders, which gcc
ignores), pegbind's freestanding headers (``stddef.h``, ``stdint.h`` ... with
the target's sizes), the compiler's own include folder (``immintrin.h``; its
versions of the freestanding headers are passed over), then the C library's
headers: the machine's own for its own target, a cross target's sysroot
(Debian's MinGW and cross libc packages), or where neither is installed
pegbind's bundled fallback (``pegbind/fallback-include``).
"""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import Path

from ..frozen import frozen_dataclass, mutable_dataclass
from ..packages import package_files
from ..patterns import compiled
from ..resources import fallback_include_dir, standard_include_dir
from ..toolchain import CROSS_TRIPLES, MULTIARCH, host_target, search_dirs


@frozen_dataclass()
class _Layout:
    """Where one kind of system keeps the C library's headers for a target."""

    folders: tuple[str, ...]
    marker: str  #: a file the folders hold when the layout is installed for that target


def _layouts(target: str) -> list[_Layout]:
    """The places a target's C library headers may be, in order of preference."""
    host = host_target()
    multiarch = MULTIARCH.get(target)
    layouts = []
    if target == host and multiarch is not None:  # the machine's own, as its gcc searches them
        layouts.append(_Layout(("/usr/local/include", f"/usr/include/{multiarch}", "/usr/include"), "stdio.h"))
    if target == "linux-i386" and host == "linux-x86_64":  # Debian's biarch libc6-dev-i386 (gcc -m32)
        layouts.append(_Layout(("/usr/local/include", "/usr/include"), "gnu/stubs-32.h"))
    if target != host and target in CROSS_TRIPLES:  # Debian's libc6-dev-*-cross, mingw-w64-x86-64-dev
        layouts.append(_Layout((f"/usr/{CROSS_TRIPLES[target]}/include",), "stdio.h"))
    return layouts


def system_include_dirs(target: str) -> list[str] | None:
    """The folders of the C library's headers for ``target`` on this machine, in search order.

    None when none are installed here: pegbind's bundled fallback stands in for them.
    """
    for layout in _layouts(target):
        folders = [d for d in layout.folders if os.path.isdir(d)]
        if any(os.path.isfile(os.path.join(d, layout.marker)) for d in folders):
            return folders
    return None


@frozen_dataclass()
class SearchDir:
    """One folder of the ``#include`` search chain."""

    path: str
    origin: str  #: origin of the files found there
    #: names not looked up here: the compiler's own versions of pegbind's freestanding headers
    shadowed: frozenset[str] = frozenset()


def _under(path: str, folder: str) -> bool:
    """Whether the absolute path ``path`` is ``folder`` or lies inside it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _forms(path: str) -> tuple[str, ...]:
    """A path as spelled (absolute) and as its real path: a file may be a link out of
    the folder it was found in (each of MinGW's headers is one), a folder a link to another."""
    spelled = os.path.abspath(path)
    real = os.path.realpath(path)
    return (spelled,) if spelled == real else (spelled, real)


def _glob_pattern(glob: str) -> str:
    """A ``bind_headers`` glob as an fnmatch pattern over absolute paths."""
    if glob.startswith(("/", "*")):
        return glob
    return "*/" + glob


def search_chain(user_dirs: Sequence[str | os.PathLike[str]], target: str) -> list[SearchDir]:
    """The folders ``#include <...>`` searches, in gcc's order: the ``-I`` folders (one that
    is also a system folder is searched as a system folder only), pegbind's freestanding
    headers, the compiler's own folder (less the headers pegbind's stand for), then the C
    library's for ``target`` (pegbind's bundled fallback where none are installed)."""
    freestanding = standard_include_dir()
    compiler = [SearchDir(d, "system", frozenset(os.listdir(freestanding))) for d in search_dirs(target).include]
    system_dirs = system_include_dirs(target)
    system = [SearchDir(d, "system") for d in system_dirs or ()]
    if system_dirs is None:
        system = [SearchDir(str(fallback_include_dir()), "standard")]
    known = {os.path.realpath(e.path) for e in (*compiler, *system)}
    chain = [SearchDir(str(d), "user") for d in user_dirs if os.path.realpath(d) not in known]
    return [*chain, SearchDir(str(freestanding), "standard"), *compiler, *system]


def find_header(name: str, chain: Sequence[SearchDir], start: int = 0,
                is_file: Callable[[str], bool] = os.path.isfile) -> tuple[str, int] | None:
    """Where ``#include <name>`` finds ``name`` along ``chain`` (see :func:`search_chain`) from
    its entry ``start`` on, and that entry's index; None where it is in none."""
    for index in range(start, len(chain)):
        entry = chain[index]
        if name in entry.shadowed:
            continue
        candidate = os.path.join(entry.path, name)
        if is_file(candidate):
            return candidate, index
    return None


@mutable_dataclass()
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
    _standard: list[str] = field(init=False)  # pegbind's own header folders, each spelling
    _system: list[str] = field(init=False)  # the system folders of the chain, each spelling
    _package_files: frozenset[str] = field(init=False)  # the named headers' packages' files
    _patterns: list[tuple[bool, str]] = field(init=False)  # bind_globs: (narrows, fnmatch pattern)

    def __post_init__(self) -> None:
        freestanding = standard_include_dir()
        self.chain = search_chain(self.user_dirs, self.target)
        self._standard = [*_forms(str(freestanding)), *_forms(str(fallback_include_dir()))]
        self._system = [form for e in self.chain if e.origin == "system" for form in _forms(e.path)]
        roots = {*self._standard, *self._system}
        # A named header the system's package manager installed: its library is its package's files,
        # and those of the package its real file is in, when it is reached through a link another
        # package installed (libc6-dev-i386's /usr/include/sys/inotify.h, a link into libc6-dev's).
        packaged = [os.path.abspath(h) for h in self.headers
                    if any(_under(form, root) for form in _forms(h) for root in self._system)]
        self._package_files = package_files([form for h in packaged for form in _forms(h)]) or frozenset()
        owned = [h for h in packaged if h in self._package_files or os.path.realpath(h) in self._package_files]
        unowned = [os.path.abspath(h) for h in self.headers if os.path.abspath(h) not in owned]
        folders = [os.path.dirname(h) for h in unowned]
        # -I folders hold the library where no package says what it is (xmlsec's -I of libxml2's
        # folder, a package of its own, does not make libxml2 part of the binding)
        folders += list(self.user_dirs) if unowned else []
        self._library_dirs, self._namespaces = [], []
        for folder in dict.fromkeys(folders):
            forms = _forms(folder)
            if roots.intersection(forms):
                continue  # /usr/include holds far more than the library
            self._library_dirs += forms
            for form in forms:
                for root in self._system:
                    if _under(form, root):
                        self._namespaces.append(os.path.relpath(form, root))
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
            known = self._origins[path] = self._decide(_forms(path))
        return known

    def _decide(self, forms: tuple[str, ...]) -> str:
        if any(_under(form, d) for form in forms for d in self._standard):
            return "standard"
        origin = self._default_origin(forms)
        for negated, pattern in self._patterns:
            if any(fnmatch.fnmatchcase(form, pattern) for form in forms):
                origin = "system" if negated else "user"
        return origin

    def _default_origin(self, forms: tuple[str, ...]) -> str:
        if forms[-1] in self._user_files or any(_under(form, d) for form in forms for d in self._library_dirs):
            return "user"
        if any(form in self._package_files for form in forms):
            return "user"
        for form in forms:  # where it was found first, then where it really is
            for root in self._system:
                if _under(form, root):
                    inside = os.path.relpath(form, root)
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
        found = find_header(name, self.chain, 0 if next_after is None else next_after + 1, self._is_file)
        return None if found is None else (found[0], found[1], self.origin(found[0]))

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


#: a byte of a header that is not UTF-8, as :func:`read_source` keeps it (U+DC80..U+DCFF)
NOT_UTF8 = compiled("[\udc80-\udcff]")


def as_legacy_text(text: str) -> str:
    """``text`` of a header, read again as Windows-1252 (else Latin-1) where it holds bytes
    that are not UTF-8: what old headers' comments were written in (``Copyright \xa9``,
    ``M\xfcller``), which would otherwise reach a docstring as escapes."""
    if text.isascii() or not NOT_UTF8.search(text):
        return text
    data = text.encode("utf-8", "surrogateescape")
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:  # a byte Windows-1252 leaves undefined
        return data.decode("latin-1")
