"""The rule that tells, by its name, an integer parameter that states the length of the pointer before it."""
from __future__ import annotations

import pytest

from pegbind.passes.plan import counts_of, length_unit


@pytest.mark.parametrize(("pointer", "length", "unit"), [
    ("buf", "len", "items"),  # zlib's crc32
    ("source", "sourceLen", "items"),  # zlib's compress2
    ("dest", "destLen", "items"),
    ("string", "length", "items"),  # curl_easy_escape
    ("values", "count", "items"),
    ("d", "cnt", "items"),  # OpenSSL's EVP_DigestUpdate
    ("items", "item_cnt", "items"),
    ("base", "nmemb", "items"),
    ("s", "n", "items"),
    ("key", "keylen", "items"),  # libsodium: the pointer's own name, then len
    ("buffer", "buflen", "items"),  # jansson's json_loadb: the pointer's name shortened
    ("message", "messagesize", "bytes"),
    ("string", "strlen", "items"),
    ("in", "inlen", "items"),
    ("iov", "iovcnt", "items"),  # libgcrypt's gcry_md_hash_buffers
    ("name", "name_len", "items"),
    ("dst", "dstCapacity", "items"),  # zstd's ZSTD_compress: a capacity is checked as items, the stricter
    ("out", "out_capacity", "items"),
    ("buf", "capacity", "items"),
    ("buf", "bufcap", "items"),
    ("data", "size", "bytes"),  # sizes count bytes
    ("buffer", "nbytes", "bytes"),
    ("in", "in_size", "bytes"),
    ("blob", "blobSize", "bytes"),
    ("ptr", "buffer_size", "items"),  # a stem naming no other parameter is given the benefit of the doubt,
    ("pcm", "frame_size", "items"),  # counted in items: opus's frame_size counts samples of pcm
    ("in", "in_nbytes", "bytes"),  # libdeflate
    ("out", "out_nbytes_avail", "bytes"),  # the room left in out: its capacity
    ("dst", "dstLenAvail", "items"),
])
def test_names_that_state_a_length(pointer, length, unit):
    assert length_unit(pointer, length, frozenset({pointer, length})) == unit


@pytest.mark.parametrize(("pointer", "length", "others", "unit"), [
    ("destBuf", "destLen", ("destOffset",), "items"),  # the stem starts the pointer's own name too
    ("data", "data_size", ("data_flags",), "bytes"),
    ("key", "key_len", ("keyring",), "items"),  # keyring is not named after key
])
def test_other_parameters_sharing_the_stem_do_not_take_the_length(pointer, length, others, unit):
    assert length_unit(pointer, length, frozenset({pointer, length, *others})) == unit


@pytest.mark.parametrize(("pointer", "length", "others"), [
    ("zFunctionName", "nArg", ()),  # sqlite3_create_function: the number of SQL arguments
    ("s", "c", ()),  # memset's fill byte
    ("s", "maxlen", ()),  # a bound, not a length
    ("buf", "flags", ()),
    ("buf", "offset", ()),
    ("dest", "pos", ()),
    ("out_pos", "out_size", ("out",)),  # liblzma: out_size is the size of out, two parameters back
    ("in_pos", "in_size", ("in",)),
    ("input_buffer", "encoded_size", ("encoded_buffer",)),  # brotli: the size of the buffer after it
    ("src", "dstLen", ("dstBuf",)),
    ("name", None, ()),
    (None, "len", ()),
])
def test_names_that_state_no_length_of_the_pointer_before(pointer, length, others):
    assert length_unit(pointer, length, frozenset({pointer, length, *others}) - {None}) is None


@pytest.mark.parametrize(("pointer", "count", "counts"), [
    ("__fds", "__nfds", True),  # poll
    ("args", "num_args", True),  # Z3
    ("items", "n_items", True),
    ("sorts", "numSorts", True),
    ("args", "num_decls", False),  # another array's count
    ("x", "n", False),  # BLAS's n counts x with a stride: not this rule's
    ("fds", "fds", False),
    (None, "nfds", False),
    ("parents", "parent_count", True),  # libgit2's git_commit_create: one item's name, then _count
    ("entries", "entry_count", True),
    ("keys", "keyCount", True),
    ("name", "name_count", False),  # not a plural: the count of something else
    ("status", "statu_count", False),
])
def test_a_count_named_for_its_pointer(pointer, count, counts):
    assert counts_of(pointer, count) is counts


