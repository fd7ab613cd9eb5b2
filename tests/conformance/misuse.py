"""Misuse of a built conformance binding, run in a child process by tests/test_conformance.py.

Usage: ``python misuse.py MODULE_DIR MODULE_NAME [--load LIBRARY --no-getter LIBRARY]``.

Every case is a call a Python user could make by mistake; each must raise the
named exception (or a subclass).  Before a case runs, its label is printed and
flushed, so a crash (a signal) shows which call caused it; after it, one JSON
line reports what happened.  The parent test turns those lines into one
failure message listing every case that did not raise as expected.
"""
from __future__ import annotations

import importlib
import json
import sys
from typing import Any, Callable

INTEGER_TYPES = [
    # (function suffix, bits, signed) -- LP64 sizes, as the library is built here
    ("i8", 8, True), ("u8", 8, False), ("i16", 16, True), ("u16", 16, False),
    ("i32", 32, True), ("u32", 32, False), ("i64", 64, True), ("u64", 64, False),
    ("char", 8, True), ("schar", 8, True), ("uchar", 8, False),
    ("short", 16, True), ("ushort", 16, False), ("int", 32, True), ("uint", 32, False),
    ("long", 64, True), ("ulong", 64, False), ("llong", 64, True), ("ullong", 64, False),
    ("size", 64, False),
]


