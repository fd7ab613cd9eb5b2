"""C APIs as real libraries write them, bound with nothing but ``-l``: the user's side.

tests/capi/capi.h is a small library in the style of SQLite, libcurl and
libxml2: handles the library makes (an opaque struct, a typedef of void),
records returned by pointer and linked to each other, handles given back
through ``T **``, strings in and out, pointers to pointers.  It is built once
per backend with ``pegbind build capi.h -l capi`` and called as a user would;
every test runs against every backend.
"""
from __future__ import annotations

import array
import copy
import gc
import os
import pickle
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from conftest import UNOPTIMISED, compile_library, import_from, one_worker_each, run_pegbind

pytestmark = pytest.mark.slow

BACKENDS = ("cython", "cffi", "ctypes")


@pytest.fixture(scope="session")
def capi_library(tmp_path_factory, repo_root):
    folder = tmp_path_factory.mktemp("libcapi")
    compile_library([repo_root / "tests" / "capi" / "capi.c"], folder / "libcapi.so", "-Wall", "-Werror")
    return folder


@pytest.fixture(scope="session", params=one_worker_each("c_apis"))
def capi(request, capi_library, tmp_path_factory, repo_root):
    backend = request.param
    out = tmp_path_factory.mktemp(f"capi-{backend}")
    name = f"capi_{backend}"
    result = run_pegbind("build", str(repo_root / "tests" / "capi" / "capi.h"), "-l", "capi", "-L", str(capi_library),
                         "--backend", backend, "--name", name, "-o", str(out), env=UNOPTIMISED)
    assert result.returncode == 0, result.stderr
    assert "capi.h" not in result.stderr, result.stderr  # nothing of the header is left out
    return import_from(out, name)


# ---- handles: opaque types the library makes and takes back ------------------

def test_a_typedef_of_void_is_a_handle_class(capi):
    easy = capi.capi_easy_init()
    assert type(easy) is capi.CAPI_EASY and isinstance(easy, capi.Pointer)
    assert repr(easy) == f"<CAPI_EASY handle at {int(easy):#x}>"
    for copy_it in (copy.copy, pickle.dumps):  # an address means nothing in a copy or another process
        with pytest.raises(TypeError, match=r"^cannot pickle or copy CAPI_EASY objects$"):
            copy_it(easy)
    assert capi.capi_easy_perform(easy) == 0
    assert easy == capi.capi_easy_init() and hash(easy) == hash(capi.capi_easy_init())
    capi.capi_easy_cleanup(easy)


def test_handles_of_two_opaque_types_are_not_mixed_up(capi):
    multi = capi.capi_multi_init()
    with pytest.raises(TypeError, match=r"^argument 1 \(easy\) must be CAPI_EASY or None, not CAPI_MULTI$"):
        capi.capi_easy_perform(multi)
    with pytest.raises(TypeError, match=r"^argument 1 \(easy\) must be CAPI_EASY or None, not int$"):
        capi.capi_easy_perform(int(multi))
    with pytest.raises(TypeError, match=r"^CAPI_EASY values are made by the library's functions$"):
        capi.CAPI_EASY()


def test_a_typedef_of_a_void_pointer_the_library_hands_out_is_a_handle_class(capi):
    session = capi.capi_session_new(41)
    assert type(session) is capi.capi_session and isinstance(session, capi.Pointer)
    assert repr(session) == f"<capi_session handle at {int(session):#x}>"
    assert capi.capi_session_value(session) == 41 and capi.capi_session_value(None) == -1
    # memory that is no session would be read as one: only what the library gave is taken
    for wrong, name in ((bytearray(8), "bytearray"), (b"12345678", "bytes"), (capi.c_int(3), "c_int"),
                        (capi.capi_easy_init(), "CAPI_EASY"), (int(session), "int")):
        with pytest.raises(TypeError, match=rf"^argument 1 \(session\) must be capi_session or None, not {name}$"):
            capi.capi_session_value(wrong)
    status, again = capi.capi_session_reopen(session)  # given back through a pointer: an out-parameter
    assert status == 0 and type(again) is capi.capi_session and capi.capi_session_value(again) == 42
    slot = capi.capi_session_slot(session=again)
    assert slot.session == again and type(slot.session) is capi.capi_session
    with pytest.raises(TypeError, match=r"^capi_session_slot\.session must be a capi_session or None, not bytearray$"):
        slot.session = bytearray(8)
    assert capi.capi_session.__doc__ == "A capi_session, which functions of the library return and take."
    capi.capi_session_free(again)
    capi.capi_session_free(session)
    # a typedef of void * the library only takes is data, as void * is
    assert not hasattr(capi, "capi_bytes") and capi.capi_bytes_sum(bytearray(b"\x01\x02\x03"), 3) == 6


def test_an_out_handle_comes_back_with_the_return_value(capi):
    status, db = capi.capi_db_open("main")
    assert status == 0 and type(db) is capi.capi_db
    assert capi.capi_db_name(db) == b"main"
    assert capi.capi_db_close(db) == 1
    assert capi.capi_db_open(None) == (1, None)  # NULL comes back as None


# ---- untyped memory -------------------------------------------------------------

def test_void_pointers_are_typed_pointer_objects_taken_back_where_void_is(capi):
    memory = capi.capi_alloc(24)
    assert type(memory) is capi.Pointer
    assert repr(memory) == f"<Pointer void * at {int(memory):#x}>"
    assert capi.capi_used(memory) == 24
    capi.capi_release(memory)
    assert capi.capi_used(None) == 0


def test_a_void_pointer_is_taken_where_a_handle_is(capi):
    # C converts a void * to any object pointer
    status, memory = capi.capi_void_out()
    assert status == 1 and type(memory) is capi.Pointer
    assert capi.capi_easy_perform(memory) == -1  # not the library's handle, but taken as C takes it


def test_handles_records_and_buffers_are_taken_where_void_is(capi):
    assert capi.capi_first_byte(capi.capi_node(value=7)) == 7  # the record's memory
    assert capi.capi_first_byte(capi.capi_tree()) == 1  # a view: the library's memory
    assert capi.capi_first_byte(b"\x09") == 9
    assert capi.capi_first_byte(None) == -1
    assert capi.capi_first_byte(capi.capi_easy_init()) == 0  # the library's static int
    with pytest.raises(TypeError, match=r"^argument 1 \(object_\) must be a contiguous buffer or a cell, not int$"):
        capi.capi_first_byte(7)


# ---- records the library owns ---------------------------------------------------

def test_returned_record_pointers_are_views_of_the_library_memory(capi):
    root = capi.capi_tree()
    assert type(root) is capi.capi_node and root.value == 1
    found = capi.capi_find(root, "b")
    assert found.value == 3
    assert capi.capi_find(root, "zzz") is None
    assert capi.capi_count(found) == 2
    root.value = 100  # a view: the library sees the write
    assert capi.capi_tree().value == 100
    root.value = 1


def test_records_are_equal_when_they_are_one_c_object(capi):
    # as C's == of two pointers: a callback can tell which of the user's records it was given
    root, again = capi.capi_tree(), capi.capi_tree()
    assert again is not root and again == root and hash(again) == hash(root)
    found = capi.capi_find(root, "b")
    assert found != root and found == capi.capi_find(again, "b") and len({root, again, found}) == 2
    own = capi.capi_node(value=1)
    assert own == own and capi.capi_node.from_pointer(own) == own
    assert hash(capi.capi_node.from_pointer(own)) == hash(own)
    assert own != capi.capi_node(value=1)  # equal bytes, two objects of C
    assert own != capi.capi_pair() and (own == 1) is False  # another class is another object


# ---- strings --------------------------------------------------------------------

def test_str_goes_in_as_utf8_where_c_reads_characters(capi):
    assert capi.capi_strlen("h\u00e9") == 3
    assert capi.capi_strlen(b"abc") == 3
    assert capi.capi_ulen("xyz") == 3  # const unsigned char *, as libxml2's xmlChar


def test_text_c_gives_back_inside_the_text_it_was_given_is_read_before_that_goes(capi):
    # a str's UTF-8 copy was freed before the wrapper read what C gave back pointing into it:
    # cJSON_ParseWithOpts's end came back b'' (cffi) or corrupted (ctypes)
    text = "abc" + "d" * 200  # not a small object a later one could reuse unnoticed
    assert capi.capi_rest(text, 2) == text[2:].encode()
    assert capi.capi_rest_into(text, 3) == (3, text[3:].encode())
    assert capi.capi_rest_into(bytearray(b"xyz"), 1) == (1, b"yz")


def test_a_length_of_all_ones_the_library_names_reads_to_the_nul(capi):
    # pcre2_compile("a+b", PCRE2_ZERO_TERMINATED, ...): the library defines the value, of its
    # lengths' type, and the buffers that end with a NUL may be given it
    everything = capi.CAPI_ZERO_TERMINATED
    assert everything == 2**32 - 1
    assert capi.capi_text_length(b"abc", everything) == 3
    assert capi.capi_text_length(bytearray(b"ab"), everything) == 2
    assert capi.capi_text_length("h\u00e9", everything) == 3
    assert capi.capi_text_length(b"abc", 2) == 2
    with pytest.raises(ValueError, match=r"^argument 2 \(length\): 4 is more than argument 1 \(text\) holds \(3 bytes\)$"):
        capi.capi_text_length(b"abc", 4)
    with pytest.raises(ValueError, match=r"^argument 2 \(length\): 4294967295 is more than argument 1 \(text\) holds "
                                         r"\(3 bytes\)$"):
        capi.capi_text_length(memoryview(b"abc"), everything)  # no NUL after it
    with pytest.raises(ValueError, match=r"^argument 2 \(size\): 18446744073709551615 is more than argument 1 "
                                         r"\(data\) holds \(2 bytes\)$"):
        capi.capi_bytes_sum(bytearray(b"\x01\x02"), 2**64 - 1)  # no constant says so of a size_t
    assert capi.capi_strlen(capi.CAPI_VERSION) == 5  # the module's own string constant goes back
    with pytest.raises(ValueError, match=r"^argument 1 \(s\) must not contain a NUL character$"):
        capi.capi_strlen("a\0b")
    # told how many to read (json_stringn, yajl_gen_string), C reads NULs too: a str may hold them
    assert capi.capi_text_length("a\0b", 3) == 3
    assert capi.capi_nuls("a\0b\0", 4) == 2 and capi.capi_nuls("\0\0", 1) == 1


def test_char_pointer_out_parameters_give_bytes(capi):
    assert capi.capi_greet("ann") == (10, b"hello, ann")
    assert capi.capi_lookup("color") == (1, b"blue")
    assert capi.capi_lookup("size") == (0, None)


# ---- other pointers -------------------------------------------------------------

def test_other_pointers_are_pointer_objects_of_their_c_type(capi):
    table = capi.capi_table()
    assert type(table) is capi.Pointer and repr(table).startswith("<Pointer int * at ")
    assert capi.capi_table_at(table, 2) == 30
    rows = capi.capi_rows()
    assert repr(rows).startswith("<Pointer int ** at ")
    assert capi.capi_row_sum(rows, 1) == 15
    with pytest.raises(TypeError, match=r"^argument 1 \(rows\) must be a Pointer of type int \*\* or None, not a Pointer of type int \*$"):
        capi.capi_row_sum(table, 0)
    with pytest.raises(TypeError, match=r"^argument 1 \(rows\) must be a Pointer of type int \*\* or None, not int$"):
        capi.capi_row_sum(int(rows), 0)


def test_the_elements_of_pointers_read_as_c_reads_them(capi):
    table = capi.capi_table()  # {10, 20, 30}
    assert (table[0], table[2]) == (10, 30)
    assert table[1:3] == [20, 30] and table[:2] == [10, 20] and table[2:2] == [] and table[3:1] == []
    assert capi.capi_names()[:3] == [b"alpha", None, b"gamma"] and capi.capi_names()[2] == b"gamma"
    assert capi.capi_reals()[:3] == [1.5, -2.25, 1e300]
    colors = capi.capi_palette()[:3]
    assert colors == [capi.CAPI_GREEN, capi.CAPI_RED, 3] and type(colors[0]) is capi.capi_color and type(colors[2]) is int
    assert capi.capi_switches()[:3] == [True, False, True]


def test_pointers_to_records_and_handles_read_as_views_and_handles(capi):
    # as libxml2's XPath results, nodeset.nodeTab[:nodeset.nodeNr]: a Pointer of type T ** had
    # no elements Python could read, so the nodes an XPath query found were out of reach
    listing = capi.capi_listing_get()
    first, second, none = listing.items[:listing.count]
    assert type(first) is capi.capi_pair and (first.first, second.second, none) == (1, 4, None)
    assert listing.items[1].first == 3
    db, gone = listing.dbs[:2]
    assert type(db) is capi.capi_db and gone is None and capi.capi_db_name(db) == b":listing:"


def test_lengths_and_counts_are_read_as_real_headers_name_them(capi):
    # one record the library makes and a bound for it: the bound was taken for the record's
    # count, so only capi_rng_below([r]) could be called, and C got 1
    assert capi.capi_rng_below(capi.capi_rng_new(), 100) == 99
    # a size before doubles counts doubles: 8 times as many as the buffer held got through
    values = array.array("d", [0.0] * 4)
    assert capi.capi_fill_doubles(0.5, 4, values) == 0 and list(values) == [0.5, 1.5, 2.5, 3.5]
    with pytest.raises(ValueError, match=r"^argument 2 \(size\): 5 is more than argument 3 \(v\) holds \(4 items\)"):
        capi.capi_fill_doubles(0.5, 5, values)
    # two sizes C writes: the second was read as the first's length, so cells used once were refused
    addr, size = capi.c_size_t(), capi.c_size_t()
    for _ in range(2):
        assert capi.capi_get_sizes(3, addr, size) == 3 and (addr.value, size.value) == (8, 16)
    counts = array.array("I", [7, 7, 7])
    for _ in range(2):
        capi.capi_multinomial(2, 10, array.array("d", [0.5, 0.25]), counts)
    assert list(counts) == [5, 2, 7]
    pairs = [capi.capi_pair(first=1), capi.capi_pair(first=2), capi.capi_pair(first=3)]
    # records after a count named for them, or before their own name's length: C read that many
    # from the one record taken, and a list was refused
    assert capi.capi_args_sum(pairs) == 6 and capi.capi_variations_sum(pairs[:2]) == 3
    # a record a function returns an array of is no one object: its count after it is its
    assert capi.capi_pairs_total([capi.capi_pair(second=2), capi.capi_pair(second=5)]) == 7
    sizes, count = array.array("L", [0] * 3), capi.c_uint(3)  # size_t
    assert capi.capi_get_size_list(count, sizes) == 5 and list(sizes) == [0, 8, 16]
    with pytest.raises(ValueError, match=r"more than argument 2 \(sizes\) holds"):
        capi.capi_get_size_list(capi.c_uint(4), sizes)
    # a count in a cell before the numbers it counts: C wrote as many as it said past a short list
    tags, count = array.array("I", [0] * 3), capi.c_uint(3)
    assert capi.capi_get_tags(1, count, tags) == 5 and count.value == 3 and list(tags) == [101, 102, 103]
    with pytest.raises(ValueError, match=r"more than argument 3 \(table_tags\) holds"):
        capi.capi_get_tags(0, capi.c_uint(4), tags)
    # a negative count of numbers C writes: C took it for a huge size and wrote on (a crash)
    filled = array.array("i", [9] * 4)
    assert capi.capi_fill_ints(filled, 3) == 3 and list(filled) == [0, 1, 2, 9]
    with pytest.raises(ValueError) as raised:
        capi.capi_fill_ints(filled, -1)
    assert str(raised.value) == "argument 2 (count): -1 is no length of argument 1 (values), which C writes"
    # characters given back with their length in a cell ending in _p: all of them, NULs too
    length = capi.c_int()
    assert capi.capi_marshal(1, length) == (1, b"a\0b\0c") and length.value == 5
    # numbers given back through a T ** named so: the only call there was passed None, and C
    # wrote through it
    count, syms = capi.capi_get_syms(1)
    assert count == 3 and syms[:count] == [7, 8, 9]
    # a record's contents and length: that many bytes, not up to the first NUL
    key = capi.capi_keyblock()
    capi.capi_keyblock_fill(key)
    assert key.contents == b"\x01\x00\x02\x03"


def test_a_pointer_to_pointers_the_library_hands_out_by_a_typedef_is_taken_as_it_is(capi):
    # OpenLDAP's LDAPDN: ldap_dn2str(dn, ...) and ldap_dnfree(dn) took no DN, as if each were
    # an out-parameter, and ldap_rdnfree(None) had C free the wrapper's own cell
    pairs = capi.capi_pairs_make(3)
    assert repr(pairs).startswith("<Pointer struct capi_pair ** at ") and pairs[2].second == 4
    assert capi.capi_pairs_sum(pairs) == (3, b"3")
    assert capi.capi_pairs_sum(None) == (0, b"0")
    capi.capi_pairs_free(None)
    capi.capi_pairs_free(pairs)
    with pytest.raises(TypeError):
        capi.capi_pairs_free(capi.capi_pair())


def test_none_is_refused_where_c_says_never_null_in_a_static_array_or_after_a_results_star(capi):
    # both went to C as NULL, which it wrote to or read from (a segfault)
    with pytest.raises(TypeError) as raised:
        capi.capi_static_fill(None)
    assert str(raised.value) == "argument 1 (s) must not be None"
    with pytest.raises(TypeError) as raised:
        capi.capi_first_word(None)
    assert str(raised.value) == "argument 1 (s) must not be None"
    buffer = bytearray(4)
    assert capi.capi_static_fill(buffer) == 3 and buffer == bytearray(b"abc\0")
    with pytest.raises(ValueError, match="4"):  # at least the 4 it states
        capi.capi_static_fill(bytearray(3))
    assert capi.capi_first_word("word") == b"word"
    # an array of pointers declared [static 2]: the stars are its elements'
    with pytest.raises(TypeError) as raised:
        capi.capi_static_words(None)
    assert str(raised.value) == "argument 1 (words) must not be None"


