"""The C compiler of a target, what it says about itself, and the Python headers it compiles with.

Layer: infrastructure beside :mod:`pegbind.target`, read by the preprocessor
(the compiler's own include folder: ``immintrin.h`` and the other
intrinsics; the feature-test macros of ``pyconfig.h``), by the build (where
the linker finds ``-l`` libraries; whether the compiler is GCC) and by
``verify`` (which compiler is the oracle).  In: a target name.  Out: the
compiler command for that target on this machine — the system compiler (``$CC``, else ``cc``) for the machine's
own target, ``-m32`` for i386 on x86_64, Debian's cross compilers otherwise —
and its search folders, read from one ``-print-search-dirs`` call and kept
while the compiler's file is unchanged.

pegbind reads headers without a compiler; where none is installed, the
answers are empty and only what needs the compiler's own files is missing.
"""
from __future__ import annotations

import functools
import os
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path

from .frozen import frozen_dataclass

#: Debian's multiarch name of each Linux target (its folder in /usr/include and /usr/lib)
MULTIARCH = {"linux-x86_64": "x86_64-linux-gnu", "linux-i386": "i386-linux-gnu", "linux-aarch64": "aarch64-linux-gnu"}
#: the GNU triple of Debian's cross toolchain for each target (``/usr/TRIPLE/include`` is its sysroot)
CROSS_TRIPLES = {"linux-x86_64": "x86_64-linux-gnu", "linux-i386": "i686-linux-gnu",
                 "linux-aarch64": "aarch64-linux-gnu", "win-x86_64": "x86_64-w64-mingw32"}
#: Debian's cross compilers, by target
CROSS_COMPILERS = {target: f"{CROSS_TRIPLES[target]}-gcc" for target in ("linux-aarch64", "win-x86_64")}
#: the Debian package of each cross compiler, for messages
CROSS_PACKAGES = {"linux-aarch64": "gcc-aarch64-linux-gnu", "win-x86_64": "gcc-mingw-w64-x86-64"}


def host_target() -> str | None:
    """The pegbind target name of the machine we run on, or None if it is not one of ours."""
    # os.uname() is what platform.machine() reads on POSIX, without the import of platform
    machine = (os.uname().machine if hasattr(os, "uname") else __import__("platform").machine()).lower()
    if sys.platform.startswith("linux"):
        return {"x86_64": "linux-x86_64", "amd64": "linux-x86_64", "aarch64": "linux-aarch64",
                "arm64": "linux-aarch64", "i386": "linux-i386", "i686": "linux-i386"}.get(machine)
    if sys.platform == "win32" and machine in ("amd64", "x86_64"):
        return "win-x86_64"
    return None


def include_spelling(header: str | os.PathLike[str], include_dirs: Sequence[str | os.PathLike[str]] = ()
                     ) -> tuple[str, Path | None]:
    """How the generated C includes ``header``, and the folder its compiler must search for that
    (None: an ``-I`` folder the build passes, or one the host's compiler searches anyway).

    Under an ``-I`` folder, or a folder the host's compiler searches for ``<...>``
    (``/usr/include``), the header is spelled by its path there, as a C user includes
    it (``sys/capability.h``, ``libxml/parser.h``): searching its own folder instead
    would put ``/usr/include/sys/unistd.h`` before the ``<unistd.h>`` it includes, which
    then includes itself.  Elsewhere (a project's own header) it is spelled by its file
    name, its folder searched first.
    """
    multiarch = MULTIARCH.get(host_target() or "")
    system = ["/usr/local/include", *([f"/usr/include/{multiarch}"] if multiarch else []), "/usr/include"]
    # as the path was given (a link stays where it is, as the compiler opens it), then as it really is
    for path, folders in ((Path(header).absolute(), [Path(d).absolute() for d in include_dirs]),
                          (Path(header).resolve(), [Path(d).resolve() for d in include_dirs])):
        for folder in [*folders, *map(Path, system)]:
            if path.is_relative_to(folder):
                return path.relative_to(folder).as_posix(), None
    return Path(header).name, Path(header).absolute().parent


def system_compiler() -> list[str]:
    """The system C compiler as a command: ``$CC`` split like a shell word list, else ``cc``."""
    return shlex.split(os.environ.get("CC") or "cc")


