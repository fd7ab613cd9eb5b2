"""How much GCC optimises a Cython module: the calls and the compile at pegbind's level beside -O2.

pegbind compiles a Cython module with GCC's ``-O1`` and some options of ``-O2``
(``pegbind.build.optimisation`` says which, and why).  This measures that choice against ``-O2``
in one run, on what it trades:

- the calls: call_overhead.py's library (a scalar call, a 64-byte buffer, a
  record out-parameter) with a function returning a record pointer (a view)
  and a read of a record's field, built at both levels and timed interleaved,
  medians and p99 of the mean ns per call, the empty loop subtracted; and the
  flagship's PKCS#11 calls on SoftHSM (examples/pkcs11), where SoftHSM is
  installed;
- the compile: the C compiler's time on the Cython output for sqlite3.h's
  binding at both levels, alternating.

``-O2`` is what ``CFLAGS=-O2`` gives a user (``$CFLAGS`` come after pegbind's
own flags).  The table goes into benchmarks/README.md with ``--write-readme``.

    python benchmarks/optimisation_level.py [--rounds N] [--number N] [--no-pkcs11] [--write-readme]
"""
from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "examples" / "pkcs11"))

from call_overhead import CDEF, HEADER, SOURCE, Candidate, measure, percentile, timing_loop  # noqa: E402
from front_end_scaling import publish  # noqa: E402

from pegbind.build import (  # noqa: E402
    compiler_command,
    cython_c_source,
    header_folders,
    optimisation,
    parallel_code_generation,
)
from pegbind.config import BindingConfig, FunctionRule, ParamRole  # noqa: E402
from pegbind.pipeline import build_extension, generate_sources  # noqa: E402
from pegbind.toolchain import system_compiler  # noqa: E402

BEGIN = "<!-- optimisation_level: begin (written by benchmarks/optimisation_level.py) -->"
END = "<!-- optimisation_level: end -->"
SECTION_HEAD = "## Optimisation level of a Cython module — `benchmarks/optimisation_level.py`"

#: the levels compared: label -> $CFLAGS (None: pegbind's own)
LEVELS = {"-O2": "-O2", "pegbind": None}

VIEW_HEADER = "\n/* A record of the library's own, by pointer. */\nstruct point *bench_point_view(void);\n"
VIEW_SOURCE = "\nstatic struct point shared = {3, -4};\nstruct point *bench_point_view(void) { return &shared; }\n"


def with_cflags(cflags: str | None):
    """Set (or unset) ``$CFLAGS`` for the builds of one level."""
    if cflags is None:
        os.environ.pop("CFLAGS", None)
    else:
        os.environ["CFLAGS"] = cflags


def call_candidates(folder: Path) -> list[Candidate]:
    (folder / "bench.h").write_text(HEADER + VIEW_HEADER)
    (folder / "bench.c").write_text(SOURCE + VIEW_SOURCE)
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", str(folder / "bench.c"), "-o", str(folder / "libbench.so")],
                   check=True)
    assert "struct point" in CDEF  # the same library as call_overhead.py's
    data = bytes(range(64))
    found = []
    for index, (label, cflags) in enumerate(LEVELS.items()):
        with_cflags(cflags)
        name = f"level_{index}"
        config = BindingConfig(name=name, headers=(folder / "bench.h",), link=("bench",), library_dirs=(folder,),
                               backends=("cython",),
                               functions=(FunctionRule("bench_get_point", {"out": ParamRole("out")}),))
        build_extension(config, out_dir=folder / name)
        sys.path.insert(0, str(folder / name))
        module = importlib.import_module(name)
        view = module.bench_point_view()
        assert module.bench_add(2, 40) == 42 and (view.x, view.y) == (3, -4)
        read_x = type(view).x.__get__
        found += [Candidate("scalar", label, timing_loop(module.bench_add, (2, 40))),
                  Candidate("buffer", label, timing_loop(module.bench_ends, (data, len(data)))),
                  Candidate("struct out", label, timing_loop(module.bench_get_point, ())),
                  Candidate("record view", label, timing_loop(module.bench_point_view, ())),
                  Candidate("field read", label, timing_loop(read_x, (view,)))]
    with_cflags(None)
    return found


