"""The ordered pipeline: preprocess -> parse -> model -> passes -> emit -> build.

Input: a :class:`~pegbind.config.BindingConfig`.  Output, depending on how far
a caller goes: the preprocessed stream, the model, generated source files, or
a compiled extension.  The CLI and the setuptools hook both drive bindings
through here, so every front end runs the same phases in the same order.
"""
from __future__ import annotations

import fnmatch
import gc
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from . import log
from .backends import get_backend
from .config import BindingConfig
from .diagnostics import ConfigError, Coord, Diagnostic, ParseError
from .frozen import frozen_dataclass, mutable_dataclass, replace
from .model import Module
from .target import TargetInfo, get_target

if TYPE_CHECKING:  # the preprocessor's and the passes' result types; imported lazily at run time
    from .passes.binding import BindingModel
    from .preprocess import PreprocessResult


@frozen_dataclass()
class ReadResult:
    """What reading a binding's headers produced."""

    config: BindingConfig
    target: TargetInfo
    preprocessed: PreprocessResult
    module: Module


@mutable_dataclass()
class Inputs:
    """What a run read, for the regeneration cache (:mod:`pegbind.regen`): the files whose
    content the output depends on, and the folders whose listing does (a header added to a
    folder searched before the one that held it would be read instead)."""

    files: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)


def binding_defines(config: BindingConfig) -> dict[str, str | None]:
    """The macros the binding's headers are read with: Python's feature-test macros, then ``-D``."""
    from .toolchain import python_feature_macros

    return {**python_feature_macros(get_target(config.target).name), **config.defines}


def check_files(config: BindingConfig) -> None:
    """The headers and C sources the binding names exist, before anything reads or compiles
    them: ConfigError naming each missing one at its key (``sources[0]``), not the compiler's words."""
    problems = []
    for key, paths in (("headers", config.headers), ("sources", config.sources)):
        for index, path in enumerate(paths):
            if not Path(path).is_file():
                what = "is not a file" if Path(path).exists() else "does not exist"
                if key == "headers" and not Path(path).exists() and not Path(path).is_absolute():
                    what += " here or on the #include path"  # looked for there too: see with_headers_found
                named = config.key(f"{key}[{index}]") if config.from_file else key
                problems.append(Diagnostic(config.coord(named), f"{named}: {path} {what}"))
    if config.include_first:
        from .preprocess.includes import find_header, search_chain

        chain = search_chain(config.include_dirs, get_target(config.target).name)
        for index, name in enumerate(config.include_first):
            if find_header(name, chain) is None:  # an absolute path: if it is a file
                named = config.key(f"include_first[{index}]") if config.from_file else "--include-first"
                where = "does not exist" if Path(name).is_absolute() else "is not on the #include path"
                problems.append(Diagnostic(config.coord(named), f"{named}: {name} {where}"))
    if problems:
        raise ConfigError(problems)


def check_conflicts(config: BindingConfig) -> None:
    """Settings that contradict each other: ConfigError naming both, rather than one silently
    winning (``load = "dynamic"`` with ``link`` libraries; a name both included and excluded)."""
    def named(key: str, flag: str) -> str:
        return config.key(key) if config.from_file else flag

    problems = []
    if config.load == "dynamic" and config.link:
        problems.append(Diagnostic(
            config.coord(config.key("load")),
            f"{named('load', '--load')}: a \"dynamic\" binding opens the library its user passes to load(path), "
            f"so {named('link', '-l')} {', '.join(config.link)} would not be linked or opened: drop one of them"))
    for index, pattern in enumerate(config.include):
        if pattern == "*":
            continue
        literal = not any(c in pattern for c in "*?[")
        covering = [exclude for exclude in config.exclude
                    if exclude == pattern or (literal and fnmatch.fnmatchcase(pattern, exclude))]
        if covering:
            problems.append(Diagnostic(
                config.coord(config.key(f"include[{index}]")),
                f"{named(f'include[{index}]', '--include')}: {pattern!r} is also left out by "
                f"{named('exclude', '--exclude')} {covering[0]!r}, which wins: drop one of them"))
    if problems:
        raise ConfigError(problems)


