"""Build-time hook: bindings built by ``pip install`` / ``python -m build`` of a user's project.

Input: pegbind configuration files (a ``pyproject.toml`` with a ``[tool.pegbind]``
table, or ``pegbind.toml`` files).  Output: setuptools ``Extension`` entries,
and ``build_ext``/``sdist`` commands that generate and build them with the
project's own compiler settings.

Three ways in, the same effect::

    # pyproject.toml alone: [tool.pegbind] is found through setuptools'
    # finalize_distribution_options entry point (no setup.py needed)

    setup(..., pegbind_bindings=["pegbind.toml"])          # keyword, via the entry point

    from pegbind.setuptools_ext import bindings
    setup(..., **bindings("pegbind.toml"))                 # explicit, no entry point needed

Every backend builds: the C of a Cython module, or of a cffi module in API mode
(``_<name>_cffi``, on the stable ABI), comes from the backend's ``c_source``
step in :mod:`pegbind.backends` and is compiled by setuptools' compiler, so
``CC``, ``CFLAGS``, ``LDFLAGS`` and the ``build_ext`` options apply as to any
extension; the Python modules (ctypes, the cffi wrapper) and the ``.pyi``
stubs are written beside it, in a package when ``name`` is dotted
(``mypkg._native``).  Nothing gives the module a run path: a library outside
the loader's search path is found through ``LD_LIBRARY_PATH`` (or installed
where the loader looks), never through a folder of the build machine.

The sdist carries each binding's headers (those under the project folder that
the preprocessor opens), extra C sources and configuration file; those files
stay out of the wheel's package data.  Configuration errors stop the build
with pegbind's diagnostics, not a traceback.
"""
from __future__ import annotations

import copy
import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from setuptools import Extension
from setuptools.command.build_ext import build_ext as _setuptools_build_ext

from .backends import get_backend
from .config import BindingConfig, load_config, with_headers_found
from .diagnostics import ConfigError, Diagnostic, PegbindError

try:
    import tomllib as _toml
except ImportError:  # Python 3.10
    import tomli as _toml  # type: ignore[no-redef,import-not-found]

try:  # setuptools >= 59 re-exports distutils' errors
    from setuptools.errors import SetupError
except ImportError:  # pragma: no cover
    from distutils.errors import DistutilsSetupError as SetupError

#: the file whose ``[tool.pegbind]`` table a project without any other pegbind set-up is built from
PYPROJECT = "pyproject.toml"


class PegbindExtension(Extension):
    """One binding built with one backend; pegbind generates its sources at build time.

    ``name`` is what setuptools compiles: the backend's extension module
    (``mypkg._native`` for Cython, ``mypkg._native_cffi`` for cffi), or the
    binding's module itself when the backend compiles nothing (ctypes, cffi
    with ``load = "dynamic"``).  ``sources`` lists the binding's inputs inside
    the project, which is what puts them into the sdist; the build replaces them
    with the generated C and the ``sources`` of the config.
    """

    def __init__(self, config: BindingConfig, backend: str, inputs: list[str]):
        compiled = get_backend(backend).extension(config)
        super().__init__(
            _qualified(config.package, compiled) if compiled else config.qualified_name,
            sources=inputs,
            # cffi's C uses the stable ABI (it defines Py_LIMITED_API itself): an .abi3 module
            py_limited_api=backend == "cffi" and compiled is not None,
        )
        self.pegbind_config = config
        self.pegbind_backend = backend
        self.pegbind_compiled = compiled is not None

    def python_files(self, folder: Path) -> list[Path]:
        """The Python files of the binding in ``folder`` (a package's folder): its ``.py`` module
        when the backend writes one, and its ``.pyi`` stub."""
        name = self.pegbind_config.name
        wanted = {f"{name}{suffix}" for _, suffix in get_backend(self.pegbind_backend).outputs} & {
            f"{name}.py", f"{name}.pyi"}
        return [folder / file for file in sorted(wanted)]


def _qualified(package: str, name: str) -> str:
    return f"{package}.{name}" if package else name


