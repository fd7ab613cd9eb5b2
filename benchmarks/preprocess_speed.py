"""Benchmark: pegbind's preprocessor on NSS's pkcs11.h (and all it includes) next to gcc -E.

Run from the repository root:  python benchmarks/preprocess_speed.py [--rounds N]
Prints the first (cold) run, then median and p99 over N rounds for both, and the ratio.
The goal is a pegbind median under 0.3 s on a 2-core machine.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pegbind.preprocess import preprocess  # noqa: E402

HEADER = "/usr/include/nss/pkcs11.h"
INCLUDE_DIRS = ["/usr/include/nss", "/usr/include/nspr"]


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _time(action, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    if not Path(HEADER).exists():
        sys.exit(f"{HEADER} is not installed (Debian: libnss3-dev libnspr4-dev)")

    start = time.perf_counter()
    result = preprocess([HEADER], include_dirs=INCLUDE_DIRS)
    cold = time.perf_counter() - start
    ours = _time(lambda: preprocess([HEADER], include_dirs=INCLUDE_DIRS), args.rounds)
    gcc_command = ["gcc", "-E", "-x", "c", *(f"-I{d}" for d in INCLUDE_DIRS), HEADER]
    theirs = _time(lambda: subprocess.run(gcc_command, capture_output=True, check=True), args.rounds)

    print(f"input: {HEADER}: {len(result.files)} files, {len(result.tokens)} output tokens")
    print(f"pegbind cold run:  {cold * 1000:8.1f} ms (first in this process: grammars read, in-memory caches empty)")
    for name, samples in (("pegbind", ours), ("gcc -E", theirs)):
        print(f"{name:8s} median {statistics.median(samples) * 1000:8.1f} ms   p99 {_percentile(samples, 0.99) * 1000:8.1f} ms"
              f"   ({args.rounds} rounds)")
    print(f"ratio pegbind / gcc -E (median): {statistics.median(ours) / statistics.median(theirs):.1f}x")


if __name__ == "__main__":
    main()
