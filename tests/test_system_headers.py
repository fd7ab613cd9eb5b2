"""Headers as gcc finds them: the C library's and the compiler's own, with pegbind's freestanding ones.

pegbind ships only what a compiler ships (``stddef.h``, ``stdint.h`` ...); the
C library's headers are read from the system for the machine's own target,
from a cross target's sysroot where one is installed, and from pegbind's
bundled fallback only where neither is.  The compiler's own include folder
(``immintrin.h``) is searched after the freestanding headers.
"""
from __future__ import annotations

import json
import os
import sysconfig
from pathlib import Path

import pytest

from pegbind.cli import main
from pegbind.config import BindingConfig
from pegbind.passes.select import select_declarations
from pegbind.parse import parse_declarations
from pegbind.pipeline import binding_defines, read_binding
from pegbind.toolchain import python_feature_macros
from pegbind.preprocess import preprocess
from pegbind.preprocess.includes import IncludeResolver, system_include_dirs
from pegbind.resources import fallback_include_dir, standard_include_dir
from pegbind.target import get_target
from pegbind.toolchain import compiler_for, host_target, search_dirs
from pegbind.verify import verify

native = pytest.mark.skipif(host_target() != "linux-x86_64" or system_include_dirs("linux-x86_64") is None,
                            reason="needs the C library's headers of linux-x86_64")
with_compiler = pytest.mark.skipif(not search_dirs(host_target() or "linux-x86_64").include,
                                   reason="needs a C compiler that names its include folder")


def dump(capsys, *args: str) -> dict:
    status = main(["dump", *args])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return json.loads(captured.out)


@native
def test_the_c_library_headers_are_the_systems(tmp_path):
    header = tmp_path / "uses.h"
    header.write_text("#include <stdio.h>\n#include <sys/select.h>\n#include <stdint.h>\nint uses(FILE *f, fd_set *s);\n")
    result = preprocess([header], target="linux-x86_64")
    by_name = {Path(f).name: f for f in result.files}
    assert os.path.realpath(by_name["stdio.h"]).startswith("/usr/include/")
    assert result.origin(by_name["stdio.h"]) == "system"
    # glibc asks for single names from stddef.h and stdarg.h: ours answer (and gcc's are passed over)
    assert Path(by_name["stddef.h"]).parent == standard_include_dir()
    assert Path(by_name["stdarg.h"]).parent == standard_include_dir()
    assert result.origin(by_name["stddef.h"]) == "standard"
    # our stdint.h reads the C library's, as gcc's does
    assert any(f.startswith("/usr/include") and f.endswith("/stdint.h") for f in result.files)
    assert not any(Path(f).parent == fallback_include_dir() for f in result.files)


@native
def test_c_library_records_agree_with_gcc_field_names_included(tmp_path):
    # The records that differed when pegbind had its own copies of these headers:
    # fd_set (fds_bits), struct __jmp_buf_tag (__saved_mask), and their neighbours.
    header = tmp_path / "uses.h"
    header.write_text(
        "#include <sys/select.h>\n#include <setjmp.h>\n#include <signal.h>\n#include <sys/stat.h>\n"
        "#include <netdb.h>\n#include <time.h>\n#include <stdio.h>\n"
        "int uses_fds(fd_set *set);\nint uses_jmp(jmp_buf env);\nint uses_sig(struct sigaction *act);\n"
        "int uses_stat(struct stat *st);\nint uses_ai(struct addrinfo *ai);\nint uses_tm(struct tm *tm);\n"
        "int uses_sigwait(siginfo_t *info);\nint uses_file(FILE *f);\n"
    )
    config = BindingConfig(name="uses", headers=(header,))
    read = read_binding(config)
    exposed = select_declarations(read.module, config)
    keys = {r.key for r in exposed.records}
    assert {"fd_set", "struct __jmp_buf_tag", "struct sigaction", "struct stat", "struct addrinfo",
            "struct tm", "siginfo_t"} <= keys
    # si_pid and sa_handler are macros naming members inside unions: the probe must #undef them
    assert {"si_pid", "sa_handler"} <= set(exposed.hiding_macros())
    report = verify(exposed, headers=[header], defines=binding_defines(config), target=read.target)
    assert report.ok, report.format()
    assert report.checked > 100


