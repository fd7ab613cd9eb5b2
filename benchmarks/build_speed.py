"""`pegbind build` with the Cython backend beside the cffi backend, on the same real headers.

Each build runs as its users run it: ``pegbind build HEADER -l LIB --backend
B -v`` from a cold process, into a fresh folder (so the regeneration cache
never answers), with the grammars and templates from a warm scratch cache.
Rounds alternate between the backends so machine noise falls on both.  The
``-v`` log splits the Cython build into its two tools: Cython's translation
of the ``.pyx`` and the C compiler's run on its output; the size of that C is
the last column.

    python benchmarks/build_speed.py [--rounds N] [--write-readme]

The goal (issue "Speed of the tool itself"): the Cython build takes at most
three times the cffi build of the same header.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from front_end_scaling import publish
from generate_speed import locate, pkg_config_flags
from parse_speed import bytecode_env, percentile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pegbind.build import optimisation, parallel_code_generation  # noqa: E402  (the checkout's)
from pegbind.toolchain import system_compiler  # noqa: E402

BEGIN = "<!-- build_speed: begin (written by benchmarks/build_speed.py) -->"
END = "<!-- build_speed: end -->"
SECTION_HEAD = "## Cython builds beside cffi builds — `benchmarks/build_speed.py`"

#: header (as its users include it), -I flags, library
HEADERS = [
    ("/usr/include/sqlite3.h", [], "sqlite3"),
    ("libxml/parser.h", pkg_config_flags("libxml-2.0"), "xml2"),
]

#: the tools' own times in the -v log: "pegbind: cython: ... (7.74 s)"
TOOL_TIME = re.compile(r"^pegbind: (cython|C compiler|cffi): .*\(([0-9.]+) s\)$", re.M)


def build(command: list[str], env: dict[str, str]) -> tuple[float, dict[str, float]]:
    """The wall time of one build, and the times its -v log gives for each tool it ran."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return took, {tool: float(seconds) for tool, seconds in TOOL_TIME.findall(done.stderr)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write-readme", action="store_true", help="also put the table into benchmarks/README.md")
    args = parser.parse_args()
    level = optimisation(system_compiler())
    lines = [f"{args.rounds} rounds each, whole `pegbind build -v` commands from a cold process, the backends "
             f"alternating; CPython {sys.version.split()[0]}, pegbind's own compiler flags "
             f"(`{' '.join([*level, *parallel_code_generation(system_compiler(), level)])}`), "
             f"{os.cpu_count()} cores.", "",
             "| header | cffi, median s | p99 s | Cython, median s | p99 s | ratio | Cython's own s | "
             "C compiler s | C from Cython, MB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as scratch:
        env = bytecode_env(scratch, from_source=False)
        folders = (str(Path(scratch) / f"out-{n}") for n in range(10**6))  # a fresh one for every build
        for header, flags, library in HEADERS:
            path = locate(header, flags)
            command = [sys.executable, "-m", "pegbind", "build", path, *flags, "-l", library, "--name", "bench_build",
                       "-v", "-o"]
            subprocess.run([sys.executable, "-m", "pegbind", "generate", path, *flags, "-o", next(folders)],
                           check=True, capture_output=True, env=env)  # warm-up: bytecode, grammars, templates
            times: dict[str, list[float]] = {"cffi": [], "cython": []}
            tools: dict[str, list[float]] = {"cython": [], "C compiler": []}
            c_size = 0.0
            for _ in range(args.rounds):
                for backend in ("cffi", "cython"):
                    out = next(folders)
                    took, own = build([*command, out, "--backend", backend], env)
                    times[backend].append(took)
                    if backend == "cython":
                        for tool in tools:
                            tools[tool].append(own[tool])
                        c_size = (Path(out) / "bench_build.c").stat().st_size / 1e6
            cffi, cython = statistics.median(times["cffi"]), statistics.median(times["cython"])
            row = (f"| {Path(path).name} | {cffi:.1f} | {percentile(times['cffi'], 0.99):.1f} | {cython:.1f} | "
                   f"{percentile(times['cython'], 0.99):.1f} | {cython / cffi:.1f} | "
                   f"{statistics.median(tools['cython']):.1f} | {statistics.median(tools['C compiler']):.1f} | "
                   f"{c_size:.1f} |")
            lines.append(row)
            print(row, flush=True)
    lines.append("")
    publish(lines, args.write_readme, BEGIN, END, SECTION_HEAD + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
