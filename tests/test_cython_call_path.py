"""The Cython backend's fast call paths behave exactly like the general ones.

The generated wrappers take shortcuts for the common cases (see
pegbind/emit/cython_wrapper.py and templates/cython/cython.pyx.jinja): an exact ``int`` skips ``__index__``,
``bytes`` are read in place without the buffer protocol, ``out`` records come from a free list, and a function with
no arguments is called through METH_FASTCALL with a hidden optional argument.
Each test here drives both the shortcut and the general path with the same
inputs and expects the same results and the same errors.
"""
from __future__ import annotations

import array
import copy
import subprocess

import pytest

from conftest import build_and_import

from pegbind.config import BindingConfig, FunctionRule, ParamRole

# one worker under --dist loadgroup: its fixture builds the module the tests share once (see conftest.one_worker_each)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cython_call_path")]

MODULE_NAME = "pegbind_fastpath_cy"

HEADER = """\
#include <stddef.h>
#include <stdint.h>

struct pair { int32_t x; int32_t y; };

int fp_add(int a, int b);
uint32_t fp_sum(const uint8_t *buf, size_t n);
uint32_t fp_sum_nogil(const uint8_t *buf, size_t n);
int fp_gil_held(const uint8_t *buf, size_t n, const uint16_t *words, size_t count);
void fp_fill(uint8_t *out, size_t n, uint8_t value);
void fp_get_pair(struct pair *out);
int fp_answer(void);
"""

SOURCE = """\
#include "fastpath.h"

int fp_add(int a, int b) { return a + b; }

uint32_t fp_sum(const uint8_t *buf, size_t n)
{
    uint32_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += buf[i];
    return total;
}

uint32_t fp_sum_nogil(const uint8_t *buf, size_t n) { return fp_sum(buf, n); }

/* Python's own answer, from the process that loaded this library: does this thread hold the GIL? */
extern int PyGILState_Check(void);

int fp_gil_held(const uint8_t *buf, size_t n, const uint16_t *words, size_t count)
{
    (void)buf, (void)n, (void)words, (void)count;
    return PyGILState_Check();
}

void fp_fill(uint8_t *out, size_t n, uint8_t value)
{
    for (size_t i = 0; i < n; i++)
        out[i] = value;
}

void fp_get_pair(struct pair *out)
{
    out->x = 3;
    out->y = -4;
}

int fp_answer(void) { return 42; }
"""


@pytest.fixture(scope="module")
def fp(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fastpath")
    (folder / "fastpath.h").write_text(HEADER)
    (folder / "fastpath.c").write_text(SOURCE)
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O1", str(folder / "fastpath.c"), "-o", str(folder / "libfastpath.so")],
        check=True,
    )
    config = BindingConfig(
        name=MODULE_NAME,
        headers=(folder / "fastpath.h",),
        link=("fastpath",),
        library_dirs=(folder,),
        backends=("cython",),
        functions=(
            FunctionRule("fp_get_pair", {"out": ParamRole("out")}),
            FunctionRule("fp_sum_nogil", release_gil=True),
            FunctionRule("fp_gil_held", {"buf": ParamRole("in-array", "n"), "words": ParamRole("in-array", "count")},
                         release_gil=True, release_gil_min_bytes=16),
        ),
    )
    return build_and_import(config, folder / "out")


