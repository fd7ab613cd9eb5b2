"""The Cython backend end to end: demo.h -> generated module -> compiled -> called from Python.

One compile per session (the module fixture); every test then calls the
module as a user would.  The model of demo.h is built by hand
(tests/clib/demo_model.py) so this suite does not depend on the parser.
"""
from __future__ import annotations

import array

import pytest

from conftest import compile_library, import_from

from clib.demo_model import HEADER, SOURCE, demo_module
from pegbind.build import build
from pegbind.config import BindingConfig
from pegbind.emit import generate
from pegbind.passes import run_passes
from pegbind.target import get_target

# one worker under --dist loadgroup: its fixtures build the modules the tests share once (see conftest.one_worker_each)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cython_backend")]

MODULE_NAME = "pegbind_demo_cy"


@pytest.fixture(scope="session")
def libdemo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("libdemo")
    compile_library([SOURCE], folder / "libdemo.so", "-Wall", "-Werror", "-O1")
    return folder


@pytest.fixture(scope="session")
def demo(libdemo, tmp_path_factory):
    out = tmp_path_factory.mktemp("demo_cy")
    config = BindingConfig(name=MODULE_NAME, headers=(HEADER,), link=("demo",), library_dirs=(libdemo,))
    binding = run_passes(demo_module(), config, get_target("linux-x86_64"))
    files = generate(binding, config, out_dir=out)
    module_path = build(config, files, out)
    assert module_path.parent == out
    return import_from(out, MODULE_NAME)


# ---- integers --------------------------------------------------------------

@pytest.mark.parametrize(
    "bits, signed",
    [(8, True), (8, False), (16, True), (16, False), (32, True), (32, False), (64, True), (64, False)],
)
def test_integer_widths_accept_their_whole_range_and_nothing_more(demo, bits, signed):
    add = getattr(demo, f"demo_add_{'i' if signed else 'u'}{bits}")
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    assert add(high, 0) == high
    assert add(low, 0) == low
    assert add(high - 5, 2) == high - 3
    with pytest.raises(OverflowError):
        add(high + 1, 0)
    with pytest.raises(OverflowError):
        add(0, low - 1)


def test_wrong_integer_types_raise_type_error(demo):
    for bad in ("x", 1.5, None, b"1", [1]):
        with pytest.raises(TypeError, match=r"argument 1 \(a\) must be an integer"):
            demo.demo_add_i32(bad, 1)
    # bool is an int subclass in Python, as for every C-int conversion in CPython
    assert demo.demo_add_i32(True, True) == 2


def test_the_argument_checks_are_compiled_when_an_argument_is_first_refused(demo):
    # They are kept as source in the module: a fresh process, so no other test has refused one yet.
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys, traceback\n"
        f"sys.path.insert(0, {str(Path(demo.__file__).parent)!r})\n"
        f"import {MODULE_NAME} as m\n"
        "assert type(m._pb_fix_value).__name__ == '_pb_Deferred', type(m._pb_fix_value)\n"
        "assert m.demo_add_u64(1, 2) == 3 and type(m._pb_fix_value).__name__ == '_pb_Deferred'\n"
        "try:\n"
        "    m.demo_add_u64(2**64, 0)\n"
        "except OverflowError as error:\n"
        "    print(''.join(traceback.format_exception(error)))\n"
        "assert type(m._pb_fix_value).__name__ == 'function'\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert "argument 1 (a): 18446744073709551616 is out of range [0, 18446744073709551615]" in ran.stdout
    # the traceback shows the checks' own lines
    assert 'File "<pegbind argument checks>"' in ran.stdout and "return _pb_index(value, what" in ran.stdout


def test_passing_two_to_the_64_overflows(demo):
    with pytest.raises(OverflowError):
        demo.demo_add_u64(2**64, 0)
    assert demo.demo_echo_ull(2**64 - 1) == 2**64 - 1
    assert demo.demo_echo_long(-(2**63)) == -(2**63)


def test_parameters_are_positional_only_and_counted(demo):
    with pytest.raises(TypeError):
        demo.demo_add_i32(a=1, b=2)
    with pytest.raises(TypeError):
        demo.demo_add_i32(1)
    with pytest.raises(TypeError):
        demo.demo_add_i32(1, 2, 3)


