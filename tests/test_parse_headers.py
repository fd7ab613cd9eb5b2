"""Real library headers: no error diagnostics, every prototype gcc sees is in the model,
every object-like macro is a constant or a note with a reason."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pegbind.parse import parse_declarations
from pegbind.preprocess.engine import preprocess
from pegbind.target import get_target

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the oracle")]

HEADERS = {
    "zlib": ("/usr/include/zlib.h", [], ("/usr/include/zlib.h", "/usr/include/zconf.h")),
    "sqlite3": ("/usr/include/sqlite3.h", [], ("/usr/include/sqlite3.h",)),
    "nss-pkcs11": ("/usr/include/nss/pkcs11.h", ["/usr/include/nss", "/usr/include/nspr"], ("/usr/include/nss/",)),
    "softhsm-pkcs11": ("/usr/include/softhsm/pkcs11.h", [], ("/usr/include/softhsm/",)),
}

# `/* /usr/include/zlib.h:1234:NC */ extern int deflate (z_streamp, int);` -- C: a declaration
_AUX_LINE = re.compile(r"/\* (?P<file>[^:]+):\d+:[NO]C \*/ (?P<decl>.*)")
_AUX_NAME = re.compile(r"(\w+) \((?!\*)")


def gcc_prototypes(header: str, include_dirs: list[str], own: tuple[str, ...], tmp_path: Path,
                   defines: dict[str, str] | None = None) -> set[str]:
    aux = tmp_path / "aux.txt"
    command = ["gcc", "-x", "c", "-fsyntax-only", "-aux-info", str(aux), *(f"-I{d}" for d in include_dirs),
               *(f"-D{name}={value}" for name, value in (defines or {}).items()), header]
    subprocess.run(command, check=True, capture_output=True)
    names = set()
    for line in aux.read_text().splitlines():
        match = _AUX_LINE.match(line)
        if match and match.group("file").startswith(own):
            names.add(_AUX_NAME.search(match.group("decl")).group(1))
    return names


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_real_header_parses_completely(name, tmp_path):
    header, include_dirs, own = HEADERS[name]
    if not Path(header).exists():
        pytest.skip(f"{header} is not installed")
    expected = gcc_prototypes(header, include_dirs, own, tmp_path)
    assert expected, "gcc printed no prototypes"

    target = get_target("linux-x86_64")
    pp = preprocess([header], include_dirs=include_dirs, target=target.name)
    module = parse_declarations(pp, target)

    assert [d.headline() for d in module.diagnostics if d.severity == "error"] == []
    assert sorted(expected - {f.name for f in module.functions}) == []
    noted = {m.group(1) for d in module.diagnostics if (m := re.match(r"macro (\w+) is not a constant: .+", d.message))}
    for macro in pp.macros.object_like(origin="user"):
        assert macro.name in noted or module.get("constant", macro.name) is not None, macro.name


_DIE = re.compile(r"^ <(\d+)><[0-9a-f]+>: Abbrev Number: \d+ \((DW_TAG_\w+)\)")
_ATTR = re.compile(r"^\s+<[0-9a-f]+>\s+(DW_AT_\w+)\s*: (.*)$")
_FILE_ROW = re.compile(r"^\s+(\d+)\s+(\d+)\s+\(indirect line string, offset: 0x[0-9a-f]+\): (.+)$")
_DIR_ROW = re.compile(r"^\s+(\d+)\s+\(indirect line string, offset: 0x[0-9a-f]+\): (.+)$")


def gcc_declared_types(header: str, include_dirs: list[str], own: tuple[str, ...], tmp_path: Path) -> dict[str, set[str]]:
    """Every typedef, struct, union, enum and enumerator gcc records in debug information
    for the library's own files (the compiler is the oracle, not pegbind)."""
    source = tmp_path / "types.c"
    source.write_text(f'#include "{header}"\n')
    obj = tmp_path / "types.o"
    subprocess.run(
        ["gcc", "-g", "-gdwarf-5", "-fno-eliminate-unused-debug-types", "-c", str(source), "-o", str(obj),
         *(f"-I{d}" for d in include_dirs)],
        check=True, capture_output=True,
    )
    lines = subprocess.run(["readelf", "--debug-dump=line", str(obj)], check=True, capture_output=True, text=True).stdout
    dirs: dict[int, str] = {}
    files: dict[int, str] = {}
    section = None
    for line in lines.splitlines():
        if "The Directory Table" in line:
            section = "dirs"
        elif "The File Name Table" in line:
            section = "files"
        elif section == "dirs" and (row := _DIR_ROW.match(line)):
            dirs[int(row.group(1))] = row.group(2)
        elif section == "files" and (row := _FILE_ROW.match(line)):
            files[int(row.group(1))] = str(Path(dirs[int(row.group(2))]) / row.group(3))
    info = subprocess.run(["readelf", "--debug-dump=info", str(obj)], check=True, capture_output=True, text=True).stdout
    found: dict[str, set[str]] = {"typedef": set(), "struct": set(), "union": set(), "enum": set(), "enumerator": set()}
    kinds = {"DW_TAG_typedef": "typedef", "DW_TAG_structure_type": "struct", "DW_TAG_union_type": "union",
             "DW_TAG_enumeration_type": "enum", "DW_TAG_enumerator": "enumerator"}
    current: dict | None = None
    enum_file = -1  # enumerators have no file of their own: they sit in their enum's

    def flush(die: dict | None) -> None:
        nonlocal enum_file
        if die and die["kind"] == "enum":
            enum_file = die.get("file", -1)
        if die and die["kind"] and "name" in die:
            file = files.get(enum_file if die["kind"] == "enumerator" else die.get("file", -1), "")
            if file.startswith(own):
                found[die["kind"]].add(die["name"])

    for line in info.splitlines():
        if die := _DIE.match(line):
            flush(current)
            current = {"kind": kinds.get(die.group(2)), "level": int(die.group(1))}
        elif current is not None and (attr := _ATTR.match(line)):
            name, value = attr.groups()
            if name == "DW_AT_name":
                current["name"] = value.split(": ")[-1].strip()
            elif name == "DW_AT_decl_file":
                current["file"] = int(value.strip())
    flush(current)
    return found


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_every_type_gcc_sees_is_in_the_model(name, tmp_path):
    """Nothing dropped silently: typedefs, records, enums and enumerators, as gcc's debug info lists them."""
    header, include_dirs, own = HEADERS[name]
    if not Path(header).exists():
        pytest.skip(f"{header} is not installed")
    expected = gcc_declared_types(header, include_dirs, own, tmp_path)
    assert expected["typedef"], "gcc recorded no typedefs"
    target = get_target("linux-x86_64")
    module = parse_declarations(preprocess([header], include_dirs=include_dirs, target=target.name), target)
    members = {m.name for e in module.enums for m in e.members}
    assert sorted(expected["typedef"] - {t.name for t in module.typedefs}) == []
    for kind in ("struct", "union", "enum"):
        keys = {r.key for r in module.records} | {e.key for e in module.enums}
        assert sorted(f"{kind} {tag}" for tag in expected[kind] if f"{kind} {tag}" not in keys) == []
    assert sorted(expected["enumerator"] - members) == []


