"""What the linked libraries export, found and read as the linker and the loader would.

Libraries built here with gcc: a shared object, its static archive, a GNU ld
script standing for them, a dependency reached through ``DT_RUNPATH``, and a
damaged file.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import compile_library
from pegbind.config import BindingConfig
from pegbind.exports import find_library, linked_exports
from pegbind.toolchain import host_target

pytestmark = pytest.mark.skipif(host_target() is None or shutil.which("gcc") is None or shutil.which("nm") is None,
                                reason="needs this machine's gcc and nm")


def config(tmp_path: Path, *link: str, **changes) -> BindingConfig:
    header = tmp_path / "x.h"
    header.write_text("int x(void);\n")
    return BindingConfig(name="x", headers=(header,), link=link, library_dirs=(tmp_path / "lib",),
                         target=host_target() or "linux-x86_64", **changes)


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    folder = tmp_path / "lib"
    folder.mkdir()
    (tmp_path / "one.c").write_text("int one_f(void) { return 1; }\nstatic int hidden(void) { return 0; }\n"
                                    "__attribute__((visibility(\"hidden\"))) int one_private(void) { return 2; }\n")
    (tmp_path / "two.c").write_text("int two_f(void) { return 2; }\n")
    compile_library([tmp_path / "one.c"], folder / "libone.so")
    subprocess.run(["gcc", "-c", "-fPIC", str(tmp_path / "two.c"), "-o", str(tmp_path / "two.o")], check=True)
    subprocess.run(["ar", "rcs", str(folder / "libtwo.a"), str(tmp_path / "two.o")], check=True)
    return folder


def test_a_shared_object_exports_its_visible_functions(tmp_path, lib):
    exports = linked_exports(config(tmp_path, "one"))
    assert exports is not None and exports.complete
    assert exports.libraries == (lib / "libone.so",) and exports.archives == ()
    assert exports.defines("one_f") and not exports.defines("one_private") and not exports.defines("hidden")


def test_a_static_archive_is_read_by_nm_and_said_to_be_one(tmp_path, lib):
    exports = linked_exports(config(tmp_path, "two"))
    assert exports is not None and exports.complete
    assert exports.archives == exports.lone_archives == (lib / "libtwo.a",) and exports.defines("two_f")


def test_a_folder_gives_its_shared_object_before_its_archive_and_before_later_folders(tmp_path, lib):
    compile_library([tmp_path / "two.c"], lib / "libtwo.so")
    assert find_library("two", [lib]) == lib / "libtwo.so"
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(lib / "libtwo.a", other / "libtwo.a")
    assert find_library("two", [other, lib]) == other / "libtwo.a"  # the -L folder comes first


def test_a_linker_script_stands_for_the_files_it_names(tmp_path, lib):
    (lib / "libboth.so").write_text("/* GNU ld script */\nOUTPUT_FORMAT(elf64-x86-64)\n"
                                    f"GROUP ( {lib / 'libone.so'} AS_NEEDED ( -ltwo ) )\n")
    exports = linked_exports(config(tmp_path, "both"))
    assert exports is not None and exports.complete
    assert exports.defines("one_f") and exports.defines("two_f")
    assert set(exports.libraries) == {lib / "libone.so", lib / "libtwo.a"}
    # an archive beside a shared object is part of it, as glibc's libc_nonshared.a of libc.so
    assert exports.archives == (lib / "libtwo.a",) and exports.lone_archives == ()
    (lib / "libarchived.so").write_text(f"GROUP ( {lib / 'libtwo.a'} )\n")  # a script of archives alone
    assert linked_exports(config(tmp_path, "archived")).lone_archives == (lib / "libtwo.a",)


def outer_needing_inner(tmp_path: Path, lib: Path) -> Path:
    """``lib/libouter.so``, which needs ``tmp_path/inner/libinner.so`` (defining ``inner_f``)
    and finds it through its run path; the inner library's path."""
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "inner.c").write_text("int inner_f(void) { return 3; }\n")
    compile_library([tmp_path / "inner.c"], inner / "libinner.so")
    (tmp_path / "outer.c").write_text("int inner_f(void);\nint outer_f(void) { return inner_f(); }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", str(tmp_path / "outer.c"), f"-L{inner}", "-linner",
                    "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../inner", "-o", str(lib / "libouter.so")], check=True)
    return inner / "libinner.so"


def test_what_a_needed_library_defines_is_found_through_its_run_path(tmp_path, lib):
    inner = outer_needing_inner(tmp_path, lib)
    exports = linked_exports(config(tmp_path, "outer"))
    assert exports is not None
    assert exports.defines("outer_f") and exports.defines("inner_f") and not exports.defines("nowhere_f")
    assert inner.resolve() in {p.resolve() for p in exports.dependencies}