def test_bool_and_float_values(demo):
    assert demo.demo_is_even(4) is True
    assert demo.demo_is_even(3) is False
    assert demo.demo_scale_f(1.5, 2) == 3.0
    assert demo.demo_scale_d(1, 0.25) == 0.25
    with pytest.raises(TypeError):
        demo.demo_scale_d("1", 2.0)


# ---- buffers and strings -----------------------------------------------------

def test_const_buffer_accepts_any_readable_buffer(demo):
    assert demo.demo_checksum(b"abc", 3) == 97 + 98 + 99
    assert demo.demo_checksum(bytearray(b"\x01\x02"), 2) == 3
    assert demo.demo_checksum(memoryview(b"\xff\xff\xff")[1:], 2) == 510
    assert demo.demo_checksum(array.array("B", [5, 6]), 2) == 11
    assert demo.demo_checksum(None, 0) == 0
    with pytest.raises(TypeError):
        demo.demo_checksum("abc", 3)
    with pytest.raises(TypeError):
        demo.demo_checksum(17, 3)


def test_const_char_pointer_takes_str_bytes_buffers_or_none(demo):
    assert demo.demo_length(b"hello") == 5
    assert demo.demo_length(b"") == 0
    # a bytearray is copied with a terminating NUL, so strlen stops in bounds
    assert demo.demo_length(bytearray(b"xyz")) == 3
    assert demo.demo_length(memoryview(b"abcdef")[2:4]) == 2
    assert demo.demo_length(None) == -1
    # a str is its UTF-8 bytes; C would stop at a NUL, so a str holding one is refused
    assert demo.demo_length("hello") == 5
    assert demo.demo_length("h\u00e9llo") == 6
    with pytest.raises(ValueError, match=r"^argument 1 \(s\) must not contain a NUL character$"):
        demo.demo_length("a\0b")
    with pytest.raises(TypeError, match=r"must be str, bytes, a buffer or None, not int"):
        demo.demo_length(17)


def test_mutable_pointer_needs_a_writable_buffer(demo):
    target = bytearray(5)
    demo.demo_fill(target, 3, 0x41)
    assert target == bytearray(b"AAA\x00\x00")
    view = memoryview(bytearray(4))
    demo.demo_fill(view, 4, 1)
    assert view.tobytes() == b"\x01" * 4
    with pytest.raises(TypeError, match=r"argument 1 \(out\) must be a writable contiguous buffer, not bytes"):
        demo.demo_fill(b"read-only", 3, 0)
    with pytest.raises(TypeError):
        demo.demo_fill(memoryview(b"abc"), 3, 0)


def test_typed_out_pointer_checks_the_buffer_holds_one_element(demo):
    out = array.array("q", [0])
    demo.demo_square(-12, out)
    assert out[0] == 144
    with pytest.raises(ValueError, match=r"needs at least 8 bytes, got 4"):
        demo.demo_square(3, bytearray(4))


def test_string_returns_are_bytes_or_none(demo):
    assert demo.demo_version() == b"1.2.3"
    assert demo.demo_maybe_name(1) == b"named"
    assert demo.demo_maybe_name(-1) is None


# ---- constants, enums, names ---------------------------------------------------

def test_constants_have_exact_values(demo):
    assert demo.DEMO_ALL_BITS == 18446744073709551615
    assert demo.DEMO_NAME == "demo"
    assert demo.DEMO_SCALE == 2.5
    assert demo.DEMO_MIN == -7


def test_enums_are_int_enums_and_module_attributes(demo):
    assert issubclass(demo.demo_color, __import__("enum").IntEnum)
    assert demo.demo_color.DEMO_GREEN == 5
    assert demo.DEMO_BLUE is demo.demo_color.DEMO_BLUE
    assert demo.demo_flag.DEMO_FLAG_B == 0x40000000
    assert demo.demo_color_code(demo.DEMO_BLUE) == 60
    assert demo.demo_color_code(5) == 50


def test_keyword_named_function_is_renamed(demo):
    assert demo.lambda_(41) == 42
    assert demo.demo_printf("%d-%s\n", 42, "x") == 5  # variadic: printed, and what printf returns


def test_docstrings_carry_signature_comment_and_prototype(demo):
    doc = demo.demo_checksum.__doc__
    assert doc.splitlines()[0] == "demo_checksum(data: _Buffer | _Cell | _AnyRecord | Pointer | None, len_: int, /) -> int"
    assert "Sum of the bytes of data[0..len)." in doc
    assert "C: uint32_t demo_checksum(const void *data, size_t len);" in doc


