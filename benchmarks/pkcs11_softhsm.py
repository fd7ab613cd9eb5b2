"""PKCS#11 call speed on SoftHSM: the generated `pkcs11` module per backend beside a C floor.

The floor is ``pkcs11_floor.c``, compiled here with gcc: it dlopens SoftHSM
and makes the same calls through the function list (the digest as the bindings
make it: one call into a 64-byte buffer, the example's ``at_most=64``).  Rounds are interleaved -- floor, then each
backend, then the floor again -- so a busy machine slows everyone alike.
Each figure is nanoseconds per call over a round of ``--calls`` calls; the
table shows the median and the 99th percentile over rounds and the ratio of
medians to the floor.

    .venv/bin/python benchmarks/pkcs11_softhsm.py [--rounds 30] [--calls 2000] [--headers softhsm]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "examples" / "pkcs11"))

from softhsm_session import (  # noqa: E402  (examples/pkcs11, added just above)
    BACKENDS, SOFTHSM_MODULE, SPEED_CALLS, SoftHSMHome, build_module, describe_failure, import_module, initialize,
    per_call_ns, session, speed_calls, token_slots,
)

FLOOR = "C floor"


def compile_floor(folder: Path) -> Path:
    binary = folder / "pkcs11_floor"
    subprocess.run(
        ["gcc", "-O2", "-Wall", "-I/usr/include/softhsm", str(HERE / "pkcs11_floor.c"), "-o", str(binary), "-ldl"],
        check=True,
    )
    return binary


def floor_round(binary: Path, module: Path, home: SoftHSMHome, calls: int) -> dict[str, float]:
    """One round of the C program: label -> ns per call."""
    output = subprocess.run([str(binary), str(module), "1", str(calls)], env=home.env,
                            check=True, capture_output=True, text=True).stdout
    by_name = dict(line.split() for line in output.splitlines())
    return {label: float(by_name[name]) for label, name in SPEED_CALLS.items()}


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=2000, help="calls per round")
    parser.add_argument("--headers", choices=("nss", "softhsm"), default="nss")
    parser.add_argument("--backend", dest="backends", action="append", choices=BACKENDS)
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--write-readme", action="store_true",
                        help="also put the Markdown table into benchmarks/README.md (its own section only)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="pkcs11-bench-") as scratch_name:
        scratch = Path(scratch_name)
        home = SoftHSMHome.create(scratch / "softhsm")
        home.init_token(label="bench")
        home.activate()
        floor = compile_floor(scratch)

        runners: dict[str, object] = {}
        missing: dict[str, str] = {}
        sessions = []
        for backend in args.backends or BACKENDS:
            name = f"pkcs11_bench_{backend}"
            try:
                build_module(scratch / backend, backend=backend, family=args.headers, name=name)
                p11 = import_module(scratch / backend, name)
                lib = initialize(p11, home.private_module(backend))
            except Exception as exc:  # any failure to build, import or load: report it, time the rest
                missing[backend] = describe_failure(exc)
                continue
            context = session(p11, lib, token_slots(p11, lib)[0], pin=None, rw=False)
            sess = context.__enter__()
            sessions.append((context, lib))
            runners[backend] = speed_calls(p11, lib, sess)

        figures: dict[str, dict[str, list[float]]] = {
            who: {label: [] for label in SPEED_CALLS} for who in (FLOOR, *runners)
        }
        floor_round(floor, SOFTHSM_MODULE, home, args.calls)  # warm-up: page cache, token files
        for _ in range(args.rounds):
            for label, value in floor_round(floor, SOFTHSM_MODULE, home, args.calls).items():
                figures[FLOOR][label].append(value)
            for backend, calls in runners.items():
                for label, call in calls.items():
                    figures[backend][label] += per_call_ns(call, args.calls, 1)
        for context, lib in sessions:
            context.__exit__(None, None, None)
            lib.C_Finalize()

    lines = report(figures, missing, args)
    print("\n".join(lines))
    if args.write_readme:
        write_readme(report(figures, missing, args, markdown=True))
    return 0


def report(figures: dict[str, dict[str, list[float]]], missing: dict[str, str], args: argparse.Namespace,
           markdown: bool = False) -> list[str]:
    """The table as lines of text (aligned columns, or Markdown)."""
    floor_median = {label: statistics.median(values) for label, values in figures[FLOOR].items()}
    header = ["call", "who", "ops/s", "median ns", "p99 ns", "x floor"]
    rows = []
    for label in SPEED_CALLS:
        for who, by_label in figures.items():
            values = by_label[label]
            median = statistics.median(values)
            rows.append([label, who, f"{1e9 / median:,.0f}", f"{median:.0f}", f"{p99(values):.0f}", f"{median / floor_median[label]:.2f}"])
    lines = [f"{args.rounds} rounds x {args.calls} calls, interleaved; {args.headers} headers; "
             f"CPython {sys.version.split()[0]}; SoftHSM {SOFTHSM_MODULE}"]
    if markdown or args.markdown:
        lines += ["", "| " + " | ".join(header) + " |", "|---|---|---:|---:|---:|---:|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
    else:
        widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            lines.append("  ".join(str(cell).ljust(width) if i < 2 else str(cell).rjust(width)
                                   for i, (cell, width) in enumerate(zip(row, widths))))
    if missing:
        lines.append("")
    for backend, reason in missing.items():
        lines.append(f"- {backend}: not available ({reason})")
    return lines


BEGIN, END = "<!-- pkcs11_softhsm: begin (written by benchmarks/pkcs11_softhsm.py) -->", "<!-- pkcs11_softhsm: end -->"
SECTION_HEAD = """## PKCS#11 on SoftHSM — `benchmarks/pkcs11_softhsm.py`

Calls per second (and nanoseconds per call, median and p99 over rounds) through the generated `pkcs11` module (examples/pkcs11),
per backend, beside `benchmarks/pkcs11_floor.c`: the same calls made from C
through SoftHSM's function list, compiled with gcc -O2 and run in the same
session, rounds interleaved.  `C_GenerateRandom(16)` returns 16 fresh bytes;
the digest is `C_DigestInit(SHA-256)` then `C_Digest` of 64 bytes, one call
into a buffer of 64 in both C and Python (the example's `at_most=64`; before,
both made the size probe, NULL first, too).  Goals: Cython within 1.3x of
the C floor for GenerateRandom and Digest, within 2x for GetInfo.
"""


def write_readme(lines: list[str]) -> None:
    readme = HERE / "README.md"
    text = readme.read_text() if readme.exists() else "# Benchmarks\n"
    block = BEGIN + "\n" + "\n".join(lines) + "\n" + END
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + SECTION_HEAD + "\n" + block + "\n"
    readme.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