def test_a_damaged_library_is_a_warning_and_leaves_the_check_undone(tmp_path, lib):
    (lib / "libbad.so").write_bytes(b"\x7fELF" + b"\0" * 12)
    exports = linked_exports(config(tmp_path, "bad"))
    assert exports is not None and not exports.complete
    assert len(exports.problems) == 1
    assert exports.problems[0].message.startswith(f"cannot read the symbols of {lib / 'libbad.so'}: ")
    assert exports.problems[0].message.endswith("which of its functions exist is not checked")


def test_nothing_is_known_for_dynamic_loading_and_sources_make_the_check_incomplete(tmp_path, lib):
    assert linked_exports(config(tmp_path, "one", load="dynamic")) is None
    with_sources = linked_exports(config(tmp_path, "one", sources=(tmp_path / "one.c",)))
    assert with_sources is not None and not with_sources.complete and with_sources.libraries == (lib / "libone.so",)


@pytest.mark.parametrize("bits", [64, 32])
def test_the_symbol_table_read_at_once_agrees_with_pyelftools_reading_each_symbol(tmp_path, bits):
    # the table is decoded with struct, for speed: check it against the library's own reader
    from elftools.elf.elffile import ELFFile

    from pegbind.exports import _defined_symbols

    def visible(symbol) -> bool:  # defined here, and others may bind to it
        return (symbol["st_shndx"] != "SHN_UNDEF" and symbol["st_info"]["bind"] in ("STB_GLOBAL", "STB_WEAK")
                and symbol["st_other"]["visibility"] in ("STV_DEFAULT", "STV_PROTECTED"))

    (tmp_path / "kinds.c").write_text(
        "int plain(void) { return 1; }\n__attribute__((weak)) int weak_f(void) { return 2; }\n"
        "__attribute__((visibility(\"hidden\"))) int hidden_f(void) { return 3; }\n"
        "__attribute__((visibility(\"protected\"))) int protected_f(void) { return 4; }\n"
        "int counter = 5;\nextern int elsewhere(void);\nint calls(void) { return elsewhere(); }\n")
    built = subprocess.run(["gcc", f"-m{bits}", "-shared", "-fPIC", str(tmp_path / "kinds.c"),
                            "-o", str(tmp_path / "libkinds.so")], capture_output=True)
    if built.returncode != 0:
        pytest.skip(f"no {bits}-bit gcc here")
    names, _needed, _paths = _defined_symbols(tmp_path / "libkinds.so")
    with open(tmp_path / "libkinds.so", "rb") as stream:
        elf = ELFFile(stream)
        assert elf.elfclass == bits
        each = {s.name for s in elf.get_section_by_name(".dynsym").iter_symbols() if visible(s)}
    assert names == each
    assert {"plain", "weak_f", "protected_f", "counter", "calls"} <= names
    assert not {"hidden_f", "elsewhere"} & names


def test_what_a_library_defines_is_kept_while_the_file_is_unchanged(tmp_path, lib):
    import os
    import sys

    script = (f"import sys\nfrom pathlib import Path\nfrom pegbind.config import BindingConfig\n"
              f"from pegbind.exports import linked_exports\n"
              f"config = BindingConfig(name='x', headers=(Path({str(tmp_path / 'x.h')!r}),), link=('one', 'two'),\n"
              f"                       library_dirs=(Path({str(lib)!r}),), target={host_target()!r})\n"
              f"exports = linked_exports(config)\n"
              f"print(*[exports.defines(n) for n in ('one_f', 'one_g', 'two_f')], not exports.problems,\n"
              f"      'elftools' in sys.modules)\n")
    (tmp_path / "x.h").write_text("int x(void);\n")
    environment = dict(os.environ, PEGBIND_CACHE_DIR=str(tmp_path / "cache"))

    def run(path: str = environment["PATH"]) -> list[str]:
        return subprocess.run([sys.executable, "-c", script], env=dict(environment, PATH=path), capture_output=True,
                              text=True, check=True).stdout.split()

    assert run() == ["True", "False", "True", "True", "True"]  # read: pyelftools, and nm for the archive
    # kept: neither pyelftools nor nm (not on this PATH) is needed to know it again
    assert run(path=str(tmp_path / "nothing")) == ["True", "False", "True", "True", "False"]
    (tmp_path / "one.c").write_text("int one_f(void) { return 1; }\nint one_g(void) { return 7; }\n")
    compile_library([tmp_path / "one.c"], lib / "libone.so")
    assert run() == ["True", "True", "True", "True", "True"]  # changed: read again


def test_a_needed_library_that_cannot_be_read_defines_nothing(tmp_path, lib):
    # libouter.so needs libinner.so, found through its run path but damaged: the check of a
    # name that is nowhere else answers no, as the loader would not find it there either
    outer_needing_inner(tmp_path, lib).write_bytes(b"\x7fELF" + b"\0" * 12)
    exports = linked_exports(config(tmp_path, "outer"))
    assert exports is not None and exports.defines("outer_f") and not exports.defines("inner_f")
