"""Wrong-argument probes of a built binding, run in a child process by tests/test_message_parity.py.

Usage: ``python messages.py MODULE_DIR MODULE_NAME PROBES [--load LIBRARY] [--no-getter LIBRARY]``,
where PROBES names the library the module binds: ``conf`` (tests/conformance/conf.h, linked
or loaded with ``--load``), ``demo`` (tests/clib/demo.h), ``roles`` (tests/clib/roles.h,
loaded) or ``capi`` (tests/capi/capi.h with its ownership rules, tests/capi/owned.toml).

DESIGN §4: wrong Python arguments raise the same exception with the same
message in every backend.  Each probe is a call a user could get wrong; for
``conf`` they begin with every misuse case of misuse.py.  Before a probe runs
its label is printed and flushed (a crash names the call); after it, one JSON
line gives what it raised (type and message) or the type of what it returned.
The parent compares those lines across backends.

A probe marked ``parsing`` is about how many arguments a call gets, or how:
the interpreter (CPython for a Python function, Cython's argument parsing for
a compiled one) raises before any code of the wrapper runs, in words of its
own, so only the exception type is compared.  Every other message is the
module's, and must read the same.
"""
from __future__ import annotations

import copy
import enum
import importlib
import json
import pickle
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import misuse  # noqa: E402  (a sibling script, found through the line above)


@dataclass(frozen=True)
class Probe:
    label: str
    call: Callable[[], object]
    #: raised by the interpreter's argument parsing, before the wrapper runs: the type is compared, not the words
    parsing: bool = False


#: misuse.py cases that pass the wrong number of arguments, or keywords
MISUSE_PARSING = {
    "conf_echo_i32()", "conf_echo_i32(1, 2)", "conf_sub_i64(1)", "conf_minmax([1], 1) [count is filled in]",
    "conf_square(3, bytearray(8)) [out is returned]", "conf_get_name(bytearray(64)) [buf is returned]",
    "conf_point(z=1)", "conf_tbl_add(1, 2, 3) [sum is returned]",
}


