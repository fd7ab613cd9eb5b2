"""One wording: a wrong argument raises the same exception, with the same message, in every backend.

DESIGN §4.  tests/conformance/messages.py holds the probes: every misuse case
of the conformance suite and some 250 more, each a call a user could get
wrong -- integers past either end of every width, negative values for
unsigned types, floats, strings and None for integers, str, int and None for
buffers, buffers too short, read-only or not contiguous, records of the wrong
class, None for records by value, wrong fields and items assigned to records,
pickling and copying records, handles and libraries.  It runs them against
one built module in a child process, so a crash is a failure naming the
probe, not a dead run, and reports what each raised (type and message) or
returned.  Here the same probes run against the module every backend builds
from the same library, and the reports must be identical.

Five libraries: the conformance library linked (module functions) and loaded
(``Library`` methods, some through a function table), the demo library
(bitfields, an anonymous union, integers of every width), the roles
library (in-arrays of bytes and records, inout values, pointer and handle
fields) and the C API library of tests/capi (handles, Pointers, cells,
stated lengths, objects closed by their ownership rules).  A probe marked ``parsing`` passes the wrong number of arguments or
a keyword: the interpreter refuses it in its own words before any code of the
module runs (CPython for the ctypes and cffi wrappers, Cython's argument
parsing for the compiled ones), so only the exception types are compared.
"""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from conftest import UNOPTIMISED, compile_library, run_pegbind

from clib.demo_model import HEADER as DEMO_HEADER, SOURCE as DEMO_SOURCE, demo_module
from pegbind.build import build
from pegbind.config import BindingConfig
from pegbind.emit import generate
from pegbind.passes import run_passes
from pegbind.pipeline import read_binding
from pegbind.target import get_target

# The conformance suite's builds of conf.h, the roles suite's configuration.
from test_conformance import build_binding, conf_libraries  # noqa: F401  (fixtures, used by name)
from test_cython_roles import CLIB, roles_config

pytestmark = pytest.mark.slow

PROBES = Path(__file__).resolve().parent / "conformance" / "messages.py"
BACKENDS = ("cython", "cffi", "ctypes")


@dataclasses.dataclass(frozen=True)
class Target:
    """One built module and how messages.py reaches it."""

    folder: Path
    name: str
    probes: str  #: the probe set of messages.py
    options: tuple[str, ...] = ()


@pytest.fixture(scope="session")
def helper_libraries(tmp_path_factory) -> Path:
    """libdemo.so and libroles.so, in one folder."""
    folder = tmp_path_factory.mktemp("parity_libs")
    compile_library([DEMO_SOURCE], folder / "libdemo.so", "-Wall", "-Werror", "-O1")
    compile_library([CLIB / "roles.c"], folder / "libroles.so", "-Wall", "-Werror", "-O1")
    return folder


def build_demo(backend: str, libraries: Path, out: Path) -> Target:
    name = f"parity_demo_{backend}"
    config = BindingConfig(name=name, headers=(DEMO_HEADER,), link=("demo",), library_dirs=(libraries,),
                           backends=(backend,))
    binding = run_passes(demo_module(), config, get_target("linux-x86_64"))
    with mock.patch.dict(os.environ, UNOPTIMISED):
        build(config, generate(binding, config, backend=backend, out_dir=out), out)
    return Target(out, name, "demo")


def build_roles(backend: str, libraries: Path, out: Path) -> Target:
    name = f"parity_roles_{backend}"
    config = dataclasses.replace(roles_config(), name=name, backends=(backend,))
    read = read_binding(config)
    binding = run_passes(read.module, config, read.target)
    with mock.patch.dict(os.environ, UNOPTIMISED):
        build(config, generate(binding, config, backend=backend, out_dir=out), out)
    return Target(out, name, "roles", ("--load", str(libraries / "libroles.so")))


def build_capi(backend: str, libraries: Path, out: Path) -> Target:
    name = f"parity_capi_{backend}"
    capi = Path(__file__).resolve().parent / "capi"
    compile_library([capi / "capi.c"], libraries / "libcapi.so", "-Wall", "-Werror")
    result = run_pegbind("build", "-c", str(capi / "owned.toml"), "-L", str(libraries), "--backend", backend,
                         "--name", name, "-o", str(out), env=UNOPTIMISED)
    assert result.returncode == 0, result.stderr
    return Target(out, name, "capi")


