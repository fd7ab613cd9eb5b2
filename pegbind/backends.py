"""The back ends, registered by name: the one place that says which exist and what each one does.

Every front end that depends on the back end reads this table (STYLE 17):
config validation and the CLI's ``--backend`` choices (the names),
:func:`pegbind.emit.generate` (templates, filters, context), the pipeline's
check that two back ends would not write the same files (the outputs),
:func:`pegbind.build.build` and the setuptools hook (the build step).

Why a module of its own at the top of the package, not ``pegbind/emit/registry.py``:
importing anything under ``pegbind.emit`` first runs ``pegbind/emit/__init__.py``,
which loads Jinja and the binding model, while loading a config and
``pegbind --help`` need only the names and must stay quick.  So this module
imports nothing at load time beyond the standard library; what a back end
provides is found on first use: its emitter module ``pegbind.emit.<emitter>``
(``FILTERS``, ``OUTPUTS``, ``context``) and its build function in
``pegbind.build`` (which imports the config, which imports this module).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .diagnostics import PegbindError
from .frozen import frozen_dataclass

if TYPE_CHECKING:
    from .config import BindingConfig
    from .passes.binding import BindingModel

#: compiles the generated files (config, files, out_dir) into ``out_dir``; returns the module to import
BuildStep = Callable[["BindingConfig", "list[Path]", Path], Path]
#: writes the C source of the back end's extension module from the generated files
#: (config, files, out_dir, the module's full name); returns the .c file
CSourceStep = Callable[["BindingConfig", "list[Path]", Path, str], Path]


@frozen_dataclass()
class Backend:
    """One back end: how its sources are rendered and how they become an importable module."""

    name: str  #: as in config ``backends`` and ``--backend``
    #: the module ``pegbind.emit.<emitter>``: ``FILTERS`` (added to the Jinja environment),
    #: ``OUTPUTS`` ((template, suffix) pairs, rendered in order into ``<name><suffix>``) and
    #: ``context(binding, config) -> dict``, what its templates see; a context's ``left_out``
    #: entry lists, as warnings, what the back end cannot express beyond what the passes reported
    emitter: str
    #: None: nothing to compile, the generated ``<name>.py`` is the module
    build: BuildStep | None
    #: whether the module is C compiled against Python.h for this config (whose
    #: feature-test macros then come before the binding's headers)
    compiled: Callable[[BindingConfig], bool]
    #: the last part of the name of the extension module a build compiles for this config
    #: (``<name>`` for Cython, ``_<name>_cffi`` for cffi in API mode), None when it compiles
    #: none; the setuptools hook compiles it from :attr:`c_source`'s C with setuptools' compiler
    extension: Callable[[BindingConfig], str | None] = lambda config: None
    #: writes the C of that extension module (None for a back end that compiles none)
    c_source: CSourceStep | None = None

    def emitter_module(self) -> ModuleType:
        """``pegbind.emit.<emitter>``, imported on first use (it loads Jinja and the model)."""
        return importlib.import_module(f"pegbind.emit.{self.emitter}")

    @property
    def outputs(self) -> tuple[tuple[str, str], ...]:
        """(template, output suffix) pairs, rendered in this order."""
        return tuple(self.emitter_module().OUTPUTS)

    @property
    def filters(self) -> Mapping[str, Callable[..., Any]]:
        """The Jinja filters its templates use."""
        filters: Mapping[str, Callable[..., Any]] = self.emitter_module().FILTERS
        return filters

    def context(self, binding: BindingModel, config: BindingConfig) -> dict[str, Any]:
        """What its templates see for ``binding``."""
        context: dict[str, Any] = self.emitter_module().context(binding, config)
        return context

    def writes(self, module: str, out_dir: Path) -> frozenset[Path]:
        """The paths generating and building ``module`` into ``out_dir`` claims.

        Its outputs, and ``out_dir / module`` for the module itself: ``import module``
        finds one file whatever its suffix (an extension module shadows a ``.py``), so
        two back ends that each leave a module of that name in one folder collide as
        surely as two that write the same file.
        """
        return frozenset([out_dir / module, *(out_dir / f"{module}{suffix}" for _, suffix in self.outputs)])


#: name -> back end, in the order they are listed to users
REGISTRY: dict[str, Backend] = {}


def register(backend: Backend) -> Backend:
    """Add ``backend`` under its name (once)."""
    if backend.name in REGISTRY:
        raise ValueError(f"backend {backend.name!r} is registered twice")
    REGISTRY[backend.name] = backend
    return backend


def backend_names() -> tuple[str, ...]:
    """The registered names, in registration order (``--backend`` choices, config validation)."""
    return tuple(REGISTRY)


def get_backend(name: str) -> Backend:
    """The back end called ``name``; PegbindError naming the choices for an unknown one."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise PegbindError(f"unknown backend {name!r} (choose from {', '.join(REGISTRY)})") from None


def cffi_module_name(name: str) -> str:
    """The compiled module of a cffi binding called ``name`` in API mode, which its ``<name>.py`` imports."""
    return f"_{name}_cffi"


def _c_source_step(function: str) -> CSourceStep:
    """``pegbind.build.<function>``, imported when the step runs."""

    def step(config: BindingConfig, files: list[Path], out_dir: Path, module: str) -> Path:
        from . import build

        run: CSourceStep = getattr(build, function)
        return run(config, files, out_dir, module)

    step.__name__ = step.__qualname__ = function
    return step


def _build_step(function: str) -> BuildStep:
    """``pegbind.build.<function>``, imported when the step runs (see the module docstring)."""

    def step(config: BindingConfig, files: list[Path], out_dir: Path) -> Path:
        from . import build

        run: BuildStep = getattr(build, function)
        return run(config, files, out_dir)

    step.__name__ = step.__qualname__ = function
    return step


register(Backend(
    "cython", emitter="cython", build=_build_step("build_cython"),
    compiled=lambda config: True,
    extension=lambda config: config.name, c_source=_c_source_step("cython_c_source"),
))
# API mode compiles ``_<name>_cffi``; ABI mode (``load = "dynamic"``) opens the library at run time
register(Backend(
    "cffi", emitter="cffi_backend", build=_build_step("build_cffi"),
    compiled=lambda config: config.load != "dynamic",
    extension=lambda config: cffi_module_name(config.name) if config.load != "dynamic" else None,
    c_source=_c_source_step("cffi_c_source"),
))
register(Backend("ctypes", emitter="ctypes_backend", build=None, compiled=lambda config: False))