def test_arrays_of_arrays_and_of_pointers_in_a_record_read_as_pointers_to_their_first_element(capi):
    # as C's sheet.cells decays to int (*)[4]: such members were left out with a warning, so a
    # matrix's rows and a record's lists of strings or rows were out of reach
    sheet = capi.capi_sheet()
    capi.capi_sheet_fill(sheet)
    cells = sheet.cells
    assert repr(cells).startswith("<Pointer int (*)[4] at ")
    assert [row[:4] for row in cells] == [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]
    assert list(cells[2]) == [20, 21, 22, 23] and 13 in cells[1]
    cells[1][2] = 100  # the numbers are written through it, as C's sheet.cells[1][2] = 100
    # (after a const array of the same type, which is read as C reads it)
    assert [row[:4] for row in sheet.limits] == [[0] * 4, [0] * 4]
    assert capi.capi_sheet_sum(sheet) == 6 + (10 + 11 + 100 + 13) + 86
    assert [bytes(name).split(b"\0")[0] for name in sheet.names] == [b"ab", b"", b"xyz"]
    assert list(sheet.labels) == [b"red", None, b"blue"] and sheet.labels[2] == b"blue"
    assert sheet.rows[0][:3] == [1, 2, 3] and sheet.rows[1] is None
    db, none = sheet.dbs
    assert capi.capi_db_name(db) == b"sheet" and none is None
    # bounded by the array's length, as a callback's buffer with its size is
    with pytest.raises(IndexError, match=r"^index 3 is outside the 3 elements C gave with this Pointer of type "
                                         r"int \(\*\)\[4\]$"):
        cells[3]
    with pytest.raises(IndexError, match="index 4 is outside the 4 elements"):
        cells[0][4]
    # C assigns no array as a whole, nor one of its arrays
    message = ("capi_sheet.cells is an array, which C does not assign as a whole: it reads as a Pointer "
               "to its first element, through which numbers are written")
    with pytest.raises(TypeError) as raised:
        sheet.cells = [[1, 2, 3, 4]]
    assert str(raised.value) == message
    with pytest.raises(TypeError) as raised:
        capi.capi_sheet(cells=[])
    assert str(raised.value) == message
    with pytest.raises(TypeError, match=r"^the elements of a Pointer of type int \(\*\)\[4\] cannot be set"):
        cells[0] = [1, 2, 3, 4]
    # what is read keeps the record's memory alive
    rows = capi.capi_sheet().cells
    gc.collect()
    rows[2][3] = 7
    assert rows[2][:4] == [0, 0, 0, 7]


def test_a_void_pointer_reads_the_bytes_c_handed_over(capi):
    # as sqlite3_column_blob(stmt, i)[:sqlite3_column_bytes(stmt, i)] and an MDB_val's
    # mv_data[:mv_size]: a void * Pointer had no elements, so such data was out of reach
    size = capi.c_size_t()
    blob = capi.capi_blob(size)
    assert repr(blob).startswith("<Pointer void * at ") and size.value == 4
    assert blob[:size.value] == b"\x00\x01\xff\x7f" and blob[2] == 255 and blob[1:2] == b"\x01"


def test_what_pointers_cannot_read_is_refused_in_the_same_words(capi):
    table = capi.capi_table()
    with pytest.raises(ValueError, match=r"^a slice of a Pointer of type int \* needs its end: C does not say how many elements there are$"):
        table[1:]
    with pytest.raises(ValueError, match=r"^a slice of a Pointer of type int \* takes no step$"):
        table[0:4:2]
    with pytest.raises(TypeError, match=r"^a Pointer index must be an integer, not str$"):
        table["1"]
    with pytest.raises(TypeError, match=r"^capi_db is a handle of an opaque type: it has no elements to read$"):
        capi.capi_db_open(":memory:")[1][0]
    rows = capi.capi_rows()  # int **: its elements are Pointers, read but not set
    assert repr(rows[0]).startswith("<Pointer int * at ")
    with pytest.raises(TypeError, match=r"^the elements of a Pointer of type int \*\* cannot be set from Python$"):
        rows[0] = 1
    with pytest.raises(TypeError, match=r"^capi_db is a handle of an opaque type: it has no elements to write$"):
        capi.capi_db_open(":memory:")[1][0] = 1


# ---- callables where C takes a function pointer ---------------------------------

def test_a_callable_is_called_by_c_with_its_arguments_converted(capi):
    assert capi.capi_apply(lambda value, user: value * 2, None, 20) == 41
    assert capi.capi_apply(None, None, 3) == -1  # None is NULL
    memory = capi.capi_alloc(8)
    seen = []
    capi.capi_apply(lambda value, user: seen.append((value, user)) or 0, memory, 5)
    assert seen == [(5, memory)] and type(seen[0][1]) is capi.Pointer  # a void * arrives as a Pointer
    assert capi.capi_recolor(lambda c: capi.CAPI_BLUE if c == capi.CAPI_RED else c, capi.CAPI_RED) is capi.CAPI_BLUE
    assert type(capi.capi_recolor(lambda c: c, capi.CAPI_GREEN)) is capi.capi_color  # members in and out


