"""Wrong arguments raise, in every backend; none of these may crash the process.

Each scenario runs in a child process, so a crash is a failure that names the
signal instead of the end of the test run.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, run_pegbind

SAFETY = ROOT / "tests" / "safety"
BACKENDS = ("cython", "cffi", "ctypes")
# one worker under --dist loadgroup: its module fixture builds every backend's module once
# (see conftest.one_worker_each)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("memory_safety")]


@pytest.fixture(scope="module")
def library(tmp_path_factory, cc):
    folder = tmp_path_factory.mktemp("safety-lib")
    subprocess.run([cc, "-shared", "-fPIC", str(SAFETY / "safety.c"), "-o", str(folder / "libsafety.so")], check=True)
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory, library):
    """backend -> folder holding the built module ``safety``."""
    folders = {}
    for backend in BACKENDS:
        out = tmp_path_factory.mktemp(f"safety-{backend}")
        result = run_pegbind(
            "build", "--config", str(SAFETY / "safety.toml"), "--backend", backend, "-L", str(library), "-o", str(out)
        )
        assert result.returncode == 0, result.stderr
        folders[backend] = out
    return folders


def run_in_child(folder, code: str) -> str:
    script = "import sys, gc, threading\nimport safety as m\n" + textwrap.dedent(code)
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=folder, capture_output=True, text=True, timeout=120,
        env=dict(os.environ, PYTHONPATH=str(folder)),
    )
    assert result.returncode == 0, f"child died with {result.returncode}: {result.stderr[-2000:]}"
    return result.stdout.strip()


def raises(expression: str) -> str:
    return f"""
try:
    {expression}
except Exception as exc:
    print(type(exc).__name__)
