"""Which functions the libraries of a binding really export, and how they are linked.

Layer: beside ``build``; the pipeline asks it before the passes, so that a
function a header declares but the library does not define (sqlite3.h's
``sqlite3_win32_*`` on Linux) is left out of the module with one warning,
instead of making the whole module fail to import.  In: the config's ``link``
names and ``library_dirs``, and the target.  Out: :class:`Exports` — the
library files found, the names of the symbols they define, and which of them
are static archives (whose functions the generated code must not refer to
weakly: the linker takes an archive's members only for strong references).

Libraries are found as the linker finds them: in each ``-L`` folder, then in
each folder of the compiler's library search path, ``libNAME.so`` before
``libNAME.a``; a linker script (``libc.so``, ``libncurses.so``:
``INPUT(libncurses.so.6 -ltinfo)``) stands for the files it names.  Shared
objects' dynamic symbol tables (ELF ``.dynsym``) are read with pyelftools, a
well-kept reader of the format, as are those of the libraries they need
(``DT_NEEDED``, all the way down).  A static archive's symbols are listed by
the toolchain's ``nm``.  What a file defines is kept in pegbind's cache folder
while the file is unchanged (:mod:`pegbind.regen`).

The check is made for a binding linked at build time, for this machine's own
target.  With extra C sources (which may define what the libraries do not)
it only tells how the libraries are linked.  Elsewhere nothing is known here,
and a symbol missing at run time fails when its function is called.
"""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from .config import BindingConfig
from .diagnostics import Diagnostic
from .frozen import frozen_dataclass, mutable_dataclass
from .target import get_target
from .toolchain import host_target, search_dirs

_ELF_MAGIC = b"\x7fELF"
_ARCHIVE_MAGIC = b"!<arch>\n"
#: where a GNU ld script names its files and -lNAME: INPUT(...) and GROUP(...), AS_NEEDED(...) inside
_SCRIPT_GROUP = re.compile(r"\b(?:INPUT|GROUP)\s*\(")
_SCRIPT_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@frozen_dataclass()
class Exports:
    """The symbols the linked libraries define, and what could not be read."""

    libraries: tuple[Path, ...]  #: the files read (after following linker scripts)
    symbols: frozenset[str]  #: what they define
    not_found: tuple[str, ...] = ()  #: ``-l`` names with no library file here
    #: the libraries they need (``DT_NEEDED``, all the way down): the loader finds a
    #: symbol there too (OpenSSL's libssl.so declares what libcrypto.so defines)
    dependencies: tuple[Path, ...] = ()
    #: static archives among the libraries: their functions are linked into the module
    archives: tuple[Path, ...] = ()
    #: those of :attr:`archives` that are not part of a linker script naming a shared
    #: object too (as glibc's libc.so names libc_nonshared.a beside libc.so.6): what
    #: they define is found nowhere at run time (a ctypes module cannot load them)
    lone_archives: tuple[Path, ...] = ()
    #: why some library could not be read (a damaged file), one message each
    problems: tuple[Diagnostic, ...] = ()
    #: extra C sources are compiled in: they may define what the libraries do not
    sources: bool = False

    @property
    def complete(self) -> bool:
        """Whether what the module will find is known: only then is a name's absence meaningful."""
        return not self.not_found and not self.problems and not self.sources and bool(self.libraries)

    def defines(self, name: str) -> bool:
        """Whether a module linked with these libraries finds ``name`` when it is loaded."""
        return name in self.symbols or any(_defined_in(path, name) for path in self.dependencies)

    def describe(self) -> str:
        """The libraries, for a message: ``/usr/lib/.../libssl.so or the libraries it needs``."""
        files = ", ".join(str(path) for path in self.libraries)
        if self.dependencies:
            files += f" or the libraries {'it needs' if len(self.libraries) == 1 else 'they need'}"
        return files


def library_folders(config: BindingConfig) -> list[Path]:
    """Where the linker looks for ``-lNAME``: the ``-L`` folders, then the compiler's."""
    folders = [Path(d) for d in config.library_dirs]
    folders += [Path(d) for d in search_dirs(get_target(config.target).name).libraries]
    return list(dict.fromkeys(folders))


def find_library(name: str, folders: Sequence[Path]) -> Path | None:
    """``libNAME.so``, else ``libNAME.a``, in the first folder holding one, as the linker picks
    it; else the run-time ``libNAME.so.N`` a module loaded with ctypes would open where no
    development link is installed; or None."""
    for folder in folders:
        for candidate in (folder / f"lib{name}.so", folder / f"lib{name}.a"):
            if candidate.exists():
                return candidate
    for folder in folders:
        versions = sorted(folder.glob(f"lib{name}.so.*"), key=lambda p: [int(n) for n in re.findall(r"\d+", p.name)])
        if versions:
            return versions[-1]
    return None