def test_a_parameter_of_function_type_takes_a_callable(capi):
    # int capi_step_twice(capi_step step, int x), capi_step a typedef of a function type, not of
    # a pointer: C adjusts the parameter to a pointer to the function, as an array to a pointer
    assert capi.capi_step_twice(lambda value: value * 3, 2) == 18
    assert capi.capi_step_twice(None, 2) == -1
    made = capi.capi_step(lambda value: value - 1)  # the typedef's class, as a function pointer typedef's
    assert capi.capi_step_twice(made, 5) == 3 and capi.capi_step_thrice(made, 5, 2.0) == 4.0
    assert capi.capi_step_thrice(lambda value: value + 1, 2, 0.5) == 2.5
    with pytest.raises(ZeroDivisionError):
        capi.capi_step_twice(lambda value: 1 // 0, 2)
    assert "Callable[[int], int]" in capi.capi_step_twice.__doc__.splitlines()[0]


def test_a_function_pointer_c_gives_back_is_a_function_pointer(capi):
    # capi_step *capi_pick_step(int which): a C function, passed back to C as it is
    doubled, negated = capi.capi_pick_step(1), capi.capi_pick_step(2)
    assert type(doubled) is capi.FunctionPointer and doubled != negated and doubled == capi.capi_pick_step(1)
    assert capi.capi_step_twice(doubled, 3) == 12 and capi.capi_step_twice(negated, 3) == 3
    assert capi.capi_pick_step(0) is None
    assert "int (*)(int)" in repr(doubled)
    assert capi.capi_pick_step.__doc__.splitlines()[0].endswith("-> FunctionPointer | None")


def test_a_callable_given_a_record_pointer_gets_a_view_that_writes_through(capi):
    seen = []

    def visit(mark):
        seen.append((type(mark), mark.line, mark.column))
        mark.column = 9
        return mark.line

    assert capi.capi_with_mark(visit, 4) == 4009
    assert seen == [(capi.capi_mark, 4, 5)]


def test_characters_a_callable_is_told_the_length_of_are_data(capi):
    got = []

    def sink(data, size, user):  # a char *, not const: data of that size, NULs and all
        got.append((type(data), data[:size], data[0], data[1:2]))
        return size

    assert capi.capi_feed(sink, None) == 5
    assert got == [(capi.Pointer, b"ab\x00cd", 97, b"b")]


def test_a_user_data_pointer_given_goes_to_c_as_it_is(capi):
    # libevent's event_new(base, fd, what, cb, event_self_cbarg()): C tells the marker apart and
    # gives the callback the event; the Cython module put its own context there instead
    got = []
    alarm = capi.capi_alarm_new(lambda what, arg: got.append((what, arg)), capi.capi_alarm_self())
    capi.capi_alarm_fire(alarm, 7)
    assert got == [(7, got[0][1])] and int(got[0][1]) == int(alarm) == int(capi.capi_alarm_arg(alarm))
    # a void * Pointer and a handle at one address are equal, as C compares them
    assert got[0][1] == alarm and alarm == got[0][1] and hash(alarm) == hash(got[0][1])
    assert got[0][1] != capi.capi_alarm_self() and alarm != capi.capi_alarm_self()
    data = bytearray(b"ctx")  # any other pointer goes as it is too, and comes back as that address
    other = capi.capi_alarm_new(lambda what, arg: got.append((what, bytes(arg[:3]))), data)
    capi.capi_alarm_fire(other, 8)
    assert got[1] == (8, b"ctx") and capi.capi_alarm_arg(other)[:3] == b"ctx"
    capi.capi_alarm_free(alarm)
    capi.capi_alarm_free(other)


def test_uint8_t_given_back_is_data_read_by_its_length(capi):
    # libwebp's WebPEncodeRGB(rgb, ..., uint8_t **output): read as text to the first NUL, the
    # encoded image came back as b"RIFFj", and nothing could free it
    size, out = capi.capi_encode(b"x", 1)
    assert (size, type(out)) == (6, capi.Pointer) and out[:size] == b"AB\x00CDE"
    assert capi.capi_used(out) == 6
    capi.capi_release(out)


def test_a_pointer_to_arrays_of_numbers_takes_a_buffer_of_them(capi):
    # FFTW's fftw_plan_dft_1d(n, fftw_complex *in, fftw_complex *out, ...), fftw_complex a double[2]:
    # only a Pointer was taken, so its main job needed the library's own allocator
    values = array.array("d", [1, 2, 3, 4])
    assert capi.capi_cplx_sum(2, values) == 46 and capi.capi_cplx_sum(2, bytes(values)) == 46  # const: any
    capi.capi_cplx_scale(2, values, 2.0)
    assert list(values) == [2, 4, 6, 8]
    with pytest.raises(ValueError, match=r"^argument 1 \(n\): 3 is more than argument 2 \(v\) holds \(2 items\)$"):
        capi.capi_cplx_sum(3, values)  # items of two doubles
    with pytest.raises(TypeError, match=r"^argument 2 \(v\) must be a writable contiguous buffer"):
        capi.capi_cplx_scale(1, bytes(16), 2.0)
    # a variable length array's rows have no size a buffer could be counted in: a Pointer only,
    # which the modules declare (Cython could not: it did not compile, nor did cffi's cast)
    with pytest.raises(TypeError, match=r"^argument 3 \(m\) must be a Pointer of type double \(\*\)\[\] or None, "
                                        r"not array$"):
        capi.capi_matrix_sum(2, 3, array.array("d", [1, 1, 1, 1, 1, 2]))
    assert capi.capi_matrix_sum(0, 3, None) == 0


def test_a_buffer_a_callable_is_given_with_its_size_holds_no_more(capi):
    # the callable wrote past the 16 bytes C gave (libyaml's reader, the README's pattern):
    # the library's heap was overwritten (a segfault, or glibc's "corrupted double-linked list")
    def fill(buffer, size):
        buffer[:size] = b"\x01" * size
        beyond = r"^index %d is outside the 16 elements C gave with this Pointer of type unsigned char \*$"
        with pytest.raises(IndexError, match=beyond % 16):
            buffer[:size + 100000] = b"y" * (size + 100000)
        with pytest.raises(IndexError, match=beyond % 16):
            buffer[16]
        with pytest.raises(IndexError, match=beyond % -1):
            buffer[-1] = 0
        assert buffer[15] == 1 and buffer[16:16] == b""
        return size

    assert capi.capi_fill(fill) == 16
    # named by neither, a size_t right after a buffer is its size (libpng's png_rw_ptr: a read_fn
    # writing data[:length + 64] smashed the stack)
    assert capi.capi_fill_unnamed(lambda io, buffer, size: fill(buffer, size)) == 16
    got = []

    def write(ptr, size, nmemb, user):  # as curl's: size * nmemb bytes
        got.append(ptr[:size * nmemb])
        with pytest.raises(IndexError, match=r"^index 6 is outside the 6 elements C gave with this Pointer of type "
                                             r"char \*$"):
            ptr[:size * nmemb + 1]
        return size * nmemb

    assert capi.capi_write_out(write, None) == 6 and got == [b"abcdef"]


def test_text_a_callable_is_given_with_its_length_is_that_many_bytes(capi):
    # yajl's number callback (numberVal, numberLen) was given the text up to a NUL: past the
    # number into the caller's data, or cut at a NUL within it; (size_t)-1 says: to the NUL
    got = []

    def number(ctx, text, length):
        got.append((text, length))
        return 1

    assert capi.capi_numbers(number, None) == 4
    assert got == [(b"42", 2), (b"k\0y", 3), (None, 0), (b"q", 2**64 - 1)]
    got.clear()
    assert capi.capi_numbers(capi.capi_number_cb(number), None) == 4  # through a closure
    assert got == [(b"42", 2), (b"k\0y", 3), (None, 0), (b"q", 2**64 - 1)]


def test_function_pointers_of_one_type_go_wherever_c_takes_that_type(capi):
    # int (*)(void *, const char *, size_t): a member's type was spelled with its const and
    # its typedef, the class's objects' without, so neither went where the other was taken
    made = capi.capi_number_cb(lambda ctx, text, length: 1 if length > 9 else length + 3)
    assert repr(made).startswith("<FunctionPointer int (*)(void *, const char *, unsigned long) at 0x")
    settings = capi.capi_settings(on_number=made)
    assert settings.on_number == made and capi.capi_run_settings(settings) == 4
    settings.on_other = settings.on_number  # read from a member
    assert capi.capi_run_settings(settings) == 8
    assert capi.capi_numbers(settings.on_other, None) == 5 + 6 + 3 + 1
    with pytest.raises(TypeError, match=r"^capi_settings.on_other holds a int \(\*\)\(void \*, const char \*, "
                                        r"unsigned long\), not a int \(\*\)\(int\)$"):
        settings.on_other = capi.capi_job(lambda x: x)


def test_the_elements_of_a_pointer_to_pointers_to_numbers_are_pointers(capi):
    # vorbis_analysis_buffer's float ** is filled as C does, buffer[channel][i] = x; FLAC's decoder
    # hands its samples as const FLAC__int32 *const buffer[]: neither was readable
    channels = capi.capi_channels()
    left, right = channels[0], channels[1]
    assert repr(left).startswith("<Pointer double * at ") and channels[:2] == [left, right]
    left[0:4] = [1, 2, 3, 4]
    right[1] = 0.5
    assert capi.capi_channels_sum() == 15.0 and right[:3] == [0.0, 0.5, 0.0]
    with pytest.raises(TypeError, match=r"^the elements of a Pointer of type double \*\* cannot be set from Python$"):
        channels[0] = None
    got = []
    assert capi.capi_planes(lambda planes, samples, user: got.append([planes[c][:samples] for c in (0, 1)]) or 7,
                            None) == 7
    assert got == [[[1, 2, 3], [4, 5, 6]]]


def test_a_comparator_without_user_data_sorts(capi):
    numbers = array.array("i", [(i * 7919) % 1000 - 500 for i in range(1000)])
    capi.capi_sort(numbers, len(numbers), lambda a, b: (a[0] > b[0]) - (a[0] < b[0]))
    assert list(numbers) == sorted(numbers) and len(set(numbers)) == 1000


def test_a_count_of_items_of_a_size_the_caller_states_is_held_to_both(capi):
    # qsort's base, nmemb, size and fread's ptr, size, nmemb: C reads and writes nmemb * size
    # bytes; the count alone let 20 four-byte items through for a buffer of 20 bytes
    numbers = array.array("i", range(5))
    capi.capi_sort_items(numbers, 5, 4, lambda a, b: 0)
    with pytest.raises(ValueError, match=r"^argument 2 \(nmemb\) times argument 3 \(size\): 80 is more than "
                                         r"argument 1 \(base\) holds \(20 bytes\)$"):
        capi.capi_sort_items(numbers, 20, 4, lambda a, b: 0)
    with pytest.raises(ValueError, match=r"^argument 2 \(nmemb\) times argument 3 \(size\): 500 is more"):
        capi.capi_sort_items(numbers, 5, 100, lambda a, b: 0)
    with pytest.raises(ValueError, match=r"^argument 2 \(nmemb\) times argument 3 \(size\): 36893488147419103232 is "):
        capi.capi_sort_items(numbers, 2**62, 8, lambda a, b: 0)  # a product past 64 bits
    items = bytearray(7)
    assert capi.capi_fill_items(items, 3, 2) == 2 and items == b"\x01\x02\x03\x04\x05\x06\x00"
    with pytest.raises(ValueError, match=r"^argument 2 \(size\) times argument 3 \(nmemb\): 8 is more than "
                                         r"argument 1 \(ptr\) holds \(7 bytes\)$"):
        capi.capi_fill_items(items, 2, 4)
    assert capi.capi_fill_items(items, 0, 10**6) == 10**6 and capi.capi_fill_items(bytearray(), 3, 0) == 0



def test_a_length_before_buffers_is_not_that_of_an_array_or_a_position_among_them(capi):
    # mbedtls_aes_crypt_cbc(ctx, mode, length, iv[16], input, output) refused 32 bytes: more
    # than iv holds; gnutls_record_send_file(session, fd, &offset, count), count: more than a cell
    off, iv, out = capi.c_size_t(0), bytes(range(16)), bytearray(32)
    capi.capi_crypt_ctr(32, off, iv, bytes(32), out)
    assert off.value == 32 and out == bytes(range(16)) * 2
    with pytest.raises(ValueError, match=r"^argument 1 \(length\): 33 is more than argument 4 \(input_\) holds"):
        capi.capi_crypt_ctr(33, off, iv, bytes(32), bytearray(33))
    with pytest.raises(ValueError, match=r"^argument 3 \(iv\) needs at least 16 bytes, got 15$"):
        capi.capi_crypt_ctr(1, off, bytes(15), b"a", bytearray(1))
    offset = capi.c_long(10)
    assert capi.capi_send_from(offset, 4096) == 4096 and offset.value == 4106



def test_a_cell_of_another_module_is_named_by_its_module(capi):
    # lcms2's c_int given to mpg123's mpg123_new(decoder, int *error): "or a c_int, not c_int"
    foreign = type("c_long", (), {"__module__": "lcms"})()
    with pytest.raises(TypeError, match=rf"^argument 1 \(offset\) must be a writable contiguous buffer or a "
                                        rf"{capi.__name__}\.c_long or c_longlong, not lcms\.c_long$"):
        capi.capi_send_from(foreign, 1)


def test_records_and_handles_after_their_count_are_lists(capi):
    # pixman_image_fill_rectangles(op, dst, color, 10**7, one_rect) read 10**7 records of one
    pairs = [capi.capi_pair(first=2, second=3), capi.capi_pair(first=4, second=5)]
    assert capi.capi_pair_products(pairs) == 26 and capi.capi_pair_products([]) == 0
    status, main = capi.capi_db_open("main")
    status, other = capi.capi_db_open("other")
    assert capi.capi_count_main([main, other, main]) == 2
    with pytest.raises(TypeError):
        capi.capi_pair_products(2, pairs)  # the count is the list's own


def test_text_after_its_length_is_that_many_bytes(capi):
    # Z3_mk_lstring(c, 40, b"abc") read 37 bytes past the text; "a\0b" was refused
    assert capi.capi_text_sum(3, "a\0b") == 97 + 98 and capi.capi_text_sum(2, b"ab") == 97 + 98
    with pytest.raises(ValueError, match=r"^argument 1 \(len_\): 40 is more than argument 2 \(s\) holds "
                                         r"\(3 bytes\)$"):
        capi.capi_text_sum(40, b"abc")


def test_numbers_c_gives_back_with_their_count_are_a_pointer(capi):
    # XQueryTree's Window **children_return took nothing Python could make, and None segfaulted
    count = capi.c_uint()
    status, children = capi.capi_children(count)
    assert status == 1 and count.value == 3 and children[:count.value] == [7, 8, 9]


def test_strings_declared_as_an_array_without_const_are_a_list(capi):
    # blkid_probe_filter_types(pr, flag, char *names[]) took only a Pointer of type char **
    assert capi.capi_names_length(["ext4", b"xfs", "vfat"]) == 11 and capi.capi_names_length([]) == 0
    # not where an integer beside them may count them: C reads that many, no NULL (a list of 2
    # given with 3 crashed), so the parameter stays what C takes
    with pytest.raises(TypeError, match=r"^argument 2 \(names\) must be a Pointer of type char \*\* or None, "
                                        r"not list$"):
        capi.capi_some_names_length(3, ["ab", "c"])


def test_characters_c_gives_back_with_a_length_named_sz_are_that_many(capi):
    # mnt_optstr_get_option("rw,mode=755,size=10", "mode", &value, &valsz) gave b"755,size=10"
    valsz = capi.c_size_t()
    status, value = capi.capi_get_option("rw,mode=755,size=10", "mode", valsz)
    assert status == 0 and valsz.value == 3 and value == b"755"


def test_a_size_in_a_cell_named_as_a_pointer_is_held_to_its_buffer(capi):
    # LZ4F_decompress(dctx, bytearray(16), c_size_t(51200), ...) wrote past the 16 bytes
    out, room, have = bytearray(4), capi.c_size_t(4), capi.c_size_t(3)
    capi.capi_copy_sized(out, room, b"abc", have)
    assert out == b"abc\0" and room.value == have.value == 3
    with pytest.raises(ValueError, match=r"^argument 2 \(dstSizePtr\): 51200 is more than argument 1 "
                                         r"\(dstBuffer\) holds \(4 bytes\)$"):
        capi.capi_copy_sized(out, capi.c_size_t(51200), b"abc", capi.c_size_t(3))


def test_handles_of_a_typedef_of_void_pointer_make_a_list(capi):
    # cmsCreateMultiprofileTransform([srgb, lab], 2, ...) wanted a Pointer of type void **
    profiles = [capi.capi_profile(2), capi.capi_profile(5)]
    assert type(profiles[0]) is capi.capi_hprofile and capi.capi_profiles_sum(profiles) == 7


def test_the_length_of_text_made_of_data_is_the_room_s_alone(capi):
    # evutil_inet_ntop(AF_INET, 4 bytes, bytearray(46), 46): 46 is more than src holds
    room = bytearray(46)
    assert capi.capi_ntop(2, bytes([127, 0, 0, 1]), room, len(room)) == b"127.0.0.1"
    with pytest.raises(ValueError, match=r"^argument 4 \(len_\): 47 is more than argument 3 \(dst\) holds"):
        capi.capi_ntop(2, bytes(4), room, 47)


def test_the_handle_a_function_makes_with_a_size_comes_back(capi):
    # gnutls_x509_trust_list_init(&list, size) took a list of handles size counted: C's was lost
    status, made = capi.capi_list_init(64)
    assert status == 0 and capi.capi_db_name(made) == b"list"
    capi.capi_db_close(made)


def test_a_length_named_for_a_side_of_a_copy_is_that_side_s(capi):
    # LZ4_compress_limitedOutput_withState(state, source, dest, inputSize, maxOutputSize): inputSize
    # was held to dest (a valid call refused) and source, and maxOutputSize, to nothing
    out = bytearray(3)
    assert capi.capi_pack_with(None, b"abcdef", out, 6, 3) == 3 and out == b"abc"
    with pytest.raises(ValueError, match=r"^argument 4 \(inputSize\): 6 is more than argument 2 \(source\) holds"):
        capi.capi_pack_with(None, b"ab", bytearray(8), 6, 8)
    with pytest.raises(ValueError, match=r"^argument 5 \(maxOutputSize\): 9 is more than argument 3 \(dest\)"):
        capi.capi_pack_with(None, b"abcdef", bytearray(8), 6, 9)


def test_the_size_a_function_reallocates_to_is_not_what_it_is_given(capi):
    # realloc(NULL, 16) was refused: 16 is more than None holds
    memory = capi.capi_realloc(None, 16)
    assert capi.capi_used(memory) == 16
    memory = capi.capi_realloc(memory, 64)
    assert capi.capi_used(memory) == 64
    capi.capi_release(memory)


def test_a_callable_the_library_keeps_lives_with_the_handle_it_was_given(capi):
    status, db = capi.capi_db_open("main")
    heard = []

    def listener(who, text, weight):
        heard.append((who == db, text, weight))

    capi.capi_db_listen(db, listener)
    del listener
    gc.collect()
    assert capi.capi_db_say(db, "hello") == 1 and capi.capi_db_say(db, "again") == 2
    assert heard == [(True, b"hello", 0.5), (True, b"again", 0.5)]
    capi.capi_db_listen(db, lambda who, text, weight: heard.append(text.upper()))  # replaces the first
    capi.capi_db_say(db, "new")
    assert heard[-1] == b"NEW"
    capi.capi_db_listen(db, None)
    capi.capi_db_close(db)


def test_a_callable_registered_on_a_handle_a_callback_was_given_outlives_the_callback(capi):
    # Lua's C functions register closures on the L they are given (lua_pushcclosure), libuv's
    # callbacks start reads on the stream they are given: the handle object a callback gets is
    # made for it and gone when it returns, while C keeps what is registered on what it points to
    status, db = capi.capi_db_open("main")
    heard = []

    def listener(who, text, weight):
        if text == b"register":
            capi.capi_db_on_say(who, lambda who, text, weight: heard.append(("on_say", text, weight)))

    capi.capi_db_listen(db, listener)
    capi.capi_db_say(db, "register")
    gc.collect()
    capi.capi_db_say(db, "later")
    assert heard == [("on_say", b"register", 1.5), ("on_say", b"later", 1.5)]
    # the same through a callable given a user-data pointer (Cython's compiled trampoline)
    capi.capi_db_listen(db, None)
    capi.capi_db_visit(db, lambda who, user: capi.capi_db_on_say(
        who, lambda who, text, weight: heard.append(("visited", text, user))), None)
    gc.collect()
    capi.capi_db_say(db, "after")
    assert heard[-1] == ("visited", b"after", None)
    # set again from the caller's own handle object, the slot takes the new callable
    capi.capi_db_on_say(db, lambda who, text, weight: heard.append(("own", text)))
    capi.capi_db_say(db, "own")
    assert heard[-1] == ("own", b"own")
    capi.capi_db_on_say(db, None)
    assert capi.capi_db_say(db, "quiet") == 5 and heard[-1] == ("own", b"own")
    capi.capi_db_close(db)


def test_a_kept_callable_given_with_user_data_gets_it_back_after_every_reference_is_gone(capi):
    # the Cython module reaches such a callable through the user-data pointer, the others
    # through a closure: the callable sees the same in each
    status, db = capi.capi_db_open("main")
    memory, got = capi.capi_alloc(8), []

    def watcher(context, text):
        got.append((context, text))
        return len(text)

    capi.capi_db_watch(db, watcher, memory)
    del watcher
    gc.collect()
    capi.capi_db_say(db, "hi")
    capi.capi_db_say(db, "you")
    assert got == [(memory, b"hi"), (memory, b"you")] and capi.capi_db_watched(db) == 5
    assert type(got[0][0]) is capi.Pointer and int(got[0][0]) == int(memory)
    made = capi.capi_watcher(lambda context, text: got.append((context, text)) or 10)
    capi.capi_db_watch(db, made, None)  # a typedef class's pointer, and NULL: given None
    capi.capi_db_say(db, "x")
    assert got[-1] == (None, b"x") and capi.capi_db_watched(db) == 15
    capi.capi_db_watch(db, made, None)  # the same again
    del made
    gc.collect()
    capi.capi_db_say(db, "y")
    assert got[-1] == (None, b"y") and capi.capi_db_watched(db) == 25

    def fails(context, text):
        raise LookupError(text)

    capi.capi_db_watch(db, fails, memory)
    with pytest.raises(LookupError, match="z"):
        capi.capi_db_say(db, "z")
    assert capi.capi_db_watched(db) == 25  # C got a zero
    with pytest.raises(TypeError, match=r"^argument 2 \(watcher\) must be a callable"):
        capi.capi_db_watch(db, 5, memory)
    capi.capi_db_watch(db, None, None)
    assert capi.capi_db_say(db, "quiet") == 6 and capi.capi_db_watched(db) == 25
    capi.capi_db_close(db)


def test_a_kept_callable_is_replaced_only_by_the_same_function_setting_the_same_parameter(capi):
    # capi_db_on_say's parameter 2 is another slot than capi_db_listen's, though both are
    # a "listener" kept with the same handle: setting one must not release the other
    status, db = capi.capi_db_open("main")
    heard = []
    capi.capi_db_listen(db, lambda who, text, weight: heard.append(("listen", text)))
    capi.capi_db_on_say(db, lambda who, text, weight: heard.append(("on_say", text)))
    gc.collect()
    capi.capi_db_say(db, "both")
    assert heard == [("listen", b"both"), ("on_say", b"both")]
    capi.capi_db_close(db)


def test_a_list_given_back_through_three_stars_is_a_pointer_read_by_its_count(capi):
    argc = capi.c_int()
    status, argv = capi.capi_split("one  two three", argc)
    assert (status, argc.value) == (0, 3) and argv[:argc.value + 1] == [b"one", b"two", b"three", None]
    assert type(argv) is capi.Pointer and repr(argv).startswith("<Pointer char ** at ")


def test_a_function_freeing_a_list_of_strings_takes_the_pointer_it_came_as(capi):
    words, before = capi.capi_words_new(3), capi.capi_words_freed()
    assert words[:4] == [b"w0", b"w1", b"w2", None]
    capi.capi_words_free(words)
    assert capi.capi_words_freed() == before + 3
    capi.capi_words_free(None)
    with pytest.raises(TypeError, match=r"^argument 1 \(words\) must be a Pointer of type char \*\* or None, not list$"):
        capi.capi_words_free(["w0"])
    # of unsigned characters, as pcre2_substring_list_free(PCRE2_SPTR *list): called with no
    # argument, it freed a cell the wrapper had made
    octets, before = capi.capi_octets_new(2), capi.capi_words_freed()
    assert octets[:3] == [b"o0", b"o1", None]
    capi.capi_octets_free(octets)
    assert capi.capi_words_freed() == before + 2
    assert "capi_octets_free(list_: Pointer | None, /) -> None" in capi.capi_octets_free.__doc__


def test_a_function_made_to_be_passed_as_a_callable_takes_what_a_callable_is_given(capi):
    # as glibc's alphasort: its const T ** parameters are not out-parameters (given two empty
    # cells, C read through them); passed on as a callable, or called from one, it orders nodes
    assert capi.capi_sort_nodes(capi.capi_node_order) == 4321
    assert capi.capi_sort_nodes(lambda a, b: -capi.capi_node_order(a, b)) == 1234
    with pytest.raises(TypeError):
        capi.capi_node_order()


def test_addresses_the_header_defines_are_objects_of_their_types(capi):
    assert capi.CAPI_STATIC is None
    assert type(capi.CAPI_TRANSIENT) is capi.FunctionPointer and int(capi.CAPI_TRANSIENT) == 2**64 - 1
    assert capi.capi_take_text("copied " + str(42), capi.CAPI_TRANSIENT) == 1  # the str's bytes live for the call
    gc.collect()
    assert capi.capi_taken() == b"copied 42"
    text = b"kept by the caller"
    assert capi.capi_take_text(text, capi.CAPI_STATIC) == 0 and capi.capi_taken() == text
    assert type(capi.CAPI_MAP_FAILED) is capi.Pointer and int(capi.CAPI_MAP_FAILED) == 2**64 - 1
    assert capi.capi_map(1) == capi.CAPI_MAP_FAILED and capi.capi_map(0) != capi.CAPI_MAP_FAILED
    # an address, never read through: reading at (void *)-1 (libtcc's TCC_RELOCATE_AUTO is 1) crashed
    for index in (0, slice(0, 1)):
        with pytest.raises(IndexError, match=r"^index 0 is outside the 0 elements C gave with this Pointer of type "
                                             r"void \*$"):
            capi.CAPI_MAP_FAILED[index]
        with pytest.raises(IndexError, match=r"^index 0 is outside the 0 elements C gave with this Pointer"):
            capi.CAPI_MAP_FAILED[index] = b"x"


def test_a_callable_whose_parameter_is_declared_as_an_array_gets_a_pointer(capi):
    got = []
    assert capi.capi_run_words(lambda argc, argv: got.append(argv[:argc + 1]) or argc) == 2
    assert got == [[b"one", b"two", None]]


def test_callables_registered_under_other_names_or_numbers_are_each_kept(capi):
    # C keeps one callable for each name and arity (sqlite3_create_function, Tcl's commands) or
    # number (signal()): registering another must not release one C still holds
    status, db = capi.capi_db_open("main")

    def adder(k):
        return lambda value, user: value + k

    capi.capi_db_define(db, "add", 1, adder(1), None)
    capi.capi_db_define(db, "add", 2, adder(2), None)
    capi.capi_db_define(db, "sub", 1, lambda value, user: value - 1, None)
    capi.capi_db_define(db, b"twice", 1, capi.capi_visit(lambda value, user: 2 * value), None)
    capi.capi_db_define(db, bytearray(b"thrice"), 1, lambda value, user: 3 * value, None)  # kept by its bytes
    capi.capi_on(3, lambda value: value + 30)
    capi.capi_on(4, lambda value: value + 40)
    gc.collect()
    churn = [capi.capi_db_define(other, "add", 1, adder(100 + i), None)  # memory reused, if released
             for i, other in enumerate(capi.capi_db_open(f"db{i}")[1] for i in range(20))]
    assert churn == [None] * 20
    assert [capi.capi_db_invoke(db, name, arity, 10) for name, arity in
            [("add", 1), ("add", 2), ("sub", 1), ("twice", 1), ("thrice", 1), ("none", 1)]] == [11, 12, 9, 20, 30, -1]
    assert capi.capi_raise(3, 1) == 31 and capi.capi_raise(4, 1) == 41
    gone = weakref.ref(first := adder(1000))
    capi.capi_db_define(db, "add", 1, first, None)
    capi.capi_db_define(db, "add", 1, adder(5), None)  # the same name and arity again: C replaced it
    del first
    gc.collect()
    # not called while the call ran, so C may still hold it (it cannot tell a registry that adds
    # from one that replaces): kept with the handle's C object, which nothing said was freed
    # (capi_db_close is no deallocator without an ownership rule; see the owned module)
    assert gone() is not None and capi.capi_db_invoke(db, "add", 1, 10) == 15
    capi.capi_db_close(db)
    del db
    gc.collect()
    assert gone() is not None


def test_a_callable_c_keeps_with_a_handle_outlives_every_python_object_for_it(capi):
    # HarfBuzz's font funcs: set on a font, then dropped in Python while C holds them: the
    # closure went with the Python object, and C called it released
    heard = []
    status, db = capi.capi_db_open("kept")
    listener = lambda who, text, weight: heard.append(text)  # noqa: E731
    gone = weakref.ref(listener)
    capi.capi_db_listen(db, listener)
    del db, listener
    gc.collect()
    assert gone() is not None
    again = capi.capi_db_last()  # the same C object, another Python one
    assert capi.capi_db_say(again, "still") == 1 and heard == [b"still"]
    capi.capi_db_listen(again, None)
    capi.capi_db_close(again)


def test_an_owned_handle_a_kept_callable_refers_to_is_still_freed(owned):
    # expat's handler calling XML_GetCurrentLineNumber(p): the handle and its callable are a
    # cycle, which the collector frees with the handle's C object; kept by the module, neither
    # would ever go
    status, db = owned.capi_db_open("cycle")
    listener = lambda who, text, weight, db=db: None  # noqa: E731
    gone = weakref.ref(listener)
    owned.capi_db_listen(db, listener)
    del db, listener
    gc.collect()
    assert gone() is None


def test_a_callable_kept_with_a_handle_goes_when_the_module_frees_the_handle(owned):
    status, db = owned.capi_db_open("owned")
    listener = lambda who, text, weight: None  # noqa: E731
    gone = weakref.ref(listener)
    owned.capi_db_listen(db, listener)
    del listener
    gc.collect()
    assert gone() is not None
    db.close()  # the ownership rule's capi_db_close freed it: C holds nothing of it any more
    gc.collect()
    assert gone() is None


def test_a_callable_kept_for_the_module_lives_past_the_next_one_given(capi):
    # no handle or record to keep it with: the module keeps it, under the function's parameter
    class Hook:
        def __init__(self, add):
            self.add = add

        def __call__(self, value, user):
            return value + self.add

    first = Hook(1)
    gone = weakref.ref(first)
    for _ in range(3):  # given again and again: kept once
        capi.capi_set_hook(first, None)
    del first
    gc.collect()
    assert capi.capi_run_hook(41) == 42 and gone() is not None
    second = Hook(2)
    capi.capi_set_hook(second, capi.capi_alloc(8))
    gone, second = weakref.ref(second), None
    gc.collect()
    assert capi.capi_run_hook(40) == 42 and gone() is not None
    made = capi.capi_visit(Hook(3))  # a typedef class's pointer, given twice
    capi.capi_set_hook(made, None)
    capi.capi_set_hook(made, None)
    del made
    gc.collect()
    # the one it replaced was not called while its call ran: C may hold it still, so the module
    # keeps it (see the test below)
    assert gone() is not None and capi.capi_run_hook(39) == 42
    capi.capi_set_hook(None, None)
    assert capi.capi_run_hook(1) == -1


def test_a_plain_char_is_a_number_in_a_record_and_a_callbacks_arguments(capi):
    # libgit2's git_diff_line.origin: cffi read it as b'+' and refused any int set (its own
    # "initializer for ctype 'char' must be a bytes of length 1"), the others gave 43
    seen = []

    def each(line, origin, user):
        seen.append((line.origin, origin, line.lineno))
        line.origin = -line.origin  # set as any integer member is, in its range
        return 0

    assert capi.capi_diff(each, None) == -(ord("+") + ord("-"))
    assert seen == [(ord("+"), ord("+"), 1), (ord("-"), ord("-"), 2)]
    line = capi.capi_line(origin=ord("x"), lineno=3)
    assert line.origin == 120 and "origin=120" in repr(line)
    with pytest.raises(OverflowError, match=r"^capi_line\.origin: 300 is out of range \[-128, 127\]$"):
        line.origin = 300
    with pytest.raises(TypeError, match=r"^capi_line\.origin must be an integer, not bytes$"):
        line.origin = b"x"


def test_a_long_double_is_a_float_everywhere(capi):
    # MPFR's mpfr_get_ld gave <cdata 'long double'> in cffi, and r + 1 raised there only
    seen = []
    assert type(capi.capi_ld_half(3.0)) is float and capi.capi_ld_half(3.0) == 1.5
    assert capi.capi_ld_apply(lambda x: seen.append(x) or x + 1, 1.5) == 5.0
    assert [type(x) for x in seen] == [float] and seen == [1.5]
    wide = capi.capi_wide(v=2.5)
    assert type(wide.v) is float and wide.v + 1 == 3.5


def test_callables_c_adds_to_those_it_holds_are_each_kept(capi):
    # atexit, g_idle_add, lua_pushcclosure(L, f, 0): each call adds one, with the same arguments;
    # the first was released when the second was given (a crash when C called it)
    capi.capi_drop_jobs()
    capi.capi_push_job(lambda x: x + 1)
    capi.capi_push_job(lambda x: x + 2)
    capi.capi_push_job(capi.capi_job(lambda x: x + 3))
    gc.collect()
    assert capi.capi_run_jobs(10) == 36
    capi.capi_drop_jobs()
    # one C calls while the call runs (qsort's comparator) is replaced by the next, as before
    gone = weakref.ref(first := (lambda value, user: value))
    assert capi.capi_apply(first, None, 1) == 2
    assert capi.capi_apply(lambda value, user: 2 * value, None, 1) == 3
    del first
    gc.collect()
    assert gone() is None


def test_what_a_callable_raises_is_raised_by_the_call_that_gave_it(capi):
    def boom(value, user):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        capi.capi_apply(boom, None, 1)
    assert capi.capi_applied() == 0  # what C got from it: a zero, with no rule saying otherwise
    with pytest.raises(TypeError, match=r"^the result of a callback int \(\*\)\(int, void \*\) must be an integer, not str$"):
        capi.capi_apply(lambda value, user: "two", None, 1)
    with pytest.raises(OverflowError, match=r"^the result of a callback int \(\*\)\(int, void \*\): 1099511627776 is out of range \[-2147483648, 2147483647\]$"):
        capi.capi_apply(lambda value, user: 2**40, None, 1)
    assert capi.capi_applied() == 0
    assert capi.capi_apply(lambda value, user: value, None, 1) == 2  # nothing left pending
    # the ends of the range pass; one past each is refused, through a typedef's class too
    assert capi.capi_apply(lambda value, user: 2**31 - 1, None, 1) == -2**31  # C adds one, wrapping
    assert capi.capi_apply(capi.capi_visit(lambda value, user: -2**31), None, 1) == -2**31 + 1
    for wrong in (2**31, -2**31 - 1):
        with pytest.raises(OverflowError, match=rf"^the result of a callback int \(\*\)\(int, void \*\): "
                                                rf"{wrong} is out of range \[-2147483648, 2147483647\]$"):
            capi.capi_apply(capi.capi_visit(lambda value, user, wrong=wrong: wrong), None, 1)
    # an unsigned result: a negative int is out of its range; an int subclass goes through the check
    with pytest.raises(OverflowError, match=r"^the result of a callback unsigned long \(\*\)\(char \*, unsigned long, void \*\): "
                                            r"-1 is out of range \[0, 18446744073709551615\]$"):
        capi.capi_feed(lambda data, size, user: -1, None)
    assert capi.capi_feed(lambda data, size, user: True, None) == 1


def test_what_a_kept_callable_raises_is_raised_by_the_call_during_which_c_called_it(capi):
    status, db = capi.capi_db_open("main")

    def listener(who, text, weight):
        raise ValueError(text)

    capi.capi_db_listen(db, listener)
    with pytest.raises(ValueError, match="later"):
        capi.capi_db_say(db, "later")  # a call that gave no callable: C called the kept one
    capi.capi_db_listen(db, None)
    assert capi.capi_db_say(db, "quiet") == 2  # C went on the first time; nothing left pending

    def wrong(who, text, weight):
        raise TypeError(text)  # what a wrapper's fast path also raises for a wrong argument

    capi.capi_db_listen(db, wrong)
    with pytest.raises(TypeError, match="once"):
        capi.capi_db_say(db, "once")
    capi.capi_db_listen(db, None)
    assert capi.capi_db_say(db, "quiet") == 4  # C ran once, not again as for a retried argument
    capi.capi_db_close(db)


def test_what_a_callable_raised_waits_for_its_call_not_one_a_later_callable_makes(capi):
    # sd-event runs one timer after another raised: the second's own calls into the module
    # raised the first's exception, so it never asked the loop to exit, and the loop hung
    said = []

    def listener(db, text, weight):
        raise KeyError("first")

    def watcher(context, text):  # through a user-data pointer: the Cython module's own trampoline
        said.append(capi.capi_apply(lambda value, user: value, None, 1))
        return 1

    status, db = capi.capi_db_open("main")
    capi.capi_db_listen(db, listener)
    capi.capi_db_watch(db, watcher, None)
    with pytest.raises(KeyError, match="first"):
        capi.capi_db_say(db, "x")
    assert said == [2] and capi.capi_db_watched(db) == 1
    capi.capi_db_listen(db, None)
    assert capi.capi_db_say(db, "y") == 2 and said == [2, 2]  # nothing left pending
    capi.capi_db_close(db)

    compared = []

    def compare(a, b):  # through a closure: qsort's comparator has no user-data pointer
        if not compared:
            compared.append(None)
            raise ValueError("first")
        compared.append(capi.capi_apply(lambda value, user: value, None, 1))
        return (a[0] > b[0]) - (a[0] < b[0])

    with pytest.raises(ValueError, match="first"):
        capi.capi_sort(array.array("i", [3, 1, 2, 5, 4]), 5, compare)
    assert len(compared) > 2 and set(compared[1:]) == {2}


def test_a_callable_is_called_from_a_thread_the_library_starts(capi, monkeypatch):
    import threading

    threads = []

    def square(value):
        threads.append(threading.get_ident())
        return value * value

    assert capi.capi_in_thread(square, 12) == 144
    assert threads and threads[0] != threading.get_ident()
    # with no Python beneath it on its thread, what it raises goes to the unraisable hook
    reported = []
    monkeypatch.setattr("sys.unraisablehook", lambda unraisable: reported.append(unraisable.exc_value))

    def fail(value):
        raise ArithmeticError(value)

    assert capi.capi_in_thread(fail, 3) == 0  # C got a zero
    assert [repr(error) for error in reported] == ["ArithmeticError(3)"]
    # and so does a result C cannot take
    assert capi.capi_in_thread(lambda value: 2**40, 3) == 0
    assert [str(error) for error in reported[1:]] == [
        "the result of a callback int (*)(int): 1099511627776 is out of range [-2147483648, 2147483647]"]


def test_callables_kept_are_called_from_a_thread_the_library_starts(capi):
    # The call that runs them takes no callable; its thread waits for the library's while
    # that one calls them: it must not hold the GIL (a child process: a hang fails, not stops).
    script = f"""
import threading
import {capi.__name__} as m
status, db = m.capi_db_open("t")
heard, watched = [], []
m.capi_db_listen(db, lambda who, text, weight: heard.append((text, threading.get_ident())))
m.capi_db_watch(db, lambda context, text: watched.append(text) or 7, None)
assert m.capi_db_say_in_thread(db, "far") == 1
assert heard[0][0] == b"far" and heard[0][1] != threading.get_ident() and watched == [b"far"]
assert m.capi_db_watched(db) == 7
print("ok")
"""
    folder = Path(capi.__file__).parent
    result = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True,
                            timeout=60, env=dict(os.environ, PYTHONPATH=str(folder)))
    assert (result.returncode, result.stdout.strip()) == (0, "ok"), result.stderr[-2000:]


