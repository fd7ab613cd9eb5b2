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


#: #if conditions over character constants; gcc -E (gnu17, x86_64) decides which branch each takes.
#: u8'a' is left out: gcc only knows the u8 prefix on character constants from -std=c2x on, and
#: pegbind has no language-standard setting.
CHARACTER_CONDITIONS = [
    r"'\u00e9' == 50089", r"'é' == '\u00e9'", r"'\xff' < 0", r"'\377' == -1", r"'\0' == 0", r"'\n' == 10",
    r"'\e' == 27", r"'\?' == 63", r"'a' - 'b' < 0", "'ab' == 0x6162", "'abcd' == 0x61626364",
    "'abcde' == 0x62636465", r"'\xff\xff\xff\xff' < 0", r"'\x1ff' == -1", r"'\400' == 0",
    r"'\U0001F600' == -257976192", r"L'\xff' == 255", r"L'\xff' < 0", r"L'\xffffffff' < 0", "L'ab' == 'b'",
    r"L'\U0001F600' == 0x1F600", r"u'\u00e9' == 0xe9", r"u'\u00e9' - 0xea < 0", r"u'\x12345' == 0x2345",
    r"u'\U0001F600' == 0xDE00", r"U'\U0001F600' == 0x1F600", r"U'\xffffffff' > 0", r"'\u00A0' == 0xC2A0",
]


@needs_gcc
def test_character_constants_in_if_take_the_branch_gcc_takes(tmp_path: Path) -> None:
    header = tmp_path / "chars.h"
    header.write_text("".join(f"#if {c}\ntrue_{i}\n#else\nfalse_{i}\n#endif\n" for i, c in enumerate(CHARACTER_CONDITIONS)), encoding="utf-8")
    ours, user_files = pegbind_user_tokens(str(header))
    theirs = gcc_tokens(str(header), keep=lambda path: path in user_files)

    def branches(tokens: list[str]) -> dict[str, str]:
        return {CHARACTER_CONDITIONS[int(t.split("_")[1])]: t.split("_")[0] for t in tokens}

    assert branches(ours) == branches(theirs)
    assert len(theirs) == len(CHARACTER_CONDITIONS)