def test_nss_pkcs11_constants_and_records(tmp_path):
    header = "/usr/include/nss/pkcs11.h"
    if not Path(header).exists():
        pytest.skip(f"{header} is not installed")
    target = get_target("linux-x86_64")
    module = parse_declarations(preprocess([header], include_dirs=["/usr/include/nss", "/usr/include/nspr"],
                                           target=target.name), target)
    assert module.constant("CKA_VENDOR_DEFINED").value == 0x80000000
    assert module.constant("CK_UNAVAILABLE_INFORMATION").value == 2**64 - 1
    attribute = module.record("struct CK_ATTRIBUTE")
    assert [f.name for f in attribute.fields] == ["type", "pValue", "ulValueLen"]
    function_list = module.record("struct CK_FUNCTION_LIST")
    assert function_list.fields[0].name == "version"
    assert len(function_list.fields) == 69


def test_a_type_names_no_parameters_a_declaration_keeps_them(tmp_path, capsys):
    # issue 17, item 8: a function returning a function pointer
    import json

    from pegbind.cli import main

    header = tmp_path / "t.h"
    header.write_text("typedef struct ctx CTX;\nint (*get_init(const char *name))(CTX *ctx, int flags);\n"
                      "typedef int (*cb)(CTX *ctx, int flags);\nstruct s { void (*f)(int a, cb inner); };\n")
    assert main(["dump", str(header)]) == 0
    model = json.loads(capsys.readouterr().out)
    assert model["functions"]["get_init"]["ret"] == "int (*)(CTX *, int)"
    assert model["typedefs"]["cb"] == "int (*)(CTX *, int)"
    assert model["records"]["struct s"]["fields"][0]["type"] == "void (*)(int, cb)"
    module = parse_declarations(preprocess([header], target="linux-x86_64"), get_target("linux-x86_64"))
    assert module.find_function("get_init").to_c() == "int (*get_init(const char *name))(CTX *ctx, int flags);"


