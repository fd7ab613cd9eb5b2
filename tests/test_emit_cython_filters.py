"""The Cython spelling filters (pure Python, no compiler)."""
from __future__ import annotations

import pytest

from pegbind.emit.cython import (
    SpellingError, cy_convert, cy_converts, cy_decl, cy_field_decl, cy_function_decl, cy_named_decl,
    cy_record_name, py_literal, py_signature,
)
from pegbind.config import ParamRole
from pegbind.emit.cython_wrapper import cy_def_params
from pegbind.model import Array, Function, FunctionType, Param, Pointer, Primitive, RecordRef, TypedefRef
from pegbind.passes.binding import FieldBinding, FunctionBinding, ParamBinding, ReturnBinding
from pegbind.passes.naming import field_identifier, python_identifier

CHAR = Primitive("char")
INT = Primitive("int")


@pytest.mark.parametrize(
    "ctype, declarator, expected",
    [
        (INT, "", "int"),
        (Primitive("unsigned long long"), "v", "unsigned long long v"),
        (Primitive("_Bool"), "flag", "bint flag"),
        (Primitive("double _Complex"), "z", "double complex z"),
        (Pointer(Primitive("long double _Complex", ("const",))), "", "const long double complex *"),
        (Pointer(Primitive("char", ("const",))), "s", "const char *s"),
        (Pointer(Primitive("char", ("const",))), "", "const char *"),
        (Pointer(Pointer(CHAR)), "argv", "char **argv"),
        (Pointer(CHAR, ("const",)), "p", "char *const p"),
        (Pointer(INT, ("restrict",)), "p", "int *p"),
        (Primitive("int", ("volatile",)), "v", "int v"),
        (Array(CHAR, 16), "name", "char name[16]"),
        (Array(Array(INT, 3), 2), "m", "int m[2][3]"),
        (Array(INT, None), "tail", "int tail[]"),
        (Pointer(Array(INT, 4)), "rows", "int (*rows)[4]"),
        (TypedefRef("uint32_t"), "n", "_c_uint32_t n"),
        (TypedefRef("CK_ULONG", ("const",)), "", "const _c_CK_ULONG"),
        (RecordRef("struct", "point", "struct point"), "p", "_cs_point p"),
        (RecordRef("union", "u", "union u"), "", "_cu_u"),
        (RecordRef("enum", "color", "enum color"), "c", "_ce_color c"),
        (RecordRef("struct", None, "demo_shape"), "s", "_c_demo_shape s"),
        # C calls through a function pointer with no Python error to report, maybe without the GIL
        (Pointer(FunctionType(INT, (Param("x", INT),))), "cb", "int (*cb)(int) noexcept nogil"),
        (Pointer(FunctionType(Primitive("void"), (), True)), "f", "void (*f)(...) noexcept nogil"),
        (Pointer(Pointer(FunctionType(INT, (Param(None, Pointer(CHAR)),)))), "pp", "int (**pp)(char *) noexcept nogil"),
    ],
)
def test_cy_decl(ctype, declarator, expected):
    assert cy_decl(ctype, declarator) == expected


def test_int128_cannot_be_spelled():
    with pytest.raises(SpellingError):
        cy_decl(Primitive("__int128"), "x")


def test_named_declarations_carry_the_c_name():
    assert cy_named_decl(TypedefRef("cb_t"), "_c_x", "x") == '_c_cb_t _c_x "x"'
    fp = Pointer(FunctionType(INT, (Param("x", INT),)))
    assert cy_named_decl(fp, "_c_cb_t", "cb_t") == 'int (*_c_cb_t "cb_t")(int) noexcept nogil'
    assert cy_named_decl(Array(INT, 3), "_c_vec3", "vec3") == 'int _c_vec3 "vec3"[3]'
    function = Function("open", Pointer(CHAR), (Param("path", Pointer(Primitive("char", ("const",)))),), True)
    assert cy_function_decl(function) == 'char *_c_open "open"(const char *, ...)'
    assert cy_record_name(RecordRef("struct", "z_stream_s", "struct z_stream_s")) == "_cs_z_stream_s"


def test_field_declaration_renames_keywords_with_a_cname():
    assert cy_field_decl(FieldBinding("lambda", "lambda_", INT, "int")) == 'int lambda_ "lambda"'
    assert cy_field_decl(FieldBinding("x", "x", Array(CHAR, 4), "char_array", length=4)) == "char x[4]"


