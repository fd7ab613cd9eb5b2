"""The Cython backend's user-side scenarios, run against the cffi and ctypes backends.

DESIGN §4: a generated module looks the same to its user whichever backend
made it.  The scenarios of tests/test_cython_backend.py (calls, checks,
errors, records, names, docstrings) are imported here and run against a
``demo`` fixture parametrized over the other backends; each backend's
module is generated and built once per session from the hand-built model
of tests/clib/demo.h and imported under its own name.
"""
from __future__ import annotations


import pytest

from conftest import compile_library, import_from

from clib.demo_model import HEADER, SOURCE, demo_module
from pegbind.build import build
from pegbind.config import BindingConfig
from pegbind.emit import generate
from pegbind.passes import run_passes
from pegbind.target import get_target

# The shared scenarios: every test of the Cython suite that is about the
# module's behaviour (not about how Cython builds it).
from test_cython_backend import (  # noqa: F401  (collected by pytest here too)
    test_anonymous_union_members_share_storage,
    test_bool_and_float_values,
    test_const_buffer_accepts_any_readable_buffer,
    test_const_char_pointer_takes_str_bytes_buffers_or_none,
    test_constants_have_exact_values,
    test_docstrings_carry_signature_comment_and_prototype,
    test_enums_are_int_enums_and_module_attributes,
    test_functions_take_record_instances_or_none,
    test_integer_widths_accept_their_whole_range_and_nothing_more,
    test_keyword_named_function_is_renamed,
    test_mutable_pointer_needs_a_writable_buffer,
    test_parameters_are_positional_only_and_counted,
    test_passing_two_to_the_64_overflows,
    test_record_field_kinds,
    test_record_keyword_constructor_attributes_bytes_and_sizeof,
    test_string_returns_are_bytes_or_none,
    test_typed_out_pointer_checks_the_buffer_holds_one_element,
    test_wrong_integer_types_raise_type_error,
)

BACKENDS = ["ctypes", pytest.param("cffi", marks=pytest.mark.slow)]


@pytest.fixture(scope="session")
def libdemo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("libdemo_parity")
    compile_library([SOURCE], folder / "libdemo.so", "-Wall", "-Werror", "-O1")
    return folder


@pytest.fixture(scope="session", params=BACKENDS)
def demo(request, libdemo, tmp_path_factory):
    backend = request.param
    name = f"pegbind_demo_{backend}"
    out = tmp_path_factory.mktemp(f"demo_{backend}")
    config = BindingConfig(name=name, headers=(HEADER,), link=("demo",), library_dirs=(libdemo,), backends=(backend,))
    binding = run_passes(demo_module(), config, get_target("linux-x86_64"))
    files = generate(binding, config, backend=backend, out_dir=out)
    assert build(config, files, out).parent == out
    return import_from(out, name)


def test_each_backend_made_its_own_module(demo):
    assert demo.__name__.startswith("pegbind_demo_")
    assert not demo.__file__.endswith(".pyx")
