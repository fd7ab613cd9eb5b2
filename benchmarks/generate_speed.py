"""`pegbind generate` beside ctypesgen on four real headers, in each backend, and regeneration with nothing changed.

Each tool runs as its users run it, a whole command from a cold process, on
the same header with the same -I folders: ``pegbind generate --backend B``
for each of ctypes, cffi and Cython, and ``ctypesgen -l LIB`` (gcc -E, its own
parser, its Python module).  Rounds alternate between the four commands so
machine noise falls on all.  All run from bytecode, and pegbind's grammars,
compiled templates and the libraries' symbols from a warm scratch cache, as
in ``parse_speed.py``.  Every pegbind round writes into a fresh folder, so the
regeneration cache never answers it; the last column is that cache answering:
the ctypes command run again with nothing changed.

    python benchmarks/generate_speed.py [--rounds N] [--write-readme]

ctypesgen comes from ``pip install 'pegbind[bench]'``; without it, only pegbind
is timed.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from front_end_scaling import publish
from parse_speed import bytecode_env, percentile, timed

BEGIN = "<!-- generate_speed: begin (written by benchmarks/generate_speed.py) -->"
END = "<!-- generate_speed: end -->"
SECTION_HEAD = "## `pegbind generate` beside ctypesgen — `benchmarks/generate_speed.py`"


def pkg_config_flags(package: str) -> list[str]:
    found = subprocess.run(["pkg-config", "--cflags-only-I", package], capture_output=True, text=True)
    return found.stdout.split() if found.returncode == 0 else []


#: header (as its users include it), -I flags, library
HEADERS = [
    ("/usr/include/sqlite3.h", [], "sqlite3"),
    ("curl/curl.h", pkg_config_flags("libcurl"), "curl"),
    ("libxml/parser.h", pkg_config_flags("libxml-2.0"), "xml2"),
    ("/usr/include/nss/pkcs11.h", ["-I/usr/include/nss", "-I/usr/include/nspr"], "softhsm2"),
]


def locate(header: str, flags: list[str]) -> str:
    """The header's path: as given, or in the first -I folder (or /usr/include) that holds it."""
    if Path(header).is_absolute():
        return header
    for folder in [flag[2:] for flag in flags] + ["/usr/include/x86_64-linux-gnu", "/usr/include"]:
        if (Path(folder) / header).is_file():
            return str(Path(folder) / header)
    raise SystemExit(f"{header} is not installed (make test installs the -dev packages)")


#: --backend value -> the name the table gives it
BACKENDS = {"ctypes": "ctypes", "cffi": "cffi", "cython": "Cython"}


def _cell(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} / {percentile(times, 0.99):.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--write-readme", action="store_true", help="also put the table into benchmarks/README.md")
    args = parser.parse_args()
    ctypesgen = shutil.which("ctypesgen") or str(Path(sys.executable).with_name("ctypesgen"))
    have_ctypesgen = Path(ctypesgen).exists()
    if not have_ctypesgen:
        print("ctypesgen is not installed (pip install 'pegbind[bench]'): timing pegbind alone\n")
    lines = [f"{args.rounds} rounds each, whole commands from a cold process, from bytecode; "
             f"CPython {sys.version.split()[0]}. Each cell: median s / p99 s, and the median's ratio to "
             "ctypesgen's.", "",
             "| header | ctypesgen | " + " | ".join(f"{name} | ratio" for name in BACKENDS.values())
             + " | unchanged, median s |",
             "|---|---:|" + "---:|---:|" * len(BACKENDS) + "---:|"]
    with tempfile.TemporaryDirectory() as scratch:
        env = bytecode_env(scratch, from_source=False)
        folders = (str(Path(scratch) / f"out-{n}") for n in range(10**6))  # a fresh one each
        for header, flags, library in HEADERS:
            path = locate(header, flags)
            commands = {backend: [sys.executable, "-m", "pegbind", "generate", path, *flags, "--backend", backend,
                                  "--name", "bench_module", "-o"] for backend in BACKENDS}
            theirs = [ctypesgen, "-l", library, *flags, path, "-o", str(Path(scratch) / "ctypesgen_out.py")]
            for command in commands.values():  # warm-up: bytecode, grammars, templates, the file cache
                timed([*command, next(folders)], env)
            if have_ctypesgen:
                timed(theirs, env)
            times: dict[str, list[float]] = {name: [] for name in ("ctypesgen", *BACKENDS)}
            for _ in range(args.rounds):
                for backend, command in commands.items():
                    times[backend].append(timed([*command, next(folders)], env))
                if have_ctypesgen:
                    times["ctypesgen"].append(timed(theirs, env))
            again = [*commands["ctypes"], str(Path(scratch) / f"{Path(path).stem}-again")]
            timed(again, env)  # the first run fills the entry
            unchanged = [timed(again, env) for _ in range(args.rounds)]
            theirs_median = statistics.median(times["ctypesgen"]) if times["ctypesgen"] else None
            row = f"| {Path(path).name} | " + (_cell(times["ctypesgen"]) if theirs_median else "-") + " | "
            for backend in BACKENDS:
                ratio = f"{statistics.median(times[backend]) / theirs_median:.2f}" if theirs_median else "-"
                row += f"{_cell(times[backend])} | {ratio} | "
            row += f"{statistics.median(unchanged):.3f} |"
            lines.append(row)
            print(row, flush=True)
    lines.append("")
    publish(lines, args.write_readme, BEGIN, END, SECTION_HEAD + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
