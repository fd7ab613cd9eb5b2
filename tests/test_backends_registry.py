"""The backend registry (``pegbind.backends``): what it lists, and that every front end reads it.

Config validation, the CLI's ``--backend`` choices, the pipeline's check that two
backends would not write one module, ``build`` and the setuptools hook each ask
the registry; a backend registered here for the length of a test shows up in all
of them.  Real builds through the registered build steps are in test_build.py,
test_repro_builds.py and test_setuptools_hook.py.
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pegbind import backends
from pegbind.backends import Backend, backend_names, get_backend
from pegbind.build import build
from pegbind.config import BindingConfig, load_config
from pegbind.diagnostics import BuildError, ConfigError, PegbindError

OUTPUTS = {  # each with the stub every backend writes beside its module
    "cython": (("cython/cython.pxd.jinja", ".pxd"), ("cython/cython.pyx.jinja", ".pyx"),
               ("python/module.pyi.jinja", ".pyi")),
    "cffi": (("cffi/cffi_build.py.jinja", "_build.py"), ("cffi/cffi.py.jinja", ".py"),
             ("python/module.pyi.jinja", ".pyi")),
    "ctypes": (("ctypes/ctypes.py.jinja", ".py"), ("python/module.pyi.jinja", ".pyi")),
}


@pytest.fixture
def extra_backend(monkeypatch):
    """A fourth backend, registered for one test: it renders as ctypes and has nothing to compile."""
    extra = Backend("extra", emitter="ctypes_backend", build=None, compiled=lambda config: False)
    monkeypatch.setitem(backends.REGISTRY, "extra", extra)
    return extra


def test_the_registry_lists_the_three_backends_with_their_outputs():
    assert backend_names() == ("cython", "cffi", "ctypes")
    assert {name: get_backend(name).outputs for name in backend_names()} == OUTPUTS
    for name in backend_names():
        registered = get_backend(name)
        assert registered.filters and callable(registered.context)
    # ctypes has nothing to compile; Cython and cffi (API mode) compile one extension module each
    assert [name for name in backend_names() if get_backend(name).build is None] == ["ctypes"]
    config = BindingConfig(name="m", headers=())
    assert {name: get_backend(name).extension(config) for name in backend_names()} == {
        "cython": "m", "cffi": "_m_cffi", "ctypes": None}
    assert [name for name in backend_names() if get_backend(name).c_source is not None] == ["cython", "cffi"]


def test_the_backends_say_when_their_module_is_compiled_c():
    linked, dynamic = BindingConfig(name="m", headers=()), BindingConfig(name="m", headers=(), load="dynamic")
    assert [name for name in backend_names() if get_backend(name).compiled(linked)] == ["cython", "cffi"]
    assert [name for name in backend_names() if get_backend(name).compiled(dynamic)] == ["cython"]


def test_an_unknown_backend_names_the_choices():
    with pytest.raises(PegbindError, match=r"unknown backend 'rust' \(choose from cython, cffi, ctypes\)"):
        get_backend("rust")
    with pytest.raises(ValueError, match="registered twice"):
        backends.register(get_backend("ctypes"))


def test_config_validation_reads_the_registry(tmp_path, extra_backend):
    path = tmp_path / "pegbind.toml"
    path.write_text('name = "m"\nheaders = ["a.h"]\nbackends = ["rust"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.render().startswith(
        f"{path}:3:1: error: backends: unknown backend 'rust' (choose from cython, cffi, ctypes, extra)")
    path.write_text('name = "m"\nheaders = ["a.h"]\nbackends = ["extra"]\n')
    assert load_config(path)[0].backends == ("extra",)


def test_cli_backend_choices_come_from_the_registry(extra_backend, capsys):
    from pegbind.cli import build_parser

    args = build_parser().parse_args(["generate", "a.h", "--backend", "extra", "--backend", "ctypes"])
    assert args.backends == ["extra", "ctypes"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["build", "a.h", "--backend", "rust"])
    assert "invalid choice: 'rust' (choose from 'cython', 'cffi', 'ctypes', 'extra')" in capsys.readouterr().err


def test_build_runs_the_registered_build_step(tmp_path, monkeypatch):
    calls = []

    def step(config, files, out_dir):
        calls.append((config.name, files, out_dir))
        return out_dir / "built"

    monkeypatch.setitem(backends.REGISTRY, "cython", replace(get_backend("cython"), build=step))
    config = BindingConfig(name="m", headers=(), backends=("cython",))
    files = [tmp_path / "m.pyx"]
    assert build(config, files, tmp_path / "out", backend="cython") == tmp_path / "out" / "built"
    # without backend=, the config's only backend is the one
    assert build(config, files, tmp_path / "out") == tmp_path / "out" / "built"
    assert calls == [("m", files, tmp_path / "out")] * 2


def test_build_without_a_step_returns_the_generated_module(tmp_path):
    config = BindingConfig(name="m", headers=(), backends=("ctypes",))
    assert build(config, [tmp_path / "m.py"], tmp_path) == tmp_path / "m.py"
    with pytest.raises(BuildError, match=r"expected one generated ctypes module m\.py among \[\]"):
        build(config, [], tmp_path)


def test_build_does_not_guess_the_backend_from_file_names(tmp_path):
    config = BindingConfig(name="m", headers=(), backends=("cython", "ctypes"))
    with pytest.raises(BuildError, match=r"which backend generated .*\? the config names cython, ctypes: pass backend="):
        build(config, [tmp_path / "m.pyx"], tmp_path)
    with pytest.raises(PegbindError, match="unknown backend 'rust'"):
        build(config, [tmp_path / "m.pyx"], tmp_path, backend="rust")


def test_backends_clash_over_the_paths_they_declare(tmp_path, extra_backend):
    from pegbind.pipeline import _clashing_backends

    assert get_backend("cffi").writes("m", tmp_path) & get_backend("ctypes").writes("m", tmp_path) == {
        tmp_path / "m", tmp_path / "m.py", tmp_path / "m.pyi"}
    # cython's sources differ from cffi's, but both leave a module m (and its stub) in the folder;
    # the extension would shadow m.py
    assert get_backend("cython").writes("m", tmp_path) & get_backend("cffi").writes("m", tmp_path) == {
        tmp_path / "m", tmp_path / "m.pyi"}
    assert _clashing_backends(["cffi", "ctypes"], "m", tmp_path) == ["cffi", "ctypes"]
    assert _clashing_backends(["cython", "extra", "ctypes"], "m", tmp_path) == ["cython", "extra", "ctypes"]
    assert _clashing_backends(["ctypes"], "m", tmp_path) == []


def test_generating_two_backends_into_one_folder_is_refused(tmp_path):
    from pegbind.pipeline import generate_sources

    header = tmp_path / "m.h"
    header.write_text("int f(int);\n")
    config = BindingConfig(name="m", headers=(header,), backends=("cffi", "ctypes"))
    with pytest.raises(ConfigError) as caught:
        generate_sources(config, out_dir=tmp_path / "out")
    assert (f"backends cffi, ctypes would each write the module 'm' into {tmp_path / 'out'}: generate one at a time "
            "(--backend) into separate folders (-o) or under separate names (--name)") in caught.value.render()
    assert not (tmp_path / "out").exists()


def test_setuptools_hook_builds_one_backend_per_binding(tmp_path):
    from pegbind.setuptools_ext import bindings

    path = tmp_path / "pegbind.toml"
    path.write_text('name = "m"\nheaders = ["m.h"]\nbackends = ["ctypes", "cffi"]\n')
    with pytest.raises(SystemExit) as caught:
        bindings(path)
    assert str(caught.value).startswith(
        f"error: pegbind configuration {path}:\n{path}:3:1: error: backends: a binding built at install time is one "
        "module, and 'm' asks for ctypes, cffi: keep one backend, or give each its own [[binding]] with its own "
        "name\n")


@pytest.mark.parametrize(("name", "settings", "extension", "compiled", "abi3"), [
    ("m", 'backends = ["cython"]', "m", True, False),
    ("pkg.sub.m", 'backends = ["cython"]', "pkg.sub.m", True, False),
    ("pkg.m", 'backends = ["cffi"]', "pkg._m_cffi", True, True),
    ("pkg.m", 'backends = ["cffi"]\nload = "dynamic"', "pkg.m", False, False),
    ("m", 'backends = ["ctypes"]', "m", False, False),
])
def test_setuptools_hook_compiles_the_extension_each_backend_names(tmp_path, name, settings, extension, compiled,
                                                                   abi3):
    from pegbind.setuptools_ext import bindings

    path = tmp_path / "pegbind.toml"
    path.write_text(f'name = "{name}"\nheaders = ["m.h"]\n{settings}\n')
    (built,) = bindings(path)["ext_modules"]
    assert (built.name, built.pegbind_compiled, built.py_limited_api) == (extension, compiled, abi3)
    assert built.pegbind_config.qualified_name == name


def test_help_and_config_loading_do_not_import_jinja_or_the_emitters():
    code = ("import sys, pegbind.cli, pegbind.config, pegbind.backends; pegbind.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith(('jinja2', 'pegbind.emit', 'pegbind.build'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).parent)
    assert result.stdout.strip() == "[]"