def _script_inputs(path: Path, folders: Sequence[Path]) -> list[Path]:
    """The files a GNU ld script stands for; empty when ``path`` is not one."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    text = _SCRIPT_COMMENT.sub(" ", text)
    found = []
    for opening in _SCRIPT_GROUP.finditer(text):
        depth, end = 1, opening.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        for word in re.split(r"[\s,()]+", text[opening.end():end - 1]):
            if not word or word == "AS_NEEDED":
                continue
            if word.startswith("-l"):
                library = find_library(word[2:], folders)
            elif os.path.isabs(word):
                library = Path(word) if os.path.exists(word) else None
            else:
                library = next((folder / word for folder in [path.parent, *folders] if (folder / word).exists()), None)
            if library is not None:
                found.append(library)
    return found


#: the fields of a ``.dynsym`` entry read here, by ELF class, in ``struct``'s terms: the name's
#: offset, st_info, st_other and st_shndx (32-bit entries have st_value and st_size between)
_SYMBOL_LAYOUTS = {32: "I8xBBH", 64: "IBBH16x"}
_GLOBAL_OR_WEAK = (1, 2)  #: STB_GLOBAL, STB_WEAK: st_info's high four bits
_DEFAULT_OR_PROTECTED = (0, 3)  #: STV_DEFAULT, STV_PROTECTED: st_other's low two bits


def _table_names(elf, table) -> frozenset[str]:
    """The names a dynamic symbol table defines for others: defined here, global or weak, of
    default or protected visibility.

    The table's entries are decoded all at once: pyelftools' reader builds an object per
    symbol, and a library such as the C library has thousands (80 ms, against 6).
    """
    import struct

    entry = struct.Struct(("<" if elf.little_endian else ">") + _SYMBOL_LAYOUTS[elf.elfclass])
    size = table["sh_entsize"] or entry.size
    if size != entry.size:
        raise OSError(f"a symbol table with {size}-byte entries, not {entry.size}")
    data = table.data()
    strings = elf.get_section(table["sh_link"]).data()
    names = set()
    for name, info, other, section in entry.iter_unpack(data[:len(data) - len(data) % size]):
        if section and info >> 4 in _GLOBAL_OR_WEAK and other & 3 in _DEFAULT_OR_PROTECTED:
            names.add(strings[name:strings.index(b"\0", name)].decode("utf-8", "replace"))
    return frozenset(names)


def _defined_symbols(path: Path) -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]:
    """What an ELF shared object defines for others, the libraries it needs, and its run paths.

    Raises OSError for a file that cannot be read as one.
    """
    # only builds read binaries, and a summary kept in the cache spares them: keep it off the import path
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    try:
        with open(path, "rb") as stream:
            elf = ELFFile(stream)
            table = elf.get_section_by_name(".dynsym")
            names = _table_names(elf, table) if isinstance(table, SymbolTableSection) else frozenset()
            dynamic = elf.get_section_by_name(".dynamic")
            needed, paths = [], []
            for tag in dynamic.iter_tags() if dynamic is not None else ():  # type: ignore[attr-defined]
                kind = tag.entry.d_tag
                if kind == "DT_NEEDED":
                    needed.append(tag.needed)
                elif kind in ("DT_RUNPATH", "DT_RPATH"):
                    value = tag.runpath if kind == "DT_RUNPATH" else tag.rpath
                    paths += [p.replace("$ORIGIN", str(path.parent)) for p in value.split(":") if p]
    except ELFError as exc:
        raise OSError(str(exc)) from None
    return names, tuple(needed), tuple(paths)


def _archive_symbols(path: Path) -> frozenset[str]:
    """The global symbols a static archive's members define, as the toolchain's ``nm`` lists them.

    Raises OSError when there is no ``nm`` or it cannot read the archive.
    """
    import subprocess  # here: most runs list no archive

    nm = shutil.which("nm")
    if nm is None:
        raise OSError(f"no nm to list the symbols of {path}")
    listed = subprocess.run([nm, "-g", "--defined-only", "-P", str(path)], capture_output=True, text=True)
    if listed.returncode != 0:
        raise OSError(listed.stderr.strip() or f"nm cannot read {path}")
    # "-P": "NAME TYPE VALUE SIZE" per symbol, and "archive[member.o]:" before each member's
    return frozenset(line.split()[0] for line in listed.stdout.splitlines() if line and not line.endswith(":"))


#: what a library file is: "shared" (an ELF shared object), "archive" (a static library) or
#: "other" (a linker script, say); the symbols it defines for others; for a shared object the
#: libraries it needs and its run paths
Summary = tuple[str, frozenset[str], tuple[str, ...], tuple[str, ...]]
#: the summaries made or recalled in this process, by path, size and modification time
_SUMMARIES: dict[tuple[str, int, int], Summary] = {}


def _summary(path: Path) -> Summary:
    """The :data:`Summary` of the library file ``path`` (a real path).

    Kept in pegbind's cache folder while the file is unchanged: reading a shared object's
    symbols imports pyelftools, and the two took 28 ms of each generate of sqlite3.h (a tenth).
    Raises OSError for a file that cannot be read as what its first bytes say it is.
    """
    from . import regen

    stat = path.stat()
    seen = (str(path), stat.st_size, stat.st_mtime_ns)
    found = _SUMMARIES.get(seen)
    if found is not None:
        return found
    name = regen.fact_key("library-symbols", str(path))
    kept = regen.recall(name)
    if isinstance(kept, list) and len(kept) == 4:
        found = (str(kept[0]), frozenset(kept[1]), tuple(kept[2]), tuple(kept[3]))
    else:
        found = _read_summary(path)
        regen.remember(name, [found[0], sorted(found[1]), list(found[2]), list(found[3])], [path])
    _SUMMARIES[seen] = found
    return found


def _defined_in(path: Path, name: str) -> bool:
    """Whether the library ``path`` needs defines ``name``; not if it cannot be read."""
    try:
        return name in _summary(path.resolve())[1]
    except OSError:
        return False


def _read_summary(path: Path) -> Summary:
    with open(path, "rb") as stream:
        magic = stream.read(8)
    if magic.startswith(_ELF_MAGIC):
        return ("shared", *_defined_symbols(path))
    if magic == _ARCHIVE_MAGIC:
        return "archive", _archive_symbols(path), (), ()
    return "other", frozenset(), (), ()


@mutable_dataclass()
class _Reading:
    """What reading the linked libraries has found so far."""

    folders: Sequence[Path]
    files: list[Path]
    archives: list[Path]
    beside_shared: list[Path]  #: archives a linker script names beside a shared object
    symbols: set[str]
    problems: list[Diagnostic]
    seen: set[Path]
    needed: dict[str, list[Path]]  #: DT_NEEDED name -> the folders to look for it in

    def read(self, paths: Iterable[Path]) -> None:
        for path in paths:
            real = path.resolve()
            if real in self.seen:
                continue
            self.seen.add(real)
            try:
                kind, names, wanted, run_paths = _summary(real)
            except OSError as exc:
                self.problems.append(Diagnostic(None, f"cannot read the symbols of {path}: {exc}; which of its "
                                                      "functions exist is not checked", "warning"))
                continue
            if kind == "other":
                files, archives = len(self.files), len(self.archives)
                self.read(_script_inputs(real, self.folders))
                if any(path not in self.archives for path in self.files[files:]):
                    self.beside_shared += self.archives[archives:]
                continue
            if kind == "archive":
                self.archives.append(path)
            for name in wanted:
                self.needed.setdefault(name, [*map(Path, run_paths), real.parent, *self.folders])
            self.files.append(path)
            self.symbols |= names


def _dependencies(needed: dict[str, list[Path]], seen: set[Path]) -> list[Path]:
    """The libraries named in ``needed``, and the ones those need, found as the loader would."""
    found: list[Path] = []
    pending = list(needed.items())
    while pending:
        name, folders = pending.pop(0)
        path = next((folder / name for folder in folders if (folder / name).exists()), None)
        if path is None or path.resolve() in seen:
            continue
        seen.add(path.resolve())
        found.append(path)
        try:
            _kind, _names, wanted, run_paths = _summary(path.resolve())
        except OSError:
            continue
        pending += [(more, [*map(Path, run_paths), path.resolve().parent, *folders]) for more in wanted]
    return found


def linked_exports(config: BindingConfig) -> Exports | None:
    """What the binding's ``link`` libraries export, or None when that cannot be known here."""
    if config.load == "dynamic" or not config.link or get_target(config.target).name != host_target():
        return None
    folders = library_folders(config)
    found, not_found = [], []
    for name in config.link:
        path = find_library(name, folders)
        if path is None:
            not_found.append(name)
        else:
            found.append(path)
    reading = _Reading(folders, [], [], [], set(), [], set(), {})
    reading.read(found)
    return Exports(
        tuple(reading.files), frozenset(reading.symbols), tuple(not_found),
        tuple(_dependencies(reading.needed, reading.seen)), tuple(reading.archives),
        tuple(path for path in reading.archives if path not in reading.beside_shared), tuple(reading.problems),
        bool(config.sources),
    )
