"""Benchmark: the cost of one call through each generated backend, beside hand-written code.

Run from the repository root:  python benchmarks/call_overhead.py [--rounds N] [--number N]

Three C functions (a scalar call, a 64-byte buffer call, a struct out-parameter
call) are compiled into a small library; pegbind builds a binding of it with
every backend, and the same functions are also called through hand-written
minimal ctypes and cffi (API mode) code.  The floor is ``operator.add(a, b)``:
a C-implemented Python call of the same shape that does no work.  So the C
functions do next to none either: the buffer call passes 64 bytes and reads
the first and the last (an earlier version summed all 64, which alone took
twice the floor and made the ratio measure the sum).  Beside them, "C alone"
is each C function's own time, called in a loop in C, and the "x floor net
of C" column subtracts it before comparing with the floor.

All candidates are measured interleaved -- each round times every candidate
once, in a rotating order -- so machine noise (other processes on a shared
2-core host) lands on all of them alike.  One sample is the mean ns per call
over ``--number`` calls of a tight loop, minus the same loop with no call in
it; reported are the median and p99 over ``--rounds`` samples.  A backend that
fails to build is reported with its error and left out.

Output: a table on stdout, ``benchmarks/call_overhead.png`` (a bar chart) and
the figures written into the "Call overhead" section of benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import ctypes
import dataclasses
import importlib
import itertools
import operator
import os
import platform
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pegbind.config import BindingConfig, FunctionRule, ParamRole  # noqa: E402
from pegbind.pipeline import build_extension  # noqa: E402

BACKENDS = ("cython", "cffi", "ctypes")
CALLS = ("scalar", "buffer", "struct out")

HEADER = """\
/* bench.h: three calls whose cost is almost all in crossing from Python to C. */
#include <stddef.h>
#include <stdint.h>

struct point {
    int32_t x;
    int32_t y;
};

/* a + b */
int bench_add(int a, int b);
/* buf[0] + buf[n - 1]: the buffer is read, at both ends; 0 when n is 0. */
uint32_t bench_ends(const uint8_t *buf, size_t n);
/* Fill *out with a fixed point. */
void bench_get_point(struct point *out);
"""

SOURCE = """\
#include "bench.h"

int bench_add(int a, int b) { return a + b; }

uint32_t bench_ends(const uint8_t *buf, size_t n)
{
    return n ? (uint32_t)buf[0] + buf[n - 1] : 0;
}

void bench_get_point(struct point *out)
{
    out->x = 3;
    out->y = -4;
}

/* Not in bench.h, so not bound: the time C itself needs for n calls of one
   of the three functions (0 scalar, 1 buffer, 2 struct out), made through
   volatile pointers so the compiler can neither inline nor hoist them. */
