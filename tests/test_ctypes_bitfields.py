"""Bitfields and packed records in the ctypes backend, byte for byte against gcc.

A header with bitfields of mixed declared types, signed and unsigned,
``_Bool`` and enum bitfields, ``:0``, unnamed padding bits, ``#pragma pack``
and ``__attribute__((packed))`` records, bitfields inside an anonymous
struct inside an anonymous union, a union of bitfields, and a record holding
the others by value (so their sizes and alignments place them) is bound with
the ctypes backend and built beside a small C library compiled by gcc.  The
library's ``bf_fill_*`` functions zero a record and assign each named member
from an array of values, as C code would; ``bf_read_*`` read each member back
into an array.  For several sets of values (each field's minimum and maximum
and values in between) the test sets the same members from Python and checks
that ``bytes(obj)`` equals what C wrote, that Python reads C's bytes back as
the values, and that C reads Python's record back as the values.
"""
from __future__ import annotations

import array
import random
import subprocess

import pytest

from conftest import build_and_import

from pegbind.config import BindingConfig

pytestmark = pytest.mark.slow

HEADER = """\
#include <stddef.h>
#include <stdint.h>

enum bf_mode { BF_OFF, BF_ON, BF_AUTO, BF_LAST = 3 };

struct bf_mixed {
    char tag;
    unsigned short low : 5;
    unsigned short high : 11;
    int : 0;
    unsigned char last : 3;
    long long wide : 40;
    signed char small : 4;
    int neg : 7;
    _Bool flag : 1;
    enum bf_mode mode : 2;
    unsigned int : 3;
    unsigned long long top : 61;
    short after;
};

#pragma pack(push, 1)
struct bf_packed {
    unsigned char kind;
    unsigned int span : 20;
    int delta : 13;
    unsigned long long big : 33;
    short tail;
};
#pragma pack(pop)

struct bf_attr {
    char c;
    int odd : 9;
    unsigned int more : 23;
    long long x : 35;
    unsigned long long full : 64;
} __attribute__((packed));

struct bf_nested {
    short head;
    union {
        struct {
            unsigned int lo : 12;
            int hi : 20;
        };
        double pad;
    };
    unsigned char fl : 1;
    signed char sfl : 1;
    char name[3];
};

union bf_union {
    unsigned int a : 7;
    int b : 13;
};

struct bf_holder {
    char c;
    struct bf_mixed mixed;
    struct bf_packed packed[2];
    struct bf_attr attr;
    struct bf_nested nested;
};

void bf_fill_mixed(struct bf_mixed *r, const uint64_t *values);
void bf_read_mixed(const struct bf_mixed *r, uint64_t *out);
void bf_fill_packed(struct bf_packed *r, const uint64_t *values);
void bf_read_packed(const struct bf_packed *r, uint64_t *out);
void bf_fill_attr(struct bf_attr *r, const uint64_t *values);
void bf_read_attr(const struct bf_attr *r, uint64_t *out);
void bf_fill_nested(struct bf_nested *r, const uint64_t *values);
void bf_read_nested(const struct bf_nested *r, uint64_t *out);
void bf_fill_union(union bf_union *r, const uint64_t *values);
void bf_read_union(const union bf_union *r, uint64_t *out);
size_t bf_holder_offset(int which);
size_t bf_align(int which);
"""