@pytest.fixture(scope="session")
def targets(build_binding, conf_libraries, helper_libraries, tmp_path_factory):  # noqa: F811
    """library -> backend -> the Target, built on first use."""
    built: dict[tuple[str, str], Target] = {}

    def target(library: str, backend: str) -> Target:
        key = (library, backend)
        if key not in built:
            if library in ("conf-link", "conf-dynamic"):
                kind = library.split("-")[1]
                module = build_binding(backend, kind)
                options: tuple[str, ...] = ()
                if kind == "dynamic":
                    options = ("--load", str(conf_libraries["alpha"]), "--no-getter", str(conf_libraries["empty"]))
                built[key] = Target(module.folder, module.name, "conf", options)
            else:
                out = tmp_path_factory.mktemp(f"parity_{library}_{backend}")
                make = {"demo": build_demo, "roles": build_roles, "capi": build_capi}[library]
                built[key] = make(backend, helper_libraries, out)
        return built[key]

    return target


def probe_reports(target: Target) -> list[dict]:
    """What messages.py reports for every probe of ``target``; a crash fails, naming the probe."""
    command = [sys.executable, str(PROBES), str(target.folder), target.name, target.probes, *target.options]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    lines = result.stdout.splitlines()
    if result.returncode != 0 or not lines or lines[-1] != "DONE":
        started = [line[6:] for line in lines if line.startswith("START ")]
        signal = f"signal {-result.returncode}" if result.returncode < 0 else f"exit code {result.returncode}"
        pytest.fail(
            f"{target.name}: the probe run died ({signal}) during: "
            f"{started[-1] if started else '(before the first probe)'}\n{result.stderr[-3000:]}"
        )
    return [json.loads(line[7:]) for line in lines if line.startswith("RESULT ")]


def outcome(report: dict) -> str:
    """A report as one line: ``Type: message``, or what came back."""
    if "raised" in report:
        return f"{report['raised']}: {report['message']}"
    return f"returned a {report['returned']}"


@pytest.mark.parametrize("library", ["conf-link", "conf-dynamic", "demo", "roles", "capi"])
def test_every_backend_refuses_a_wrong_argument_in_the_same_words(library, targets):
    reports = {backend: probe_reports(targets(library, backend)) for backend in BACKENDS}
    labels = {backend: [r["probe"] for r in found] for backend, found in reports.items()}
    assert labels["cffi"] == labels["cython"] and labels["ctypes"] == labels["cython"], "the probes differ"
    assert len(labels["cython"]) >= 40
    differing = []
    for index, probe in enumerate(reports["cython"]):
        seen = {backend: reports[backend][index] for backend in BACKENDS}
        if probe["parsing"]:
            # the interpreter's own words: the same kind of error, at least
            same = len({r.get("raised", "(returned)") for r in seen.values()}) == 1
        else:
            same = len({outcome(r) for r in seen.values()}) == 1
        if not same:
            differing.append(f"{probe['probe']}\n" + "".join(
                f"    {backend:7} {outcome(report)}\n" for backend, report in seen.items()))
    assert not differing, (
        f"{len(differing)} of {len(reports['cython'])} probes of {library} differ between backends:\n"
        + "".join(differing)
    )


def test_a_wrong_argument_is_named_in_every_backend(targets):
    # Not only alike: the words name the argument and the range, not a C type.
    expected = {
        "conf_echo_u8(-1)": "OverflowError: argument 1 (v): -1 is out of range [0, 255]",
        "conf_checksum(17, 3)": "TypeError: argument 1 (data) must be a contiguous buffer or a cell, not int",
        "conf_point_dot(1, None)": "TypeError: argument 1 (a) must be conf_point or None, not int",
        "conf_echo_double('x')": "TypeError: argument 1 (v) must be a real number, not str",
        "conf_echo_double(2**1024)": "OverflowError: argument 1 (v): int too large to convert to float",
        "pickle.dumps(conf_point())": "TypeError: cannot pickle or copy conf_point objects",
        "info.samples = [70000, 0, 0, 0]": "OverflowError: conf_info.samples items: 70000 is out of range [0, 65535]",
    }
    for backend in BACKENDS:
        found = {r["probe"]: outcome(r) for r in probe_reports(targets("conf-link", backend))}
        assert {label: found[label] for label in expected} == expected, backend
