"""``pegbind verify`` against gcc: agreement, each kind of mismatch, and the real headers."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import can_verify

from pegbind.diagnostics import Coord, VerifyError
from pegbind.frozen import replace
from pegbind.model import (
    Address,
    Array,
    Constant,
    Enum,
    EnumMember,
    Field,
    Module,
    Pointer,
    Primitive,
    Record,
    Typedef,
    TypedefRef,
)
from pegbind.target import get_target
from pegbind.config import BindingConfig
from pegbind.passes.select import select_declarations
from pegbind.pipeline import binding_defines, read_binding
from pegbind.verify import Mismatch, _Plan, host_target, read_assembly, verify

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the oracle and is not installed")

HEADER = """\
#ifndef SAMPLE_H
#define SAMPLE_H
#include <stddef.h>
#define SAMPLE_COUNT 42
#define SAMPLE_MASK (~0UL)
#define SAMPLE_NEG (-7)
#define SAMPLE_NAME "sample-1.0"
#define SAMPLE_RATIO 0.25
typedef unsigned long sample_ulong;
#define SAMPLE_TYPED ((sample_ulong)0x80000000)
enum sample_kind { SAMPLE_A, SAMPLE_B = 5, SAMPLE_BIG = 0x80000000 };
struct sample_rec {
    char tag;
    sample_ulong size;
    unsigned int flag : 1;
    unsigned int level : 4;
    short pair[2];
    union { int i; double d; };
    size_t len;
};
typedef struct { char c; int n; } sample_anon;
typedef void (*sample_cb)(int);
#endif
"""


def _coord(header: Path, line_text: str) -> Coord:
    for number, line in enumerate(HEADER.splitlines(), start=1):
        if line_text in line:
            return Coord(str(header), number, line.index(line_text) + 1)
    raise AssertionError(line_text)


def _module(header: Path, *, count: int = 42, level_bits: int = 4, pair_type: str = "short",
            extra_constants: tuple[Constant, ...] = ()) -> Module:
    """The model of HEADER, as a correct parser would build it (with knobs to make it wrong)."""
    at = lambda text: _coord(header, text)  # noqa: E731
    anon_union = Record("union", None, "union <anonymous at sample.h:18:5>",
                        (Field("i", Primitive("int")), Field("d", Primitive("double"))), coord=at("union {"))
    rec = Record("struct", "sample_rec", "struct sample_rec", (
        Field("tag", Primitive("char")),
        Field("size", TypedefRef("sample_ulong")),
        Field("flag", Primitive("unsigned int"), 1),
        Field("level", Primitive("unsigned int"), level_bits),
        Field("pair", Array(Primitive(pair_type), 2)),
        Field(None, anon_union.ref),
        Field("len", TypedefRef("size_t")),
    ), coord=at("struct sample_rec {"))
    anon = Record("struct", None, "sample_anon", (Field("c", Primitive("char")), Field("n", Primitive("int"))),
                  coord=at("typedef struct {"))
    # size_t comes from a system header; it is checked like everything the module holds.
    typedefs = (
        Typedef("size_t", Primitive("unsigned long"), coord=Coord("/usr/include/stddef.h", 1, 1)),
        Typedef("sample_ulong", Primitive("unsigned long"), coord=at("typedef unsigned long")),
        Typedef("sample_anon", anon.ref, coord=at("sample_anon;")),
        Typedef("sample_cb", Pointer(Primitive("void")), coord=at("sample_cb")),
    )
    enum = Enum("sample_kind", "enum sample_kind", (
        EnumMember("SAMPLE_A", 0), EnumMember("SAMPLE_B", 5), EnumMember("SAMPLE_BIG", 0x80000000),
    ), coord=at("enum sample_kind"))
    constants = (
        Constant("SAMPLE_COUNT", count, Primitive("int"), coord=at("SAMPLE_COUNT")),
        Constant("SAMPLE_MASK", 2**64 - 1, Primitive("unsigned long"), coord=at("SAMPLE_MASK")),
        Constant("SAMPLE_NEG", -7, Primitive("int"), coord=at("SAMPLE_NEG")),
        Constant("SAMPLE_NAME", "sample-1.0", Array(Primitive("char"), 11), coord=at("SAMPLE_NAME")),
        Constant("SAMPLE_RATIO", 0.25, Primitive("double"), coord=at("SAMPLE_RATIO")),
        Constant("SAMPLE_TYPED", 0x80000000, TypedefRef("sample_ulong"), coord=at("SAMPLE_TYPED")),
        *extra_constants,
    )
    return Module("linux-x86_64", records=(anon_union, rec, anon), enums=(enum,), typedefs=typedefs,
                  constants=constants)


@pytest.fixture
def header(tmp_path: Path) -> Path:
    path = tmp_path / "sample.h"
    path.write_text(HEADER)
    return path


native_only = pytest.mark.skipif(host_target() != "linux-x86_64", reason="the hand-built model is for linux-x86_64")


@pytest.fixture(params=[True, False], ids=["run", "assembly"])
def run(request) -> bool:
    """Each native check twice: the probe run, and the probe compiled to assembly and read (as for cross targets)."""
    return request.param


@native_only
def test_agreeing_model_has_no_mismatches(header, run):
    report = verify(_module(header), headers=[header], target=get_target("linux-x86_64"), run=run)
    assert report.mismatches == [], report.format()
    # 6 macros + 3 enumerators + size/align of the enum; struct: size+align, 6 offsets (tag size pair
    # i d len) and 2 bitfields; sample_anon: size+align and 2 offsets; typedefs size_t, sample_ulong,
    # sample_anon, sample_cb: size+align each
    assert report.checked == 6 + 3 + 2 + (2 + 6 + 2) + (2 + 2) + 4 * 2
    assert report.format().endswith(f"verify linux-x86_64 with gcc: {report.checked} checked, OK")


@native_only
def test_wrong_constant_and_field_type_are_reported(header, run):
    module = _module(header, count=43, pair_type="int")
    report = verify(module, headers=[header], target=get_target("linux-x86_64"), run=run)
    # short pair[2] sits at 18 and the 8-aligned union at 24; as int pair[2] they would be at 20 and 32.
    assert [str(m) for m in report.mismatches] == [
        "constant SAMPLE_COUNT: pegbind 43 (int), gcc 42 (int)",
        "record struct sample_rec: size pegbind 48, gcc 40",
        "record struct sample_rec: offset of pair pegbind 20, gcc 18",
        "record struct sample_rec: offset of i pegbind 32, gcc 24",
        "record struct sample_rec: offset of d pegbind 32, gcc 24",
        "record struct sample_rec: offset of len pegbind 40, gcc 32",
    ]
    lines = report.format().splitlines()
    assert lines[:-1] == [str(m) for m in report.mismatches]
    assert lines[-1] == f"verify linux-x86_64 with gcc: {report.checked} checked, 6 mismatches"


@native_only
def test_wrong_bitfield_width_and_undefined_macro(header, run):
    module = _module(header, level_bits=5, extra_constants=(
        Constant("SAMPLE_MISSING", 1, Primitive("int"), coord=Coord(str(header), 4, 9)),
    ))
    report = verify(module, headers=[header], target=get_target("linux-x86_64"), run=run)
    # flag is bit 128 (after the 8-byte size member), level follows at 129
    assert [str(m) for m in report.mismatches] == [
        "constant SAMPLE_MISSING: pegbind 1 (int), gcc <not defined>",
        "record struct sample_rec: bits of level pegbind 129+5, gcc 129+4",
    ]


@native_only
def test_type_of_constant_is_compared(header, run):
    good = _module(header)
    wrong = Constant("SAMPLE_MASK", 2**64 - 1, Primitive("unsigned long long"), coord=good.constant("SAMPLE_MASK").coord)
    module = good.replace(constants=tuple(wrong if c.name == "SAMPLE_MASK" else c for c in good.constants))
    report = verify(module, headers=[header], target=get_target("linux-x86_64"), run=run)
    assert [str(m) for m in report.mismatches] == [
        "constant SAMPLE_MASK: pegbind 18446744073709551615 (unsigned long long), "
        "gcc 18446744073709551615 (unsigned long)"
    ]


@native_only
def test_an_address_is_compared_by_its_value_and_its_type(tmp_path, run):
    header = tmp_path / "addresses.h"
    header.write_text("typedef void (*addr_free)(void *);\n#define ADDR_TRANSIENT ((addr_free)-1)\n"
                      "#define ADDR_FAILED ((void *) -1)\n#define ADDR_NONE ((char *)0)\n")
    module = read_binding(BindingConfig(name="addresses", headers=(header,))).module
    target = get_target("linux-x86_64")
    report = verify(module, headers=[header], target=target, run=run)
    assert report.mismatches == [] and report.checked == 3 + 2  # and addr_free's size and alignment
    wrong = tuple(replace(c, value=Address(1)) if c.name == "ADDR_TRANSIENT"
                  else replace(c, type=Pointer(Primitive("char"))) if c.name == "ADDR_FAILED" else c
                  for c in module.constants)
    report = verify(module.replace(constants=wrong), headers=[header], target=target, run=run)
    assert [str(m) for m in report.mismatches] == [
        "constant ADDR_TRANSIENT: pegbind 1 (unsigned long long), gcc 18446744073709551615 (unsigned long long)",
        "constant ADDR_FAILED: pegbind 18446744073709551615 (unsigned long long), "
        "gcc <does not compile: negative width in bit-field 'not_the_type_pegbind_gave'>",
    ]


@native_only
def test_string_and_float_mismatches(header, run):
    good = _module(header)
    swapped = {
        "SAMPLE_NAME": Constant("SAMPLE_NAME", "sample-2.0", Array(Primitive("char"), 11)),
        "SAMPLE_RATIO": Constant("SAMPLE_RATIO", 0.5, Primitive("float")),
    }
    constants = tuple(
        Constant(c.name, swapped[c.name].value, swapped[c.name].type, coord=c.coord) if c.name in swapped else c
        for c in good.constants
    )
    report = verify(good.replace(constants=constants), headers=[header], target=get_target("linux-x86_64"), run=run)
    found = {m.what: m for m in report.mismatches}
    assert set(found) == {"constant SAMPLE_NAME", "constant SAMPLE_RATIO"}
    assert found["constant SAMPLE_RATIO"] == Mismatch("constant SAMPLE_RATIO", "0.5 (float)", "0.25 (double)")
    assert found["constant SAMPLE_NAME"].pegbind != found["constant SAMPLE_NAME"].gcc


@native_only
def test_check_that_does_not_compile_is_reported_and_the_rest_still_run(header, tmp_path, run):
    # The model believes a typedef name is an integer constant: gcc cannot evaluate it.
    module = _module(header, extra_constants=(
        Constant("sample_ulong", 3, Primitive("int"), coord=Coord(str(header), 9, 23)),
    ))
    report = verify(module, headers=[header], target=get_target("linux-x86_64"), run=run)
    # A typedef is no macro, so #ifdef hides it: gcc reports it undefined.
    assert [m.what for m in report.mismatches] == ["constant sample_ulong"]
    # An enumerator that is really a typedef does reach the compiler and fails to compile.
    bogus = Enum(None, "enum <anonymous at sample.h:21:1>", (EnumMember("sample_anon", 1),),
                 coord=Coord(str(header), 21, 1))
    report = verify(module.replace(enums=(*module.enums, bogus), constants=_module(header).constants),
                    headers=[header], target=get_target("linux-x86_64"), run=run)
    assert len(report.mismatches) == 1
    assert report.mismatches[0].what == "constant sample_anon"
    assert report.mismatches[0].gcc.startswith("<does not compile: expected expression")
    assert report.checked > 20  # everything else was still compared


def test_what_the_binding_exposes_is_checked_wherever_declared(tmp_path):
    # fd_set comes from the C library, but a bound function takes it: it is checked,
    # field names included; struct stat is included but nothing bound uses it.
    header = tmp_path / "waits.h"
    header.write_text("#include <sys/select.h>\n#include <sys/stat.h>\n#define WAITS_MAX 8\n"
                      "int waits_on(fd_set *set, int n);\n")
    config = BindingConfig(name="waits", headers=(header,))
    read = read_binding(config)
    exposed = select_declarations(read.module, config)
    checks = {check.what for check in _Plan(exposed, read.target).build().checks}
    assert "record fd_set: size" in checks and "constant WAITS_MAX" in checks
    assert any(what.startswith("record fd_set: offset of ") for what in checks)
    assert not any("stat" in what for what in checks)
    report = verify(exposed, headers=[header], defines=binding_defines(config), target=read.target)
    assert report.ok, report.format()


def test_a_constant_of_a_c_library_typedef_nothing_else_uses_is_compared_as_that_type(tmp_path):
    # ICU's U_UINT64_MAX, ((uint64_t)...): the typedef was not kept with the constant, and its
    # type read "other" against gcc's unsigned long (a mismatch that was none)
    header = tmp_path / "u64.h"
    header.write_text("#include <stdint.h>\n#define BIG ((uint64_t)18446744073709551615UL)\n"
                      "#define SMALL ((int64_t)5)\nint f(int);\n")
    config = BindingConfig(name="u64", headers=(header,))
    read = read_binding(config)
    report = verify(select_declarations(read.module, config), headers=[header], defines=binding_defines(config),
                    target=read.target)
    assert report.ok, report.format()
    checks = {check.what for check in _Plan(select_declarations(read.module, config), read.target).build().checks}
    assert {"constant BIG", "constant SMALL"} <= checks


def test_headers_that_do_not_compile_are_an_error(tmp_path):
    broken = tmp_path / "broken.h"
    broken.write_text("struct s { int x };;; this is not C\n")
    module = Module("linux-x86_64", constants=(Constant("X", 1, Primitive("int"), coord=Coord(str(broken), 1, 1)),))
    with pytest.raises(VerifyError) as caught:
        verify(module, headers=[broken], target=get_target(host_target() or "linux-x86_64"))
    assert "does not compile" in str(caught.value)


def test_foreign_target_without_its_compiler_is_an_error_not_a_pass(header, monkeypatch):
    import pegbind.verify

    foreign = "linux-aarch64" if host_target() != "linux-aarch64" else "win-x86_64"
    monkeypatch.setitem(pegbind.verify.CROSS_COMPILERS, foreign, "no-such-cross-gcc")
    with pytest.raises(VerifyError) as caught:
        verify(_module(header), headers=[header], target=get_target(foreign))
    assert f"verifying {foreign} needs the cross compiler 'no-such-cross-gcc' (Debian package" in str(caught.value)


def test_missing_compiler_is_an_error(header):
    with pytest.raises(VerifyError, match="not found"):
        verify(_module(header), headers=[header], target=get_target("linux-x86_64"), compiler="no-such-cc-here")


@pytest.mark.skipif(host_target() != "linux-x86_64" or not can_verify("linux-i386"), reason="needs gcc -m32 on x86_64")
def test_i386_through_m32(header):
    module = _module(header)
    i386 = get_target("linux-i386")
    # On ILP32 ~0UL is 32 bits wide; the model built for LP64 says otherwise.
    report = verify(module, headers=[header], target=i386)
    found = {m.what: m for m in report.mismatches}
    assert found["constant SAMPLE_MASK"] == Mismatch(
        "constant SAMPLE_MASK", "18446744073709551615 (unsigned long)", "4294967295 (unsigned long)")
    # size_t and sample_ulong are 4 bytes there, and the model's layout follows the target
    assert "record struct sample_rec: size" not in found
    assert "typedef sample_ulong: size" not in found


# --------------------------------------------------------------------------
# The real headers, read by pegbind's own preprocessor and parser
# --------------------------------------------------------------------------
REAL_HEADERS = [
    pytest.param(["/usr/include/zlib.h"], [], id="zlib"),
    pytest.param(["/usr/include/sqlite3.h"], [], id="sqlite3"),
    pytest.param(["/usr/include/nss/pkcs11.h"], ["/usr/include/nss", "/usr/include/nspr"], id="nss-pkcs11"),
    pytest.param(["/usr/include/softhsm/pkcs11.h"], [], id="softhsm-pkcs11"),
    # __pthread_unwind_buf_t: a 104-byte record its typedef aligns to 16
    pytest.param(["/usr/include/pthread.h"], [], id="glibc-pthread"),
]


@pytest.mark.slow
@pytest.mark.parametrize("target_name", ["linux-x86_64", "linux-i386", "linux-aarch64", "win-x86_64"])
@pytest.mark.parametrize("headers, include_dirs", REAL_HEADERS)
def test_real_headers_agree_with_gcc(headers, include_dirs, target_name):
    for path in headers + include_dirs:
        if not Path(path).exists():
            pytest.skip(f"{path} is not installed")
    if not can_verify(target_name):
        pytest.skip(f"no compiler for {target_name} here (see scripts/install-system-packages.sh)")
    if headers[0] == "/usr/include/pthread.h" and not target_name.startswith("linux-"):
        pytest.skip("glibc's own header: MinGW has another")
    from pegbind.parse import parse_declarations
    from pegbind.preprocess import preprocess

    target = get_target(target_name)
    preprocessed = preprocess(headers, include_dirs=include_dirs, target=target.name)
    module = parse_declarations(preprocessed, target)
    config = BindingConfig(name="real", headers=tuple(map(Path, headers)), include_dirs=tuple(map(Path, include_dirs)))
    report = verify(select_declarations(module, config), headers=headers, include_dirs=include_dirs, target=target)
    assert report.mismatches == [], report.format()
    assert report.checked > 100


@native_only
def test_const_bitfields_are_measured_by_offset_only(tmp_path):
    # The probe finds a bitfield's bits by assigning to it, which a const member forbids.
    header = tmp_path / "ro.h"
    header.write_text("struct ro { const unsigned a : 3; unsigned b : 4; struct { const int c : 2; } in; };\n")
    at = Coord(str(header), 1, 8)
    inner = Record("struct", None, "struct <anonymous at ro.h:1:62>",
                   (Field("c", Primitive("int", ("const",)), 2),), coord=at)
    ro = Record("struct", "ro", "struct ro", (
        Field("a", Primitive("unsigned int", ("const",)), 3),
        Field("b", Primitive("unsigned int"), 4),
        Field("in", inner.ref),
    ), coord=at)
    report = verify(Module("linux-x86_64", records=(inner, ro)), headers=[header], target=get_target("linux-x86_64"))
    assert report.mismatches == [], report.format()
    # size+align, bits of b, offset of in; a and in.c are skipped
    assert report.checked == 4


# --------------------------------------------------------------------------
# The static probe's assembly, as the two cross compilers write it
# --------------------------------------------------------------------------
ELF_AARCH64 = """\
\t.global\tpegbind_c1
\t.section\t.rodata
\t.align\t3
\t.type\tpegbind_c1, %object
\t.size\tpegbind_c1, 16
pegbind_c1:
\t.xword\t32
\t.xword\t-5
\t.global\tpegbind_c2
\t.type\tpegbind_c2, %object
pegbind_c2:
\t.word\t0
\t.word\t1073217536
pegbind_c3:
\t.zero\t2
\t.byte\t248
\t.hword\t258
pegbind_c4:
\t.string\t"a\\"b\\\\c, d\\n\\001\\377"
\t.string\t""
other_symbol:
\t.xword\t7
"""

COFF_MINGW = """\
\t.globl\tpegbind_c1
\t.section .rdata,"dr"
\t.align 8
pegbind_c1:
\t.quad\t24
\t.long\t-1
\t.word\t1
\t.value\t2
\t.space 3
\t.ascii "h\\0i\\0\\0\\0"
\t.globl\tpegbind_c2
pegbind_c2:
\t.ascii "\\1\\2\\x41"
\t.ident\t"GCC: (GNU) 12-win32"
"""


def test_read_assembly_of_an_elf_arm_compiler():
    objects = read_assembly(ELF_AARCH64, word_size=4)
    assert set(objects) == {"pegbind_c1", "pegbind_c2", "pegbind_c3", "pegbind_c4"}
    assert objects["pegbind_c1"] == (32).to_bytes(8, "little") + (2**64 - 5).to_bytes(8, "little")
    assert objects["pegbind_c2"] == bytes(4) + (1073217536).to_bytes(4, "little")  # 1.5 as a double
    assert objects["pegbind_c3"] == b"\0\0\xf8\x02\x01"
    assert objects["pegbind_c4"] == b'a"b\\c, d\n\x01\xff\0\0'


def test_read_assembly_of_a_coff_x86_compiler():
    objects = read_assembly(COFF_MINGW, word_size=2)
    assert objects["pegbind_c1"] == (
        (24).to_bytes(8, "little") + b"\xff" * 4 + b"\x01\0" + b"\x02\0" + bytes(3) + b"h\0i\0\0\0"
    )
    assert objects["pegbind_c2"] == b"\x01\x02A"


def test_unreadable_assembly_is_a_value_error():
    with pytest.raises(ValueError):
        read_assembly("pegbind_c1:\n\t.quad\tpegbind_c2+8\n", word_size=2)