else:
    print("no error")
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_length_too_large_to_allocate_raises(built, backend):
    assert run_in_child(built[backend], raises("m.fill32(2**62 + 1)")) in ("OverflowError", "MemoryError")
    assert run_in_child(built[backend], raises("m.fill32(2**64 - 1)")) in ("OverflowError", "MemoryError")


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_int_parameter_takes_no_ctypes_object_that_compares_like_an_int(built, backend):
    # ctypes calls some functions without argtypes (its wrappers check the
    # values themselves); there, a record passed for an int would go by value
    # and push the pointer after it out of its register.  Both objects pass
    # a range check by comparison, so only the int test can stop them.
    code = """
    import ctypes

    class Pair(ctypes.Structure):
        _fields_ = [("a", ctypes.c_int64), ("b", ctypes.c_int64)]
        def __ge__(self, other): return True
        def __le__(self, other): return True

    class Parameter:
        _as_parameter_ = Pair(1, 2)
        def __ge__(self, other): return True
        def __le__(self, other): return True

    print(m.first_byte_of(7, b"x"))
    for tag in (Pair(1, 2), Parameter()):
        try:
            m.first_byte_of(tag, b"x")
        except TypeError:
            print("TypeError")
    """
    assert run_in_child(built[backend], code).split() == ["120", "TypeError", "TypeError"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bytearray_resized_by_a_later_argument_is_never_written_freed(built, backend):
    # The integer after the buffer grows the bytearray when converted, which
    # moves its memory.  A pointer taken before that (with no export to pin
    # the size) would send C into freed memory; the Cython backend did so.
    code = """
    class Grow:
        def __init__(self, target):
            self.target = target
        def __index__(self):
            self.target.extend(bytes(1 << 20))
            return 0xAB

    data = bytearray(64)
    try:
        m.fill_with(data, Grow(data))
    except BufferError:
        print("refused")
    else:
        print("filled" if data == bytes([0xAB]) * len(data) else "wrong")
    """
    assert run_in_child(built[backend], code) in ("refused", "filled")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_buffer_longer_than_its_length_type_raises(built, backend):
    assert run_in_child(built[backend], raises("m.sum8s(bytes(300))")) == "OverflowError"
    assert run_in_child(built[backend], "print(m.sum8s(bytes([1]) * 255))") == "255"


@pytest.mark.parametrize("backend", BACKENDS)
def test_len_of_an_input_buffer_is_filled_in(built, backend):
    assert run_in_child(built[backend], "print(m.sum16(bytes([1, 0, 2, 0])))") == "3"
    assert run_in_child(built[backend], "b = bytearray(4); m.write16(b); print(b.hex())") == "abababab"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sequence_that_changes_under_the_call_is_not_trusted(built, backend):
    # Items read a second time would no longer be records: only the first reading counts.
    code = """
class Shifty:
    def __init__(self):
        self.reads = 0
        self.items = [m.rec(a=1, b=2), m.rec(a=3, b=4)]
    def __len__(self):
        return 2
    def __getitem__(self, k):
        if k >= 2:
            raise IndexError(k)
        self.reads += 1
        return self.items[k] if self.reads <= 2 else 12345
seq = Shifty()
try:
    m.touch(seq)
except TypeError:
    print("TypeError")
else:
    print("ok")
"""
    assert run_in_child(built[backend], code) in ("ok", "TypeError")


@pytest.mark.parametrize("backend", BACKENDS)
def test_pointer_fields_never_let_c_write_into_immutable_memory(built, backend):
    # uint8_t * is text to C: bytes are taken, as a private copy C may write into
    code = "data = b'AB'; h = m.holder(data=data, n=2); m.fill_holder(h); print(data, h.data)"
    assert run_in_child(built[backend], code) == r"b'AB' b'\xab\xab'"
    assert run_in_child(built[backend], raises("m.views().__setattr__('words', b'ABCD')")) == "TypeError"


@pytest.mark.parametrize("backend", BACKENDS)
def test_pointer_fields_to_const_data_take_bytes(built, backend):
    assert run_in_child(built[backend], "v = m.views(); v.ro = b'A'; print(v.ro is not None)") == "True"


@pytest.mark.parametrize("backend", BACKENDS)
def test_pointer_fields_need_one_whole_element(built, backend):
    assert run_in_child(built[backend], raises("m.views().__setattr__('words', bytearray(3))")) == "ValueError"
    code = "v = m.views(); v.words = bytearray([7, 0, 0, 0]); print(m.first_word(v))"
    assert run_in_child(built[backend], code) == "7"


@pytest.mark.parametrize("backend", BACKENDS)
def test_from_bytes_cannot_forge_pointers(built, backend):
    forged = "m.holder.from_bytes(bytes(range(1, 17)))"
    assert run_in_child(built[backend], raises(forged)) == "TypeError"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_copied_record_keeps_its_memory_alive(built, backend):
    code = """
h = m.holder()
buf = bytearray(1 << 20)
h.data = buf
h.n = 1 << 20
w = m.wrapper()
w.h = h
del h, buf
gc.collect()
m.fill_wrapper(w)
print("ok")
"""
    assert run_in_child(built[backend], code) == "ok"


@pytest.mark.parametrize("backend", BACKENDS)
def test_records_copied_into_an_array_keep_their_memory_alive(built, backend):
    code = """
p = m.pair()
h = m.holder()
buf = bytearray(1 << 20)
h.data = buf
h.n = 1 << 20
p.hs = [h, h]
del h, buf
gc.collect()
m.fill_pair(p)
print("ok")
"""
    assert run_in_child(built[backend], code) == "ok"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_array_of_records_assigned_its_own_items_keeps_them(built, backend):
    # The items are views into the array being assigned: each must be read
    # (bytes and kept memory) before the array is cleared, or the swap zeroes
    # both holders and drops the buffers they point into.
    code = """
p = m.pair()
first, second = bytearray(1 << 20), bytearray(16)
a, b = m.holder(), m.holder()
a.data, a.n = first, len(first)
b.data, b.n = second, len(second)
p.hs = [a, b]
del a, b
p.hs = [p.hs[1], p.hs[0]]
p.hs = p.hs
print(p.hs[0].n, p.hs[1].n)
del first, second
gc.collect()
m.fill_pair(p)
print("ok")
"""
    assert run_in_child(built[backend], code).split() == ["16", str(1 << 20), "ok"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_view_keeps_its_record_and_both_are_collected(built, backend):
    # Cython's classes of records without pointers stay out of the cyclic GC:
    # a view of one still keeps its owner, and nothing is left behind.
    code = """
f = m.frame()
buf = bytearray(8)
f.data = buf
f.n = 8
m.fill_frame(f)
inner = f.inner
del f
gc.collect()
inner.a = 7
print(hex(buf[0]), inner.a)
del inner
gc.collect()
print(sum(type(o) is m.frame for o in gc.get_objects()), gc.is_tracked(m.frame()))
"""
    assert run_in_child(built[backend], code).split() == ["0xab", "7", "0", "True"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_overwritten_copy_lets_its_memory_go(built, backend):
    code = """
buf = bytearray(16)
h = m.holder()
h.data = buf
w = m.wrapper()
w.h = h
del h
gc.collect()
held = sys.getrefcount(buf)
w.h = m.holder()
gc.collect()
print(sys.getrefcount(buf) < held)
"""
    assert run_in_child(built[backend], code) == "True"


@pytest.mark.parametrize("backend", BACKENDS)
def test_c_writing_through_void_pointer_never_touches_immutable_bytes(built, backend):
    code = """
original = b"A"  # a cached object shared by the whole interpreter
h = m.vholder()
h.data = original
h.n = 1
m.fill_vholder(h)
print(original == b"A", bytes([65]) == b"A")
"""
    assert run_in_child(built[backend], code) == "True True"
