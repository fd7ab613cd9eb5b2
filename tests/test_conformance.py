"""The cross-backend conformance suite: one contract, every backend.

tests/conformance/conf.h is a small C library (built here with gcc, three
times: "linked" for the link-time binding, "alpha" and "beta" for the
dynamic one) and two configurations: conf_link.toml (functions are module
functions) and conf_dynamic.toml (``load(path)`` returns a library object
whose methods are the functions; those in CONF_FUNCTION_LIST go through the
table conf_get_function_list returns).  Each (backend, configuration) pair
is generated and built once per session with ``pegbind.pipeline.
build_extension`` into its own folder under the module name
``conf_<config>_<backend>``, then called the way a user would call it.  A
backend that cannot build fails its tests with the build error.

Misuse runs in a child process per (backend, configuration)
(tests/conformance/misuse.py), so a crash is a failure naming the signal and
the call, not a dead test run.

Where DESIGN.md section 4 leaves a choice open, this suite reads it as follows
(the contract every backend is held to):

1. Import: the built module is importable by its configured ``name`` from the
   ``out_dir`` given to ``build_extension`` (with that folder on sys.path).
2. Integers: any object with ``__index__`` (so ``bool`` and ``IntEnum``),
   range-checked against the C type (OverflowError); ``float``, ``str``,
   ``bytes``, ``None`` raise TypeError.  Plain ``char`` is an integer, like
   ``signed char`` on this target, not a 1-byte ``bytes``.  ``_Bool``
   returns ``bool``.  float/double parameters take ``int`` or ``float``.
3. Return values with roles: the wrapper returns the C return value (unless
   ``void`` or consumed by the error policy) followed by the ``out`` /
   ``inout`` / ``out-bytes`` / ``out-array`` values in parameter order: a
   single value is returned bare, several as a tuple, none as ``None``.
   Role-managed parameters (``out``, ``len``, ``null`` and the buffers of
   ``out-bytes``/``out-array``) are not Python parameters at all.
4. ``inout`` scalars take the initial value as an argument and return the
   final one.  ``out`` on ``T **`` returns an opaque handle object that later
   calls accept for ``T *``; integers are never accepted as pointers.
5. ``in-array(len)`` takes any sequence (list, tuple, range, bytes); its
   items are converted like scalar arguments.  ``out-bytes`` returns
   ``bytes``; ``out-array`` returns a ``list`` of Python ints; both use the
   two-call size probe (NULL first), so results of any length work.
6. Errors: ``mod.Error(Exception)`` is the base; the subclass for error
   constant ``X`` is ``mod.errors.X`` (``__name__ == "X"``; ``X`` itself stays
   the integer constant ``mod.X``).  Instances carry ``.code`` (int) and
   ``.function`` (the C function name), and ``str()`` names the function.
   A code with no matching constant raises ``mod.Error`` itself.  A function
   under the policy returns as in point 3 with the status removed.
7. Records: keyword constructor (unknown keyword: TypeError), zero-filled by
   default; ``sizeof`` class attribute equals C's ``sizeof``; ``bytes(obj)``
   is the memory; ``repr`` is ``name(field=value, ...)``.  Nested records
   read as views into the owner's memory (writes through them show in the
   owner; a view keeps its owner alive).  ``char[N]`` fields read as bytes
   up to the first NUL; other arrays read as sequences (``list(...)``,
   ``len``, indexing) and are assigned from sequences.  A record-typed
   field is assigned a record of that class only.
8. Function-pointer fields read as ``None`` (NULL) or an opaque object that
   can be assigned to a field of the same type and be called from C; they
   may be set to ``None``; integers and bytes are rejected (TypeError).
9. Pointers to records take an instance of that record class or ``None``
   (NULL) unless the parameter is ``nonnull`` (then None is TypeError);
   records by value take an instance only.  Byte pointers (``void *``,
   ``uint8_t *``, ``char *``) take any buffer, ``const`` ones read-only ones
   too; ``const char *`` accepts ``bytes``/``bytearray`` (NUL-terminated by
   the wrapper) and ``str`` (UTF-8; one holding a NUL is a ValueError), as
   do other ``const`` pointers to characters.  A typed pointer (``uint32_t *``)
   without a role takes a writable buffer of at least one element (ValueError
   if shorter).  A pointer C returns is a view of its record, a handle of its
   opaque type, or a ``Pointer``; a non-const ``T **`` of those is ``out``.
10. Enums: ``IntEnum`` classes; each member is also a module attribute and
    is the same object; parameters of enum type take ints.
11. Dynamic loading: ``mod.load(path)`` raises OSError for a missing file or
    a library without the function-table getter; each loaded library keeps
    its own state.
12. ``release_gil``: two threads calling a released function overlap.
"""
from __future__ import annotations

