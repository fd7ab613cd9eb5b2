"""The runtime generated modules carry (pegbind/runtime/pyffi.py), imported and tested directly.

Generated modules get this code as pasted text (the argument checks in every
backend's module, the rest in the ctypes and cffi ones), so its behaviour is
tested here once, without generating or compiling anything; the error
messages are compared exactly, since every backend raises them.
"""
from __future__ import annotations

import array
import ast
import builtins
import copy
import fractions
import pickle
import symtable
import sys
from decimal import Decimal

import pytest

from pegbind.emit.env import defined_functions, make_environment
from pegbind.resources import paste_sections, runtime_sections
from pegbind.runtime import pyffi as rt


class Index:
    """An integer that is not an int: numpy's scalars and the like."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class Record:
    """Stands for a generated record class (they use _pb_no_copy as __reduce_ex__ and __reduce__)."""

    __reduce_ex__ = __reduce__ = rt._pb_no_copy


class RecordObject(rt._pb_Record):
    __slots__ = ()


class Handle(rt.Pointer):
    __slots__ = ()
    _pb_kind = "handle"


# ---- the pasted sections -------------------------------------------------


def test_the_sections_are_what_templates_get():
    sections = runtime_sections("pyffi")
    assert sorted(sections) == ["argument_checks", "callbacks", "checks", "conversions", "records", "varargs"]
    shared, ffi_only = sections["argument_checks"], sections["checks"]
    assert sections["conversions"].startswith("# ---- runtime: what the arguments of every backend are converted with")
    assert shared.startswith("# ---- runtime: the argument checks of every backend, and their messages ---")
    assert shared.endswith("return [_pb_fix_value(spec, value) for spec, value in zip(specs, args)]")
    assert ffi_only.startswith("# ---- runtime: what the ctypes and cffi wrappers and classes share ---")
    assert ffi_only.endswith('return _pb_missing(f"no loaded library defines {name!r}")')
    assert "pegbind-paste" not in shared + ffi_only
    assert make_environment().globals["ffi_runtime"] == sections


def test_the_functions_a_section_defines_are_what_a_parse_finds():
    # the Cython module defers each argument check by its name, read from the section's text
    for source in runtime_sections("pyffi").values():
        parsed = tuple(node.name for node in ast.parse(source).body if isinstance(node, ast.FunctionDef))
        assert defined_functions(source) == parsed
    assert defined_functions("def a():\n    def inner():\n        pass\n\nclass B:\n    def m(self): ...\n"
                             "@decorated\ndef c(x): ...\n") == ("a", "c")


@pytest.mark.parametrize(("names", "outside"), [
    # the Cython module defines its own Pointer, FunctionPointer, record and cell base classes
    (("conversions", "argument_checks", "callbacks"), {"_operator", "_sys", "_threading", "Pointer", "FunctionPointer",
                                        "_pb_Record", "_pb_Cell"}),
    # each FFI's module defines how it reads an address and reads and writes the elements of
    # Pointers, the FunctionPointer class and how a record keeps what it is given (and reads it
    # back) and where its memory is, and what the library's memory keeps
    (("conversions", "argument_checks", "callbacks", "checks", "records"), {
        "_operator", "_sys", "_threading", "_pb_address", "_pb_elements", "_pb_element_limits", "_pb_read_elements",
        "_pb_write_elements", "FunctionPointer", "_pb_keep_record", "_pb_record_kept", "_pb_library_kept",
        "_pb_record_address"}),
], ids=["cython", "ffi"])
def test_the_sections_need_only_what_every_generated_module_imports(names, outside):
    # Pasted into a module that does not import pegbind: every global they
    # read is defined in the sections themselves, is a builtin, is imported
    # by every template under the same name, or is the module's own class.
    # The Cython module pastes only the conversions, the argument checks and
    # the callbacks, the ctypes and cffi modules every section.
    text = "\n\n".join(runtime_sections("pyffi")[name] for name in names)
    top = symtable.symtable(text, "pyffi-checks", "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    read = set()
    tables = [top]
    while tables:
        table = tables.pop()
        tables += table.get_children()
        read |= {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
        if table is top:
            read |= {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    assert read - defined - set(dir(builtins)) == outside
    # and it runs so, as the head of a generated module
    namespace: dict = {}
    imports = "import operator as _operator\nimport sys as _sys\nimport threading as _threading\n"
    exec(compile(imports + text, "pyffi-checks", "exec"), namespace)  # noqa: S102
    assert namespace["_pb_index"](Index(7), "x", 0, 9) == 7


def test_what_the_cython_module_compiles_uses_the_argument_checks_only_as_functions():
    # The Cython module keeps the argument checks as source until one is needed, with a
    # placeholder in the place of each of their functions: what it compiles may call them,
    # and read nothing else of theirs.
    sections = runtime_sections("pyffi")
    checks = symtable.symtable(sections["argument_checks"], "checks", "exec")
    functions = {s.get_name() for s in checks.get_symbols() if s.is_namespace() and s.is_assigned()
                 and all(t.get_type() == "function" for t in s.get_namespaces())}
    defined = {s.get_name() for s in checks.get_symbols() if s.is_assigned()}
    read = set()
    tables = [symtable.symtable(sections[name], name, "exec") for name in ("conversions", "callbacks")]
    while tables:
        table = tables.pop()
        tables += table.get_children()
        read |= {s.get_name() for s in table.get_symbols() if s.is_referenced()}
    assert read & defined <= functions
    assert {"_pb_pointer_error", "_pb_fix_value"} <= functions and "_PB_CLOSED" not in functions


def test_paste_sections_takes_the_marked_lines_verbatim():
    source = "import os\n# pegbind-paste: begin a\nx = 1\n\n  y = 2  \n# pegbind-paste: end a\nz = 3\n"
    assert paste_sections(source, "f.py") == {"a": "x = 1\n\n  y = 2  "}


@pytest.mark.parametrize(
    "source, message",
    [
        ("# pegbind-paste: begin a\nx\n", "f.py:1: section 'a' has no end marker"),
        ("x\n# pegbind-paste: end a\n", "f.py:2: section 'a' ends where it did not begin"),
        ("# pegbind-paste: begin a\n# pegbind-paste: begin b\n", "f.py:2: section 'b' begins inside section 'a'"),
        ("# pegbind-paste: begin a\n# pegbind-paste: end b\n", "f.py:2: section 'b' ends where it did not begin"),
        (
            "# pegbind-paste: begin a\n# pegbind-paste: end a\n# pegbind-paste: begin a\n",
            "f.py:3: section 'a' is marked twice",
        ),
    ],
)
def test_paste_markers_that_do_not_pair_are_refused(source, message):
    with pytest.raises(ValueError) as error:
        paste_sections(source, "f.py")
    assert str(error.value) == message


# ---- integers, bools and floats -------------------------------------------


def test_integer_takes_index_objects_and_names_the_argument_otherwise():
    assert rt._pb_integer(5, "x") == 5
    assert rt._pb_integer(Index(-3), "x") == -3
    assert rt._pb_integer(True, "x") == 1
    with pytest.raises(TypeError) as error:
        rt._pb_integer(2.0, "argument 1 (n)")
    assert str(error.value) == "argument 1 (n) must be an integer, not float"
    assert error.value.__suppress_context__  # "from None": the operator.index error is not shown
    with pytest.raises(TypeError, match=r"^x must be an integer, not str$"):
        rt._pb_integer("1", "x")


def test_exact_int_is_operator_index():
    assert rt._pb_exact_int(Index(4)) == 4
    assert type(rt._pb_exact_int(Index(4))) is int
    with pytest.raises(TypeError):
        rt._pb_exact_int(1.5)


def test_index_checks_the_inclusive_range():
    assert rt._pb_index(0, "x", 0, 255) == 0
    assert rt._pb_index(255, "x", 0, 255) == 255
    assert rt._pb_index(Index(-128), "x", -128, 127) == -128
    with pytest.raises(OverflowError) as error:
        rt._pb_index(256, "Point.x", 0, 255)
    assert str(error.value) == "Point.x: 256 is out of range [0, 255]"
    with pytest.raises(OverflowError) as error:
        rt._pb_index(-1, "argument 2 (n)", 0, 18446744073709551615)
    assert str(error.value) == "argument 2 (n): -1 is out of range [0, 18446744073709551615]"
    with pytest.raises(TypeError) as type_error:
        rt._pb_index(None, "x", 0, 1)
    assert str(type_error.value) == "x must be an integer, not NoneType"


def test_bool_takes_any_integer_and_nothing_else():
    assert rt._pb_bool(2, "b") is True
    assert rt._pb_bool(Index(0), "b") is False
    assert rt._pb_bool(True, "b") is True
    with pytest.raises(TypeError) as error:
        rt._pb_bool(1.0, "Flags.on")
    assert str(error.value) == "Flags.on must be an integer, not float"
    with pytest.raises(TypeError, match=r"^b must be an integer, not NoneType$"):
        rt._pb_bool(None, "b")


def test_float_takes_what_pyfloat_asdouble_takes():
    assert rt._pb_float(1, "f") == 1.0
    assert type(rt._pb_float(1, "f")) is float
    assert rt._pb_float(Index(3), "f") == 3.0
    assert rt._pb_float(Decimal("0.5"), "f") == 0.5
    assert rt._pb_float(fractions.Fraction(1, 4), "f") == 0.25
    assert rt._pb_float(True, "f") == 1.0
    # a string is never parsed, though float() would
    with pytest.raises(TypeError) as error:
        rt._pb_float("1.5", "argument 1 (x)")
    assert str(error.value) == "argument 1 (x) must be a real number, not str"
    with pytest.raises(TypeError, match=r"^f must be a real number, not NoneType$"):
        rt._pb_float(None, "f")
    with pytest.raises(TypeError, match=r"^f must be a real number, not complex$"):
        rt._pb_float(1j, "f")


def test_complex_takes_what_pycomplex_ascomplex_takes():
    class Phase:
        def __complex__(self):
            return 2j

    assert rt._pb_complex(1 - 1j, "z") == 1 - 1j
    assert type(rt._pb_complex(1, "z")) is complex and rt._pb_complex(1, "z") == 1 + 0j
    assert rt._pb_complex(Index(3), "z") == 3 + 0j
    assert rt._pb_complex(Decimal("0.5"), "z") == 0.5 + 0j
    assert rt._pb_complex(Phase(), "z") == 2j
    # a string is never parsed, though complex() would
    with pytest.raises(TypeError, match=r"^argument 1 \(z\) must be a complex number, not str$"):
        rt._pb_complex("1+2j", "argument 1 (z)")
    with pytest.raises(TypeError, match=r"^z must be a complex number, not NoneType$"):
        rt._pb_complex(None, "z")
    with pytest.raises(OverflowError):
        rt._pb_complex(10 ** 400, "z")


# ---- buffers ---------------------------------------------------------------


def test_view_of_accepts_contiguous_buffers():
    assert rt._pb_buffer_of(b"abc", "b", False).tobytes() == b"abc"
    writable = bytearray(b"xy")
    view = rt._pb_buffer_of(writable, "b", True)
    view[0] = ord("z")
    assert writable == b"zy"
    assert rt._pb_buffer_of(array.array("i", [1, 2]), "b", True).nbytes == 2 * array.array("i").itemsize


@pytest.mark.parametrize(
    "value, writable, message",
    [
        (42, False, "buf must be a contiguous buffer, not int"),
        ("text", False, "buf must be a contiguous buffer, not str"),
        (None, True, "buf must be a writable contiguous buffer, not NoneType"),
        (b"bytes", True, "buf must be a writable contiguous buffer, not bytes"),
        (memoryview(bytearray(8))[::2], False, "buf must be a contiguous buffer, not memoryview"),
        (memoryview(bytearray(8))[::2], True, "buf must be a writable contiguous buffer, not memoryview"),
        (memoryview(bytearray(8)).toreadonly(), True, "buf must be a writable contiguous buffer, not memoryview"),
    ],
)
def test_view_of_refuses_with_the_cython_message(value, writable, message):
    with pytest.raises(TypeError) as error:
        rt._pb_buffer_of(value, "buf", writable)
    assert str(error.value) == message


def test_measure_counts_whole_elements():
    assert rt._pb_measure(None, 4) == 0
    assert rt._pb_measure(b"", 1) == 0
    assert rt._pb_measure(bytes(10), 4) == 2
    assert rt._pb_measure(bytearray(12), 4) == 3
    assert rt._pb_measure(array.array("d", [1.0, 2.0]), 8) == 2
    # nbytes, not len: a memoryview of another shape counts the same memory
    assert rt._pb_measure(memoryview(bytes(8)).cast("I"), 1) == 8


def test_check_size_wants_at_least_size_bytes():
    rt._pb_check_size(memoryview(bytes(8)), 8, "b")
    rt._pb_check_size(memoryview(bytes(9)), 8, "b")
    with pytest.raises(ValueError) as error:
        rt._pb_check_size(memoryview(bytes(3)), 32, "argument 1 (values)")
    assert str(error.value) == "argument 1 (values) needs at least 32 bytes, got 3"


def test_cstring_passes_bytes_and_none_and_copies_other_buffers():
    data = b"abc"
    assert rt._pb_cstring(data, "s") is data
    assert rt._pb_cstring(None, "s") is None
    copied = rt._pb_cstring(bytearray(b"xyz"), "s")
    assert copied == b"xyz" and type(copied) is bytes

    class Bytes(bytes):
        pass

    # a bytes subclass is copied to exact bytes (a subclass could change what C reads)
    assert type(rt._pb_cstring(Bytes(b"q"), "s")) is bytes
    assert rt._pb_cstring(memoryview(b"abcd")[1:3], "s") == b"bc"


@pytest.mark.parametrize("value, name", [(3, "int"), ([1], "list"), (object(), "object")])
def test_cstring_refuses_non_buffers(value, name):
    with pytest.raises(TypeError) as error:
        rt._pb_cstring(value, "argument 2 (src)")
    assert str(error.value) == f"argument 2 (src) must be str, bytes, a buffer or None, not {name}"


def test_cstring_takes_str_as_utf8_without_nul():
    assert rt._pb_cstring("h\u00e9", "s") == b"h\xc3\xa9"
    assert rt._pb_cstring("", "s") == b""
    with pytest.raises(ValueError, match=r"^argument 1 \(s\) must not contain a NUL character$"):
        rt._pb_cstring("a\0", "argument 1 (s)")
    with pytest.raises(TypeError, match=r"^s must be str, bytes or a buffer, not int$"):
        rt._pb_fix_value(("nonnull", "s", ("cstring", "s")), 3)  # None is no choice there
    # a lone surrogate has no UTF-8 form: named as any other wrong argument is
    with pytest.raises(ValueError, match=r"^argument 1 \(s\) cannot be encoded as UTF-8: surrogates not "
                                         r"allowed at index 1$"):
        rt._pb_cstring("a\ud800", "argument 1 (s)")


# ---- sequences ---------------------------------------------------------------


def test_sequence_lists_any_iterable_but_a_str():
    assert rt._pb_sequence((1, 2), "a") == [1, 2]
    assert rt._pb_sequence(range(3), "a") == [0, 1, 2]
    assert rt._pb_sequence((i for i in "ab"), "a") == ["a", "b"]
    assert rt._pb_sequence(b"\x01\x02", "a") == [1, 2]
    with pytest.raises(TypeError) as error:
        rt._pb_sequence("ab", "argument 1 (items)")
    assert str(error.value) == "argument 1 (items) must be a sequence, not str"
    with pytest.raises(TypeError) as error:
        rt._pb_sequence(5, "argument 1 (items)")
    assert str(error.value) == "argument 1 (items) must be a sequence, not int"


def test_once_lists_iterators_and_leaves_everything_else():
    items = [1, 2]
    assert rt._pb_once(items) is items
    data = b"ab"
    assert rt._pb_once(data) is data
    assert rt._pb_once(None) is None
    assert rt._pb_once(iter((1, 2))) == [1, 2]
    assert rt._pb_once(i * 2 for i in range(3)) == [0, 2, 4]
    # iter() of a 2-D memoryview raises NotImplementedError: left for the checks to refuse
    grid = memoryview(bytes(6)).cast("B", (2, 3))
    assert rt._pb_once(grid) is grid


# ---- kept objects ------------------------------------------------------------


def test_rekey_replaces_what_the_overwritten_bytes_kept():
    keep = {(100, "a"): "old a", (107, "b"): "old b", (108, "c"): "outside", (99, "d"): "before"}
    rt._pb_rekey(keep, 100, 8, {(0, "x"): "new x", (4, "y"): "new y"})
    assert keep == {(108, "c"): "outside", (99, "d"): "before", (100, "x"): "new x", (104, "y"): "new y"}


def test_rekey_with_nothing_kept_only_forgets():
    keep = {(10, "p"): object()}
    rt._pb_rekey(keep, 10, 1, {})
    assert keep == {}


# ---- _pb_fix: the second run of a wrapper ------------------------------------

INT = ("int", "argument 1 (n)", 0, 255)


class Point:
    pass


@pytest.mark.parametrize(
    "spec, value, expected",
    [
        (INT, Index(9), 9),
        (("bool", "argument 1 (b)"), 3, True),
        (("float", "argument 1 (f)"), Index(2), 2.0),
        (("cstring", "argument 1 (s)"), bytearray(b"hi"), b"hi"),
        (("cstring", "argument 1 (s)"), None, None),
        (("buffer", "argument 1 (b)", 4, "void *", False, "", ""), None, None),
        (("buffer", "argument 1 (b)", 2, "char *", True, "", ""), "ab", b"ab"),
        (("pointer", "argument 1 (p)", "int **", True), None, None),
        (("count", "argument 1 (n)", 0, 10), Index(10), 10),
        (("nonnull", "argument 1 (n)", INT), Index(1), 1),
        (("record", "argument 1 (p)", Point, True), None, None),
        (("array", "argument 1 (a)", True, None, True), None, None),
        (("array", "argument 1 (a)", False, INT, False), (Index(1), 2), [1, 2]),
        (("array", "argument 1 (a)", False, INT, True), [Index(3)], [3]),
    ],
)
def test_fix_value_normalises(spec, value, expected):
    fixed = rt._pb_fix_value(spec, value)
    assert fixed == expected and type(fixed) is type(expected)


def test_fix_value_passes_buffers_and_records_as_they_are():
    buffer = bytearray(4)
    assert rt._pb_fix_value(("writable_buffer", "b", 4, "void *", False, "", ""), buffer) is buffer
    assert rt._pb_fix_value(("array", "a", False, INT, True), buffer) is buffer
    assert rt._pb_fix_value(("array", "a", False, None, True), buffer) is buffer
    point = Point()
    assert rt._pb_fix_value(("record", "p", Point, False), point) is point


@pytest.mark.parametrize(
    "spec, value, error, message",
    [
        (INT, 1.5, TypeError, "argument 1 (n) must be an integer, not float"),
        (INT, 256, OverflowError, "argument 1 (n): 256 is out of range [0, 255]"),
        (("nonnull", "argument 1 (n)", INT), None, TypeError, "argument 1 (n) must not be None"),
        (("bool", "argument 1 (b)"), "yes", TypeError, "argument 1 (b) must be an integer, not str"),
        (("float", "argument 1 (f)"), "1", TypeError, "argument 1 (f) must be a real number, not str"),
        (("cstring", "argument 1 (s)"), 5, TypeError, "argument 1 (s) must be str, bytes, a buffer or None, not int"),
        (("buffer", "argument 1 (b)", 4, "void *", False, "", ""), 1, TypeError,
         "argument 1 (b) must be a contiguous buffer, not int"),
        (("buffer", "argument 1 (b)", 4, "void *", False, "", ""), b"abc", ValueError,
         "argument 1 (b) needs at least 4 bytes, got 3"),
        (("buffer", "argument 1 (b)", 4, "char *", True, "", ""), "abc", ValueError,
         "argument 1 (b) needs at least 4 bytes, got 3"),
        (("buffer", "argument 1 (b)", 1, "void *", False, "", ""), "abc", TypeError,
         "argument 1 (b) must be a contiguous buffer, not str"),
        (("buffer", "argument 1 (b)", 4, "int *", False, "", ""), Point(), TypeError,
         "argument 1 (b) must be a contiguous buffer, not Point"),
        (("pointer", "argument 1 (p)", "int **", True), 3, TypeError,
         "argument 1 (p) must be a Pointer of type int ** or None, not int"),
        (("pointer", "argument 1 (p)", "int **", False), None, TypeError,
         "argument 1 (p) must be a Pointer of type int **, not NoneType"),
        (
            ("writable_buffer", "argument 1 (b)", 1, "void *", False, "", ""),
            b"x",
            TypeError,
            "argument 1 (b) must be a writable contiguous buffer, not bytes",
        ),
        (("record", "argument 1 (p)", Point, False), None, TypeError, "argument 1 (p) must be Point, not NoneType"),
        (("record", "argument 1 (p)", Point, True), 3, TypeError, "argument 1 (p) must be Point or None, not int"),
        (("count", "argument 2 (n)", 0, 10), -1, ValueError, "argument 2 (n) must not be negative"),
        (("count", "argument 2 (n)", 0, 10), 11, OverflowError, "argument 2 (n): 11 is out of range [0, 10]"),
        (("count", "argument 2 (n)", 0, 10), 1.0, TypeError, "argument 2 (n) must be an integer, not float"),
        (("array", "argument 1 (a)", False, INT, False), None, TypeError, "argument 1 (a) must not be None"),
        (("array", "argument 1 (a)", True, INT, False), "ab", TypeError, "argument 1 (a) must be a sequence, not str"),
        (("array", "argument 1 (a)", True, INT, False), 7, TypeError, "argument 1 (a) must be a sequence, not int"),
        (
            ("array", "argument 1 (a)", True, None, True),
            [1],
            TypeError,
            "argument 1 (a) must be a contiguous buffer, not list",
        ),
        (
            ("array", "argument 1 (a)", True, INT, True),
            memoryview(bytearray(4))[::2],
            TypeError,
            "argument 1 (a) must be a contiguous buffer, not memoryview",
        ),
        (
            ("array", "argument 1 (a)", True, ("int", "argument 1 (a) items", 0, 9), False),
            [1, 10],
            OverflowError,
            "argument 1 (a) items: 10 is out of range [0, 9]",
        ),
    ],
)
def test_fix_value_raises_the_precise_error(spec, value, error, message):
    with pytest.raises(error) as raised:
        rt._pb_fix_value(spec, value)
    assert str(raised.value) == message


def test_fix_checks_each_argument_against_its_spec_in_order():
    specs = (INT, ("cstring", "argument 2 (s)"))
    assert rt._pb_fix(specs, (Index(1), bytearray(b"z"))) == [1, b"z"]
    with pytest.raises(TypeError, match=r"^argument 2 \(s\) must be str, bytes, a buffer or None, not int$"):
        rt._pb_fix(specs, (1, 2))
    # the first bad argument is the one reported
    with pytest.raises(OverflowError, match=r"^argument 1 \(n\): -1 is out of range \[0, 255\]$"):
        rt._pb_fix(specs, (-1, 2))


# ---- objects: records, handles, missing functions -------------------------------


def test_missing_is_a_sentinel_and_new_skips_init():
    assert rt._MISSING is not None and rt._MISSING != object()
    handle = rt._pb_new(Handle)
    assert type(handle) is Handle


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy, pickle.dumps, lambda record: record.__reduce__()])
def test_no_copy_refuses_pickling_and_copying(how):
    with pytest.raises(TypeError) as error:
        how(Record())
    assert str(error.value) == "cannot pickle or copy Record objects"


@pytest.mark.parametrize("value", [b"abc", bytearray(b"abc"), memoryview(b"xabcx")[1:4], memoryview(b"aXbXc")[::2]])
def test_bytes_like_copies_any_buffer(value):
    copied = rt._pb_bytes_like(value, "R.f")
    assert copied == b"abc" and type(copied) is bytes


@pytest.mark.parametrize("value, name", [("abc", "str"), (3, "int"), (None, "NoneType"), ([1], "list")])
def test_bytes_like_names_the_field(value, name):
    with pytest.raises(TypeError) as error:
        rt._pb_bytes_like(value, "conf_info.label")
    assert str(error.value) == f"conf_info.label must be a bytes-like object, not {name}"
    assert error.value.__suppress_context__


def test_wrong_record_is_the_error_of_a_record_spec():
    error = rt._pb_wrong_record(3, Point, "argument 2 (p)", True)
    assert type(error) is TypeError and str(error) == "argument 2 (p) must be Point or None, not int"
    assert str(rt._pb_wrong_record(None, Point, "argument 1 (p)", False)) == "argument 1 (p) must be Point, not NoneType"
    # a class of the same name from another module (libxml2's xmlDoc given to libxslt's): named by module
    other = type("Point", (), {"__module__": "xml2"})
    assert str(rt._pb_wrong_record(other(), Point, "argument 1 (p)", True)) == \
        f"argument 1 (p) must be {Point.__module__}.Point or None, not xml2.Point"


def test_fields_refuse_deletion():
    with pytest.raises(AttributeError, match=r"^conf_point\.x cannot be deleted$"):
        rt._pb_no_delete("conf_point.x")


def test_handle_wraps_a_pointer_without_init_and_none_for_null():
    owner = object()
    handle = rt._pb_handle(Handle, 0x1000, owner)
    assert type(handle) is Handle
    assert handle._h == 0x1000 and handle._owner is owner and handle._free is None
    assert rt._pb_handle(Handle, None, owner) is None
    assert rt._pb_handle(Handle, 0, owner) is None
    assert repr(handle) == "<Handle handle at 0x1000>" and int(handle) == 0x1000
    with pytest.raises(TypeError, match=r"^Handle values are made by the library's functions$"):
        Handle()


def test_pointer_is_typed_and_compared_by_class_and_address():
    owner = object()
    p = rt._pb_pointer(0x2000, "int *", owner)
    assert type(p) is rt.Pointer and p._owner is owner
    assert repr(p) == "<Pointer int * at 0x2000>" and int(p) == 0x2000
    assert rt._pb_pointer(0, "int *", owner) is None
    assert p == rt._pb_pointer(0x2000, "void *", None) and hash(p) == hash(0x2000)
    assert p != rt._pb_handle(Handle, 0x2000, None)
    # a void * one and a handle are, as C compares them (libevent's callback argument and its event)
    assert rt._pb_pointer(0x2000, "void *", None) == rt._pb_handle(Handle, 0x2000, None)
    assert rt._pb_handle(Handle, 0x2000, None) == rt._pb_pointer(0x2000, "void *", None)
    assert rt._pb_handle(Handle, 0x2000, None) != rt._pb_pointer(0x2008, "void *", None)
    with pytest.raises(TypeError, match=r"^Pointer values are made by the library's functions$"):
        rt.Pointer()


def test_pointer_specs_take_their_type_or_void():
    ints = rt._pb_pointer(0x10, "int **", None)
    void = rt._pb_pointer(0x20, "void *", None)
    chars = rt._pb_pointer(0x30, "char **", None)
    spec = ("pointer", "argument 1 (p)", "int **", True)
    assert rt._pb_fix_value(spec, ints) is ints
    assert rt._pb_fix_value(spec, void) is void
    with pytest.raises(TypeError, match=r"^argument 1 \(p\) must be a Pointer of type int \*\* or None, not a Pointer of type char \*\*$"):
        rt._pb_fix_value(spec, chars)
    with pytest.raises(TypeError, match=r"not Handle$"):
        rt._pb_fix_value(spec, rt._pb_handle(Handle, 0x40, None))


def test_a_void_pointer_becomes_a_handle_where_one_is_taken():
    void = rt._pb_pointer(0x20, "void *", None)
    handle = rt._pb_fix_value(("record", "argument 1 (h)", Handle, True), void)
    assert type(handle) is Handle and int(handle) == 0x20 and handle._owner is void
    with pytest.raises(TypeError, match=r"^argument 1 \(h\) must be Handle or None, not Pointer$"):
        rt._pb_fix_value(("record", "argument 1 (h)", Handle, True), rt._pb_pointer(0x20, "int *", None))


def test_buffer_specs_take_pointers_of_their_type_and_records_only_for_void():
    spec = ("writable_buffer", "argument 1 (b)", 4, "int *", False, "", "")
    ints = rt._pb_pointer(0x10, "int *", None)
    assert rt._pb_fix_value(spec, ints) is ints
    with pytest.raises(TypeError, match=r"^argument 1 \(b\) must be a writable contiguous buffer or a Pointer "
                                        r"of type int \*, not a Pointer of type char \*$"):
        rt._pb_fix_value(spec, rt._pb_pointer(0x10, "char *", None))
    record = RecordObject()
    assert rt._pb_fix_value(("buffer", "b", 0, "void *", False, "", ""), record) is record
    handle = rt._pb_handle(Handle, 0x40, None)
    assert rt._pb_fix_value(("buffer", "b", 0, "void *", False, "", ""), handle) is handle


def test_missing_function_raises_attribute_error_when_called():
    missing = rt._pb_missing("/lib/x.so: the library has no symbol 'f'")
    with pytest.raises(AttributeError) as error:
        missing(1, 2, key=3)
    assert str(error.value) == "/lib/x.so: the library has no symbol 'f'"


def test_unlinked_function_names_the_symbol():
    with pytest.raises(AttributeError) as error:
        rt._pb_unlinked("vm_add")()
    assert str(error.value) == "no loaded library defines 'vm_add'"


# ---- cells and stated lengths ------------------------------------------------


class ULong(rt._pb_Cell):
    __slots__ = ()
    _pb_tag = "u8"
    _pb_size = 8

    def __init__(self, value=0):
        self._c = [value]

    @property
    def value(self):
        return self._c[0]


class UInt(ULong):
    __slots__ = ()
    _pb_tag = "u4"
    _pb_size = 4


def test_buffer_specs_take_cells_of_their_tag():
    spec = ("writable_buffer", "argument 2 (n)", 8, "unsigned long *", False, "u8", "c_ulong")
    cell = ULong(3)
    assert rt._pb_fix_value(spec, cell) is cell
    assert repr(cell) == "ULong(3)"
    with pytest.raises(TypeError, match=r"^argument 2 \(n\) must be a writable contiguous buffer or a c_ulong, not UInt$"):
        rt._pb_fix_value(spec, UInt(1))
    with pytest.raises(TypeError, match=r"^argument 2 \(n\) must be a writable contiguous buffer or a c_ulong, not int$"):
        rt._pb_fix_value(spec, 5)
    # a cell of the name wanted, of another module (lcms2's c_int given to mpg123's): named by module
    other = type("c_ulong", (), {"__module__": "lcms"})
    with pytest.raises(TypeError, match=r"^argument 2 \(n\) must be a writable contiguous buffer or a "
                                        r"pegbind.runtime.pyffi.c_ulong, not lcms.c_ulong$"):
        rt._pb_fix_value(spec, other())
    # a parameter that takes no cell refuses one as it refuses any other object
    with pytest.raises(TypeError, match=r"^argument 2 \(n\) must be a writable contiguous buffer, not ULong$"):
        rt._pb_fix_value(("writable_buffer", "argument 2 (n)", 8, "", False, "", ""), cell)


def test_capacity_counts_items_of_what_a_buffer_holds():
    assert rt._pb_capacity(b"abcd", 1) == 4
    assert rt._pb_capacity(bytearray(9), 4) == 2
    assert rt._pb_capacity("h\u00e9", 1) == 3  # what C reads: the UTF-8 bytes
    assert rt._pb_capacity(ULong(), 1) == 8 and rt._pb_capacity(ULong(), 8) == 1
    assert rt._pb_capacity(None, 1) == 0  # NULL holds nothing
    assert rt._pb_capacity(rt._pb_pointer(0x10, "int *", None), 4) == -1
    assert rt._pb_capacity(SizedRecord(), 1) == 8 and rt._pb_capacity(SizedRecord(), 4) == 2  # its size


class SizedRecord(rt._pb_Record):
    __slots__ = ()
    sizeof = 8

# ---- the records section: what record classes check for pointer members ------


def test_the_records_section_is_pasted_after_the_checks_and_needs_only_them():
    sections = runtime_sections("pyffi")
    text = sections["records"]
    assert text.startswith("# ---- runtime: what record classes check and keep for their pointer members")
    assert make_environment().globals["ffi_runtime"]["records"] == text
    namespace: dict = {}
    head = "import operator as _operator\n" + "\n".join(sections[name] for name in ("conversions", "argument_checks",
                                                                                   "checks"))
    exec(compile(head + "\n" + text, "pyffi", "exec"), namespace)  # noqa: S102
    assert namespace["_pb_until_nul"](b"ab\0c") == b"ab"


def test_field_owner_keeps_the_record_and_what_it_holds_for_the_member():
    root, kept = object(), object()
    assert rt._pb_field_owner(root, None) is root
    assert rt._pb_field_owner(root, kept) == (root, kept)


def test_until_nul_cuts_at_the_first_nul():
    assert rt._pb_until_nul(b"abc") == b"abc"
    assert rt._pb_until_nul(b"a\0b\0") == b"a"
    assert rt._pb_until_nul(b"") == b""


def test_text_value_encodes_str_and_copies_read_only_memory_where_c_writes():
    data = b"text"
    assert rt._pb_text_value(data, "r.f", False) is data
    assert rt._pb_text_value("h\u00e9", "r.f", False) == "h\u00e9".encode()
    copy = rt._pb_text_value(data, "r.f", True)
    assert type(copy) is bytearray and copy == data
    shared = bytearray(b"abc")
    assert rt._pb_text_value(shared, "r.f", True) is shared  # writable memory is C's to write
    readonly = memoryview(b"xyz")
    assert rt._pb_text_value(readonly, "r.f", False) is readonly
    assert type(rt._pb_text_value(array.array("b", [1]), "r.f", True)) is array.array


@pytest.mark.parametrize(
    "value, error, message",
    [
        (5, TypeError, "r.f must be str, bytes, a buffer or None, not int"),
        (memoryview(bytearray(8))[::2], TypeError, "r.f must be str, bytes, a buffer or None, not memoryview"),
        ("a\0b", ValueError, "r.f must not contain a NUL character"),
    ],
)
def test_text_value_refuses_with_the_cython_message(value, error, message):
    with pytest.raises(error) as raised:
        rt._pb_text_value(value, "r.f", False)
    assert str(raised.value) == message


def test_record_value_takes_its_class_or_none():
    rt._pb_record_value(None, RecordObject, "r.next")
    rt._pb_record_value(RecordObject(), RecordObject, "r.next")
    with pytest.raises(TypeError) as raised:
        rt._pb_record_value(3, RecordObject, "r.next")
    assert str(raised.value) == "r.next must be a RecordObject or None, not int"


def test_handle_value_takes_its_class_a_void_pointer_or_none():
    handle = rt._pb_handle(Handle, 0x10, None)
    rt._pb_handle_value(None, Handle, "r.h")
    rt._pb_handle_value(handle, Handle, "r.h")
    rt._pb_handle_value(rt._pb_pointer(0x20, "void *", None), Handle, "r.h")  # C converts void *
    for value, name in ((rt._pb_pointer(0x20, "int *", None), "Pointer"), (0x10, "int")):
        with pytest.raises(TypeError) as raised:
            rt._pb_handle_value(value, Handle, "r.h")
        assert str(raised.value) == f"r.h must be a Handle or None, not {name}"


def test_record_classes_keep_object_attribute_assignment():
    # A __delattr__ written in Python would take over every assignment too
    # (slot_tp_setattro): a wrapper filling in a new out record would pay
    # about 70 ns a call.  Fields refuse deletion through their properties.
    for cls in (rt._pb_Record, rt._pb_Owner):
        assert "__delattr__" not in vars(cls) and "__setattr__" not in vars(cls)

    class Probe(rt._pb_Record):
        __slots__ = ("_v",)
        x = property(lambda self: self._v).deleter(rt._pb_undeletable("Probe.x"))

    probe = Probe()
    with pytest.raises(AttributeError, match=r"^Probe\.x cannot be deleted$"):
        del probe.x


def test_an_index_or_a_slice_of_a_pointer_is_where_c_would_read():
    assert rt._pb_element_range(2, "int *") == (2, 1, True)
    assert rt._pb_element_range(-1, "int *") == (-1, 1, True)  # as in C: the element before
    assert rt._pb_element_range(slice(None, 3), "int *") == (0, 3, False)
    assert rt._pb_element_range(slice(2, 5, 1), "int *") == (2, 3, False)
    assert rt._pb_element_range(slice(5, 2), "int *") == (5, 0, False)
    with pytest.raises(ValueError, match=r"^a slice of a Pointer of type int \* needs its end: "):
        rt._pb_element_range(slice(1, None), "int *")
    with pytest.raises(ValueError, match=r"^a slice of a Pointer of type int \* takes no step$"):
        rt._pb_element_range(slice(0, 4, 2), "int *")
    with pytest.raises(TypeError, match=r"^a Pointer index must be an integer, not float$"):
        rt._pb_element_range(1.0, "int *")
    with pytest.raises(OverflowError, match=r"^a Pointer index: "):
        rt._pb_element_range(1 << 70, "int *")


def test_what_a_callable_raises_waits_for_the_call_or_goes_to_the_unraisable_hook(monkeypatch):
    reported = []
    monkeypatch.setattr("sys.unraisablehook", lambda unraisable: reported.append(unraisable.exc_value))
    first, second = KeyError("first"), KeyError("second")
    rt._pb_callback_failed(first)  # this test runs beneath: the exception waits for the call
    rt._pb_callback_failed(second)  # the first one is what the call raises
    with pytest.raises(KeyError) as raised:
        rt._pb_raise_kept()
    assert raised.value is first and reported == [] and rt._pb_pending == {}
    rt._pb_raise_kept()  # nothing pending any more
    # (with no Python beneath, on a thread C started, it is reported: tests/test_c_apis.py)


def test_a_kept_exception_the_fast_path_catches_is_raised_on_not_retried():
    retry = (TypeError, OverflowError)
    kept = TypeError("raised by a callable")
    rt._pb_callback_failed(kept)
    try:
        rt._pb_raise_kept(retry)  # as a ctypes or cffi wrapper's fast path raises it
    except retry as caught:
        with pytest.raises(TypeError) as raised:
            rt._pb_not_kept(caught)  # its handler: C ran, so it is raised on
        assert raised.value is kept
    assert rt._pb_raising == {}  # nothing stays noted
    rt._pb_not_kept(TypeError("an argument the FFI refused"))  # not kept: the handler retries
    rt._pb_callback_failed(KeyError("not a retry's"))
    with pytest.raises(KeyError):
        rt._pb_raise_kept(retry)
    assert rt._pb_raising == {}  # one the handler does not take is not noted


def test_the_slot_a_kept_callable_goes_in_is_named_by_the_values_of_the_call():
    # buffers given for a name count by their bytes, so that the slot can be a dictionary key
    assert rt._pb_slot("f 2", 3, "add") == ("f 2", 3, "add")
    assert rt._pb_slot("f 2", 1, bytearray(b"n"), memoryview(bytearray(b"w"))) == ("f 2", 1, b"n", b"w")
    assert hash(rt._pb_slot("f 2", memoryview(bytearray(b"w")))) == hash(("f 2", b"w"))


def test_what_items_a_buffer_holds_is_checked_against_what_c_reads():
    # an array("i") for a double *, a numpy ">f8" array on a little-endian machine: C read other bits
    native, other = ("<", ">") if sys.byteorder == "little" else (">", "<")
    assert rt._pb_items_match("d", 8, "f8") and rt._pb_items_match(native + "d", 8, "f8")
    assert not rt._pb_items_match(other + "d", 8, "f8") and not rt._pb_items_match("!d", 8, "f8")
    assert not rt._pb_items_match("i", 4, "f8") and not rt._pb_items_match("q", 8, "f8")
    assert rt._pb_items_match("I", 4, "i4") and rt._pb_items_match("l", 8, "u8")  # either sign
    assert not rt._pb_items_match("h", 2, "i4")
    # bytes, structs and what C reads as bytes, or of no cell, are memory of any type
    for fmt, size, tag in (("B", 1, "f8"), ("c", 1, "i4"), ("dd", 16, "f8"), ("T{d:x:}", 8, "f8"),
                           ("d", 8, "u1"), ("d", 8, "*"), ("d", 8, ""), ("i", 4, "f16")):
        assert rt._pb_items_match(fmt, size, tag), (fmt, tag)
