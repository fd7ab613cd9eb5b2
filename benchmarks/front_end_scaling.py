"""How the front end's time grows with its input: flat expressions, nesting, long lines.

Each input is generated at doubling sizes and read as ``pegbind dump`` reads it
(preprocess, parse, model), in one warm process, median and p99 over rounds;
the long line also through the whole ``generate`` of a ctypes module, and other
shapes of a mebibyte once each.
Linear growth shows as a steady time per unit (per term, per level, per KiB)
down each table.  Nesting stops at pegbind's limit (``pegbind.peg.MAX_NESTING``):
deeper input is a located error, also timed.

    python benchmarks/front_end_scaling.py [--rounds N] [--write-readme]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pegbind.config import BindingConfig  # noqa: E402  (the checkout, not an installed copy)
from pegbind.parse.walker import forget_shapes  # noqa: E402
from pegbind.peg import MAX_NESTING  # noqa: E402
from pegbind.pipeline import generate_sources, read_binding  # noqa: E402

BEGIN = "<!-- front_end_scaling: begin (written by benchmarks/front_end_scaling.py) -->"
END = "<!-- front_end_scaling: end -->"
SECTION_HEAD = """## Front end scaling — `benchmarks/front_end_scaling.py`

Time to read a generated header (preprocess, parse, model) against its size, in
one warm process: a flat `enum { E = 1 + 1 + ... }` (and at its densest, up to
a mebibyte, in an enum and in `#if`), a macro nested in parentheses up to
pegbind's limit of 256 levels (and past it: a located error), one long line of
declarations, also through the whole `generate` (planning and writing the
ctypes module), and other shapes a megabyte of header may take.  A steady
time per unit down a table is linear growth.
"""
#: rounds of the whole generate, which takes several times as long as the read
GENERATE_ROUNDS = 3


def flat(terms: int) -> str:
    return "enum { E = " + " + ".join(["1"] * terms) + " };\n"


def dense_enum(kib: int) -> str:
    """A flat expression at its densest, ``1+1+...`` (two characters a term), of ``kib`` KiB."""
    return "enum { E = " + "+".join(["1"] * (kib * 512)) + " };\n"


def dense_if(kib: int) -> str:
    return "#if " + "+".join(["1"] * (kib * 512)) + "\nint yes(void);\n#endif\n"


def _filled(size: int, make: Callable[[int], str]) -> str:
    """The units ``make(0)``, ``make(1)``, ... up to ``size`` characters."""
    units, held, index = [], 0, 0
    while held < size:
        units.append(make(index))
        held += len(units[-1])
        index += 1
    return "".join(units)


def _mebibyte(make: Callable[[int], str]) -> str:
    return _filled(1 << 20, make)


#: other shapes a megabyte of header may take: name -> its text
SHAPES: dict[str, Callable[[], str]] = {
    "`#define M_i i` lines": lambda: _mebibyte(lambda i: f"#define M_{i} {i}\n"),
    "enumerators, one a line": lambda: "enum e {\n" + _mebibyte(lambda i: f"E{i},\n") + "};\n",
    "members of one struct": lambda: "struct s {\n" + _mebibyte(lambda i: f"int m{i};\n") + "};\n",
    "parameters of one function": lambda: "int f(" + _mebibyte(lambda i: f"int a{i}, ") + "int z);\n",
    "a byte array's initializer": lambda: "static const unsigned char data[] = {\n"
    + _mebibyte(lambda i: f"0x{i % 256:02x}, " + ("\n" if i % 12 == 11 else "")) + "0 };\n",
    "typedefs of records with a callback": lambda: _mebibyte(
        lambda i: f"typedef struct s{i} {{ int (*fp)(int, char *); unsigned b : 3; }} s{i}_t;\n"),
    "a macro called in an enum, `F(1,2)+...`": lambda: "#define F(a, b) ((a) + (b))\nenum { E = "
    + _mebibyte(lambda i: "F(1,2)+") + "1 };\n",
    "parenthesized operands, `((1))+...`": lambda: "enum { E = " + _mebibyte(lambda i: "((1))+") + "1 };\n",
    "negated operands, `-1+-1+...`": lambda: "enum { E = " + _mebibyte(lambda i: "-1+") + "1 };\n",
}


def shapes_table(folder: Path) -> list[str]:
    lines = ["**Other shapes of a mebibyte (one round each)**", "", "| shape | s |", "|---|---:|"]
    for name, make in SHAPES.items():
        seconds, _ = time_read(make(), folder, 1)
        lines.append(f"| {name} | {seconds:.2f} |")
    return lines + [""]


def nested(levels: int) -> str:
    return "#define D " + "(" * levels + "1" + ")" * levels + " + 0\n"


def long_line(kib: int) -> str:
    return _filled(kib * 1024, lambda i: f"int f{i}(int a, const char *b); ") + "\n"


def time_read(source: str, folder: Path, rounds: int, *, generate: bool = False) -> tuple[float, float]:
    """Median and p99 of reading ``source`` as a header; with ``generate``, of the whole
    ``generate`` of its ctypes module (planning and writing too)."""
    header = folder / "scaling.h"
    header.write_text(source)
    config = BindingConfig(name="scaling", headers=(header,))
    samples = []
    for _ in range(rounds):
        forget_shapes()  # each round parses as a new process would: no shape is known yet
        start = time.perf_counter()
        if generate:
            generate_sources(config, backends=["ctypes"], out_dir=folder / "out")
        else:
            read_binding(config, strict=False)
        samples.append(time.perf_counter() - start)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]


def table(title: str, unit: str, sizes: list[int], make: Callable[[int], str], folder: Path, rounds: int, *,
          generate: bool = False) -> list[str]:
    lines = [f"**{title}**", "", f"| {unit} | median ms | p99 ms | µs per {unit} |", "|---:|---:|---:|---:|"]
    for size in sizes:
        median, p99 = time_read(make(size), folder, rounds, generate=generate)
        lines.append(f"| {size:,} | {median * 1e3:.1f} | {p99 * 1e3:.1f} | {median * 1e6 / size:.1f} |")
    return lines + [""]


def write_block(begin: str, end: str, section_head: str, lines: list[str]) -> None:
    """``lines`` between the markers ``begin`` and ``end`` of benchmarks/README.md (a new
    section headed ``section_head`` at its end when they are not there yet)."""
    readme = HERE / "README.md"
    text = readme.read_text()
    block = begin + "\n" + "\n".join(lines).rstrip("\n") + "\n" + end
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + section_head + "\n" + block + "\n"
    readme.write_text(text)


def publish(lines: list[str], write_readme: bool, begin: str, end: str, section_head: str) -> None:
    """Print a benchmark's ``lines``; with ``write_readme``, also put them into benchmarks/README.md
    (see :func:`write_block`)."""
    print("\n".join(lines))
    if write_readme:
        write_block(begin, end, section_head, lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--write-readme", action="store_true", help="also put the tables into benchmarks/README.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        time_read(flat(10), folder, 1)  # warm-up: grammars loaded, code paths taken
        lines = [f"{args.rounds} rounds each, one warm process; CPython {sys.version.split()[0]}.", ""]
        lines += table("Flat expression", "term", [1_000, 2_000, 4_000, 8_000, 16_000], flat, folder, args.rounds)
        dense = [128, 256, 512, 1024]
        lines += table("The same at its densest, `1+1+...`, two characters a term", "KiB", dense, dense_enum,
                       folder, args.rounds)
        lines += table("The same in `#if`", "KiB", dense, dense_if, folder, args.rounds)
        levels = [MAX_NESTING // 8, MAX_NESTING // 4, MAX_NESTING // 2, MAX_NESTING - 1, MAX_NESTING * 4]
        lines += table("Nested parentheses (the last row is past the limit: an error)", "level", levels, nested,
                       folder, args.rounds)
        lines += table("One long line of declarations", "KiB", [64, 128, 256, 512, 1024], long_line, folder,
                       args.rounds)
        lines += shapes_table(folder)
        time_read(long_line(4), folder, 1, generate=True)  # warm-up: templates loaded
        lines += table(f"The same declarations, the whole generate of a ctypes module ({GENERATE_ROUNDS} rounds)",
                       "KiB", [64, 128, 256, 512, 1024], long_line, folder, GENERATE_ROUNDS, generate=True)
    publish(lines, args.write_readme, BEGIN, END, SECTION_HEAD)
    return 0


if __name__ == "__main__":
    sys.exit(main())
