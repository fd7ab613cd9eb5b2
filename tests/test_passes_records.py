"""How each record member is presented: the backend-neutral plan of fields (no compiler).

Headers written here are read with the real parser; the test checks what
every backend is told: the kind of each field, the classes of the structs and
unions C leaves unnamed and where C code finds their types, and that a name
taken elsewhere makes way with a warning.
"""
from __future__ import annotations

from pathlib import Path

from pegbind.config import BindingConfig
from pegbind.passes import run_passes
from pegbind.pipeline import read_binding

HEADER = """\
#include <stddef.h>
typedef struct opaque opaque;
typedef void HANDLE;
typedef unsigned char xchar;
typedef enum { EV_NONE, EV_SCALAR } ev_type;
typedef struct { int refs; } *ev_ref;
typedef struct ev {
    ev_type type;
    union {
        struct { xchar *value; size_t length; } scalar;
        struct { int count; } sequence;
    } data;
    union { struct { int depth; } inner; long code; };
    struct { int id; } marks[2];
    struct { int x; } *cursor;
    enum { MODE_A, MODE_B } mode;
    const char *name;
    char *text;
    struct ev *next;
    opaque *handle;
    HANDLE *untyped_handle;
    void *data_ptr;
    const int *numbers;
    int **rows;
    int (*callback)(int);
    ev_type kind : 4;
    ev_ref ref;
} ev;
"""


def plan(tmp_path: Path, text: str = HEADER, **options):
    header = tmp_path / "ev.h"
    header.write_text(text)
    config = BindingConfig(name="ev", headers=(header,), **options)
    read = read_binding(config)
    return run_passes(read.module, config, read.target)


def record(binding, name):
    (found,) = [r for r in binding.records if r.py_name == name]
    return found


def fields(binding, name):
    return {f.py_name: f for f in record(binding, name).fields}


def test_each_member_has_a_kind_and_none_is_left_out(tmp_path):
    binding = plan(tmp_path)
    ev = fields(binding, "ev")
    kinds = {name: f.kind for name, f in ev.items()}
    assert kinds == {
        "type": "enum", "data": "record", "inner": "record", "code": "int", "marks": "record_array",
        "cursor": "record_ptr", "mode": "enum", "name": "string", "text": "string", "next": "record_ptr",
        "handle": "handle", "untyped_handle": "handle", "data_ptr": "data_pointer", "numbers": "data_pointer",
        "rows": "data_pointer", "callback": "function_pointer", "kind": "enum", "ref": "record_ptr",
    }
    assert not [d for d in binding.diagnostics if "is not bound" in d.message]
    assert ev["kind"].bit_range == (0, 15)
    # the type Pointer objects are typed by, typedefs resolved and qualifiers dropped
    assert [ev[n].pointer_type for n in ("data_ptr", "numbers", "rows")] == ["void *", "int *", "int **"]
    # what C may write through: a private copy of read-only text, writable memory for typed data
    assert (ev["name"].copies_readonly, ev["text"].copies_readonly) == (False, True)
    assert (ev["numbers"].needs_writable, ev["rows"].needs_writable) == (False, True)
    assert ev["data_ptr"].copies_readonly and not ev["data_ptr"].needs_writable
    assert fields(binding, "ev_data_scalar")["value"].kind == "string"  # xmlChar-like: a character type


def anonymous_by_class(binding):
    """Python class name -> where C writes the type (AnonymousType), for the unnamed records."""
    return {r.py_name: binding.anonymous[r.record.key] for r in binding.records if r.record.key in binding.anonymous}


