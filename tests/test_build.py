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
    assert [flag for flag in command if flag.startswith("-O")] == ["-O0"] and "-g" in command
    # a level there replaces pegbind's choice whole: GCC keeps an -fno-... option whatever -O follows
    monkeypatch.setenv("CC", "gcc")
    monkeypatch.setenv("CFLAGS", "-O2")
    command = compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", [])
    assert not [flag for flag in command if flag.startswith(("-fno-tree", "-finline", "-O1"))]
    assert "-O2" in command and "-flto=auto" in command
    # every library stays a dependency although the module refers to its functions weakly
    assert link_arguments(config) == ["-Wl,--push-state,--no-as-needed", "-lz", "-Wl,--pop-state"]


def test_optimised_builds_let_gcc_share_the_work_between_cores(tmp_path, monkeypatch):
    from pegbind.build import compiler_command

    config = BindingConfig(name="m", headers=(tmp_path / "m.h",))
    monkeypatch.setenv("CC", "gcc")
    monkeypatch.delenv("CFLAGS", raising=False)
    assert "-flto=auto" in compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", [])
    # unoptimised builds gain nothing from it, and $CFLAGS can refuse it
    for flags in ("-O0", "-O3 -Og -g", "-fno-lto", "-flto=4 -fno-lto"):
        monkeypatch.setenv("CFLAGS", flags)
        assert "-flto=auto" not in compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", []), flags
    # a compiler that is not GCC is not given GCC's option
    other = tmp_path / "other-cc"
    other.write_text('#!/bin/sh\necho "clang version 16.0.6" >&2\n')
    other.chmod(0o755)
    monkeypatch.setenv("CC", str(other))
    monkeypatch.delenv("CFLAGS")
    assert "-flto=auto" not in compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", [])


def test_gcc_optimises_as_measured_and_other_compilers_at_O2(tmp_path, monkeypatch):
    from pegbind.build import compiler_command

    config = BindingConfig(name="m", headers=(tmp_path / "m.h",))
    monkeypatch.delenv("CFLAGS", raising=False)
    monkeypatch.setenv("CC", "gcc")
    command = compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", [])
    assert [flag for flag in command if flag.startswith(("-O", "-fin", "-fpart", "-fopt", "-fno-tree"))] == [
        "-O1", "-finline-small-functions", "-fpartial-inlining", "-foptimize-sibling-calls", "-fno-tree-pta"]
    other = tmp_path / "other-cc"
    other.write_text('#!/bin/sh\necho "clang version 16.0.6" >&2\n')
    other.chmod(0o755)
    monkeypatch.setenv("CC", str(other))
    command = compiler_command(config, tmp_path / "m.c", tmp_path / "m.so", [])
    assert [flag for flag in command if flag.startswith(("-O", "-fin", "-fpart", "-fopt", "-fno-tree"))] == ["-O2"]