def test_a_function_pointer_typedef_is_a_class_of_c_function_pointers(capi):
    calls = []
    visit = capi.capi_visit(lambda value, user: calls.append(value) or value + 100)
    assert isinstance(visit, capi.FunctionPointer) and int(visit) != 0
    assert [capi.capi_apply(visit, None, n) for n in (1, 2)] == [102, 103] and calls == [1, 2]
    with pytest.raises(TypeError, match=r"^capi_visit\(\) takes a callable, not int$"):
        capi.capi_visit(5)
    with pytest.raises(TypeError, match=r"^argument 3 \(cmp\) must be a int \(\*\)\(const int \*, const int \*\), "
                                        r"not a FunctionPointer of type int \(\*\)\(int, void \*\)$"):
        capi.capi_sort(array.array("i", [2, 1]), 2, visit)


def test_what_is_no_callable_is_refused_in_the_same_words(capi):
    with pytest.raises(TypeError, match=r"^argument 1 \(f\) must be a callable, a FunctionPointer or None, not int$"):
        capi.capi_apply(5, None, 1)
    assert "Callable[[int, Pointer | None], int]" in capi.capi_apply.__doc__.splitlines()[0]


def test_an_array_of_one_record_and_a_typedef_of_a_typedef_name_the_record_class(capi):
    # C code declares GMP's numbers as `mpz_t x;` (an array of one struct, passed as a
    # pointer to it): the array's typedef is the record's class, as every other name is.
    assert capi.capi_big_t is capi.capi_big_struct and capi.capi_big_other is capi.capi_big_struct
    a, b, total = capi.capi_big_t(), capi.capi_big_t(), capi.capi_big_t()
    capi.capi_big_set(a, 40)
    capi.capi_big_set(b, 2)
    assert capi.capi_big_add(total, a, b) == 42 and (total.size, total.limb) == (1, 42)


def test_an_unnamed_union_a_macro_writes_into_several_records_is_each_ones_own(capi):
    # libuv's handles: the Cython module did not compile (one union type for them all,
    # declared after a record holding it), and every record's union was the first one's class
    stream, timer = capi.capi_stream(bytes=2), capi.capi_timer(due=3)
    stream.u.fd, timer.u.fd = 40, 39
    assert capi.capi_stream_fd(stream) == 42 and capi.capi_timer_fd(timer) == 42
    assert type(stream.u).__name__ == "capi_stream_u" and type(timer.u).__name__ == "capi_timer_u"
    loop = capi.capi_loop()
    loop.timer = timer
    assert loop.timer.u.fd == 39


def test_enum_returns_are_members(capi):
    assert capi.capi_mix(2) is capi.capi_color.CAPI_GREEN
    assert capi.capi_mix(3) == 3 and type(capi.capi_mix(3)) is int


# ---- cells: scalars C reads and writes through a pointer --------------------------

def test_cells_stand_for_scalars_c_writes_through_a_pointer(capi):
    current, highwater = capi.c_int(), capi.c_long()
    assert capi.capi_status(21, current, highwater) == 0
    assert (current.value, highwater.value) == (42, 21 << 40)
    value = capi.c_double(1.5)
    capi.capi_scale(value, 3)
    assert value.value == 4.5 and repr(value) == "c_double(4.5)"
    flag = capi.c_bool(False)
    assert capi.capi_flag(flag) == 1 and flag.value is True


def test_a_cell_is_taken_only_for_its_own_kind_and_size(capi):
    assert capi.capi_status(1, capi.c_int32(), capi.c_int64()) == 0  # other names of the same types
    with pytest.raises(TypeError, match=r"^argument 2 \(current\) must be a writable contiguous buffer or a c_int, "
                                        r"not c_long$"):
        capi.capi_status(1, capi.c_long(), capi.c_long())
    with pytest.raises(TypeError, match=r"^argument 1 \(value\) must be a writable contiguous buffer or a c_double, "
                                        r"not c_float$"):
        capi.capi_scale(capi.c_float(), 2)


def test_cells_check_their_values_as_arguments_are_checked(capi):
    with pytest.raises(OverflowError, match=r"^c_uint.value: -1 is out of range \[0, 4294967295\]$"):
        capi.c_uint(-1)
    cell = capi.c_ulong(7)
    with pytest.raises(TypeError, match=r"^c_ulong.value must be an integer, not float$"):
        cell.value = 1.5
    with pytest.raises(TypeError, match=r"^c_double.value must be a real number, not str$"):
        capi.c_double("1")
    with pytest.raises(TypeError, match=r"^cannot pickle or copy c_ulong objects$"):
        import copy
        copy.copy(cell)


def test_a_compress2_style_call_reads_naturally(capi):
    dest = bytearray(16)
    written = capi.c_ulong(len(dest))
    assert capi.capi_copy(dest, written, b"payload", 7) == 0
    assert dest[:written.value] == b"payload"


# ---- lengths the header states ---------------------------------------------------

def test_a_stated_length_may_not_exceed_its_buffer(capi):
    assert capi.capi_crc(0, b"abc", 3) == capi.capi_crc(0, bytearray(b"abc"), 3)
    with pytest.raises(ValueError, match=r"^argument 3 \(len_\): 1000000000 is more than argument 2 \(buf\) "
                                         r"holds \(3 bytes\)$"):
        capi.capi_crc(0, b"abc", 10**9)
    assert capi.capi_crc(0, b"abc", 2) == capi.capi_crc(0, b"ab", 2)  # less is fine
    with pytest.raises(ValueError, match=r"holds \(2 bytes\)$"):
        capi.capi_crc(0, memoryview(b"abcd")[1:3], 3)


def test_an_empty_buffer_holds_nothing(capi):
    import array
    # none of a stated length fits: C would read past the end of the empty buffer
    for empty in (b"", bytearray(), memoryview(b""), ""):
        with pytest.raises(ValueError, match=r"^argument 3 \(len_\): 5 is more than argument 2 \(buf\) "
                                             r"holds \(0 bytes\)$"):
            capi.capi_crc(0, empty, 5)
        assert capi.capi_crc(0, empty, 0) == capi.capi_crc(0, b"x", 0)
    for empty in (array.array("i"), b"", b"\0\0"):  # part of one int holds none either
        with pytest.raises(ValueError, match=r"^argument 2 \(count\): 1 is more than argument 1 \(values\) "
                                             r"holds \(0 items\)$"):
            capi.capi_sum(empty, 1)
        assert capi.capi_sum(empty, 0) == 0
    # a void * C is told no size of is read or written at least a byte: an empty buffer holds
    # none (the storage of an empty bytearray is every empty bytearray's)
    for empty in (b"", bytearray(), memoryview(b"")):
        with pytest.raises(ValueError, match=r"^argument 1 \(object_\) needs at least 1 byte, got 0$"):
            capi.capi_first_byte(empty)
    with pytest.raises(ValueError, match=r"^argument 1 \(memory\) needs at least 1 byte, got 0$"):
        capi.capi_release(bytearray())


def test_a_count_is_of_items_and_a_size_of_bytes(capi):
    import array
    values = array.array("i", [1, 2, 3])
    assert capi.capi_sum(values, 3) == 6
    with pytest.raises(ValueError, match=r"^argument 2 \(count\): 4 is more than argument 1 \(values\) "
                                         r"holds \(3 items\)$"):
        capi.capi_sum(values, 4)
    assert capi.capi_checksum(values, 12) == 6
    with pytest.raises(ValueError, match=r"^argument 2 \(size\): 13 is more than argument 1 \(data\) holds \(12 bytes\)$"):
        capi.capi_checksum(values, 13)
    # a length out of its type's range is refused for that first, in every backend
    for call, label in ((capi.capi_sum, "count"), (capi.capi_checksum, "size")):
        for given in (values, bytes(values)):
            with pytest.raises(OverflowError, match=rf"^argument 2 \({label}\): 18446744073709551616 is out of "
                                                    rf"range \[0, 18446744073709551615\]$"):
                call(given, 2**64)
    # None (NULL) holds nothing: a stated length may be 0, no more (libsodium aborts, others crash)
    assert capi.capi_checksum(None, 0) == 0
    with pytest.raises(ValueError, match=r"^argument 2 \(size\): 3 is more than argument 1 \(data\) holds \(0 bytes\)$"):
        capi.capi_checksum(None, 3)
    with pytest.raises(ValueError, match=r"^argument 2 \(destLen\): 1 is more than argument 1 \(dest\) holds \(0 bytes\)$"):
        capi.capi_copy(None, capi.c_ulong(1), b"x", 1)
    # a cell given for a void * holds its own type's bytes
    assert capi.capi_checksum(capi.c_int(0x01020304), 4) == 10
    with pytest.raises(ValueError, match=r"^argument 2 \(size\): 9 is more than argument 1 \(data\) holds \(8 bytes\)$"):
        capi.capi_checksum(capi.c_double(), 9)
    # and a record its size (xxHash's XXH64(canonical, 9, 0) read past an 8-byte record)
    span = capi.capi_span(start=1, end=2)
    assert capi.capi_checksum(span, capi.capi_span.sizeof) == 3
    with pytest.raises(ValueError, match=r"^argument 2 \(size\): 4096 is more than argument 1 \(data\) holds "
                                         r"\(8 bytes\)$"):
        capi.capi_checksum(span, 4096)
    moved = capi.c_uint()
    assert capi.capi_move(moved, b"\x05\0\0\0", 4) == 5 and moved.value == 5


def test_a_string_length_counts_its_utf8_bytes(capi):
    easy = capi.capi_easy_init()
    assert capi.capi_escape(easy, "a b", 3) == 5
    assert capi.capi_escape(easy, "a b", 0) == 5
    with pytest.raises(ValueError, match=r"^argument 3 \(length\): 4 is more than argument 2 \(string\) holds "
                                         r"\(3 bytes\)$"):
        capi.capi_escape(easy, "a b", 4)
    assert capi.capi_escape(easy, "\u00e9", 2) == 2
    # a size after a C string that names something else is no length of it
    assert capi.capi_block("ab", 4096) == 4098
    # a size named after another pointer than the one right before it is that one's (lz4's
    # LZ4_decompress_safe(src, dst, compressedSize, dstCapacity): compressedSize is no length of dst)
    out = bytearray(4)
    assert capi.capi_decompress(b"abcdef", out, 6, 4) == 4 and out == b"abcd"
    with pytest.raises(ValueError, match=r"^argument 4 \(dstCapacity\): 5 is more than argument 2 \(dst\) holds "
                                         r"\(4 bytes\)$"):
        capi.capi_decompress(b"abcdef", out, 6, 5)
    taken = capi.c_int(6)
    assert capi.capi_compress_dest_size(b"abcdef", out, taken, 4) == 4 and taken.value == 4
    with pytest.raises(ValueError, match=r"^argument 4 \(targetDstSize\): 5 is more than argument 2 \(dst\) "
                                         r"holds \(4 bytes\)$"):
        capi.capi_compress_dest_size(b"abcdef", out, capi.c_int(6), 5)
    # but one named by a shortening of its name is (lz4's dictionary, dictSize)
    assert capi.capi_load_dict(b"\x01\x02", 2) == 3
    with pytest.raises(ValueError, match=r"^argument 2 \(dictSize\): 1000 is more than argument 1 \(dictionary\) "
                                         r"holds \(2 bytes\)$"):
        capi.capi_load_dict(b"\x01\x02", 1000)
    for string in ("a b", b"a b"):  # an int length out of its range: refused for that first
        with pytest.raises(OverflowError, match=r"^argument 3 \(length\): 2147483648 is out of range "
                                                r"\[-2147483648, 2147483647\]$"):
            capi.capi_escape(easy, string, 2**31)