def test_unnamed_types_are_named_after_their_member_and_found_by_typeof(tmp_path):
    binding = plan(tmp_path)
    places = anonymous_by_class(binding)
    assert set(places) == {"ev_data", "ev_data_scalar", "ev_data_sequence", "ev_inner", "ev_marks", "ev_cursor",
                           "ev_ref"}
    assert "ev_mode" in {e.py_name for e in binding.enums}
    scalar = places["ev_data_scalar"]
    assert (scalar.root, scalar.steps, scalar.member) == ("struct ev", ("data", "scalar"), "scalar")
    assert scalar.c_type == "__typeof__((*(struct ev *)0).data.scalar)"
    assert places["ev_inner"].c_type == "__typeof__((*(struct ev *)0).inner)"  # lifted from the anonymous union
    assert places["ev_marks"].c_type == "__typeof__((*(struct ev *)0).marks[0])"
    assert places["ev_cursor"].c_type == "__typeof__((*(*(struct ev *)0).cursor))"
    # what a typedef points to is named after it, and found from it
    assert (places["ev_ref"].root, places["ev_ref"].c_type) == ("ev_ref", "__typeof__((*(*(ev_ref *)0)))")
    # the anonymous union itself lends its members to ev: no class, no steps
    lent = [place for place in binding.anonymous.values() if not place.steps]
    assert len(lent) == 1 and lent[0].key.startswith("union <anonymous at ") and lent[0].member is None
    # a class is written after the records written inside it
    order = [r.py_name for r in binding.ordered_records()]
    assert order.index("ev_data_scalar") < order.index("ev_data") < order.index("ev")


def test_a_name_c_gives_something_else_is_kept_and_the_unnamed_type_makes_way(tmp_path):
    binding = plan(tmp_path, HEADER + "int ev_data(void);\nenum { ev_marks };\n")
    places = anonymous_by_class(binding)
    assert {"ev_data_", "ev_data__scalar", "ev_marks_"} <= set(places)
    assert "ev_data" in {f.py_name for f in binding.functions}
    warnings = sorted((d.coord.line, d.message) for d in binding.diagnostics if "is bound as" in d.message)
    assert warnings == [
        (9, "record 'ev_data' is bound as 'ev_data_': 'ev_data' is already used"),
        (14, "record 'ev_marks' is bound as 'ev_marks_': 'ev_marks' is already used"),
    ]


def test_a_stripped_prefix_is_stripped_once(tmp_path):
    text = "typedef struct yaml_event { union { struct { int a; } scalar; } data; } yaml_event_t;\n"
    binding = plan(tmp_path, text, strip_prefix="yaml_")
    assert {r.py_name for r in binding.records} == {"event_t", "event_t_data", "event_t_data_scalar"}


def test_the_text_of_a_union_is_not_read_by_repr(tmp_path):
    binding = plan(tmp_path)
    elided = {(r.py_name, f.py_name) for r in binding.records for f in r.fields if f.elided_in_repr}
    # scalar's text may be the count of a sequence; ev.name is no union's
    assert elided == {("ev_data", "scalar")}


def test_a_name_python_reserves_is_bound_with_an_underscore_and_a_warning(tmp_path):
    binding = plan(tmp_path, "int sum(int a, int b);\nint lambda(int x);\nint cdef(int x);\n"
                             "struct type { int len; };\nint len_of(void);\n")
    assert {"sum_", "lambda_", "cdef_", "len_of"} <= {f.py_name for f in binding.functions}
    assert "type_" in {r.py_name for r in binding.records}
    warnings = sorted((d.coord.line, d.severity, d.message) for d in binding.diagnostics if "is bound as" in d.message)
    assert warnings == [
        (1, "warning", "function 'sum' is bound as 'sum_': 'sum' is a Python builtin, which the module's own code calls"),
        (2, "warning", "function 'lambda' is bound as 'lambda_': 'lambda' is a Python keyword"),
        (3, "warning", "function 'cdef' is bound as 'cdef_': 'cdef' is a word Cython reserves"),
        (4, "warning", "record 'type' is bound as 'type_': 'type' is a Python builtin, which the module's own code calls"),
    ]


def test_a_class_does_not_take_a_name_the_compiled_module_declares_in_c(tmp_path):
    # a record class is a C-level type in the Cython module, beside its cimports: one named
    # free or cython did not compile; functions are Python names there, and keep theirs
    binding = plan(tmp_path, "struct free { int a; };\ntypedef struct cython cython;\ncython *make(struct free *f);\n"
                             "void *malloc(unsigned long n);\n")
    assert {r.py_name for r in binding.records} == {"free_"}
    assert [h.py_name for h in binding.handles] == ["cython_"]
    assert "malloc" in {f.py_name for f in binding.functions}
    warnings = sorted((d.coord.line, d.message) for d in binding.diagnostics if "is bound as" in d.message)
    assert warnings == [
        (1, "record 'free' is bound as 'free_': 'free' is a name the compiled module declares in C"),
        (2, "record 'cython' is bound as 'cython_': 'cython' is a name the compiled module declares in C"),
    ]