@pytest.mark.parametrize("name", ["sqlite3", "nss-pkcs11"])
def test_what_reading_a_header_made_is_freed_without_the_cycle_collector(name):
    # A reference cycle through the preprocessor's engine once kept every token read
    # until a full collection of the cycle collector: seconds, on a large header.
    import gc

    from pegbind.config import BindingConfig
    from pegbind.pipeline import read_binding

    header, include_dirs, _ = HEADERS[name]
    config = BindingConfig(name="cycles", headers=(Path(header),), include_dirs=tuple(map(Path, include_dirs)))
    read_binding(config, strict=False)  # caches and lazy imports filled first
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = read_binding(config, strict=False)
        assert result.module.functions
        del result
        # only pegbind's own garbage counts: a thread another test left (an executor's) may
        # make some while the collector is off (seen once in a whole run, 6 objects)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = [repr(item)[:80] for item in gc.garbage if _made_by_pegbind(item)]
        assert ours == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def _made_by_pegbind(item) -> bool:
    """Whether ``item`` is an object of one of pegbind's classes, or a frame or function of its code."""
    import types

    code = item.f_code if isinstance(item, types.FrameType) else getattr(item, "__code__", None)
    if isinstance(code, types.CodeType):
        return "pegbind" in code.co_filename
    return (getattr(type(item), "__module__", "") or "").startswith("pegbind")


def test_reading_leaves_the_collector_as_the_caller_had_it(tmp_path):
    # Paused while a phase builds, enabled again after; what a host froze stays frozen.
    import gc

    from pegbind.config import BindingConfig
    from pegbind.pipeline import read_binding

    header = tmp_path / "small.h"
    header.write_text("struct point { int x, y; };\nint area(struct point *p);\n")
    config = BindingConfig(name="small", headers=(header,))
    was_enabled = gc.isenabled()
    try:
        gc.enable()
        read_binding(config)
        assert gc.isenabled()
        gc.disable()
        read_binding(config)
        assert not gc.isenabled()
        gc.enable()
        held = [object() for _ in range(10)], {"a": []}
        gc.freeze()
        frozen = gc.get_freeze_count()
        read_binding(config)
        # not frozen again (more) nor unfrozen (none); a frozen object freed meanwhile (a parser's
        # regex leaf, replaced by its compiled match when first tried) leaves a few fewer
        assert 0 < gc.get_freeze_count() <= frozen and gc.isenabled()
        del held
    finally:
        gc.unfreeze()
        (gc.enable if was_enabled else gc.disable)()
