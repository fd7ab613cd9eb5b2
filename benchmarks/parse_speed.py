"""Reading NSS's pkcs11.h into a model: pegbind beside ctypesgen, in one run.

Both tools run as their users run them, as a whole command from a cold
process: ``pegbind dump`` (preprocess + parse + model + layouts, JSON out)
and ``ctypesgen`` (gcc -E, then its own parser and its Python output).  The
rounds alternate between the two so machine noise falls on both alike.  Then
pegbind's phases are timed in one warm process, to show where its time goes.

Both run from Python bytecode, as after ``pip install`` (which byte-compiles
a package): the commands share a scratch ``PYTHONPYCACHEPREFIX`` that the
untimed warm-up round fills.  Without it an editable checkout under
``PYTHONDONTWRITEBYTECODE`` recompiles pegbind's sources on every run while
ctypesgen reads the bytecode pip wrote.  In the same way pegbind's compiled
grammars come from a scratch cache folder that the warm-up round fills (as
ctypesgen's parser reads the parse tables it ships).  ``--from-source``
compiles both from source on every run instead, and pegbind's grammars too.
Nothing else is kept between runs: no header's parse.

    python benchmarks/parse_speed.py [--rounds N] [--from-source] [--header PATH -I DIR ...]

ctypesgen comes from ``pip install 'pegbind[bench]'``; without it, only
pegbind is timed.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NSS = ["/usr/include/nss/pkcs11.h", "-I/usr/include/nss", "-I/usr/include/nspr"]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def bytecode_env(scratch: str, from_source: bool) -> dict[str, str]:
    """The same bytecode conditions for both tools (see the module docstring)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(scratch) / "pycache"))
    env["PEGBIND_CACHE_DIR"] = str(Path(scratch) / "grammars")
    if from_source:
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # the prefix stays empty: every run compiles
        env["PEGBIND_CACHE_DIR"] = ""  # and so do the grammars
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def phases(header: str, include_dirs: list[str], rounds: int) -> dict[str, list[float]]:
    """pegbind's phases in this process (after one warm-up round)."""
    from pegbind.config import BindingConfig
    from pegbind.parse import parse_declarations
    from pegbind.parse.walker import forget_shapes
    from pegbind.pipeline import preprocess_binding
    from pegbind.target import get_target, layouts

    config = BindingConfig(name="bench", headers=(Path(header),), include_dirs=tuple(Path(d) for d in include_dirs))
    target = get_target(None)
    times: dict[str, list[float]] = {"preprocess": [], "parse + constants": [], "layouts": []}
    for round_number in range(rounds + 1):
        forget_shapes()  # every shape parsed again, as in a new process
        a = time.perf_counter()
        pp = preprocess_binding(config)
        b = time.perf_counter()
        module = parse_declarations(pp, target)
        c = time.perf_counter()
        layouts(module, target)
        d = time.perf_counter()
        if round_number:
            times["preprocess"].append(b - a)
            times["parse + constants"].append(c - b)
            times["layouts"].append(d - c)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--from-source", action="store_true",
                        help="no bytecode for either tool: both compile their sources on every run")
    parser.add_argument("--header", default=NSS[0])
    parser.add_argument("-I", dest="include_dirs", action="append")
    args = parser.parse_args()
    include_dirs = args.include_dirs if args.include_dirs is not None else [NSS[1][2:], NSS[2][2:]]
    flags = [f"-I{d}" for d in include_dirs]

    pegbind = [sys.executable, "-m", "pegbind", "dump", *flags, args.header]
    candidates = {"pegbind dump": pegbind}
    ctypesgen = shutil.which("ctypesgen") or str(Path(sys.executable).with_name("ctypesgen"))
    with tempfile.TemporaryDirectory() as scratch:
        env = bytecode_env(scratch, args.from_source)
        if Path(ctypesgen).exists():
            candidates["ctypesgen --all-headers"] = [
                ctypesgen, "--all-headers", *flags, args.header, "-o", str(Path(scratch) / "out.py"),
            ]
        else:
            print("ctypesgen is not installed (pip install 'pegbind[bench]'): timing pegbind alone\n")
        for command in candidates.values():  # warm the file cache, the compilers' start-up, bytecode
            timed(command, env)
        results: dict[str, list[float]] = {name: [] for name in candidates}
        for _ in range(args.rounds):
            for name, command in candidates.items():
                results[name].append(timed(command, env))

    bytecode = "compiled from source every run" if args.from_source else "from bytecode"
    print(f"{args.header}, {args.rounds} rounds, whole commands from a cold process, {bytecode}")
    print(f"{'tool':<26}{'median s':>10}{'p99 s':>10}")
    for name, values in results.items():
        print(f"{name:<26}{statistics.median(values):>10.3f}{percentile(values, 0.99):>10.3f}")
    if len(results) == 2:
        ours, theirs = (statistics.median(v) for v in results.values())
        print(f"ratio pegbind / ctypesgen (medians): {ours / theirs:.2f}")

    print("\npegbind phases in one warm process")
    print(f"{'phase':<26}{'median s':>10}{'p99 s':>10}")
    for name, values in phases(args.header, include_dirs, args.rounds).items():
        print(f"{name:<26}{statistics.median(values):>10.3f}{percentile(values, 0.99):>10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
