"""The ordered pipeline: preprocess -> parse -> model -> passes -> emit -> build.

Input: a :class:`~pegbind.config.BindingConfig`.  Output, depending on how far
a caller goes: the preprocessed stream, the model, generated source files, or
a compiled extension.  The CLI and the setuptools hook both drive bindings
through here, so every front end runs the same phases in the same order.
"""
from __future__ import annotations

import functools
import re
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from .config import BindingConfig
from .diagnostics import Coord, Diagnostic, ParseError
from .model import Module
from .target import TargetInfo, get_target

if TYPE_CHECKING:  # the preprocessor's result type; imported lazily at run time
    from .preprocess import PreprocessResult


@dataclass(frozen=True)
class ReadResult:
    """What reading a binding's headers produced."""

    config: BindingConfig
    target: TargetInfo
    preprocessed: "PreprocessResult"
    module: Module


#: Feature-test macros: with them the C library's headers declare more, or name it otherwise
#: (glibc's fd_set member is ``fds_bits`` under _GNU_SOURCE, ``__fds_bits`` without).
FEATURE_TEST_MACROS = frozenset(
    """_GNU_SOURCE _DEFAULT_SOURCE _BSD_SOURCE _SVID_SOURCE _ALL_SOURCE _POSIX_SOURCE _POSIX_C_SOURCE
    _XOPEN_SOURCE _XOPEN_SOURCE_EXTENDED _ISOC99_SOURCE _ISOC11_SOURCE _ISOC2X_SOURCE _LARGEFILE_SOURCE
    _LARGEFILE64_SOURCE _FILE_OFFSET_BITS _TIME_BITS _REENTRANT _THREAD_SAFE _DARWIN_C_SOURCE _NETBSD_SOURCE
    _OPENBSD_SOURCE __BSD_VISIBLE __EXTENSIONS__ _POSIX_PTHREAD_SEMANTICS _TANDEM_SOURCE""".split()
)
_DEFINE_LINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[ \t]+(.*?))?[ \t]*$", re.M)


@functools.cache
def python_feature_macros(target: str) -> dict[str, str]:
    """The feature-test macros this Python's ``pyconfig.h`` defines, for a module built for ``target``.

    A compiled module (Cython, cffi in API mode) includes ``Python.h`` before
    the library's headers, and ``pyconfig.h`` defines ``_GNU_SOURCE``,
    ``_FILE_OFFSET_BITS=64`` and the like: the headers then declare what they
    declare under those.  The binding reads them the same way, in every
    backend, so its model is what the compiled code sees.  Nothing for a
    target other than this machine's: its Python's pyconfig.h is not here.
    """
    from .toolchain import host_target

    if target != host_target():
        return {}
    try:
        text = Path(sysconfig.get_config_h_filename()).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    return {name: value or "1" for name, value in _DEFINE_LINE.findall(text) if name in FEATURE_TEST_MACROS}


def binding_defines(config: BindingConfig) -> dict[str, str | None]:
    """The macros the binding's headers are read with: Python's feature-test macros, then ``-D``."""
    return {**python_feature_macros(config.target), **config.defines}


def preprocess_binding(config: BindingConfig) -> "PreprocessResult":
    """Phase 1: the expanded token stream of the binding's headers."""
    from .preprocess import preprocess

    return preprocess(
        [str(h) for h in config.headers],
        include_dirs=[str(d) for d in config.include_dirs],
        defines=binding_defines(config),
        undefines=list(config.undefines),
        target=config.target,
        skip_includes=list(config.skip_includes),
        bind_headers=list(config.bind_headers),
    )


def read_binding(config: BindingConfig, *, strict: bool = True) -> ReadResult:
    """Phases 1-2: preprocess and parse into the model.

    With ``strict`` (generate, build), any error diagnostic of the parser
    raises :class:`ParseError`; ``dump`` passes ``strict=False`` to show
    the model together with its diagnostics.
    """
    from .parse import parse_declarations

    target = get_target(config.target)
    preprocessed = preprocess_binding(config)
    module = parse_declarations(preprocessed, target)
    if strict:
        errors = [d for d in module.diagnostics if d.severity == "error"]
        if errors:
            raise ParseError(errors)
    return ReadResult(config, target, preprocessed, module)


def _generate_each(
    config: BindingConfig,
    backends: Sequence[str],
    out_dir: Path,
    template_dirs: Sequence[Path],
    read: ReadResult,
    report: Callable[[Diagnostic], None] | None,
) -> dict[str, list[Path]]:
    """Phases 3-5 once, then each backend's files: backend -> paths written."""
    from .emit import generate
    from .exports import linked_exports
    from .passes import run_passes

    exports = linked_exports(config)
    if report is not None:
        where = Coord(config.source, 1, 1) if config.source != "<command line>" else None
        shadowed = config.name.partition(".")[0]
        if shadowed in sys.stdlib_module_names:
            report(Diagnostic(where, f"the module name {config.name!r} is also a standard library module: importing the "
                                     f"binding replaces the standard {shadowed} for the whole process; choose another "
                                     "name with --name (config key: name)", "warning"))
        for name in exports.not_found if exports is not None else ():
            report(Diagnostic(where, f"no lib{name}.so in the library folders: which of its functions exist is not "
                                     "checked", "warning"))
    binding = run_passes(read.module, config, read.target, exports)
    if report is not None:
        for diagnostic in (*read.preprocessed.diagnostics, *read.module.diagnostics):
            # what the library's own headers declare and the model could not hold (a vector
            # type, _Float128 ...): the C library's are read only for the types they lend
            if diagnostic.severity == "warning" and read.module.is_library(diagnostic.coord):
                report(diagnostic)
        for diagnostic in binding.diagnostics:
            report(diagnostic)
    return {
        backend: generate(binding, config, backend=backend, out_dir=out_dir, template_dirs=template_dirs, report=report)
        for backend in backends
    }


def generate_sources(
    config: BindingConfig,
    *,
    backends: Sequence[str] | None = None,
    out_dir: Path | None = None,
    template_dirs: Sequence[Path] = (),
    read: ReadResult | None = None,
    report: Callable[[Diagnostic], None] | None = None,
) -> list[Path]:
    """Phases 1-5: write the generated sources of every requested backend; returns their paths.

    ``report`` receives what the passes, and then each backend, left out of
    the binding and why (warnings; nothing is dropped silently).
    """
    files = _generate_each(
        config, backends or config.backends, Path(out_dir or config.output_dir), template_dirs,
        read or read_binding(config), report,
    )
    return [path for paths in files.values() for path in paths]


def build_extension(
    config: BindingConfig,
    *,
    out_dir: Path | None = None,
    template_dirs: Sequence[Path] = (),
    report: Callable[[Diagnostic], None] | None = None,
) -> list[Path]:
    """Phases 1-6: generate, then compile what needs compiling; returns the built artefacts.

    Cython and cffi (API mode) are compiled into extension modules; a ctypes
    module is plain Python (see ``pegbind.build``).  Each is then imported in a
    fresh interpreter: a module that cannot be imported is a BuildError.
    """
    from .build import build, check_import

    out_dir = Path(out_dir or config.output_dir)
    files = _generate_each(config, config.backends, out_dir, template_dirs, read_binding(config), report)
    built = []
    for backend, paths in files.items():
        built.append(build(config, paths, out_dir, backend=backend))
        check_import(config, out_dir)
    return built
