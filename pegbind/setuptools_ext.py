"""Build-time hook: bindings built by ``pip install`` / ``python -m build`` of a user's project.

Input: paths of pegbind configuration files named in the user's ``setup.py``.
Output: setuptools ``Extension`` entries and a ``build_ext`` command that
generates and compiles them through the same pipeline as ``pegbind build``.

Two spellings, the same effect::

    setup(..., pegbind_bindings=["pegbind.toml"])          # keyword, via the entry point

    from pegbind.setuptools_ext import bindings
    setup(..., **bindings("pegbind.toml"))                 # explicit, no entry point needed

The hook builds the backends whose build leaves one extension module named
like the binding, which is what a setuptools ``Extension`` is
(``builds_extension`` in :mod:`pegbind.backends`: Cython); a binding that asks
for none of them is an error, not a binding silently left out.  Configuration
errors stop the build with pegbind's diagnostics, not a traceback.
"""
from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from setuptools import Extension
from setuptools.command.build_ext import build_ext as _setuptools_build_ext

from .backends import REGISTRY
from .config import BindingConfig, load_config
from .diagnostics import ConfigError, Diagnostic, PegbindError

try:  # setuptools >= 59 re-exports distutils' errors
    from setuptools.errors import SetupError
except ImportError:  # pragma: no cover
    from distutils.errors import DistutilsSetupError as SetupError


#: the backends the hook can build, in registry order
HOOK_BACKENDS = tuple(name for name, backend in REGISTRY.items() if backend.builds_extension)


class PegbindExtension(Extension):
    """An extension whose sources pegbind generates from ``config`` at build time.

    ``config.backends`` is the one backend it is built with (of :data:`HOOK_BACKENDS`).
    """

    def __init__(self, config: BindingConfig):
        # setuptools wants a source list; the header stands in for the generated sources.
        super().__init__(config.name, sources=[str(h) for h in config.headers])
        self.pegbind_config = config


class build_ext(_setuptools_build_ext):
    """setuptools' ``build_ext`` that builds :class:`PegbindExtension` entries with pegbind."""

    def build_extension(self, ext: Extension) -> None:
        if not isinstance(ext, PegbindExtension):
            super().build_extension(ext)
            return
        from .pipeline import build_extension

        config = ext.pegbind_config
        work = Path(self.build_temp) / "pegbind" / config.name
        try:
            (module,) = build_extension(config, out_dir=work)
        except PegbindError as exc:
            raise SetupError(f"pegbind could not build {config.name}:\n{exc.render()}") from None
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(module, target)
        # The stub travels with the module so IDEs see the signatures.
        stub = work / f"{config.name}.pyi"
        if stub.exists():
            shutil.copyfile(stub, target.parent / stub.name)

    def copy_extensions_to_source(self) -> None:
        """``--inplace``: setuptools copies the modules; the stubs go beside them."""
        super().copy_extensions_to_source()
        for ext in self.extensions:
            if not isinstance(ext, PegbindExtension):
                continue
            built_stub = Path(self.build_lib, *ext.name.split(".")).with_suffix(".pyi")
            package = ".".join(ext.name.split(".")[:-1])
            package_dir = Path(self.get_finalized_command("build_py").get_package_dir(package) or ".")
            if built_stub.exists():
                shutil.copyfile(built_stub, package_dir / built_stub.name)


def _for_the_hook(config: BindingConfig) -> BindingConfig:
    """``config`` narrowed to the first of its backends the hook builds; ConfigError when it has none."""
    from dataclasses import replace

    buildable = [backend for backend in config.backends if backend in HOOK_BACKENDS]
    if not buildable:
        where = config.coord(config.key("backends"))
        raise ConfigError(Diagnostic(where, f"backends: the setuptools hook builds only {' and '.join(HOOK_BACKENDS)} "
                                            f"bindings, and {config.name!r} asks for {', '.join(config.backends)}: "
                                            f"add {HOOK_BACKENDS[0]!r} to its backends, or build it with "
                                            "`pegbind build`"))
    return replace(config, backends=(buildable[0],))


def _load(paths: Iterable[str | Path]) -> list[BindingConfig]:
    configs: list[BindingConfig] = []
    for path in paths:
        try:
            configs.extend(_for_the_hook(c) for c in load_config(path))
        except PegbindError as exc:
            raise SetupError(f"pegbind configuration {path}:\n{exc.render()}") from None
    return configs


def bindings(*paths: str | Path) -> dict[str, Any]:
    """``setup()`` keywords building the bindings of the given configuration files (:data:`HOOK_BACKENDS`).

    Called in ``setup.py`` before ``setup()`` runs, so a configuration error
    ends the script with pegbind's diagnostics (exit status 1), as setuptools
    does for its own errors.
    """
    try:
        configs = _load(paths)
    except SetupError as exc:
        raise SystemExit(f"error: {exc}") from None
    return {
        "ext_modules": [PegbindExtension(config) for config in configs],
        "cmdclass": {"build_ext": build_ext},
    }


def pegbind_bindings(dist, attr: str, value: Any) -> None:
    """Handler of the ``pegbind_bindings=[...]`` keyword of ``setup()`` (entry point)."""
    if isinstance(value, (str, Path)):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, (str, Path)) for v in value):
        raise SetupError(f"{attr} must be a list of pegbind configuration files, got {value!r}")
    extra = bindings(*value)
    dist.ext_modules = [*(dist.ext_modules or []), *extra["ext_modules"]]
    dist.cmdclass = {**dist.cmdclass, "build_ext": build_ext}