def test_a_length_in_a_cell_is_checked_too(capi):
    with pytest.raises(ValueError, match=r"^argument 2 \(destLen\): 17 is more than argument 1 \(dest\) holds "
                                         r"\(16 bytes\)$"):
        capi.capi_copy(bytearray(16), capi.c_ulong(17), b"x", 1)
    with pytest.raises(ValueError, match=r"^argument 4 \(srcLen\): 2 is more than argument 3 \(src\) holds "
                                         r"\(1 bytes\)$"):
        capi.capi_copy(bytearray(16), capi.c_ulong(16), b"x", 2)
    # a buffer given in the cell's place states what C reads there (it overflowed the heap)
    stated = bytearray((100000).to_bytes(8, sys.byteorder))
    with pytest.raises(ValueError, match=r"^argument 2 \(destLen\): 100000 is more than argument 1 \(dest\) holds "
                                         r"\(16 bytes\)$"):
        capi.capi_copy(bytearray(16), stated, b"x", 1)
    stated[:] = (16).to_bytes(8, sys.byteorder)
    assert capi.capi_copy(bytearray(16), stated, b"x", 1) == 0 and stated[:8] == (1).to_bytes(8, sys.byteorder)


def test_an_array_parameter_states_its_own_length(capi):
    # int capi_pack(size_t input_size, const unsigned char input_buffer[input_size],
    #               size_t *encoded_size, unsigned char encoded_buffer[(*encoded_size)])
    out = bytearray(8)
    size = capi.c_ulong(len(out))
    assert capi.capi_pack(3, b"abc", size, out) == 1
    assert out[:size.value] == b"ABC"
    with pytest.raises(ValueError, match=r"^argument 1 \(input_size\): 4 is more than argument 2 "
                                         r"\(input_buffer\) holds \(3 bytes\)$"):
        capi.capi_pack(4, b"abc", capi.c_ulong(8), bytearray(8))
    with pytest.raises(ValueError, match=r"^argument 3 \(encoded_size\): 9 is more than argument 4 "
                                         r"\(encoded_buffer\) holds \(8 bytes\)$"):
        capi.capi_pack(3, b"abc", capi.c_ulong(9), bytearray(8))
    assert capi.capi_pack(3, b"abc", capi.c_ulong(2), bytearray(2)) == 0  # what C refuses, it refuses itself
    assert capi.capi_vla_sum(3, array.array("i", [1, 2, 3])) == 6
    with pytest.raises(ValueError, match=r"^argument 1 \(n\): 4 is more than argument 2 \(values\) holds "
                                         r"\(3 items\)$"):
        capi.capi_vla_sum(4, array.array("i", [1, 2, 3]))
    # one length, two arrays: each is checked
    assert capi.capi_dot(2, array.array("d", [1, 2]), array.array("d", [3, 4, 5])) == 11
    with pytest.raises(ValueError, match=r"^argument 1 \(n\): 3 is more than argument 2 \(x\) holds \(2 items\)$"):
        capi.capi_dot(3, array.array("d", [1, 2]), array.array("d", [3, 4, 5]))
    with pytest.raises(ValueError, match=r"^argument 1 \(n\): 3 is more than argument 3 \(y\) holds \(2 items\)$"):
        capi.capi_dot(3, array.array("d", [1, 2, 3]), array.array("d", [3, 4]))


def test_an_array_of_records_takes_a_sequence_of_as_many_as_its_stated_length(capi):
    # int capi_find_words(const char *text, size_t nspan, capi_span spans[nspan]): as regexec's
    # pmatch, C writes nspan records; one record for nspan 3 let C write past it
    spans = [capi.capi_span() for _ in range(3)]
    assert capi.capi_find_words("ab cde", spans) == 2  # nspan is the sequence's length
    assert [(s.start, s.end) for s in spans] == [(0, 2), (3, 6), (-1, -1)]
    assert capi.capi_find_words("ab cde", []) == 2 and capi.capi_find_words("ab", None) == 1
    assert capi.capi_span_total([capi.capi_span(start=1, end=4), capi.capi_span(start=5, end=6)]) == 4
    assert capi.capi_span_total(()) == 0
    with pytest.raises(TypeError, match=r"^argument 2 \(spans\) must be a sequence, not capi_span$"):
        capi.capi_find_words("ab", capi.capi_span())
    with pytest.raises(TypeError, match=r"^argument 2 \(spans\) items must be capi_span, not int$"):
        capi.capi_find_words("ab", [1])
    assert "capi_find_words(text: str | _Buffer | None, spans: Sequence[capi_span] | None, /) -> int" in (
        capi.capi_find_words.__doc__)


def test_records_or_handles_counted_by_another_parameter_are_a_sequence(capi):
    # int capi_swap_pairs(capi_pair *pairs, size_t npairs): as poll's fds and nfds, C reads and
    # writes npairs records; one record passed with npairs 2 let C write past it
    pairs = [capi.capi_pair(first=1, second=2), capi.capi_pair(first=3, second=4)]
    assert capi.capi_swap_pairs(pairs) == 4  # npairs is the sequence's length
    assert [(p.first, p.second) for p in pairs] == [(2, 1), (4, 3)]  # what C wrote, copied back
    # int capi_sum_seconds(const capi_pair *iov, int iovcnt): the pointer's name and cnt
    assert capi.capi_sum_seconds(pairs) == 4 and capi.capi_sum_seconds([]) == 0
    with pytest.raises(TypeError, match=r"^argument 1 \(pairs\) must be a sequence, not capi_pair$"):
        capi.capi_swap_pairs(capi.capi_pair())
    # int capi_count_open(unsigned num_dbs, capi_db *const dbs[]): as Z3's num_args and args[]
    db = capi.capi_db_open(":memory:")[1]
    assert capi.capi_count_open([db, None, db]) == 2 and capi.capi_count_open([]) == 0
    with pytest.raises(TypeError, match=r"^argument 1 \(dbs\) items must be capi_db or None, not int$"):
        capi.capi_count_open([1])
    # capi_count_types(capi_db **DbTypes, unsigned DbCount) and capi_count_args(capi_db **Args,
    # unsigned NumArgs): as LLVMFunctionType and LLVMBuildCall2; as out-parameters, the first
    # took no handles at all and C read one past the cell it was given
    assert capi.capi_count_types([db, None, db]) == 2 and capi.capi_count_args([db, db]) == 2
    assert capi.capi_count_args([]) == 0
    # int capi_pair_span(const capi_pair pairs[2]): as futimens' times[2], C reads two
    two = [capi.capi_pair(first=1, second=2), capi.capi_pair(first=3, second=10)]
    assert capi.capi_pair_span(two) == 9 and capi.capi_pair_span(None) == -1
    with pytest.raises(ValueError, match=r"^argument 1 \(pairs\) needs at least 2 items, got 1$"):
        capi.capi_pair_span(two[:1])


def test_lists_of_pointers_c_reads_take_python_sequences(capi):
    # char *const argv[] (execv, posix_spawn) and const char *const *parts (libpq's
    # keywords): C cannot write these pointers, so it reads them, to a NULL the wrapper
    # puts after the last item.  They used to take only a Pointer, which Python cannot build.
    assert capi.capi_argv_length(["prog", "-v", b"file", bytearray(b"x")]) == 4
    assert capi.capi_argv_length([]) == 0 and capi.capi_argv_length(iter(("a", "b"))) == 2
    out = bytearray(32)
    assert capi.capi_join(out, len(out), ["usr", "lib", "héllo"], "/") == 14
    assert bytes(out[:15]) == "usr/lib/héllo\0".encode()
    with pytest.raises(ValueError, match=r"^argument 2 \(out_size\): 64 is more than argument 1 \(out\) holds "):
        capi.capi_join(out, 64, ["a"], "/")
    # const char **words, int nwords: a count named for them makes a non-const T ** a list
    # (without one it gives a string back, as sqlite3_prepare's pzTail does); a length
    # alone does not (OpenSSL's BIO_nread(bio, char **buf, int num) gives one pointer back)
    assert capi.capi_total_length(["ab", None, "cde"]) == 4 and capi.capi_total_length([]) == 0
    # unsigned char **rows, unsigned nrows: buffers C writes into (libpng's and libjpeg's rows)
    rows = [bytearray(3), bytearray(4)]
    assert capi.capi_fill_rows(rows, 3) == 2 and rows == [bytearray(b"aaa"), bytearray(b"bbb\0")]
    # capi_span **spans, size_t nspans: records by pointer, NULL for None
    spans = [capi.capi_span(start=1, end=4), None, capi.capi_span(start=0, end=10)]
    assert capi.capi_span_sum(spans) == 13
    # wrong items are refused with the same message in every backend, before C runs
    with pytest.raises(TypeError, match=r"^argument 1 \(argv\) items must be str, bytes, a buffer or None, not int$"):
        capi.capi_argv_length(["a", 1])
    with pytest.raises(ValueError, match=r"^argument 1 \(argv\) items must not contain a NUL character$"):
        capi.capi_argv_length(["a\0b"])
    with pytest.raises(TypeError, match=r"^argument 1 \(argv\) must be a sequence, not str$"):
        capi.capi_argv_length("abc")
    with pytest.raises(TypeError, match=r"^argument 1 \(rows\) items must be a writable contiguous buffer, not bytes$"):
        capi.capi_fill_rows([b"abc"], 1)
    with pytest.raises(TypeError, match=r"^argument 1 \(spans\) items must be capi_span or None, not capi_pair$"):
        capi.capi_span_sum([capi.capi_pair()])
    assert "capi_argv_length(argv: Sequence[str | _Buffer | None] | None, /) -> int" in capi.capi_argv_length.__doc__
    assert "(rows: Sequence[_WritableBuffer | Pointer | None] | None, " in capi.capi_fill_rows.__doc__


def test_a_callback_fills_what_c_gives_it_through_its_pointers(capi):
    # size_t read(char *buf, size_t size, void *user), as curl's upload read function and
    # libpng's read_fn: the callable writes into C's buffer through the Pointer it is given
    data = bytearray(b"hello, world")

    def read(buf, size, user):
        chunk = bytes(data[:size])
        del data[:size]
        buf[:len(chunk)] = chunk
        return len(chunk)
    assert capi.capi_pull(read, None) == 1000 * 12 + sum(b"hello, world")

    def answer(count, scale, question):
        assert question == b"how many?"
        count[0] = 6
        scale[0] = 1.5
    assert capi.capi_ask(answer) == 9.0
    # what an argument of the element's type would refuse, the element refuses
    seen = []

    def wrong(count, scale, question):
        for attempt in (lambda: count.__setitem__(0, 2**40), lambda: count.__setitem__(0, "6"),
                        lambda: count.__setitem__(slice(0, 2), [1]), lambda: question and None):
            try:
                attempt()
            except (TypeError, ValueError, OverflowError) as exc:
                seen.append(f"{type(exc).__name__}: {exc}")
        count[0] = 1
        scale[0] = 2
    assert capi.capi_ask(wrong) == 2.0
    # const float *values: read, not written (its memory may be read-only, as here)
    refused = []

    def look(values, n):
        try:
            values[0] = 9.0
        except TypeError as exc:
            refused.append(str(exc))
        return n if values[:n] == [1.5, 2.5, 4.0] else -1
    assert capi.capi_offer(look) == 8.0
    assert refused == ["a Pointer of type float * points to const elements, which cannot be set"]
    assert seen == ["OverflowError: a Pointer element: 1099511627776 is out of range [-2147483648, 2147483647]",
                    "TypeError: a Pointer element must be an integer, not str",
                    "ValueError: a slice of 2 elements of a Pointer of type int * takes 2 items, not 1"]


def test_a_prototype_opening_with_another_headers_macro_is_bound(capi):
    # bool capi_is_even(int n): its first token is <stdbool.h>'s, and the declaration was
    # taken for that header's and passed over, with no warning (55 of Z3's predicates, GLU)
    assert capi.capi_is_even(4) is True and capi.capi_is_even(3) is False


def test_a_function_a_macro_versions_is_called_by_the_name_c_callers_write(capi):
    # capi_versioned is a macro pasting _42 onto its own name (ICU's renaming); expanded
    # from its body alone, the name inside was expanded too (capi_versioned_42_42)
    assert capi.capi_versioned(1) == 43 and capi.capi_versioned is capi.capi_versioned_42


def test_a_function_a_macro_of_its_name_stands_in_for_is_called(capi):
    # capi.h ends with #define capi_tripled(x): C after the headers calling capi_tripled(x)
    # would call nothing (the Cython and cffi modules did not compile)
    assert capi.capi_tripled(5) == 15


def test_a_size_named_after_a_later_buffer_is_not_taken_for_the_one_before(capi):
    # capi_pack without the stated lengths: encoded_size follows input_buffer, but is named after
    # encoded_buffer; taken for input_buffer's length, it refused this call (brotli's encoder)
    out = bytearray(8)
    size = capi.c_ulong(len(out))
    assert capi.capi_pack_names(3, b"abc", size, out) == 1
    assert out[:size.value] == b"ABC"
    # input_size, named after the buffer after it, bounds it
    with pytest.raises(ValueError, match=r"^argument 1 \(input_size\): 4 is more than argument 2 "
                                         r"\(input_buffer\) holds \(3 bytes\)$"):
        capi.capi_pack_names(4, b"abc", capi.c_ulong(8), bytearray(8))


def test_a_length_named_only_as_one_bounds_the_buffers_right_after_it(capi):
    # void capi_xor_into(const capi_pair *state, size_t length, unsigned char *dst,
    # const unsigned char *src): as nettle's ciphers; a length past either let C go past it
    dst = bytearray(b"\x0f\x0f\x0f")
    capi.capi_xor_into(None, 3, dst, b"\x01\x02\x03")
    assert dst == b"\x0e\x0d\x0c"
    with pytest.raises(ValueError, match=r"^argument 2 \(length\): 4 is more than argument 3 \(dst\) holds "
                                         r"\(3 bytes\)$"):
        capi.capi_xor_into(None, 4, dst, b"\0" * 8)
    with pytest.raises(ValueError, match=r"^argument 2 \(length\): 3 is more than argument 4 \(src\) holds "
                                         r"\(2 bytes\)$"):
        capi.capi_xor_into(None, 3, dst, b"\0\0")


def test_a_length_named_only_as_one_bounds_the_buffers_right_before_it(capi):
    # int capi_move(void *dest, const void *src, size_t n): as memcpy; n bounded only the
    # buffer right before it, so a dest shorter than n was written past its end
    dest = bytearray(5)
    assert capi.capi_move(dest, b"hello", 5) == ord("h") and dest == b"hello"
    # and capi_move_reserved(void *__dest, const void *__src, size_t __n), as glibc spells memcpy
    for move, prefix in ((capi.capi_move, ""), (capi.capi_move_reserved, "__")):
        with pytest.raises(ValueError, match=rf"^argument 3 \({prefix}n\): 5 is more than argument 1 "
                                             rf"\({prefix}dest\) holds \(2 bytes\)$"):
            move(bytearray(2), b"hello", 5)
        with pytest.raises(ValueError, match=rf"^argument 3 \({prefix}n\): 5 is more than argument 2 "
                                             rf"\({prefix}src\) holds \(2 bytes\)$"):
            move(dest, b"hi", 5)
    # int capi_move_text(char *dest, const char *src, size_t n): as strncpy, which stops
    # reading src at its NUL (n may pass a C string's end) and writes n bytes to dest
    dest = bytearray(b"xxxxxx")
    assert capi.capi_move_text(dest, "hi", 6) == ord("h") and dest == b"hi\0\0\0\0"
    with pytest.raises(ValueError, match=r"^argument 3 \(n\): 5 is more than argument 1 \(dest\) holds "
                                         r"\(2 bytes\)$"):
        capi.capi_move_text(bytearray(2), "hello", 5)


def test_a_count_named_items_bounds_the_buffer_before_it(capi):
    # long capi_read_items(short *ptr, long items): as libsndfile's sf_read_short, which
    # wrote as many shorts as asked into whatever buffer it was given
    shorts = array.array("h", [9] * 3)
    assert capi.capi_read_items(shorts, 3) == 3 and list(shorts) == [0, 1, 2]
    with pytest.raises(ValueError, match=r"^argument 2 \(items\): 4 is more than argument 1 \(ptr\) holds "
                                         r"\(3 items\)$"):
        capi.capi_read_items(shorts, 4)


def test_a_count_after_a_c_string_is_not_its_length(capi):
    # unsigned long capi_salt(const char *prefix, unsigned long count): as crypt_gensalt's
    # rounds; taken for the length of the prefix, it refused any count past 4 for "$2b$"
    assert capi.capi_salt("$2b$", 12) == 16


def test_a_length_apart_from_its_buffer_bounds_it_when_named_after_it(capi):
    # size_t capi_fill_from(unsigned char *out, size_t *out_pos, size_t out_size): as liblzma's
    # buffer coders; out_size larger than out let C write past it (a crash some calls later)
    out, pos = bytearray(6), capi.c_ulong(2)
    assert capi.capi_fill_from(out, pos, 6) == 4 and pos.value == 6 and out == b"\0\0xxxx"
    with pytest.raises(ValueError, match=r"^argument 3 \(out_size\): 100 is more than argument 1 \(out\) "
                                         r"holds \(6 bytes\)$"):
        capi.capi_fill_from(bytearray(6), capi.c_ulong(0), 100)


def test_what_names_no_length_is_not_checked(capi):
    # nArg follows a string but counts something else: nothing is refused
    assert capi.capi_define("f", 5) == 105


# ---- ownership: what the caller must free ------------------------------------------