# ---- records -------------------------------------------------------------------

def test_record_keyword_constructor_attributes_bytes_and_sizeof(demo):
    p = demo.point(x=3, y=-4)
    assert (p.x, p.y) == (3, -4)
    assert bytes(p) == (3).to_bytes(4, "little") + (-4).to_bytes(4, "little", signed=True)
    assert demo.point.sizeof == 8 and p.sizeof == 8
    assert repr(p) == "point_t(x=3, y=-4)"
    assert demo.point_t is demo.point
    with pytest.raises(TypeError):
        demo.point(3, 4)
    with pytest.raises(TypeError):
        demo.point(z=1)
    with pytest.raises(OverflowError):
        p.x = 2**31
    with pytest.raises(TypeError):
        p.y = "1"
    assert demo.point.from_bytes(bytes(p)).y == -4
    with pytest.raises(ValueError):
        demo.point.from_bytes(b"short")


def test_functions_take_record_instances_or_none(demo):
    p = demo.point(x=3, y=4)
    assert demo.demo_point_sum(p) == 7
    assert demo.demo_point_sum(None) == -1
    demo.demo_point_scale(p, 10)
    assert (p.x, p.y) == (30, 40)
    with pytest.raises(TypeError):
        demo.demo_point_sum(b"\x00" * 8)
    assert demo.demo_point_norm1(demo.point(x=-5, y=2)) == 7
    with pytest.raises(TypeError):
        demo.demo_point_norm1(None)
    made = demo.demo_make_point(1, -2)
    assert isinstance(made, demo.point) and (made.x, made.y) == (1, -2)


def test_record_field_kinds(demo):
    s = demo.demo_shape(
        label=b"hi", coords=[1, 2, 3], i=7, flags=5, delta=-3, weight=0.5,
        corners=[demo.point(x=1, y=1), demo.point(x=3, y=4)],
    )
    assert demo.demo_shape.sizeof == 64
    assert s.label == b"hi" and s.coords == [1, 2, 3] and s.i == 7
    assert (s.flags, s.delta, s.weight) == (5, -3, 0.5)
    assert demo.demo_shape_area(s) == 3.0  # (3-1) * (4-1) * 0.5
    # nested records are views into the same memory
    origin = s.origin
    origin.x = 9
    assert s.origin.x == 9
    s.corners[1].y = 5
    assert demo.demo_shape_area(s) == 4.0
    del s
    assert origin.x == 9  # the view keeps its owner alive
    t = demo.demo_shape()
    t.origin = demo.point(x=-1, y=-2)
    assert (t.origin.x, t.origin.y) == (-1, -2)
    with pytest.raises(ValueError):
        t.label = b"123456789"
    with pytest.raises(ValueError):
        t.coords = [1, 2, 3, 4]
    with pytest.raises(OverflowError):
        t.flags = 8
    with pytest.raises(OverflowError):
        t.delta = -9
    with pytest.raises(TypeError):
        t.origin = 5
    assert "label=b''" in repr(t)


def test_anonymous_union_members_share_storage(demo):
    s = demo.demo_shape(f=1.0)
    assert s.i == 0x3F800000


def test_rebuilding_an_unchanged_binding_does_not_recompile(demo, libdemo, tmp_path_factory):
    out = __import__("pathlib").Path(demo.__file__).parent
    config = BindingConfig(name=MODULE_NAME, headers=(HEADER,), link=("demo",), library_dirs=(libdemo,))
    files = [out / f"{MODULE_NAME}{suffix}" for suffix in (".pxd", ".pyx", ".pyi")]
    module_path = __import__("pathlib").Path(demo.__file__)
    before = module_path.stat().st_mtime_ns
    assert build(config, files, out) == module_path
    assert module_path.stat().st_mtime_ns == before


def test_model_layouts_agree_with_the_compiled_sizes(demo):
    binding = run_passes(demo_module(), BindingConfig(name=MODULE_NAME, headers=(HEADER,)), get_target("linux-x86_64"))
    assert binding.layouts, "pegbind.target.record_layout should give every record a layout"
    assert binding.layouts["struct point"].size == demo.point.sizeof
    assert binding.layouts["demo_shape"].size == demo.demo_shape.sizeof