@pytest.mark.parametrize(("pointer", "count", "counts"), [
    ("__fds", "__nfds", True),  # poll
    ("__iovec", "__count", True),  # writev
    ("pairs", "npairs", True),
    ("items", "item_cnt", True),
    ("__sa", "__salen", False),  # getnameinfo: the byte size of one sockaddr
    ("addr", "addrlen", False),
    ("__vmessages", "__vlen", False),  # a length by its name: left to the config
    ("buf", "size", False),
])
def test_a_count_of_records_is_named_as_a_count_not_a_length(pointer, count, counts):
    from pegbind.passes.plan import _counts_records

    assert _counts_records(pointer, count, {pointer, count}) is counts


@pytest.mark.parametrize(("length", "stem", "unit"), [
    ("out_size", "out", "bytes"),  # liblzma's out, out_pos, out_size
    ("label_size", "label", "bytes"),  # gnutls's label_size, label
    ("dataSize", "data", "bytes"),
    ("args_count", "args", "items"),
    ("nameLen", "name", "items"),
    ("size", None, "bytes"),  # no stem: the name states no one's length apart from the buffer
    ("_size", None, "bytes"),
    ("outsize", None, "bytes"),
    ("flags", None, "bytes"),
    ("__size", None, "bytes"),  # glibc's reserved names: qsort's element size is no stem "_"'s
    ("__len", None, "bytes"),
    ("__out_size", "__out", "bytes"),
])
def test_the_buffer_a_length_apart_from_it_is_named_after(length, stem, unit):
    from pegbind.passes.plan import _stem_and_unit

    found, found_unit = _stem_and_unit(length)
    assert found == stem and (stem is None or found_unit == unit)


def _plan_of(tmp_path, text):
    from pegbind.config import BindingConfig
    from pegbind.passes import run_passes
    from pegbind.passes.callplan import plan_call
    from pegbind.pipeline import read_binding

    header = tmp_path / "t.h"
    header.write_text(text)
    config = BindingConfig(name="t", headers=(header,))
    read = read_binding(config)
    binding = run_passes(read.module, config, read.target)
    return {f.function.name: plan_call(read.module, read.target, f) for f in binding.functions}


def test_a_size_of_items_larger_than_a_byte_is_held_to_items(tmp_path):
    # utf8proc_decompose(..., int32_t *buffer, bufsize): bufsize counts code points, and a buffer of
    # bufsize bytes was written four times past; a size named in bytes, or of bytes, stays bytes
    from pegbind.passes.callplan import CheckLength

    functions = _plan_of(tmp_path, "#include <stdint.h>\n#include <stddef.h>\n"
                                   "int dec(int32_t *buffer, ptrdiff_t bufsize);\n"
                                   "int bytes_of(int32_t *buffer, size_t buffer_nbytes);\n"
                                   "int raw(void *buffer, size_t bufsize);\n"
                                   "int text(uint8_t *out, size_t out_size);\n")
    items = {}
    for name, plan in functions.items():
        (check,) = [s for s in plan.steps if isinstance(s, CheckLength)]
        items[name] = check.item_size
    assert items == {"dec": 4, "bytes_of": 1, "raw": 1, "text": 1}


def test_characters_returned_take_the_length_c_writes_to_a_cell_named_as_one(tmp_path):
    # lua_tolstring(L, i, size_t *len), leveldb_get's size_t *vallen; not a cell the config gives a
    # role: libxml2's xmlSplitQName3(name, int *len) writes the length of the prefix there
    from pegbind.config import BindingConfig, FunctionRule, parse_role
    from pegbind.passes import run_passes
    from pegbind.pipeline import read_binding

    header = tmp_path / "t.h"
    header.write_text("#include <stddef.h>\n"
                      "const char *tolstring(void *L, int idx, size_t *len);\n"
                      "char *get(const char *key, size_t keylen, size_t *vallen, char **errptr);\n"
                      "const unsigned char *split(const unsigned char *name, int *len);\n"
                      "const char *two(size_t *len, size_t *size);\n"
                      "const char *named(int *flags);\n")
    rule = FunctionRule("split", params={"len": parse_role("in")})
    for rules, split in (((), 1), ((rule,), None)):
        config = BindingConfig(name="t", headers=(header,), functions=rules)
        read = read_binding(config)
        found = {f.function.name: f.ret.length_param for f in run_passes(read.module, config, read.target).functions}
        assert found == {"tolstring": 2, "get": 2, "split": split, "two": None, "named": None}


