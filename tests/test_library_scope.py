"""What belongs to the library being bound, and what is only read to understand it.

By default a binding exposes the declarations of the named headers, of the
headers in their folders and in the -I folders, and of those they include with
quotes from their own folder; the C library's and other packages' headers
are read (their types are emitted where a bound declaration needs them) but
not bound.  ``bind_headers`` globs widen or narrow that.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_pegbind
from pegbind.cli import main
from pegbind.config import BindingConfig
from pegbind.passes.select import select_declarations
from pegbind.pipeline import read_binding


def dump(capsys, *args: str) -> dict:
    assert main(["dump", *args]) == 0
    return json.loads(capsys.readouterr().out)


def needs(*paths: str) -> None:
    for path in paths:
        if not Path(path).exists():
            pytest.skip(f"{path} is not installed (scripts/install-system-packages.sh installs it)")


LEAKY = """\
#include <netdb.h>
#include <pthread.h>
#include <setjmp.h>
#define MYLIB_MAX 4
int mylib_call(struct addrinfo *hints, jmp_buf env);
"""


def test_the_c_library_is_read_but_not_bound(tmp_path, capsys):
    header = tmp_path / "mylib.h"
    header.write_text(LEAKY)
    found = dump(capsys, str(header))
    assert list(found["functions"]) == ["mylib_call"]
    assert list(found["constants"]) == ["MYLIB_MAX"]
    assert found["records"] == {} and found["typedefs"] == {}
    # ... but what the bound function takes comes along, wherever it was declared
    config = BindingConfig(name="mylib", headers=(header,))
    bound = select_declarations(read_binding(config).module, config)
    assert [f.name for f in bound.functions] == ["mylib_call"]
    assert {"struct addrinfo", "struct __jmp_buf_tag"} <= {r.key for r in bound.records}
    assert not {"herror", "getnameinfo", "pthread_create", "__sigsetjmp"} & {f.name for f in bound.functions}


def test_library_folders_and_quoted_includes_belong_to_the_library(tmp_path, capsys):
    (tmp_path / "include" / "mylib").mkdir(parents=True)
    (tmp_path / "include" / "mylib" / "mylib.h").write_text(
        '#include "mylib_conf.h"\n#include <mylib/extra.h>\n#include <other/other.h>\nint mylib_f(void);\n')
    (tmp_path / "include" / "mylib" / "mylib_conf.h").write_text("#define MYLIB_CONF 1\n")
    (tmp_path / "include" / "mylib" / "extra.h").write_text("#define MYLIB_EXTRA 2\nint mylib_extra(void);\n")
    (tmp_path / "other" / "other").mkdir(parents=True)
    (tmp_path / "other" / "other" / "other.h").write_text("#define OTHER 3\nint other_f(void);\n")
    found = dump(capsys, str(tmp_path / "include" / "mylib" / "mylib.h"), "-I", str(tmp_path / "include"),
                 "-I", str(tmp_path / "other"))
    assert set(found["constants"]) == {"MYLIB_CONF", "MYLIB_EXTRA", "OTHER"}  # -I folders are the library's
    found = dump(capsys, str(tmp_path / "include" / "mylib" / "mylib.h"), "-I", str(tmp_path / "include"),
                 "-I", str(tmp_path / "other"), "--bind-header", "!*/other/*")
    assert set(found["constants"]) == {"MYLIB_CONF", "MYLIB_EXTRA"}
    assert set(found["functions"]) == {"mylib_f", "mylib_extra"}


def test_bind_headers_widens_and_narrows(tmp_path, capsys):
    header = tmp_path / "mylib.h"
    header.write_text(LEAKY)
    found = dump(capsys, str(header), "--bind-header", "netdb.h")
    assert {"mylib_call", "getaddrinfo", "herror"} <= set(found["functions"])
    assert "pthread_create" not in found["functions"]
    found = dump(capsys, str(header), "--bind-header", "netdb.h", "--bind-header", "!*/netdb.h")
    assert list(found["functions"]) == ["mylib_call"]
    found = dump(capsys, str(header), "--bind-header", "!mylib.h")
    assert found["functions"] == {} and found["constants"] == {}


def test_bind_headers_is_a_config_key(tmp_path, capsys):
    header = tmp_path / "mylib.h"
    header.write_text(LEAKY)
    (tmp_path / "pegbind.toml").write_text('name = "mylib"\nheaders = ["mylib.h"]\nbind_headers = ["netdb.h"]\n')
    found = dump(capsys, "--config", str(tmp_path / "pegbind.toml"))
    assert "herror" in found["functions"]
    (tmp_path / "pegbind.toml").write_text('name = "mylib"\nheaders = ["mylib.h"]\nbind_headers = [1]\n')
    assert main(["dump", "--config", str(tmp_path / "pegbind.toml")]) == 1
    assert "bind_headers: expected a string or a list of strings" in capsys.readouterr().err


def test_zlib_keeps_its_configuration_header(capsys):
    needs("/usr/include/zlib.h")
    found = dump(capsys, "/usr/include/zlib.h")
    assert found["constants"]["MAX_WBITS"]["header"] == "zconf.h"
    assert "deflate" in found["functions"] and "read" not in found["functions"]


def test_pcap_binds_its_own_angle_bracket_headers_and_not_netdb(capsys):
    needs("/usr/include/pcap/pcap.h")
    found = dump(capsys, "/usr/include/pcap/pcap.h")
    assert found["constants"]["DLT_EN10MB"]["header"] == "dlt.h"
    assert {name for name in found["constants"] if name.startswith("BPF_")}
    assert "bpf_filter" in found["functions"] and "pcap_open_live" in found["functions"]
    assert not {"herror", "getnameinfo", "ruserok", "select"} & set(found["functions"])


def test_libxml2_does_not_bind_icu_or_iconv(capsys):
    needs("/usr/include/libxml2/libxml/parser.h")
    found = dump(capsys, "/usr/include/libxml2/libxml/parser.h", "-I", "/usr/include/libxml2")
    assert "xmlReadMemory" in found["functions"]
    assert not [name for name in found["functions"] if name.startswith(("u_", "ucnv_", "iconv"))]


def test_a_packaged_library_is_its_packages_files(capsys):
    # ffi.h includes <ffitarget.h> from the same system folder: both are libffi-dev's
    needs("/usr/include/x86_64-linux-gnu/ffi.h", "/usr/bin/dpkg-query")
    found = dump(capsys, "/usr/include/x86_64-linux-gnu/ffi.h")
    assert found["constants"]["FFI_TRAMPOLINE_SIZE"]["header"] == "ffitarget.h"
    assert "ffi_call" in found["functions"] and "malloc" not in found["functions"]


def test_an_include_folder_of_another_package_does_not_join_a_packaged_library(capsys):
    # NSS's pkcs11.h, libnss3-dev's, read with -I of libnspr4-dev's folder: NSPR's headers are read
    # for their types, as xmlsec's are with libxml2's folder, and not bound
    needs("/usr/include/nss/pkcs11.h", "/usr/include/nspr/prtypes.h", "/usr/bin/dpkg-query")
    found = dump(capsys, "/usr/include/nss/pkcs11.h", "-I", "/usr/include/nss", "-I", "/usr/include/nspr")
    assert "CKR_OK" in found["constants"] and "CKM_SHA256" in found["constants"]
    assert not [name for name in found["constants"] if name.startswith("PR_")]


FAKE_STATUS = """\
Package: fakesock-dev
Status: install ok installed
Architecture: all
Version: 1.0
Maintainer: nobody <nobody@example.org>
Description: a package that owns one header of the C library's folder

