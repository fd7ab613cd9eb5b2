"""The order pass: every declaration after what it needs, declared or complete."""
from __future__ import annotations

from pegbind.parse import parse_tokens
from pegbind.passes.order import order_types
from pegbind.preprocess import tokenize
from pegbind.target import get_target

# PKCS#11 in miniature: the table's members are function pointers whose parameters
# point back at the table, and the typedef names come before the struct's body.
CYCLE = """
typedef unsigned long RV;
typedef struct FUNCTION_LIST FUNCTION_LIST;
typedef FUNCTION_LIST *FUNCTION_LIST_PTR;
typedef FUNCTION_LIST_PTR *FUNCTION_LIST_PTR_PTR;
typedef struct VERSION { unsigned char major, minor; } VERSION;
typedef RV (*C_GetFunctionList)(FUNCTION_LIST_PTR_PTR ppList);
typedef RV (*C_Initialize)(void *args);
struct FUNCTION_LIST {
    VERSION version;
    C_GetFunctionList get_function_list;
    C_Initialize initialize;
};
typedef struct { VERSION inner; struct { int a; } anon; } HOLDER;
typedef HOLDER *HOLDER_PTR;
"""


def order_of(source: str) -> list[tuple[str, str]]:
    module = parse_tokens(tokenize(source, "t.h"), get_target(None))
    return list(order_types(module))


def test_declared_before_use_and_complete_before_by_value_use():
    order = order_of(CYCLE)
    place = {node: index for index, node in enumerate(order)}
    # Every typedef name is declared before any typedef or record that mentions it.
    assert place[("typedef", "FUNCTION_LIST")] < place[("typedef", "FUNCTION_LIST_PTR")]
    assert place[("typedef", "FUNCTION_LIST_PTR")] < place[("typedef", "FUNCTION_LIST_PTR_PTR")]
    assert place[("typedef", "FUNCTION_LIST_PTR_PTR")] < place[("typedef", "C_GetFunctionList")]
    assert place[("typedef", "C_GetFunctionList")] < place[("record", "struct FUNCTION_LIST")]
    # A by-value member needs the complete record, even through a typedef.
    assert place[("record", "struct VERSION")] < place[("record", "struct FUNCTION_LIST")]
    assert place[("record", "struct VERSION")] < place[("record", "HOLDER")]
    # An untagged record is declared only by its definition, so pointers to it wait for it.
    assert place[("record", "HOLDER")] < place[("typedef", "HOLDER_PTR")]
    # Anonymous members are written inside their parent, never on their own.
    assert not any("<anonymous" in key for _, key in order)
    assert len(order) == len(set(order))


def test_source_order_is_kept_when_nothing_forces_a_move():
    order = order_of("typedef int b_t; typedef long a_t; struct z { int x; }; struct y { int x; };")
    assert order == [("typedef", "b_t"), ("typedef", "a_t"), ("record", "struct z"), ("record", "struct y")]
