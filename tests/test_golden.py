"""Golden files: tests/headers/NAME.h -> tests/expected/NAME/dump.json.

The first line of each header may carry CLI flags (``// pegbind-flags: --target win-x86_64``).
A mismatch shows a unified diff; ``PEGBIND_UPDATE_GOLDEN=1`` rewrites the expectations.
The slower tier asks gcc, through ``pegbind verify``, whether the dumped model is right, for the
header's own target and for every other target (linux-aarch64 and win-x86_64 through Debian's
cross compilers; the setup installs MinGW's, see scripts/install-system-packages.sh).
"""
from __future__ import annotations

import difflib
import os
import shlex
from pathlib import Path

import pytest

from conftest import ROOT
from pegbind.cli import main
from pegbind.diagnostics import VerifyError
from pegbind.target import get_target
from pegbind.verify import toolchain

HEADERS = ROOT / "tests" / "headers"
EXPECTED = ROOT / "tests" / "expected"
UPDATE = os.environ.get("PEGBIND_UPDATE_GOLDEN") == "1"
CASES = sorted(HEADERS.glob("*.h"))


def header_flags(header: Path) -> list[str]:
    first = header.read_text(encoding="utf-8").splitlines()[0]
    marker = "// pegbind-flags:"
    return shlex.split(first[len(marker):]) if first.startswith(marker) else []


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("header", CASES, ids=lambda p: p.stem)
def test_dump_matches_golden(header, capsys, monkeypatch):
    monkeypatch.chdir(HEADERS)
    status, out, err = run_cli(["dump", *header_flags(header), header.name], capsys)
    assert status == 0, err
    expected_file = EXPECTED / header.stem / "dump.json"
    if UPDATE:
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_text(out, encoding="utf-8")
    assert expected_file.is_file(), f"no golden file; run PEGBIND_UPDATE_GOLDEN=1 make test"
    expected = expected_file.read_text(encoding="utf-8")
    if out != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), out.splitlines(keepends=True), str(expected_file), "pegbind dump"
            )
        )
        pytest.fail(f"dump differs from the golden file:\n{diff}")


@pytest.mark.slow
@pytest.mark.parametrize("target", ["linux-x86_64", "linux-i386", "linux-aarch64", "win-x86_64"])
@pytest.mark.parametrize("header", CASES, ids=lambda p: p.stem)
def test_golden_headers_agree_with_gcc_on_every_target(header, target, capsys, monkeypatch):
    try:
        toolchain(None, get_target(target))
    except VerifyError as missing:
        pytest.skip(str(missing))
    flags = header_flags(header)
    if "--target" in flags:
        at = flags.index("--target")
        del flags[at:at + 2]
    monkeypatch.chdir(HEADERS)
    status, out, err = run_cli(["verify", "--target", target, *flags, header.name], capsys)
    assert status == 0, out + err
