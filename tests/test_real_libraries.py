"""Real Debian libraries, bound as a new user would: nothing but ``-l`` and ``pkg-config``'s ``-I``.

Each library is built with ``pegbind build HEADER -l LIB -I ...`` in every
backend, imported in a fresh interpreter and called; ``pegbind verify`` then
checks every constant and every record the binding exposes (wherever it was
declared: ``fd_set``, ``jmp_buf`` ...) against gcc.  The project's setup
installs the ``-dev`` packages (scripts/install-system-packages.sh).
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import run_pegbind

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Library:
    header: str  #: as the library's users include it
    package: str | None  #: pkg-config name, for the -I folders
    link: str
    #: Python that calls the module ``m`` and prints one line, and what it must print (a regex)
    call: str
    prints: str


LIBRARIES = {
    "zlib": Library("zlib.h", "zlib", "z", "print(m.zlibVersion().decode())", r"1\.\d+\.\d+"),
    "sqlite3": Library("sqlite3.h", "sqlite3", "sqlite3", "print(m.sqlite3_libversion().decode())", r"3\.\d+\.\d+"),
    "libxml2": Library("libxml/parser.h", "libxml-2.0", "xml2", "print(m.xmlHasFeature(m.XML_WITH_TREE), m.LIBXML_DOTTED_VERSION)",
                       r"1 2\.\d+\.\d+"),
    "curl": Library("curl/curl.h", "libcurl", "curl", "print(m.curl_version().decode())", r"libcurl/\d+\.\d+\.\d+ .*"),
    "jansson": Library("jansson.h", "jansson", "jansson", "print(m.jansson_version_str().decode())", r"2\.\d+"),
    "yaml": Library("yaml.h", "yaml-0.1", "yaml", "print(m.yaml_get_version_string().decode())", r"0\.\d+\.\d+"),
    "expat": Library("expat.h", "expat", "expat", "print(m.XML_ExpatVersion().decode())", r"expat_2\.\d+\.\d+"),
    "png": Library("png.h", "libpng", "png16", "print(m.png_access_version_number(), m.PNG_LIBPNG_VER)",
                   r"(\d+) \1"),
    "uuid": Library("uuid/uuid.h", "uuid", "uuid", textwrap.dedent("""\
        raw, text = bytearray(16), bytearray(37)
        m.uuid_generate(raw)
        m.uuid_unparse(bytes(raw), text)
        print(text[:36].decode(), m.uuid_is_null(bytes(16)), m.uuid_is_null(bytes(raw)))"""),
                    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} 1 0"),
}
BACKENDS = ("cython", "cffi", "ctypes")
#: what pegbind prints for a declaration it leaves out: located in the original header
LOCATED_WARNING = re.compile(r"^/[^:]+:\d+:\d+: warning: .+")
#: warnings about the binding as a whole, which have no header location
BINDING_WARNING = re.compile(r"^warning: the module name '\w+' is also a standard library module")


def include_flags(library: Library) -> list[str]:
    if library.package is None:
        return []
    found = subprocess.run(["pkg-config", "--cflags-only-I", library.package], capture_output=True, text=True)
    if found.returncode != 0:
        pytest.skip(f"pkg-config knows no {library.package} (scripts/install-system-packages.sh installs it)")
    return shlex.split(found.stdout)


def header_path(library: Library, flags: list[str]) -> Path:
    for folder in [*(flag[2:] for flag in flags), "/usr/include", "/usr/include/x86_64-linux-gnu"]:
        if (Path(folder) / library.header).exists():
            return Path(folder) / library.header
    pytest.skip(f"{library.header} is not installed (scripts/install-system-packages.sh installs it)")


@pytest.fixture(scope="module", autouse=True)
def _needs_pkg_config() -> None:
    if shutil.which("pkg-config") is None:
        pytest.fail("pkg-config is required (make test installs it)")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_library_builds_imports_and_does_its_job(name, backend, tmp_path):
    library = LIBRARIES[name]
    flags = include_flags(library)
    header = header_path(library, flags)
    # -O0: what is tested is that the module builds and works; the optimiser only takes time
    # (libxml2's Cython module: 80 s at -O2, 14 s at -O0)
    result = run_pegbind("build", str(header), "-l", library.link, *flags, "--backend", backend, "-o", str(tmp_path),
                         env={"CFLAGS": "-O0"})
    assert result.returncode == 0, result.stderr
    for line in result.stderr.splitlines():
        assert "undefined" not in line, line
        if line.startswith(" "):
            continue  # the excerpt under a located diagnostic
        assert LOCATED_WARNING.match(line) or BINDING_WARNING.match(line), line
    module = header.stem
    code = f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport {module} as m\n{library.call}\n"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert re.fullmatch(library.prints, ran.stdout.strip()), ran.stdout


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_verify_agrees_with_gcc_on_everything_exposed(name, tmp_path):
    library = LIBRARIES[name]
    flags = include_flags(library)
    header = header_path(library, flags)
    result = run_pegbind("verify", str(header), *flags)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith("OK"), result.stdout
    checked = int(re.search(r"(\d+) checked", result.stdout).group(1))
    assert checked > 20