#include <time.h>
long long bench_c_alone(int which, long n, const uint8_t *buf, size_t size)
{
    int (*volatile add)(int, int) = bench_add;
    uint32_t (*volatile ends)(const uint8_t *, size_t) = bench_ends;
    void (*volatile get_point)(struct point *) = bench_get_point;
    volatile uint32_t sink;
    struct point out;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < n; i++) {
        if (which == 0)
            sink = add(2, 40);
        else if (which == 1)
            sink = ends(buf, size);
        else
            get_point(&out);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    (void)sink;
    return (end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
}
"""

CDEF = """\
struct point { int32_t x; int32_t y; };
int bench_add(int a, int b);
uint32_t bench_ends(const uint8_t *buf, size_t n);
void bench_get_point(struct point *out);
"""


@dataclasses.dataclass
class Candidate:
    """One way to make one of the three calls: ``run(n)`` returns the ns spent on n calls."""

    call: str
    label: str
    run: Callable[[int], int]
    samples: list[float] = dataclasses.field(default_factory=list)
    #: False for a loop timed inside C, which has no Python loop to subtract
    python_loop: bool = True


def timing_loop(function: Callable, args: tuple) -> Callable[[int], int]:
    """A loop calling ``function(*args)`` n times, compiled for that arity so no ``*`` unpacking is timed."""
    names = ", ".join(f"a{i}" for i in range(len(args)))
    defaults = "".join(f", a{i}=a{i}" for i in range(len(args)))
    source = (
        f"def run(n, f=f{defaults}, repeat=repeat, clock=clock):\n"
        f"    start = clock()\n"
        f"    for _ in repeat(None, n):\n"
        f"        f({names})\n"
        f"    return clock() - start\n"
    )
    scope = {"f": function, "repeat": itertools.repeat, "clock": time.perf_counter_ns}
    scope.update({f"a{i}": arg for i, arg in enumerate(args)})
    exec(source, scope)  # noqa: S102 - our own fixed template, for a loop without call indirection
    return scope["run"]


def in_a_def(function: Callable, arity: int) -> Callable:
    """``function`` called from the smallest Python function: what any Python-level wrapper costs at least.

    A generated cffi or ctypes wrapper is such a function (for its docstring,
    ``__index__``, range checks and error types), so beside the bare call this
    shows how much of its gap to the hand-written code the function itself is.
    """
    names = ", ".join(f"a{i}" for i in range(arity))
    scope = {"f": function}
    exec(f"def wrapper({names}{', ' if names else ''}/, f=f):\n    return f({names})\n", scope)  # noqa: S102
    return scope["wrapper"]


def empty_loop(n: int, repeat=itertools.repeat, clock=time.perf_counter_ns) -> int:
    start = clock()
    for _ in repeat(None, n):
        pass
    return clock() - start


def build_library(folder: Path) -> Path:
    (folder / "bench.h").write_text(HEADER)
    (folder / "bench.c").write_text(SOURCE)
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O2", str(folder / "bench.c"), "-o", str(folder / "libbench.so")], check=True
    )
    return folder / "libbench.so"


def generated_candidates(folder: Path, data: bytes) -> tuple[list[Candidate], dict[str, str]]:
    """Candidates of every backend that builds; backend -> why it did not, for the others."""
    found, failed = [], {}
    for backend in BACKENDS:
        name = f"bench_{backend}"
        config = BindingConfig(
            name=name,
            headers=(folder / "bench.h",),
            link=("bench",),
            library_dirs=(folder,),
            backends=(backend,),
            functions=(FunctionRule("bench_get_point", {"out": ParamRole("out")}),),
        )
        out = folder / name
        try:
            build_extension(config, out_dir=out)
            sys.path.insert(0, str(out))
            try:
                module = importlib.import_module(name)
            finally:
                sys.path.remove(str(out))
        except Exception as exc:  # noqa: BLE001 - any failure: report it and go on with the others
            failed[backend] = f"build failed: {_first_line(exc)}"
            continue
        # One checked call each: a call that fails or returns a wrong answer is reported, not timed.
        checks = [
            ("scalar", "bench_add", (2, 40), lambda result: result == 42),
            ("buffer", "bench_ends", (data, len(data)), lambda result: result == data[0] + data[-1]),
            ("struct out", "bench_get_point", (), lambda result: (result.x, result.y) == (3, -4)),
        ]
        for call, function_name, call_args, correct in checks:
            try:
                function = getattr(module, function_name)
                if not correct(function(*call_args)):
                    raise AssertionError(f"{function_name}{call_args!r} returned a wrong result")
            except Exception as exc:  # noqa: BLE001
                failed[f"{backend} ({call})"] = f"not measured: {_first_line(exc)}"
                continue
            found.append(Candidate(call, backend, timing_loop(function, call_args)))
    return found, failed


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def c_alone_candidates(library: Path, data: bytes) -> list[Candidate]:
    """The C functions' own time, called from a loop in C: what no binding can take away.

    The "x floor net of C" column takes this time out of every candidate so
    the ratio shows what crossing from Python to C costs.
    """
    lib = ctypes.CDLL(str(library))
    timer = lib.bench_c_alone
    timer.argtypes = [ctypes.c_int, ctypes.c_long, ctypes.c_char_p, ctypes.c_size_t]
    timer.restype = ctypes.c_longlong

    def run_of(which: int) -> Callable[[int], int]:
        return lambda n: timer(which, n, data, len(data))

    return [Candidate(call, "C alone", run_of(which), python_loop=False) for which, call in enumerate(CALLS)]


def hand_ctypes_candidates(library: Path, data: bytes) -> list[Candidate]:
    """The least ctypes code that makes each call correctly: argtypes/restype set once."""
    lib = ctypes.CDLL(str(library))
    add = lib.bench_add
    add.argtypes, add.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    ends = lib.bench_ends
    ends.argtypes, ends.restype = [ctypes.c_char_p, ctypes.c_size_t], ctypes.c_uint32
    get_point = lib.bench_get_point

    class Point(ctypes.Structure):
        _fields_ = [("x", ctypes.c_int32), ("y", ctypes.c_int32)]

    get_point.argtypes, get_point.restype = [ctypes.POINTER(Point)], None
    byref = ctypes.byref

    def point() -> Point:
        out = Point()
        get_point(byref(out))
        return out

    # The same calls with no argtypes: ctypes then passes a Python int as a C
    # int and bytes as a pointer without a from_param call per argument.  Not
    # what a careful user writes by hand (nothing is checked, a 64-bit value
    # above 2**31 arrives wrong); the generated ctypes code calls this way
    # where its own checks make it exact, so this row is its ctypes floor.
    bare = ctypes.CDLL(str(library))
    bare_add, bare_ends, bare_get_point = bare.bench_add, bare.bench_ends, bare.bench_get_point
    bare_add.restype, bare_ends.restype, bare_get_point.restype = ctypes.c_int, ctypes.c_uint32, None

    def bare_point() -> Point:
        out = Point()
        bare_get_point(byref(out))
        return out

    assert add(2, 40) == 42 and ends(data, len(data)) == data[0] + data[-1] and point().y == -4
    assert bare_add(2, 40) == 42 and bare_ends(data, len(data)) == data[0] + data[-1] and bare_point().y == -4
    return [
        Candidate("scalar", "hand ctypes, no argtypes", timing_loop(bare_add, (2, 40))),
        Candidate("buffer", "hand ctypes, no argtypes", timing_loop(bare_ends, (data, len(data)))),
        Candidate("struct out", "hand ctypes, no argtypes", timing_loop(bare_point, ())),
        Candidate("scalar", "hand ctypes", timing_loop(add, (2, 40))),
        Candidate("buffer", "hand ctypes", timing_loop(ends, (data, len(data)))),
        Candidate("struct out", "hand ctypes", timing_loop(point, ())),
        Candidate("scalar", "hand ctypes in a def", timing_loop(in_a_def(add, 2), (2, 40))),
        Candidate("buffer", "hand ctypes in a def", timing_loop(in_a_def(ends, 2), (data, len(data)))),
    ]


def hand_cffi_candidates(folder: Path, data: bytes) -> list[Candidate]:
    """The least cffi API-mode code: one cdef, set_source, compile; calls straight into ``lib``."""
    import cffi

    builder = cffi.FFI()
    builder.cdef(CDEF)
    builder.set_source(
        "_bench_hand_cffi", '#include "bench.h"', include_dirs=[str(folder)], libraries=["bench"],
        library_dirs=[str(folder)], extra_link_args=[f"-Wl,-rpath,{folder}"],
    )
    builder.compile(tmpdir=str(folder / "hand_cffi"), verbose=False)
    sys.path.insert(0, str(folder / "hand_cffi"))
    try:
        compiled = importlib.import_module("_bench_hand_cffi")
    finally:
        sys.path.remove(str(folder / "hand_cffi"))
    ffi, lib = compiled.ffi, compiled.lib
    add, ends, get_point = lib.bench_add, lib.bench_ends, lib.bench_get_point
    new = ffi.new

    def point():
        out = new("struct point *")
        get_point(out)
        return out

    # cffi passes a bytes object to a pointer to 1-byte characters as it is,
    # so a careful user calls straight in: ffi.from_buffer (what this
    # candidate did before) is for other buffers and costs ~190 ns more.
    assert add(2, 40) == 42 and ends(data, len(data)) == data[0] + data[-1] and point().y == -4
    return [
        Candidate("scalar", "hand cffi", timing_loop(add, (2, 40))),
        Candidate("buffer", "hand cffi", timing_loop(ends, (data, len(data)))),
        Candidate("struct out", "hand cffi", timing_loop(point, ())),
        Candidate("scalar", "hand cffi in a def", timing_loop(in_a_def(add, 2), (2, 40))),
        Candidate("buffer", "hand cffi in a def", timing_loop(in_a_def(ends, 2), (data, len(data)))),
    ]


def measure(candidates: list[Candidate], rounds: int, number: int) -> list[float]:
    """Fill each candidate's samples (net ns per call); returns the empty loop's ns per iteration."""
    for candidate in candidates:  # warm up: first calls fill caches and finish lazy set-up
        candidate.run(number)
    loop_samples = []
    for round_number in range(rounds):
        # Rotate the order each round so no candidate always runs right after another's cache effects.
        shift = round_number % len(candidates)
        order = candidates[shift:] + candidates[:shift]
        loop_ns = empty_loop(number) / number
        loop_samples.append(loop_ns)
        for candidate in order:
            candidate.samples.append(candidate.run(number) / number - (loop_ns if candidate.python_loop else 0.0))
    return loop_samples


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


# --------------------------------------------------------------------------
# A bar chart as PNG: matplotlib when importable, else a small writer of our own
# --------------------------------------------------------------------------

PALETTE = {
    "C alone": (40, 40, 40), "floor": (120, 120, 120), "cython": (31, 119, 180), "cffi": (44, 160, 44), "ctypes": (214, 39, 40),
    "hand cffi": (152, 223, 138), "hand ctypes": (255, 152, 150),
    "hand cffi in a def": (199, 233, 192), "hand ctypes in a def": (255, 200, 198),
    "hand ctypes, no argtypes": (140, 86, 75),
}


def write_png(path: Path, width: int, height: int, pixels: list[bytearray]) -> None:
    """An 8-bit RGB PNG from rows of ``width * 3`` bytes: signature, IHDR, one IDAT, IEND."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(row) for row in pixels)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
                     + chunk(b"IEND", b""))


