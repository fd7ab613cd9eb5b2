"""The call plans (pass ``plan-calls``), through ``pegbind dump --stage plan`` as a user reads them."""
from __future__ import annotations

import json

from pegbind.cli import main

HEADER = """\
struct item { int tag; unsigned long size; };
int read_into(void *buf, unsigned long *len);
int fill(struct item *items, unsigned int count);
int sum(const struct item *items, unsigned short count);
int take(const char *name) __attribute__((nonnull(1)));
void nothing(void);
"""
ROLES = ["read_into:buf=out-bytes(len)", "fill:items=in-array(count)", "sum:items=in-array(count)"]


def _plans(tmp_path, capsys) -> dict:
    (tmp_path / "io.h").write_text(HEADER)
    argv = ["dump", "--stage", "plan", str(tmp_path / "io.h")]
    for rule in ROLES:
        argv += ["--function", rule]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)["functions"]


def _kinds(plan: dict) -> list[tuple[str, str | None]]:
    return [(step["kind"], step.get("param")) for step in plan["steps"]]


def test_an_out_buffer_whose_length_is_a_pointer_is_probed_then_allocated(tmp_path, capsys):
    plan = _plans(tmp_path, capsys)["read_into"]
    assert _kinds(plan) == [
        ("pass_length", "len_"), ("probe", None), ("allocate", None), ("call", None), ("convert_return", None),
        ("collect_output", "buf"),
    ]
    length, probe, allocate = plan["steps"][:3]
    assert (length["mode"], length["starts_at_zero"], length["limit"]) == ("cell", True, None)
    assert probe["buffers"] == [{"param": "buf", "length": "len_"}]
    assert (allocate["element_size"], allocate["limit"]) == (1, (1 << 63) - 1)
    assert allocate["message"] == "read_into: buf would need more memory than can be addressed"
    assert plan["results"] == ["_pb_ret", "_pb_res0"]
    assert (plan["passes_through"], plan["releases"]) == (False, [])


def test_records_c_may_write_are_copied_back_and_const_ones_are_not(tmp_path, capsys):
    plans = _plans(tmp_path, capsys)
    assert _kinds(plans["fill"]) == [
        ("pass_array", "items"), ("pass_length", "count"), ("call", None), ("copy_back", "items"),
        ("convert_return", None),
    ]
    assert _kinds(plans["sum_"]) == [
        ("pass_array", "items"), ("pass_length", "count"), ("call", None), ("convert_return", None),
    ]
    assert plans["sum_"]["releases"] == [{"what": "memory", "param": "items"}]


def test_a_length_type_narrower_than_any_size_gets_its_limit_and_message(tmp_path, capsys):
    plans = _plans(tmp_path, capsys)
    length = plans["sum_"]["steps"][1]
    assert (length["mode"], length["limit"]) == ("value", 65535)
    assert length["message"] == "argument 1 (items) is too long for its length parameter count"
    assert plans["fill"]["steps"][1]["limit"] == (1 << 32) - 1


def test_nonnull_is_checked_before_the_conversion_and_plain_calls_pass_through(tmp_path, capsys):
    plans = _plans(tmp_path, capsys)
    assert _kinds(plans["take"]) == [("check_not_none", "name"), ("pass_in", "name"), ("call", None),
                                     ("convert_return", None)]
    assert plans["take"]["steps"][0]["message"] == "argument 1 (name) must not be None"
    assert plans["take"]["passes_through"] is True
    assert (_kinds(plans["nothing"]), plans["nothing"]["results"]) == ([("call", None)], [])


def test_a_user_data_pointer_is_paired_with_the_callable_beside_it_only_when_unambiguous(tmp_path, capsys):
    (tmp_path / "cb.h").write_text(
        "typedef int (*visit)(void *context, int n);\n"
        "int each(visit f, void *context);\n"  # sqlite3_exec's shape
        "int each_before(int n, void *context, visit f);\n"
        "void set_data(void *data, void (*destroy)(void *));\n"  # data a destructor frees: not user data
        "int apart(void *buf, int n, visit f);\n"  # not beside the callable
        "int both(visit f, visit g, void *context);\n"  # two callables: which one is it for?
        "int constant(visit f, const void *context);\n"
    )
    assert main(["dump", "--stage", "plan", str(tmp_path / "cb.h")]) == 0
    plans = json.loads(capsys.readouterr().out)["functions"]
    paired = {name: [s for s in plan["steps"] if s["kind"] == "pass_user_data"] for name, plan in plans.items()}
    assert [(s["callback"], s["user"], s["arg"]) for s in paired["each"]] == [("f", "context", 0)]
    assert [(s["callback"], s["user"], s["arg"]) for s in paired["each_before"]] == [("f", "context", 0)]
    assert not any(paired[name] for name in ("set_data", "apart", "both", "constant"))