class Index:
    """An integer only through __index__."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class Big(enum.IntEnum):
    HUGE = 2**40


class Collector:
    def __init__(self) -> None:
        self.found: list[Probe] = []

    def __call__(self, label: str, call: Callable[[], object], parsing: bool = False) -> None:
        # misuse.py labels show some objects by repr: "<object object at 0x7f...>"
        self.found.append(Probe(re.sub(r" at 0x[0-9a-f]+", "", label), call, parsing))


def assign(obj: object, name: str, value: object) -> Callable[[], object]:
    return lambda: setattr(obj, name, value)


def conf_probes(mod: Any, lib: Any, no_getter: str | None) -> list[Probe]:
    """The conformance library: every conversion of DESIGN §4 through a C function or a record."""
    probe = Collector()
    for label, _, call in misuse.cases(mod, lib, no_getter):
        probe(label, call, parsing=label in MISUSE_PARSING)
    point, rect, info, ops = mod.conf_point, mod.conf_rect, mod.conf_info, mod.conf_ops

    # ---- integers: widths, both ends, every way an int reaches C
    probe("conf_echo_u64(-2**64)", lambda: lib.conf_echo_u64(-(2**64)))
    probe("conf_echo_u8(True + 255)", lambda: lib.conf_echo_u8(True + 255))
    probe("conf_echo_u8(IntEnum member 2**40)", lambda: lib.conf_echo_u8(Big.HUGE))
    probe("conf_echo_i32(Index(2**40)) [__index__]", lambda: lib.conf_echo_i32(Index(2**40)))
    probe("conf_echo_u32(Index(-1)) [__index__]", lambda: lib.conf_echo_u32(Index(-1)))
    # an __index__ that gives no int: every backend names the argument (Cython passed on
    # CPython's "__index__ returned non-int")
    probe("conf_echo_u32(Index('7')) [__index__ not an int]", lambda: lib.conf_echo_u32(Index("7")))  # type: ignore[arg-type]
    probe("conf_sub_i64(0, 2**63) [argument 2]", lambda: lib.conf_sub_i64(0, 2**63))
    probe("conf_sub_i64(0, 1.0)", lambda: lib.conf_sub_i64(0, 1.0))
    probe("conf_arg_of_8(1, 0, 0, 0, 0, 0, 0, 256) [on the stack]", lambda: lib.conf_arg_of_8(1, 0, 0, 0, 0, 0, 0, 256))
    probe("conf_arg_of_8(1, 0, 0, 0, 0, -1, 0, 0) [unsigned 64]", lambda: lib.conf_arg_of_8(1, 0, 0, 0, 0, -1, 0, 0))
    probe("conf_shape_next(-1) [enum]", lambda: lib.conf_shape_next(-1))
    probe("conf_shape_next(2**32) [enum]", lambda: lib.conf_shape_next(2**32))
    probe("conf_not(None) [_Bool]", lambda: lib.conf_not(None))
    probe("conf_not(1.0) [_Bool]", lambda: lib.conf_not(1.0))
    probe("conf_check_range(-2**31 - 1) [error policy]", lambda: lib.conf_check_range(-(2**31) - 1))
    probe("conf_raw_status(-1)", lambda: lib.conf_raw_status(-1))
    probe("conf_sleep_ms(-1) [GIL released]", lambda: lib.conf_sleep_ms(-1))
    probe("conf_session_open(2**31) [out handle]", lambda: lib.conf_session_open(2**31))
    probe("conf_point_make(0, 2**31) [out record]", lambda: lib.conf_point_make(0, 2**31))
    probe("conf_divide(2**31, 1) [two outs]", lambda: lib.conf_divide(2**31, 1))
    probe("conf_square('x')", lambda: lib.conf_square("x"))
    probe("conf_sizeof(Index(2**31))", lambda: lib.conf_sizeof(Index(2**31)))

    # ---- floats
    probe("conf_echo_double([1.0])", lambda: lib.conf_echo_double([1.0]))
    probe("conf_echo_double(2**1024)", lambda: lib.conf_echo_double(2**1024))
    probe("conf_echo_float('1.5')", lambda: lib.conf_echo_float("1.5"))
    probe("conf_fma(1.0, None, 1.0) [argument 2]", lambda: lib.conf_fma(1.0, None, 1.0))
    probe("conf_fma(1.0, 2.0, b'') [argument 3]", lambda: lib.conf_fma(1.0, 2.0, b""))

    # ---- buffers and strings
    probe("conf_checksum(None, 2**64)", lambda: lib.conf_checksum(None, 2**64))
    probe("conf_checksum(b'abc', -1)", lambda: lib.conf_checksum(b"abc", -1))
    probe("conf_checksum(a strided memoryview, 2)", lambda: lib.conf_checksum(memoryview(b"abcd")[::2], 2))
    probe("conf_checksum(1.5, 1)", lambda: lib.conf_checksum(1.5, 1))
    probe("conf_fill(None, 3, 256)", lambda: lib.conf_fill(None, 3, 256))
    probe("conf_fill(bytearray(3), -1, 0)", lambda: lib.conf_fill(bytearray(3), -1, 0))
    probe("conf_fill(bytearray(3), 3, -1)", lambda: lib.conf_fill(bytearray(3), 3, -1))
    probe("conf_fill(bytes(3), 3, 0) [read-only]", lambda: lib.conf_fill(bytes(3), 3, 0))
    probe("conf_fill(17, 3, 0)", lambda: lib.conf_fill(17, 3, 0))
    probe("conf_fill([0, 0, 0], 3, 0)", lambda: lib.conf_fill([0, 0, 0], 3, 0))
    probe("conf_fill(a strided writable memoryview, 2, 0)", lambda: lib.conf_fill(memoryview(bytearray(4))[::2], 2, 0))
    probe("conf_store_u32(bytearray(3), 1) [too short]", lambda: lib.conf_store_u32(bytearray(3), 1))
    probe("conf_store_u32(bytearray(4), -1)", lambda: lib.conf_store_u32(bytearray(4), -1))
    probe("conf_store_u32('abcd', 1)", lambda: lib.conf_store_u32("abcd", 1))
    probe("conf_strlen(5)", lambda: lib.conf_strlen(5))
    probe("conf_strlen(['a'])", lambda: lib.conf_strlen(["a"]))

    # ---- parameter roles
    probe("conf_total([None])", lambda: lib.conf_total([None]))
    probe("conf_total([1, 2**40])", lambda: lib.conf_total([1, 2**40]))
    probe("conf_total(an iterator with 2**40)", lambda: lib.conf_total(iter([1, 2**40])))
    probe("conf_total((1, -2**31 - 1)) [a tuple]", lambda: lib.conf_total((1, -(2**31) - 1)))
    probe("conf_total(1.5)", lambda: lib.conf_total(1.5))
    probe("conf_total(object())", lambda: lib.conf_total(object()))
    probe("conf_total({2**40: 0}) [a dict: its keys]", lambda: lib.conf_total({2**40: 0}))
    probe("conf_sum([1, -1])", lambda: lib.conf_sum([1, -1]))
    probe("conf_sum(5)", lambda: lib.conf_sum(5))
    probe("conf_sum([b'a'])", lambda: lib.conf_sum([b"a"]))
    probe("conf_sum(None)", lambda: lib.conf_sum(None))
    probe("conf_minmax([2**31])", lambda: lib.conf_minmax([2**31]))
    probe("conf_increment(None, 1) [inout]", lambda: lib.conf_increment(None, 1))
    probe("conf_increment(1.5, 1) [inout]", lambda: lib.conf_increment(1.5, 1))
    probe("conf_increment(-2**63 - 1, 1) [inout]", lambda: lib.conf_increment(-(2**63) - 1, 1))
    probe("conf_increment(Index(2**63), 1) [inout, __index__]", lambda: lib.conf_increment(Index(2**63), 1))
    probe("conf_increment(1, 2**63)", lambda: lib.conf_increment(1, 2**63))
    probe("conf_get_pattern(2**32) [size-probed out-bytes]", lambda: lib.conf_get_pattern(2**32))
    probe("conf_get_pattern(None)", lambda: lib.conf_get_pattern(None))
    probe("conf_get_squares(-1) [out-array]", lambda: lib.conf_get_squares(-1))
    probe("conf_fill_pattern(-1) [len of out-bytes]", lambda: lib.conf_fill_pattern(-1))
    probe("conf_fill_pattern(65536)", lambda: lib.conf_fill_pattern(65536))
    probe("conf_fill_pattern(Index(65536))", lambda: lib.conf_fill_pattern(Index(65536)))
    probe("conf_fill_pattern(1.5)", lambda: lib.conf_fill_pattern(1.5))
    probe("conf_fill_pattern(None)", lambda: lib.conf_fill_pattern(None))

    # ---- how many arguments, and how they are passed
    probe("conf_echo_i32(v=1)", lambda: lib.conf_echo_i32(v=1), parsing=True)
    probe("conf_echo_i32(w=1)", lambda: lib.conf_echo_i32(w=1), parsing=True)
    probe("conf_sub_i64()", lambda: lib.conf_sub_i64(), parsing=True)
    probe("conf_sub_i64(1, 2, 3)", lambda: lib.conf_sub_i64(1, 2, 3), parsing=True)
    probe("conf_sub_i64(1, b=2)", lambda: lib.conf_sub_i64(1, b=2), parsing=True)
    probe("conf_arg_of_8(*range(9))", lambda: lib.conf_arg_of_8(*range(9)), parsing=True)
    probe("conf_rect_area()", lambda: lib.conf_rect_area(), parsing=True)
    probe("conf_session_next(None, None)", lambda: lib.conf_session_next(None, None), parsing=True)
    probe("conf_point(1, 2) [keywords only]", lambda: point(1, 2), parsing=True)
    probe("conf_point.from_bytes()", lambda: point.from_bytes(), parsing=True)
    # a function without parameters is written so that one extra argument is refused in its own words
    probe("conf_counter_next(1) [no parameters]", lambda: lib.conf_counter_next(1), parsing=hasattr(mod, "load"))
    probe("conf_get_info(conf_info()) [out is returned]", lambda: lib.conf_get_info(info()),
          parsing=hasattr(mod, "load"))
    probe("conf_counter_next(1, 2)", lambda: lib.conf_counter_next(1, 2), parsing=True)

    # ---- records passed to functions
    probe("conf_point_dot(conf_point(), conf_rect()) [argument 2]", lambda: lib.conf_point_dot(point(), rect()))
    probe("conf_point_norm(conf_rect()) [nonnull]", lambda: lib.conf_point_norm(rect()))
    probe("conf_rect_area(5) [by value]", lambda: lib.conf_rect_area(5))
    probe("conf_rect_center(conf_point())", lambda: lib.conf_rect_center(point()))
    probe("conf_value_as_double(conf_point(), 0)", lambda: lib.conf_value_as_double(point(), 0))
    probe("conf_value_as_double(conf_value(), 2**31)", lambda: lib.conf_value_as_double(mod.conf_value(), 2**31))
    probe("conf_ops_apply(conf_point(), 1, 2)", lambda: lib.conf_ops_apply(point(), 1, 2))
    probe("conf_session_close(conf_point())", lambda: lib.conf_session_close(point()))
    probe("conf_session_next(a FunctionPointer)", lambda: lib.conf_session_next(lib.conf_get_ops(0).combine))

    # ---- records: constructing, assigning, copying
    probe("conf_point(x=None)", lambda: point(x=None))
    probe("conf_point(y=1.5)", lambda: point(y=1.5))
    probe("conf_point(y=-2**31 - 1)", lambda: point(y=-(2**31) - 1))
    probe("conf_point(y=Index(2**31))", lambda: point(y=Index(2**31)))
    probe("conf_info(version=-1)", lambda: info(version=-1))
    probe("conf_info(version=2**32)", lambda: info(version=2**32))
    probe("conf_info(label=None)", lambda: info(label=None))
    probe("conf_info(label=5)", lambda: info(label=5))
    probe("conf_info(label=bytearray(17))", lambda: info(label=bytearray(17)))
    probe("conf_info(samples=None)", lambda: info(samples=None))
    probe("conf_info(samples=5)", lambda: info(samples=5))
    probe("conf_info(samples='abcd')", lambda: info(samples="abcd"))
    probe("conf_info(samples=[-1])", lambda: info(samples=[-1]))
    probe("conf_info(samples=['a'])", lambda: info(samples=["a"]))
    probe("conf_info(samples=[1.5])", lambda: info(samples=[1.5]))
    probe("conf_info(samples=(1, None))", lambda: info(samples=(1, None)))
    probe("conf_info(shape=-1) [enum field]", lambda: info(shape=-1))
    probe("conf_info(shape=2**32) [enum field]", lambda: info(shape=2**32))
    probe("conf_info(box=None)", lambda: info(box=None))
    probe("conf_info(corners=None)", lambda: info(corners=None))
    probe("conf_info(corners=5)", lambda: info(corners=5))
    probe("conf_info(corners=conf_point())", lambda: info(corners=point()))
    probe("conf_info(corners=[conf_point()] * 3)", lambda: info(corners=[point()] * 3))
    probe("conf_info(corners=[None])", lambda: info(corners=[None]))
    probe("conf_info(value=conf_point())", lambda: info(value=point()))
    probe("conf_value(d='x') [float field]", lambda: mod.conf_value(d="x"))
    probe("conf_value(d=None) [float field]", lambda: mod.conf_value(d=None))
    probe("conf_value(d=2**1024) [float field]", lambda: mod.conf_value(d=2**1024))
    probe("conf_value(i=2**63)", lambda: mod.conf_value(i=2**63))
    probe("conf_value(raw=bytes(9)) [bytes field]", lambda: mod.conf_value(raw=bytes(9)))
    probe("conf_value(raw=[256])", lambda: mod.conf_value(raw=[256]))
    probe("conf_value(raw='abc')", lambda: mod.conf_value(raw="abc"))
    probe("conf_ops(id='1')", lambda: ops(id="1"))
    probe("conf_ops(combine=5)", lambda: ops(combine=5))
    probe("conf_ops(unary=a combine) [another C type]", lambda: ops(unary=lib.conf_get_ops(0).combine))
    probe("CONF_VERSION(major=256)", lambda: mod.CONF_VERSION(major=256))
    probe("CONF_VERSION(minor=-1)", lambda: mod.CONF_VERSION(minor=-1))
    probe("point.x = 1.5", assign(point(), "x", 1.5))
    probe("point.y = 2**31", assign(point(), "y", 2**31))
    probe("rect.min = None", assign(rect(), "min", None))
    probe("rect.max.x = 2**40 [a view]", assign(rect().max, "x", 2**40))
    probe("info.samples = [1, None]", assign(info(), "samples", [1, None]))
    probe("info.label = ['a']", assign(info(), "label", ["a"]))
    probe("ops.combine = conf_point()", assign(ops(), "combine", point()))
    probe("del point.x", lambda: delattr(point(), "x"))
    probe("conf_point.from_bytes(bytes(7))", lambda: point.from_bytes(bytes(7)))
    probe("conf_point.from_bytes(bytearray(9))", lambda: point.from_bytes(bytearray(9)))
    probe("conf_point.from_bytes('12345678')", lambda: point.from_bytes("12345678"))
    probe("conf_point.from_bytes(8)", lambda: point.from_bytes(8))
    probe("conf_point.from_bytes(a strided memoryview)", lambda: point.from_bytes(memoryview(bytes(16))[::2]))
    probe("conf_ops.from_bytes(bytes(conf_ops())) [pointers]", lambda: ops.from_bytes(bytes(ops())))
    probe("copy.copy(conf_point())", lambda: copy.copy(point()))
    probe("copy.deepcopy(conf_rect().max) [a view]", lambda: copy.deepcopy(rect().max))
    probe("pickle.dumps(conf_ops())", lambda: pickle.dumps(ops()))
    probe("conf_point().__reduce__()", lambda: point().__reduce__())
    probe("copy.copy(a FunctionPointer)", lambda: copy.copy(lib.conf_get_ops(0).combine))
    probe("pickle.dumps(a FunctionPointer)", lambda: pickle.dumps(lib.conf_get_ops(0).combine))

    # ---- handles and function pointers are not made from Python
    probe("conf_session()", lambda: mod.conf_session())
    probe("conf_session(5)", lambda: mod.conf_session(5))
    probe("FunctionPointer()", lambda: mod.FunctionPointer())
    probe("copy.deepcopy(a session handle)", lambda: copy.deepcopy(lib.conf_session_open(1)))
    probe("a session handle().__reduce__()", lambda: lib.conf_session_open(1).__reduce__())

    if hasattr(mod, "load"):
        probe("load(5)", lambda: mod.load(5))
        probe("load()", lambda: mod.load(), parsing=True)
        probe("Library()", lambda: type(lib)())
        probe("pickle.dumps(a Library)", lambda: pickle.dumps(lib))
        probe("copy.copy(a Library)", lambda: copy.copy(lib))
        probe("conf_tbl_add(0, -2**31 - 1) [through the table]", lambda: lib.conf_tbl_add(0, -(2**31) - 1))
        probe("conf_tbl_add() [through the table]", lambda: lib.conf_tbl_add(), parsing=True)
        probe("conf_tbl_which(1) [through the table]", lambda: lib.conf_tbl_which(1), parsing=True)
    return probe.found


def demo_probes(mod: Any, lib: Any, no_getter: str | None) -> list[Probe]:
    """The demo library: bitfields, a float field, an anonymous union, every integer width by two."""
    probe = Collector()
    shape, point = mod.demo_shape, mod.point_t
    for bits, signed in ((8, True), (8, False), (16, True), (16, False), (32, True), (32, False), (64, True),
                         (64, False)):
        name = f"demo_add_{'i' if signed else 'u'}{bits}"
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        add = getattr(lib, name)
        probe(f"{name}({high + 1}, 0)", lambda f=add, v=high + 1: f(v, 0))
        probe(f"{name}(0, {low - 1})", lambda f=add, v=low - 1: f(0, v))
    probe("demo_echo_ull(-1)", lambda: lib.demo_echo_ull(-1))
    probe("demo_is_even(2**40) [int parameter, _Bool result]", lambda: lib.demo_is_even(2**40))
    probe("demo_scale_f('1', 2.0)", lambda: lib.demo_scale_f("1", 2.0))
    probe("demo_scale_d(1.0, None)", lambda: lib.demo_scale_d(1.0, None))
    probe("demo_checksum('abc', 3)", lambda: lib.demo_checksum("abc", 3))
    probe("demo_length('abc')", lambda: lib.demo_length("abc"))
    probe("demo_fill(b'ab', 2, 0)", lambda: lib.demo_fill(b"ab", 2, 0))
    probe("demo_fill(bytearray(2), 2, 256)", lambda: lib.demo_fill(bytearray(2), 2, 256))
    probe("demo_square(2, bytearray(4)) [needs 8 bytes]", lambda: lib.demo_square(2, bytearray(4)))
    probe("demo_square(2, b'12345678') [read-only]", lambda: lib.demo_square(2, b"12345678"))
    probe("demo_point_sum(demo_shape())", lambda: lib.demo_point_sum(shape()))
    probe("demo_point_scale(point_t(), 2**31)", lambda: lib.demo_point_scale(point(), 2**31))
    probe("demo_point_norm1(None) [by value]", lambda: lib.demo_point_norm1(None))
    probe("demo_shape_area(point_t())", lambda: lib.demo_shape_area(point()))
    probe("demo_color_code(-1) [enum]", lambda: lib.demo_color_code(-1))
    probe("demo_color_code('DEMO_RED')", lambda: lib.demo_color_code("DEMO_RED"))
    probe("demo_maybe_name(2**31)", lambda: lib.demo_maybe_name(2**31))
    probe("lambda_(None) [a renamed function]", lambda: lib.lambda_(None))
    probe("demo_version(1)", lambda: lib.demo_version(1))
    probe("demo_shape(flags=8) [3-bit field]", lambda: shape(flags=8))
    probe("demo_shape(flags=-1) [3-bit field]", lambda: shape(flags=-1))
    probe("demo_shape(delta=8) [signed 4-bit field]", lambda: shape(delta=8))
    probe("demo_shape(delta=-9) [signed 4-bit field]", lambda: shape(delta=-9))
    probe("demo_shape(delta='1') [bitfield]", lambda: shape(delta="1"))
    probe("demo_shape(flags=Index(8)) [bitfield]", lambda: shape(flags=Index(8)))
    probe("demo_shape(weight='heavy') [double field]", lambda: shape(weight="heavy"))
    probe("demo_shape(f=[1.0]) [float in a union]", lambda: shape(f=[1.0]))
    probe("demo_shape(i=2**31) [int in a union]", lambda: shape(i=2**31))
    probe("demo_shape(coords=[1, 2, 3, 4])", lambda: shape(coords=[1, 2, 3, 4]))
    probe("demo_shape(coords=[2**31])", lambda: shape(coords=[2**31]))
    probe("demo_shape(coords=range(2**40, 2**40 + 1))", lambda: shape(coords=range(2**40, 2**40 + 1)))
    probe("demo_shape(coords=b'\\xff' * 3) [bytes are ints]", lambda: shape(coords=b"\xff" * 3))
    probe("demo_shape(label=b'123456789')", lambda: shape(label=b"123456789"))
    probe("demo_shape(label='text')", lambda: shape(label="text"))
    probe("demo_shape(origin=demo_shape())", lambda: shape(origin=shape()))
    probe("demo_shape(corners=[point_t(), 1])", lambda: shape(corners=[point(), 1]))
    probe("demo_shape.from_bytes(bytes(3))", lambda: shape.from_bytes(bytes(3)))
    probe("shape.weight = b'1'", assign(shape(), "weight", b"1"))
    probe("shape.origin.x = 2**31 [a view]", assign(shape().origin, "x", 2**31))
    probe("pickle.dumps(demo_shape())", lambda: pickle.dumps(shape()))
    probe("demo_add_i32(1)", lambda: lib.demo_add_i32(1), parsing=True)
    return probe.found


def roles_probes(mod: Any, lib: Any, no_getter: str | None) -> list[Probe]:
    """The roles library, loaded: in-arrays of bytes and records, inout, out handles, pointer fields."""
    probe = Collector()
    attribute, info, version = mod.rl_attribute, mod.rl_info, mod.rl_version
    probe("rl_bump(-1)", lambda: lib.rl_bump(-1))
    probe("rl_bump(2**64)", lambda: lib.rl_bump(2**64))
    probe("rl_bump('1')", lambda: lib.rl_bump("1"))
    probe("rl_login('1234') [in-array of bytes]", lambda: lib.rl_login("1234"))
    probe("rl_login([49, 256])", lambda: lib.rl_login([49, 256]))
    probe("rl_login([49, None])", lambda: lib.rl_login([49, None]))
    probe("rl_login(1234)", lambda: lib.rl_login(1234))
    probe("rl_sum([-1]) [in-array of unsigned long]", lambda: lib.rl_sum([-1]))
    probe("rl_sum([2**64])", lambda: lib.rl_sum([2**64]))
    probe("rl_sum(['1'])", lambda: lib.rl_sum(["1"]))
    probe("rl_sum(2)", lambda: lib.rl_sum(2))
    probe("rl_double(2**31) [inout int]", lambda: lib.rl_double(2**31))
    probe("rl_double(Index(-2**31 - 1)) [inout, __index__]", lambda: lib.rl_double(Index(-(2**31) - 1)))
    probe("rl_double(None) [inout]", lambda: lib.rl_double(None))
    probe("rl_double('2') [inout]", lambda: lib.rl_double("2"))
    probe("rl_get_attributes([rl_version()]) [in-array of records]", lambda: lib.rl_get_attributes([version()]))
    probe("rl_get_attributes([None])", lambda: lib.rl_get_attributes([None]))
    probe("rl_get_attributes(rl_attribute()) [not a sequence]", lambda: lib.rl_get_attributes(attribute()))
    probe("rl_attribute_bytes(rl_version())", lambda: lib.rl_attribute_bytes(version()))
    probe("rl_fill_info(rl_attribute())", lambda: lib.rl_fill_info(attribute()))
    probe("rl_open(5) [const char *]", lambda: lib.rl_open(5))
    probe("rl_open('name')", lambda: lib.rl_open("name"))
    probe("rl_counter_next(5) [a handle]", lambda: lib.rl_counter_next(5))
    probe("rl_counter_next(rl_version())", lambda: lib.rl_counter_next(version()))
    probe("rl_raw_status(-1)", lambda: lib.rl_raw_status(-1))
    probe("rl_random(-1) [len of out-bytes]", lambda: lib.rl_random(-1))
    probe("rl_random(2**64)", lambda: lib.rl_random(2**64))
    probe("rl_random(1.0)", lambda: lib.rl_random(1.0))
    probe("rl_set_count(-1)", lambda: lib.rl_set_count(-1))
    probe("rl_strlen(None) [nonnull]", lambda: lib.rl_strlen(None))
    probe("rl_strlen(3) [nonnull: None is not listed]", lambda: lib.rl_strlen(3))
    probe("rl_point_len(None, b'x') [nonnull record]", lambda: lib.rl_point_len(None, b"x"))
    probe("rl_point_len(rl_attribute(), b'x') [nonnull record]", lambda: lib.rl_point_len(attribute(), b"x"))
    probe("rl_point_len(rl_version(), None) [nonnull string]", lambda: lib.rl_point_len(version(), None))
    probe("rl_wait_flag(2**31)", lambda: lib.rl_wait_flag(2**31))
    probe("print_(0, 0, 2**31) [renamed names]", lambda: lib.print_(0, 0, 2**31))
    probe("load_(rl_version()) [renamed names]", lambda: lib.load_(version()))
    probe("rl_attribute(type=-1)", lambda: attribute(type=-1))
    probe("rl_attribute(pValue=5) [a pointer field takes buffers]", lambda: attribute(pValue=5))
    probe("rl_attribute(pValue='text')", lambda: attribute(pValue="text"))
    probe("rl_attribute(pValue=a strided memoryview)", lambda: attribute(pValue=memoryview(bytearray(8))[::2]))
    probe("rl_attribute(ulValueLen=2**64)", lambda: attribute(ulValueLen=2**64))
    probe("rl_info(label=5)", lambda: info(label=5))
    probe("rl_info(counter=5) [a handle field]", lambda: info(counter=5))
    probe("rl_info(counter=rl_version())", lambda: info(counter=version()))
    probe("rl_info(notify=5) [a function pointer field]", lambda: info(notify=5))
    probe("rl_info(version=None)", lambda: info(version=None))
    probe("rl_info.from_bytes(bytes(rl_info())) [pointers]", lambda: info.from_bytes(bytes(info())))
    probe("rl_version(major=-1)", lambda: version(major=-1))
    probe("copy.copy(rl_attribute())", lambda: copy.copy(attribute()))
    probe("pickle.dumps(the Library)", lambda: pickle.dumps(lib))
    probe("rl_bump(1, 2)", lambda: lib.rl_bump(1, 2), parsing=True)
    probe("rl_get_version(1)", lambda: lib.rl_get_version(1), parsing=True)
    return probe.found


def capi_probes(mod: Any, lib: Any, no_getter: str | None) -> list[Probe]:
    """tests/capi/capi.h with tests/capi/owned.toml: what C hands over and takes back, cells,
    stated lengths and owned objects."""
    import array

    probe = Collector()
    easy, multi = mod.capi_easy_init(), mod.capi_multi_init()
    probe("capi_easy_perform(CAPI_MULTI) [a handle of another type]", lambda: mod.capi_easy_perform(multi))
    probe("capi_easy_perform(5)", lambda: mod.capi_easy_perform(5))
    probe("capi_db_count_said(None) [a handle C must not be given NULL for]", lambda: mod.capi_db_count_said(None))
    probe("capi_easy_perform(capi_node())", lambda: mod.capi_easy_perform(mod.capi_node()))
    probe("CAPI_EASY()", lambda: mod.CAPI_EASY())
    probe("Pointer()", lambda: mod.Pointer())
    probe("pickle.dumps(a handle)", lambda: pickle.dumps(easy))
    probe("copy.copy(a Pointer)", lambda: copy.copy(mod.capi_table()))
    probe("capi_row_sum(int *, 0) [an int ** Pointer wanted]", lambda: mod.capi_row_sum(mod.capi_table(), 0))
    probe("capi_row_sum(5, 0)", lambda: mod.capi_row_sum(5, 0))
    probe("capi_row_sum(a handle, 0)", lambda: mod.capi_row_sum(easy, 0))
    probe("capi_sum(int **, 1) [const int * wanted]", lambda: mod.capi_sum(mod.capi_rows(), 1))
    probe("capi_first_byte(7) [void *]", lambda: mod.capi_first_byte(7))
    probe("capi_first_byte('x') [void * takes no str]", lambda: mod.capi_first_byte("x"))
    probe("capi_count(a handle) [a record pointer wanted]", lambda: mod.capi_count(easy))
    probe("capi_strlen('a\\0b')", lambda: mod.capi_strlen("a\0b"))
    probe("capi_strlen(5)", lambda: mod.capi_strlen(5))
    probe("capi_strlen('\\ud800') [no UTF-8 form]", lambda: mod.capi_strlen("\ud800"))
    probe("capi_text_sum(1, '\\udc80') [no UTF-8 form, counted]", lambda: mod.capi_text_sum(1, "\udc80"))
    probe("capi_ulen('a\\0') [const unsigned char *]", lambda: mod.capi_ulen("a\0"))
    probe("capi_status(1, c_long(), c_long()) [a cell of another size]",
          lambda: mod.capi_status(1, mod.c_long(), mod.c_long()))
    probe("capi_status(1, 5, c_long())", lambda: mod.capi_status(1, 5, mod.c_long()))
    probe("capi_scale(c_float(), 2)", lambda: mod.capi_scale(mod.c_float(), 2))
    probe("c_uint(-1)", lambda: mod.c_uint(-1))
    probe("c_int(2**31)", lambda: mod.c_int(2**31))
    probe("c_int(1.5)", lambda: mod.c_int(1.5))
    probe("c_double('1')", lambda: mod.c_double("1"))
    probe("c_bool(None)", lambda: mod.c_bool(None))
    probe("copy.copy(c_int())", lambda: copy.copy(mod.c_int()))
    probe("capi_crc(0, b'abc', 10**9) [a stated length]", lambda: mod.capi_crc(0, b"abc", 10**9))
    probe("capi_crc(0, b'abc', Index(4))", lambda: mod.capi_crc(0, b"abc", Index(4)))
    probe("capi_crc(0, b'abc', 1.5)", lambda: mod.capi_crc(0, b"abc", 1.5))
    probe("capi_sum(array('i', [1, 2]), 3) [a count of items]",
          lambda: mod.capi_sum(array.array("i", [1, 2]), 3))
    probe("capi_checksum(array('i', [1, 2]), 9) [a size in bytes]",
          lambda: mod.capi_checksum(array.array("i", [1, 2]), 9))
    probe("capi_escape(easy, 'a b', 4) [a string's length]", lambda: mod.capi_escape(easy, "a b", 4))
    probe("capi_copy(bytearray(4), c_ulong(5), b'x', 1) [a length in a cell]",
          lambda: mod.capi_copy(bytearray(4), mod.c_ulong(5), b"x", 1))
    node = mod.capi_node_new(1)
    node.close()
    probe("capi_count(a closed node)", lambda: mod.capi_count(node))
    probe("a closed node's field", lambda: node.value)
    probe("bytes(a closed node)", lambda: bytes(node))
    probe("capi_node_free(a closed node) [never twice]", lambda: mod.capi_node_free(node))
    status, db = mod.capi_db_open("main")
    db.close()
    probe("capi_db_name(a closed handle)", lambda: mod.capi_db_name(db))
    probe("int(a closed handle)", lambda: int(db))
    probe("capi_first_byte(a closed handle) [void *]", lambda: mod.capi_first_byte(db))
    memory = mod.capi_alloc(8)
    mod.capi_release(memory)  # its deallocator: the Pointer is closed
    probe("capi_used(a Pointer its deallocator freed)", lambda: mod.capi_used(memory))
    probe("capi_easy_perform(1, 2)", lambda: mod.capi_easy_perform(1, 2), parsing=True)
    return probe.found


PROBES = {"conf": conf_probes, "demo": demo_probes, "roles": roles_probes, "capi": capi_probes}


def main(argv: list[str]) -> int:
    module_dir, module_name, which, *rest = argv
    options = dict(zip(rest[::2], rest[1::2]))
    sys.path.insert(0, module_dir)
    mod = importlib.import_module(module_name)
    lib = mod.load(options["--load"]) if "--load" in options else mod
    for index, probe in enumerate(PROBES[which](mod, lib, options.get("--no-getter"))):
        print(f"START {probe.label}", flush=True)
        try:
            result = probe.call()
        except BaseException as exc:  # noqa: BLE001 - reporting any outcome is the point
            report = {"raised": type(exc).__name__, "message": str(exc)}
        else:
            report = {"returned": type(result).__name__}
        print("RESULT " + json.dumps({"index": index, "probe": probe.label, "parsing": probe.parsing, **report}),
              flush=True)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
