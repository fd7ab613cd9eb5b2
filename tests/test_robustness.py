"""Inputs that once ended in an internal error: each ends in a result or a located diagnostic, as gcc's does."""
from __future__ import annotations

import math

from pegbind.cli import main


def _dump(tmp_path, source: str, capsys) -> tuple[int, str, str]:
    header = tmp_path / "t.h"
    header.write_text(source)
    status = main(["dump", str(header)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_floating_constant_beyond_double_is_infinity_as_in_gcc(tmp_path, capsys):
    import json

    status, out, err = _dump(tmp_path, "#define HEX 0x1p99999\n#define DEC 1e99999\n#define TINY 0x1p-99999\n"
                                       "enum { HUGE_E = 0x1p99999 };\n", capsys)
    assert "internal error" not in err
    model = json.loads(out)
    assert model["constants"]["HEX"]["value"] == math.inf and model["constants"]["DEC"]["value"] == math.inf
    assert model["constants"]["TINY"]["value"] == 0.0
    assert [(d["line"], d["col"], d["message"]) for d in model["diagnostics"]] == [
        (4, 17, "the value of 'HUGE_E' is not an integer constant: not an integer constant expression")
    ]
    assert status == 1


def _model(tmp_path, source: str, capsys) -> tuple[int, dict, str]:
    import json

    status, out, err = _dump(tmp_path, source, capsys)
    assert "internal error" not in err and "Traceback" not in err
    return status, json.loads(out), err


def test_parentheses_nested_within_the_limit_parse_and_beyond_it_are_a_located_error(tmp_path, capsys):
    # issue 17, items 1 and 2: nesting once ended in RecursionError; gcc takes thousands of levels
    deep = "(" * 255 + "1" + ")" * 255  # 256 levels with the enum's braces, or the macro's outer parentheses
    status, model, _ = _model(tmp_path, f"enum {{ E = {deep} }};\n#if ({deep})\nint yes(void);\n#endif\n"
                                        f"#define D ({deep} + 1)\n", capsys)
    assert (status, model["constants"]["E"]["value"], model["constants"]["D"]["value"]) == (0, 1, 2)
    assert "yes" in model["functions"]

    deeper = "(" * 300 + "1" + ")" * 300
    status, model, _ = _model(tmp_path, f"enum {{ E = {deeper} }};\nint after(void);\n"
                                        f"#define D ({deeper} + 1)\n", capsys)
    assert status == 1 and "after" in model["functions"]
    assert [(d["line"], d["col"], d["message"]) for d in model["diagnostics"]] == [
        (1, 267, "declaration nested more than 256 levels deep (pegbind's limit)"),
        (3, 9, "macro D is not a constant: expression nested more than 256 levels deep (pegbind's limit)"),
    ]
    status, out, err = _dump(tmp_path, f"#if {deeper}\n#endif\n", capsys)
    assert status == 1 and "internal error" not in err
    assert err.startswith(f"{tmp_path / 't.h'}:1:261: error: #if expression nested more than 256 levels deep "
                          "(pegbind's limit)\n")


def test_a_long_flat_expression_is_evaluated_without_recursion(tmp_path, capsys):
    # issue 17, item 3: 1 + 1 + ... once exhausted the evaluator's recursion at 1,000 terms
    chain = " + ".join(["1"] * 20_000)
    status, model, _ = _model(tmp_path, f"enum {{ LL = {chain} }};\n#define M ({chain})\n"
                                        f"#if {chain} == 20000\nint yes(void);\n#endif\n", capsys)
    assert (status, model["constants"]["LL"]["value"], model["constants"]["M"]["value"]) == (0, 20_000, 20_000)
    assert "yes" in model["functions"]


def test_a_header_including_itself_reports_each_include_chain_once(tmp_path, capsys):
    # issue 17, item 5: 200 errors each repeated a chain of up to 200 "from" lines
    status, _, err = _dump(tmp_path, '#define F(x) x\n#include "t.h"\nF(\n', capsys)
    assert status == 1 and "internal error" not in err
    lines = err.splitlines()
    assert lines.count("In file included from t.h:2:1,") + lines.count(f"In file included from {tmp_path / 't.h'}:2:1,") == 1
    assert sum(line.endswith('error: unterminated argument list invoking macro "F"') for line in lines) == 200
    assert sum("#include nested depth 200 exceeds maximum of 200" in line for line in lines) == 1
    assert len(lines) < 1000


def test_runs_of_prefix_operators_and_chains_of_casts_end_in_a_result_or_a_located_error(tmp_path, capsys):
    # the grammars recurse once per '!' or '*' as they do per parenthesis, and once per cast
    status, model, _ = _model(tmp_path, "int " + "*" * 3000 + "x;\nint after(void);\n"
                                        "#define CASTS " + "(int)" * 3000 + "1\n"
                                        "enum { SIZES = " + "sizeof " * 3000 + "1 };\n", capsys)
    assert status == 1 and "after" in model["functions"]
    assert (model["constants"]["CASTS"]["value"], model["constants"]["SIZES"]["value"]) == (1, 8)
    assert [(d["line"], d["message"]) for d in model["diagnostics"]] == [
        (1, "declaration nested more than 256 levels deep (pegbind's limit)")
    ]
    status, _, err = _dump(tmp_path, "#if " + "!" * 3000 + "1\n#endif\n", capsys)
    assert status == 1 and "internal error" not in err
    assert ":1:261: error: #if expression nested more than 256 levels deep (pegbind's limit)" in err


def test_a_rewritten_header_is_quoted_as_it_now_reads(tmp_path, capsys):
    # a process (a build hook, a test run) may read a header, rewrite it and read it again:
    # the line under a diagnostic is the new one, not the one read first
    status, _, err = _dump(tmp_path, "int first(int;\n", capsys)
    assert status == 1 and "  1 | int first(int;\n" in err
    status, _, err = _dump(tmp_path, "long second(long;\n", capsys)
    assert status == 1 and "  1 | long second(long;\n" in err and "first" not in err


def test_a_syntax_error_does_not_keep_the_run_that_met_it_alive(tmp_path, capsys):
    # A shape's parse error is kept for the next declaration of that shape; it once kept
    # its traceback too, and through its frames every token and macro of the run that
    # raised it: a process reading many headers (the fuzz test) grew by gigabytes.
    import gc

    from pegbind.model import Module
    from pegbind.preprocess.engine import PreprocessResult

    for name in ("first", "second"):
        status, _, _ = _dump(tmp_path, f"int {name}(int;\nstruct s_{name} {{ int a; char b; }};\n", capsys)
        assert status == 1
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, (PreprocessResult, Module))]


