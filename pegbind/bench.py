"""``pegbind bench``: the same calls through every backend, side by side in one run.

Input: a binding config and Python call expressions written against the
generated module, which the expressions name ``m`` (``"m.vm_add(1, 2)"``).
Output: a table of nanoseconds per call (median and p99 over rounds) per
backend, beside CPython's own call floor ``operator.add(1, 2)`` measured in
the same rounds.  Backends are built into a scratch folder under their own
module names, so all three live in one process; rounds interleave the
candidates, so machine noise falls on all of them alike.
"""
from __future__ import annotations

import functools
import importlib
import operator
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from .config import BindingConfig
from .diagnostics import ConfigError, Diagnostic

FLOOR = "operator.add(1, 2)"


def _compile_call(expression: str, namespace: dict, number: int) -> Callable[[], float]:
    """A function running ``expression`` ``number`` times; returns seconds per call."""
    try:
        code = compile(f"def _run(_n):\n    for _ in range(_n):\n        {expression}\n", "<bench>", "exec")
    except SyntaxError as exc:
        raise ConfigError(Diagnostic(None, f"--call: {expression!r} is not a Python expression: {exc.msg}")) from None
    scope = dict(namespace)
    exec(code, scope)
    run = scope["_run"]

    def timed() -> float:
        start = time.perf_counter()
        run(number)
        return (time.perf_counter() - start) / number

    return timed


def _try(what: str, action: Callable[[], object]) -> None:
    """Run the user's code once before timing it; its exception becomes a diagnostic."""
    try:
        action()
    except Exception as exc:  # the user's expression, not pegbind, failed
        raise ConfigError(Diagnostic(None, f"{what} raised {type(exc).__name__}: {exc}")) from None


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def run_bench(
    config: BindingConfig,
    calls: Sequence[str],
    *,
    setup: str = "",
    rounds: int = 30,
    number: int = 2000,
    report: Callable[[Diagnostic], None] | None = None,
) -> str:
    """Build ``config`` with each of its backends and time ``calls``; returns the table."""
    from .pipeline import build_extension

    if not calls:
        raise ConfigError(Diagnostic(None, "--call: give at least one call to time, e.g. --call 'm.f(1, 2)'"))
    candidates: dict[tuple[str, str], Callable[[], float]] = {}
    for call in calls:
        candidates[("floor", call)] = _compile_call(FLOOR, {"operator": operator}, number)
    with tempfile.TemporaryDirectory(prefix="pegbind-bench-") as folder:
        scratch = Path(folder)
        sys.path.insert(0, str(scratch))
        try:
            for backend in config.backends:
                name = f"{config.name}_{backend}"
                build_extension(replace(config, name=name, backends=(backend,)), out_dir=scratch, report=report)
                namespace: dict = {"m": importlib.import_module(name)}
                _try(f"--setup with the {backend} backend", functools.partial(exec, setup, namespace))
                for call in calls:
                    _try(f"--call {call!r} with the {backend} backend", _compile_call(call, namespace, 1))
                    candidates[(backend, call)] = _compile_call(call, namespace, number)
        finally:
            sys.path.remove(str(scratch))

    samples: dict[tuple[str, str], list[float]] = {key: [] for key in candidates}
    for _ in range(rounds):
        for key, timed in candidates.items():
            samples[key].append(timed())

    lines = [f"{rounds} rounds x {number} calls, interleaved; ns per call; x = median / floor median"]
    lines.append(f"  {'candidate':<10}{'median':>10}{'p99':>10}{'x':>8}")
    for call in calls:
        floor = statistics.median(samples[("floor", call)])
        lines.append(call)
        for candidate in ("floor", *config.backends):
            values = samples[(candidate, call)]
            median = statistics.median(values)
            lines.append(
                f"  {candidate:<10}{median * 1e9:>10.1f}{_percentile(values, 0.99) * 1e9:>10.1f}{median / floor:>8.2f}"
            )
    lines.append(f"floor: {FLOOR}, CPython's cheapest call into C, in the same rounds")
    return "\n".join(lines)
