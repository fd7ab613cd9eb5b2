"""The preprocessor against the oracle: gcc -E, token for token, on real and small headers."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pegbind.preprocess import preprocess, presumed_coord, tokenize

PP = Path(__file__).parent / "pp"
_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"')

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not installed")


def gcc_tokens(header: str, include_dirs=(), defines=None, keep=None) -> list[str]:
    """gcc -E's tokens, keeping only lines whose marker file passes ``keep`` (real path)."""
    args = ["gcc", "-E", "-x", "c"]
    args += [f"-I{d}" for d in include_dirs]
    for name, value in (defines or {}).items():
        args.append(f"-D{name}" if value is None else f"-D{name}={value}")
    text = subprocess.run(args + [header], capture_output=True, text=True, check=True).stdout
    kept: list[str] = []
    current = ""
    for line in text.splitlines():
        m = _MARKER.match(line)
        if m:
            current = m.group(2)
            continue
        if line.startswith("#pragma") or line.startswith("#ident"):
            continue
        if keep is None or (not current.startswith("<") and keep(os.path.realpath(current))):
            kept.append(line)
    return [t.text for t in tokenize("\n".join(kept), "gcc-output")]


def pegbind_user_tokens(header: str, include_dirs=(), defines=None):
    result = preprocess([header], include_dirs=include_dirs, defines=defines or {})
    user_files = {os.path.realpath(f) for f in result.files if result.origin(f) == "user"}
    ours = [t.text for t in result.tokens if os.path.realpath(presumed_coord(t).file) in user_files]
    return ours, user_files


def assert_same_tokens(ours: list[str], theirs: list[str]) -> None:
    if ours != theirs:
        for index, (a, b) in enumerate(zip(ours, theirs)):
            if a != b:
                context = f"pegbind: {' '.join(ours[max(0, index-15):index+10])}\ngcc:     {' '.join(theirs[max(0, index-15):index+10])}"
                raise AssertionError(f"first difference at token {index}: {a!r} != {b!r}\n{context}")
        raise AssertionError(f"lengths differ: pegbind {len(ours)} gcc {len(theirs)}")


REAL_HEADERS = [
    ("/usr/include/zlib.h", ()),
    ("/usr/include/nss/pkcs11.h", ("/usr/include/nss", "/usr/include/nspr")),
    ("/usr/include/softhsm/pkcs11.h", ()),
    ("/usr/include/sqlite3.h", ()),
]


@needs_gcc
@pytest.mark.parametrize("header,include_dirs", REAL_HEADERS, ids=lambda v: v if isinstance(v, str) else "")
def test_real_header_matches_gcc_token_for_token(header: str, include_dirs: tuple[str, ...]) -> None:
    if not Path(header).exists():
        pytest.skip(f"{header} not installed")
    ours, user_files = pegbind_user_tokens(header, include_dirs)
    theirs = gcc_tokens(header, include_dirs, keep=lambda path: path in user_files)
    assert len(ours) > 1000
    assert_same_tokens(ours, theirs)


def _small_cases() -> list[Path]:
    return sorted(PP.glob("gcc_*.h"))


@needs_gcc
@pytest.mark.parametrize("header", _small_cases(), ids=lambda p: p.name)
def test_corner_case_matches_gcc(header: Path) -> None:
    """Each tests/pp/gcc_*.h: every token gcc -E prints for the case's own files."""
    ours, user_files = pegbind_user_tokens(str(header), (str(PP),))
    theirs = gcc_tokens(str(header), (str(PP),), keep=lambda path: path in user_files)
    assert ours, "the case produced no tokens"
    assert_same_tokens(ours, theirs)
