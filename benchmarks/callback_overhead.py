"""Benchmark: one Python -> C -> Python callback round trip through each backend, beside hand-written code.

Run from the repository root:  python benchmarks/callback_overhead.py [--rounds N] [--number N] [--no-readme]

A small library has two functions that call their function pointer argument
once and return its result: ``cb_once(f, x)`` calls ``f(x)`` (no user-data
pointer, as qsort's comparator), ``cb_once_user(f, user, x)`` calls
``f(x, user)``.  The callable adds one to its argument.  Every candidate
makes its C function pointer once and passes it on each call, as a careful
user does:

- pegbind's three backends, through the typedef's class (``m.cb_unary(add_one)``),
  and the Cython module again with a rule keeping the GIL during the call
  (``release_gil = false``), as the hand-written Cython does;
- hand-written ctypes (``CFUNCTYPE``), cffi ``ffi.callback`` and cffi
  ``@ffi.def_extern`` (API mode), and a hand-written Cython module whose
  ``with gil`` trampoline reaches the callable through the user-data pointer;
- the floor: the same callable called from Python (``add_one(41)``).

All are measured interleaved (see benchmarks/call_overhead.py, whose timing
loop this uses); reported are medians and p99 of the mean ns per round
trip, the empty loop subtracted, and ratios to the hand-written counterpart.
The figures go into the "Callback overhead" section of benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import ctypes
import importlib
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from call_overhead import Candidate, measure, percentile, timing_loop  # noqa: E402

from pegbind.config import BindingConfig, FunctionRule  # noqa: E402
from pegbind.pipeline import build_extension  # noqa: E402

HEADER = """\
/* cb.h: a function that calls back once, with and without a user-data pointer. */
typedef int (*cb_unary)(int value);
typedef int (*cb_unary_user)(int value, void *user);

/* f(x) */
int cb_once(cb_unary f, int x);
/* f(x, user) */
int cb_once_user(cb_unary_user f, void *user, int x);
"""

SOURCE = """\
#include "cb.h"
int cb_once(cb_unary f, int x) { return f(x); }
int cb_once_user(cb_unary_user f, void *user, int x) { return f(x, user); }
"""

HAND_CYTHON = """\
# cython: language_level=3
cdef extern from "cb.h":
    ctypedef int (*cb_unary_user)(int value, void *user) noexcept
    int cb_once_user(cb_unary_user f, void *user, int x) noexcept

cdef int trampoline(int value, void *user) noexcept with gil:
    try:
        return (<object>user)(value)
    except BaseException:
        return 0

def call(function, int x):
    return cb_once_user(trampoline, <void *>function, x)
