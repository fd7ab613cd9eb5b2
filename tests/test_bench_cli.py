"""``pegbind bench``: the same calls through each backend beside the call floor."""
from __future__ import annotations

import re

import pytest

from conftest import EXAMPLES, run_pegbind

VECMATH = str(EXAMPLES / "demo" / "vecmath.h")


@pytest.mark.slow
def test_bench_times_every_backend_beside_the_floor(vecmath_library):
    result = run_pegbind(
        "bench", VECMATH, "-l", "vecmath", "-L", str(vecmath_library),
        "--call", "m.vm_add(1, 2)", "--call", "m.vm_checksum(data, 64)", "--setup", "data = bytes(64)",
        "--rounds", "3", "--number", "50",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    row = re.compile(r"^  (floor|cython|cffi|ctypes) +\d+\.\d +\d+\.\d +\d+\.\d\d$")
    for call in ("m.vm_add(1, 2)", "m.vm_checksum(data, 64)"):
        start = lines.index(call)
        assert [row.match(line).group(1) for line in lines[start + 1:start + 5]] == ["floor", "cython", "cffi", "ctypes"]


@pytest.mark.slow
def test_a_failing_call_is_a_diagnostic(vecmath_library):
    result = run_pegbind(
        "bench", VECMATH, "-l", "vecmath", "-L", str(vecmath_library), "--backend", "ctypes",
        "--call", "m.vm_add('one', 2)",
    )
    assert result.returncode == 1
    assert result.stderr.startswith("error: --call \"m.vm_add('one', 2)\" with the ctypes backend raised TypeError:")
    assert "Traceback" not in result.stderr