import array
import dataclasses
import decimal
import enum
import fractions
import gc
import json
import math
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import first_to_make, import_from, session_folder

from pegbind.config import load_config
from pegbind.pipeline import build_extension

pytestmark = pytest.mark.slow

CONF = Path(__file__).resolve().parent / "conformance"

def one_worker(backend: str, kind: str) -> pytest.MarkDecorator:
    """The tests of one built binding run on one pytest-xdist worker (``--dist loadgroup``): the
    others then neither build it nor wait for it (see build_binding)."""
    return pytest.mark.xdist_group(f"conformance-{backend}-{kind}")


#: every (backend, configuration) the suite runs; marks per pair go here
CASES = [
    pytest.param((backend, kind), id=f"{backend}-{kind}", marks=one_worker(backend, kind))
    for backend in ("cython", "cffi", "ctypes")
    for kind in ("link", "dynamic")
]
DYNAMIC_CASES = [pytest.param(backend, id=backend, marks=one_worker(backend, "dynamic"))
                 for backend in ("cython", "cffi", "ctypes")]
LINKED_CASES = [pytest.param(backend, id=backend, marks=one_worker(backend, "link"))
                for backend in ("cython", "cffi", "ctypes")]


# --------------------------------------------------------------------------
# Fixtures: the C libraries, then one build per (backend, configuration)
# --------------------------------------------------------------------------

@pytest.fixture(scope="session")
def conf_libraries(tmp_path_factory) -> dict[str, Path]:
    """instance name -> the built libconf.so (each in its own folder); "empty" lacks every symbol.

    Built once for the session's workers, as the bindings are (see build_binding), whose run
    paths point here."""
    root = session_folder(tmp_path_factory, "libconf")
    built = {instance: root / instance / "libconf.so" for instance in ("linked", "alpha", "beta")}
    built["empty"] = root / "libempty.so"
    with first_to_make(root) as needed:
        if needed:
            for instance in ("linked", "alpha", "beta"):
                built[instance].parent.mkdir(exist_ok=True)
                subprocess.run(
                    ["gcc", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-O1",
                     f'-DCONF_INSTANCE="{instance}"', str(CONF / "conf.c"), "-o", str(built[instance])],
                    check=True,
                )
            empty_source = root / "empty.c"
            empty_source.write_text("int conf_unrelated(void) { return 0; }\n")
            subprocess.run(["gcc", "-shared", "-fPIC", str(empty_source), "-o", str(built["empty"])], check=True)
    return built


@dataclasses.dataclass
class Built:
    """One built binding: where it is and what it is called."""

    backend: str
    kind: str
    name: str
    folder: Path


@pytest.fixture(scope="session")
def build_binding(conf_libraries, tmp_path_factory) -> Callable[[str, str], Built]:
    """Build (once) the binding of ``conf_<kind>.toml`` for ``backend``; failures are remembered too.

    Once for the whole session, not per worker: the pytest-xdist workers share the folders, and a
    lock lets the first build while another that needs the same binding waits and uses it."""
    results: dict[tuple[str, str], Built | BaseException] = {}
    shared = session_folder(tmp_path_factory, "conformance-builds")

    def build(backend: str, kind: str) -> Built:
        key = (backend, kind)
        if key not in results:
            (config,) = load_config(CONF / f"conf_{kind}.toml")
            name = f"conf_{kind}_{backend}"
            changes: dict[str, Any] = {"name": name, "backends": (backend,)}
            if kind == "link":
                changes["library_dirs"] = (conf_libraries["linked"].parent,)
            config = dataclasses.replace(config, **changes)
            folder = shared / name
            try:
                with first_to_make(folder) as needed:
                    if needed:
                        build_extension(config, out_dir=folder)
                results[key] = Built(backend, kind, name, folder)
            except Exception as exc:  # noqa: BLE001 - reported on every test of this pair
                results[key] = exc
        result = results[key]
        if isinstance(result, BaseException):
            pytest.fail(f"the {backend} backend could not build conf_{kind}.toml: {type(result).__name__}: {result}")
        return result

    return build


def import_built(built: Built) -> Any:
    return import_from(built.folder, built.name)


@dataclasses.dataclass
class Api:
    """What a test talks to: ``mod`` has the classes and constants, ``lib`` the functions."""

    backend: str
    kind: str
    mod: Any
    lib: Any
    instance: str  #: the CONF_INSTANCE the functions of ``lib`` were built with


