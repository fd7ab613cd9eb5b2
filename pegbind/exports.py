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
    symbols: frozenset[str]
    not_found: tuple[str, ...] = ()  #: ``-l`` names with no library file here

    @property
    def complete(self) -> bool:
        """Whether every linked library was read: only then is a name's absence meaningful."""
        return not self.not_found and bool(self.libraries)

    def describe(self) -> str:
        """The libraries, for a message: ``libsqlite3.so (/usr/lib/.../libsqlite3.so)``."""
        return ", ".join(str(path) for path in self.libraries)


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


def _defined_symbols(path: Path) -> frozenset[str]:
    """The global and weak symbols an ELF shared object defines and lets others see."""
    from elftools.elf.elffile import ELFFile  # only builds read binaries: keep it off the import path

    names = set()
    with open(path, "rb") as stream:
        table = ELFFile(stream).get_section_by_name(".dynsym")
        if table is None:
            return frozenset()
        for symbol in table.iter_symbols():
            if (symbol["st_shndx"] != "SHN_UNDEF" and symbol["st_info"]["bind"] in ("STB_GLOBAL", "STB_WEAK")
                    and symbol["st_other"]["visibility"] in ("STV_DEFAULT", "STV_PROTECTED")):
                names.add(symbol.name)
    return frozenset(names)


def _read(paths: Iterable[Path], folders: Sequence[Path], seen: set[Path]) -> tuple[list[Path], set[str]]:
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
            symbols |= _defined_symbols(real)
        else:
            more, found = _read(_script_inputs(real, folders), folders, seen)
            files += more
            symbols |= found
    return files, symbols


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
    files, symbols = _read(found, folders, set())
    return Exports(tuple(files), frozenset(symbols), tuple(not_found))