"""

README_BEGIN = "<!-- callback_overhead: begin (written by benchmarks/callback_overhead.py) -->"
README_END = "<!-- callback_overhead: end -->"


def add_one(value: int, user: object = None) -> int:
    return value + 1


def build_library(folder: Path) -> None:
    (folder / "cb.h").write_text(HEADER)
    (folder / "cb.c").write_text(SOURCE)
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", str(folder / "cb.c"), "-o", str(folder / "libcb.so")],
                   check=True)


def import_from(folder: Path, name: str):
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


#: the Cython module as generated (a call taking callables releases the GIL while C runs), and
#: with a rule keeping the GIL, as the hand-written module does
GIL_KEPT = "cython, GIL kept"


def generated(folder: Path) -> list[Candidate]:
    found = []
    for label, backend in (("cython", "cython"), (GIL_KEPT, "cython"), ("cffi", "cffi"), ("ctypes", "ctypes")):
        name = f"cbbench_{backend}" if label == backend else "cbbench_cython_gil"
        rules = (FunctionRule("cb_once*", release_gil=False),) if label == GIL_KEPT else ()
        config = BindingConfig(name=name, headers=(folder / "cb.h",), link=("cb",), library_dirs=(folder,),
                               backends=(backend,), functions=rules)
        build_extension(config, out_dir=folder / name)
        module = import_from(folder / name, name)
        plain, user = module.cb_unary(add_one), module.cb_unary_user(add_one)
        assert module.cb_once(plain, 41) == 42 and module.cb_once_user(user, None, 41) == 42
        found.append(Candidate("no user data", label, timing_loop(module.cb_once, (plain, 41))))
        found.append(Candidate("user data", label, timing_loop(module.cb_once_user, (user, None, 41))))
    return found


def hand_ctypes(folder: Path) -> list[Candidate]:
    lib = ctypes.CDLL(str(folder / "libcb.so"))
    unary = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)
    unary_user = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
    once, once_user = lib.cb_once, lib.cb_once_user
    once.argtypes, once.restype = [unary, ctypes.c_int], ctypes.c_int
    once_user.argtypes, once_user.restype = [unary_user, ctypes.c_void_p, ctypes.c_int], ctypes.c_int
    plain, user = unary(add_one), unary_user(add_one)
    assert once(plain, 41) == 42 and once_user(user, None, 41) == 42
    return [Candidate("no user data", "hand ctypes", timing_loop(once, (plain, 41))),
            Candidate("user data", "hand ctypes", timing_loop(once_user, (user, None, 41)))]


def hand_cffi(folder: Path) -> list[Candidate]:
    import cffi

    builder = cffi.FFI()
    builder.cdef("""
        typedef int (*cb_unary)(int value);
        typedef int (*cb_unary_user)(int value, void *user);
        int cb_once(cb_unary f, int x);
        int cb_once_user(cb_unary_user f, void *user, int x);
        extern "Python" int py_add_one(int);
    """)
    builder.set_source("_cbbench_hand_cffi", '#include "cb.h"', include_dirs=[str(folder)], libraries=["cb"],
                       library_dirs=[str(folder)], extra_link_args=[f"-Wl,-rpath,{folder}"])
    builder.compile(tmpdir=str(folder / "hand_cffi"), verbose=False)
    compiled = import_from(folder / "hand_cffi", "_cbbench_hand_cffi")
    ffi, lib = compiled.ffi, compiled.lib
    ffi.def_extern(name="py_add_one")(add_one)
    plain = ffi.callback("int(int)", add_one)
    user = ffi.callback("int(int, void *)", add_one)
    assert lib.cb_once(plain, 41) == 42 and lib.cb_once(lib.py_add_one, 41) == 42
    assert lib.cb_once_user(user, ffi.NULL, 41) == 42
    return [Candidate("no user data", "hand cffi callback", timing_loop(lib.cb_once, (plain, 41))),
            Candidate("no user data", "hand cffi def_extern", timing_loop(lib.cb_once, (lib.py_add_one, 41))),
            Candidate("user data", "hand cffi callback", timing_loop(lib.cb_once_user, (user, ffi.NULL, 41)))]


def hand_cython(folder: Path) -> list[Candidate]:
    (folder / "cbbench_hand_cy.pyx").write_text(HAND_CYTHON)
    subprocess.run([sys.executable, "-m", "cython", "-3", str(folder / "cbbench_hand_cy.pyx")], check=True)
    includes = subprocess.run([sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
    suffix = subprocess.run([sys.executable, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", f"-I{includes}", f"-I{folder}", str(folder / "cbbench_hand_cy.c"),
                    f"-L{folder}", "-lcb", f"-Wl,-rpath,{folder}", "-o", str(folder / f"cbbench_hand_cy{suffix}")],
                   check=True)
    module = import_from(folder, "cbbench_hand_cy")
    assert module.call(add_one, 41) == 42
    return [Candidate("user data", "hand cython", timing_loop(module.call, (add_one, 41)))]


def floor() -> list[Candidate]:
    return [Candidate(call, "floor", timing_loop(add_one, (41,))) for call in ("no user data", "user data")]


#: each generated candidate beside the hand-written code it is compared with
HAND = {"cython": "hand cython", GIL_KEPT: "hand cython", "cffi": "hand cffi callback", "ctypes": "hand ctypes"}


def table(candidates: list[Candidate], loop_ns: float, args: argparse.Namespace) -> str:
    by = {(c.call, c.label): statistics.median(c.samples) for c in candidates}
    lines = [
        f"Machine: {platform.machine()}, CPython {platform.python_version()}; {args.rounds} rounds x "
        f"{args.number} round trips, interleaved; the empty loop ({loop_ns:.1f} ns) is subtracted.",
        "",
        "| call | candidate | median ns | p99 ns | x floor | x hand-written |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for c in candidates:
        median = statistics.median(c.samples)
        hand = by.get((c.call, HAND.get(c.label, "")))
        ratio = f"{median / hand:.2f}" if hand else ""
        lines.append(f"| {c.call} | {c.label} | {median:.1f} | {percentile(c.samples, 0.99):.1f} | "
                     f"{median / by[(c.call, 'floor')]:.2f} | {ratio} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--no-readme", action="store_true", help="print only; leave benchmarks/README.md alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        build_library(folder)
        candidates = floor() + generated(folder) + hand_ctypes(folder) + hand_cffi(folder) + hand_cython(folder)
        candidates.sort(key=lambda c: (c.call != "no user data", c.label != "floor"))
        loop = measure(candidates, args.rounds, args.number)
        text = table(candidates, statistics.median(loop), args)
    print(text)
    if not args.no_readme:
        readme = ROOT / "benchmarks" / "README.md"
        current = readme.read_text()
        block = f"{README_BEGIN}\n{text}\n{README_END}"
        if README_BEGIN in current and README_END in current:
            head, rest = current.split(README_BEGIN, 1)
            current = head + block + rest.split(README_END, 1)[1]
        else:
            current = current.rstrip("\n") + "\n\n" + block + "\n"
        readme.write_text(current)


if __name__ == "__main__":
    main()