def preprocess_binding(config: BindingConfig) -> PreprocessResult:
    """Phase 1: the expanded token stream of the binding's headers."""
    from .preprocess import preprocess

    check_files(config)
    check_conflicts(config)
    return preprocess(
        [str(h) for h in config.headers],
        include_dirs=[str(d) for d in config.include_dirs],
        defines=binding_defines(config),
        undefines=list(config.undefines),
        target=config.target,
        skip_includes=list(config.skip_includes),
        bind_headers=list(config.bind_headers),
        include_first=list(config.include_first),
        # as the module's C code and the library's users include them: libsystemd's
        # _sd-common.h refuses a header read at __INCLUDE_LEVEL__ 0 ("do not include directly")
        included=True,
    )


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a phase that builds what it keeps
    (reading the headers; planning and writing the sources).

    The tokens, syntax and model a phase makes stay reachable until it ends,
    and hardly any of them are in a reference cycle; yet the collector, run
    every 700 allocations, went through them again and again as they aged: a
    third of the time of reading a megabyte header (5.2 -> 3.3 s), 3% of a
    small one.  Reference counting still frees everything else at once.

    At the end, what the phase made joins the collector's oldest generation
    untraversed (freezing and unfreezing moves every object there): enabled
    again, the collector would otherwise go through all of it at the next
    allocation, 0.13 to 0.24 s after reading a megabyte header.  A cycle that
    is garbage is still found, by the next full collection.  A process that
    froze objects itself (``gc.freeze()`` before forking) keeps them frozen:
    the phase's objects are then left to the collector.
    """
    if not gc.isenabled():
        yield
        return
    host_froze = gc.get_freeze_count() > 0
    gc.disable()
    try:
        yield
    finally:
        if not host_froze:
            gc.freeze()
            gc.unfreeze()
        gc.enable()


@_without_cycle_collection()
def read_binding(config: BindingConfig, *, strict: bool = True) -> ReadResult:
    """Phases 1-2: preprocess and parse into the model.

    With ``strict`` (generate, build), any error diagnostic of the parser
    raises :class:`ParseError`; ``dump`` passes ``strict=False`` to show
    the model together with its diagnostics.
    """
    from .parse import parse_declarations

    target = get_target(config.target)
    started = time.perf_counter()
    log.info(log.PROGRESS, "reading %s", ", ".join(Path(h).name for h in config.headers))
    preprocessed = preprocess_binding(config)
    log.info(log.PHASES, "preprocessed %d files into %d tokens (%.2f s)", len(preprocessed.files),
             len(preprocessed.tokens), time.perf_counter() - started)
    started = time.perf_counter()
    log.info(log.PROGRESS, "parsing %d tokens", len(preprocessed.tokens))
    module = parse_declarations(preprocessed, target)
    log.info(log.PHASES, "parsed %d functions, %d records, %d constants (%.2f s)", len(module.functions),
             len(module.records), len(module.constants), time.perf_counter() - started)
    if strict:
        errors = [d for d in module.diagnostics if d.severity == "error"]
        if errors:
            raise ParseError(errors)
    return ReadResult(config, target, preprocessed, module)


def _nothing_bound(read: ReadResult, binding: BindingModel) -> str:
    """Why a binding binds nothing at all (a header of one's own that only includes <glob.h>);
    "" for one that binds something."""
    if binding.functions or binding.constants or binding.records or binding.enums:
        return ""
    named = ", ".join(Path(header).name for header in read.config.headers)
    config, module = read.config, read.module
    declared = [f.name for f in module.functions if module.is_library(f.coord)]
    declared += [c.name for c in module.constants if module.is_library(c.coord)]
    if declared and not any(config.selects(name) for name in declared):
        # the headers declare some, but the names to bind leave every one out (--include 'nothing*')
        flags = [*(f"--include {p!r}" for p in config.include if p != "*"),
                 *(f"--exclude {p!r}" for p in config.exclude)]
        said = "the config's include and exclude" if config.from_file else " and ".join(flags)
        return (f"nothing to bind: {named} declares {len(declared)} functions and constants, and {said} "
                f"leave{'s' if len(flags) == 1 and not config.from_file else ''} out every one")
    files = read.preprocessed.files
    own = [read.module.is_library(Coord(file, 1, 1)) for file in files]
    # what the headers include; not what the compiler includes before them (<stdc-predef.h>)
    first = own.index(True) if True in own else len(files)
    others = [file for file, mine in zip(files[first:], own[first:], strict=True) if not mine]
    if not others:
        return f"nothing to bind: {named} declares no function, constant, record or enum"
    return (f"nothing to bind: {named} declares no function, constant, record or enum of its own, and what it "
            "includes from other packages (the C library's, say) is read for its types only: name those "
            "headers, or bind them with bind_headers (--bind-header GLOB)")


def _defined_nowhere(config: BindingConfig, binding: BindingModel) -> list[str]:
    """The functions of a binding that names no library to link that the C library, which every
    module is linked with, does not define either (a forgotten ``-l``); [] where that cannot be
    known here (extra sources, a dynamic binding, another target)."""
    from .exports import linked_exports

    if config.link or config.sources:
        return []
    libc = linked_exports(replace(config, link=("c",)))
    if libc is None or not libc.complete:
        return []
    return [f.function.name for f in binding.functions if not libc.defines(f.function.symbol)]


def _link_key(config: BindingConfig, name: str) -> str:
    """How a message names where library ``name`` was asked for: its config key, or the flag."""
    if not config.from_file:
        return f"-l {name}"
    return config.key(f"link[{config.link.index(name)}]")


def _clashing_backends(backends: Sequence[str], name: str, out_dir: Path) -> list[str]:
    """The backends, in the order asked for, that would write a path another of them writes too
    (the paths each declares in :mod:`pegbind.backends`)."""
    claims = [get_backend(backend).writes(name, out_dir) for backend in backends]
    return [backend for i, backend in enumerate(backends)
            if any(claims[i] & other for j, other in enumerate(claims) if j != i)]


@_without_cycle_collection()
def _generate_each(
    config: BindingConfig,
    backends: Sequence[str],
    out_dir: Path,
    template_dirs: Sequence[Path],
    read: ReadResult,
    report: Callable[[Diagnostic], None] | None,
    linking: bool = False,
    inputs: Inputs | None = None,
) -> dict[str, list[Path]]:
    """Phases 3-5 once, then each backend's files: backend -> paths written.

    ``linking``: the files are to be built, so a ``link`` library that is nowhere
    the linker looks is an error here, not a warning.
    """
    from .emit import generate
    from .exports import linked_exports
    from .passes import run_passes

    def at(key: str) -> Coord | None:  # where the config file sets key
        return config.coord(config.key(key))

    clashing = _clashing_backends(backends, config.name, out_dir)
    if clashing:
        raise ConfigError(Diagnostic(at("backends"),
                                     f"backends {', '.join(clashing)} would each write the module {config.name!r} "
                                     f"into {out_dir}: generate one at a time (--backend) into separate folders (-o) "
                                     "or under separate names (--name)"))
    from .toolchain import python_feature_macros

    compiled = [b for b in backends if get_backend(b).compiled(config)]
    uncompiled = [b for b in backends if b not in compiled]
    if config.sources and uncompiled:
        opens = ("the library its user passes to load(path)" if config.load == "dynamic"
                 else "the libraries it links when imported")
        raise ConfigError(Diagnostic(at("sources"),
                                     f"{config.key('sources') if config.from_file else '--source'}: a "
                                     f"{uncompiled[0]} module compiles nothing, it opens {opens}: build "
                                     f"{config.sources[0].name} into a shared library to link (-l), or use a "
                                     "backend that compiles it in (Cython, or cffi linking at build time)"))
    undone = sorted(set(config.undefines) & set(python_feature_macros(get_target(config.target).name)))
    if compiled and undone:
        raise ConfigError(Diagnostic(at("undefines"),
                                     f"{config.key('undefines')}: Python.h defines {', '.join(undone)} before any "
                                     f"header a {compiled[0]} module includes, so its C code cannot see the headers "
                                     "without them (the ctypes backend can)"))
    exports = linked_exports(config)
    if inputs is not None:
        from .exports import library_folders

        inputs.files += [*read.preprocessed.files, *(str(p) for p in config.sources)]
        inputs.files += [str(p) for p in (*exports.libraries, *exports.dependencies)] if exports is not None else []
        inputs.folders += read.preprocessed.search_dirs
        inputs.folders += [str(p) for p in library_folders(config)] if config.link else []
    if exports is not None and exports.lone_archives and "ctypes" in backends:
        raise ConfigError(Diagnostic(at("link"),
                                     f"{config.key('link')}: {exports.lone_archives[0]} is a static library, and a "
                                     "ctypes module opens its libraries when imported: link a shared one, or use the "
                                     "Cython or cffi backend"))
    missing = exports.not_found if exports is not None else ()
    if linking and missing:
        # what the linker would say after every other step, said first and at the key
        raise ConfigError([Diagnostic(at(f"link[{config.link.index(name)}]"),
                                      f"{_link_key(config, name)}: no lib{name}.so or lib{name}.a in the library "
                                      "folders (library_dirs, -L, then the compiler's): install the library's "
                                      "development files, or name its folder in library_dirs (-L)")
                           for name in missing])
    if report is not None:
        shadowed = config.name.partition(".")[0]
        if shadowed in sys.stdlib_module_names:
            report(Diagnostic(at("name"),
                              f"the module name {config.name!r} is also a standard library module: importing "
                              f"the binding replaces the standard {shadowed} for the whole process; choose "
                              "another name with --name (config key: name)", "warning"))
        for name in exports.not_found if exports is not None else ():
            report(Diagnostic(at("link"), f"no lib{name}.so or lib{name}.a in the library folders: which of its "
                                          "functions exist is not checked", "warning"))
        for problem in exports.problems if exports is not None else ():
            report(problem)
    started = time.perf_counter()
    log.info(log.PROGRESS, "planning %d functions", len(read.module.functions))
    binding = run_passes(read.module, config, read.target, exports)
    log.info(log.PHASES, "planned %d functions, %d records (%.2f s)", len(binding.functions), len(binding.records),
             time.perf_counter() - started)
    if report is not None:
        for diagnostic in (*read.preprocessed.diagnostics, *read.module.diagnostics):
            # what the library's own headers declare and the model could not hold (a vector
            # type, _Float128 ...): the C library's are read only for the types they lend
            if diagnostic.severity == "warning" and read.module.is_library(diagnostic.coord):
                report(diagnostic)
        for diagnostic in binding.diagnostics:
            report(diagnostic)
        unbound = _nothing_bound(read, binding)
        if unbound:
            report(Diagnostic(at("headers"), unbound, "warning"))
        unlinked = _defined_nowhere(config, binding) if linking and exports is None else []
        if unlinked:
            listed = ", ".join(unlinked[:5]) + (f" and {len(unlinked) - 5} more" if len(unlinked) > 5 else "")
            which = f"none of the {len(unlinked)} functions" if len(unlinked) > 1 else "the function"
            report(Diagnostic(at("link"), f"no library is named to link (-l NAME, config key link), and the C "
                                          f"library, which every module is linked with, defines {which} bound: "
                                          f"{listed}: called, {'they raise' if len(unlinked) > 1 else 'it raises'} "
                                          "AttributeError", "warning"))
    written = {}
    for backend in backends:
        started = time.perf_counter()
        log.info(log.PROGRESS, "writing the %s sources", backend)
        written[backend] = generate(binding, config, backend=backend, out_dir=out_dir, template_dirs=template_dirs,
                                    report=report)
        log.info(log.PHASES, "generated the %s sources in %s (%.2f s)", backend, out_dir,
                 time.perf_counter() - started)
    return written


def generate_sources(
    config: BindingConfig,
    *,
    backends: Sequence[str] | None = None,
    out_dir: Path | None = None,
    template_dirs: Sequence[Path] = (),
    read: ReadResult | None = None,
    report: Callable[[Diagnostic], None] | None = None,
    linking: bool = False,
    inputs: Inputs | None = None,
) -> list[Path]:
    """Phases 1-5: write the generated sources of every requested backend; returns their paths.

    ``report`` receives what the passes, and then each backend, left out of
    the binding and why (warnings; nothing is dropped silently).  ``linking``:
    the sources are to be built (a missing ``link`` library is then an error).
    ``inputs`` receives what the run read.
    """
    files = _generate_each(
        config, backends or config.backends, Path(out_dir or config.output_dir), template_dirs,
        read or read_binding(config), report, linking, inputs,
    )
    return [path for paths in files.values() for path in paths]


def build_extension(
    config: BindingConfig,
    *,
    out_dir: Path | None = None,
    template_dirs: Sequence[Path] = (),
    report: Callable[[Diagnostic], None] | None = None,
    inputs: Inputs | None = None,
) -> list[Path]:
    """Phases 1-6: generate, then compile what needs compiling; returns the built artefacts.

    Cython and cffi (API mode) are compiled into extension modules; a ctypes
    module is plain Python (see ``pegbind.build``).  Each is then imported in a
    fresh interpreter: a module that cannot be imported is a BuildError.
    """
    from .build import build, check_import

    out_dir = Path(out_dir or config.output_dir)
    files = _generate_each(config, config.backends, out_dir, template_dirs, read_binding(config), report,
                           linking=True, inputs=inputs)
    built = []
    for backend, paths in files.items():
        built.append(build(config, paths, out_dir, backend=backend))
        check_import(config, out_dir, built[-1])
    return built