@pytest.mark.parametrize(
    "value, literal",
    [
        (18446744073709551615, "18446744073709551615"),
        (-7, "-7"),
        (0.1, "0.1"),
        (float("inf"), "float('inf')"),
        (float("-inf"), "-float('inf')"),
        (float("nan"), "float('nan')"),
        ("1.2.13", "'1.2.13'"),
        ('say "hi"\n', "'say \"hi\"\\n'"),
        (b"\xff\x00", "b'\\xff\\x00'"),
        (True, "1"),
    ],
)
def test_py_literal_round_trips(value, literal):
    assert py_literal(value) == literal
    evaluated = eval(literal)  # the literal, read back by Python, is the value
    if isinstance(value, float) and value != value:
        assert evaluated != evaluated
    else:
        assert evaluated == value


@pytest.mark.parametrize(
    "name, expected",
    [("lambda", "lambda_"), ("class", "class_"), ("cdef", "cdef_"), ("sizeof", "sizeof_"), ("char", "char_"),
     ("len", "len_"), ("open", "open_"), ("deflate", "deflate"), ("match", "match")],
)
def test_python_identifier(name, expected):
    assert python_identifier(name) == expected


def test_field_names_may_shadow_builtins_but_not_keywords():
    assert field_identifier("type") == "type"
    assert field_identifier("from") == "from_"


def test_signature_for_stub_and_docstring():
    cstr = Pointer(Primitive("char", ("const",)))
    point = RecordRef("struct", "point", "struct point")
    function = Function("f", INT, (Param("s", cstr), Param("p", Pointer(point))))
    binding = FunctionBinding(
        function, "f",
        (ParamBinding(0, "s", "s", cstr, ParamRole("in"), "cstring"),
         ParamBinding(1, "p", "p", Pointer(point), ParamRole("in"), "record_ptr", "struct point")),
        ReturnBinding(INT, "int"),
    )
    assert py_signature(binding, {"struct point": "point"}) == "f(s: str | _Buffer | None, p: point | None, /) -> int"
    empty = FunctionBinding(Function("g", Primitive("void"), ()), "g", (), ReturnBinding(Primitive("void"), "void"))
    assert py_signature(empty, {}) == "g() -> None"


def test_wrapper_parameters_are_untyped_so_the_body_names_a_wrong_record():
    point = RecordRef("struct", "point", "struct point")
    function = Function("f", INT, (Param("p", Pointer(point)), Param("n", INT)))
    binding = FunctionBinding(
        function, "f",
        (ParamBinding(0, "p", "p", Pointer(point), ParamRole("in"), "record_ptr", "struct point"),
         ParamBinding(1, "n", "n", INT, ParamRole("in"), "int")),
        ReturnBinding(INT, "int"),
    )
    assert cy_def_params(binding) == "p, n, /"
    assert cy_def_params(binding, method=True) == "self, p, n, /"
    assert cy_converts(binding)


@pytest.mark.parametrize(
    "ctype, expected",
    [
        (INT, "(<_pb_unchecked_to_int>_pb_to_int)"),
        (Primitive("unsigned long long"), "(<_pb_unchecked_to_unsigned_long_long>_pb_to_unsigned_long_long)"),
        (TypedefRef("uint32_t", ("const",)), "(<_pb_unchecked_to_c_uint32_t>_pb_to_c_uint32_t)"),
        (RecordRef("enum", "color", "enum color"), "(<_pb_unchecked_to_ce_color>_pb_to_ce_color)"),
        (Primitive("double"), "(<_pb_unchecked_to_double>_pb_to_double)"),
    ],
)
def test_conversions_go_through_a_helper_cython_does_not_check(ctype, expected):
    assert cy_convert(ctype) == expected


def test_only_numbers_are_converted_by_a_helper():
    cstr = Pointer(Primitive("char", ("const",)))
    function = Function("g", INT, (Param("s", cstr),))
    binding = FunctionBinding(
        function, "g", (ParamBinding(0, "s", "s", cstr, ParamRole("in"), "cstring"),), ReturnBinding(INT, "int"),
    )
    assert not cy_converts(binding)