# ---- integer and function pointer fields: one descriptor class each --------

WIDTHS_H = """\
#include <stdint.h>
struct widths { int8_t s1; uint8_t u1; int16_t s2; uint16_t u2; int32_t s4; uint32_t u4;
                int64_t s8; uint64_t u8; unsigned bits : 3; int32_t (*op)(int32_t); };
/* what C reads in each field, as a signed or unsigned 64-bit value */
int64_t widths_signed(const struct widths *w, int which);
uint64_t widths_unsigned(const struct widths *w, int which);
int32_t widths_call(const struct widths *w, int32_t v);
"""

WIDTHS_C = """\
#include "widths.h"
int64_t widths_signed(const struct widths *w, int which) {
    switch (which) { case 1: return w->s1; case 2: return w->s2; case 4: return w->s4; default: return w->s8; }
}
uint64_t widths_unsigned(const struct widths *w, int which) {
    switch (which) { case 1: return w->u1; case 2: return w->u2; case 4: return w->u4; case 3: return w->bits;
                     default: return w->u8; }
}
int32_t widths_call(const struct widths *w, int32_t v) { return w->op(v); }
"""


@pytest.fixture(scope="module")
def widths(tmp_path_factory):
    folder = tmp_path_factory.mktemp("widths")
    (folder / "widths.h").write_text(WIDTHS_H)
    (folder / "widths.c").write_text(WIDTHS_C)
    config = BindingConfig(name="pegbind_widths_cy", headers=(folder / "widths.h",), sources=(folder / "widths.c",))
    from conftest import build_and_import

    return build_and_import(config, folder / "out")


@pytest.mark.parametrize("size", [1, 2, 4, 8])
def test_integer_fields_of_every_width_read_and_write_what_c_sees(widths, size):
    w = widths.widths()
    bits = 8 * size
    for value in (-(1 << (bits - 1)), -1, 0, (1 << (bits - 1)) - 1):
        setattr(w, f"s{size}", value)
        assert getattr(w, f"s{size}") == value == widths.widths_signed(w, size)
    for value in (0, 1, (1 << bits) - 1):
        setattr(w, f"u{size}", value)
        assert getattr(w, f"u{size}") == value == widths.widths_unsigned(w, size)
    with pytest.raises(OverflowError, match=rf"widths\.u{size}: -1 is out of range \[0, {(1 << bits) - 1}\]"):
        setattr(w, f"u{size}", -1)
    with pytest.raises(OverflowError, match=rf"widths\.s{size}: {1 << (bits - 1)} is out of range"):
        setattr(w, f"s{size}", 1 << (bits - 1))
    with pytest.raises(TypeError, match=rf"widths\.s{size} must be an integer, not str"):
        setattr(w, f"s{size}", "1")
    assert getattr(w, f"u{size}") == (1 << bits) - 1  # a refused value left the field as it was


def test_field_descriptors_refuse_objects_of_other_classes(widths):
    w = widths.widths(s4=5, bits=6)
    assert widths.widths_unsigned(w, 3) == 6 and w.bits == 6  # a bitfield stays a property
    for name in ("s4", "op"):
        field = type(w).__dict__[name]
        assert field.__get__(None, type(w)) is field
        for other in (object(), widths.widths_signed, 3):
            with pytest.raises(TypeError, match=rf"widths\.{name} is a field of widths objects, not of"):
                field.__get__(other, type(other))
            with pytest.raises(TypeError, match=rf"widths\.{name} is a field of widths objects, not of"):
                field.__set__(other, None)
    with pytest.raises(AttributeError, match=r"widths\.s4 cannot be deleted"):
        del w.s4
    assert w.s4 == 5


def test_function_pointer_fields_take_callables_and_keep_their_record(widths):
    w = widths.widths()
    assert w.op is None
    w.op = lambda v: v * 3
    assert widths.widths_call(w, 7) == 21
    read = w.op
    del w
    import gc
    gc.collect()
    again = widths.widths(op=read)  # the closure lives as long as what was read from the record
    assert again.op == read and widths.widths_call(again, 5) == 15
    with pytest.raises(TypeError, match=r"widths\.op must be a callable, a FunctionPointer or None, not int"):
        widths.widths().op = 3
