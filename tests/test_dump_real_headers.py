"""``pegbind dump`` of real headers, as a user runs it: every function gcc sees, and target-dependent values."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_pegbind
from pegbind.toolchain import python_feature_macros
from test_parse_headers import HEADERS, gcc_prototypes

pytestmark = pytest.mark.slow

NSS = ["-I/usr/include/nss", "-I/usr/include/nspr", "/usr/include/nss/pkcs11.h"]


def dump(*args: str) -> dict:
    result = run_pegbind("dump", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_dump_lists_every_function_gcc_declares(name, tmp_path):
    header, include_dirs, own = HEADERS[name]
    if not Path(header).exists():
        pytest.skip(f"{header} is not installed")
    # a binding reads its headers with the feature macros of Python.h (_FILE_OFFSET_BITS=64
    # makes zlib declare gzopen64 with gzopen as a macro for it): so does gcc here
    expected = gcc_prototypes(header, include_dirs, own, tmp_path, python_feature_macros("linux-x86_64"))
    model = dump(*(f"-I{d}" for d in include_dirs), header)
    assert sorted(expected - set(model["functions"])) == []
    assert [d for d in model["diagnostics"] if d["severity"] == "error"] == []


def test_unsigned_long_follows_the_target():
    lp64 = dump("--target", "linux-x86_64", *NSS)
    llp64 = dump("--target", "win-x86_64", *NSS)
    assert lp64["constants"]["CK_UNAVAILABLE_INFORMATION"]["value"] == 18446744073709551615
    assert llp64["constants"]["CK_UNAVAILABLE_INFORMATION"]["value"] == 4294967295
    assert lp64["typedefs"]["CK_ULONG"] == llp64["typedefs"]["CK_ULONG"] == "unsigned long"
    # Three CK_ULONG-sized members: 8 bytes each on LP64, 4 on LLP64.
    info_lp64 = lp64["records"]["struct CK_MECHANISM_INFO"]
    info_llp64 = llp64["records"]["struct CK_MECHANISM_INFO"]
    assert (info_lp64["size"], [f["offset"] for f in info_lp64["fields"]]) == (24, [0, 8, 16])
    assert (info_llp64["size"], [f["offset"] for f in info_llp64["fields"]]) == (12, [0, 4, 8])
    # NSS packs its structures to 1 byte on Windows (pkcs11p.h): pValue follows type directly.
    attribute = llp64["records"]["struct CK_ATTRIBUTE"]
    assert (attribute["size"], [f["offset"] for f in attribute["fields"]]) == (16, [0, 4, 12])