def test_the_c_of_a_cython_module_asks_for_its_import_time_code_unoptimised(tmp_path):
    import subprocess
    import sys

    from pegbind.build import COLD_CODE_HINT

    pyx = tmp_path / "coldinit.pyx"
    pyx.write_text("TABLE = {name: len(name) for name in ('a', 'bb', 'ccc')}\n\n"
                   "def f(int a):\n    return a + TABLE['bb']\n")
    header = tmp_path / "empty.h"
    header.write_text("/* nothing */\n")
    module = build(BindingConfig(name="coldinit", headers=(header,)), [pyx], tmp_path / "out")
    assert (tmp_path / "out" / "coldinit.c").read_bytes().startswith(COLD_CODE_HINT)
    ran = subprocess.run([sys.executable, "-c", "import coldinit; print(coldinit.f(40))"], cwd=module.parent,
                         capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "42"


def test_cython_runs_without_the_cycle_collector_and_writes_the_c_python_m_cython_writes(tmp_path):
    import subprocess
    import sys

    from pegbind.build import _cython_command

    pyx = tmp_path / "same.pyx"
    pyx.write_text("cdef class Box:\n    cdef object held\n\n"
                   "def f(int a, /, b=None):\n    return [a, b, {'k': (a,)}]\n")
    ours = _cython_command([pyx], tmp_path / "ours.c")
    assert "gc.disable()" in ours[2]
    subprocess.run(ours, check=True, capture_output=True)
    theirs = [sys.executable, "-m", "cython", *ours[3:]]
    theirs[theirs.index(str(tmp_path / "ours.c"))] = str(tmp_path / "theirs.c")
    subprocess.run(theirs, check=True, capture_output=True)
    assert (tmp_path / "ours.c").read_bytes() == (tmp_path / "theirs.c").read_bytes()


def test_a_changed_pyx_is_built_again_in_the_same_folder(tmp_path):
    # the C file of the first build starts with pegbind's hint, not with Cython's own first line
    header = tmp_path / "empty.h"
    header.write_text("/* nothing */\n")
    config = BindingConfig(name="again", headers=(header,))
    pyx = tmp_path / "again.pyx"
    pyx.write_text("def f():\n    return 1\n")
    build(config, [pyx], tmp_path / "out")
    pyx.write_text("def f():\n    return 2\n")
    build(config, [pyx], tmp_path / "out")
    assert b"return 2" in (tmp_path / "out" / "again.c").read_bytes()


def test_a_member_named_like_a_macro_of_complex_h_keeps_its_name(tmp_path):
    # Cython includes <complex.h> for complex types, after the header, which never did:
    # its macro I would turn the member x.I into x._Complex_I
    import subprocess
    import sys

    header = tmp_path / "holder.h"
    header.write_text("struct holder { int I; double _Complex complex; };\n")
    pyx = tmp_path / "holder.pyx"
    pyx.write_text('cdef extern from "holder.h":\n'
                   '    struct holder:\n'
                   '        int I\n'
                   '        double complex value "complex"\n\n'
                   "def f(int v):\n"
                   "    cdef holder h\n"
                   "    h.I = v\n"
                   "    h.value = 1j * v\n"
                   "    return h.I, h.value\n")
    module = build(BindingConfig(name="holder", headers=(header,), include_dirs=(str(tmp_path),)), [pyx],
                   tmp_path / "out")
    ran = subprocess.run([sys.executable, "-c", "import holder; print(holder.f(3))"], cwd=module.parent,
                         capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "(3, 3j)"


def test_a_cffi_build_keeps_the_compilers_chatter_to_itself_unless_asked(tmp_path):
    # glibc marks functions it calls obsolete with a .gnu.warning section, which the
    # linker prints when a module calls them (netdb.h's inet6_option_*): the cffi build
    # let those lines through, naming the generated C, where the Cython build says nothing
    from conftest import UNOPTIMISED, run_pegbind

    (tmp_path / "old.h").write_text("int old_api(int x);\n")
    (tmp_path / "old.c").write_text(
        'int old_api(int x) { return x + 1; }\n'
        '__asm__(".section .gnu.warning.old_api\\n\\t.ascii \\"old_api is obsolete\\"\\n\\t.text");\n')
    common = [str(tmp_path / "old.h"), "--source", str(tmp_path / "old.c"), "--backend", "cffi", "--name", "oldm"]
    quiet = run_pegbind("build", *common, "-o", str(tmp_path / "quiet"), env=UNOPTIMISED)
    assert quiet.returncode == 0, quiet.stderr
    assert "obsolete" not in quiet.stderr and "ld:" not in quiet.stderr, quiet.stderr
    verbose = run_pegbind("build", *common, "-o", str(tmp_path / "verbose"), "-v", env=UNOPTIMISED)
    assert verbose.returncode == 0 and "old_api is obsolete" in verbose.stderr, verbose.stderr
    # a build that fails shows what the compiler said, located, as the Cython build does
    (tmp_path / "old.c").write_text("int old_api(int x) { return x + 1 }\n")
    failed = run_pegbind("build", *common, "-o", str(tmp_path / "failed"), env=UNOPTIMISED)
    assert failed.returncode == 1
    assert f"{tmp_path / 'old.c'}:1:34: error: expected" in failed.stderr, failed.stderr
    assert "error: error:" not in failed.stderr


def test_the_import_must_find_the_file_built_not_another_of_the_name(tmp_path):
    # a Cython build left in the folder is imported before the ctypes module built after it
    # (an extension module comes first, as a package does); the build said it had succeeded
    from pegbind.build import check_import

    out = tmp_path / "out"
    (out / "broken").mkdir(parents=True)
    (out / "broken" / "__init__.py").write_text("")
    (out / "broken.py").write_text("")
    with pytest.raises(BuildError) as caught:
        check_import(_config(tmp_path), out, out / "broken.py")
    assert str(caught.value).endswith(f"cannot be imported: ImportError: importing broken found {out}/broken/__init__.py, "
                                      f"not the one built ({out}/broken.py): remove it, or build into another folder")
    (out / "broken" / "__init__.py").unlink()
    (out / "broken").rmdir()
    check_import(_config(tmp_path), out, out / "broken.py")