class build_ext(_setuptools_build_ext):
    """setuptools' ``build_ext`` that generates :class:`PegbindExtension` entries with pegbind first."""

    def build_extension(self, ext: Extension) -> None:
        if not isinstance(ext, PegbindExtension):
            super().build_extension(ext)
            return
        from dataclasses import replace

        from .pipeline import generate_sources

        config = ext.pegbind_config
        backend = get_backend(ext.pegbind_backend)
        work = Path(self.build_temp) / "pegbind" / config.qualified_name / backend.name
        try:
            files = generate_sources(replace(config, backends=(backend.name,), run_path=False), out_dir=work,
                                     report=_warn, linking=True)
            if ext.pegbind_compiled:
                assert backend.c_source is not None
                c_file = backend.c_source(config, files, work, ext.name)
                # a copy: the extension's own sources stay what the sdist lists
                self._compile_extension(copy.copy(ext), config, c_file)
        except PegbindError as exc:
            raise SetupError(f"pegbind could not build {config.qualified_name}:\n{exc.render()}") from None
        if backend.name == "cffi" and not _requires(self.distribution, "cffi"):
            _warn(Diagnostic(config.coord(config.key("backends")),
                             f"{config.qualified_name} imports cffi when it runs: add \"cffi\" to the "
                             "project's dependencies", "warning"))
        package_folder = Path(self.build_lib, *config.package.split(".")) if config.package else Path(self.build_lib)
        package_folder.mkdir(parents=True, exist_ok=True)
        for built in ext.python_files(work):
            shutil.copyfile(built, package_folder / built.name)

    def _compile_extension(self, ext: PegbindExtension, config: BindingConfig, c_file: Path) -> None:
        """Compile ``c_file`` and the config's sources into ``ext`` through setuptools' compiler.

        The generated C is compiled on its own, with warnings off (they are not the
        user's to fix); the config's ``sources`` are compiled as any extension's are,
        warnings and ``CFLAGS`` included.
        """
        from .build import HEADERS_AS_READ, header_folders, link_arguments, parallel_code_generation

        ext.include_dirs = [*ext.include_dirs, *(str(folder) for folder in header_folders(config))]
        ext.define_macros = [*ext.define_macros, *config.defines.items()]
        ext.undef_macros = [*ext.undef_macros, *config.undefines]
        ext.library_dirs = [*ext.library_dirs, *(str(folder) for folder in config.library_dirs)]
        if sys.platform.startswith("linux"):
            # the generated code refers to the library weakly: keep it linked (see link_arguments)
            ext.extra_link_args = [*ext.extra_link_args, *link_arguments(config)]
        else:
            ext.libraries = [*ext.libraries, *config.link]
        quiet = ["/w"] if self.compiler.compiler_type == "msvc" else ["-w", *HEADERS_AS_READ]
        parallel: list[str] = []
        if self.compiler.compiler_type == "unix":
            # GCC optimises the module's parts in parallel when it links them (see the function)
            command = [*self.compiler.compiler_so, *ext.extra_compile_args]
            parallel = parallel_code_generation(command[:1], command)
            ext.extra_link_args = [*ext.extra_link_args, *parallel]
        objects = self.compiler.object_filenames([str(c_file)], output_dir=self.build_temp)
        if self.force or not os.path.exists(objects[0]) or os.path.getmtime(objects[0]) < os.path.getmtime(c_file):
            objects = self.compiler.compile(
                [str(c_file)], output_dir=self.build_temp, macros=ext.define_macros + [(n,) for n in ext.undef_macros],
                include_dirs=ext.include_dirs, debug=self.debug,
                extra_postargs=[*parallel, *ext.extra_compile_args, *quiet],
            )
        ext.sources = [_relative(source) for source in config.sources]
        ext.extra_objects = [*objects, *ext.extra_objects]
        ext.depends = [*objects, *ext.depends]
        super().build_extension(ext)

    def _pegbind(self) -> list[PegbindExtension]:
        return [ext for ext in self.extensions if isinstance(ext, PegbindExtension)]

    def _python_outputs(self, inplace: bool) -> Iterator[tuple[str, str]]:
        """(file in build_lib, file in the source tree) for the Python files of every binding."""
        build_py = self.get_finalized_command("build_py")
        for ext in self._pegbind():
            package = ext.pegbind_config.package
            built = Path(self.build_lib, *package.split(".")) if package else Path(self.build_lib)
            source = Path(build_py.get_package_dir(package) or os.curdir)
            for path in ext.python_files(built):
                yield str(path), str(source / path.name) if inplace else str(path)

    @contextmanager
    def _compiled_only(self) -> Iterator[None]:
        """Within: ``self.extensions`` as setuptools itself compiles, copies and lists them, without
        the bindings whose backend compiles nothing (their module is Python, see :meth:`_python_outputs`)."""
        everything: list[Extension] = self.extensions  # type: ignore[has-type]
        self.extensions = [e for e in everything if not isinstance(e, PegbindExtension) or e.pegbind_compiled]
        try:
            yield
        finally:
            self.extensions = everything

    def copy_extensions_to_source(self) -> None:
        """``--inplace`` and editable installs: the modules, Python ones included, and the stubs
        go into the source tree."""
        with self._compiled_only():
            super().copy_extensions_to_source()
        for built, source in self._python_outputs(inplace=True):
            if os.path.exists(built):
                self.copy_file(built, source, level=self.verbose)

    def get_outputs(self) -> list[str]:
        with self._compiled_only():
            outputs = list(super().get_outputs())
        return outputs + [source for _, source in self._python_outputs(self.inplace)]

    def get_output_mapping(self) -> dict[str, str]:
        with self._compiled_only():
            mapping = dict(super().get_output_mapping())
        if self.inplace:
            mapping.update(self._python_outputs(inplace=True))
        return mapping


