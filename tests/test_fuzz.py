"""A mutation fuzzer over real headers: pegbind ends every run with a result or located diagnostics.

Seeded (``PEGBIND_FUZZ_SEED``, default 1, so that every run of the suite searches the
same mutations and a failure is reproduced by running it again; ``random`` draws a seed,
which a failure names) and bounded in time (``PEGBIND_FUZZ_SECONDS``, default 60; set it
higher to search longer).  A run fails on an internal error, a traceback, or taking longer
than :data:`RUN_BOUND` seconds (a hang, not a speed figure: those live in benchmarks/).
The failing input is kept in the test's folder.
"""
from __future__ import annotations

import contextlib
import io
import os
import random
import time
from pathlib import Path

import pytest

from conftest import EXAMPLES
from pegbind.cli import main

HEADERS = [Path("/usr/include/zlib.h"), Path("/usr/include/sqlite3.h"), Path("/usr/include/nss/pkcs11t.h"),
           EXAMPLES / "demo" / "vecmath.h"]
INCLUDES = ["-I", "/usr/include/nss", "-I", "/usr/include/nspr"]
RUN_BOUND = 30.0


def _mutate(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    lines = data.split(b"\n")
    kind = rng.choice(["nest", "flat", "self", "huge", "nul", "utf8", "copy", "cut", "swap"])
    at = rng.randrange(len(lines))
    if kind == "nest":  # deep nesting, within pegbind's limit and far beyond it
        depth = rng.choice([10, 100, 256, 300, 3000])
        nest = rng.choice([(b"(", b"1" + b")" * depth), (b"!", b"1"), (b"(int)", b"1"), (b"*", b"p;")])
        lines.insert(at, rng.choice([b"#define FUZZ_NEST ", b"#if ", b"int "]) + nest[0] * depth + nest[1])
    elif kind == "flat":  # long flat expressions
        lines.insert(at, b"enum { FUZZ_FLAT = " + b" + ".join([b"1"] * rng.choice([100, 5000])) + b" };")
    elif kind == "self":  # the header includes itself
        lines.insert(at, b'#include "fuzzed.h"')
    elif kind == "huge":  # literals beyond every type
        literal = rng.choice([b"0x1p99999", b"1" * 400, b"0x" + b"f" * 100, b"1e-99999", b"'\\777777'"])
        lines.insert(at, b"#define FUZZ_HUGE " + literal)
    elif kind == "nul":
        lines[at] = lines[at][: len(lines[at]) // 2] + b"\0" + lines[at][len(lines[at]) // 2:]
    elif kind == "utf8":  # invalid UTF-8
        lines[at] += b"\xff\xfe\xc3"
    elif kind == "copy":
        lines.insert(at, lines[rng.randrange(len(lines))])
    elif kind == "cut":
        lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
    else:
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    return b"\n".join(lines), f"{kind} at line {at + 1}"


@pytest.mark.slow
def test_mutated_real_headers_never_end_in_an_internal_error(tmp_path):
    headers = [h for h in HEADERS if h.is_file()]
    if len(headers) < len(HEADERS):
        pytest.skip("the setup installs the -dev packages of these headers (scripts/install-system-packages.sh)")
    asked = os.environ.get("PEGBIND_FUZZ_SEED") or "1"
    seed = random.SystemRandom().randrange(1 << 32) if asked == "random" else int(asked)
    rng = random.Random(seed)
    deadline = time.monotonic() + float(os.environ.get("PEGBIND_FUZZ_SECONDS", "60"))
    target = tmp_path / "fuzzed.h"
    runs = 0
    while time.monotonic() < deadline:
        source = rng.choice(headers)
        data, mutations = source.read_bytes(), []
        for _ in range(rng.randint(1, 3)):
            data, what = _mutate(rng, data)
            mutations.append(what)
        target.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        started = time.monotonic()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["dump", str(target), *INCLUDES])
        took = time.monotonic() - started
        runs += 1
        text = err.getvalue()
        if "internal error" in text or "Traceback" in text or took > RUN_BOUND or status not in (0, 1):
            kept = tmp_path / f"failing-{runs}.h"
            kept.write_bytes(data)
            pytest.fail(f"run {runs} of PEGBIND_FUZZ_SEED={seed} ({source.name}, {'; '.join(mutations)}) ended "
                        f"with status {status} after {took:.1f} s; input kept in {kept}:\n{text[-2000:]}")
    assert runs > 0
