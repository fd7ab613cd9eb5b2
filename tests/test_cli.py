"""The command line as a user meets it: help, usage errors, dump, diagnostics, exit codes."""
from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, run_pegbind

VECMATH = EXAMPLES / "demo" / "vecmath.h"


@pytest.mark.parametrize("command", [[], ["generate"], ["build"], ["dump"], ["verify"], ["bench"]])
def test_help_for_every_command(command):
    result = run_pegbind(*command, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: pegbind")


def test_usage_errors_exit_2():
    result = run_pegbind("frobnicate")
    assert result.returncode == 2
    assert "invalid choice: 'frobnicate'" in result.stderr
    assert "Traceback" not in result.stderr
    assert run_pegbind("dump", "--target", "pdp11", "x.h").returncode == 2


def test_no_headers_and_no_config_is_a_usage_error(tmp_path):
    result = run_pegbind("generate", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error: no headers given and no pegbind.toml")


def test_a_config_named_where_headers_go_is_a_usage_error_that_says_how_to_pass_it(tmp_path):
    (tmp_path / "pegbind.toml").write_text('name = "m"\nheaders = ["m.h"]\n')
    for command in ("generate", "build", "dump"):
        result = run_pegbind(command, "pegbind.toml", cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert result.stderr == "error: pegbind.toml is a config file, not a C header: pass it with --config pegbind.toml\n"


def test_every_flag_says_what_it_does():
    from pegbind.cli import build_parser

    commands = next(a for a in build_parser()._actions if a.dest == "command")
    for name, parser in commands.choices.items():  # type: ignore[union-attr]
        silent = [a.option_strings or a.dest for a in parser._actions if not a.help]
        assert not silent, f"pegbind {name}: no help for {silent}"


def test_a_commands_own_parser_declares_what_the_whole_one_does_for_it():
    from pegbind.cli import build_parser

    def flags(parser, name):
        commands = next(a for a in parser._actions if a.dest == "command")
        return [(a.option_strings, a.dest, a.default, a.help) for a in commands.choices[name]._actions]

    whole = build_parser()
    names = list(next(a for a in whole._actions if a.dest == "command").choices)
    assert names == ["generate", "build", "dump", "verify", "bench"]
    for name in names:
        own = build_parser(name)
        assert flags(own, name) == flags(whole, name)
        assert len(flags(whole, name)) > 20
        argv = [name, "a.h", "-I", "inc", "-l", "z", "--backend", "ctypes", "-q"]
        assert vars(own.parse_args(argv)) == vars(whole.parse_args(argv))


def test_generated_files_follow_the_umask(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    result = run_pegbind("generate", "m.h", "--backend", "ctypes", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    import os

    mask = os.umask(0o022)
    os.umask(mask)
    for path in (tmp_path / "out").iterdir():
        assert path.stat().st_mode & 0o777 == 0o666 & ~mask, path


def test_bad_config_key_is_named(tmp_path):
    config = tmp_path / "pegbind.toml"
    config.write_text('name = "m"\nheaders = ["m.h"]\nbackend = "cython"\n')
    result = run_pegbind("generate", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{config.name}:3:1: error: backend: unknown key (did you mean 'backends'?")
    assert "Traceback" not in result.stderr


def test_dump_of_the_example_header():
    result = run_pegbind("dump", str(VECMATH))
    assert result.returncode == 0, result.stderr
    model = json.loads(result.stdout)
    assert model["target"] == "linux-x86_64"
    assert model["functions"]["vm_add"] == {
        "ret": "int32_t",
        "args": [["a", "int32_t"], ["b", "int32_t"]],
        "variadic": False,
        "header": "vecmath.h",
        "line": 29,
    }
    assert model["functions"]["vm_distance"]["args"] == [["a", "const vm_point *"], ["b", "const vm_point *"]]
    assert model["functions"]["vm_version"] == {
        "ret": "const char *", "args": [], "variadic": False, "header": "vecmath.h", "line": 47,
    }
    assert sorted(model["functions"]) == [
        "vm_add", "vm_checksum", "vm_distance", "vm_fill", "vm_midpoint", "vm_scale", "vm_version",
    ]
    constants = model["constants"]
    assert constants["VECMATH_VERSION_MAJOR"] == {"value": 1, "type": "int", "header": "vecmath.h"}
    assert constants["VECMATH_ALL_FLAGS"]["value"] == 18446744073709551615
    assert constants["VECMATH_ALL_FLAGS"]["type"] == "unsigned long"
    assert constants["VECMATH_MAX_POINTS"]["value"] == 1024
    assert constants["VM_ERR_RANGE"] == {"value": -1, "type": "int", "header": "vecmath.h"}
    assert model["string_macros"] == {"VECMATH_VERSION": "1.2"}
    assert model["records"]["struct vm_point"] == {
        "kind": "struct",
        "size": 16,
        "align": 8,
        "fields": [{"name": "x", "type": "double", "offset": 0}, {"name": "y", "type": "double", "offset": 8}],
    }
    assert model["typedefs"]["vm_point"] == "struct vm_point"
    assert model["typedefs"]["vm_status"] == "enum vm_status"
    # Declarations of pegbind's own <stdint.h> are not the user's: they stay out.
    assert "uint32_t" not in model["typedefs"]


def test_headers_are_read_as_a_source_file_including_them_reads_them(tmp_path):
    # libsystemd's headers include a private one that refuses to be read at __INCLUDE_LEVEL__
    # 1 or less ("do not include _sd-common.h directly"): read as the main file, every one
    # of them stopped at that #error, while a C program including sd-event.h compiles
    (tmp_path / "_common.h").write_text(
        "#if defined(__INCLUDE_LEVEL__) && __INCLUDE_LEVEL__ <= 1\n"
        '#  error "Do not include _common.h directly"\n'
        "#endif\n"
        "enum { COMMON_LEVEL = __INCLUDE_LEVEL__ };\n")
    header = tmp_path / "event.h"
    header.write_text('#include "_common.h"\nenum { EVENT_LEVEL = __INCLUDE_LEVEL__ };\nint event_new(int x);\n')
    result = run_pegbind("dump", str(header))
    assert result.returncode == 0, result.stderr
    constants = json.loads(result.stdout)["constants"]
    assert (constants["EVENT_LEVEL"]["value"], constants["COMMON_LEVEL"]["value"]) == (1, 2)  # as gcc gives in a .c
    # the private header named itself is refused, as a C program including it is
    result = run_pegbind("dump", str(tmp_path / "_common.h"))
    assert result.returncode == 1 and 'error: #error "Do not include _common.h directly"' in result.stderr


def test_dump_win64_changes_unsigned_long():
    result = run_pegbind("dump", "--target", "win-x86_64", str(VECMATH))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["constants"]["VECMATH_ALL_FLAGS"]["value"] == 4294967295


def test_syntax_error_names_file_line_and_column(tmp_path):
    header = tmp_path / "broken.h"
    header.write_text("int ok(int a);\nint broken(int a int b);\n")
    result = run_pegbind("generate", "broken.h", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    first_line = result.stderr.splitlines()[0]
    assert first_line == "broken.h:2:18: error: expected ')' before 'int'"
    assert result.stderr.splitlines()[1:3] == [
        "  2 | int broken(int a int b);",
        "    |                  ^",
    ]


def test_missing_include_is_a_diagnostic(tmp_path):
    header = tmp_path / "top.h"
    header.write_text('#include "nowhere.h"\nint f(void);\n')
    result = run_pegbind("dump", "top.h", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("top.h:1:10: error: 'nowhere.h' file not found")
    assert "Traceback" not in result.stderr


def test_dump_preprocessed_has_line_markers(tmp_path):
    (tmp_path / "inner.h").write_text("#define TWICE(x) ((x) * 2)\ntypedef int twice_t;\n")
    (tmp_path / "outer.h").write_text('#include "inner.h"\n\nint table[TWICE(21)];\n')
    result = run_pegbind("dump", "--stage", "preprocessed", "outer.h", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines.index('# 2 "inner.h"') < lines.index("typedef int twice_t;")
    assert lines.index("typedef int twice_t;") < lines.index('# 3 "outer.h"') < lines.index("int table[((21) * 2)];")


def test_what_a_backend_cannot_express_is_reported_not_dropped(tmp_path):
    (tmp_path / "wide.h").write_text(
        "__int128 wide_add(__int128 a, __int128 b);\nstruct wide { __int128 v; int tag; };\nint ok(int x);\n"
        "int wide_tag(const struct wide *w);\nstruct wide *wide_get(void);\n"
    )
    warnings = []
    for backend in ("cython", "cffi", "ctypes"):
        result = run_pegbind("generate", "wide.h", "--backend", backend, "-o", f"out-{backend}", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        warnings += result.stderr.splitlines()
    assert "wide.h:1:10: warning: function 'wide_add' is not wrapped: parameter 1 (a): __int128 has no default Python conversion" in warnings
    assert "wide.h:2:8: warning: record 'struct wide' is not in the cffi module: cffi's C parser has no __int128" in warnings
    assert "wide.h:2:8: warning: record 'struct wide' is not in the ctypes module: ctypes has no 128-bit integer (__int128)" in warnings
    # so are the functions needing the record, each saying so
    for backend in ("cffi", "ctypes"):
        for line, name in ((4, "wide_tag"), (5, "wide_get")):
            assert any(w.startswith(f"wide.h:{line}:") and f"function '{name}' is not in the {backend} module: "
                       in w and "struct wide" in w for w in warnings), (backend, name)

def test_a_type_name_no_header_declares_is_named_so(tmp_path):
    # jpeglib.h expects <stdio.h> before it: read alone, its size_t and FILE are declared nowhere
    # ("size_t has no default Python conversion" sent the user looking at the wrong thing)
    (tmp_path / "needs.h").write_text("int make(void *p, int version, size_t size);\n"
                                      "struct mgr { size_t left; int kind; };\nint use(const __builtin_va_list *a);\n")
    result = run_pegbind("generate", "needs.h", "--backend", "ctypes", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    hint = "(no header read declares it; <stddef.h> does: read it first with --include-first stddef.h (config key: " \
           "include_first))"
    assert ("needs.h:1:5: warning: function 'make' is not wrapped: parameter 3 (size): unknown type name "
            f"'size_t' {hint}") in result.stderr.splitlines()
    assert f"needs.h:2:21: warning: field 'left' of struct mgr is not bound: unknown type name 'size_t' {hint}" \
        in result.stderr.splitlines()
    # a name no standard header declares is only said to be unknown
    (tmp_path / "odd.h").write_text("int take(widget_t w);\n")
    odd = run_pegbind("generate", "odd.h", "--backend", "ctypes", "-o", "odd", cwd=tmp_path)
    assert ("odd.h:1:5: warning: function 'take' is not wrapped: parameter 1 (w): unknown type name 'widget_t' "
            "(no header read declares it)") in odd.stderr.splitlines()
    # read first, as cc -include reads it: the C library's header lends its types, not its functions
    first = run_pegbind("generate", "needs.h", "--include-first", "stdio.h", "--backend", "ctypes", "-o", "first",
                        cwd=tmp_path)
    assert first.returncode == 0 and "size_t" not in first.stderr, first.stderr
    module = (tmp_path / "first" / "needs.py").read_text()
    assert "def make(" in module and "def printf(" not in module and "def fopen(" not in module
    (tmp_path / "pegbind.toml").write_text('name = "needs"\nheaders = ["needs.h"]\ninclude_first = ["stdio.h", '
                                           '"nothere.h"]\n')
    missing = run_pegbind("generate", "--backend", "ctypes", cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.splitlines()[0] == ("pegbind.toml:3:29: error: include_first[1]: nothere.h is not on "
                                              "the #include path")



@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--name", "class"], "error: --name: 'class' is not a valid Python module name"),
        (["-o", "m.h"], "error: --output-dir: m.h exists and is not a folder"),
        (["--templates", "nowhere"], "error: --templates: nowhere is not a folder"),
        (["--function", "f:a"], "error: --function: expected PARAM=ROLE, got 'a'"),
        (["--function", "f:x=sideways"], "error: --function: unknown role 'sideways' for parameter 'x'"),
        (["--callback", "t=maybe"], "error: --callback: expected TYPEDEF=on_error(VALUE), got 't=maybe'"),
        (["--function", "f:release_gil=maybe"], "error: --function: unknown role 'maybe' for parameter 'release_gil' "
         "(release_gil=true, release_gil=false or release_gil=min_bytes=N, N at least 1, sets the GIL's release)"),
        (["--function", "f:release_gil=min_bytes=0"], "error: --function: unknown role 'min_bytes=0' for parameter "
         "'release_gil' (release_gil=true, release_gil=false or release_gil=min_bytes=N, N at least 1, sets the GIL's release)"),
    ],
)
def test_bad_flags_are_usage_errors(tmp_path, args, message):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    result = run_pegbind("generate", "m.h", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == message


def test_a_function_rule_flag_sets_the_release_of_the_gil(tmp_path):
    # as a rule's release_gil = true in the config (it read as a parameter's role, and failed)
    (tmp_path / "m.h").write_text("int f(int x);\nint g(int x);\nint h(const void *data, unsigned long size);\n")
    result = run_pegbind("generate", "m.h", "--backend", "cython", "--function", "f:release_gil=true",
                         "--function", "h:size=len(data),release_gil=min_bytes=64", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    source = (tmp_path / "out" / "m.pyx").read_text()
    wrappers = {name: source[source.index(f"\ndef {name}("):][1:].split("\ndef ", 1)[0] for name in "fgh"}
    assert "with nogil" in wrappers["f"] and "nogil" not in wrappers["g"]
    assert ">= 64" in wrappers["h"] and "nogil" in wrappers["h"]


def test_unwritable_output_is_a_diagnostic(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    (tmp_path / "blocked").write_text("a file where a folder should be\n")
    result = run_pegbind("generate", "m.h", "-o", "blocked/out", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "Not a directory" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_a_module_name_taken_from_the_header_says_so(tmp_path):
    (tmp_path / "3d-math.h").write_text("int f(int x);\n")
    result = run_pegbind("generate", "3d-math.h", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "error: 3d-math.h (choose a module name with --name): '3d_math' is not a valid Python module name"
    )


def test_a_rule_the_headers_contradict_is_reported_at_the_rule(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x, char **out);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h"]\nbackends = ["ctypes"]\n\n'
        '[[functions]]\nmatch = "f"\nparams = { x = "on_error(1)" }\n'
    )
    result = run_pegbind("generate", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "pegbind.toml:7:12: error: functions[0].params.x: on_error(1) is for a function pointer parameter, "
        "but 'x' of f is not one")


def test_a_rule_that_matches_no_function_is_an_error(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h"]\nbackends = ["ctypes"]\n\n[[functions]]\nmatch = "g*"\nparams = { x = "in" }\n'
    )
    result = run_pegbind("generate", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "pegbind.toml:6:1: error: functions[0].match: 'g*' matches no function the headers declare")
    flagged = run_pegbind("generate", "m.h", "--backend", "ctypes", "--function", "fx:x=in", cwd=tmp_path)
    assert flagged.returncode == 1
    assert flagged.stderr.startswith("error: --function: 'fx' matches no function the headers declare")


def test_missing_headers_and_sources_are_named_at_their_keys_before_any_compiler_runs(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h", "nope.h"]\nsources = ["gone.c"]\n'
    )
    result = run_pegbind("build", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == ("pegbind.toml:2:19: error: headers[1]: nope.h does not exist here "
                                             "or on the #include path")
    assert "pegbind.toml:3:12: error: sources[0]: gone.c does not exist" in result.stderr
    assert "cc1" not in result.stderr and "compiler" not in result.stderr
    flagged = run_pegbind("dump", "nope.h", cwd=tmp_path)
    assert flagged.returncode == 1 and flagged.stderr.strip() == (
        "error: headers: nope.h does not exist here or on the #include path")


def test_a_header_named_without_its_folder_is_found_as_an_include_of_it_would_be(tmp_path):
    def functions(*args, cwd=tmp_path):
        result = run_pegbind("dump", *args, cwd=cwd)
        assert result.returncode == 0, result.stderr
        return set(json.loads(result.stdout)["functions"])

    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "mylib.h").write_text("int from_inc(void);\n")
    assert functions("mylib.h", "-I", "inc") == {"from_inc"}
    # the library's installed header, as `#include "zlib.h"` finds it: pegbind build zlib.h -l z
    assert {"deflate", "inflate", "zlibVersion"} <= functions("zlib.h")
    # a header in the current folder comes first, as for #include "..."
    (tmp_path / "mylib.h").write_text("int from_here(void);\n")
    assert functions("mylib.h", "-I", "inc") == {"from_here"}
    # a config file's headers are found from its own folder, then on its include path
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["mylib.h"]\ninclude_dirs = ["../inc"]\n')
    assert functions("--config", "project/pegbind.toml") == {"from_inc"}
    (tmp_path / "project" / "mylib.h").write_text("int from_project(void);\n")
    assert functions("--config", "project/pegbind.toml") == {"from_project"}


def test_a_pointer_fields_entry_that_names_no_text_member_is_an_error_at_it(tmp_path):
    (tmp_path / "m.h").write_text("typedef struct bm { unsigned rows; unsigned char *buffer; } bitmap;\n"
                                  "void render(bitmap *b);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h"]\npointer_fields = ["bitmap.buffer", "bm.bufer", "bitmap.rows"]\n')
    result = run_pegbind("generate", "--backend", "ctypes", cwd=tmp_path)
    assert result.returncode == 1
    assert [line for line in result.stderr.splitlines() if "error" in line] == [
        "pegbind.toml:3:36: error: pointer_fields[1]: 'bm.bufer' matches no member of a record the headers declare",
        "pegbind.toml:3:48: error: pointer_fields[2]: bitmap.rows is unsigned int, no pointer to characters: only "
        "those are read as text",
    ]
    flagged = run_pegbind("generate", "m.h", "--backend", "ctypes", "--pointer-field", "bitmap", cwd=tmp_path)
    assert flagged.returncode == 1
    assert flagged.stderr.strip() == "error: --pointer-field: 'bitmap' is not RECORD.MEMBER (as FT_Bitmap.buffer)"
    # by its tag or its typedef, with globs
    for named in ("b*.buf*", "bm.buffer"):
        assert run_pegbind("generate", "m.h", "--backend", "ctypes", "--pointer-field", named, "-o", "out",
                           cwd=tmp_path).returncode == 0
        read = subprocess.run([sys.executable, "-c", "import m; b = m.bitmap(buffer=bytearray(b'a\\0b'));"
                               "print(type(b.buffer).__name__, b.buffer[:3])"],
                              cwd=tmp_path / "out", capture_output=True, text=True)
        assert read.stdout == "Pointer b'a\\x00b'\n", read.stderr


def test_verbose_says_what_runs_and_quiet_only_errors(tmp_path):
    # __int128 cannot cross to ctypes: a warning, which -q keeps back
    (tmp_path / "m.h").write_text("int f(int x);\n__int128 wide(void);\n")
    plain = run_pegbind("generate", "m.h", "--backend", "ctypes", "-o", "out", cwd=tmp_path)
    assert plain.returncode == 0 and "warning" in plain.stderr
    quiet = run_pegbind("generate", "m.h", "--backend", "ctypes", "-o", "out", "-q", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""  # not the paths written either
    # (another output folder: the same command again would be answered from the cache)
    verbose = run_pegbind("generate", "m.h", "--backend", "ctypes", "-o", "out-v", "-v", cwd=tmp_path)
    phases = [line.split(" (")[0] for line in verbose.stderr.splitlines() if line.startswith("pegbind: ")]
    assert phases[:2] == ["pegbind: preprocessed 2 files into 13 tokens",  # stdc-predef.h and m.h
                          "pegbind: parsed 2 functions, 0 records, 0 constants"]
    assert f"pegbind: generated the ctypes sources in {tmp_path / 'out-v'}" in phases
    again = run_pegbind("generate", "m.h", "--backend", "ctypes", "-o", "out-v", "-v", cwd=tmp_path)
    assert again.stderr.startswith("pegbind: nothing generate reads has changed since it last ran")
    assert "warning" in again.stderr and again.stdout == verbose.stdout
    assert run_pegbind("generate", "m.h", "-v", "-q", cwd=tmp_path).returncode == 2


def test_a_program_that_set_up_logging_hears_the_phases(tmp_path, caplog):
    # pegbind imports logging only when someone listens; a program that set up its own does
    import logging

    from pegbind.config import BindingConfig
    from pegbind.pipeline import generate_sources

    (tmp_path / "m.h").write_text("int f(int x);\n")
    config = BindingConfig(name="m", headers=(tmp_path / "m.h",), backends=("ctypes",))
    with caplog.at_level(logging.INFO, logger="pegbind"):
        generate_sources(config, out_dir=tmp_path / "out")
    said = [(r.name, r.getMessage().split(" (")[0]) for r in caplog.records]
    assert said[:4] == [("pegbind.progress", "reading m.h"),
                        ("pegbind.pipeline", "preprocessed 2 files into 7 tokens"),
                        ("pegbind.progress", "parsing 7 tokens"),
                        ("pegbind.pipeline", "parsed 1 functions, 0 records, 0 constants")]
    assert {r.filename for r in caplog.records} == {"pipeline.py"}  # where each was said


def test_an_optional_rule_may_match_nothing(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h"]\nbackends = ["ctypes"]\n\n'
        '[[functions]]\nmatch = "f_v2"\noptional = true\nparams = { x = "in" }\n'
    )
    result = run_pegbind("generate", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_a_library_nowhere_the_linker_looks_stops_a_build_before_any_compiler_runs(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    (tmp_path / "pegbind.toml").write_text('name = "m"\nheaders = ["m.h"]\nlink = ["m", "pb_absent"]\n')
    result = run_pegbind("build", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "pegbind.toml:3:14: error: link[1]: no libpb_absent.so or libpb_absent.a in the library folders "
        "(library_dirs, -L, then the compiler's): install the library's development files, or name its folder "
        "in library_dirs (-L)")
    assert "cc1" not in result.stderr and "collect2" not in result.stderr
    flagged = run_pegbind("build", "m.h", "-l", "pb_absent", "--backend", "ctypes", cwd=tmp_path)
    assert flagged.returncode == 1 and flagged.stderr.startswith("error: -l pb_absent: no libpb_absent.so")
    # generating only: a warning, the sources are still written
    generated = run_pegbind("generate", "m.h", "-l", "pb_absent", "-o", "out", cwd=tmp_path)
    assert generated.returncode == 0 and "warning: no libpb_absent.so" in generated.stderr


def test_a_build_that_names_no_library_says_which_functions_none_defines(tmp_path):
    # pegbind build bzlib.h, -l bz2 forgotten, built a module whose every function raised when called
    (tmp_path / "m.h").write_text("#include <stddef.h>\nint pb_nowhere(int x);\nint pb_elsewhere(void);\n"
                                  "size_t strlen(const char *s);\n")
    result = run_pegbind("build", "m.h", "--backend", "ctypes", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "warning: no library is named to link (-l NAME, config key link), and the C library, which every module is "
        "linked with, defines none of the 2 functions bound: pb_nowhere, pb_elsewhere: called, they raise "
        "AttributeError")
    (tmp_path / "c.h").write_text("#include <stddef.h>\nsize_t strlen(const char *s);\n")
    libc_only = run_pegbind("build", "c.h", "--backend", "ctypes", "-o", "out2", cwd=tmp_path)
    assert libc_only.returncode == 0 and "no library is named" not in libc_only.stderr


@pytest.mark.parametrize(("config", "flags", "located", "flagged"), [
    ('load = "dynamic"\nlink = ["m"]\n', ["--load", "dynamic", "-l", "m"],
     'pegbind.toml:3:1: error: load: a "dynamic" binding opens the library its user passes to load(path), so link m '
     "would not be linked or opened: drop one of them",
     'error: --load: a "dynamic" binding opens the library its user passes to load(path), so -l m would not be '
     "linked or opened: drop one of them"),
    ('include = ["f", "g"]\nexclude = ["g*"]\n', ["--include", "g", "--exclude", "g*"],
     "pegbind.toml:3:17: error: include[1]: 'g' is also left out by exclude 'g*', which wins: drop one of them",
     "error: --include: 'g' is also left out by --exclude 'g*', which wins: drop one of them"),
])
def test_settings_that_contradict_each_other_are_reported(tmp_path, config, flags, located, flagged):
    (tmp_path / "m.h").write_text("int f(int x);\nint g(int x);\n")
    (tmp_path / "pegbind.toml").write_text(f'name = "m"\nheaders = ["m.h"]\n{config}')
    result = run_pegbind("generate", "-o", "out", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.splitlines()[0] == located
    result = run_pegbind("generate", "m.h", *flags, "-o", "out", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr.splitlines()[0] == flagged


def test_a_role_on_a_parameter_the_function_lacks_is_an_error(tmp_path):
    (tmp_path / "m.h").write_text("int f(int count, char *buffer);\nint g_one(int n);\nint g_two(int n);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h"]\nbackends = ["ctypes"]\n\n'
        '[[functions]]\nmatch = "f"\nparams = { bufer = "out-bytes(count)" }\nnonnull = ["buffer", "x"]\n\n'
        '[[functions]]\nmatch = "g_*"\nparams = { m = "in" }\n'
    )
    result = run_pegbind("generate", "-o", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert [line for line in result.stderr.splitlines() if ": error: " in line] == [
        "pegbind.toml:7:12: error: functions[0].params.bufer: f has no parameter 'bufer' (did you mean 'buffer'?)",
        "pegbind.toml:8:22: error: functions[0].nonnull[1]: f has no parameter 'x' (its parameters: count, buffer)",
        "pegbind.toml:12:12: error: functions[1].params.m: none of the 2 functions 'g_*' matches has a parameter "
        "'m' (its parameters: n)",
    ]
    flagged = run_pegbind("generate", "m.h", "--backend", "ctypes", "--function", "f:bufer=in", "-o", "out",
                          cwd=tmp_path)
    assert flagged.returncode == 1
    assert flagged.stderr.startswith("error: --function: f has no parameter 'bufer' (did you mean 'buffer'?)")
    # optional = true: headers of another version may spell it so
    (tmp_path / "pegbind.toml").write_text(
        'name = "m"\nheaders = ["m.h"]\nbackends = ["ctypes"]\n\n'
        '[[functions]]\nmatch = "f"\noptional = true\n'
        'params = { buf = "out-bytes(count)", buffer = "out-bytes(count)" }\n'
    )
    assert run_pegbind("generate", "-o", "out", cwd=tmp_path).returncode == 0


def test_on_a_terminal_a_build_says_what_runs_now_and_clears_it(tmp_path):
    (tmp_path / "m.h").write_text("int f(int x);\n")
    controller, terminal = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(terminal, "wb", closefd=True) as stderr:
        done = subprocess.run([sys.executable, "-m", "pegbind", "generate", "m.h", "--backend", "ctypes", "-o", "out"],
                              cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=stderr, timeout=120)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal's other end is closed and drained
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    assert done.returncode == 0
    text = shown.decode()
    # each step rewrites the one line, and the line is cleared before the command ends
    assert "\r\x1b[Kpegbind: reading m.h" in text and "\r\x1b[Kpegbind: writing the ctypes sources" in text
    assert text.endswith("\r\x1b[K")
    # not a terminal: nothing of it
    piped = run_pegbind("generate", "m.h", "--backend", "ctypes", "-o", "out", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""


def test_a_config_of_several_bindings_generates_each_and_reports_each(tmp_path):
    (tmp_path / "a.h").write_text("int a_add(int x, int y);\n")
    (tmp_path / "b.h").write_text("int b_mul(int x, int y);\n")
    (tmp_path / "c.h").write_text("int c_broken(int x int y);\n")
    (tmp_path / "pegbind.toml").write_text(
        '[[binding]]\nname = "amod"\nheaders = ["a.h"]\nbackends = ["ctypes"]\n\n'
        '[[binding]]\nname = "pkg.cmod"\nheaders = ["c.h"]\nbackends = ["ctypes"]\n\n'
        '[[binding]]\nname = "bmod"\nheaders = ["b.h"]\nbackends = ["ctypes"]\n'
    )
    # all of them (in parallel), each one's output in the config's order; one failing fails the command
    result = run_pegbind("generate", "-o", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert [Path(line).name for line in result.stdout.split()] == ["amod.py", "amod.pyi", "bmod.py", "bmod.pyi"]
    assert result.stderr.startswith("c.h:1:20: error: expected ')' before 'int'")
    # one, by its full name; and what takes one binding says to choose
    chosen = run_pegbind("generate", "-o", "out", "--binding", "bmod", cwd=tmp_path)
    assert chosen.returncode == 0 and [Path(line).name for line in chosen.stdout.split()] == ["bmod.py", "bmod.pyi"]
    assert run_pegbind("generate", "-o", "out", "--binding", "pkg.cmod", cwd=tmp_path).returncode == 1
    dumped = run_pegbind("dump", cwd=tmp_path)
    assert dumped.returncode == 2 and dumped.stderr.strip() == (
        "error: pegbind.toml holds several bindings (amod, pkg.cmod, bmod): choose one with --binding")
    named = run_pegbind("generate", "--name", "x", cwd=tmp_path)
    assert named.returncode == 2 and "--name given for a config of several bindings" in named.stderr


def test_at_most_on_a_length_the_caller_gives_is_refused(tmp_path):
    # the caller's n would reach C with a buffer of at_most: a smaller buffer could be overrun
    (tmp_path / "fill.h").write_text("int fill(unsigned char *out, unsigned long n);\n")
    (tmp_path / "pegbind.toml").write_text(
        'name = "fill"\nheaders = ["fill.h"]\nbackends = ["ctypes"]\n\n'
        '[[functions]]\nmatch = "fill"\nparams = { out = "out-bytes(n, at_most=4)" }\n')
    result = run_pegbind("generate", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0
    assert ("fill.h:1:5: warning: function 'fill' is not wrapped: parameter 1 (out): at_most bounds a length C "
            "writes back through a pointer, and 'n' is passed by value (the caller gives the size): drop at_most"
            ) in result.stderr


@pytest.mark.slow
def test_a_cffi_module_named_like_a_builder_builds(tmp_path):
    # x_build.py (the wrapper) beside x_build_build.py (cffi's builder): each is found by its full name
    (tmp_path / "m.h").write_text("int twice(int x);\n")
    (tmp_path / "m.c").write_text('#include "m.h"\nint twice(int x) { return 2 * x; }\n')
    result = run_pegbind("build", "m.h", "--source", "m.c", "--backend", "cffi", "--name", "x_build", "-o", "out",
                         cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    done = subprocess.run([sys.executable, "-c", "import x_build; print(x_build.twice(21))"], cwd=tmp_path / "out",
                          capture_output=True, text=True)
    assert done.stdout == "42\n", done.stderr


def test_release_gil_flag_releases_it_in_every_call_whatever_the_config_s_bound(tmp_path):
    from pegbind.cli import _configs_from_args, build_parser

    (tmp_path / "a.h").write_text("int f(void);\n")
    (tmp_path / "pegbind.toml").write_text('name = "m"\nheaders = ["a.h"]\nrelease_gil = { min_bytes = 4096 }\n')
    config = str(tmp_path / "pegbind.toml")
    (bound,) = _configs_from_args(build_parser().parse_args(["generate", "--config", config]))
    (every,) = _configs_from_args(build_parser().parse_args(["generate", "--config", config, "--release-gil"]))
    assert (bound.release_gil, bound.release_gil_min_bytes) == (True, 4096)
    assert (every.release_gil, every.release_gil_min_bytes) == (True, 0)