_imported: dict[tuple[str, str], Any] = {}


@pytest.fixture(params=CASES)
def api(request, build_binding, conf_libraries) -> Api:
    backend, kind = request.param
    built = build_binding(backend, kind)
    if (backend, kind) not in _imported:
        _imported[(backend, kind)] = import_built(built)
    mod = _imported[(backend, kind)]
    if kind == "link":
        return Api(backend, kind, mod, mod, "linked")
    return Api(backend, kind, mod, mod.load(str(conf_libraries["alpha"])), "alpha")


@pytest.fixture(params=DYNAMIC_CASES)
def dynamic(request, build_binding) -> Any:
    """The dynamic binding module of one backend."""
    key = (request.param, "dynamic")
    built = build_binding(*key)
    if key not in _imported:
        _imported[key] = import_built(built)
    return _imported[key]


@pytest.fixture(params=LINKED_CASES)
def linked(request, build_binding) -> Any:
    """The link-time binding module of one backend."""
    key = (request.param, "link")
    built = build_binding(*key)
    if key not in _imported:
        _imported[key] = import_built(built)
    return _imported[key]


# --------------------------------------------------------------------------
# Integers and floats
# --------------------------------------------------------------------------

INTEGER_TYPES = [
    ("i8", 8, True), ("u8", 8, False), ("i16", 16, True), ("u16", 16, False),
    ("i32", 32, True), ("u32", 32, False), ("i64", 64, True), ("u64", 64, False),
    ("char", 8, True), ("schar", 8, True), ("uchar", 8, False),
    ("short", 16, True), ("ushort", 16, False), ("int", 32, True), ("uint", 32, False),
    ("long", 64, True), ("ulong", 64, False), ("llong", 64, True), ("ullong", 64, False),
    ("size", 64, False),
]