#: record -> (C type, its members set and read here: (name, lowest value, highest value))
RECORDS: dict[str, tuple[str, list[tuple[str, int, int]]]] = {
    "mixed": ("struct bf_mixed", [
        ("tag", -128, 127), ("low", 0, 31), ("high", 0, 2047), ("last", 0, 7),
        ("wide", -(1 << 39), (1 << 39) - 1), ("small", -8, 7), ("neg", -64, 63), ("flag", 0, 1),
        ("mode", 0, 3), ("top", 0, (1 << 61) - 1), ("after", -32768, 32767),
    ]),
    "packed": ("struct bf_packed", [
        ("kind", 0, 255), ("span", 0, (1 << 20) - 1), ("delta", -4096, 4095),
        ("big", 0, (1 << 33) - 1), ("tail", -32768, 32767),
    ]),
    "attr": ("struct bf_attr", [
        ("c", -128, 127), ("odd", -256, 255), ("more", 0, (1 << 23) - 1),
        ("x", -(1 << 34), (1 << 34) - 1), ("full", 0, (1 << 64) - 1),
    ]),
    "nested": ("struct bf_nested", [
        ("head", -32768, 32767), ("lo", 0, 4095), ("hi", -(1 << 19), (1 << 19) - 1),
        ("fl", 0, 1), ("sfl", -1, 0),
    ]),
    # a union holds one member at a time: b alone (a shares its bits)
    "union": ("union bf_union", [("b", -4096, 4095)]),
}

#: the members of struct bf_holder whose offsets gcc and the module must agree on
HOLDER = ["mixed", "packed", "attr", "nested"]


def _c_source() -> str:
    lines = ['#include "bf.h"', "#include <string.h>", ""]
    for suffix, (ctype, members) in RECORDS.items():
        lines.append(f"void bf_fill_{suffix}({ctype} *r, const uint64_t *values)")
        lines.append("{")
        lines.append("    memset(r, 0, sizeof *r);")
        # gcc converts out of range by reducing modulo 2**width: negative values arrive as
        # their 64-bit two's complement and land as the same negative number
        lines += [f"    r->{name} = values[{i}];" for i, (name, _, _) in enumerate(members)]
        lines.append("}")
        lines.append(f"void bf_read_{suffix}(const {ctype} *r, uint64_t *out)")
        lines.append("{")
        for i, (name, low, _) in enumerate(members):
            cast = "(uint64_t)(int64_t)" if low < 0 else "(uint64_t)"
            lines.append(f"    out[{i}] = {cast}r->{name};")
        lines.append("}")
    lines.append("size_t bf_holder_offset(int which)")
    lines.append("{")
    lines += [f"    if (which == {i}) return offsetof(struct bf_holder, {name});" for i, name in enumerate(HOLDER)]
    lines.append("    return sizeof(struct bf_holder);")
    lines.append("}")
    lines.append("size_t bf_align(int which)")
    lines.append("{")
    lines += [f"    if (which == {i}) return _Alignof({ctype});" for i, (ctype, _) in enumerate(RECORDS.values())]
    lines.append("    return _Alignof(struct bf_holder);")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def bf(tmp_path_factory):
    root = tmp_path_factory.mktemp("ctypes_bitfields")
    (root / "bf.h").write_text(HEADER)
    (root / "bf.c").write_text(_c_source())
    libdir = root / "lib"
    libdir.mkdir()
    subprocess.run(
        ["gcc", "-std=c11", "-Wall", "-Werror", "-Wno-overflow", "-shared", "-fPIC", str(root / "bf.c"),
         "-o", str(libdir / "libbf.so")],
        check=True,
    )
    config = BindingConfig(name="bf_ctypes", headers=(root / "bf.h",), link=("bf",), library_dirs=(libdir,),
                           backends=("ctypes",))
    return build_and_import(config, root / "out")


def _value_sets(members: list[tuple[str, int, int]]) -> list[list[int]]:
    """Each member's extremes, ones, and seeded random values between."""
    rng = random.Random(1234)
    sets = [[low for _, low, _ in members], [high for _, _, high in members],
            [min(max(1, low), high) for _, low, high in members], [-1 if low < 0 else high for _, low, high in members]]
    sets += [[rng.randint(low, high) for _, low, high in members] for _ in range(20)]
    return sets


def _record(module, suffix):
    return {"mixed": module.bf_mixed, "packed": module.bf_packed, "attr": module.bf_attr,
            "nested": module.bf_nested, "union": module.bf_union}[suffix]


def _c_fill(module, suffix, values):
    obj = _record(module, suffix)()
    getattr(module, f"bf_fill_{suffix}")(obj, array.array("Q", [v & ((1 << 64) - 1) for v in values]))
    return obj


