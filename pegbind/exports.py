"""Which functions the libraries of a binding really export.

Layer: beside ``build``; the pipeline asks it before the passes, so that a
function a header declares but the library does not define (sqlite3.h's
``sqlite3_win32_*`` on Linux) is left out of the module with one warning,
instead of making the whole module fail to import.  In: the config's ``link``
names and ``library_dirs``, and the target.  Out: :class:`Exports` — the
library files found and the names of the symbols they define.

Libraries are found as the linker finds them: ``libNAME.so`` in the ``-L``
folders, then in the compiler's own library search path; a linker script
(``libc.so``, ``libncurses.so``: ``INPUT(libncurses.so.6 -ltinfo)``) stands
for the files it names.  Their dynamic symbol tables (ELF ``.dynsym``) are
read with pyelftools: a well-kept reader of the format, rather than our own.

Only a binding linked at build time, for this machine's own target, with no
extra C sources (which may define what the libraries do not) can be checked;
otherwise nothing is known here, and a symbol missing at run time fails when
its function is called.
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .config import BindingConfig
from .toolchain import host_target, search_dirs

_ELF_MAGIC = b"\x7fELF"
#: what a GNU ld script names: files and -lNAME, inside INPUT(...), GROUP(...), AS_NEEDED(...)
_SCRIPT_GROUP = re.compile(r"\b(?:INPUT|GROUP|AS_NEEDED)\s*\(([^()]*)")
_SCRIPT_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass(frozen=True, slots=True)
class Exports:
    """The symbols the linked libraries define, and what could not be read."""

    libraries: tuple[Path, ...]  #: the files read (after following linker scripts)
    symbols: frozenset[str]  #: what they define
    not_found: tuple[str, ...] = ()  #: ``-l`` names with no library file here
    #: the libraries they need (``DT_NEEDED``, all the way down): the loader finds a
    #: symbol there too (OpenSSL's libssl.so declares what libcrypto.so defines)
    dependencies: tuple[Path, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether every linked library was read: only then is a name's absence meaningful."""
        return not self.not_found and bool(self.libraries)

    def defines(self, name: str) -> bool:
        """Whether a module linked with these libraries finds ``name`` when it is loaded."""
        return name in self.symbols or any(_looked_up(path, name) for path in self.dependencies)

    def describe(self) -> str:
        """The libraries, for a message: ``/usr/lib/.../libssl.so or the libraries it needs``."""
        files = ", ".join(str(path) for path in self.libraries)
        if self.dependencies:
            files += f" or the libraries {'it needs' if len(self.libraries) == 1 else 'they need'}"
        return files


def library_folders(config: BindingConfig) -> list[Path]:
    """Where the linker looks for ``-lNAME``: the ``-L`` folders, then the compiler's."""
    folders = [Path(d) for d in config.library_dirs]
    folders += [Path(d) for d in search_dirs(config.target).libraries]
    return list(dict.fromkeys(folders))


def find_library(name: str, folders: Sequence[Path]) -> Path | None:
    """``libNAME.so`` as the linker would pick it, else the run-time ``libNAME.so.N`` that a
    module loaded with ctypes would open where no development link is installed; or None."""
    for folder in folders:
        candidate = folder / f"lib{name}.so"
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
    found = []
    for group in _SCRIPT_GROUP.findall(_SCRIPT_COMMENT.sub(" ", text)):
        for word in group.replace(",", " ").split():
            if word.startswith("-l"):
                library = find_library(word[2:], folders)
            elif os.path.isabs(word):
                library = Path(word) if os.path.exists(word) else None
            else:
                library = next((folder / word for folder in [path.parent, *folders] if (folder / word).exists()), None)
            if library is not None:
                found.append(library)
    return found