def test_every_integer_width_round_trips_its_whole_range(api):
    for suffix, bits, signed in INTEGER_TYPES:
        echo = getattr(api.lib, f"conf_echo_{suffix}")
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        for value in (low, high, 0, 1, high // 3, low // 2):
            result = echo(value)
            assert result == value and type(result) is int, f"conf_echo_{suffix}({value}) gave {result!r}"


def test_every_integer_width_refuses_one_past_each_end(api):
    # ctypes checks a small range first, then the type's own: both edges of each.
    # ctypes passes a 64-bit value below 2**31 in magnitude as a plain int: those edges too.
    edges = ((1 << 30) - 1, 1 << 30, -((1 << 30) - 1), -(1 << 30), (1 << 31) - 1, 1 << 31, -(1 << 31),
             -(1 << 31) - 1, (1 << 32) - 1, 1 << 32)
    for suffix, bits, signed in INTEGER_TYPES:
        echo = getattr(api.lib, f"conf_echo_{suffix}")
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        for value in (low - 1, high + 1):
            with pytest.raises(OverflowError):
                echo(value)
        for value in edges:
            if low <= value <= high:
                assert echo(value) == value, f"conf_echo_{suffix}({value})"


@pytest.mark.parametrize("function, signed, bits", [
    ("conf_arg_of_8", (True, False, True, True, False, True, False), (8, 16, 32, 64, 64, 32, 8)),
    ("conf_wide_arg_of_8", (True, False, True, False, True, False, True), (64,) * 7),
], ids=["mixed", "wide"])
def test_arguments_past_the_registers_arrive_whole(api, function, signed, bits):
    # Eight integer arguments: on x86-64 the last two go on the stack, where
    # a value passed narrower than its type would leave bytes undefined.
    call = getattr(api.lib, function)
    rows = []
    for sign, width in zip(signed, bits):
        low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if sign else (0, (1 << width) - 1)
        rows.append([low, high, -1 if sign else 1, (1 << 31) if high >= 1 << 31 else high, -5 if sign else 5])
    for column in range(5):
        args = [row[column] for row in rows]
        for which, value in enumerate(args, start=1):
            assert call(which, *args) == value % (1 << 64), f"{function} argument {which} of {args}"


def test_integer_arguments_arrive_in_order_and_take_index_objects(api):
    assert api.lib.conf_sub_i64(10, 3) == 7
    assert api.lib.conf_sub_i64(-(2**63) + 1, 1) == -(2**63)

    class Seven:
        def __index__(self) -> int:
            return 7

    assert api.lib.conf_echo_i32(Seven()) == 7
    assert api.lib.conf_echo_int(True) == 1
    assert api.lib.conf_echo_u8(api.mod.CONF_SHAPE_CIRCLE) == 2


@pytest.mark.parametrize("number", [decimal.Decimal("1.5"), fractions.Fraction(3, 2), decimal.Decimal(2)],
                         ids=["Decimal 1.5", "Fraction 3/2", "Decimal 2"])
def test_numbers_without_index_are_not_integers(api, number):
    # Decimal and Fraction convert with int() (truncating) but have no
    # __index__: as in CPython's own C calls since 3.10, they are refused,
    # never truncated.  cffi by itself would take them through __int__.
    calls = [
        lambda: api.lib.conf_echo_i32(number),
        lambda: api.lib.conf_echo_u64(number),
        lambda: api.lib.conf_sub_i64(5, number),
        lambda: api.lib.conf_not(number),
        lambda: api.lib.conf_total([1, number]),
        lambda: api.lib.conf_increment(number, 1),
        lambda: api.lib.conf_increment(1, number),
        lambda: api.lib.conf_fill(bytearray(4), 4, number),
    ]
    for index, call in enumerate(calls):
        with pytest.raises(TypeError):
            call()
            pytest.fail(f"call {index} took {number!r}")


def test_bool_returns_bool(api):
    assert api.lib.conf_not(True) is False
    assert api.lib.conf_not(False) is True
    assert api.lib.conf_not(0) is True


def test_float_and_double(api):
    assert api.lib.conf_echo_double(0.1) == 0.1
    assert api.lib.conf_echo_float(0.1) == struct.unpack("f", struct.pack("f", 0.1))[0]
    assert api.lib.conf_echo_double(3) == 3.0 and type(api.lib.conf_echo_double(3)) is float
    assert api.lib.conf_fma(2, 3.5, 0.25) == 7.25
    assert api.lib.conf_echo_double(float("-inf")) == float("-inf")
    assert math.isnan(api.lib.conf_echo_float(float("nan")))


# --------------------------------------------------------------------------
# Buffers
# --------------------------------------------------------------------------

def test_const_buffer_takes_any_readable_buffer_or_none(api):
    checksum = api.lib.conf_checksum
    assert checksum(b"abc", 3) == 294
    assert checksum(bytearray(b"\x01\x02"), 2) == 3
    assert checksum(memoryview(b"\xff\xff\xff")[1:], 2) == 510
    assert checksum(array.array("B", [5, 6]), 2) == 11
    assert checksum(array.array("I", [0x01010101]), 4) == 4
    assert checksum(None, 0) == 0


def test_mutable_buffer_is_written_in_place(api):
    target = bytearray(5)
    assert api.lib.conf_fill(target, 3, 0x41) is None
    assert target == b"AAA\x00\x00"
    view = memoryview(bytearray(4))
    api.lib.conf_fill(view[1:], 2, 7)
    assert view.tobytes() == b"\x00\x07\x07\x00"
    numbers = array.array("B", [0, 0])
    api.lib.conf_fill(numbers, 2, 9)
    assert list(numbers) == [9, 9]


def test_typed_pointer_takes_a_writable_buffer_of_one_element(api):
    out = array.array("I", [0])
    api.lib.conf_store_u32(out, 0xDEADBEEF)
    assert out[0] == 0xDEADBEEF
    raw = bytearray(6)
    api.lib.conf_store_u32(raw, 0x01020304)
    assert raw == b"\x04\x03\x02\x01\x00\x00"


def test_const_char_pointer_takes_bytes_and_bytearray(api):
    assert api.lib.conf_strlen(b"hello") == 5
    assert api.lib.conf_strlen(b"") == 0
    assert api.lib.conf_strlen(bytearray(b"xyz")) == 3


# --------------------------------------------------------------------------
# Parameter roles
# --------------------------------------------------------------------------

def test_in_array_takes_any_sequence_and_fills_the_length(api):
    assert api.lib.conf_sum(b"abc") == 294
    assert api.lib.conf_sum([1, 2, 3]) == 6
    assert api.lib.conf_sum(bytearray(b"\xff\xff")) == 510
    assert api.lib.conf_total([1, -2, 3]) == 2
    assert api.lib.conf_total(()) == 0
    assert api.lib.conf_total(range(1000)) == sum(range(1000))
    assert api.lib.conf_total((2**31 - 1, 2**31 - 1, -(2**31))) == 2**31 - 2


def test_in_array_reads_an_iterator_once(api):
    # An iterator gives its items once; the checks must not use them up
    # (the call used to see an empty array, or fail on a good one).
    assert api.lib.conf_total(value for value in [1, -2, 3]) == 2
    assert api.lib.conf_sum(value for value in [1, 2, 250]) == 253
    assert api.lib.conf_total(iter([True, 2])) == 3
    with pytest.raises(OverflowError):
        api.lib.conf_total(value for value in [1, 2**40])
    with pytest.raises(TypeError):
        api.lib.conf_total(value for value in [1, decimal.Decimal(2)])


def test_out_bytes_of_a_length_the_caller_gives(api):
    assert api.lib.conf_fill_pattern(5) == bytes(i * 7 % 251 for i in range(5))
    assert api.lib.conf_fill_pattern(0) == b""
    assert len(api.lib.conf_fill_pattern(65535)) == 65535
    # the length's C type is uint16_t: a larger one would be cut, not refused
    with pytest.raises(OverflowError):
        api.lib.conf_fill_pattern(65536 + 5)
    with pytest.raises((OverflowError, ValueError)):
        api.lib.conf_fill_pattern(-1)
    with pytest.raises(TypeError):
        api.lib.conf_fill_pattern(decimal.Decimal(3))


def test_out_scalars_are_returned(api):
    assert api.lib.conf_square(-12) == 144
    assert api.lib.conf_square(2**31 - 1) == (2**31 - 1) ** 2
    assert api.lib.conf_divide(17, 5) == (3, 2)
    assert api.lib.conf_divide(-17, 5) == (-3, -2)  # C truncates toward zero


def test_return_value_comes_before_out_values(api):
    assert api.lib.conf_minmax([3, -2, 9]) == (3, -2, 9)
    assert api.lib.conf_minmax([5]) == (1, 5, 5)


def test_inout_takes_the_initial_value_and_returns_the_final_one(api):
    assert api.lib.conf_increment(5, 2) == 7
    assert api.lib.conf_increment(-(2**63), 1) == -(2**63) + 1


def test_out_bytes_uses_the_size_probe(api):
    name = api.lib.conf_get_name()
    assert type(name) is bytes and name == f"conformance library {api.instance}".encode()
    for n in (0, 1, 250, 3000):
        assert api.lib.conf_get_pattern(n) == bytes((i * 7) % 251 for i in range(n)), n


def test_out_bytes_at_most_n_calls_c_once_without_the_probe(api):
    before = api.lib.conf_pattern_once_calls()
    for n in (0, 1, 64):
        assert api.lib.conf_get_pattern_once(n) == bytes((i * 7) % 251 for i in range(n)), n
    assert api.lib.conf_pattern_once_calls() == before + 3
    # more than the config's bound: the C function's own error (there is no probe to learn the size)
    with pytest.raises(api.mod.errors.CONF_ERR_SMALL):
        api.lib.conf_get_pattern_once(65)


def test_out_bytes_at_most_beyond_a_wrappers_stack_and_of_wider_elements(api):
    # at_most=64 above is a buffer the Cython wrapper keeps on its C stack; 5000 is not
    for n in (0, 4097, 5000):
        assert api.lib.conf_get_pattern_large(n) == bytes((i * 7) % 251 for i in range(n)), n
    with pytest.raises(api.mod.errors.CONF_ERR_SMALL):
        api.lib.conf_get_pattern_large(5001)
    # uint32_t elements: the length counts elements, the bytes are theirs as C laid them out
    assert api.lib.conf_get_words(3) == struct.pack("=3I", 1, 0x01010102, 0x02020203)
    assert api.lib.conf_get_words(8) == struct.pack("=8I", *(i * 0x01010101 + 1 for i in range(8)))
    assert api.lib.conf_get_words(0) == b""
    with pytest.raises(api.mod.errors.CONF_ERR_SMALL):
        api.lib.conf_get_words(9)


def test_out_array_returns_a_list_of_ints(api):
    squares = api.lib.conf_get_squares(5)
    assert type(squares) is list and squares == [0, 1, 4, 9, 16]
    assert api.lib.conf_get_squares(0) == []
    assert api.lib.conf_get_squares(2000) == [i * i for i in range(2000)]


def test_out_record_is_returned_as_a_new_instance(api):
    p = api.lib.conf_point_make(3, -4)
    assert isinstance(p, api.mod.conf_point) and (p.x, p.y) == (3, -4)
    q = api.lib.conf_point_make(1, 1)
    assert (p.x, q.x) == (3, 1)


# --------------------------------------------------------------------------
# Error policy
# --------------------------------------------------------------------------

def test_success_returns_none_and_failure_raises_the_named_subclass(api):
    mod = api.mod
    assert api.lib.conf_check_range(50) is None
    with pytest.raises(mod.errors.CONF_ERR_RANGE) as caught:
        api.lib.conf_check_range(101)
    error = caught.value
    assert isinstance(error, mod.Error) and issubclass(mod.Error, Exception)
    assert type(error).__name__ == "CONF_ERR_RANGE"
    assert error.code == mod.CONF_ERR_RANGE == 3
    assert error.function == "conf_check_range"
    assert "conf_check_range" in str(error)
    with pytest.raises(mod.errors.CONF_ERR_ARGS) as caught:
        api.lib.conf_divide(1, 0)
    assert caught.value.code == 7 and caught.value.function == "conf_divide"


def test_unknown_codes_raise_the_base_error(api):
    with pytest.raises(api.mod.Error) as caught:
        api.lib.conf_check_range(-99)
    assert type(caught.value) is api.mod.Error
    assert caught.value.code == 99
    # CONF_UNKNOWN_CODE does not match the policy's codes glob CONF_ERR_*
    assert not hasattr(api.mod.errors, "CONF_UNKNOWN_CODE")
    assert api.mod.CONF_UNKNOWN_CODE == 99


def test_functions_excluded_from_the_policy_return_the_status(api):
    assert api.lib.conf_raw_status(7) == 7
    assert api.lib.conf_raw_status(0) == 0


# --------------------------------------------------------------------------
# Constants and enums
# --------------------------------------------------------------------------

def test_constants_have_exact_values(api):
    mod = api.mod
    assert mod.CONF_ALL_BITS == 18446744073709551615
    assert mod.CONF_NEG == -5
    assert mod.CONF_RATIO == 0.5
    assert mod.CONF_LABEL == "conformance"
    assert (mod.CONF_OK, mod.CONF_ERR_RANGE, mod.CONF_ERR_ARGS, mod.CONF_ERR_SMALL) == (0, 3, 7, 0x150)
    assert (mod.CONF_FLAG_A, mod.CONF_FLAG_B) == (1, 16)


def test_enums_are_int_enums_whose_members_are_module_attributes(api):
    mod = api.mod
    assert issubclass(mod.conf_shape, enum.IntEnum)
    assert [(m.name, m.value) for m in mod.conf_shape] == [
        ("CONF_SHAPE_NONE", 0), ("CONF_SHAPE_RECT", 1), ("CONF_SHAPE_CIRCLE", 2), ("CONF_SHAPE_BIG", 0x7FFFFFFF),
    ]
    assert mod.CONF_SHAPE_RECT is mod.conf_shape.CONF_SHAPE_RECT
    assert api.lib.conf_shape_next(mod.CONF_SHAPE_RECT) == mod.CONF_SHAPE_CIRCLE
    assert api.lib.conf_shape_next(0) == 1


# --------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------

def test_record_sizes_agree_with_the_compiler(api):
    mod = api.mod
    classes = [mod.conf_point, mod.conf_rect, mod.conf_value, mod.conf_info, mod.conf_ops]
    for which, cls in enumerate(classes):
        assert cls.sizeof == api.lib.conf_sizeof(which), cls.__name__
        assert len(bytes(cls())) == cls.sizeof


def test_record_constructor_attributes_bytes_and_repr(api):
    point = api.mod.conf_point
    p = point(x=1, y=-2)
    assert (p.x, p.y) == (1, -2)
    assert bytes(p) == struct.pack("<ii", 1, -2)
    assert repr(p) == "conf_point(x=1, y=-2)"
    assert (point().x, point().y) == (0, 0)
    p.y = 2**31 - 1
    assert p.y == 2**31 - 1


def test_records_by_pointer_by_value_and_returned(api):
    mod, lib = api.mod, api.lib
    a, b = mod.conf_point(x=1, y=2), mod.conf_point(x=3, y=4)
    assert lib.conf_point_dot(a, b) == 11
    assert lib.conf_point_dot(a, None) == 0
    assert lib.conf_point_norm(mod.conf_point(x=-5, y=2)) == 7
    r = mod.conf_rect(min=mod.conf_point(x=0, y=0), max=mod.conf_point(x=3, y=4))
    assert lib.conf_rect_area(r) == 12
    center = lib.conf_rect_center(r)
    assert isinstance(center, mod.conf_point) and (center.x, center.y) == (1, 2)
    lib.conf_rect_grow(r, 1)
    assert (r.min.x, r.min.y, r.max.x, r.max.y) == (-1, -1, 4, 5)


def test_nested_records_are_views_that_keep_their_owner_alive(api):
    mod = api.mod
    r = mod.conf_rect(max=mod.conf_point(x=3, y=4))
    corner = r.max
    corner.x = 10
    assert r.max.x == 10
    assert api.lib.conf_rect_area(r) == 40
    del r
    gc.collect()
    assert (corner.x, corner.y) == (10, 4)


def test_unions_share_storage(api):
    mod = api.mod
    v = mod.conf_value(d=2.5)
    assert api.lib.conf_value_as_double(v, 0) == 2.5
    assert v.i == struct.unpack("<q", struct.pack("<d", 2.5))[0]
    assert list(v.raw) == list(struct.pack("<d", 2.5))
    assert api.lib.conf_value_as_double(mod.conf_value(i=-3), 1) == -3.0


def _digest(info: Any) -> int:
    """conf_info_digest of conf.c, recomputed from the fields as Python reads them."""
    m32, m64 = 2**32 - 1, 2**64 - 1
    d = info.version
    for byte in info.label.ljust(16, b"\0"):
        d = (d * 31 + byte) & m64
    for sample in info.samples:
        d = (d * 37 + sample) & m64
    for side in (info.box.min.x, info.box.min.y, info.box.max.x, info.box.max.y):
        d = (d * 41 + (side & m32)) & m64
    for corner in info.corners:
        # C adds to the 64-bit d left to right: only x * 3u wraps at 32 bits
        d = (d * 43 + (((corner.x & m32) * 3) & m32) + (corner.y & m32)) & m64
    d = (d * 47 + (int(info.shape) & m32)) & m64
    return (d * 53 + (info.value.i & m64)) & m64


def test_out_record_with_every_field_kind(api):
    mod = api.mod
    info = api.lib.conf_get_info()
    assert isinstance(info, mod.conf_info)
    assert info.version == 7
    assert info.label == f"conf-{api.instance}".encode()
    assert list(info.samples) == [1, 2, 3, 65535] and len(info.samples) == 4 and info.samples[3] == 65535
    assert (info.box.min.x, info.box.min.y, info.box.max.x, info.box.max.y) == (-1, -2, 3, 4)
    assert len(info.corners) == 2 and (info.corners[0].x, info.corners[1].y) == (10, -20)
    assert info.shape == mod.CONF_SHAPE_CIRCLE
    assert info.value.d == 2.5
    assert api.lib.conf_info_digest(info) == _digest(info)


def test_records_built_in_python_have_the_c_layout(api):
    mod = api.mod
    info = mod.conf_info(
        version=0xA1B2C3D4, label=b"python", samples=[9, 8, 7, 6],
        box=mod.conf_rect(min=mod.conf_point(x=-7, y=5), max=mod.conf_point(x=2**31 - 1, y=-(2**31))),
        corners=[mod.conf_point(x=1, y=2), mod.conf_point(x=-3, y=-4)],
        shape=mod.CONF_SHAPE_BIG, value=mod.conf_value(i=-(2**62)),
    )
    assert api.lib.conf_info_digest(info) == _digest(info)
    info.samples = (1, 2, 3, 4)
    info.label = b"x" * 16
    info.corners[1].y = 99
    assert (list(info.samples), info.label, info.corners[1].y) == ([1, 2, 3, 4], b"x" * 16, 99)
    # the items may be views into the very array assigned: read before it is cleared
    info.corners = info.corners
    assert [(c.x, c.y) for c in info.corners] == [(1, 2), (-3, 99)]
    info.corners = [info.corners[1], info.corners[0]]
    assert [(c.x, c.y) for c in info.corners] == [(-3, 99), (1, 2)]
    assert api.lib.conf_info_digest(info) == _digest(info)
    assert api.lib.conf_info_digest(None) == 0


def test_function_pointer_fields_round_trip(api):
    mod, lib = api.mod, api.lib
    adding, multiplying = lib.conf_get_ops(0), lib.conf_get_ops(1)
    assert adding.id == 0 and adding.combine is not None
    assert lib.conf_ops_apply(adding, 2, 3) == -5
    assert lib.conf_ops_apply(multiplying, 2, 3) == 36
    empty = lib.conf_get_ops(2)
    assert empty.combine is None and empty.unary is None
    assert lib.conf_ops_apply(empty, 1, 1) == -1
    assert mod.conf_ops().combine is None
    mixed = mod.conf_ops(id=9)
    mixed.combine = adding.combine
    mixed.unary = multiplying.unary
    assert lib.conf_ops_apply(mixed, 2, 3) == 25
    mixed.unary = None
    assert lib.conf_ops_apply(mixed, 2, 3) == -1


def test_opaque_handles_round_trip(api):
    session = api.lib.conf_session_open(41)
    assert session is not None and not isinstance(session, int)
    assert api.lib.conf_session_next(session) == 41
    assert api.lib.conf_session_next(session) == 42
    other = api.lib.conf_session_open(-1)
    assert api.lib.conf_session_next(other) == -1
    assert api.lib.conf_session_next(session) == 43
    assert api.lib.conf_session_next(None) == -1
    api.lib.conf_session_close(session)
    api.lib.conf_session_close(other)


# --------------------------------------------------------------------------
# Docs, GIL, state
# --------------------------------------------------------------------------

def test_docstrings_carry_the_header_comments(api):
    assert "Sum of the bytes of data[0..n)." in api.lib.conf_checksum.__doc__
    assert "The library's name.  NULL buf: *len is set to the size needed." in api.lib.conf_get_name.__doc__
    assert "Everything a record can hold, filled by conf_get_info." in api.mod.conf_info.__doc__


def test_released_gil_lets_two_calls_overlap(api):
    threads = [threading.Thread(target=api.lib.conf_sleep_ms, args=(400,)) for _ in range(2)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    assert elapsed < 0.75, f"two 400 ms calls took {elapsed:.3f} s: the GIL was held"


def test_library_state_is_kept_between_calls(api):
    first = api.lib.conf_counter_next()
    assert api.lib.conf_counter_next() == first + 1


# --------------------------------------------------------------------------
# Link time and dynamic loading
# --------------------------------------------------------------------------

def test_link_time_functions_are_module_functions_called_by_symbol(linked):
    assert linked.conf_tbl_which() == 1
    assert linked.conf_tbl_add(2, 3) == 5
    assert linked.conf_tbl_label() == b"table:linked"


def test_two_loaded_libraries_keep_separate_state(dynamic, conf_libraries):
    alpha = dynamic.load(str(conf_libraries["alpha"]))
    beta = dynamic.load(str(conf_libraries["beta"]))
    assert alpha.conf_get_name() == b"conformance library alpha"
    assert beta.conf_get_name() == b"conformance library beta"
    start_alpha, start_beta = alpha.conf_counter_next(), beta.conf_counter_next()
    assert [alpha.conf_counter_next() for _ in range(3)] == [start_alpha + 1, start_alpha + 2, start_alpha + 3]
    assert beta.conf_counter_next() == start_beta + 1
    assert beta.conf_get_info().label == b"conf-beta"


def test_function_table_methods_go_through_the_table(dynamic, conf_libraries):
    lib = dynamic.load(str(conf_libraries["beta"]))
    assert lib.conf_tbl_which() == 2  # the exported symbol would say 1
    assert lib.conf_tbl_add(2, 3) == 5
    assert lib.conf_tbl_label() == b"table:beta"
    with pytest.raises(dynamic.errors.CONF_ERR_RANGE) as caught:
        lib.conf_tbl_add(2**31 - 1, 1)
    assert caught.value.function == "conf_tbl_add" and caught.value.code == 3


def test_library_methods_accept_a_path_object(dynamic, conf_libraries):
    lib = dynamic.load(conf_libraries["alpha"])
    assert lib.conf_echo_i32(-5) == -5


# --------------------------------------------------------------------------
# Misuse raises, never crashes (one child process per pair)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("pair", CASES)
def test_misuse_raises_and_never_crashes(pair, build_binding, conf_libraries):
    backend, kind = pair
    built = build_binding(backend, kind)
    command = [sys.executable, str(CONF / "misuse.py"), str(built.folder), built.name]
    if kind == "dynamic":
        command += ["--load", str(conf_libraries["alpha"]), "--no-getter", str(conf_libraries["empty"])]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    lines = result.stdout.splitlines()
    if result.returncode != 0 or not lines or lines[-1] != "DONE":
        started = [line[6:] for line in lines if line.startswith("START ")]
        signal = f"signal {-result.returncode}" if result.returncode < 0 else f"exit code {result.returncode}"
        pytest.fail(
            f"the misuse run died ({signal}) during: {started[-1] if started else '(before the first case)'}\n"
            f"{result.stderr[-3000:]}"
        )
    reports = [json.loads(line[7:]) for line in lines if line.startswith("RESULT ")]
    assert len(reports) > 90
    wrong = [f"{r['case']}: expected {r['expected']}, got {r['got']}" for r in reports if not r["ok"]]
    assert not wrong, f"{len(wrong)} of {len(reports)} misuse cases did not raise as expected:\n" + "\n".join(wrong)

