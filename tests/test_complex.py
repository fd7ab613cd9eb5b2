"""C99 complex types, from the user's side: tests/complex/cplx.h bound with nothing but ``-l``.

The header spells ``_Complex`` every way C allows (``double _Complex``,
``_Complex double``, ``__complex__ double``, ``complex`` from <complex.h>,
typedefs of them), as LAPACK's and C99's numeric headers do.  Each value is a
Python ``complex`` by value, through pointers (buffers, cells and roles) and in
records, in every backend; gcc checks the layouts.
"""
from __future__ import annotations

import array
import cmath
import json

import pytest
from conftest import UNOPTIMISED, can_verify, compile_library, import_from, one_worker_each, run_pegbind

pytestmark = pytest.mark.slow

BACKENDS = ("cython", "cffi", "ctypes")


@pytest.fixture(scope="session")
def cplx_library(tmp_path_factory, repo_root):
    folder = tmp_path_factory.mktemp("libcplx")
    compile_library([repo_root / "tests" / "complex" / "cplx.c"], folder / "libcplx.so", "-Wall", "-Werror", "-lm")
    return folder


def _build(out, name: str, backend: str, *how: str, library) -> tuple[str, object]:
    name = f"{name}_{backend}"
    result = run_pegbind("build", *how, "-L", str(library), "--backend", backend, "--name", name, "-o", str(out),
                         env=UNOPTIMISED)
    assert result.returncode == 0, result.stderr
    return result.stderr, import_from(out, name)


@pytest.fixture(scope="session", params=one_worker_each("complex"))
def built(request, cplx_library, tmp_path_factory, repo_root):
    """(the build's warnings, the module) of cplx.h built with tests/complex/roles.toml: its link
    library, and out, inout, in-array and out-array roles for four functions (the rest as they are)."""
    out = tmp_path_factory.mktemp(f"cplx-{request.param}")
    config = str(repo_root / "tests" / "complex" / "roles.toml")
    return _build(out, "cplx", request.param, "-c", config, library=cplx_library)


@pytest.fixture(scope="session")
def cplx(built):
    return built[1]


# ---- by value ------------------------------------------------------------------

def test_complex_values_cross_by_value_every_way_they_are_spelled(cplx):
    assert cplx.cplx_add(1 + 2j, 3 - 1j) == 4 + 1j  # double _Complex
    assert cplx.cplx_swap(1 + 2j) == 2 + 1j  # _Complex double, __complex__ double
    assert cplx.cplx_polar(2, cmath.pi / 2) == pytest.approx(2j)  # a typedef, as lapack.h has
    assert cplx.cplx_abs(3 + 4j) == 5.0


def test_float_complex_rounds_each_part_to_float(cplx):
    # <complex.h>'s "float complex": each part a C float
    assert cplx.cplx_mul_c(1.1 + 0j, 1) == complex(array.array("f", [1.1])[0], 0)


def test_numbers_and_objects_with_complex_are_taken(cplx):
    class Phase:
        def __complex__(self):
            return 5j

    assert cplx.cplx_add(1, 2.5) == 3.5 + 0j
    assert cplx.cplx_add(True, Phase()) == 1 + 5j


@pytest.mark.parametrize("value, error, message", [
    ("1+2j", TypeError, r"^argument 1 \(a\) must be a complex number, not str$"),
    (None, TypeError, r"^argument 1 \(a\) must be a complex number, not NoneType$"),
    ([1, 2], TypeError, r"^argument 1 \(a\) must be a complex number, not list$"),
    (10 ** 400, OverflowError, r"^argument 1 \(a\): int too large to convert to float$"),
])
def test_what_is_no_complex_number_raises_the_same_error_everywhere(cplx, value, error, message):
    with pytest.raises(error, match=message):
        cplx.cplx_add(value, 1)


def test_long_double_complex_where_the_ffi_can_pass_it(built):
    warnings, cplx = built
    if cplx.__name__.endswith("_cffi"):  # said at build time, not dropped silently
        assert "function 'cplx_conj_l' is not in the cffi module: cffi's C parser has no long double _Complex" \
            in warnings
        assert not hasattr(cplx, "cplx_conj_l") and not hasattr(cplx, "cplx_wide")
        return
    # passed in memory, as a structure of its parts is
    assert cplx.cplx_real_l(3 + 1j) == 3.5
    if cplx.__name__.endswith("_ctypes"):  # C returns it in x87 registers, libffi a struct in memory
        assert ("function 'cplx_conj_l' is not in the ctypes module: ctypes cannot return long double _Complex "
                "by value on linux-x86_64") in warnings
        assert not hasattr(cplx, "cplx_conj_l")
    else:
        assert cplx.cplx_conj_l(1 + 2j) == 1 - 2j
        assert cplx.cplx_wide_get(cplx.cplx_wide(l=1 + 1j, tag=3)) == 3 + 3j
    wide = cplx.cplx_wide(l=0.5 - 2j, tag=7)  # its record is there in both
    assert (wide.l, wide.tag) == (0.5 - 2j, 7)
    assert cplx.cplx_wide.sizeof == 48
    assert "record 'struct cplx_wide'" not in warnings