@pytest.fixture(scope="session", params=one_worker_each("c_apis"))
def owned(request, capi_library, tmp_path_factory, repo_root):
    """capi.h built with tests/capi/owned.toml, whose rules say which function frees what."""
    backend = request.param
    out = tmp_path_factory.mktemp(f"capi-owned-{backend}")
    name = f"capi_owned_{backend}"
    result = run_pegbind("build", "-c", str(repo_root / "tests" / "capi" / "owned.toml"), "-L", str(capi_library),
                         "--backend", backend, "--name", name, "-o", str(out), env=UNOPTIMISED)
    assert result.returncode == 0, result.stderr
    return import_from(out, name)


def test_characters_returned_with_their_length_in_a_cell_are_that_many_bytes(capi):
    # lua_tolstring(L, i, size_t *len) on "he\0llo" gave b"he"; leveldb_get's value, with no NUL
    # after it, read on into the heap
    length = capi.c_size_t()
    assert capi.capi_value_of(0, length) == b"he\0llo" and length.value == 6
    assert capi.capi_value_of(1, length) == b"plain" and length.value == 5
    raw = bytearray(8)  # any buffer of the cell's size holds the length as a cell does
    assert capi.capi_value_of(0, raw) == b"he\0llo" and raw == (6).to_bytes(8, sys.byteorder)
    assert capi.capi_value_of(0, None) == b"he"  # no cell given: no length known, read to the NUL
    assert capi.capi_value_of(2, length) is None


def test_characters_written_through_a_pointer_with_their_length_beside_are_that_many_bytes(capi):
    # TurboJPEG's tjCompress2 gave 4 bytes of a 1269-byte JPEG: read to the first NUL
    size = capi.c_ulong()
    assert capi.capi_compress(1, size) == (0, b"\xff\xd8\x00\x01") and size.value == 4


def test_characters_the_caller_frees_with_their_length_in_a_cell_are_that_many_bytes(owned):
    # returned to the caller, who frees it (g_base64_decode): copied to its length, then freed
    n = owned.c_int()
    assert owned.capi_decoded("a.b", n) == b"a\0b" and n.value == 3
    assert owned.capi_decoded("", n) == b"" and n.value == 0


def test_characters_a_member_points_at_are_text_by_default(capi):
    bitmap = capi.capi_bitmap()
    capi.capi_render(bitmap)
    assert bitmap.buffer == b""  # read up to its NUL: the first pixel


def test_characters_a_member_points_at_are_data_where_pointer_fields_says(owned):
    pixels = owned.capi_bitmap()
    owned.capi_render(pixels)
    assert type(pixels.buffer) is owned.Pointer and repr(pixels.buffer).startswith("<Pointer unsigned char * at")
    assert pixels.buffer[:pixels.rows * pixels.pitch] == bytes([0, 255, 0, 128, 0, 7])
    assert pixels.buffer[1] == 255
    # set as a buffer C may write through, kept alive with the record
    pixels.buffer = bytearray(b"\0\1\2")
    assert pixels.buffer[:3] == b"\0\1\2"


def test_close_says_the_same_in_every_backend(capi):
    said = "Free what this object owns, now (once); one the library lends is left alone."
    assert capi.capi_pair.close.__doc__ == capi.capi_db.close.__doc__ == capi.Pointer.close.__doc__ == said


def test_without_a_rule_nothing_is_freed(capi):
    before = capi.capi_live()
    for _ in range(3):
        assert capi.capi_strdup("x") == b"x"
    gc.collect()
    assert capi.capi_live() == before + 3  # the README says so: without a rule, Python frees nothing


def test_a_function_that_releases_through_the_callers_pointer_takes_it(capi):
    # void capi_node_unref(capi_node **node), as cbor_decref: C reads the pointer and writes it
    # back (NULL once released), so the T ** is inout, not an out with nothing to pass in
    before = capi.capi_live()
    node = capi.capi_node_new(2)  # its value counts its references here
    kept = capi.capi_node_unref(node)
    assert kept is not None and kept.value == 1 and capi.capi_live() == before + 1
    assert capi.capi_node_unref(kept) is None and capi.capi_live() == before
    status, db = capi.capi_db_open("scratch")
    assert status == 0 and capi.capi_db_release(db) is None
    with pytest.raises(TypeError, match=r"^argument 1 \(node\) must be capi_node or None, not capi_db$"):
        capi.capi_node_unref(capi.capi_db_open("x")[1])
    assert "capi_node_unref(node: capi_node | None, /) -> capi_node | None" in capi.capi_node_unref.__doc__
    # every parameter so: libpng's png_destroy_read_struct took none, as out-parameters, and freed nothing
    before = capi.capi_live()
    status, db = capi.capi_db_open("both")
    node = capi.capi_node_new(1)
    assert capi.capi_live() == before + 1
    assert capi.capi_db_release_both(db, node) == (None, None) and capi.capi_live() == before
    assert capi.capi_db_release_both(None, None) == (None, None)


def test_a_function_freeing_a_list_of_records_takes_the_lists_pointer(capi):
    # PROJ's proj_crs_info_list_destroy(PROJ_CRS_INFO **list): taken for one record released
    # through the caller's pointer, it refused the list and took only list[0], which C freed as a list
    before = capi.capi_live()
    spans = capi.capi_spans_new(3)
    assert [s.end for s in spans[:3]] == [0, 2, 4] and spans[3] is None
    assert capi.capi_live() == before + 1
    assert capi.capi_spans_free(spans) is None and capi.capi_live() == before
    assert "capi_spans_free(list_: Pointer | None, /) -> None" in capi.capi_spans_free.__doc__


def test_an_owned_string_is_copied_and_freed_at_once(owned):
    before = owned.capi_live()
    assert owned.capi_strdup("h\u00e9") == "h\u00e9".encode()
    assert owned.capi_live() == before


def test_an_owned_view_is_freed_once_when_collected_or_closed(owned):
    before = owned.capi_live()
    node = owned.capi_node_new(5)
    assert node.value == 5 and owned.capi_live() == before + 1
    del node
    gc.collect()
    assert owned.capi_live() == before
    node = owned.capi_node_new(6)
    node.close()
    assert owned.capi_live() == before
    node.close()  # once: a second close does nothing
    assert owned.capi_live() == before
    with pytest.raises(ValueError, match=r"^the object is closed: the memory it stood for was freed$"):
        node.value
    with pytest.raises(ValueError, match=r"^argument 1 \(node\) is closed$"):
        owned.capi_count(node)
    del node
    gc.collect()
    assert owned.capi_live() == before  # never after


def test_a_record_closed_in_a_set_is_still_found_there(owned):
    # records hash by address: closing one (its memory freed) must change no hash
    node = owned.capi_node_new(7)
    held = {node}
    view = owned.capi_node.from_pointer(node)
    assert view == node and view in held
    node.close()
    assert node in held and hash(node) == hash(view) and node == node and node != view
    held.discard(node)
    assert not held


def test_calling_the_deallocator_itself_closes_the_object(owned):
    before = owned.capi_live()
    node = owned.capi_node_new(7)
    owned.capi_node_free(node)
    assert owned.capi_live() == before
    with pytest.raises(ValueError, match=r"^argument 1 \(node\) is closed$"):
        owned.capi_node_free(node)  # never twice
    del node
    gc.collect()
    assert owned.capi_live() == before


def test_owned_objects_close_at_the_end_of_a_with_block(owned):
    before = owned.capi_live()
    with owned.capi_node_new(8) as node:
        assert node.value == 8
    assert owned.capi_live() == before
    with owned.capi_alloc(16) as memory:
        assert owned.capi_used(memory) == 16
    assert repr(memory) == "<Pointer void * (closed)>"


def test_out_parameters_can_be_owned_too(owned):
    before = owned.capi_live()
    parent = owned.capi_node_new(1)
    assert owned.capi_node_child(parent, 2)[0] == 1
    gc.collect()
    assert owned.capi_live() == before + 1  # the child went with its Python object
    status, db = owned.capi_db_open("main")
    assert status == 0
    db.close()
    assert repr(db) == "<capi_db handle (closed)>"
    with pytest.raises(ValueError, match=r"^argument 1 \(db\) is closed$"):
        owned.capi_db_name(db)
    parent.close()
    assert owned.capi_live() == before


def test_borrowed_objects_are_left_alone_by_close(owned):
    root = owned.capi_tree()
    root.close()  # the library lends it: nothing to free, nothing closed
    assert root.value == 1


# ---- enum fields ------------------------------------------------------------------

def test_enum_fields_read_as_members_and_take_ints(capi):
    holder = capi.capi_holder(color=2)
    assert holder.color is capi.capi_color.CAPI_GREEN
    holder.color = capi.CAPI_BLUE
    assert holder.color is capi.capi_color.CAPI_BLUE
    holder.color = 3  # a value that is no member stays an int
    assert holder.color == 3 and type(holder.color) is int
    with pytest.raises(TypeError, match=r"^capi_holder\.color must be an integer, not str$"):
        holder.color = "blue"
    with pytest.raises(OverflowError, match=r"^capi_holder\.color: 1099511627776 is out of range \[0, 4294967295\]$"):
        holder.color = 2**40
    assert holder.color == 3


def test_enum_bitfields_and_enums_of_nested_records_are_members_too(capi):
    event = capi.capi_event()
    assert capi.capi_parse("scalar:x", event) == 1
    assert event.stats.tint is capi.capi_color.CAPI_BLUE and event.stats.flags == 5
    assert event.data.scalar.style is capi.capi_color.CAPI_GREEN
    event.stats.tint = 1
    assert event.stats.tint is capi.capi_color.CAPI_RED and event.stats.flags == 5
    # an unnamed enum is named after its member, as unnamed records are
    assert event.stats.level is capi.capi_event_stats_level.CAPI_LOUD and capi.CAPI_LOUD is event.stats.level
    with pytest.raises(OverflowError, match=r"^capi_event_stats\.flags: 8 is out of range \[0, 7\]$"):
        event.stats.flags = 8
    with pytest.raises(OverflowError, match=r"^capi_event_stats\.level: -1 is out of range \[0, 3\]$"):
        event.stats.level = -1
    event.stats.level = capi.CAPI_QUIET
    assert event.stats.level is capi.capi_event_stats_level.CAPI_QUIET and event.stats.class_ == -3
    capi.capi_event_delete(event)


# ---- nested and anonymous records -------------------------------------------------

def test_an_event_of_unnamed_structs_in_a_union_reads_as_libyaml_users_read_it(capi):
    event = capi.capi_event()
    assert capi.capi_parse("scalar:hello", event) == 1
    assert event.type is capi.capi_event_type.CAPI_SCALAR_EVENT
    scalar = event.data.scalar
    assert scalar.value[:scalar.length] == b"hello" and scalar.anchor == b"anchor"
    assert (event.start_mark.line, event.start_mark.column) == (7, 12)
    capi.capi_event_delete(event)
    assert event.type is capi.capi_event_type.CAPI_NO_EVENT and scalar.value is None  # a view: the same memory
    assert capi.capi_parse("alias:there", event) == 1
    assert event.data.alias.anchor == b"there"
    capi.capi_event_delete(event)


def test_unnamed_record_types_are_classes_named_after_their_member(capi):
    event = capi.capi_event()
    capi.capi_parse("sequence:2", event)
    assert type(event.data) is capi.capi_event_data
    assert type(event.data.scalar) is capi.capi_event_data_scalar
    assert type(event.data.sequence) is capi.capi_event_data_sequence
    assert type(event.stats) is capi.capi_event_stats
    assert [type(mark) for mark in event.marks] == [capi.capi_event_marks] * 2
    assert type(event.data.sequence.nesting) is capi.capi_event_data_sequence_nesting
    assert capi.capi_event_data.sizeof == max(capi.capi_event_data_scalar.sizeof, capi.capi_event_data_alias.sizeof,
                                              capi.capi_event_data_sequence.sizeof)
    assert event.data.sequence.count == 2 and event.data.sequence.items == [0, 10, 20, 30]
    assert event.data.sequence.nesting.depth == 3 and [mark.id for mark in event.marks] == [0, 42]
    # the union's text is not read: for this event, its bytes are the sequence's count and items
    assert repr(event).startswith(
        "capi_event(type=<capi_event_type.CAPI_SEQUENCE_EVENT: 3>, data=capi_event_data(scalar=..., alias=..., "
        "sequence=capi_event_data_sequence(count=2, items=[0, 10, 20, 30], "
        "nesting=<capi_event_data_sequence_nesting at 0x"
    )


def test_members_of_anonymous_members_are_the_parents_as_in_c(capi):
    event = capi.capi_event()
    capi.capi_parse("alias:a", event)
    assert (event.low, event.high) == (1, 2)
    assert event.code == 2 << 32 | 1  # the union's other member: the same bytes
    event.code = 7
    assert (event.low, event.high) == (7, 0)
    assert not hasattr(capi, "capi_event_code")  # an anonymous member needs no class
    capi.capi_event_delete(event)


def test_nested_views_write_through_and_records_copy_in(capi):
    event = capi.capi_event(type=capi.CAPI_SCALAR_EVENT)
    data = event.data
    data.scalar.length = 4
    assert event.data.scalar.length == 4
    scalar = capi.capi_event_data_scalar(value=bytearray(b"copy"), length=4, style=capi.CAPI_RED)
    event.data.scalar = scalar
    del scalar, data
    gc.collect()
    assert capi.capi_event_value_length(event) == 4  # what the copied pointer points to is kept alive
    assert event.data.scalar.value == b"copy" and event.data.scalar.style is capi.capi_color.CAPI_RED
    event.data.sequence.nesting = capi.capi_event_data_sequence_nesting(depth=9)
    gc.collect()
    assert capi.capi_event_depth(event) == 9
    with pytest.raises(TypeError, match=r"^capi_event\.data must be a capi_event_data, not capi_event_data_scalar$"):
        event.data = capi.capi_event_data_scalar()


# ---- pointer fields ---------------------------------------------------------------

POINTER_FIELDS = ("name", "buffer", "bytes", "node", "next", "db", "easy", "data", "numbers", "constants", "rows",
                  "ref")


def test_pointer_fields_of_library_records_read_as_views_bytes_handles_and_pointers(capi):
    holder = capi.capi_holder_library()
    assert (holder.name, holder.buffer, holder.bytes) == (b"library", b"buffer", "\u00e9t\u00e9".encode())
    assert type(holder.node) is capi.capi_node and holder.node.name == b"a" and holder.node.next.name == b"b"
    assert type(holder.next) is capi.capi_holder and holder.next.next.name == b"library"
    assert holder.db is None
    assert type(holder.easy) is capi.CAPI_EASY and holder.easy == capi.capi_easy_init()
    assert type(holder.data) is capi.Pointer and repr(holder.data).startswith("<Pointer void * at ")
    assert repr(holder.numbers).startswith("<Pointer int * at ")
    assert repr(holder.rows).startswith("<Pointer int ** at ")
    assert capi.capi_table_at(holder.constants, 1) == 20  # a Pointer goes back where C takes its type
    assert capi.capi_row_sum(holder.rows, 0) == 6
    assert type(holder.ref) is capi.capi_ref and (holder.ref.refs, holder.ref.label) == (2, b"shared")
    assert not any(type(getattr(holder, name)) is int for name in POINTER_FIELDS)  # never a bare address
    # a record a member points to is shown by class and address: the list would never end
    assert "node=<capi_node at 0x" in repr(holder) and "next=<capi_holder at 0x" in repr(holder)


def test_pointer_fields_take_what_c_reads_and_keep_it_alive(capi):
    holder = capi.capi_holder()
    assert all(getattr(holder, name) is None for name in POINTER_FIELDS)
    holder.name = "h\u00e9"  # str: its UTF-8 bytes
    holder.node = capi.capi_node(value=5)
    holder.next = capi.capi_holder(color=capi.CAPI_BLUE)
    gc.collect()
    assert capi.capi_holder_name_length(holder) == 3 and holder.name == "h\u00e9".encode()
    assert capi.capi_holder_node_value(holder) == 5 and holder.node.value == 5
    assert capi.capi_holder_next_color(holder) == 4 and holder.next.color is capi.capi_color.CAPI_BLUE
    status, db = capi.capi_db_open("main")
    holder.db = db
    holder.easy = capi.capi_easy_init()
    del db
    gc.collect()
    assert capi.capi_holder_db_is_open(holder) == 1 and capi.capi_holder_easy_perform(holder) == 0
    holder.easy = capi.capi_void_out()[1]  # a void * Pointer, as C converts it
    assert capi.capi_holder_easy_perform(holder) == -1
    holder.data = b"\x07"
    assert capi.capi_holder_data_byte(holder) == 7
    holder.data = capi.capi_node(value=9)  # void * takes records, handles and Pointers of any type
    gc.collect()
    assert capi.capi_holder_data_byte(holder) == 9
    holder.data = capi.capi_table()
    assert capi.capi_holder_data_byte(holder) == 10
    numbers = array.array("i", [41, 0])
    holder.numbers = numbers
    assert capi.capi_holder_bump(holder) == 42 and numbers[0] == 42  # C writes into the caller's buffer
    holder.constants = capi.capi_table()
    assert capi.capi_holder_constant(holder, 2) == 30
    holder.constants = array.array("i", [3, 4, 5])
    assert capi.capi_holder_constant(holder, 2) == 5
    holder.rows = capi.capi_rows()
    assert capi.capi_holder_row_sum(holder, 1) == 15
    holder.ref = capi.capi_ref(refs=7, label="mine")  # the unnamed struct a typedef points to
    gc.collect()
    assert capi.capi_holder_refs(holder) == 7 and holder.ref.label == b"mine"
    for name in POINTER_FIELDS:
        setattr(holder, name, None)
        assert getattr(holder, name) is None
    assert capi.capi_holder_node_value(holder) == -1 and capi.capi_holder_row_sum(holder, 0) == -1


def test_character_fields_take_str_bytes_and_buffers(capi):
    holder = capi.capi_holder(buffer="abc", bytes=b"de")
    # read-only text where C may write is a private copy
    assert capi.capi_holder_upcase(holder) == 3 and (holder.buffer, holder.bytes) == (b"ABC", b"DE")
    shared = bytearray(b"xyz")
    holder.buffer = shared
    capi.capi_holder_upcase(holder)
    assert shared == bytearray(b"XYZ")  # a writable buffer is shared
    holder.bytes = memoryview(bytearray(b"abcdef"))[:3]
    assert holder.bytes == b"abc"  # no NUL in the buffer: read no further than its end
    holder.name = b"x\0y"
    assert holder.name == b"x" and capi.capi_holder_name_length(holder) == 1
    holder.name = memoryview(b"abcdef")[:3]  # read-only, where C only reads: passed where it is
    assert holder.name == b"abc" and capi.capi_holder_name_length(holder) == 6  # (C reads to a NUL)