def _warn(diagnostic: Diagnostic) -> None:
    """What the binding leaves out, and why: on stderr, as pegbind's CLI says it."""
    print(diagnostic.render(), file=sys.stderr)


def _requires(dist: Any, project: str) -> bool:
    """Whether ``dist`` lists ``project`` among what it needs when installed."""
    name = re.compile(rf"\s*{re.escape(project)}\b(?![-_.])", re.IGNORECASE)
    return any(name.match(str(requirement)) for requirement in dist.install_requires or [])


def _relative(path: str | Path) -> str:
    """``path`` relative to the project folder (setuptools runs there), as setuptools wants sources."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _inputs(config: BindingConfig) -> list[str]:
    """The binding's files inside the project folder, relative to it: its configuration file,
    every header the preprocessor opens there (those it includes too), and its C sources."""
    root = Path.cwd().resolve()
    opened: list[str | Path] = list(config.headers)
    try:
        from .pipeline import preprocess_binding

        opened = [*opened, *preprocess_binding(config).files]
    except PegbindError:
        pass  # the build reports it; the sdist still gets the headers named
    found = []
    for path in [Path(config.source), *(Path(p) for p in opened), *config.sources]:
        try:
            found.append(path.resolve().relative_to(root).as_posix())
        except (ValueError, OSError):
            continue  # outside the project: the system's headers
    return [path for path in dict.fromkeys(found) if Path(path).is_file()]


def _for_the_hook(config: BindingConfig) -> str:
    """The one backend ``config`` is built with; ConfigError when it names several, which would all
    be one module of the same name."""
    if len(config.backends) != 1:
        where = config.coord(config.key("backends"))
        raise ConfigError(Diagnostic(where, f"{config.key('backends')}: a binding built at install time is one "
                                            f"module, and {config.qualified_name!r} asks for "
                                            f"{', '.join(config.backends)}: keep one backend, or give each its "
                                            "own [[binding]] with its own name"))
    return config.backends[0]


def _load(paths: Iterable[str | Path]) -> list[tuple[BindingConfig, str]]:
    configs: list[tuple[BindingConfig, str]] = []
    for path in paths:
        try:
            found = (with_headers_found(c, Path(c.source).parent) for c in load_config(path))
            configs.extend((c, _for_the_hook(c)) for c in found)
        except PegbindError as exc:
            raise SetupError(f"pegbind configuration {path}:\n{exc.render()}") from None
    return configs


def _extensions(paths: Iterable[str | Path]) -> list[PegbindExtension]:
    return [PegbindExtension(config, backend, _inputs(config)) for config, backend in _load(paths)]


def _package_data_excluded(extensions: list[PegbindExtension]) -> dict[str, list[str]]:
    """``exclude_package_data`` keeping the binding's inputs out of the wheel: a ``csrc/`` folder
    that setuptools' discovery takes for a package would otherwise carry them into site-packages."""
    excluded: dict[str, list[str]] = {}
    for ext in extensions:
        for path in ext.sources:
            folder, _, file = path.rpartition("/")
            package = folder.replace("/", ".")
            if all(part.isidentifier() for part in package.split(".")) or not folder:
                excluded.setdefault(package, []).append(file)
    return excluded