class Index:
    """Not an int, but usable as one through __index__."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class SubInt(int):
    pass


# ---- integers ----------------------------------------------------------------

@pytest.mark.parametrize("make", [int, SubInt, Index], ids=["int", "int subclass", "__index__"])
def test_integers_of_every_kind_convert_alike(fp, make):
    assert fp.fp_add(make(2), make(40)) == 42
    assert fp.fp_add(make(2**31 - 1), make(0)) == 2**31 - 1
    assert fp.fp_add(make(-(2**31)), make(0)) == -(2**31)
    with pytest.raises(OverflowError):
        fp.fp_add(make(2**31), make(0))
    with pytest.raises(OverflowError):
        fp.fp_add(make(0), make(-(2**31) - 1))


def test_bool_is_an_integer_and_non_integers_are_refused_by_name(fp):
    assert fp.fp_add(True, 1) == 2
    with pytest.raises(TypeError, match=r"argument 2 \(b\) must be an integer, not float"):
        fp.fp_add(1, 2.0)
    with pytest.raises(TypeError, match=r"argument 1 \(a\) must be an integer, not str"):
        fp.fp_add("1", 2)


def test_a_negative_size_is_an_overflow_on_both_paths(fp):
    with pytest.raises(OverflowError):
        fp.fp_sum(b"abc", -1)
    with pytest.raises(OverflowError):
        fp.fp_sum(b"abc", Index(-1))


# ---- buffers -----------------------------------------------------------------

class SubBytes(bytes):
    pass


@pytest.mark.parametrize("function", ["fp_sum", "fp_sum_nogil"])
@pytest.mark.parametrize(
    "make",
    [bytes, bytearray, SubBytes, memoryview, lambda data: array.array("B", data)],
    ids=["bytes", "bytearray", "bytes subclass", "memoryview", "array"],
)
def test_every_buffer_kind_reads_the_same_bytes(fp, function, make):
    data = bytes(range(1, 65))
    assert getattr(fp, function)(make(data), len(data)) == sum(data)
    assert getattr(fp, function)(make(data), 3) == 1 + 2 + 3


def test_the_gil_goes_only_for_calls_given_min_bytes_of_data(fp):
    # release_gil = { min_bytes = 16 }: the bytes of every in-array argument count, words as two each
    assert fp.fp_gil_held(bytes(15), None) == 1
    assert fp.fp_gil_held(bytes(16), None) == 0
    assert fp.fp_gil_held(bytearray(100), [1]) == 0
    assert fp.fp_gil_held(None, [1] * 7) == 1
    assert fp.fp_gil_held(None, [1] * 8) == 0
    assert fp.fp_gil_held(bytes(10), [1, 2, 3]) == 0
    assert fp.fp_gil_held(None, None) == 1


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview], ids=["bytes", "bytearray", "memoryview"])
def test_an_empty_buffer_is_taken_for_no_bytes_alike(fp, make):
    assert fp.fp_sum(make(b""), 0) == 0  # n says how many bytes C reads: none
    with pytest.raises(ValueError, match=r"^argument 2 \(n\): 1 is more than argument 1 \(buf\) holds \(0 bytes\)$"):
        fp.fp_sum(make(b""), 1)


def test_none_is_null_and_non_buffers_are_refused(fp):
    assert fp.fp_sum(None, 0) == 0
    with pytest.raises(TypeError):
        fp.fp_sum(17, 4)
    with pytest.raises(TypeError, match=r"argument 1 \(buf\) must be str or a contiguous buffer, not memoryview"):
        fp.fp_sum(memoryview(bytes(8))[::2], 4)


def test_a_bytearray_is_written_in_place_and_bytes_are_not_writable(fp):
    target = bytearray(8)
    fp.fp_fill(target, 5, 7)
    assert target == bytearray([7] * 5 + [0] * 3)
    view = memoryview(bytearray(4))
    fp.fp_fill(view, 4, 9)
    assert bytes(view) == bytes([9] * 4)
    with pytest.raises(TypeError, match=r"argument 1 \(out\) must be a writable contiguous buffer, not bytes"):
        fp.fp_fill(b"abcd", 4, 1)


def test_a_bytearray_stays_resizable_after_a_call(fp):
    # A bytearray is exported for the call (which pins its size) and released after,
    # however the call ends: here a later argument is refused once the export is made.
    for function in (fp.fp_sum, fp.fp_sum_nogil):
        data = bytearray(b"\x01\x02")
        assert function(data, 2) == 3
        data.extend(b"\x03")
        assert function(data, 3) == 6
        with pytest.raises(TypeError):
            function(data, "3")
        data.extend(b"\x04")
        assert function(data, 4) == 10


# ---- out records and no-argument functions -------------------------------------

def test_out_records_are_distinct_fresh_objects(fp):
    first = fp.fp_get_pair()
    second = fp.fp_get_pair()
    assert first is not second
    first.x = 100
    assert (second.x, second.y) == (3, -4)
    made = [fp.fp_get_pair() for _ in range(50)]
    del made
    again = fp.fp_get_pair()
    assert (again.x, again.y) == (3, -4)
    assert (fp.pair().x, fp.pair().y) == (0, 0)  # a reused instance starts zeroed
    assert bytes(again) == (3).to_bytes(4, "little") + (-4).to_bytes(4, "little", signed=True)


@pytest.mark.parametrize("function", ["fp_get_pair", "fp_answer"])
def test_functions_without_arguments_refuse_one(fp, function):
    # the words of a Python function without parameters, as the ctypes and cffi modules' own
    with pytest.raises(TypeError, match=rf"^{function}\(\) takes 0 positional arguments but 1 was given$"):
        getattr(fp, function)(None)
    with pytest.raises(TypeError):
        getattr(fp, function)(1, 2)
    with pytest.raises(TypeError):
        getattr(fp, function)(x=1)
    assert getattr(fp, function).__doc__.startswith(f"{function}() -> ")


def test_function_without_arguments_returns_its_value(fp):
    assert fp.fp_answer() == 42


def test_record_classes_have_no_base_and_still_share_the_record_behaviour(fp):
    # A cdef base class would cost every out record Cython's free list: the
    # shared behaviour is given to each class instead.
    assert fp.pair.__mro__ == (fp.pair, object)
    record = fp.fp_get_pair()
    with record as same:
        assert same is record
    record.close()  # nothing owned: left alone, still readable
    assert (record.x, record.y) == (3, -4)
    with pytest.raises(TypeError, match="^cannot pickle or copy pair objects$"):
        copy.copy(record)
    with pytest.raises(AttributeError, match=r"^pair\.x cannot be deleted$"):
        del record.x
    assert isinstance(record, fp._pb_Record)
