"""Python/Cython keywords and builtins as C names, and comments that would break naive quoting.

tests/conformance/hostile.h names functions, parameters, fields, records
and enum members ``def``, ``cdef``, ``cpdef``, ``class``, ``lambda``,
``None``, ``True``, ``print``, ``object``, ``type``, ``len``, ``self``,
``import``, ``from``, ``in``, ``is``; its comments hold ``\"\"\"``, ``'''``,
``*/``-looking text, backslashes and non-ASCII.  Every backend must build
a module that imports, calls the functions, and keeps each comment intact
in ``__doc__``.

Naming follows the rule of pegbind/passes/naming.py, the same in every
backend: a module-level name (function, record class, enum, constant) that is
a Python keyword, a Cython reserved word or a Python builtin gets a trailing
``_`` (``def_``, ``cdef_``, ``print_``, ``object_``), so the module's own code
still means the builtin; an attribute (a field) only avoids keywords and
Cython reserved words (``record.def_``, ``record.cdef_``) and may shadow a
builtin (``record.type``, ``record.len``), as ``obj.type`` is fine Python.
A field named ``self`` stays ``self`` and must still work in the keyword
constructor.  A name a class body would rewrite (``__x``, Python's name
mangling) keeps one leading underscore where a class body spells it: record
and enum classes, fields, enumerators.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import build_and_import, compile_library

from pegbind.config import BindingConfig

pytestmark = pytest.mark.slow

CONF = Path(__file__).resolve().parent / "conformance"
BACKENDS = [pytest.param(backend, id=backend) for backend in ("cython", "cffi", "ctypes")]

#: (Python name, comment text that must appear in its __doc__ exactly)
DOCS = [
    ("class_", "A record named class. Quotes: \"\"\"triple\"\"\" and '''single''' stay as written."),
    ("object_", "A record named object; C:\\path\\ has backslashes and a */ b is not an end."),
    ("def_", "Returns cpdef + from. Quotes: \"\"\"triple\"\"\" and '''single''' stay as written."),
    ("print_", "Path C:\\path\\ ends in a backslash; a */ b is not the end of anything."),
    ("len_", "Non-ASCII: résumé → done."),
    ("type_", "Escapes stay literal: \\n is not a newline and \\t is not a tab."),
    ("cdef_", "cdef: returns None * 2."),
]


@pytest.fixture(scope="session")
def libhostile(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("libhostile")
    compile_library([CONF / "hostile.c"], folder / "libhostile.so", "-Wall", "-Werror")
    return folder


_built: dict[str, object] = {}


@pytest.fixture(params=BACKENDS)
def hostile(request, libhostile, tmp_path_factory):
    backend = request.param
    if backend not in _built:
        name = f"hostile_{backend}"
        config = BindingConfig(
            name=name, headers=(CONF / "hostile.h",), link=("hostile",), library_dirs=(libhostile,), backends=(backend,)
        )
        try:
            _built[backend] = build_and_import(config, tmp_path_factory.mktemp(name))
        except Exception as exc:  # noqa: BLE001 - every test of this backend reports it
            _built[backend] = exc
    module = _built[backend]
    if isinstance(module, BaseException):
        pytest.fail(f"the {backend} backend could not build hostile.h: {type(module).__name__}: {module}")
    return module


def test_functions_with_keyword_and_builtin_names_are_callable(hostile):
    assert hostile.def_(2, 3) == 5
    assert hostile.print_(4, 2) == 42
    assert hostile.cdef_(21) == 42
    assert hostile.cpdef_(41) == 42
    assert hostile.lambda_(-42) == 42


def test_records_and_fields_with_keyword_and_builtin_names(hostile):
    record = hostile.class_(def_=1, cdef_=2, None_=3, lambda_=4)
    assert (record.def_, record.cdef_, record.None_, record.lambda_) == (1, 2, 3, 4)
    assert hostile.len_(record) == 4321
    assert hostile.len_(None) == -1
    thing = hostile.object_(type=1, len=2, self=3, print=4)
    assert (thing.type, thing.len, thing.self, thing.print) == (1, 2, 3, 4)
    thing.self = 5
    assert hostile.type_(thing) == 4521
    assert repr(thing).endswith("(type=1, len=2, self=5, print=4)")
    # members named property, staticmethod, classmethod (Xlib's event.property) end in _, as
    # keywords do: the class body's own uses of those names come after its members; so do
    # those named as the class's methods
    attrs = hostile.attrs(property_=7, staticmethod_=1, classmethod_=2, from_bytes_=4, from_pointer_=5, after=3)
    assert (attrs.property_, attrs.staticmethod_, attrs.classmethod_, attrs.after) == (7, 1, 2, 3)
    assert (attrs.from_bytes_, attrs.from_pointer_) == (4, 5)
    assert hostile.attrs_sum(attrs) == 37
    assert callable(hostile.attrs.from_bytes) and callable(hostile.attrs.from_pointer)


def test_parameters_named_as_the_modules_own_classes(hostile):
    # a parameter named Pointer hid the class the Cython wrapper casts handles with
    gadget = hostile.gadget_make()
    assert hostile.gadget_same(gadget, gadget, 1) == 2 and hostile.gadget_same(gadget, None, 0) == 0
    assert hostile.gadget_same.__doc__.startswith("gadget_same(Pointer_: gadget | None, FunctionPointer_: gadget")


def test_enum_members_with_keyword_names(hostile):
    assert (hostile.import_, hostile.True_, hostile.in_, hostile.is_) == (1, 2, 4, 8)
    assert hostile.from_.import_ == 1


def test_names_a_class_body_would_rewrite_keep_one_underscore(hostile):
    # Python mangles __x in a class body (to _C__x): a record class, member or enumerator so
    # named was out of reach (an enumerator broke the import), and ctypes stored a member in a
    # Python attribute of that name, not in C's.  They keep one leading underscore; a member
    # already named so gets a trailing _; a function keeps C's name, as no class body spells it.
    record = hostile.mangled(inner=hostile._inner_t(a=1), _x=2, _x_=3)
    assert (record.inner.a, record._x, record._x_) == (1, 2, 3)
    assert hostile.mangled_sum(record) == 321
    record._x = 4
    assert hostile.mangled_sum(record) == 341 and record.where is None
    assert repr(record) == "mangled(inner=_inner_t(a=1), _x=4, _x_=3, where=None)"
    assert hostile.__inner_t is hostile._inner_t  # and at module level, C's name for the class
    state = hostile.owners(_owner_=1, _p_=2, _pb_x_=3)  # a record's own attributes: taken as keywords are
    assert (state._owner_, state._p_, state._pb_x_, hostile.owners_sum(state)) == (1, 2, 3, 321)
    assert list(hostile._kind) == [hostile._FIRST, hostile.SECOND] and hostile._FIRST == 1
    assert hostile.__twice(hostile._kind._FIRST) == 2


@pytest.mark.parametrize(("name", "text"), DOCS, ids=[name for name, _ in DOCS])
def test_comments_reach_the_docstrings_intact(hostile, name, text):
    doc = getattr(hostile, name).__doc__
    assert doc is not None and text in doc, f"{name}.__doc__ = {doc!r}"


#: Names the generated code gives its own variables and helpers, where a record or handle class
#: of the same name would hide the class (Cython did not compile a record named ``data``,
#: ``owner`` or ``ptr``; a Python setter's ``value`` hid a record class ``value``; Cython's
#: helper ``_pb_new_pointer`` was the constructor of a handle class ``pointer``). Not ``result``,
#: which cffi's own C names a local of each function it wraps (README, "Known limits").
LOCAL_NAMES = """obj ptr owner ref data copied value items item staged kept count held record what pointer
    memory function target step address unit view closure trampoline error last kind maker of at
    handle function_pointer given state""".split()


def _names_header(handles: frozenset[str]) -> tuple[str, str]:
    """A header with a record (a handle, for the names in ``handles``) named after each of
    :data:`LOCAL_NAMES`, and a function taking and giving it (and calling back with a record);
    and the C of those functions."""
    header, source = ["#include <stddef.h>"], ['#include "names.h"']
    for name in LOCAL_NAMES:
        if name in handles:
            header += [f"typedef struct {name}_s {name};",
                       f"{name} *h_{name}({name} *pa, {name} **pout, {name} *(*pmake)(void *puser), void *puser);"]
            source += [f"static char {name}_one;",
                       f"{name} *h_{name}({name} *pa, {name} **pout, {name} *(*pmake)(void *), void *puser) "
                       f"{{ *pout = pa; return pmake ? pmake(puser) : pa ? pa : ({name} *)&{name}_one; }}"]
            continue
        header += [f"typedef struct {name} {{ int x; struct {name} *next; }} {name};",
                   f"{name} *r_{name}({name} *pa, {name} **pout, int (*pcb)({name} *pitem, void *puser), void *puser);"]
        source += [f"{name} *r_{name}({name} *pa, {name} **pout, int (*pcb)({name} *, void *), void *puser) "
                   "{ *pout = pa; if (pcb) pcb(pa, puser); return pa; }"]
    return "\n".join(header) + "\n", "\n".join(source) + "\n"


@pytest.mark.parametrize("backend", ["cython", "cffi", "ctypes"])
@pytest.mark.parametrize("handles", ["even", "odd"])
def test_records_and_handles_named_as_the_generated_codes_own_names(backend, handles, tmp_path):
    as_handles = frozenset(LOCAL_NAMES[handles == "odd"::2])
    header, source = _names_header(as_handles)
    (tmp_path / "names.h").write_text(header)
    (tmp_path / "names.c").write_text(source)
    # a library of its own for each set: the process keeps the first library of a name it loads
    compile_library([tmp_path / "names.c"], tmp_path / f"libnames_{handles}.so", "-Wall", "-Werror")
    config = BindingConfig(name=f"names_{handles}_{backend}", headers=(tmp_path / "names.h",), link=(f"names_{handles}",),
                           library_dirs=(tmp_path,), backends=(backend,))
    m = build_and_import(config, tmp_path / "out")
    for name in LOCAL_NAMES:
        if name in as_handles:
            one, nothing = getattr(m, f"h_{name}")(None, None, None)
            assert type(one) is getattr(m, name) and nothing is None, name
            assert getattr(m, f"h_{name}")(one, lambda user: one, None) == (one, one), name  # a callback's result
            assert issubclass(getattr(m, name), m.Pointer)
            continue
        record = getattr(m, name)(x=3)
        record.next = record  # a setter naming the class
        seen = []
        result, out = getattr(m, f"r_{name}")(record, lambda item, user: seen.append(item.x) or 0, None)
        assert (result.x, out.x, record.next.x, seen) == (3, 3, 3, [3]), name
        assert type(result) is getattr(m, name) and repr(record).startswith(f"{name}(x=3, next=")


def test_the_names_a_record_class_may_not_take_are_those_the_compiled_module_declares():
    # the Cython module's cimports are C-level names: a record class named so did not compile
    import re

    from pegbind.passes.naming import C_LEVEL_NAMES
    from pegbind.resources import templates_dir

    template = (templates_dir() / "cython" / "cython.pyx.jinja").read_text()
    cimported = set()
    for names in re.findall(r"^(?:from \S+ )?cimport ([^#\n]+)", template, re.MULTILINE):
        cimported |= {name.strip().split(" as ")[-1] for name in names.split(",")}
    assert cimported <= C_LEVEL_NAMES, cimported - C_LEVEL_NAMES
