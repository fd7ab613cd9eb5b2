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