"""


def test_a_package_in_a_c_library_folder_does_not_take_the_folder(tmp_path, capsys, monkeypatch):
    # A library's header in sys/ (ALSA's sys/asoundlib.h) must not make every sys/ header
    # of the C library its own: the package says which files are the library's.
    header = "/usr/include/x86_64-linux-gnu/sys/socket.h"
    needs(header, "/usr/bin/dpkg-query")
    admin = tmp_path / "dpkg"
    (admin / "info").mkdir(parents=True)
    (admin / "updates").mkdir()
    (admin / "status").write_text(FAKE_STATUS)
    (admin / "available").write_text("")
    (admin / "info" / "fakesock-dev.list").write_text(f"/.\n/usr\n{header}\n")
    monkeypatch.setenv("DPKG_ADMINDIR", str(admin))
    from pegbind.packages import _package_files
    _package_files.cache_clear()
    try:
        found = dump(capsys, header)
    finally:
        _package_files.cache_clear()
    assert {"socket", "bind", "connect"} <= set(found["functions"])
    assert not {"select", "pselect"} & set(found["functions"])  # sys/select.h is not the package's


def test_what_only_a_left_out_function_needed_leaves_no_warning_behind(tmp_path):
    # vlog is left out (va_list): glibc's records that came with <signal.h> go too, silently
    header = tmp_path / "quiet.h"
    header.write_text("#include <signal.h>\n#include <stdarg.h>\nint vlog(const char *f, va_list a);\nint plain(int x);\n")
    result = run_pegbind("generate", str(header), "--backend", "ctypes", "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"{header}:3:5: warning: function 'vlog' is not wrapped: parameter 2 (a): va_list has no default Python "
        "conversion",
    ]


def test_a_binding_of_nothing_says_so_and_why(tmp_path):
    # a header of one's own that only includes the C library's: all of it is read for its
    # types only, and the module was written empty without a word
    header = tmp_path / "mine.h"
    header.write_text("#include <glob.h>\n#include <fnmatch.h>\n")
    result = run_pegbind("generate", str(header), "-l", "c", "--backend", "ctypes", "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "warning: nothing to bind: mine.h declares no function, constant, record or enum of its own, and what it "
        "includes from other packages (the C library's, say) is read for its types only: name those headers, or "
        "bind them with bind_headers (--bind-header GLOB)",
    ]
    result = run_pegbind("generate", str(header), "-l", "c", "--backend", "ctypes", "-o", str(tmp_path / "bound"),
                         "--bind-header", "glob.h", "--bind-header", "fnmatch.h")
    assert result.returncode == 0 and "nothing to bind" not in result.stderr, result.stderr
    assert "def fnmatch(" in (tmp_path / "bound" / "mine.py").read_text()
    empty = tmp_path / "empty.h"
    empty.write_text("/* nothing yet */\n")
    result = run_pegbind("generate", str(empty), "--backend", "ctypes", "-o", str(tmp_path / "empty"))
    assert result.stderr.splitlines() == ["warning: nothing to bind: empty.h declares no function, constant, "
                                          "record or enum"]
    # names to bind that leave out every one the header declares: said so, not that it declares none
    declaring = tmp_path / "md.h"
    declaring.write_text("int md_init(void);\nint md_update(int);\n#define MD_SIZE 16\n")
    result = run_pegbind("generate", str(declaring), "--backend", "ctypes", "-o", str(tmp_path / "md"),
                         "--include", "nothing*", "--exclude", "md_*")
    assert result.stderr.splitlines() == ["warning: nothing to bind: md.h declares 3 functions and constants, and "
                                          "--include 'nothing*' and --exclude 'md_*' leave out every one"]


def test_dpkg_is_asked_once_while_its_database_is_unchanged(tmp_path, monkeypatch):
    from pegbind import packages

    admin = tmp_path / "dpkg"
    admin.mkdir()
    (admin / "status").write_text(FAKE_STATUS)
    monkeypatch.setenv("DPKG_ADMINDIR", str(admin))
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    asked = []
    monkeypatch.setattr(packages, "_ask_dpkg", lambda paths: asked.append(paths) or frozenset({"/usr/include/x.h"}))

    def files():
        packages._package_files.cache_clear()  # as a new process would start
        return packages.package_files(["/usr/include/x.h"])

    assert files() == files() == frozenset({"/usr/include/x.h"}) and len(asked) == 1
    (admin / "status").write_text(FAKE_STATUS + "\n")  # a package installed or removed
    assert files() == frozenset({"/usr/include/x.h"}) and len(asked) == 2
    packages._package_files.cache_clear()