def test_a_size_after_a_record_is_no_count_of_records():
    # json-c's lh_table_resize(struct lh_table *t, int new_size) was taken for a list of tables
    # counted by new_size: a size says how large, a count how many
    from pegbind.passes.plan import _counts_records

    assert not _counts_records("t", "new_size", ("t", "new_size"))
    assert not _counts_records("addr", "addrlen", ("addr", "addrlen"))
    assert _counts_records("fds", "nfds", ("fds", "nfds")) and _counts_records("iov", "count", ("iov", "count"))


@pytest.mark.parametrize(("name", "many"), [
    ("list", True), ("crs_list", True), ("infoList", True), ("items", True), ("node_array", True),
    ("item", False), ("node", False), ("address", False), ("status", False), ("ptr", False), (None, False),
])
def test_a_name_says_a_list(name, many):
    # a function taking only a T ** of records and returning nothing frees a list where the
    # name says so (proj_crs_info_list_destroy's list), else one record (cbor_decref's item)
    from pegbind.passes.plan import _names_a_list

    assert _names_a_list(name) is many


def test_a_length_after_a_source_and_its_destination_bounds_both(tmp_path):
    # libsamplerate's src_short_to_float_array(const short *in, float *out, int len) read len
    # shorts from an `in` of two; the length bounded only `out`
    from pegbind.passes.callplan import CheckLength

    functions = _plan_of(tmp_path, "void s2f(const short *in, float *out, int len);\n"
                                   "void cp(const char *src, char *dst, unsigned long n);\n"
                                   "void other(const short *in, float *out, int mode);\n")
    bounded = {name: sorted(s.buffer.py_name for s in plan.steps if isinstance(s, CheckLength))
               for name, plan in functions.items()}
    assert bounded == {"s2f": ["in_", "out"], "cp": ["dst"], "other": []}


def test_handles_declared_as_an_array_after_their_count_are_a_list(tmp_path):
    # libgit2's git_commit_create(..., size_t parent_count, const git_commit *parents[]) took
    # only a Pointer, which Python cannot make: no commit with a parent could be made
    from pegbind.config import BindingConfig
    from pegbind.passes import run_passes
    from pegbind.pipeline import read_binding

    header = tmp_path / "t.h"
    header.write_text("#include <stddef.h>\ntypedef struct obj obj;\n"
                      "int sum_parents(size_t parent_count, const obj *parents[]);\n"
                      "int sum_args(unsigned num_args, obj *const args[]);\n")
    config = BindingConfig(name="t", headers=(header,))
    read = read_binding(config)
    roles = {f.function.name: [(p.c_name, p.role.role, p.role.length) for p in f.params]
             for f in run_passes(read.module, config, read.target).functions}
    assert roles["sum_parents"] == [("parent_count", "len", "parents"), ("parents", "in-array", "parent_count")]
    assert roles["sum_args"] == [("num_args", "len", "args"), ("args", "in-array", "num_args")]


def test_lists_named_for_their_count_and_lengths_named_for_any_data(tmp_path):
    # a handle list whose count is named for it stays a list (out, out_count), where a T ** whose
    # count names something else gives back one handle; a length whose stem says only data pairs
    # with the text before it (cJSON's value, buffer_length), one named for another thing does not
    from pegbind.passes.callplan import CheckLength, PassArray

    functions = _plan_of(tmp_path, "#include <stddef.h>\ntypedef struct thing thing_t;\n"
                                   "int get_all(thing_t **out, size_t out_count);\n"
                                   "int make(thing_t **made_ptr, size_t max_table_size);\n"
                                   "int parse(const char *value, size_t input_length);\n"
                                   "int named(const char *name, size_t value_len);\n")
    kinds = {name: sorted({type(s).__name__ for s in plan.steps if isinstance(s, (CheckLength, PassArray))})
             for name, plan in functions.items()}
    assert kinds == {"get_all": ["PassArray"], "make": [], "parse": ["CheckLength"], "named": []}