@functools.cache
def is_gcc(command: tuple[str, ...]) -> bool:
    """Whether the compiler ``command`` is GCC, as its ``-v`` says (Clang says ``clang version``)."""
    import subprocess  # here, as every import of it: most runs start no process

    try:
        result = subprocess.run([*command, "-v"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return "gcc version" in result.stderr


def compiler_for(target: str) -> list[str] | None:
    """The command that compiles for ``target`` here, or None when this machine has none."""
    host = host_target()
    if target == host:
        command = system_compiler()
    elif target == "linux-i386" and host == "linux-x86_64":
        command = [*system_compiler(), "-m32"]
    elif target in CROSS_COMPILERS:
        command = [CROSS_COMPILERS[target]]
    else:
        return None
    return command if shutil.which(command[0]) else None


@frozen_dataclass()
class SearchDirs:
    """What ``-print-search-dirs`` says (existing folders only, in the compiler's order)."""

    include: tuple[str, ...]  #: the compiler's own headers: ``include`` then ``include-fixed``
    libraries: tuple[str, ...]  #: where the linker looks for ``-lNAME``


@functools.cache
def _search_dirs(command: tuple[str, ...]) -> SearchDirs:
    from . import regen

    # kept in the cache folder while the compiler is the same file, unchanged: asking it
    # cost every run a process (4 ms)
    executable = shutil.which(command[0])
    real = os.path.realpath(executable) if executable is not None else None
    entry = regen.fact_key("compiler-search-dirs", (command, real))
    said = regen.recall(entry) if real is not None else None
    if not isinstance(said, str):
        import subprocess

        try:
            found = subprocess.run([*command, "-print-search-dirs"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return SearchDirs((), ())
        said = found.stdout
        if real is not None:
            regen.remember(entry, said, [real])
    install, libraries = "", []
    for line in said.splitlines():
        key, _, value = line.partition(": ")
        if key == "install":
            install = value.strip()
        elif key == "libraries":
            libraries = [os.path.normpath(part) for part in value.lstrip("=").split(os.pathsep) if part]
    include = [os.path.join(install, name) for name in ("include", "include-fixed")] if install else []
    return SearchDirs(
        tuple(d for d in include if os.path.isdir(d)),
        tuple(dict.fromkeys(d for d in libraries if os.path.isdir(d))),
    )


def search_dirs(target: str) -> SearchDirs:
    """The include and library folders of ``target``'s compiler (empty when there is none)."""
    command = compiler_for(target)
    return _search_dirs(tuple(command)) if command else SearchDirs((), ())


#: Feature-test macros: with them the C library's headers declare more, or name it otherwise
#: (glibc's fd_set member is ``fds_bits`` under _GNU_SOURCE, ``__fds_bits`` without).
FEATURE_TEST_MACROS = frozenset(
    """_GNU_SOURCE _DEFAULT_SOURCE _BSD_SOURCE _SVID_SOURCE _ALL_SOURCE _POSIX_SOURCE _POSIX_C_SOURCE
    _XOPEN_SOURCE _XOPEN_SOURCE_EXTENDED _ISOC99_SOURCE _ISOC11_SOURCE _ISOC2X_SOURCE _LARGEFILE_SOURCE
    _LARGEFILE64_SOURCE _FILE_OFFSET_BITS _TIME_BITS _REENTRANT _THREAD_SAFE _DARWIN_C_SOURCE _NETBSD_SOURCE
    _OPENBSD_SOURCE __BSD_VISIBLE __EXTENSIONS__ _POSIX_PTHREAD_SEMANTICS _TANDEM_SOURCE""".split()
)


@functools.cache
def python_feature_macros(target: str) -> dict[str, str]:
    """The feature-test macros this Python's ``pyconfig.h`` defines, for a module built for ``target``.

    A compiled module (Cython, cffi in API mode) includes ``Python.h`` before
    the library's headers, and ``pyconfig.h`` defines ``_GNU_SOURCE``,
    ``_FILE_OFFSET_BITS=64`` and the like: the headers then declare what they
    declare under those.  The binding reads them the same way, in every
    backend, so its model is what the compiled code sees.  pyconfig.h is read
    with pegbind's own preprocessor, since Debian's is a wrapper that includes
    the one of the architecture.  Nothing for a target other than this
    machine's: its Python's pyconfig.h is not here.
    """
    from . import regen
    from .diagnostics import PegbindError
    from .preprocess import preprocess

    path = sysconfig.get_config_h_filename()
    if target != host_target() or not os.path.isfile(path):
        return {}
    # kept in the cache folder while the files read and the folders searched are unchanged:
    # reading them cost every run 30 ms, a twentieth of a generate
    # (the environment enters the name: which folders are searched depends on the compiler)
    entry = regen.key("python-feature-macros", (target, path))
    kept = regen.recall(entry)
    if isinstance(kept, dict):
        return {str(name): str(value) for name, value in kept.items()}
    try:
        read = preprocess([path], target=target)
    except PegbindError:
        return {}
    macros = {
        name: " ".join(token.text for token in macro.body) or "1"
        for name, macro in read.macros.definitions.items()
        if name in FEATURE_TEST_MACROS and not macro.function_like
    }
    regen.remember(entry, macros, read.files, read.search_dirs)
    return macros