def _c_read(module, suffix, obj, members):
    out = array.array("Q", [0] * len(members))
    getattr(module, f"bf_read_{suffix}")(obj, out)
    # C sign-extended signed members to 64 bits
    return [v - (1 << 64) if low < 0 and v >= 1 << 63 else v for v, (_, low, _) in zip(out, members)]


@pytest.mark.parametrize("suffix", list(RECORDS))
def test_python_writes_the_bytes_gcc_writes_and_each_side_reads_the_other(bf, suffix):
    _, members = RECORDS[suffix]
    cls = _record(bf, suffix)
    ours = cls()  # one record for every set: each store overwrites what the last set left
    for values in _value_sets(members):
        from_c = _c_fill(bf, suffix, values)
        # reverse order too: a member's store must not disturb the bits of its neighbours
        for (name, _, _), value in reversed(list(zip(members, values))):
            setattr(ours, name, value)
        assert bytes(ours) == bytes(from_c), (values, bytes(ours).hex(), bytes(from_c).hex())
        assert [getattr(from_c, name) for name, _, _ in members] == values
        assert _c_read(bf, suffix, ours, members) == values
        again = cls(**dict(zip([name for name, _, _ in members], values)))
        assert bytes(again) == bytes(from_c)


def test_bool_and_enum_bitfields_read_as_c_types(bf):
    record = bf.bf_mixed(flag=True, mode=bf.BF_AUTO)
    assert record.flag is True and record.mode == bf.BF_AUTO
    record.flag = 0
    assert record.flag is False


def test_sizes_alignments_and_nested_offsets_agree_with_gcc(bf):
    import ctypes

    for which, suffix in enumerate(RECORDS):
        cls = _record(bf, suffix)
        assert ctypes.alignment(type(cls()._s)) == bf.bf_align(which), suffix
    assert bf.bf_holder.sizeof == bf.bf_holder_offset(len(HOLDER))
    holder = bf.bf_holder()
    base = ctypes.addressof(holder._s)
    for which, name in enumerate(HOLDER):
        view = getattr(holder, name)
        view = view[0] if isinstance(view, list) else view
        assert ctypes.addressof(view._s) - base == bf.bf_holder_offset(which), name


def test_writes_through_nested_views_land_where_gcc_puts_them(bf):
    holder = bf.bf_holder(c=-1)
    holder.mixed.wide = -(1 << 39)
    holder.packed[1].delta = -4096
    holder.attr.full = (1 << 64) - 1
    holder.nested.hi = 12345
    expected = bytearray(bf.bf_holder.sizeof)
    expected[0] = 0xFF
    for name, values_of in (("mixed", {"wide": -(1 << 39)}), ("attr", {"full": (1 << 64) - 1}), ("nested", {"hi": 12345})):
        members = RECORDS[name][1]
        part = bytes(_c_fill(bf, name, [values_of.get(member, 0) for member, _, _ in members]))
        offset = bf.bf_holder_offset(HOLDER.index(name))
        expected[offset:offset + len(part)] = part
    part = bytes(_c_fill(bf, "packed", [0, 0, -4096, 0, 0]))
    offset = bf.bf_holder_offset(HOLDER.index("packed")) + len(part)
    expected[offset:offset + len(part)] = part
    assert bytes(holder) == bytes(expected)


@pytest.mark.parametrize("name, low, high", RECORDS["mixed"][1])
def test_out_of_range_and_non_integers_are_refused_and_change_nothing(bf, name, low, high):
    record = bf.bf_mixed(**{member: value for member, value, _ in RECORDS["mixed"][1]})
    before = bytes(record)
    if name != "flag":  # _Bool takes any integer, as C converts it
        with pytest.raises(OverflowError):
            setattr(record, name, high + 1)
        with pytest.raises(OverflowError):
            setattr(record, name, low - 1)
    with pytest.raises(TypeError):
        setattr(record, name, 1.5)
    with pytest.raises(TypeError):
        setattr(record, name, "1")
    assert bytes(record) == before
