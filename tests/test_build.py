"""build(): failures surface the tool's own message as a BuildError."""
from __future__ import annotations

import pytest

from pegbind.build import build
from pegbind.config import BindingConfig
from pegbind.diagnostics import BuildError, PegbindError

pytestmark = pytest.mark.slow


def _config(tmp_path, **changes) -> BindingConfig:
    header = tmp_path / "empty.h"
    header.write_text("/* nothing */\n")
    return BindingConfig(name="broken", headers=(header,), **changes)


def test_cython_error_is_a_build_error_with_location(tmp_path):
    pyx = tmp_path / "broken.pyx"
    pyx.write_text("def f(:\n    pass\n")
    with pytest.raises(BuildError) as caught:
        build(_config(tmp_path), [pyx], tmp_path / "out")
    assert isinstance(caught.value, PegbindError)
    located = [d for d in caught.value.diagnostics if d.coord is not None]
    assert located and located[0].coord.file.endswith("broken.pyx") and located[0].coord.line == 1


def test_compiler_error_carries_the_compiler_text(tmp_path):
    pyx = tmp_path / "broken.pyx"
    pyx.write_text('cdef extern from "no_such_header_here.h":\n    int f(int)\n\ndef g():\n    return f(1)\n')
    with pytest.raises(BuildError, match="no_such_header_here.h"):
        build(_config(tmp_path), [pyx], tmp_path / "out")


def test_build_needs_exactly_one_pyx(tmp_path):
    with pytest.raises(BuildError, match="expected one generated .pyx"):
        build(_config(tmp_path), [], tmp_path, backend="cython")
    with pytest.raises(BuildError, match="expected one generated .pyx"):
        build(_config(tmp_path), [], tmp_path)  # the config's only backend


def test_cflags_come_after_pegbinds_own_flags(tmp_path, monkeypatch):
    from pegbind.build import compiler_command, link_arguments

    config = BindingConfig(name="m", headers=(tmp_path / "m.h",), link=("z",))
    monkeypatch.setenv("CFLAGS", "-O0 -g")
    command = compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", [])
    assert command.index("-O0") > command.index("-O2") and "-g" in command
    # every library stays a dependency although the module refers to its functions weakly
    assert link_arguments(config) == ["-Wl,--push-state,--no-as-needed", "-lz", "-Wl,--pop-state"]