def test_a_value_read_from_a_pointer_field_outlives_the_field_being_set_again(capi):
    holder = capi.capi_holder(node=capi.capi_node(value=11), next=capi.capi_holder(name="next"))
    node, following = holder.node, holder.next
    holder.node = holder.next = None
    del holder
    gc.collect()
    assert node.value == 11 and following.name == b"next"


def test_pointer_fields_refuse_what_c_cannot_take(capi):
    holder = capi.capi_holder()
    cases = [
        ("node", capi.capi_holder(), TypeError, "capi_holder.node must be a capi_node or None, not capi_holder"),
        ("node", 1, TypeError, "capi_holder.node must be a capi_node or None, not int"),
        ("next", capi.capi_tree(), TypeError, "capi_holder.next must be a capi_holder or None, not capi_node"),
        ("name", 5, TypeError, "capi_holder.name must be str, bytes, a buffer or None, not int"),
        ("name", "a\0b", ValueError, "capi_holder.name must not contain a NUL character"),
        ("buffer", memoryview(bytearray(8))[::2], TypeError,
         "capi_holder.buffer must be str, bytes, a buffer or None, not memoryview"),
        ("db", capi.capi_easy_init(), TypeError, "capi_holder.db must be a capi_db or None, not CAPI_EASY"),
        ("easy", capi.capi_multi_init(), TypeError, "capi_holder.easy must be a CAPI_EASY or None, not CAPI_MULTI"),
        ("data", 5, TypeError, "capi_holder.data must be a contiguous buffer, not int"),
        ("numbers", b"1234", TypeError, "capi_holder.numbers must be a writable contiguous buffer, not bytes"),
        ("numbers", bytearray(2), ValueError, "capi_holder.numbers needs at least 4 bytes, got 2"),
        ("numbers", capi.capi_rows(), TypeError,
         "capi_holder.numbers must be a writable contiguous buffer or a Pointer of type int *, not a Pointer of type int **"),
        ("numbers", capi.capi_node(), TypeError,
         "capi_holder.numbers must be a writable contiguous buffer, not capi_node"),
        ("rows", capi.capi_table(), TypeError,
         "capi_holder.rows must be a writable contiguous buffer or a Pointer of type int **, not a Pointer of type int *"),
    ]
    for name, value, error, message in cases:
        with pytest.raises(error) as raised:
            setattr(holder, name, value)
        assert str(raised.value) == message
        assert getattr(holder, name) is None  # nothing was stored


def test_records_a_pointer_member_may_keep_are_seen_by_the_cyclic_gc(capi):
    # holder.data = event.start_mark: the holder keeps a view that keeps the event
    # alive, which may hold the holder in turn; such a cycle must be collectable
    event, holder = capi.capi_event(), capi.capi_holder()
    holder.data = event.start_mark
    assert gc.is_tracked(event.start_mark) and gc.is_tracked(holder)
    holder.next = holder  # a record pointing to itself
    assert holder.next.next.color == 0


# ---- variadic functions ---------------------------------------------------------------------

def test_a_variadic_function_takes_its_extra_arguments_by_cs_promotions(capi):
    buf = bytearray(64)
    n = capi.capi_format(buf, len(buf), "%d|%s|%.2f|%lld|%s|%c", 7, "x\u00e9", 2.5, 2**40, b"yz", ord("!"))
    assert bytes(buf[:n]) == "7|x\u00e9|2.50|1099511627776|yz|!".encode()
    # a Python int goes as a 64-bit integer: what C reads as a long long, a long or an int
    assert capi.capi_add(20, *range(20)) == 190  # more extra arguments than registers
    assert capi.capi_add(2, -(2**63), 2**63 - 1) == -1
    assert capi.capi_add(1, 2**64 - 1) == -1  # an unsigned 64-bit value: the same bits
    assert capi.capi_add(3, True, capi.capi_color.CAPI_BLUE, 0) == 1 + capi.CAPI_BLUE  # ints, as C sees them
    assert capi.capi_add(0) == 0
    assert capi.capi_visit_all(lambda value, user: value * value, 3, 1, 2, 3) == 14  # a callable among the inputs
    n = capi.capi_format(buf, len(buf), "%p|%s", None, memoryview(b"view\0"))
    assert bytes(buf[:n]) == b"(nil)|view"


def test_typed_arguments_give_the_exact_c_type(capi):
    buf = bytearray(64)
    n = capi.capi_format(buf, len(buf), "%Lg|%hd|%u|%g", capi.c_longdouble.arg(1.5), capi.c_short.arg(-2),
                         capi.c_uint.arg(2**32 - 1), capi.c_float.arg(0.25))
    assert bytes(buf[:n]) == b"1.5|-2|4294967295|0.25"
    assert repr(capi.c_uint.arg(7)) == "c_uint.arg(7)" and capi.c_uint.arg(7).value == 7
    with pytest.raises(OverflowError, match=r"^c_uint.value: -1 is out of range \[0, 4294967295\]$"):
        capi.c_uint.arg(-1)
    assert capi.c_int.arg.__doc__.startswith("A C int among a variadic function's extra arguments")


def test_wrong_extra_arguments_raise_and_never_reach_c(capi):
    with pytest.raises(OverflowError, match=r"^argument 3 \(\.\.\.\): 18446744073709551616 is out of range "
                                            r"\[-9223372036854775808, 18446744073709551615\]$"):
        capi.capi_add(2, 1, 2**64)
    with pytest.raises(TypeError, match=r"^argument 2 \(\.\.\.\) must be an int, float, str, bytes, buffer, record, "
                                        r"Pointer, FunctionPointer, cell, typed argument \(c_int.arg\(5\)\) or None, "
                                        r"not object$"):
        capi.capi_add(1, object())
    with pytest.raises(TypeError, match=r"^argument 2 \(\.\.\.\) must be a FunctionPointer, not a callable"):
        capi.capi_add(1, len)
    with pytest.raises(ValueError, match=r"^argument 4 \(\.\.\.\) must not contain a NUL character$"):
        capi.capi_format(bytearray(8), 8, "%s", "a\0b")
    with pytest.raises(TypeError, match=r"^argument 1 \(count\) must be an integer, not str$"):
        capi.capi_add("1", 1)  # the declared parameters are checked as ever, and first


def test_cells_and_pointers_go_as_addresses_as_curl_easy_getinfo_takes_them(capi):
    status, db = capi.capi_db_open("main")
    assert capi.capi_db_setopt(db, capi.CAPI_OPT_NAME, "renamed") == 0
    assert capi.capi_db_name(db) == b"renamed"
    assert capi.capi_db_setopt(db, capi.CAPI_OPT_LIMIT, 42) == 0
    limit, weight = capi.c_long(), capi.c_double()
    assert capi.capi_db_getinfo(db, capi.CAPI_INFO_LIMIT, limit) == 0 and limit.value == 42
    assert capi.capi_db_getinfo(db, capi.CAPI_INFO_WEIGHT, weight) == 0 and weight.value == 10.5
    name = bytearray(8)  # a buffer goes as the address of its bytes: C stores a char * there
    assert capi.capi_db_getinfo(db, capi.CAPI_INFO_NAME, name) == 0
    assert int.from_bytes(name, "little") != 0
    # bytes go as a copy: what C writes there (libtiff's TIFFGetField given b"1234") went into
    # the bytes object, changing that value for the whole interpreter
    frozen = b"\xff" * 8
    assert capi.capi_db_getinfo(db, capi.CAPI_INFO_LIMIT, frozen) == 0
    assert frozen == bytes([255] * 8) and bytes([255]) == b"\xff"
    # and a read-only buffer's slice ends where it does (cffi's %s read on to the whole's NUL)
    buf = bytearray(16)
    assert capi.capi_format(buf, len(buf), "[%s]", memoryview(b"abcdef")[:2]) == 4 and buf[:5] == b"[ab]\0"
    capi.capi_db_close(db)


def test_a_function_pointer_among_extra_arguments_is_kept_in_its_own_slot(capi):
    status, db = capi.capi_db_open("main")
    heard = []
    capi.capi_db_setopt(db, capi.CAPI_OPT_LISTENER, capi.capi_listener(lambda who, text, w: heard.append(text)))
    capi.capi_db_setopt(db, capi.CAPI_OPT_ON_SAY, capi.capi_listener(lambda who, text, w: heard.append(w)))
    gc.collect()  # the caller kept neither: the handle keeps each, under the option that set it
    assert capi.capi_db_say(db, "hi") == 1
    assert heard == [b"hi", 1.5]

    def fail(who, text, weight):
        raise LookupError(text)

    capi.capi_db_setopt(db, capi.CAPI_OPT_LISTENER, capi.capi_listener(fail))
    with pytest.raises(LookupError, match="boom"):
        capi.capi_db_say(db, "boom")  # raised by the call during which C called it
    capi.capi_db_setopt(db, capi.CAPI_OPT_LISTENER, None)
    assert capi.capi_db_say(db, "quiet") == 3
    assert heard == [b"hi", 1.5, 1.5, 1.5]
    capi.capi_db_close(db)


# ---- what a callable that raised gives C --------------------------------------------------------

def test_a_raising_callable_gives_c_what_the_config_names(owned, monkeypatch):
    def boom(value, user):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        owned.capi_apply(boom, None, 1)
    assert owned.capi_applied() == owned.CAPI_BLUE  # callbacks.capi_visit = "on_error(CAPI_BLUE)"
    with pytest.raises(KeyError, match="boom"):
        owned.capi_apply(owned.capi_visit(boom), None, 1)  # the typedef's class gives the same
    assert owned.capi_applied() == owned.CAPI_BLUE
    with pytest.raises(OverflowError, match="out of range"):  # and a result C cannot take
        owned.capi_apply(lambda value, user: 2**40, None, 1)
    assert owned.capi_applied() == owned.CAPI_BLUE
    # one parameter's rule: with no Python beneath the callable, C's result is all the caller sees
    monkeypatch.setattr("sys.unraisablehook", lambda unraisable: None)
    assert owned.capi_in_thread(lambda value: 1 / 0, 3) == -7
    # the rule of a typedef of a function type holds where a parameter is a pointer to one
    for proc in (boom, owned.capi_plain_proc(boom)):
        with pytest.raises(KeyError, match="boom"):
            owned.capi_call_plain(proc, None, 1)
        assert owned.capi_plain_got() == -5


@pytest.mark.parametrize(("flags", "message"), [
    (["--callback", "capi_listener=on_error(1)"],
     "callbacks.capi_listener: on_error(1): the function returns void: C takes no result from it"),
    (["--callback", "capi_visit=on_error(NO_SUCH)"],
     "callbacks.capi_visit: on_error(NO_SUCH): no constant of the headers has that name, and it is no number"),
    (["--callback", "capi_visit=on_error(2147483648)"],
     "callbacks.capi_visit: on_error(2147483648): 2147483648 is no value of its result type int "
     "[-2147483648, 2147483647]"),
    (["--callback", "no_such_t=on_error(1)"],
     "callbacks.no_such_t: the headers declare no function pointer type no_such_t"),
    (["--function", "capi_apply:x=on_error(1)"],
     "--function.params.x: on_error(1) is for a function pointer parameter, but 'x' of capi_apply is not one"),
    (["--callback", "capi_visit"], "--callback: expected TYPEDEF=on_error(VALUE), got 'capi_visit'"),
])
def test_what_a_raising_callable_gives_c_is_checked_against_the_headers(repo_root, tmp_path, flags, message):
    result = run_pegbind("generate", str(repo_root / "tests" / "capi" / "capi.h"), "--backend", "ctypes",
                         "-o", str(tmp_path), *flags)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_callable_gives_c_back_a_pointer_c_handed_out(capi):
    opened = []

    def open_db(name):
        status, db = capi.capi_db_open(name)
        opened.append(db)  # the caller keeps what it gives C, as C's own would be kept
        return db

    assert capi.capi_open_with(open_db, "from python") == b"from python"
    assert capi.capi_open_with(lambda name: None, "x") is None  # None is NULL
    memory = capi.capi_alloc(16)
    assert capi.capi_fill_with(lambda size: memory, 16) == 7
    assert capi.capi_fill_with(lambda size: None, 16) == -1
    with pytest.raises(TypeError, match=r"^the result of a callback struct capi_db \*\(\*\)\(const char \*\) "
                                        r"must be capi_db or None, not bytes$"):
        capi.capi_open_with(lambda name: b"not memory of C's", "x")
    with pytest.raises(TypeError, match=r"^the result of a callback void \*\(\*\)\(unsigned long\) must be a "
                                        r"Pointer of type void \* or None, not int$"):
        capi.capi_fill_with(lambda size: 1234, 16)  # an address made up would crash C
    for db in opened:
        capi.capi_db_close(db)


def test_a_function_pointer_field_takes_a_callable_the_record_keeps(capi):
    handler = capi.capi_handler(visit=lambda value, user: value + 1)
    handler.twice = lambda value: 2 * value
    gc.collect()  # the caller kept neither callable: the record does
    assert capi.capi_handler_run(handler, 5) == 6 + 10
    assert isinstance(handler.visit, capi.FunctionPointer)
    handler.visit = capi.capi_visit(lambda value, user: -value)  # a typedef's class, as before
    handler.twice = None
    assert capi.capi_handler_run(handler, 5) == -5

    def fail(value):
        raise ArithmeticError("no")

    handler.twice = fail
    with pytest.raises(ArithmeticError, match="no"):
        capi.capi_handler_run(handler, 5)  # raised by the call during which C called it
    with pytest.raises(TypeError, match=r"^capi_handler.twice must be a callable, a FunctionPointer or None, not int$"):
        handler.twice = 3


# ---- the same through load(path) -------------------------------------------------------------

@pytest.fixture(scope="session", params=one_worker_each("c_apis"))
def loaded(request, capi_library, tmp_path_factory, repo_root):
    """capi.h built for ``load(path)`` (cffi's ABI mode), and the test library loaded through it."""
    backend = request.param
    out = tmp_path_factory.mktemp(f"capi-dynamic-{backend}")
    name = f"capi_dynamic_{backend}"
    result = run_pegbind("build", str(repo_root / "tests" / "capi" / "capi.h"), "--load", "dynamic",
                         "--backend", backend, "--name", name, "-o", str(out), env=UNOPTIMISED)
    assert result.returncode == 0, result.stderr
    module = import_from(out, name)
    return module, module.load(str(capi_library / "libcapi.so"))


def test_callables_and_variadic_calls_work_through_a_loaded_library(loaded):
    m, lib = loaded
    buf = bytearray(32)
    n = lib.capi_format(buf, len(buf), "%d|%s|%Lg", 7, "x", m.c_longdouble.arg(2.5))
    assert bytes(buf[:n]) == b"7|x|2.5"
    assert lib.capi_visit_all(lambda value, user: value + 1, 2, 10, 20) == 32
    assert lib.capi_apply(m.capi_visit(lambda value, user: value * 3), None, 5) == 16
    status, db = lib.capi_db_open("main")
    limit = m.c_long()
    assert lib.capi_db_setopt(db, m.CAPI_OPT_LIMIT, 9) == 0 and lib.capi_db_getinfo(db, m.CAPI_INFO_LIMIT, limit) == 0
    assert limit.value == 9
    handler = m.capi_handler(twice=lambda value: 2 * value)
    assert lib.capi_handler_run(handler, 4) == 8
    lib.capi_db_close(db)