def cases(mod: Any, lib: Any, no_getter: str | None) -> list[tuple[str, type[BaseException], Callable[[], object]]]:
    """(label, expected exception, call) for every misuse; ``lib`` holds the functions."""
    found: list[tuple[str, type[BaseException], Callable[[], object]]] = []

    def case(label: str, expected: type[BaseException], call: Callable[[], object]) -> None:
        found.append((label, expected, call))

    # ---- integers out of range and of the wrong type
    for suffix, bits, signed in INTEGER_TYPES:
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        function = getattr(lib, f"conf_echo_{suffix}")
        case(f"conf_echo_{suffix}({high + 1})", OverflowError, lambda f=function, v=high + 1: f(v))
        case(f"conf_echo_{suffix}({low - 1})", OverflowError, lambda f=function, v=low - 1: f(v))
    case("conf_echo_u64(2**64)", OverflowError, lambda: lib.conf_echo_u64(2**64))
    case("conf_echo_i64(-2**100)", OverflowError, lambda: lib.conf_echo_i64(-(2**100)))
    for bad in ("1", 1.5, None, b"1", [1], object()):
        case(f"conf_echo_i32({bad!r})", TypeError, lambda b=bad: lib.conf_echo_i32(b))
    case("conf_echo_double('x')", TypeError, lambda: lib.conf_echo_double("x"))
    case("conf_echo_double(None)", TypeError, lambda: lib.conf_echo_double(None))
    case("conf_echo_float(b'1')", TypeError, lambda: lib.conf_echo_float(b"1"))
    case("conf_echo_i32()", TypeError, lambda: lib.conf_echo_i32())
    case("conf_echo_i32(1, 2)", TypeError, lambda: lib.conf_echo_i32(1, 2))
    case("conf_sub_i64(1)", TypeError, lambda: lib.conf_sub_i64(1))

    # ---- buffers
    case("conf_checksum('abc', 3)", TypeError, lambda: lib.conf_checksum("abc", 3))
    case("conf_checksum(17, 3)", TypeError, lambda: lib.conf_checksum(17, 3))
    case("conf_checksum([1, 2, 3], 3)", TypeError, lambda: lib.conf_checksum([1, 2, 3], 3))
    case("conf_fill(b'abc', 3, 0)", TypeError, lambda: lib.conf_fill(b"abc", 3, 0))
    case("conf_fill(memoryview(b'abc'), 3, 0)", TypeError, lambda: lib.conf_fill(memoryview(b"abc"), 3, 0))
    case("conf_fill('abc', 3, 0)", TypeError, lambda: lib.conf_fill("abc", 3, 0))
    case("conf_fill(bytearray(3), 3, 256)", OverflowError, lambda: lib.conf_fill(bytearray(3), 3, 256))
    case("conf_store_u32(bytearray(2), 1)", ValueError, lambda: lib.conf_store_u32(bytearray(2), 1))
    case("conf_store_u32(bytearray(0), 1)", ValueError, lambda: lib.conf_store_u32(bytearray(0), 1))
    case("conf_store_u32(b'abcd', 1)", TypeError, lambda: lib.conf_store_u32(b"abcd", 1))
    case("conf_strlen(None) [nonnull]", TypeError, lambda: lib.conf_strlen(None))
    case("conf_strlen(17)", TypeError, lambda: lib.conf_strlen(17))
    case("conf_strlen('a\\0b')", ValueError, lambda: lib.conf_strlen("a\0b"))

    # ---- parameter roles
    case("conf_total(5)", TypeError, lambda: lib.conf_total(5))
    case("conf_total([1, '2'])", TypeError, lambda: lib.conf_total([1, "2"]))
    case("conf_total([2**31])", OverflowError, lambda: lib.conf_total([2**31]))
    case("conf_total([1.5])", TypeError, lambda: lib.conf_total([1.5]))
    case("conf_sum('abc')", TypeError, lambda: lib.conf_sum("abc"))
    case("conf_sum([256])", OverflowError, lambda: lib.conf_sum([256]))
    case("conf_minmax([1], 1) [count is filled in]", TypeError, lambda: lib.conf_minmax([1], 1))
    case("conf_square(3, bytearray(8)) [out is returned]", TypeError, lambda: lib.conf_square(3, bytearray(8)))
    case("conf_increment('5', 1)", TypeError, lambda: lib.conf_increment("5", 1))
    case("conf_increment(2**63, 1)", OverflowError, lambda: lib.conf_increment(2**63, 1))
    case("conf_get_pattern(-1)", OverflowError, lambda: lib.conf_get_pattern(-1))
    case("conf_get_squares('x')", TypeError, lambda: lib.conf_get_squares("x"))
    case("conf_get_name(bytearray(64)) [buf is returned]", TypeError, lambda: lib.conf_get_name(bytearray(64)))
    case("conf_check_range(2**31)", OverflowError, lambda: lib.conf_check_range(2**31))

    # ---- records
    point, rect = mod.conf_point, mod.conf_rect
    case("conf_point_dot(bytes(8), None)", TypeError, lambda: lib.conf_point_dot(b"\0" * 8, None))
    case("conf_point_dot(conf_rect(), None)", TypeError, lambda: lib.conf_point_dot(rect(), None))
    case("conf_point_dot(1, None)", TypeError, lambda: lib.conf_point_dot(1, None))
    case("conf_point_norm(None) [nonnull]", TypeError, lambda: lib.conf_point_norm(None))
    case("conf_rect_area(None) [by value]", TypeError, lambda: lib.conf_rect_area(None))
    case("conf_rect_area(conf_point())", TypeError, lambda: lib.conf_rect_area(point()))
    case("conf_rect_grow(conf_info(), 1)", TypeError, lambda: lib.conf_rect_grow(mod.conf_info(), 1))
    case("conf_info_digest(bytearray(conf_info.sizeof))", TypeError,
         lambda: lib.conf_info_digest(bytearray(mod.conf_info.sizeof)))
    case("conf_point(x=2**31)", OverflowError, lambda: point(x=2**31))
    case("conf_point(x='1')", TypeError, lambda: point(x="1"))
    case("conf_point(z=1)", TypeError, lambda: point(z=1))
    case("conf_rect(min=5)", TypeError, lambda: rect(min=5))

    def assign(obj: object, name: str, value: object) -> Callable[[], object]:
        return lambda: setattr(obj, name, value)

    p, info, ops = point(), mod.conf_info(), mod.conf_ops()
    case("point.x = -2**31 - 1", OverflowError, assign(p, "x", -(2**31) - 1))
    case("point.y = None", TypeError, assign(p, "y", None))
    case("point.y = 1.0", TypeError, assign(p, "y", 1.0))
    case("info.label = 17 bytes", ValueError, assign(info, "label", b"x" * 17))
    case("info.label = 'text'", TypeError, assign(info, "label", "text"))
    case("info.samples = 5 items", ValueError, assign(info, "samples", [1, 2, 3, 4, 5]))
    case("info.samples = [70000, 0, 0, 0]", OverflowError, assign(info, "samples", [70000, 0, 0, 0]))
    case("info.box = conf_point()", TypeError, assign(info, "box", point()))
    case("info.box = 5", TypeError, assign(info, "box", 5))
    case("info.corners = [conf_rect()] ", TypeError, assign(info, "corners", [rect()]))
    case("info.value = 2.5", TypeError, assign(info, "value", 2.5))
    case("ops.combine = 12345 [an address]", TypeError, assign(ops, "combine", 12345))
    case("ops.combine = b'code'", TypeError, assign(ops, "combine", b"code"))

    # ---- enums and opaque handles
    case("conf_shape_next(2**40)", OverflowError, lambda: lib.conf_shape_next(2**40))
    case("conf_shape_next('CONF_SHAPE_RECT')", TypeError, lambda: lib.conf_shape_next("CONF_SHAPE_RECT"))
    case("conf_session_next(5) [an address]", TypeError, lambda: lib.conf_session_next(5))
    case("conf_session_next(bytes(8))", TypeError, lambda: lib.conf_session_next(b"\0" * 8))
    case("conf_session_next(conf_point())", TypeError, lambda: lib.conf_session_next(point()))

    # ---- found by comparing the backends call by call
    class Liar:
        """A sequence whose len() says 0 and whose iteration gives 200 items."""

        def __len__(self) -> int:
            return 0

        def __iter__(self):
            return iter([1] * 200)

    class Address:
        """Not a handle, though it carries what a handle holds."""

        _h = 16

    class AndFive:
        """Not an integer, though ``x & -1`` gives one."""

        def __and__(self, other: object) -> int:
            return 5

    import copy
    import pickle

    session = lib.conf_session_open(5)
    case("info.samples = Liar() [len 0, 200 items]", ValueError, assign(mod.conf_info(), "samples", Liar()))
    case("conf_info(samples=Liar())", ValueError, lambda: mod.conf_info(samples=Liar()))
    case("conf_total(range(2**63))", OverflowError, lambda: lib.conf_total(range(2**63)))
    case("conf_sum(range(2**63))", OverflowError, lambda: lib.conf_sum(range(2**63)))
    case("conf_session_next(Address())", TypeError, lambda: lib.conf_session_next(Address()))
    case("conf_session_close(Address())", TypeError, lambda: lib.conf_session_close(Address()))
    case("conf_echo_i32(AndFive())", TypeError, lambda: lib.conf_echo_i32(AndFive()))
    case("conf_increment(AndFive(), 1)", TypeError, lambda: lib.conf_increment(AndFive(), 1))
    case("conf_total('')", TypeError, lambda: lib.conf_total(""))
    case("conf_sum('')", TypeError, lambda: lib.conf_sum(""))
    case("conf_minmax('')", TypeError, lambda: lib.conf_minmax(""))
    case("conf_fill_pattern(2**40)", OverflowError, lambda: lib.conf_fill_pattern(2**40))
    case("conf_fill_pattern(-2**64 - 1)", ValueError, lambda: lib.conf_fill_pattern(-(2**64) - 1))
    case("pickle.dumps(a session handle)", TypeError, lambda: pickle.dumps(session))
    case("copy.copy(a session handle)", TypeError, lambda: copy.copy(session))
    case("pickle.dumps(conf_point())", TypeError, lambda: pickle.dumps(point()))
    case("copy.deepcopy(conf_info())", TypeError, lambda: copy.deepcopy(mod.conf_info()))

    # ---- dynamic loading
    if hasattr(mod, "load"):
        case("load('/nonexistent/libconf.so')", OSError, lambda: mod.load("/nonexistent/libconf.so"))
        case("load(None)", TypeError, lambda: mod.load(None))
        if no_getter is not None:
            case("load(a library without the getter)", OSError, lambda: mod.load(no_getter))
        case("conf_tbl_add(2**31, 0)", OverflowError, lambda: lib.conf_tbl_add(2**31, 0))
        case("conf_tbl_add(1, 2, 3) [sum is returned]", TypeError, lambda: lib.conf_tbl_add(1, 2, 3))
    return found


def main(argv: list[str]) -> int:
    module_dir, module_name, *rest = argv
    options = dict(zip(rest[::2], rest[1::2]))
    sys.path.insert(0, module_dir)
    mod = importlib.import_module(module_name)
    lib = mod.load(options["--load"]) if "--load" in options else mod
    for label, expected, call in cases(mod, lib, options.get("--no-getter")):
        print(f"START {label}", flush=True)
        try:
            result = call()
        except BaseException as exc:  # noqa: BLE001 - reporting any outcome is the point
            ok = isinstance(exc, expected)
            report = {"case": label, "ok": ok, "expected": expected.__name__,
                      "got": f"{type(exc).__name__}: {exc}"}
        else:
            report = {"case": label, "ok": False, "expected": expected.__name__, "got": f"returned {result!r}"}
        print("RESULT " + json.dumps(report), flush=True)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
