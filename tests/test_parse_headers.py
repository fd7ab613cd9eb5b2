"""Real library headers: no error diagnostics, every prototype gcc sees is in the model,
every object-like macro is a constant or a note with a reason."""
from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from pegbind.parse import parse_declarations
from pegbind.preprocess.engine import preprocess
from pegbind.target import get_target

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the oracle")]

HEADERS = {
    "zlib": ("/usr/include/zlib.h", [], ("/usr/include/zlib.h", "/usr/include/zconf.h")),
    "sqlite3": ("/usr/include/sqlite3.h", [], ("/usr/include/sqlite3.h",)),
    "nss-pkcs11": ("/usr/include/nss/pkcs11.h", ["/usr/include/nss", "/usr/include/nspr"], ("/usr/include/nss/",)),
    "softhsm-pkcs11": ("/usr/include/softhsm/pkcs11.h", [], ("/usr/include/softhsm/",)),
}

# `/* /usr/include/zlib.h:1234:NC */ extern int deflate (z_streamp, int);` -- C: a declaration
_AUX_LINE = re.compile(r"/\* (?P<file>[^:]+):\d+:[NO]C \*/ (?P<decl>.*)")
_AUX_NAME = re.compile(r"(\w+) \((?!\*)")


def gcc_prototypes(header: str, include_dirs: list[str], own: tuple[str, ...], tmp_path: Path) -> set[str]:
    aux = tmp_path / "aux.txt"
    command = ["gcc", "-x", "c", "-fsyntax-only", "-aux-info", str(aux), *(f"-I{d}" for d in include_dirs), header]
    subprocess.run(command, check=True, capture_output=True)
    names = set()
    for line in aux.read_text().splitlines():
        match = _AUX_LINE.match(line)
        if match and match.group("file").startswith(own):
            names.add(_AUX_NAME.search(match.group("decl")).group(1))
    return names


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_real_header_parses_completely(name, tmp_path):
    header, include_dirs, own = HEADERS[name]
    if not Path(header).exists():
        pytest.skip(f"{header} is not installed")
    expected = gcc_prototypes(header, include_dirs, own, tmp_path)
    assert expected, "gcc printed no prototypes"

    target = get_target("linux-x86_64")
    started = time.perf_counter()
    pp = preprocess([header], include_dirs=include_dirs, target=target.name)
    module = parse_declarations(pp, target)
    elapsed = time.perf_counter() - started

    assert [d.headline() for d in module.diagnostics if d.severity == "error"] == []
    assert sorted(expected - {f.name for f in module.functions}) == []
    noted = {m.group(1) for d in module.diagnostics if (m := re.match(r"macro (\w+) is not a constant: .+", d.message))}
    for macro in pp.macros.object_like(origin="user"):
        assert macro.name in noted or module.get("constant", macro.name) is not None, macro.name
    assert elapsed < 5.0  # about 0.7 s for NSS pkcs11.h on the development machine


def test_nss_pkcs11_constants_and_records(tmp_path):
    header = "/usr/include/nss/pkcs11.h"
    if not Path(header).exists():
        pytest.skip(f"{header} is not installed")
    target = get_target("linux-x86_64")
    module = parse_declarations(preprocess([header], include_dirs=["/usr/include/nss", "/usr/include/nspr"],
                                           target=target.name), target)
    assert module.constant("CKA_VENDOR_DEFINED").value == 0x80000000
    assert module.constant("CK_UNAVAILABLE_INFORMATION").value == 2**64 - 1
    attribute = module.record("struct CK_ATTRIBUTE")
    assert [f.name for f in attribute.fields] == ["type", "pValue", "ulValueLen"]
    function_list = module.record("struct CK_FUNCTION_LIST")
    assert function_list.fields[0].name == "version"
    assert len(function_list.fields) == 69
