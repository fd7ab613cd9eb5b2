"""The model of tests/clib/demo.h, built by hand.

The emitter tests run before (and independently of) the parser, so they
describe demo.h directly with model objects; once the parser reads demo.h,
a test compares the two.
"""
from __future__ import annotations

import re
from pathlib import Path

from pegbind.diagnostics import Coord
from pegbind.model import (
    Array, Constant, Enum, EnumMember, Field, Function, Module, Param, Pointer, Primitive, Record, RecordRef,
    Typedef, TypedefRef,
)

HERE = Path(__file__).resolve().parent
HEADER = HERE / "demo.h"
SOURCE = HERE / "demo.c"


def _line(text: str) -> int:
    """The 1-based line of demo.h that contains ``text`` (coordinates follow the real header)."""
    for number, line in enumerate(HEADER.read_text().splitlines(), 1):
        if text in line:
            return number
    raise LookupError(text)


def _at(text: str) -> Coord:
    return Coord("demo.h", _line(text), 1)


def _at_function(name: str) -> Coord:
    for number, line in enumerate(HEADER.read_text().splitlines(), 1):
        if re.search(rf"\b{name}\(", line):
            return Coord("demo.h", number, 1)
    raise LookupError(name)


def P(name: str, *quals: str) -> Primitive:
    return Primitive(name, tuple(quals))


def T(name: str, *quals: str) -> TypedefRef:
    return TypedefRef(name, tuple(quals))


#: The C library's exact-width types as glibc declares them on linux-x86_64:
#: ``int32_t`` names ``__int32_t``, which names ``int``.
STDINT = {
    "int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short", "uint16_t": "unsigned short",
    "int32_t": "int", "uint32_t": "unsigned int", "int64_t": "long", "uint64_t": "unsigned long",
}


def _standard_typedefs() -> tuple[Typedef, ...]:
    found = [Typedef("size_t", P("unsigned long"), Coord("stddef.h", 1, 1))]
    for number, (name, primitive) in enumerate(STDINT.items(), 1):
        found.append(Typedef(f"__{name}", P(primitive), Coord("types.h", number, 1)))
        found.append(Typedef(name, T(f"__{name}"), Coord("stdint-intn.h", number, 1)))
    return tuple(found)


def _fn(name: str, ret, *params: tuple[str, object], variadic: bool = False, doc: str = "") -> Function:
    return Function(name, ret, tuple(Param(n, t) for n, t in params), variadic, _at_function(name), doc)


def demo_module() -> Module:
    point = RecordRef("struct", "point", "struct point")
    anon_key = f"union <anonymous at demo.h:{_line('union {')}:5>"
    anon = RecordRef("union", None, anon_key)
    shape = RecordRef("struct", None, "demo_shape")
    color = RecordRef("enum", None, "demo_color")
    typedefs = _standard_typedefs() + (
        Typedef("demo_color", color, _at("} demo_color;")),
        Typedef("point_t", point, _at("typedef struct point point_t;")),
        Typedef("demo_shape", shape, _at("} demo_shape;")),
    )
    records = (
        Record("struct", "point", "struct point", (Field("x", T("int32_t")), Field("y", T("int32_t"))), coord=_at("struct point {")),
        Record("union", None, anon_key, (Field("i", T("int32_t")), Field("f", P("float"))), coord=_at("union {")),
        Record(
            "struct", None, "demo_shape",
            (
                Field("origin", point),
                Field("label", Array(P("char"), 8)),
                Field("coords", Array(T("int32_t"), 3)),
                Field(None, anon),
                Field("flags", P("unsigned int"), bit_width=3),
                Field("delta", P("int"), bit_width=4),
                Field("weight", P("double")),
                Field("corners", Array(point, 2)),
            ),
            coord=_at("typedef struct {"), doc="A record with one member of each field kind.",
        ),
    )
    enums = (
        Enum(None, "demo_color", (EnumMember("DEMO_RED", 0), EnumMember("DEMO_GREEN", 5), EnumMember("DEMO_BLUE", 6)),
             coord=_at("typedef enum")),
        Enum("demo_flag", "enum demo_flag", (EnumMember("DEMO_FLAG_A", 1), EnumMember("DEMO_FLAG_B", 0x40000000)),
             coord=_at("enum demo_flag")),
    )
    constants = (
        Constant("DEMO_ALL_BITS", 18446744073709551615, P("unsigned long"), "(~0UL)", _at("DEMO_ALL_BITS")),
        Constant("DEMO_NAME", "demo", Pointer(P("char")), '"demo"', _at("DEMO_NAME")),
        Constant("DEMO_SCALE", 2.5, P("double"), "2.5", _at("DEMO_SCALE")),
        Constant("DEMO_MIN", -7, P("int"), "(-7)", _at("DEMO_MIN")),
    )
    functions = []
    for bits in (8, 16, 32, 64):
        for sign in ("i", "u"):
            t = T(f"{'u' if sign == 'u' else ''}int{bits}_t")
            functions.append(_fn(f"demo_add_{sign}{bits}", t, ("a", t), ("b", t)))
    functions += [
        _fn("demo_echo_long", P("long"), ("v", P("long"))),
        _fn("demo_echo_ull", P("unsigned long long"), ("v", P("unsigned long long"))),
        _fn("demo_is_even", P("_Bool"), ("v", P("int"))),
        _fn("demo_scale_f", P("float"), ("x", P("float")), ("k", P("float"))),
        _fn("demo_scale_d", P("double"), ("x", P("double")), ("k", P("double"))),
        _fn("demo_checksum", T("uint32_t"), ("data", Pointer(P("void", "const"))), ("len", T("size_t")),
            doc="Sum of the bytes of data[0..len)."),
        _fn("demo_length", P("long"), ("s", Pointer(P("char", "const"))), doc="Length of s, or -1 for NULL."),
        _fn("demo_fill", P("void"), ("out", Pointer(P("unsigned char"))), ("len", T("size_t")), ("value", P("unsigned char")),
            doc="Set out[0..len) to value."),
        _fn("demo_square", P("void"), ("v", T("int64_t")), ("out", Pointer(T("int64_t"))), doc="Store the square of v in *out."),
        _fn("demo_point_sum", T("int32_t"), ("p", Pointer(point.with_quals("const")))),
        _fn("demo_point_scale", P("void"), ("p", Pointer(T("point_t"))), ("k", T("int32_t"))),
        _fn("demo_make_point", point, ("x", T("int32_t")), ("y", T("int32_t"))),
        _fn("demo_point_norm1", T("int32_t"), ("p", point)),
        _fn("demo_shape_area", P("double"), ("s", Pointer(T("demo_shape", "const")))),
        _fn("demo_version", Pointer(P("char", "const"))),
        _fn("demo_maybe_name", Pointer(P("char", "const")), ("i", P("int"))),
        _fn("demo_color_code", P("int"), ("c", T("demo_color"))),
        _fn("lambda", P("int"), ("x", P("int"))),
        _fn("demo_printf", P("int"), ("fmt", Pointer(P("char", "const"))), variadic=True),
    ]
    return Module("linux-x86_64", tuple(functions), records, enums, typedefs, constants)