def _visible(symbol) -> bool:  # type: ignore[no-untyped-def]
    """Whether a dynamic symbol is defined here and others may bind to it."""
    return (symbol["st_shndx"] != "SHN_UNDEF" and symbol["st_info"]["bind"] in ("STB_GLOBAL", "STB_WEAK")
            and symbol["st_other"]["visibility"] in ("STV_DEFAULT", "STV_PROTECTED"))


def _defined_symbols(path: Path) -> tuple[frozenset[str], list[str], list[str]]:
    """What an ELF shared object defines for others, the libraries it needs, and its run paths."""
    from elftools.elf.elffile import ELFFile  # only builds read binaries: keep it off the import path
    from elftools.elf.sections import SymbolTableSection

    with open(path, "rb") as stream:
        elf = ELFFile(stream)
        table = elf.get_section_by_name(".dynsym")
        names = frozenset(s.name for s in table.iter_symbols() if _visible(s)) if isinstance(table, SymbolTableSection) else frozenset()
        dynamic = elf.get_section_by_name(".dynamic")
        needed, paths = [], []
        for tag in dynamic.iter_tags() if dynamic is not None else ():  # type: ignore[attr-defined]
            kind = tag.entry.d_tag
            if kind == "DT_NEEDED":
                needed.append(tag.needed)
            elif kind in ("DT_RUNPATH", "DT_RPATH"):
                value = tag.runpath if kind == "DT_RUNPATH" else tag.rpath
                paths += [p.replace("$ORIGIN", str(path.parent)) for p in value.split(":") if p]
    return names, needed, paths


@functools.lru_cache(maxsize=None)
def _lookup_table(path: Path):  # type: ignore[no-untyped-def]
    """A dependency's hash table (``.gnu.hash``, else ``.hash``): a name is looked up, not every symbol read."""
    from elftools.elf.elffile import ELFFile

    stream = open(path, "rb")  # kept open for the lookups of this process
    elf = ELFFile(stream)
    return elf.get_section_by_name(".gnu.hash") or elf.get_section_by_name(".hash")


def _looked_up(path: Path, name: str) -> bool:
    try:
        table = _lookup_table(path)
    except OSError:
        return False
    symbol = table.get_symbol(name) if table is not None else None
    return symbol is not None and _visible(symbol)


def _read(paths: Iterable[Path], folders: Sequence[Path], seen: set[Path],
          needed: dict[str, list[Path]]) -> tuple[list[Path], set[str]]:
    """The ELF files ``paths`` stand for and what they define; ``needed`` gathers their
    ``DT_NEEDED`` names with the folders to look for each in."""
    files: list[Path] = []
    symbols: set[str] = set()
    for path in paths:
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        try:
            with open(real, "rb") as stream:
                magic = stream.read(4)
        except OSError:
            continue
        if magic == _ELF_MAGIC:
            files.append(path)
            names, wanted, run_paths = _defined_symbols(real)
            symbols |= names
            for name in wanted:
                needed.setdefault(name, [*map(Path, run_paths), real.parent, *folders])
        else:
            more, found = _read(_script_inputs(real, folders), folders, seen, needed)
            files += more
            symbols |= found
    return files, symbols


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
            _names, wanted, run_paths = _defined_symbols(path.resolve())
        except OSError:
            continue
        pending += [(more, [*map(Path, run_paths), path.resolve().parent, *folders]) for more in wanted]
    return found


def linked_exports(config: BindingConfig) -> Exports | None:
    """What the binding's ``link`` libraries export, or None when that cannot be known here."""
    if config.load == "dynamic" or not config.link or config.sources or config.target != host_target():
        return None
    folders = library_folders(config)
    found, not_found = [], []
    for name in config.link:
        path = find_library(name, folders)
        if path is None:
            not_found.append(name)
        else:
            found.append(path)
    seen: set[Path] = set()
    needed: dict[str, list[Path]] = {}
    files, symbols = _read(found, folders, seen, needed)
    return Exports(tuple(files), frozenset(symbols), tuple(not_found), tuple(_dependencies(needed, seen)))