@pytest.fixture(scope="session", params=one_worker_each("complex"))
def dynamic(request, cplx_library, tmp_path_factory, repo_root):
    """(the build's warnings, the module, the library it loaded) of cplx.h with ``--load dynamic``."""
    out = tmp_path_factory.mktemp(f"cplx-dynamic-{request.param}")
    header = str(repo_root / "tests" / "complex" / "cplx.h")
    warnings, module = _build(out, "cplx_dynamic", request.param, "--load", "dynamic", header,
                              library=cplx_library)
    return warnings, module, module.load(str(cplx_library / "libcplx.so"))


def test_a_library_loaded_at_run_time_takes_complex_values_where_its_ffi_can(dynamic):
    warnings, module, library = dynamic
    if module.__name__.endswith("_cffi"):  # ABI mode calls through libffi, which has no complex type
        assert ("function 'cplx_add' is not in the cffi module: cffi's ABI mode (load = \"dynamic\") cannot pass "
                "double _Complex by value: link at build time (API mode), or use the Cython or ctypes backend"
                in warnings)
        assert not hasattr(library, "cplx_add")
    else:
        assert library.cplx_add(1 + 2j, 3) == 4 + 2j
    # through pointers and in records, every backend
    assert library.cplx_point_shared().corners == [5, 6j]
    assert library.cplx_fourth_roots()[:2] == [1, 1j]
    roots = array.array("d", [0] * 4)
    library.cplx_roots(2, roots)
    assert list(roots) == pytest.approx([1, 0, -1, 0])


# ---- through pointers ----------------------------------------------------------

def test_a_pointer_to_complex_values_takes_a_buffer_of_their_parts(cplx):
    values = array.array("f", [1, 2, 3, 4])  # 1+2j, 3+4j as C lays them out
    cplx.cplx_cscale(2, values, 2j)
    assert list(values) == [-4, 2, -8, 6]
    parts = array.array("d", [1, 0, 0, 1])
    assert cplx.cplx_zdot(2, parts, parts) == 0j  # 1*1 + i*i
    # half of one float _Complex holds none
    with pytest.raises(ValueError, match=r"^argument 1 \(n\): 1 is more than argument 2 \(x\) holds \(0 items\)$"):
        cplx.cplx_cscale(1, array.array("f", [1]), 1)


def test_a_returned_pointer_reads_its_elements_as_complex(cplx):
    table = cplx.cplx_fourth_roots()
    assert repr(table).startswith("<Pointer double _Complex * at ")
    assert table[1] == 1j and table[:4] == [1, 1j, -1, -1j]


def test_complex_elements_are_written_as_c_writes_them(cplx):
    # FFTW's fftw_complex * (with complex.h first): p[0] = 1 + 2j was refused
    table = cplx.cplx_scratch()
    table[0] = 1 + 2j
    table[1:4] = [3, 4j, 2.5]
    assert table[:4] == [1 + 2j, 3, 4j, 2.5] and cplx.cplx_scratch()[:2] == [1 + 2j, 3]  # in C's memory
    with pytest.raises(TypeError, match=r"^a Pointer element must be a complex number, not str$"):
        table[0] = "1+2j"


def test_a_cell_holds_one_complex_value_c_writes(cplx):
    value = cplx.c_double_complex(1 + 2j)
    cplx.cplx_negate(value)
    assert value.value == -1 - 2j and repr(value) == "c_double_complex((-1-2j))"
    scaled = cplx.c_float_complex(1 + 1j)  # one float _Complex: n is 1
    cplx.cplx_cscale(1, scaled, 2)
    assert scaled.value == 2 + 2j
    # a cell of another type is refused, as for every pointer parameter
    message = r"^argument 1 \(z\) must be a writable contiguous buffer or a c_double_complex, not c_float_complex$"
    with pytest.raises(TypeError, match=message):
        cplx.cplx_negate(cplx.c_float_complex())
    with pytest.raises(TypeError, match=r"^c_double_complex\.value must be a complex number, not str$"):
        cplx.c_double_complex("1j")


