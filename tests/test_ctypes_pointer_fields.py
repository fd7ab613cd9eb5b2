"""Pointer members, handle members and library lookup in the two pure-Python backends (ctypes, cffi).

A small C library written here has a record whose members are a data
pointer, an opaque handle and a function pointer; C reads them back, so the
test sees what C sees: a buffer assigned to a pointer member is reachable
through the record (and kept alive by it), a handle member holds the handle's
address, ``None`` is NULL.  The built modules name their libraries
themselves: no file beside them says what to load.
"""
from __future__ import annotations

import gc
import os
import subprocess
from pathlib import Path

import pytest

from conftest import build_and_import

from pegbind.config import BindingConfig

pytestmark = pytest.mark.slow

HEADER = """\
#include <stddef.h>
#include <stdint.h>
typedef struct pf_counter pf_counter;
typedef int32_t (*pf_step)(int32_t);
struct pf_view {
    const uint8_t *data;
    size_t size;
    pf_counter *counter;
    pf_step step;
};
/* Sum of view->data[0..size), plus the counter's value, through view->step when set. */
int64_t pf_sum(const struct pf_view *view);
pf_counter *pf_counter_new(int32_t start);
int32_t pf_counter_value(const pf_counter *counter);
void pf_default_step(struct pf_view *view);
"""

SOURCE = """\
#include <stdlib.h>
#include "pf.h"
struct pf_counter { int32_t value; };
static int32_t twice(int32_t v) { return 2 * v; }
int64_t pf_sum(const struct pf_view *view)
{
    int64_t total = 0;
    for (size_t i = 0; view->data && i < view->size; i++)
        total += view->data[i];
    if (view->counter)
        total += view->counter->value;
    return view->step ? view->step((int32_t)total) : total;
}
pf_counter *pf_counter_new(int32_t start)
{
    pf_counter *counter = malloc(sizeof *counter);
    counter->value = start;
    return counter;
}
int32_t pf_counter_value(const pf_counter *counter) { return counter ? counter->value : -1; }
void pf_default_step(struct pf_view *view) { view->step = twice; }
"""

BACKENDS = [pytest.param(backend, id=backend) for backend in ("ctypes", "cffi")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("pointer_fields")
    (root / "pf.h").write_text(HEADER)
    (root / "pf.c").write_text(SOURCE)
    libdir = root / "lib"
    libdir.mkdir()
    subprocess.run(["gcc", "-Wall", "-Werror", "-shared", "-fPIC", str(root / "pf.c"), "-o", str(libdir / "libpf.so")],
                   check=True)
    return root, libdir


@pytest.fixture(params=BACKENDS)
def pf(request, built):
    root, libdir = built
    backend = request.param
    name = f"pf_{backend}"
    out = root / name
    config = BindingConfig(name=name, headers=(root / "pf.h",), link=("pf",), library_dirs=(libdir,), backends=(backend,))
    return build_and_import(config, out), out


def test_the_module_names_its_libraries_itself(pf, built):
    module, out = pf
    assert not list(out.glob("*.json"))
    if module.__name__ == "pf_ctypes":
        # ctypes opens the library at import: name and absolute folder are in the source
        text = Path(module.__file__).read_text()
        assert "('pf',)" in text and repr((str(built[1].resolve()),)) in text
    # callable from anywhere: the folder is absolute (cffi: the compiled module's rpath)
    here = os.getcwd()
    os.chdir("/")
    try:
        assert module.pf_counter_value(None) == -1
    finally:
        os.chdir(here)


def test_a_buffer_assigned_to_a_pointer_member_is_what_c_reads_and_is_kept_alive(pf):
    module, _ = pf
    view = module.pf_view()
    assert view.data is None
    view.data = bytearray(b"\x01\x02\x03")
    view.size = 3
    gc.collect()
    assert module.pf_sum(view) == 6
    assert view.data == b"\x01\x02\x03"  # uint8_t is a character type: read as bytes, never an address
    with pytest.raises(ValueError, match=r"^pf_view\.data: holds 2 bytes, fewer than the 3 pf_view\.size states "):
        view.data = b"\x10\x20"  # C would read 3 bytes: the count first
    view.size = 2
    view.data = b"\x10\x20"
    gc.collect()
    assert module.pf_sum(view) == 48
    view.size = 1
    view.data = "A"  # a str is its UTF-8 bytes
    gc.collect()
    assert module.pf_sum(view) == 65
    view.data = None
    assert view.data is None and module.pf_sum(view) == 0
    with pytest.raises(TypeError):
        view.data = 12345


def test_handle_members_hold_handles_or_none(pf):
    module, _ = pf
    counter = module.pf_counter_new(40)
    view = module.pf_view(counter=counter)
    assert view.counter == counter and type(view.counter) is type(counter)
    assert module.pf_sum(view) == 40
    view.counter = None
    assert view.counter is None and module.pf_sum(view) == 0
    with pytest.raises(TypeError):
        view.counter = int(counter)
    with pytest.raises(TypeError):
        view.counter = module.pf_view()


def test_function_pointer_members_set_by_c_can_be_copied_and_cleared(pf):
    module, _ = pf
    source = module.pf_view()
    module.pf_default_step(source)
    step = source.step
    assert step is not None and int(step) != 0 and "int (*)(int)" in repr(step)  # its typedefs resolved
    target = module.pf_view(data=b"\x05", size=1)
    target.step = step
    assert module.pf_sum(target) == 10
    target.step = None
    assert module.pf_sum(target) == 5
    with pytest.raises(TypeError):
        target.step = int(step)
