"""Record layout (pegbind.target) against the compiler.

Every record below is built directly as model objects, printed back as C,
and compiled into one probe per target that prints sizeof, _Alignof,
offsetof of each member and, for bitfields, the first bit and width found by
setting the field to all ones in a zeroed object.  pegbind's layout must
match each number.  Targets: the native linux-x86_64, linux-i386 through
``gcc -m32``, and win-x86_64's Microsoft bitfield rules through GCC's
``-mms-bitfields`` (the layout MinGW uses), plus a few cases checked by hand
against the MS ABI documentation.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from pegbind.diagnostics import Coord
from pegbind.model import Array, Enum, EnumMember, Field, Module, Pointer, Primitive, Record, RecordRef, TypedefRef, Typedef
from pegbind.target import (
    LayoutError,
    enum_constant_type,
    enum_type,
    get_target,
    layouts,
    record_layout,
    size_align,
)

GCC = shutil.which("gcc")
pytestmark = pytest.mark.skipif(GCC is None, reason="gcc is the layout oracle and is not installed")

# --------------------------------------------------------------------------
# A small vocabulary for building model records
# --------------------------------------------------------------------------
_anon_count = 0


def P(name: str) -> Primitive:
    return Primitive(name)


def F(ctype, name: str | None, bits: int | None = None, *, packed: bool = False, aligned: int | None = None) -> Field:
    if isinstance(ctype, str):
        ctype = Primitive(ctype)
    return Field(name, ctype, bits, aligned=aligned, packed=packed)


def S(tag: str | None, *fields: Field, kind: str = "struct", pack: int | None = None, packed: bool = False,
      aligned: int | None = None) -> Record:
    global _anon_count
    if tag is None:
        _anon_count += 1
        key = f"{kind} <anonymous at t.h:{_anon_count}:1>"
    else:
        key = f"{kind} {tag}"
    return Record(kind, tag, key, tuple(fields), pack=pack, packed=packed, aligned=aligned,  # type: ignore[arg-type]
                  coord=Coord("t.h", _anon_count + 1, 1))


def U(tag: str | None, *fields: Field, **kw) -> Record:
    return S(tag, *fields, kind="union", **kw)


def ref(record: Record) -> RecordRef:
    return record.ref


# --------------------------------------------------------------------------
# The cases: (top-level records, helper records they use)
# --------------------------------------------------------------------------
def _cases() -> tuple[list[Record], list[Record]]:
    helpers: list[Record] = []
    tops: list[Record] = []

    def add(record: Record) -> Record:
        tops.append(record)
        return record

    # plain structs and natural alignment
    add(S("plain", F("char", "c"), F("int", "i"), F("short", "s"), F("double", "d"), F("char", "e")))
    add(S("ptrs", F("char", "c"), F(Pointer(P("void")), "p"), F("long", "l"), F("long long", "ll"), F("char", "z")))
    add(S("floats", F("char", "c"), F("long double", "ld"), F("float", "f"), F("_Bool", "b")))
    add(S("arrays", F("char", "c"), F(Array(P("short"), 3), "s"), F(Array(Array(P("int"), 2), 3), "m"), F("char", "e")))
    add(U("un", F("char", "c"), F("double", "d"), F(Array(P("char"), 13), "buf")))
    inner = S("inner", F("char", "c"), F("long long", "x"))
    helpers.append(inner)
    add(S("nested", F("char", "a"), F(ref(inner), "in"), F("char", "b"), F(Array(ref(inner), 2), "arr")))
    # anonymous members
    anon_u = U(None, F("int", "ai"), F("double", "ad"))
    anon_s = S(None, F("char", "x"), F("short", "y"))
    helpers.extend([anon_u, anon_s])
    add(S("anon", F("char", "c"), F(ref(anon_u), None), F(ref(anon_s), None), F("char", "z")))
    # flexible array members: not counted in the size, but in the alignment
    add(S("flex", F("int", "n"), F("char", "c"), F(Array(P("double"), None), "data")))
    add(S("flex2", F("char", "n"), F(Array(P("short"), None), "data")))
    # bitfields: straddling, :0, mixed types, unnamed
    add(S("bf_simple", F("unsigned int", "a", 3), F("unsigned int", "b", 5), F("unsigned int", "c", 30)))
    add(S("bf_straddle", F("char", "a"), F("int", "b", 30), F("short", "c", 9), F("short", "d", 9)))
    add(S("bf_zero", F("char", "a", 3), F("int", None, 0), F("char", "b", 2), F("long long", None, 0), F("char", "c")))
    add(S("bf_mixed", F("char", "a", 7), F("short", "b", 9), F("int", "c", 17), F("long long", "d", 40), F("char", "e", 8)))
    add(S("bf_unnamed", F("char", "a"), F("long long", None, 3), F("char", "b")))
    add(S("bf_unnamed_only", F("char", "a"), F("int", None, 5)))
    add(S("bf_bool", F("_Bool", "a", 1), F("_Bool", "b", 1), F("unsigned char", "c", 7), F("unsigned char", "d", 2)))
    add(S("bf_ll", F("int", "a", 8), F("long long", "b", 56), F("long long", "c", 33)))
    add(S("bf_after", F("int", "a"), F("char", "b", 4), F("double", "d")))
    add(U("bf_union", F("char", "a", 3), F("int", "b", 17), F("short", None, 0)))
    add(S("bf_zero_first", F("int", None, 0), F("char", "a"), F("short", "b", 3)))
    # #pragma pack
    for n in (1, 2, 4):
        add(S(f"pack{n}", F("char", "c"), F("double", "d"), F("short", "s"), F("int", "i"), F("char", "e"), pack=n))
        add(S(f"pack{n}_bf", F("char", "c"), F("int", "b", 20), F("short", "s", 12), F("int", None, 0),
              F("char", "e"), F("long long", "f", 33), pack=n))
    add(S("pack1_nested", F("char", "c"), F(ref(inner), "in"), pack=1))
    add(S("pack1_aligned", F("char", "c"), F("int", "i", aligned=8), pack=1))
    add(S("pack2_record_aligned", F("char", "c"), F("int", "i"), pack=2, aligned=16))
    # packed and aligned attributes
    add(S("packed_rec", F("char", "c"), F("int", "i"), F("double", "d"), F("short", "s"), packed=True))
    add(S("packed_bf", F("char", "c", 4), F("char", "d", 6), F("int", "i", 27), F("short", "s", 7), packed=True))
    add(S("packed_field", F("char", "c"), F("int", "i", packed=True), F("short", "s")))
    add(S("packed_aligned_field", F("char", "c"), F("int", "i", packed=True, aligned=2), F("char", "e")))
    add(S("aligned_field", F("char", "c"), F("int", "i", aligned=16), F("char", "e")))
    add(S("aligned_rec", F("char", "c"), aligned=32))
    add(S("aligned_bf", F("char", "c"), F("int", "b", 3, aligned=8), F("char", "e")))
    add(S("packed_aligned_rec", F("char", "c"), F("int", "i"), packed=True, aligned=4))
    # combinations: packed record inside a natural one, anonymous struct in a union,
    # GNU zero-length arrays, aligned union members, bitfields of enum type
    packed_inner = S("packed_inner", F("char", "c"), F("long long", "x"), packed=True)
    helpers.append(packed_inner)
    add(S("holds_packed", F("char", "a"), F(ref(packed_inner), "p"), F("int", "b")))
    anon_in_union = S(None, F("char", "lo"), F("int", "hi", 12))
    helpers.append(anon_in_union)
    add(U("union_anon", F(ref(anon_in_union), None), F("long long", "all")))
    add(S("zero_len", F("short", "n"), F(Array(P("long long"), 0), "tail")))
    add(U("union_aligned", F("char", "c", aligned=16), F("int", "i")))
    add(S("bf_enum", F("char", "c"), F(RecordRef("enum", "e_small", "enum e_small"), "k", 2),
          F(RecordRef("enum", "e_neg", "enum e_neg"), "n", 4)))
    add(S("bf_array_of", F("char", "c"), F(Array(ref(inner), 2), "two"), F("unsigned int", "f", 7)))
    return helpers, tops


def _ms_cases() -> list[Record]:
    # No ``long``: it is 8 bytes on the Linux host but 4 on Windows.
    return [
        S("ms_run", F("int", "a", 3), F("unsigned int", "b", 5), F("int", "c", 30)),
        S("ms_sizes", F("char", "a", 3), F("short", "b", 3), F("char", "c", 3), F("long long", "d", 3)),
        S("ms_zero_after_bf", F("char", "a", 3), F("int", None, 0), F("char", "b")),
        S("ms_zero_after_plain", F("char", "a"), F("int", None, 0), F("char", "b")),
        S("ms_unnamed_align", F("char", "a"), F("long long", None, 3), F("char", "b")),
        S("ms_then_plain", F("short", "a", 1), F("char", "b"), F("short", "c", 15), F("short", "d", 2)),
        S("ms_same_size", F("int", "a", 20), F("unsigned int", "b", 12), F("int", "c", 1)),
        U("ms_union", F("char", "a", 3), F("int", "b", 5)),
        S("ms_pack", F("char", "c"), F("int", "b", 20), F("short", "s", 12), F("char", "e"), pack=2),
    ]


# --------------------------------------------------------------------------
# C text of the records and the probe
# --------------------------------------------------------------------------
def _attrs(packed: bool, aligned: int | None) -> str:
    parts = (["packed"] if packed else []) + ([f"aligned({aligned})"] if aligned else [])
    return f" __attribute__(({', '.join(parts)}))" if parts else ""


def _record_body(module: Module, record: Record) -> str:
    members = []
    for member in record.fields or ():
        resolved = module.resolve(member.type)
        if isinstance(resolved, RecordRef) and resolved.tag is None and resolved.kind != "enum":
            # An untagged record cannot be named: print its body in place.
            text = _record_body(module, module.record(resolved.key)) + (f" {member.name}" if member.name else "")
            if member.bit_width is not None:
                text += f" : {member.bit_width}"
            text += ";"
        else:
            text = member.to_c()
        text = text[:-1] + _attrs(member.packed, member.aligned) + ";"
        members.append("  " + text)
    head = f"{record.kind}{_attrs(record.packed, record.aligned)}" + (f" {record.tag}" if record.tag else "")
    return head + " {\n" + "\n".join(members) + "\n}"


def record_to_c(module: Module, record: Record) -> str:
    text = _record_body(module, record) + ";\n"
    if record.pack is not None:
        text = f"#pragma pack(push, {record.pack})\n{text}#pragma pack(pop)\n"
    return text


def _probe_text(module: Module, target, names: list[Record], enums: list[Enum]) -> str:
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <string.h>", ""]
    for enum in enums:
        attrs = " __attribute__((packed))" if enum.packed else ""
        body = ", ".join(f"{m.name} = {m.value}" for m in enum.members)
        lines.append(f"enum{attrs} {enum.tag} {{ {body} }};")
    for record in module.records:
        if record.tag is not None:
            lines.append(record_to_c(module, record))
    lines += [
        "#define TYPE_NAME(x) _Generic((x), char: \"char\", signed char: \"signed char\", "
        "unsigned char: \"unsigned char\", short: \"short\", unsigned short: \"unsigned short\", "
        "int: \"int\", unsigned int: \"unsigned int\", long: \"long\", unsigned long: \"unsigned long\", "
        "long long: \"long long\", unsigned long long: \"unsigned long long\", default: \"other\")",
        "static void bits(const char *rec, const char *path, const unsigned char *p, size_t n) {",
        "  long first = -1, count = 0;",
        "  for (size_t i = 0; i < 8 * n; i++)",
        "    if (p[i / 8] >> (i % 8) & 1) { if (first < 0) first = (long)i; count++; }",
        "  printf(\"B|%s|%s|%ld|%ld\\n\", rec, path, first, count);",
        "}",
        "int main(void) {",
    ]
    for record in names:
        layout = record_layout(module, record.key, target)
        spelled = f"{record.kind} {record.tag}"
        lines.append(f'  printf("R|{spelled}|%zu|%zu\\n", sizeof({spelled}), _Alignof({spelled}));')
        for path, placed in layout.flat_fields():
            if placed.bit_width is None:
                lines.append(f'  printf("F|{spelled}|{path}|%zu\\n", offsetof({spelled}, {path}));')
            else:
                lines.append(f"  {{ {spelled} v; memset(&v, 0, sizeof v); v.{path} = -1; "
                             f'bits("{spelled}", "{path}", (const unsigned char *)&v, sizeof v); }}')
    for enum in enums:
        spelled = f"enum {enum.tag}"
        lines.append(f'  printf("E|{spelled}|%zu|%zu|%s\\n", sizeof({spelled}), _Alignof({spelled}), '
                     f"TYPE_NAME(({spelled})0));")
        for member in enum.members:
            lines.append(f'  printf("K|{member.name}|%s\\n", TYPE_NAME({member.name}));')
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def _run_probe(tmp: Path, source: str, flags: list[str]) -> dict[tuple[str, ...], tuple[str, ...]]:
    src = tmp / "probe.c"
    exe = tmp / "probe"
    src.write_text(source)
    built = subprocess.run([GCC, "-std=gnu11", "-w", *flags, str(src), "-o", str(exe)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr + "\n" + source
    ran = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    facts: dict[tuple[str, ...], tuple[str, ...]] = {}
    for line in ran.stdout.splitlines():
        kind, *rest = line.split("|")
        if kind == "R":
            facts[("R", rest[0])] = tuple(rest[1:])
        elif kind in ("F", "B"):
            facts[(kind, rest[0], rest[1])] = tuple(rest[2:])
        elif kind == "E":
            facts[("E", rest[0])] = tuple(rest[1:])
        elif kind == "K":
            facts[("K", rest[0])] = tuple(rest[1:])
    return facts


def _enums() -> list[Enum]:
    def enum(tag: str, *values: int, packed: bool = False) -> Enum:
        members = tuple(EnumMember(f"{tag.upper()}_{i}", v) for i, v in enumerate(values))
        return Enum(tag, f"enum {tag}", members, packed=packed)

    return [
        enum("e_small", 0, 1, 2),
        enum("e_neg", -1, 5),
        enum("e_uint", 0, 0x80000000),
        enum("e_wide", 1, 0x100000000),
        enum("e_wide_neg", -1, 0x80000000),
        enum("e_packed", 1, 200, packed=True),
        enum("e_packed_neg", -3, 100, packed=True),
        enum("e_packed_short", 0, 40000, packed=True),
        enum("e_packed_int", -70000, packed=True),
    ]


def _module(records: list[Record], enums: list[Enum]) -> Module:
    typedefs = (Typedef("va", TypedefRef("__builtin_va_list")),)
    return Module("linux-x86_64", records=tuple(records), enums=tuple(enums), typedefs=typedefs)


def _gcc_facts(tmp_path_factory, target_name: str, flags: list[str], records: list[Record], helpers: list[Record],
               enums: list[Enum]):
    target = get_target(target_name)
    module = _module(helpers + records, enums)
    source = _probe_text(module, target, records, enums)
    return module, target, _run_probe(tmp_path_factory.mktemp(target_name), source, flags)


def _m32_available() -> str | None:
    if GCC is None:
        return "gcc is not installed"
    # into a folder of its own: a link that fails deletes its output, and as root -o /dev/null
    # deleted /dev/null (then made again as a plain file by the next write to it)
    with tempfile.TemporaryDirectory() as folder:
        probe = subprocess.run([GCC, "-m32", "-x", "c", "-", "-o", os.path.join(folder, "probe")],
                               input="int main(void){return 0;}", capture_output=True, text=True)
    return None if probe.returncode == 0 else "gcc -m32 cannot build 32-bit programs here (no multilib)"


_HELPERS, _TOPS = _cases()
_MS = _ms_cases()
_ENUMS = _enums()


@pytest.fixture(scope="module")
def native(tmp_path_factory):
    return _gcc_facts(tmp_path_factory, "linux-x86_64", [], _TOPS, _HELPERS, _ENUMS)


@pytest.fixture(scope="module")
def i386(tmp_path_factory):
    reason = _m32_available()
    if reason:
        pytest.skip(reason)
    return _gcc_facts(tmp_path_factory, "linux-i386", ["-m32"], _TOPS, _HELPERS, _ENUMS)


@pytest.fixture(scope="module")
def ms(tmp_path_factory):
    return _gcc_facts(tmp_path_factory, "win-x86_64", ["-mms-bitfields"], _MS, [], [])


def _compare(module: Module, target, facts, record: Record) -> None:
    layout = record_layout(module, record.key, target)
    spelled = f"{record.kind} {record.tag}"
    problems = []
    size, align = facts[("R", spelled)]
    if (layout.size, layout.align) != (int(size), int(align)):
        problems.append(f"size/align pegbind {layout.size}/{layout.align}, gcc {size}/{align}")
    for path, placed in layout.flat_fields():
        if placed.bit_width is None:
            (offset,) = facts[("F", spelled, path)]
            if placed.offset != int(offset):
                problems.append(f"{path}: offset pegbind {placed.offset}, gcc {offset}")
        else:
            first, width = facts[("B", spelled, path)]
            if (placed.bit_offset, placed.bit_width) != (int(first), int(width)):
                problems.append(f"{path}: bits pegbind {placed.bit_offset}+{placed.bit_width}, gcc {first}+{width}")
    assert not problems, f"{target.name} {spelled}:\n" + record_to_c(module, record) + "\n".join(problems)


@pytest.mark.parametrize("record", _TOPS, ids=lambda r: r.tag)
def test_layout_native(native, record):
    _compare(*native, record)


@pytest.mark.parametrize("record", _TOPS, ids=lambda r: r.tag)
def test_layout_i386(i386, record):
    _compare(*i386, record)


@pytest.mark.parametrize("record", _MS, ids=lambda r: r.tag)
def test_layout_ms_bitfields(ms, record):
    _compare(*ms, record)


@pytest.mark.parametrize("fixture", ["native", "i386"])
@pytest.mark.parametrize("enum", _ENUMS, ids=lambda e: e.tag)
def test_enum_type(request, fixture, enum):
    module, target, facts = request.getfixturevalue(fixture)
    size, align, name = facts[("E", f"enum {enum.tag}")]
    chosen = enum_type(module, enum, target)
    # "other" is long long on i386, which the _Generic list names, so it never appears.
    assert chosen == name
    assert size_align(module, enum.ref, target) == (int(size), int(align))
    for member in enum.members:
        (member_type,) = facts[("K", member.name)]
        assert enum_constant_type(module, enum, member.value, target) == member_type


# --------------------------------------------------------------------------
# Microsoft rules checked by hand.  From the MSVC documentation "C Bit
# Fields" / "struct layout": adjacent bitfields share an allocation unit of
# their declared type's size only while that size stays the same; a
# different size starts a new unit aligned for the new type; a zero-width
# bitfield after a bitfield closes the unit and aligns to its type.
# --------------------------------------------------------------------------
def test_ms_bitfields_by_hand():
    win = get_target("win-x86_64")
    # struct { char a:3; short b:3; }  -> a in byte 0, b in the short at offset 2; size 4, align 2
    r1 = S("h1", F("char", "a", 3), F("short", "b", 3))
    # struct { int a:3; unsigned b:5; } -> both in one 4-byte unit; size 4
    r2 = S("h2", F("int", "a", 3), F("unsigned int", "b", 5))
    # struct { char a:3; int :0; char b; } -> the zero-width int follows a bitfield, so it
    # closes the unit, moves b to offset 4 and makes the record 4-aligned: size 8.
    r3 = S("h3", F("char", "a", 3), F("int", None, 0), F("char", "b"))
    # struct { long a:3; long b:3; } with the 4-byte Windows long -> one unit; size 4
    r4 = S("h4", F("long", "a", 3), F("long", "b", 3))
    module = _module([r1, r2, r3, r4], [])
    l1 = record_layout(module, r1.key, win)
    assert (l1.size, l1.align, l1.fields[1].bit_offset) == (4, 2, 16)
    l2 = record_layout(module, r2.key, win)
    assert (l2.size, l2.fields[1].bit_offset) == (4, 3)
    l3 = record_layout(module, r3.key, win)
    assert (l3.size, l3.align, l3.fields[2].offset) == (8, 4, 4)
    l4 = record_layout(module, r4.key, win)
    assert (l4.size, l4.align, l4.fields[1].bit_offset) == (4, 4, 3)
    # The SysV rules pack the first record into 2 bytes instead: b continues in byte 0.
    assert record_layout(module, r1.key, get_target("linux-x86_64")).size == 2


# --------------------------------------------------------------------------
# Builtins, errors and the whole-module helpers
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "target, expected",
    [("linux-x86_64", (24, 8)), ("linux-aarch64", (32, 8)), ("linux-i386", (4, 4)), ("win-x86_64", (8, 8))],
)
def test_builtin_va_list(target, expected):
    module = _module([], [])
    assert size_align(module, TypedefRef("__builtin_va_list"), get_target(target)) == expected
    assert size_align(module, TypedefRef("va"), get_target(target)) == expected


def test_va_list_matches_gcc(tmp_path):
    source = '#include <stdio.h>\nint main(void){printf("%zu %zu", sizeof(__builtin_va_list), _Alignof(__builtin_va_list));}\n'
    (tmp_path / "v.c").write_text(source)
    subprocess.run([GCC, str(tmp_path / "v.c"), "-o", str(tmp_path / "v")], check=True)
    out = subprocess.run([str(tmp_path / "v")], capture_output=True, text=True, check=True).stdout
    assert tuple(map(int, out.split())) == size_align(_module([], []), TypedefRef("va"), get_target("linux-x86_64"))


def test_primitives_and_pointers():
    module = _module([], [])
    lp64, ilp32, llp64 = (get_target(n) for n in ("linux-x86_64", "linux-i386", "win-x86_64"))
    assert size_align(module, P("__int128"), lp64) == (16, 16)
    assert size_align(module, P("long double"), ilp32) == (12, 4)
    assert size_align(module, P("long"), llp64) == (4, 4)
    assert size_align(module, Pointer(P("char")), ilp32) == (4, 4)
    assert size_align(module, Array(P("double"), 5), ilp32) == (40, 4)


def test_incomplete_types_raise_with_coord():
    opaque = Record("struct", "opaque", "struct opaque", None, coord=Coord("o.h", 3, 8))
    holder = Record("struct", "holder", "struct holder", (Field("o", opaque.ref, coord=Coord("o.h", 4, 17)),),
                    coord=Coord("o.h", 4, 8))
    module = Module("linux-x86_64", records=(opaque, holder))
    lp64 = get_target("linux-x86_64")
    with pytest.raises(LayoutError) as caught:
        record_layout(module, "struct holder", lp64)
    assert caught.value.diagnostics[0].coord == Coord("o.h", 4, 17)
    assert "incomplete" in caught.value.diagnostics[0].message
    for bad in (P("void"), TypedefRef("no_such_type"), Array(P("int"), None)):
        with pytest.raises(LayoutError):
            size_align(module, bad, lp64)
    # layouts() leaves out what cannot be laid out and keeps the rest
    assert layouts(module, lp64) == {}


def test_self_containing_struct_is_an_error():
    loop = Record("struct", "loop", "struct loop", (Field("again", RecordRef("struct", "loop", "struct loop")),),
                  coord=Coord("l.h", 1, 8))
    module = Module("linux-x86_64", records=(loop,))
    with pytest.raises(LayoutError):
        record_layout(module, "struct loop", get_target("linux-x86_64"))


def test_flat_fields_nested_paths():
    inner = S("fi", F("char", "c"), F("int", "x"))
    anon = U(None, F("short", "s"), F("double", "d"))
    outer = S("fo", F("char", "a"), F(ref(inner), "in"), F(ref(anon), None))
    module = _module([inner, anon, outer], [])
    layout = record_layout(module, outer.key, get_target("linux-x86_64"))
    flat = {path: placed.offset for path, placed in layout.flat_fields(nested=True)}
    assert flat == {"a": 0, "in": 4, "in.c": 4, "in.x": 8, "s": 16, "d": 16}
    assert [p for p, _ in layout.flat_fields()] == ["a", "in", "s", "d"]


def test_a_record_larger_than_any_object_is_an_error():
    big = Record(
        "struct", "big", "struct big",
        (Field("a", Array(Primitive("int"), 1 << 62)), Field("b", Array(Primitive("int"), 1 << 62))),
        coord=Coord("big.h", 1, 8),
    )
    module = Module("linux-x86_64", records=(big,))
    with pytest.raises(LayoutError) as caught:
        record_layout(module, "struct big", get_target("linux-x86_64"))
    assert caught.value.diagnostics[0].headline() == "big.h:1:8: error: struct big is too large (36893488147419103232 bytes)"
