"""`pegbind generate` beside ctypesgen on four real headers, and regeneration with nothing changed.

Each tool runs as its users run it, a whole command from a cold process, on
the same header with the same -I folders: ``pegbind generate --backend
ctypes`` and ``ctypesgen -l LIB`` (gcc -E, its own parser, its Python
module).  Rounds alternate between the tools so machine noise falls on both.
Both run from bytecode, and pegbind's grammars and the libraries' symbols from
a warm scratch cache, as in ``parse_speed.py``.  Every pegbind round writes into a fresh folder, so the
regeneration cache never answers it; the last row of each header is that
cache answering: the same command run again with nothing changed.

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
             f"CPython {sys.version.split()[0]}.", "",
             "| header | pegbind generate, median s | p99 s | ctypesgen, median s | p99 s | ratio | "
             "unchanged, median s |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as scratch:
        env = bytecode_env(scratch, from_source=False)
        for header, flags, library in HEADERS:
            path = locate(header, flags)
            ours_command = [sys.executable, "-m", "pegbind", "generate", path, *flags, "--backend", "ctypes",
                            "--name", "bench_module", "-o"]
            folders = (str(Path(scratch) / f"{Path(path).stem}-{n}") for n in range(10**6))  # a fresh one each
            theirs = [ctypesgen, "-l", library, *flags, path, "-o", str(Path(scratch) / "ctypesgen_out.py")]
            timed([*ours_command, next(folders)], env)  # warm-up: bytecode, grammars, the file cache
            if have_ctypesgen:
                timed(theirs, env)
            ours_times, their_times = [], []
            for _ in range(args.rounds):
                ours_times.append(timed([*ours_command, next(folders)], env))
                if have_ctypesgen:
                    their_times.append(timed(theirs, env))
            again = [*ours_command, str(Path(scratch) / f"{Path(path).stem}-again")]
            timed(again, env)  # the first run fills the entry
            unchanged = [timed(again, env) for _ in range(args.rounds)]
            ours = statistics.median(ours_times)
            row = f"| {Path(path).name} | {ours:.3f} | {percentile(ours_times, 0.99):.3f} | "
            if their_times:
                row += (f"{statistics.median(their_times):.3f} | {percentile(their_times, 0.99):.3f} | "
                        f"{ours / statistics.median(their_times):.2f} | ")
            else:
                row += "- | - | - | "
            row += f"{statistics.median(unchanged):.3f} |"
            lines.append(row)
            print(row, flush=True)
    lines.append("")
    publish(lines, args.write_readme, BEGIN, END, SECTION_HEAD + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