def pkcs11_candidates(folder: Path, keep: list) -> list[Candidate]:
    """The flagship's timed calls through the Cython pkcs11 module at each level; none without SoftHSM."""
    import softhsm_session as hsm

    if not hsm.SOFTHSM_MODULE.exists():
        return []
    home = hsm.SoftHSMHome.create(folder / "softhsm")
    home.init_token(label="bench")
    home.activate()
    found = []
    for index, (label, cflags) in enumerate(LEVELS.items()):
        name = f"pkcs11_level_{index}"
        hsm.build_module(folder / name, backend="cython", name=name, cflags=cflags or "")
        p11 = hsm.import_module(folder / name, name)
        lib = hsm.initialize(p11, home.private_module(name))
        context = hsm.session(p11, lib, hsm.token_slots(p11, lib)[0], pin=None, rw=False)
        keep.append(context)  # the session stays open while its calls are timed
        for call, run in hsm.speed_calls(p11, lib, context.__enter__()).items():
            found.append(Candidate(call, label, timing_loop(run, ())))
    return found


def compile_times(folder: Path, rounds: int) -> dict[str, list[float]]:
    """The C compiler's seconds on sqlite3.h's Cython module, per level, the levels alternating."""
    header = Path("/usr/include/sqlite3.h")
    config = BindingConfig(name="sqlite3_level", headers=(header,), link=("sqlite3",), backends=("cython",))
    files = generate_sources(config, backends=["cython"], out_dir=folder / "sqlite3")
    c_file = cython_c_source(config, files, folder / "sqlite3", config.name)
    times: dict[str, list[float]] = {label: [] for label in LEVELS}
    for _ in range(rounds):
        for label, cflags in LEVELS.items():
            with_cflags(cflags)
            command = compiler_command(config, c_file, folder / "sqlite3" / f"out{len(times[label])}.so",
                                       header_folders(config))
            started = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times[label].append(time.perf_counter() - started)
    with_cflags(None)
    return times


def table(candidates: list[Candidate], compiles: dict[str, list[float]], args: argparse.Namespace) -> list[str]:
    level = optimisation(system_compiler())
    own = " ".join(level)
    shared = " ".join(parallel_code_generation(system_compiler(), level))
    lines = [f"One run: {args.rounds} interleaved rounds x {args.number} calls; CPython {sys.version.split()[0]}, "
             f"pegbind's level `{own}` beside `-O2` (`CFLAGS=-O2`), both with `{shared or 'nothing else'}`.", "",
             "| call | -O2, median ns | p99 ns | pegbind's, median ns | p99 ns | ratio |",
             "|---|---:|---:|---:|---:|---:|"]
    calls = list(dict.fromkeys(c.call for c in candidates))
    by = {(c.call, c.label): c.samples for c in candidates}
    for call in calls:
        o2, ours = by[(call, "-O2")], by[(call, "pegbind")]
        lines.append(f"| {call} | {statistics.median(o2):.1f} | {percentile(o2, 0.99):.1f} | "
                     f"{statistics.median(ours):.1f} | {percentile(ours, 0.99):.1f} | "
                     f"{statistics.median(ours) / statistics.median(o2):.2f} |")
    if compiles:
        o2, ours = compiles["-O2"], compiles["pegbind"]
        lines += ["", f"The C compiler on sqlite3.h's Cython module ({len(o2)} rounds, alternating): "
                      f"`-O2` {statistics.median(o2):.1f} s, pegbind's {statistics.median(ours):.1f} s "
                      f"({statistics.median(ours) / statistics.median(o2):.2f}x)."]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--number", type=int, default=20000, help="calls per round")
    parser.add_argument("--compile-rounds", type=int, default=3)
    parser.add_argument("--no-pkcs11", action="store_true", help="leave out the flagship's PKCS#11 calls")
    parser.add_argument("--write-readme", action="store_true", help="also put the table into benchmarks/README.md")
    args = parser.parse_args()
    keep: list = []
    with tempfile.TemporaryDirectory(prefix="pegbind-level-") as scratch:
        folder = Path(scratch)
        candidates = call_candidates(folder)
        if not args.no_pkcs11:
            candidates += pkcs11_candidates(folder, keep)
        measure(candidates, args.rounds, args.number)
        for context in keep:
            context.__exit__(None, None, None)
        compiles = compile_times(folder, args.compile_rounds) if args.compile_rounds else {}
    publish(table(candidates, compiles, args), args.write_readme, BEGIN, END, SECTION_HEAD)
    return 0


if __name__ == "__main__":
    sys.exit(main())