def _configure(dist: Any) -> None:
    """Give ``dist``, whose ``ext_modules`` hold the bindings, the commands that build them, and
    keep their inputs out of its package data."""
    extensions = [ext for ext in dist.ext_modules or [] if isinstance(ext, PegbindExtension)]
    dist.cmdclass = {**dist.cmdclass, "build_ext": build_ext}
    excluded = dict(getattr(dist, "exclude_package_data", None) or {})
    for package, files in _package_data_excluded(extensions).items():
        excluded[package] = [*excluded.get(package, []), *files]
    dist.exclude_package_data = excluded
    limited = [ext for ext in dist.ext_modules if getattr(ext, "py_limited_api", False)]
    # (a free-threaded CPython has no stable ABI to tag)
    if limited and len(limited) == len(dist.ext_modules) and not sysconfig.get_config_var("Py_GIL_DISABLED"):
        # every module is on the stable ABI: tag the wheel abi3 (it serves this CPython and later
        # ones), unless the project says otherwise
        options = dist.get_option_dict("bdist_wheel")
        options.setdefault("py_limited_api", ("pegbind", f"cp{sys.version_info[0]}{sys.version_info[1]}"))
    dist.pegbind_configured = True


def bindings(*paths: str | Path) -> dict[str, Any]:
    """``setup()`` keywords building the bindings of the given configuration files.

    Called in ``setup.py`` before ``setup()`` runs, so a configuration error
    ends the script with pegbind's diagnostics (exit status 1), as setuptools
    does for its own errors.
    """
    try:
        extensions = _extensions(paths)
    except SetupError as exc:
        raise SystemExit(f"error: {exc}") from None
    # the rest (package data, the wheel's tag) is done by finalize_distribution, which
    # setuptools runs once it has these
    return {"ext_modules": extensions, "cmdclass": {"build_ext": build_ext}}


def pegbind_bindings(dist: Any, attr: str, value: Any) -> None:
    """Handler of the ``pegbind_bindings=[...]`` keyword of ``setup()`` (entry point)."""
    if isinstance(value, (str, Path)):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, (str, Path)) for v in value):
        raise SetupError(f"{attr} must be a list of pegbind configuration files, got {value!r}")
    dist.ext_modules = [*(dist.ext_modules or []), *_extensions(value)]
    _configure(dist)


def finalize_distribution(dist: Any) -> None:
    """setuptools' ``finalize_distribution_options`` entry point.

    A project whose ``pyproject.toml`` has a ``[tool.pegbind]`` table, and that
    sets up no binding otherwise, builds it; bindings given to ``setup()`` by
    :func:`bindings` get the rest of their set-up here.
    """
    if getattr(dist, "pegbind_configured", False):
        return
    if not any(isinstance(ext, PegbindExtension) for ext in dist.ext_modules or []):
        if not os.path.isfile(PYPROJECT):
            return
        try:
            with open(PYPROJECT, "rb") as file:
                tool = _toml.load(file).get("tool", {})
        except (OSError, _toml.TOMLDecodeError):
            return  # setuptools reads it too, and says what is wrong
        if "pegbind" not in tool:
            return
        dist.ext_modules = [*(dist.ext_modules or []), *_extensions([PYPROJECT])]
    _configure(dist)


# after setuptools' own hooks (order 0), which run the setup() keywords: pegbind_bindings= wins
finalize_distribution.order = 10  # type: ignore[attr-defined]