def draw_chart(path: Path, table: dict[str, dict[str, tuple[float, float]]], labels: list[str]) -> None:
    """Grouped bars (one group per call, one bar per candidate, height = median, tick = p99)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    if plt is not None:
        figure, axes = plt.subplots(figsize=(9, 4.5))
        width = 0.8 / len(labels)
        for index, label in enumerate(labels):
            xs = [c + index * width for c in range(len(CALLS)) if label in table[CALLS[c]]]
            ys = [table[call][label][0] for call in CALLS if label in table[call]]
            errors = [table[call][label][1] - table[call][label][0] for call in CALLS if label in table[call]]
            axes.bar(xs, ys, width, yerr=[[0] * len(errors), errors], label=label,
                     color=[tuple(v / 255 for v in PALETTE[label])])
        axes.set_xticks([c + 0.4 - width / 2 for c in range(len(CALLS))], CALLS)
        axes.set_ylabel("ns per call (median, p99 whisker)")
        axes.legend()
        figure.tight_layout()
        figure.savefig(path, dpi=100)
        return
    width, height, margin = 720, 360, 20
    pixels = [bytearray(b"\xff" * (width * 3)) for _ in range(height)]

    def fill(x0: int, y0: int, x1: int, y1: int, colour: tuple[int, int, int]) -> None:
        for y in range(max(0, y0), min(height, y1)):
            row = pixels[y]
            for x in range(max(0, x0), min(width, x1)):
                row[3 * x:3 * x + 3] = bytes(colour)

    top = max(p99 for column in table.values() for _, p99 in column.values()) or 1.0
    plot_height = height - 2 * margin - 30  # room under the bars for the legend strip
    group_width = (width - 2 * margin) // len(CALLS)
    bar_width = max(4, (group_width - 20) // len(labels))
    for group, call in enumerate(CALLS):
        for index, label in enumerate(labels):
            if label not in table[call]:
                continue
            median, p99 = table[call][label]
            x0 = margin + group * group_width + 10 + index * bar_width
            bottom = margin + plot_height
            fill(x0, bottom - int(plot_height * median / top), x0 + bar_width - 2, bottom, PALETTE[label])
            tick = bottom - int(plot_height * p99 / top)
            fill(x0 + bar_width // 2 - 1, tick, x0 + bar_width // 2 + 1, bottom - int(plot_height * median / top),
                 (0, 0, 0))
    fill(margin, margin + plot_height, width - margin, margin + plot_height + 1, (0, 0, 0))
    for index, label in enumerate(labels):  # the legend: colour swatches in the order of the table's columns
        x0 = margin + index * 60
        fill(x0, height - margin - 12, x0 + 40, height - margin, PALETTE[label])
    write_png(path, width, height, pixels)


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

README_BEGIN = "<!-- call_overhead: begin (written by benchmarks/call_overhead.py) -->"
README_END = "<!-- call_overhead: end -->"


def report(candidates: list[Candidate], failed: dict[str, str], loop_ns: float, args: argparse.Namespace) -> str:
    table: dict[str, dict[str, tuple[float, float]]] = {call: {} for call in CALLS}
    for candidate in candidates:
        table[candidate.call][candidate.label] = (statistics.median(candidate.samples),
                                                  percentile(candidate.samples, 0.99))
    labels = [label for label in ("C alone", "floor", "cython", "cffi", "ctypes", "hand cffi", "hand ctypes",
                                  "hand cffi in a def", "hand ctypes in a def", "hand ctypes, no argtypes")
              if any(label in column for column in table.values())]
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared with other work while measuring), "
        f"{platform.python_implementation()} {platform.python_version()}; {args.rounds} rounds x {args.number} "
        f"calls, interleaved; the empty loop ({loop_ns:.1f} ns per iteration) is subtracted.",
        "",
        "| call | candidate | median ns | p99 ns | x floor | x floor net of C | x hand-written | x hand in a def |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    floor = table["scalar"]["floor"][0]
    for call in CALLS:
        alone = table[call].get("C alone")
        for label in labels:
            if label not in table[call]:
                continue
            median, p99 = table[call][label]
            hand = table[call].get(f"hand {label}") if label in ("cffi", "ctypes") else None
            versus_hand = f"{median / hand[0]:.2f}" if hand else ""
            # the hand-written struct out-parameter code is a def already (it makes the struct)
            in_def = table[call].get(f"hand {label} in a def", hand) if label in ("cffi", "ctypes") else None
            versus_def = f"{median / in_def[0]:.2f}" if in_def else ""
            binding = alone is not None and label not in ("C alone", "floor")
            net = f"{(median - alone[0]) / floor:.2f}" if binding else ""
            lines.append(f"| {call} | {label} | {median:.1f} | {p99:.1f} | {median / floor:.2f} | {net} | {versus_hand} | {versus_def} |")
    if failed:
        lines.append("")
    for backend, why in failed.items():
        lines.append(f"- {backend}: {why}")
    if not args.no_readme:  # the chart shows the run the README's table is from
        draw_chart(Path(args.chart), table, labels)
    return "\n".join(lines)


def update_readme(path: Path, text: str) -> None:
    """Replace the generated part of the "Call overhead" section, leaving the rest of the file alone."""
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{README_BEGIN}\n{text}\n{README_END}"
    if README_BEGIN in current and README_END in current:
        head, rest = current.split(README_BEGIN, 1)
        current = head + block + rest.split(README_END, 1)[1]
    else:
        current = current.rstrip("\n") + ("\n\n" if current else "") + "## Call overhead\n\n" + block + "\n"
    path.write_text(current, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--number", type=int, default=2000, help="calls per sample")
    parser.add_argument("--chart", default=str(ROOT / "benchmarks" / "call_overhead.png"))
    parser.add_argument("--readme", default=str(ROOT / "benchmarks" / "README.md"))
    parser.add_argument("--no-readme", action="store_true", help="print the table only (no README, no chart)")
    args = parser.parse_args()

    data = bytes(range(64))
    with tempfile.TemporaryDirectory(prefix="pegbind-bench-") as temp:
        folder = Path(temp)
        library = build_library(folder)
        candidates, failed = generated_candidates(folder, data)
        for backend, why in failed.items():
            print(f"{backend}: {why}", file=sys.stderr)
        candidates += c_alone_candidates(library, data)
        candidates += hand_ctypes_candidates(library, data)
        try:
            candidates += hand_cffi_candidates(folder, data)
        except Exception as exc:  # noqa: BLE001 - e.g. no compiler for cffi: still measure the rest
            failed["hand cffi"] = f"not measured: {_first_line(exc)}"
            print(f"hand-written cffi: not measured: {exc}", file=sys.stderr)
        candidates.append(Candidate("scalar", "floor", timing_loop(operator.add, (2, 40))))
        # The floor is one function; the same samples head each call's rows for the ratios.
        loop_ns = statistics.median(measure(candidates, args.rounds, args.number))
    floor = next(c for c in candidates if c.label == "floor")
    for call in CALLS[1:]:
        candidates.append(dataclasses.replace(floor, call=call))
    text = report(candidates, failed, loop_ns, args)
    print(text)
    if not args.no_readme:
        update_readme(Path(args.readme), text)


if __name__ == "__main__":
    main()