def test_the_stub_types_callables_where_c_takes_a_function_pointer(repo_root, tmp_path):
    result = run_pegbind("generate", str(repo_root / "tests" / "capi" / "capi.h"), "--backend", "cython",
                         "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr
    stub = (tmp_path / "capi.pyi").read_text()
    assert ("def capi_apply(f: Callable[[int, Pointer | None], int] | FunctionPointer | None, "
            "user: _WritableBuffer | _Cell | _AnyRecord | Pointer | None, x: int, /) -> int: ...") in stub
    assert "def twice(self, value: Callable[[int], int] | FunctionPointer | None) -> None: ..." in stub
    assert "class capi_listener(FunctionPointer):" in stub
    assert ("def capi_add(count: int, /, *args: int | float | str | bytes | _Buffer | Pointer | FunctionPointer "
            "| _Cell | _Arg | None) -> int: ...") in stub
    assert "def arg(cls, value: int, /) -> _Arg: ..." in stub


# ---- characters with their count in another member ------------------------------

def test_characters_whose_count_a_member_states_read_as_that_many_bytes(capi):
    datum = capi.capi_datum_get()  # gdbm's datum: NULs inside, none after
    assert (datum.dptr, datum.dsize) == (b"a\0b", 3)
    assert capi.capi_datum_sum(datum) == ord("a") + ord("b")
    reply = capi.capi_reply_get()  # the count before the pointer, another text beside
    assert (reply.str, reply.note) == (b"x\0y", b"note")
    made = capi.capi_datum(dptr=b"xyz", dsize=2)
    assert made.dptr == b"xy" and capi.capi_datum_sum(made) == ord("x") + ord("y")
    made.dsize = -1
    assert made.dptr == b""
    made.dptr = None
    assert made.dptr is None


def test_a_record_class_views_the_record_a_pointer_points_to(capi):
    status, any_reply = capi.capi_reply_any()  # void **: a Pointer of type void *
    assert status == 0 and repr(any_reply).startswith("<Pointer void * at ")
    reply = capi.capi_reply.from_pointer(any_reply)  # C's (capi_reply *)p
    assert type(reply) is capi.capi_reply and (reply.len, reply.str) == (3, b"x\0y")
    assert bytes(reply) == bytes(capi.capi_reply_get())
    del any_reply
    assert reply.note == b"note"  # the view keeps the Pointer alive
    items = capi.capi_listing_get().items  # a Pointer of another type, as C would need a cast
    with pytest.raises(TypeError, match=r"^capi_reply\.from_pointer: argument 1 \(pointer\) must be a Pointer of type "
                                        r"struct capi_reply \* or void \*, not a Pointer of type struct capi_pair \*\*$"):
        capi.capi_reply.from_pointer(items)
    same = capi.capi_reply_get()
    assert bytes(capi.capi_reply.from_pointer(same)) == bytes(same)  # a record: a view of its memory
    for wrong, name in ((5, "int"), (None, "NoneType")):
        with pytest.raises(TypeError, match=rf"^capi_reply\.from_pointer: argument 1 \(pointer\) must be a Pointer of "
                                            rf"type struct capi_reply \* or void \*, not {name}$"):
            capi.capi_reply.from_pointer(wrong)


def test_a_count_member_may_not_exceed_the_characters_the_record_holds(capi):
    made = capi.capi_datum(dptr=b"xyz", dsize=3)
    with pytest.raises(ValueError, match=r"^capi_datum\.dsize: 4 is more than capi_datum\.dptr holds \(3 bytes\)$"):
        made.dsize = 4
    with pytest.raises(ValueError, match=r"^capi_datum\.dsize: 4 is more than capi_datum\.dptr holds \(3 bytes\)$"):
        capi.capi_datum(dptr=b"xyz", dsize=4)
    # fewer characters than the count states: C would read past them (argon2's out, outlen)
    with pytest.raises(ValueError, match=r"^capi_datum\.dptr: holds 2 bytes, fewer than the 3 capi_datum\.dsize "
                                        r"states \(set capi_datum\.dsize first\)$"):
        made.dptr = "ab"
    with pytest.raises(ValueError, match=r"^capi_datum\.dptr: holds 1 byte, fewer than the 3 capi_datum\.dsize "):
        made.dptr = bytearray(1)
    assert made.dptr == b"xyz"
    made.dsize = 2  # the count first, then the characters: a pair shrinks so
    made.dptr = "ab"
    assert capi.capi_datum_sum(made) == ord("a") + ord("b")
    with pytest.raises(ValueError, match=r"^capi_datum\.dsize: 3 is more than capi_datum\.dptr holds \(2 bytes\)$"):
        made.dsize = 3
    reply = capi.capi_reply(len=5, str=b"hello", note="n")  # the count first, as C declares it
    with pytest.raises(ValueError, match=r"^capi_reply\.len: 6 is more than capi_reply\.str holds \(5 bytes\)$"):
        capi.capi_reply(len=6, str=b"hello")  # a constructor sets the characters first
    made.dptr = None  # C's memory or none: not known, not checked
    made.dsize = 100
    # libuv's uv_buf_t { char *base; size_t len; } is such a pair too
    buf = capi.capi_iobuf(base=b"a\0b", len=3)
    assert buf.base == b"a\0b" and capi.capi_iobuf_sum(buf) == ord("a") + ord("b")
    with pytest.raises(ValueError, match=r"^capi_iobuf\.len: 200000 is more than capi_iobuf\.base holds \(3 bytes\)$"):
        capi.capi_iobuf(base=bytearray(3), len=200000)


def test_a_buffer_set_in_the_librarys_record_lives_after_the_callback_that_set_it(capi):
    # libuv's alloc callback: the record is C's, the view of it is gone when the callback
    # returns, and C reads into the buffer after that; the buffer lives until that member is
    # set again (the next alloc), as C holds it till then
    buffers, read = [], []

    def alloc(suggested, buf):
        data = array.array("b", bytes(suggested))
        buffers.append(weakref.ref(data))
        buf.base, buf.len = data, suggested

    def on_read(nread, buf):
        gc.collect()
        read.append((nread, buf.base, buf.len))

    assert capi.capi_read_stream(alloc, on_read, "hello") == 5
    gc.collect()
    assert read == [(5, b"hello", 5)] and buffers[0]() is not None
    assert capi.capi_read_stream(alloc, on_read, "again!") == 6
    gc.collect()
    assert read[1] == (6, b"again!", 6)
    assert buffers[0]() is None and buffers[1]() is not None  # the member was set again: the first went


def test_a_record_keeping_a_callable_is_copied(capi):
    buf = capi.capi_iobuf()
    capi.capi_iobuf_refill(buf, lambda size, into: setattr(into, "len", size))
    assert buf.len == 8
    pair = capi.capi_iobuf_pair(first=buf)  # its bytes copied; the callable stays with buf
    assert pair.first.len == 8 and pair.second.len == 0


def test_a_void_pointer_takes_a_cell_of_any_type(capi):
    size, count, ratio = capi.c_size_t(), capi.c_int(), capi.c_double()
    assert capi.capi_getparam(0, size) == capi.capi_getparam(1, count) == capi.capi_getparam(2, ratio) == 0
    assert (size.value, count.value, ratio.value) == (1 << 20, -7, 0.5)
    raw = bytearray(8)  # a buffer as before
    assert capi.capi_getparam(1, raw) == 0 and int.from_bytes(raw[:4], "little", signed=True) == -7
    with pytest.raises(TypeError, match=r"^argument 2 \(value\) must be a writable contiguous buffer or a cell, "
                                        r"not int$"):
        capi.capi_getparam(0, 5)


def test_an_unnamed_size_t_after_an_unnamed_buffer_is_its_size(capi):
    assert capi.capi_unnamed_sum(b"\x01\x02\x03", 3) == 6
    with pytest.raises(ValueError, match=r"^argument 2 \(arg1\): 4 is more than argument 1 \(arg0\) holds \(3 bytes\)$"):
        capi.capi_unnamed_sum(b"\x01\x02\x03", 4)
    out = bytearray(4)
    capi.capi_unnamed_fill(out, 4, 9)
    assert out == b"\x09" * 4
    with pytest.raises(ValueError, match=r"^argument 2 \(arg1\): 5 is more than argument 1 \(arg0\) holds \(4 bytes\)$"):
        capi.capi_unnamed_fill(out, 5, 0)
    # a size_t in a cell right after it too: C reads the room from it (pcre2's substring copies)
    size = capi.c_size_t(8)
    room = bytearray(8)
    assert capi.capi_unnamed_copy(room, size) == 0 and (room[:6], size.value) == (b"hello\0", 5)
    with pytest.raises(ValueError, match=r"^argument 2 \(arg1\): 100 is more than argument 1 \(arg0\) holds \(4 bytes\)$"):
        capi.capi_unnamed_copy(bytearray(4), capi.c_size_t(100))
    # a 64-bit size of the library's own typedef (libzip's zip_fread read 1 MB into 4 bytes)
    assert capi.capi_unnamed_sum64(b"\x01\x02", 2) == 3
    with pytest.raises(ValueError, match=r"^argument 2 \(arg1\): 3 is more than argument 1 \(arg0\) holds \(2 bytes\)$"):
        capi.capi_unnamed_sum64(b"\x01\x02", 3)
    # an int cell, then a size_t cell: the offset C sets there is no length of the one int
    code, offset = capi.c_int(), capi.c_size_t()
    for _ in range(2):  # called again with the cells as C left them, as pcre2_compile's are
        assert capi.capi_unnamed_error(code, offset) == -1
    assert (code.value, offset.value) == (1, 6)


def test_the_most_c_may_write_bounds_the_buffer_it_writes(capi):
    # gcry_sexp_sprint(s, 3, bytearray(4), 100) wrote 6 bytes into 4
    room = bytearray(8)
    assert capi.capi_sprint(room, 8) == 6 and room[:6] == b"hello\0"
    with pytest.raises(ValueError, match=r"^argument 2 \(maxlength\): 100 is more than argument 1 \(buffer\) "
                                         r"holds \(4 bytes\)$"):
        capi.capi_sprint(bytearray(4), 100)
    assert capi.capi_strnlen(b"abc", 100) == 3  # a string C reads to its NUL: no check


def test_names_ending_in_an_underscore_or_saying_bytes_state_lengths(capi):
    # zmq's buf_, len_ (zmq_recv read 200 kB into 16 bytes); libsndfile's sf_read_raw(sf, ptr, bytes)
    assert capi.capi_sum_us(b"\x01\x02", 2) == 3
    with pytest.raises(ValueError, match=r"^argument 2 \(len_\): 5 is more than argument 1 \(buf_\) holds \(2 bytes\)$"):
        capi.capi_sum_us(b"\x01\x02", 5)
    assert capi.capi_sum_bytes(b"\x01\x02", 2) == 3
    with pytest.raises(ValueError, match=r"^argument 2 \(bytes_\): 5 is more than argument 1 \(ptr\) holds \(2 bytes\)$"):
        capi.capi_sum_bytes(b"\x01\x02", 5)


def test_a_void_pointer_a_callable_is_given_with_its_size_is_bounded_by_it(capi):
    # libsndfile's sf_vio_read(void *ptr, sf_count_t count, void *user): writing past count
    # went past the library's buffer
    def fill(ptr, count, user):
        assert count == 8
        ptr[:count] = bytes(range(1, 9))
        return count

    assert capi.capi_vio(fill, None) == 36
    seen = []

    def overrun(ptr, count, user):
        try:
            ptr[:count + 1] = bytes(count + 1)
        except IndexError as error:
            seen.append(str(error))
        try:
            ptr[count]
        except IndexError as error:
            seen.append(str(error))
        return -1

    assert capi.capi_vio(overrun, None) == -1
    assert len(seen) == 2 and all("8 elements" in message for message in seen), seen
    # iterated, it gives those elements; bytes(p) too
    assert capi.capi_vio(lambda ptr, count, user: seen.append((list(ptr), bytes(ptr))) or 0, None) == 0
    assert seen[-1] == ([0] * 8, bytes(8))


def test_a_pointer_c_gave_no_length_with_is_not_iterable(capi):
    # Python iterates an object with __getitem__ by indexing it until IndexError: bytes(p),
    # list(p) and x in p read on past the memory until the process crashed
    table = capi.capi_table()
    for attempt in (list, bytes, lambda p: 1 in p, iter):
        with pytest.raises(TypeError, match=r"^a Pointer of type int \* is not iterable: C does not say how "
                                            r"many elements there are \(p\[:n\] reads n\)$"):
            attempt(table)
    status, db = capi.capi_db_open("main")
    with pytest.raises(TypeError, match=r"^capi_db is a handle of an opaque type: it has no elements to read$"):
        list(db)
    capi.capi_db_close(db)


def test_a_pointer_to_characters_says_it_takes_str_too(capi):
    assert capi.capi_crc(0, "abc", 3) == capi.capi_crc(0, b"abc", 3)
    with pytest.raises(TypeError, match=r"^argument 2 \(buf\) must be str or a contiguous buffer, not float$"):
        capi.capi_crc(0, 1.5, 3)


def test_a_typedef_of_a_function_type_is_a_class_too(capi):
    # Tcl's typedef int (Tcl_ObjCmdProc)(...), given as Tcl_ObjCmdProc *: made once, passed as often
    doubled = capi.capi_plain_proc(lambda value, user: 2 * value)
    assert isinstance(doubled, capi.FunctionPointer)
    assert capi.capi_call_plain(doubled, None, 21) == 42
    assert capi.capi_call_plain(lambda value, user: value + 1, None, 41) == 42


def test_empty_text_goes_where_c_reads_unsigned_characters_to_their_nul(capi):
    # fontconfig's FcNameParse(const FcChar8 *name) refused b"": needs at least 1 byte
    assert [capi.capi_ulen(empty) for empty in (b"", "", bytearray())] == [0, 0, 0]


def test_a_pointer_to_an_enum_takes_an_integer_cell_of_its_size_either_signed(capi):
    # fontconfig's FcFontMatch(config, pattern, FcResult *result): gcc makes FcResult unsigned
    for cell in (capi.c_uint(), capi.c_int()):
        assert capi.capi_color_of("green", cell) == 0
        assert cell.value == capi.CAPI_GREEN
    # the refusal names both, as the stub does (it named c_uint alone)
    with pytest.raises(TypeError, match=r"^argument 2 \(color\) must be a writable contiguous buffer or a c_uint "
                                        r"or c_int, not c_short$"):
        capi.capi_color_of("green", capi.c_short())


def test_a_handle_of_a_void_typedef_is_refused_where_c_takes_another(capi):
    # cffi passes such a handle's void * where C takes any pointer: GLib's gpointer given to
    # g_hash_table_size was read as a table (a garbage size), where the others raised
    session = capi.capi_session_new(5)
    status, db = capi.capi_db_open("main")
    with pytest.raises(TypeError, match=r"^argument 1 \(db\) must be capi_db or None, not capi_session$"):
        capi.capi_db_name(session)
    with pytest.raises(TypeError, match=r"^argument 1 \(db\) must be capi_db, not CAPI_EASY$"):
        capi.capi_db_count_said(capi.capi_easy_init())
    assert capi.capi_db_name(db) == b"main" and capi.capi_session_value(session) == 5
    capi.capi_db_close(db)


def test_a_read_only_buffer_reaches_c_where_it_is(capi):
    # ctypes copied a read-only view other than bytes, so C got another address: oniguruma's
    # search between a pattern and a slice of it went from one copy to the other
    text = b"hello world"
    assert capi.capi_distance(text, memoryview(text)[5:]) == 5
    view = memoryview(text)
    assert capi.capi_distance(view[1:], view[4:]) == 3
    source = bytearray(b"abcdef")
    frozen = memoryview(source).toreadonly()
    assert capi.capi_distance(frozen, frozen[2:]) == 2
    frozen.release()  # raised BufferError while C's view of it was still held
    source.extend(b"g")  # and so did this, while any view of it was


def test_a_void_pointer_typedef_named_as_a_pointer_takes_any_data(capi):
    # GLib's g_hash_table_insert(ht, key, value) raised "must be gpointer or None, not
    # bytearray", and what g_memdup2 returned, a handle, could not be read
    assert capi.capi_pointer_sum(bytearray(b"\x01\x02\x03"), 3) == 6
    copy = capi.capi_memdup(b"\x04\x05", 2)
    assert type(copy) is capi.Pointer and copy[:2] == b"\x04\x05"
    assert capi.capi_pointer_sum(copy, 2) == 9
    capi.capi_free(copy)


def test_records_a_function_frees_are_those_the_library_handed_out(capi):
    # libuv's uv_free_cpu_info(cpu_infos, count) was given a copy of a list of records, and
    # freeing it aborted the process
    count = capi.c_int()
    status, infos = capi.capi_infos(count)
    assert status == 0 and count.value == 3 and infos.id == 1
    assert capi.capi_free_infos(infos, count.value) == 6


def test_a_handle_given_back_through_a_t_pp_before_a_size(capi):
    # nghttp2_hd_deflate_new(&deflater, 4096): the size was taken as the length of a list
    status, made = capi.capi_set_make(4096)
    assert status == 0 and capi.capi_set_total(made) == 4096
    capi.capi_set_free(made)


def test_a_record_is_viewed_as_one_it_begins_as(capi):
    # libuv's uv_close((uv_handle_t *)&timer, cb): a uv_timer_t given where C takes a
    # uv_handle_t was refused, and from_pointer took only Pointers
    stream = capi.capi_stream(kind=7, bytes=3)
    handle = capi.capi_handle.from_pointer(stream)
    assert type(handle) is capi.capi_handle and handle.kind == 7 and capi.capi_handle_kind(handle) == 7
    handle.kind = 9  # the same memory
    assert stream.kind == 9
    del stream
    gc.collect()
    assert handle.kind == 9  # the view keeps the record alive
    with pytest.raises(ValueError, match=r"^capi_stream\.from_pointer: argument 1 \(pointer\) is a capi_handle of "
                                         r"\d+ bytes, fewer than the \d+ of capi_stream$"):
        capi.capi_stream.from_pointer(capi.capi_handle())


def test_a_length_named_for_any_data_states_the_length_of_text(capi):
    # cJSON_ParseWithLength(b"[1]", 10) let C read past the text
    assert capi.capi_parse_len("[1]\0x", 5) == 1 and capi.capi_parse_len(b"[1]", 3) == 0
    with pytest.raises(ValueError, match=r"^argument 2 \(buffer_length\): 10 is more than argument 1 \(value\) "
                                         r"holds \(3 bytes\)$"):
        capi.capi_parse_len(b"[1]", 10)


def test_a_buffer_of_other_numbers_is_refused_where_c_reads_numbers(capi):
    # cJSON_CreateDoubleArray(array("i", [1, 2]), 1) and cairo_set_dash(cr, array("i", ...))
    # had C read the ints' bits as doubles
    with pytest.raises(TypeError, match=r"^argument 1 \(dashes\) holds items of format 'i' \(4 bytes each\), "
                                        r"where C reads double \(8 bytes each\)$"):
        capi.capi_dash_sum(array.array("i", [1, 2, 3, 4]), 2)
    with pytest.raises(TypeError, match=r"^argument 1 \(dashes\) holds items of format 'q' \(8 bytes each\), "
                                        r"where C reads double \(8 bytes each\)$"):
        capi.capi_dash_sum(array.array("q", [1, 2]), 2)
    # bytes of any sign are memory of any type, as is what C reads as bytes
    assert capi.capi_dash_sum(memoryview(array.array("d", [1.5, 2.5])).cast("B"), 2) == 4.0
    assert capi.capi_dash_sum(bytearray(array.array("d", [0.5])), 1) == 0.5
    assert capi.capi_unnamed_sum(array.array("i", [1]), 4) == 1


def test_a_bool_member_holding_another_byte_reads_as_true(capi):
    # cffi raised "got a _Bool of value 5, expected 0 or 1", repr() of the record too
    made = capi.capi_punned_of(5)
    assert made.flag is True and made.byte == 5 and made.flags == [True, False]
    assert repr(made) == "capi_punned(flag=True, byte=5, flags=[True, False])"
    assert capi.capi_punned_of(0).flag is False and capi.capi_punned(byte=5).flag is True
    assert capi.capi_odd_switches()[:2] == [True, False] and capi.capi_odd_switches()[0] is True  # through a Pointer


def test_numbers_counted_by_num_and_their_name(capi):
    # cairo_set_dash(cr, dashes, num_dashes, offset): C read past two dashes told of four
    assert capi.capi_dash_sum(array.array("d", [1.5, 2.5]), 2) == 4.0
    with pytest.raises(ValueError, match=r"^argument 2 \(num_dashes\): 4 is more than argument 1 \(dashes\) "
                                         r"holds \(2 items\)$"):
        capi.capi_dash_sum(array.array("d", [1.5, 2.5]), 4)
    assert capi.capi_dash_sum(bytearray(0), 0) == 0  # none, as C allows


def test_a_size_after_a_context_is_not_its_length(capi):
    # talloc_named_const(NULL, 100, "x"), talloc's top-level allocation, was refused: 100 is
    # more than argument 1 (context) holds (0 bytes)
    assert capi.capi_ctx_size(None, 100) == 100 and capi.capi_ctx_size(b"x", 16) == 16


def test_a_vague_length_counts_no_list_node_nor_a_handle_c_gives_back(capi):
    # GLib's g_list_nth(GList *list, guint n): n is an index into a linked list, whose node
    # was taken for an array of n records (a view of a freed copy came back)
    head = capi.capi_links()
    assert capi.capi_link_nth(head, 2).value == 30 and capi.capi_link_nth(head, 0).value == 10
    assert capi.capi_link_nth(head, 3) is None
    # oniguruma's onig_regset_new(OnigRegSet **rset, int n, OnigRegex regs[]): the set comes
    # back, and n counts the array after it (the T ** was taken for the array: a crash)
    dbs = [capi.capi_db_open(name)[1] for name in ("ab", "cde")]
    status, made = capi.capi_set_new(dbs)
    assert status == 0 and capi.capi_set_total(made) == 5
    capi.capi_set_free(made)
    for db in dbs:
        capi.capi_db_close(db)