def test_bytes_that_are_not_utf8_end_an_identifier_as_in_gcc(tmp_path, capsys):
    # "#define GUARD_H<bytes>" defines GUARD_H, the bytes its body (gcc warns of the missing
    # blank); read as part of the name, the guard guarded nothing, and the header below,
    # including itself twice, was read 2**200 times
    header = tmp_path / "t.h"
    header.write_bytes(b'#ifndef GUARD_H\n#define GUARD_H\xff\xfe\n#include "t.h"\n#include "t.h"\n'
                       b'int once(void);\n#define STRAY G\xffH\n#endif\n')
    status = main(["dump", str(header)])  # to a strict UTF-8 stream, as capsys's is
    import json
    model = json.loads(capsys.readouterr().out)  # the bytes as JSON escapes, read back as Python read them
    assert status == 0 and list(model["functions"]) == ["once"]
    assert [d["message"] for d in model["diagnostics"]] == [
        "macro GUARD_H is not a constant: expands to '\udcff\udcfe'",
        "macro STRAY is not a constant: expands to 'G\udcffH'",
    ]


def test_a_header_including_itself_twice_without_a_guard_is_read_once_past_the_depth_limit(tmp_path, capsys):
    # 2**200 files within the depth limit (gcc reads them all, its whole text each time):
    # each too deep site is said once, and once a recursion has run into the limit, a file
    # already open is not entered again (else the limit of 20,000 entries would be said)
    body = "".join(f"int f{i}(int);\n" for i in range(2000))
    status, _, err = _dump(tmp_path, f'#include "t.h"\n#include "t.h"\n{body}', capsys)
    assert status == 1
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert errors == [
        f"{tmp_path / 't.h'}:1:1: error: #include nested depth 200 exceeds maximum of 200",
        f"{tmp_path / 't.h'}:2:1: error: #include nested depth 200 exceeds maximum of 200",
    ]


def test_files_that_each_include_the_next_twice_stop_at_a_limit_of_entries(tmp_path, capsys):
    # no recursion and no guard: 2**16 entries of 17 files, stopped at pegbind's limit
    for level in range(16):
        (tmp_path / f"f{level}.h").write_text(f'#include "f{level + 1}.h"\n#include "f{level + 1}.h"\n')
    (tmp_path / "f16.h").write_text("int leaf;\n")
    status = main(["dump", str(tmp_path / "f0.h")])
    err = capsys.readouterr().err
    assert status == 1
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert errors == [f"{tmp_path / 'f14.h'}:1:1: error: #include entered more than 20000 files (pegbind's limit): "
                      "headers without a guard, each included more than once?"]