def test_an_out_complex_value_is_returned(cplx):
    assert cplx.cplx_get(2.0) == 2 + 4j


def test_an_inout_complex_value_goes_in_and_comes_back(cplx):
    assert cplx.cplx_rotate(1 + 2j) == -2 + 1j
    with pytest.raises(TypeError, match=r"^argument 1 \(z\) must be a complex number, not str$"):
        cplx.cplx_rotate("x")


def test_sequences_of_complex_values_go_in_and_come_out(cplx):
    assert cplx.cplx_sum([1, 1j, 2.5]) == 3.5 + 1j
    assert cplx.cplx_sum([]) == 0j
    assert cplx.cplx_roots(4) == pytest.approx([1, 1j, -1, -1j])
    with pytest.raises(TypeError, match=r"^argument 1 \(x\) items must be a complex number, not str$"):
        cplx.cplx_sum([1, "x"])


# ---- in records ----------------------------------------------------------------

def test_complex_fields_read_and_write_as_complex(cplx):
    point = cplx.cplx_point(z=1 + 1j, c=0.5j, n=2, corners=[1j, 2])
    assert (point.z, point.c, point.n, point.corners) == (1 + 1j, 0.5j, 2, [1j, 2 + 0j])
    assert cplx.cplx_point_sum(point) == 5 + 2.5j
    point.corners = [3]  # the rest is zero, as C's initialisers leave it
    assert point.corners == [3 + 0j, 0j]
    assert repr(point) == "cplx_point(z=(1+1j), c=0.5j, n=2, corners=[(3+0j), 0j])"


def test_records_with_complex_fields_come_back_by_value_and_as_views(cplx):
    made = cplx.cplx_point_make(2j, 3)
    assert (made.z, made.c, made.n, made.corners) == (2j, -2j, 3, [2j, -2j])
    shared = cplx.cplx_point_shared()
    assert (shared.z, shared.n, shared.corners) == (1, 4, [5, 6j])
    before, shared.c = shared.c, 7 - 1j  # a view: the library's own memory
    assert before == 2j and cplx.cplx_point_shared().c == 7 - 1j
    shared.c = before


def test_a_wrong_field_value_raises_the_same_error_everywhere(cplx):
    point = cplx.cplx_point()
    with pytest.raises(TypeError, match=r"^cplx_point\.z must be a complex number, not str$"):
        point.z = "x"
    with pytest.raises(TypeError, match=r"^cplx_point\.corners items must be a complex number, not str$"):
        point.corners = [1, "x"]
    with pytest.raises(ValueError, match=r"^cplx_point\.corners holds at most 2 items, got 3$"):
        point.corners = [1, 2, 3]


def test_the_stub_says_complex(cplx):
    from pathlib import Path

    stub = Path(cplx.__file__).with_name(cplx.__name__ + ".pyi").read_text()
    assert "def cplx_add(a: complex, b: complex, /) -> complex: ..." in stub
    assert "def corners(self, value: Sequence[complex]) -> None: ..." in stub


# ---- the compiler as the oracle ---------------------------------------------------

def test_dump_spells_complex_types_as_c_does(repo_root):
    result = run_pegbind("dump", str(repo_root / "tests" / "complex" / "cplx.h"))
    assert result.returncode == 0, result.stderr
    dump = json.loads(result.stdout)
    assert dump["typedefs"]["cplx_z"] == "double _Complex"
    assert dump["functions"]["cplx_swap"]["args"] == [["z", "double _Complex"]]
    fields = {f["name"]: (f["type"], f["offset"]) for f in dump["records"]["struct cplx_point"]["fields"]}
    assert fields == {"z": ("double _Complex", 0), "c": ("float _Complex", 16), "n": ("int", 24),
                      "corners": ("cplx_z[2]", 32)}
    assert dump["records"]["struct cplx_wide"]["size"] == 48


@pytest.mark.parametrize("target", ["linux-x86_64", "linux-i386"])
def test_layouts_agree_with_gcc(repo_root, target):
    if not can_verify(target):
        pytest.skip(f"no compiler for {target} here")
    result = run_pegbind("verify", str(repo_root / "tests" / "complex" / "cplx.h"), "--target", target)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"verify {target} with gcc" in result.stdout and "OK" in result.stdout