@native
def test_headers_are_read_as_the_compiled_module_sees_them(tmp_path):
    # Python.h comes first in a compiled module, and its pyconfig.h defines _GNU_SOURCE and
    # _FILE_OFFSET_BITS=64: glibc then names fd_set's member fds_bits, not __fds_bits.
    assert python_feature_macros("linux-x86_64").get("_GNU_SOURCE") == "1"
    header = tmp_path / "uses.h"
    header.write_text("#include <sys/select.h>\nint uses_fds(fd_set *set);\n")
    config = BindingConfig(name="uses", headers=(header,))
    exposed = select_declarations(read_binding(config).module, config)
    assert [f.name for f in exposed.record("fd_set").fields or ()] == ["fds_bits"]
    plain = parse_declarations(preprocess([header], target="linux-x86_64"), get_target("linux-x86_64"))
    assert [f.name for f in plain.record("fd_set").fields or ()] == ["__fds_bits"]
    # the user's -D and -U still win
    config = BindingConfig(name="uses", headers=(header,), undefines=("_GNU_SOURCE", "_XOPEN_SOURCE"))
    exposed = select_declarations(read_binding(config).module, config)
    assert [f.name for f in exposed.record("fd_set").fields or ()] == ["__fds_bits"]


@with_compiler
def test_the_compilers_own_headers_are_found(tmp_path, capsys):
    header = tmp_path / "simd.h"
    header.write_text(
        "#include <immintrin.h>\n"
        "typedef struct { __m128 lanes; int count; } simd_vec;\n"
        "int simd_add(int a, int b);\n"
        "void simd_fill(simd_vec *v, float x);\n"
    )
    found = dump(capsys, str(header))
    assert set(found["functions"]) == {"simd_add", "simd_fill"}
    assert not any(name.startswith("_mm") for name in found["functions"])
    result = preprocess([header], target=host_target())
    immintrin = next(f for f in result.files if f.endswith("/immintrin.h"))
    assert Path(immintrin).parent == Path(search_dirs(host_target() or "").include[0])
    assert result.origin(immintrin) == "system"