def test_the_nesting_bound_read_from_the_text_agrees_with_the_tokens(tmp_path):
    # too_deep tells text that cannot nest too deep by its brackets and runs of prefix
    # operators, and walks the tokens only otherwise: both ways give the same answer
    import random

    from pegbind.peg import MAX_NESTING, too_deep

    def walked(texts: list[str]) -> int | None:
        depth = run = 0
        for index, text in enumerate(texts):
            run = run + 1 if text in ("*", "&", "-", "+", "!", "~") else 0
            depth = depth + 1 if text in ("(", "[", "{") else max(depth - 1, 0) if text in (")", "]", "}") else depth
            if depth + run > MAX_NESTING:
                return index
        return None

    rng = random.Random(17)
    pieces = ["(", ")", "[", "]", "{", "}", "*", "&", "&&", "-", "--", "+", "!", "~", "x", "1", '"(("', "'['"]
    outcomes = set()
    for _ in range(400):
        opened = rng.choice([0, 100, 240, 250, 255, 256, 300])
        texts = ["("] * opened + [rng.choice(pieces) for _ in range(rng.randrange(0, 40))]
        texts += [rng.choice(["*", "!", "-", "x"]) for _ in range(rng.randrange(0, 12))] + ["x"] + [")"] * opened
        # many brackets, nested shallow or deep (counted, they do not bound the nesting)
        texts += ["(", "[", "x", "]", ")", "+"] * rng.choice([0, 0, 60, 200])
        if rng.random() < 0.3:
            texts = [")"] * rng.randrange(0, 5) + ["{"] * rng.randrange(0, 300) + texts
        found = too_deep(texts, " ".join(texts))
        assert found == walked(texts), texts
        outcomes.add(found is None)
    assert outcomes == {True, False}
    assert too_deep(["1", "+", "1"] * 200_000, " ".join(["1", "+", "1"] * 200_000)) is None
    shallow = ["(", "(", "1", ")", ")", "+"] * 100_000
    assert too_deep(shallow, " ".join(shallow)) is None


def test_the_run_leaves_give_back_a_long_run_that_fails_in_linear_time():
    # OPERAND_RUN is one regular expression: an operand is a plain one or one after prefix
    # operators or in parentheses, and those branches must not overlap, or a run that fails
    # at its end is tried in two ways an operand (2**n for n operands: a hang).
    import re

    from pegbind.parse.walker import declaration_parser
    from pegbind.preprocess import cexpr

    leaves = [(re.compile(declaration_parser()["OPERAND_RUN"].pattern), "ID"),
              (re.compile(cexpr.expression_parser()["OPERAND_RUN"].pattern), "x")]
    for unit in ("- ( 0 ) + ", "( - 0 + ( 0 ) ) * ", "~ ID + ", "( ( 0 + ~ 0 ) ) - "):
        for leaf, name in leaves:
            whole = unit.replace("ID", name) * 600  # ends in an operator; fewer operands than a match takes
            run = whole[: -len(unit.split()[-1]) - 1]
            for tail in ("( ID ) ", ") ", "+ ", "? "):
                match = leaf.match(whole + tail.replace("ID", name))
                if name == "x" and tail == "( ID ) ":  # in #if, a name in parentheses is an operand
                    assert match is not None and match.group() == whole + "( x )"
                else:  # the run up to its last whole operand
                    assert match is not None and match.group().rstrip() == run.rstrip()
            # a group that fails at its end, after many operands
            assert leaf.match("0 + ( " + whole + ") ") is None


def test_a_long_parameter_list_beside_a_long_chain_is_read(tmp_path, capsys):
    # A long parameter list is parsed apart and put back in the declaration's syntax; the
    # search for its place once went down a chain of 50,000 terms in an array size, as deep
    # as the chain is long, and ended in RecursionError.
    chain = "+".join(["1"] * 50_000)
    params = ", ".join(f"int b{i}" for i in range(20))
    status, model, _ = _model(tmp_path, f"int (*g({params}))[{chain}];\n"
                                        f"int f(int a __attribute__((aligned({chain}))), {params});\n", capsys)
    assert status == 0 and set(model["functions"]) == {"f", "g"}
    assert len(model["functions"]["f"]["args"]) == 21 and len(model["functions"]["g"]["args"]) == 20