def test_a_handle_class_goes_by_a_typedef_of_a_pointer_to_a_typedef_of_it(tmp_path):
    # libtasn1's typedef struct asn1_node_st asn1_node_st; typedef asn1_node_st *asn1_node;
    # as Z3's typedef struct _Z3_context *Z3_context, without the typedef between
    binding = plan(tmp_path, "typedef struct node_st node_st;\ntypedef node_st *node;\nnode node_new(void);\n"
                             "typedef struct _ctx *ctx;\nctx ctx_new(void);\n")
    assert [(h.py_name, h.aliases) for h in binding.handles] == [("node_st", ("node",)), ("ctx", ("_ctx",))]


def test_a_record_class_goes_by_a_typedef_of_a_pointer_to_it_last(tmp_path):
    # FreeType's typedef struct FT_FaceRec_ {...} FT_FaceRec, *FT_Face: FT_FaceRec is the class, and
    # FT_Face names it too, as C code passes one under that name; a record named by that typedef
    # alone is named after it, once
    binding = plan(tmp_path, "typedef struct FaceRec_ { int glyphs; } FaceRec, *Face;\n"
                             "typedef struct { int a; } *Anon;\nFace face_get(void);\nAnon anon_get(void);\n")
    assert [(r.py_name, r.aliases) for r in binding.records] == [("FaceRec", ("FaceRec_", "Face")), ("Anon", ())]
    assert not [d.message for d in binding.diagnostics if "is bound as" in d.message]


def test_a_packet_and_its_bytes_are_characters_and_their_count(tmp_path):
    # libogg's ogg_packet { unsigned char *packet; long bytes; ... }: the 30 bytes of a Vorbis header
    # read as 7, to the first NUL, and a count past what was set was taken (a crash in packetin)
    binding = plan(tmp_path, "typedef struct { unsigned char *packet; long bytes; long b_o_s; } pkt;\n"
                             "typedef struct { char *payload; int bytes; } msg;\nvoid use(pkt *p, msg *m);\n")
    fields = {(r.py_name, f.py_name): (f.length_member, f.counts) for r in binding.records for f in r.fields}
    assert fields[("pkt", "packet")] == ("bytes", ()) and fields[("pkt", "bytes")] == ("", ("packet", "packet"))
    assert fields[("msg", "payload")][0] == "bytes" and fields[("pkt", "b_o_s")] == ("", ())


def test_handles_counted_by_any_length_beside_them_are_a_list_not_one_given_back(tmp_path):
    # LLVM's C API: each count is named otherwise; taken for one handle C gives back, C read that
    # many from one cell (LLVMConstVector(vals, 2) crashed)
    binding = plan(tmp_path, "typedef struct V *VRef;\n"
                             "VRef ok(VRef *Indices, unsigned NumIndices);\n"
                             "VRef prefixed(VRef *ConstantIndices, unsigned NumIndices);\n"
                             "VRef sized(VRef *ScalarConstantVals, unsigned Size);\n"
                             "VRef n(VRef *RetVals, unsigned N);\n"
                             "int flags(VRef *out, unsigned flags);\n")
    roles = {f.function.name: [(p.c_name, p.role.role, p.role.length) for p in f.params] for f in binding.functions}
    assert roles == {
        "ok": [("Indices", "in-array", "NumIndices"), ("NumIndices", "len", "Indices")],
        "prefixed": [("ConstantIndices", "in-array", "NumIndices"), ("NumIndices", "len", "ConstantIndices")],
        "sized": [("ScalarConstantVals", "in-array", "Size"), ("Size", "len", "ScalarConstantVals")],
        "n": [("RetVals", "in-array", "N"), ("N", "len", "RetVals")],
        "flags": [("out", "out", None), ("flags", "in", None)],
    }