@with_compiler
def test_a_vector_type_is_left_out_with_its_reason_and_the_rest_binds(tmp_path, capsys):
    header = tmp_path / "simd.h"
    header.write_text(
        "#include <immintrin.h>\n"
        "typedef float simd_f4 __attribute__((vector_size(16)));\n"
        "typedef struct { __m128 lanes; int count; } simd_vec;\n"
        "int simd_add(int a, int b);\n"
    )
    out = tmp_path / "out"
    assert main(["generate", str(header), "--backend", "ctypes", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "simd.h:2:" in err and "vector types (vector_size) have no binding" in err
    assert "simd_vec" in err  # its layout needs __m128, a vector type
    assert "def simd_add" in (out / "simd.py").read_text()


@with_compiler
def test_naming_the_compilers_folder_with_dash_I_changes_nothing(tmp_path, capsys):
    # gcc ignores -I for a folder it searches as a system folder; so does pegbind
    header = tmp_path / "va.h"
    header.write_text("#include <stdarg.h>\n#include <stdio.h>\nint vlog(const char *f, va_list a);\nint add(int a, int b);\n")
    plain = dump(capsys, str(header))
    compiler_dir = search_dirs(host_target() or "").include[0]
    with_dir = dump(capsys, str(header), "-I", compiler_dir)
    assert plain["functions"] == with_dir["functions"]
    assert with_dir["diagnostics"] == []


def test_a_typedef_may_be_declared_again_as_the_same_type(tmp_path, capsys):
    header = tmp_path / "again.h"
    header.write_text(
        "typedef __builtin_va_list __gnuc_va_list;\ntypedef __builtin_va_list va_list;\n"
        "typedef __gnuc_va_list va_list;\n"
        "typedef unsigned long size_t;\ntypedef size_t my_size;\ntypedef unsigned long my_size;\n"
        "typedef int (*cb)(my_size n);\ntypedef int (*cb)(unsigned long count);\n"
    )
    found = dump(capsys, str(header))
    assert found["typedefs"]["my_size"] == "size_t"  # the first declaration is kept
    header.write_text("typedef unsigned long my_size;\ntypedef long my_size;\n")
    assert main(["dump", str(header)]) == 1
    assert "again.h:2:14: error: conflicting types for typedef 'my_size': 'long' after 'unsigned long'" \
        in capsys.readouterr().err


@pytest.mark.parametrize("target", ["linux-aarch64", "win-x86_64", "linux-i386"])
def test_a_cross_target_reads_its_sysroot_or_else_the_fallback(target, tmp_path):
    header = tmp_path / "t.h"
    header.write_text("#include <stdio.h>\n#include <stdint.h>\nint t(FILE *f, int64_t n);\n")
    result = preprocess([header], target=target)
    stdio = next(f for f in result.files if f.endswith("/stdio.h"))
    installed = system_include_dirs(target)
    if installed is None:
        assert Path(stdio).parent == fallback_include_dir()
    else:
        assert any(Path(stdio).parent == Path(folder) for folder in installed)
    assert result.origin(stdio) in ("system", "standard")


def test_the_resolver_chain_is_gccs_order():
    target = host_target() or "linux-x86_64"
    chain = IncludeResolver(["/nonexistent/include", "/usr/include"], target).chain
    paths = [entry.path for entry in chain]
    assert paths[0] == "/nonexistent/include"
    assert paths[1] == str(standard_include_dir())
    assert paths.count("/usr/include") <= 1  # a system folder named with -I is searched as a system folder
    compiler = list(search_dirs(target).include)
    if compiler and compiler_for(target):
        assert paths[2:2 + len(compiler)] == compiler
        assert all("stddef.h" in entry.shadowed for entry in chain[2:2 + len(compiler)])


@native
def test_debians_pyconfig_wrapper_is_followed(monkeypatch, tmp_path):
    # Debian's /usr/include/python3.X/pyconfig.h only includes the one of the architecture.
    real = sysconfig.get_config_h_filename()
    wrapper = tmp_path / "pyconfig.h"
    wrapper.write_text(f'#if defined(__linux__) && defined(__x86_64__)\n#include "{real}"\n#endif\n')
    monkeypatch.setattr(sysconfig, "get_config_h_filename", lambda: str(wrapper))
    python_feature_macros.cache_clear()
    try:
        assert python_feature_macros("linux-x86_64").get("_GNU_SOURCE") == "1"
    finally:
        python_feature_macros.cache_clear()


@native
def test_the_feature_macros_are_kept_until_a_file_they_were_read_from_changes(monkeypatch, tmp_path):
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    inner = tmp_path / "inner.h"
    inner.write_text("#define _GNU_SOURCE 1\n")
    wrapper = tmp_path / "pyconfig.h"
    wrapper.write_text(f'#include "{inner}"\n#define _FILE_OFFSET_BITS 64\n')
    monkeypatch.setattr(sysconfig, "get_config_h_filename", lambda: str(wrapper))

    def read() -> dict[str, str]:
        python_feature_macros.cache_clear()  # a new run
        return python_feature_macros("linux-x86_64")

    try:
        assert read() == {"_GNU_SOURCE": "1", "_FILE_OFFSET_BITS": "64"}
        import pegbind.preprocess

        with monkeypatch.context() as unread:  # kept: nothing is read again
            unread.setattr(pegbind.preprocess, "preprocess", lambda *a, **k: pytest.fail("read again"))
            assert read() == {"_GNU_SOURCE": "1", "_FILE_OFFSET_BITS": "64"}
        inner.write_text("#define _GNU_SOURCE 1\n#define _REENTRANT 1\n")  # the included file
        assert read() == {"_GNU_SOURCE": "1", "_REENTRANT": "1", "_FILE_OFFSET_BITS": "64"}
        wrapper.write_text(f'#include "{inner}"\n')
        assert read() == {"_GNU_SOURCE": "1", "_REENTRANT": "1"}
    finally:
        python_feature_macros.cache_clear()


@native
def test_undefining_what_python_h_defines_is_refused_for_compiled_modules(tmp_path, capsys):
    header = tmp_path / "fds.h"
    header.write_text("#include <sys/select.h>\nint fds(fd_set *set);\n")
    for backend in ("cython", "cffi"):
        assert main(["generate", str(header), "-U", "_GNU_SOURCE", "--backend", backend, "-o", str(tmp_path)]) == 1
        assert ("undefines: Python.h defines _GNU_SOURCE before any header a " + backend) in capsys.readouterr().err
    assert main(["generate", str(header), "-U", "_GNU_SOURCE", "--backend", "ctypes", "-o", str(tmp_path)]) == 0


def test_mode_sets_an_integers_width(tmp_path, capsys):
    # glibc: typedef int register_t __attribute__ ((__mode__ (__word__)));
    header = tmp_path / "modes.h"
    header.write_text("typedef int word_t __attribute__((__mode__(__word__)));\n"
                      "typedef unsigned int byte_t __attribute__((mode(QI)));\n"
                      "typedef int wide_t __attribute__((mode(DI)));\n"
                      "struct holder { word_t w; byte_t b; wide_t d; };\n")
    found = dump(capsys, str(header))
    assert found["typedefs"] == {"word_t": "long", "byte_t": "unsigned char", "wide_t": "long"}
    assert found["records"]["struct holder"]["size"] == 24
    header.write_text("typedef float f4 __attribute__((mode(QI)));\n")
    found = dump(capsys, str(header))
    assert [d["message"] for d in found["diagnostics"]] == ["f4 is left out: unsupported type: mode(QI) has no binding"]


def test_errno_names_are_the_c_librarys_all_of_them(tmp_path):
    # libuv's UV_ENONET is -ENONET where errno.h defines it, else its fallback -4056:
    # pegbind must see every name glibc's errno.h defines, as gcc -E does
    import re
    import shutil
    import subprocess

    if shutil.which("gcc") is None:
        pytest.skip("gcc is the oracle")
    header = tmp_path / "uv.h"
    header.write_text("#include <errno.h>\n#if defined(ENONET)\n#define UV_ENONET (-ENONET)\n#else\n"
                      "#define UV_ENONET (-4056)\n#endif\n")
    result = preprocess([header], target="linux-x86_64")
    ours = {m.name for m in result.macros.object_like(origin=None) if re.fullmatch(r"E[A-Z0-9]+", m.name)}
    defined = subprocess.run(["gcc", "-dM", "-E", str(header)], capture_output=True, text=True, check=True).stdout
    gcc = set(re.findall(r"^#define (E[A-Z0-9]+) ", defined, re.M))
    assert len(gcc) > 100 and ours == gcc
    module = parse_declarations(result, get_target("linux-x86_64"))
    assert module.constant("UV_ENONET").value == -64


def test_the_compilers_search_folders_are_asked_once_while_it_is_unchanged(tmp_path, monkeypatch):
    # asking the compiler costs every run a process: its answer is kept beside the grammars,
    # and asked again once the compiler's file changes
    from pegbind import toolchain

    log = tmp_path / "asked"
    compiler = tmp_path / "fakecc"
    script = "#!/bin/sh\necho asked >> {log}\necho 'install: {root}/one/'\necho 'libraries: ={root}/lib'\n"
    compiler.write_text(script.format(log=log, root=tmp_path))
    compiler.chmod(0o755)
    for name in ("one", "one/include", "two", "two/include", "lib"):
        (tmp_path / name).mkdir()
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))

    def asked(command: tuple[str, ...]) -> toolchain.SearchDirs:
        toolchain._search_dirs.cache_clear()
        return toolchain._search_dirs(command)

    first = asked((str(compiler),))
    assert first.include == (str(tmp_path / "one" / "include"),) and first.libraries == (str(tmp_path / "lib"),)
    assert asked((str(compiler),)) == first and log.read_text().count("asked") == 1
    assert asked((str(compiler), "-m32")) == first and log.read_text().count("asked") == 2  # another command
    compiler.write_text(script.format(log=log, root=tmp_path).replace("/one/", "/two/") + "# changed\n")
    assert asked((str(compiler),)).include == (str(tmp_path / "two" / "include"),)
    assert log.read_text().count("asked") == 3
    toolchain._search_dirs.cache_clear()
