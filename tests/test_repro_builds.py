"""Minimal headers that real libraries showed to break a generated module (``tests/repro/``).

Each is built as a user would (``pegbind build HEADER -l NAME -L DIR --backend B``)
into a module that is then imported and called in a fresh process, in every
backend, linked at build time and loaded with ``load(path)``.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import UNOPTIMISED, compile_library, run_pegbind

pytestmark = pytest.mark.slow

REPRO = Path(__file__).resolve().parent / "repro"
BACKENDS = ("cython", "cffi", "ctypes")


def build(tmp_path: Path, name: str, backend: str, *flags: str, library: str | None = None,
          optimised: bool = False) -> tuple[Path, str]:
    """``tests/repro/NAME.h`` built with BACKEND (its .c as ``libNAME.so`` when there is one).

    With ``CFLAGS=-O0``, or with pegbind's own flags, as users build, when ``optimised``: the
    tests of how the compiler and linker treat symbols (weak references, asm labels) ask for
    that.  Returns the output folder and what pegbind printed on stderr.
    """
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir(exist_ok=True)
    source = REPRO / f"{library or name}.c"
    link: list[str] = []
    if source.exists():
        compile_library([source], lib_dir / f"lib{library or name}.so")
        link = ["-l", library or name, "-L", str(lib_dir)]
    out = tmp_path / f"{name}-{backend}-{'-'.join(flags) or 'link'}"
    if "--load" in flags:
        link = []
    result = run_pegbind("build", str(REPRO / f"{name}.h"), *link, "--backend", backend, "-o", str(out), *flags,
                         env=None if optimised else UNOPTIMISED)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


def run_in(folder: Path, code: str, lib_dir: Path | None = None) -> str:
    """``code`` run by a fresh interpreter with ``folder`` first on sys.path; returns its stdout."""
    prelude = f"import sys\nsys.path.insert(0, {str(folder)!r})\n"
    if lib_dir is not None:
        prelude += f"LIB_DIR = {str(lib_dir)!r}\n"
    result = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("backend", BACKENDS)
def test_va_list_is_spelled_in_every_backend(tmp_path, backend):
    out, stderr = build(tmp_path, "va_list", backend)
    assert "va_list.h:6:5: warning: function 'vlog' is not wrapped: parameter 2 (args): va_list has no default " \
           "Python conversion" in stderr
    printed = run_in(out, """
        import va_list as m
        logger = m.logger(level=3)
        print(m.add(2, 3), m.logger_level(logger), logger.sink, hasattr(m, "vlog"))
    """)
    assert printed.split() == ["5", "3", "None", "False"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_va_list_loaded_at_run_time(tmp_path, backend):
    out, _ = build(tmp_path, "va_list", backend, "--load", "dynamic")
    compile_library([REPRO / "va_list.c"], tmp_path / "libva.so")
    printed = run_in(out, f"""
        import va_list as m
        lib = m.load({str(tmp_path / 'libva.so')!r})
        print(lib.add(2, 3), lib.logger_level(m.logger(level=7)))
    """)
    assert printed.split() == ["5", "7"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_macros_that_name_functions_are_aliases(tmp_path, backend):
    out, _ = build(tmp_path, "aliases", backend)
    printed = run_in(out, """
        import aliases as m
        print(m.scale is m.scale64, m.scale(6, 7), m.offset is m.offset64, m.offset(1), hasattr(m, "NOT_A_FUNCTION"))
        print(m.rescale is m.scale64, m.offset_again is m.offset64, hasattr(m, "scale_swapped"), hasattr(m, "twice"))
    """)
    assert printed.split() == ["True", "42", "True", "65", "False", "True", "True", "False", "False"]
    out, _ = build(tmp_path, "aliases", backend, "--load", "dynamic")
    compile_library([REPRO / "aliases.c"], tmp_path / "libaliases.so")
    printed = run_in(out, f"""
        import aliases as m
        lib = m.load({str(tmp_path / 'libaliases.so')!r})
        print(lib.scale(6, 7), lib.offset(1), type(lib).scale is type(lib).scale64)
    """)
    assert printed.split() == ["42", "65", "True"]
    # a rule naming the macro applies to the function it stands for (it was accepted, then ignored)
    out, _ = build(tmp_path, "aliases", backend, "--function", "fill:n=len(buf)")
    printed = run_in(out, """
        import aliases as m
        buf = bytearray(3)
        print(m.fill(buf), m.fill64 is m.fill, bytes(buf) == bytes([7, 7, 7]))
    """)
    assert printed.split() == ["3", "True", "True"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_member_named_like_a_macro(tmp_path, backend):
    out, _ = build(tmp_path, "macro_field", backend)
    printed = run_in(out, """
        import macro_field as m
        state = m.parser_state(level=4)
        print(m.state_level(state), state.parserVersion, sorted(f for f in dir(state) if not f.startswith("_")))
    """)
    assert printed.strip().split(maxsplit=2) == ["4", "None", "['close', 'from_bytes', 'from_pointer', 'level', 'parserVersion', 'sizeof']"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_functions_the_library_does_not_export_are_left_out(tmp_path, backend):
    out, stderr = build(tmp_path, "unexported", backend, optimised=True)
    assert stderr.count("not exported by") == 1
    assert (f"unexported.h:7:5: warning: 2 functions the headers declare are not exported by "
            f"{tmp_path / 'lib' / 'libunexported.so'}") in stderr
    assert "; left out: later_added, never_built\n" in stderr
    assert "undefined" not in stderr
    printed = run_in(out, """
        import unexported as m
        print(m.present(1), m.also_present(1), hasattr(m, "later_added"), hasattr(m, "never_built"))
    """)
    assert printed.split() == ["2", "3", "False", "False"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_missing_at_run_time_fails_when_called(tmp_path, backend):
    # Built against a newer library, run with an older one: the import works, the call names the symbol.
    out, stderr = build(tmp_path, "unexported", backend, library="later_added", optimised=True)
    assert "left out: never_built" in stderr
    lib = tmp_path / "lib" / "liblater_added.so"
    compile_library([REPRO / "unexported.c"], lib)  # the older build, in its place
    printed = run_in(out, """
        import unexported as m
        print(m.present(1))
        try:
            m.later_added(1)
        except AttributeError as exc:
            print(exc)
    """)
    assert printed.splitlines() == ["2", "no loaded library defines 'later_added'"]


def test_a_module_that_cannot_be_imported_is_no_successful_build(tmp_path):
    # a library file the loader cannot open (a missing one stops the build before: test_cli)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libpb_broken.so").write_text("not a shared object\n")
    out = tmp_path / "out"
    result = run_pegbind("build", str(REPRO / "unexported.h"), "-l", "pb_broken", "-L", str(tmp_path / "lib"),
                         "--backend", "ctypes", "-o", str(out))
    assert result.returncode == 1
    assert (f"error: the built module unexported cannot be imported: OSError: {tmp_path}/lib/libpb_broken.so: "
            "file too short") in result.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_array_parameters_need_all_their_elements(tmp_path, backend):
    out, _ = build(tmp_path, "array_typedef", backend)
    printed = run_in(out, """
        import array, struct
        import array_typedef as m
        out = bytearray(16)
        m.id_generate(out)
        print(out[15], m.id_compare(bytes(out), bytes(out)), m.id_compare(bytes(16), bytes(out)) < 0)
        version = array.array("i", [0] * 4)
        m.version_fill(version, 5)
        print(list(version), m.version_sum(struct.pack("4i", 1, 2, 3, 4)), m.matrix_trace(struct.pack("3d", 1, 2, 3)))
        for call in (lambda: m.id_generate(memoryview(bytearray(32))[0:1]), lambda: m.id_compare(bytes(15), bytes(16)),
                     lambda: m.version_sum(struct.pack("3i", 1, 2, 3)), lambda: m.matrix_trace(bytes(16))):
            try:
                call()
            except ValueError as exc:
                print(exc)
    """)
    assert printed.splitlines() == [
        "45 0 True",
        "[5, 5, 5, 5] 10 6.0",
        "argument 1 (out) needs at least 16 bytes, got 1",
        "argument 1 (a) needs at least 16 bytes, got 15",
        "argument 1 (version) needs at least 16 bytes, got 12",
        "argument 1 (m) needs at least 24 bytes, got 16",
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_records_with_alignment_attributes(tmp_path, backend):
    out, _ = build(tmp_path, "aligned", backend)
    printed = run_in(out, """
        import aligned as m
        outer, member = m.outer(), m.member_aligned()
        print(m.state_init(m.state_t()), m.state_t.sizeof, m.outer_init(outer), m.outer.sizeof,
              bytes(outer)[16 + 19], m.member_init(member), member.x)
    """)
    assert printed.split() == ["32", "32", "48", "48", "9", "16", "5"]


def test_cffi_abi_mode_says_up_front_what_it_cannot_align(tmp_path):
    result = run_pegbind("generate", str(REPRO / "aligned.h"), "--backend", "cffi", "--load", "dynamic",
                         "-o", str(tmp_path))
    assert result.returncode == 1
    assert ("aligned.h:4:45: error: struct state_ has an alignment or packing attribute, which cffi's ABI mode "
            "(load = \"dynamic\") cannot express") in result.stderr
    assert "aligned.h:5:8: error: struct member_aligned has an alignment" in result.stderr


def test_a_module_named_like_the_standard_library_is_warned_about(tmp_path):
    (tmp_path / "zlib.h").write_text("int zlib_answer(void);\n")
    result = run_pegbind("generate", str(tmp_path / "zlib.h"), "--backend", "ctypes", "-o", str(tmp_path / "out"))
    assert result.returncode == 0
    assert ("warning: the module name 'zlib' is also a standard library module: importing the binding replaces the "
            "standard zlib for the whole process; choose another name with --name (config key: name)") in result.stderr
    result = run_pegbind("generate", str(tmp_path / "zlib.h"), "--name", "zlib_binding", "--backend", "ctypes",
                         "-o", str(tmp_path / "out"))
    assert "standard library" not in result.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_c_library_types_from_the_systems_headers(tmp_path, backend):
    out, _ = build(tmp_path, "c_library_types", backend)
    printed = run_in(out, """
        import c_library_types as m
        fds = m.fd_set()
        raw = bytearray(bytes(fds))
        raw[0] = 0b101  # descriptors 0 and 2
        print(m.fds_count(m.fd_set.from_bytes(bytes(raw)), 8), m.fd_set.sizeof, m.stream_is_null(None))
        print(m.state_count(m.io_state(count=3)), m.io_state().stream, m.io_state().jump)
        print(sorted(name for name in dir(m.FILE) if not name.startswith("_")), m.jmp_buf is m.__jmp_buf_tag)
    """)
    # jmp_buf, an array of one __jmp_buf_tag, names that record's class, as GMP's mpz_t does
    assert printed.splitlines() == ["2 128 1", "3 None None", "['close'] True"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_compilers_intrinsics_header(tmp_path, backend):
    out, stderr = build(tmp_path, "intrinsics", backend)
    assert "intrinsics.h:6:38: warning: simd_f4 is left out: unsupported type: vector types (vector_size) have no " \
           "binding" in stderr
    assert "file not found" not in stderr
    printed = run_in(out, """
        import intrinsics as m
        print(m.simd_add(2, 3), m.simd_lanes(), hasattr(m, "_mm_add_ps"))
    """)
    assert printed.split() == ["5", "4", "False"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_what_a_needed_library_defines_is_bound(tmp_path, backend):
    lib = tmp_path / "lib"
    lib.mkdir()
    compile_library([REPRO / "needs_inner.c"], lib / "libneeds_inner.so")
    subprocess.run(["gcc", "-shared", "-fPIC", str(REPRO / "needs.c"), f"-L{lib}", "-lneeds_inner", f"-Wl,-rpath,{lib}",
                    "-o", str(lib / "libneeds.so")], check=True)
    out = tmp_path / "out"
    result = run_pegbind("build", str(REPRO / "needs.h"), "-l", "needs", "-L", str(lib), "--backend", backend,
                         "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert f"{lib / 'libneeds.so'} or the libraries it needs; left out: nowhere\n" in result.stderr
    printed = run_in(out, """
        import needs as m
        print(m.outer_twice(4), m.inner_add(2, 3), hasattr(m, "nowhere"))
    """)
    assert printed.split() == ["8", "5", "False"]


def test_a_module_named_like_a_built_in_module_is_renamed_or_refused(tmp_path):
    # 'sys' is built into every Python: a binding of that name could never be imported.
    header = tmp_path / "sys.h"
    header.write_text("int sys_answer(void);\n")
    (tmp_path / "sys.c").write_text('#include "sys.h"\nint sys_answer(void) { return 42; }\n')
    compile_library([tmp_path / "sys.c"], tmp_path / "libsysanswer.so")
    result = run_pegbind("build", str(header), "-l", "sysanswer", "-L", str(tmp_path), "--backend", "ctypes",
                         "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert ("warning: 'sys' is a module built into this Python, which always imports first: the module is named "
            "'sys_' (choose another name with --name)") in result.stderr
    assert run_in(tmp_path / "out", "import sys_; print(sys_.sys_answer())").strip() == "42"
    result = run_pegbind("generate", str(header), "--name", "sys", "--backend", "ctypes", "-o", str(tmp_path / "out"))
    assert result.returncode == 2  # the flag's value is wrong: a usage error
    assert "--name: 'sys' is a module built into this Python, which always imports first" in result.stderr


def test_one_backend_per_output_folder(tmp_path):
    result = run_pegbind("build", str(REPRO / "aliases.h"), "--backend", "cffi", "--backend", "ctypes",
                         "-o", str(tmp_path))
    assert result.returncode == 1
    assert (f"backends cffi, ctypes would each write the module 'aliases' into {tmp_path}: generate one at a time "
            "(--backend) into separate folders (-o) or under separate names (--name)") in result.stderr


def test_c_sources_given_to_a_backend_that_compiles_nothing_are_an_error(tmp_path):
    for flags, backend in ((["--backend", "ctypes"], "ctypes"), (["--backend", "cffi", "--load", "dynamic"], "cffi")):
        result = run_pegbind("build", str(REPRO / "aliases.h"), "--source", str(REPRO / "aliases.c"), *flags,
                             "-o", str(tmp_path / backend))
        assert result.returncode == 1, result.stderr
        assert (f"--source: a {backend} module compiles nothing, it opens the librar") in result.stderr
        assert ("build aliases.c into a shared library to link (-l), or use a backend that compiles it in "
                "(Cython, or cffi linking at build time)") in result.stderr
        assert not (tmp_path / backend).exists()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_static_library_is_linked_in(tmp_path, backend):
    lib = tmp_path / "lib"
    lib.mkdir()
    subprocess.run(["gcc", "-c", "-fPIC", str(REPRO / "unexported.c"), "-o", str(lib / "unexported.o")], check=True)
    subprocess.run(["ar", "rcs", str(lib / "libunexported.a"), str(lib / "unexported.o")], check=True)
    out = tmp_path / "out"
    result = run_pegbind("build", str(REPRO / "unexported.h"), "-l", "unexported", "-L", str(lib), "--backend", backend,
                         "-o", str(out))
    if backend == "ctypes":
        assert result.returncode == 1
        assert "libunexported.a is a static library, and a ctypes module opens its libraries" in result.stderr
        return
    assert result.returncode == 0, result.stderr
    assert f"not exported by {lib / 'libunexported.a'}; left out: later_added, never_built" in result.stderr
    printed = run_in(out, """
        import unexported as m
        print(m.present(1), m.also_present(1))
    """)
    assert printed.split() == ["2", "3"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_with_an_asm_label_is_found_by_its_symbol(tmp_path, backend):
    out, stderr = build(tmp_path, "asm_label", backend, optimised=True)
    assert "not exported" not in stderr
    assert run_in(out, "import asm_label as m; print(m.label_twice(21), m.label_plain(1))").split() == ["42", "2"]
    out, _ = build(tmp_path, "asm_label", backend, "--load", "dynamic", optimised=True)
    printed = run_in(out, f"""
        import asm_label as m
        lib = m.load({str(tmp_path / 'lib' / 'libasm_label.so')!r})
        print(lib.label_twice(21), lib.label_plain(1))
    """)
    assert printed.split() == ["42", "2"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_header_reads_in_the_module_as_pegbind_read_it(tmp_path, backend):
    # libunistring: a prototype without -O, a static inline function with it; the optimised
    # module saw the second and refused the weak reference made for the first
    out, _ = build(tmp_path, "no_inline", backend, optimised=True)
    assert run_in(out, "import no_inline as m\nprint(m.twice(21), m.thrice(2))").split() == ["42", "6"]
