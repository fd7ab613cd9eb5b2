"""Real Debian libraries, bound as a new user would: nothing but ``-l`` and ``pkg-config``'s ``-I``.

Each library is built with ``pegbind build HEADER -l LIB -I ...`` in every
backend, imported in a fresh interpreter and called; ``pegbind verify`` then
checks every constant and every record the binding exposes (wherever it was
declared: ``fd_set``, ``jmp_buf`` ...) against gcc.  The project's setup
installs the ``-dev`` packages (scripts/install-system-packages.sh).
"""
from __future__ import annotations

import hashlib
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import UNOPTIMISED, exclusively, one_worker_each, run_pegbind, session_folder

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
    "libxml2": Library("libxml/parser.h", "libxml-2.0", "xml2",
                       "print(m.xmlHasFeature(m.XML_WITH_TREE), m.LIBXML_DOTTED_VERSION)", r"1 2\.\d+\.\d+"),
    "curl": Library("curl/curl.h", "libcurl", "curl", "print(m.curl_version().decode())", r"libcurl/\d+\.\d+\.\d+ .*"),
    "jansson": Library("jansson.h", "jansson", "jansson", "print(m.jansson_version_str().decode())", r"2\.\d+"),
    "yaml": Library("yaml.h", "yaml-0.1", "yaml", "print(m.yaml_get_version_string().decode())", r"0\.\d+\.\d+"),
    "expat": Library("expat.h", "expat", "expat", "print(m.XML_ExpatVersion().decode())", r"expat_2\.\d+\.\d+"),
    "png": Library("png.h", "libpng", "png16", "print(m.png_access_version_number(), m.PNG_LIBPNG_VER)",
                   r"(\d+) \1"),
    # the C library's own complex.h: C99 complex values by value
    "complex": Library("complex.h", None, "m", "print(m.csqrt(-4), m.cabs(3 + 4j), m.conjf(1 + 0.5j))",
                       r"2j 5\.0 \(1-0\.5j\)"),
    "uuid": Library("uuid/uuid.h", "uuid", "uuid", textwrap.dedent("""\
        raw, text = bytearray(16), bytearray(37)
        m.uuid_generate(raw)
        m.uuid_unparse(bytes(raw), text)
        print(text[:36].decode(), m.uuid_is_null(bytes(16)), m.uuid_is_null(bytes(raw)))"""),
                    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} 1 0"),
    # the C library itself, whose libc.so is a linker script naming libc_nonshared.a beside
    # libc.so.6: nftw calls a Python function for every file, with no user-data pointer
    "ftw": Library("ftw.h", None, "c", textwrap.dedent("""\
        import os, tempfile
        top = tempfile.mkdtemp()
        os.makedirs(os.path.join(top, "a", "b"))
        open(os.path.join(top, "a", "f.txt"), "w").close()
        seen = []
        def visit(path, info, flag, ftw):
            seen.append((path.decode()[len(top):], flag, ftw.level, info.st_size if flag == m.FTW_F else None))
            return 0
        def stop(path, info, flag, ftw):
            raise KeyError("stop")
        try:
            m.nftw(top, stop, 8, m.FTW_PHYS)
        except KeyError:
            print(m.nftw(top, visit, 8, m.FTW_PHYS), sorted(seen))"""),
        r"0 \[\('', 1, 0, None\), \('/a', 1, 1, None\), \('/a/b', 1, 2, None\), \('/a/f\.txt', 0, 2, 0\)\]"),
    # regexec's 'size_t nmatch, regmatch_t pmatch[nmatch]': the submatches, in a sequence of records
    "regex": Library("regex.h", None, "c", textwrap.dedent("""\
        r = m.regex_t()
        assert m.regcomp(r, "([a-z]+)-([0-9]+)", m.REG_EXTENDED) == 0
        spans = [m.regmatch_t() for _ in range(3)]
        print(m.regexec(r, "see abc-123 here", spans, 0), [(s.rm_so, s.rm_eo) for s in spans])
        m.regfree(r)"""),
        r"0 \[\(4, 11\), \(4, 7\), \(8, 11\)\]"),
    # poll's 'struct pollfd *fds, nfds_t nfds': as many pollfd as C is told of, revents copied back
    "poll": Library("poll.h", None, "c", textwrap.dedent("""\
        import os
        r, w = os.pipe()
        os.write(w, b"x")
        fds = [m.pollfd(fd=r, events=m.POLLIN), m.pollfd(fd=w, events=m.POLLOUT)]
        print(m.poll(fds, 0), [p.revents for p in fds])"""),
        r"2 \[1, 4\]"),
    # a header in a folder of the system's (<sys/inotify.h>): the compiled modules include it as
    # sys/inotify.h, not by its name with its folder searched first, where sys/unistd.h hid unistd.h;
    # and found through libc6-dev-i386's link to libc6-dev's file, its flags in bits/ are the library's
    "inotify": Library("sys/inotify.h", None, "c", textwrap.dedent("""\
        import os, tempfile
        fd, top = m.inotify_init1(m.IN_NONBLOCK | m.IN_CLOEXEC), tempfile.mkdtemp()
        watch = m.inotify_add_watch(fd, top, m.IN_CREATE)
        open(os.path.join(top, "new.txt"), "w").close()
        data = os.read(fd, 4096)
        mask = int.from_bytes(data[4:8], sys.byteorder)
        print(watch > 0, len(data) >= m.inotify_event.sizeof, mask == m.IN_CREATE, b"new.txt" in data)
        os.close(fd)"""),
        r"True True True True"),
    # glibc's pthread.h holds a record whose typedef aligns it beyond its size (__pthread_unwind_buf_t):
    # cffi's module did not import (its cdef said 8), ctypes' rounded it to 112 bytes
    "pthread": Library("pthread.h", None, "c", textwrap.dedent("""\
        mutex = m.pthread_mutex_t()
        print(m.pthread_mutex_init(mutex, None), m.pthread_mutex_lock(mutex), m.pthread_mutex_trylock(mutex) != 0,
              m.pthread_mutex_unlock(mutex), m.pthread_mutex_destroy(mutex), m.pthread_self() != 0)"""),
        r"0 0 True 0 0 True"),
    # posix_spawnp's 'char *const argv[restrict]' and envp: lists of strings C reads to their NULL
    "spawn": Library("spawn.h", None, "c", textwrap.dedent("""\
        import os
        r, w = os.pipe()
        actions, pid = m.posix_spawn_file_actions_t(), m.c_int()
        assert m.posix_spawn_file_actions_init(actions) == 0
        assert m.posix_spawn_file_actions_adddup2(actions, w, 1) == 0
        status = m.posix_spawnp(pid, "sh", actions, None, ["sh", "-c", 'echo "$0:$1:$V"', "wörld", b"2"], ["V=3"])
        os.close(w)
        print(status, os.read(r, 100).decode().strip(), os.waitpid(pid.value, 0)[1])
        m.posix_spawn_file_actions_destroy(actions)"""),
        r"0 wörld:2:3 0"),
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


@dataclass
class Built:
    folder: Path
    module: str
    stderr: str


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """``built(name, backend, *extra)``: the library built once a session with only ``-l`` and
    ``pkg-config``'s ``-I`` (plus ``extra`` flags, such as an ownership rule), in a folder of its own.

    Once for the whole session, not per worker: under pytest-xdist the folders are shared by
    the workers (the session's temporary folder), and a lock lets the first build while the
    others wait and reuse it (libxml2's Cython module takes most of a minute)."""
    cache: dict[tuple[str, ...], Built] = {}
    shared = session_folder(tmp_path_factory, "real-library-builds")

    def build(name: str, backend: str, *extra: str) -> Built:
        key = (name, backend, *extra)
        if key not in cache:
            library = LIBRARIES[name]
            flags = include_flags(library)
            header = header_path(library, flags)
            out = shared / f"{name}-{backend}-{hashlib.sha256(repr(key).encode()).hexdigest()[:12]}"
            with exclusively(out):
                done = Path(f"{out}.stderr")
                if not done.exists():
                    # -O0: what is tested is that the module builds and works; the optimiser only takes
                    # time (libxml2's Cython module: 80 s at -O2, 14 s at -O0)
                    result = run_pegbind("build", str(header), "-l", library.link, *flags, *extra, "--backend",
                                         backend, "-o", str(out), env=UNOPTIMISED)
                    assert result.returncode == 0, result.stderr
                    done.write_text(result.stderr)
            cache[key] = Built(out, header.stem, done.read_text())
        return cache[key]

    return build


def run_with(module: Built, code: str) -> str:
    """``code`` run in a fresh interpreter with the built module imported as ``m``; its output."""
    prelude = f"import sys\nsys.path.insert(0, {str(module.folder)!r})\nimport {module.module} as m\n"
    ran = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


@pytest.mark.parametrize(("name", "backend"), [
    # the groups of one_worker_each(name): a library's other tests run where its modules are built
    pytest.param(name, backend, id=f"{name}-{backend}", marks=pytest.mark.xdist_group(f"{name}-{backend}"))
    for name in sorted(LIBRARIES) for backend in BACKENDS])
def test_library_builds_imports_and_does_its_job(name, backend, built):
    library = LIBRARIES[name]
    module = built(name, backend)
    for line in module.stderr.splitlines():
        assert "undefined" not in line, line
        if line.startswith(" "):
            continue  # the excerpt under a located diagnostic
        assert LOCATED_WARNING.match(line) or BINDING_WARNING.match(line), line
    assert re.fullmatch(library.prints, run_with(module, library.call).strip())


# ---- each library's main job, as its users do it, with nothing but -l and -I ----------

@pytest.mark.parametrize("backend", one_worker_each("sqlite3"))
def test_sqlite_opens_a_database_and_round_trips_a_row(backend, built):
    printed = run_with(built("sqlite3", backend), """
        import gc
        rc, db = m.sqlite3_open(":memory:")
        assert rc == m.SQLITE_OK, rc

        def run(sql):
            rc, stmt, tail = m.sqlite3_prepare_v2(db, sql, -1)
            assert rc == m.SQLITE_OK, m.sqlite3_errmsg(db)
            rows = []
            while (rc := m.sqlite3_step(stmt)) == m.SQLITE_ROW:
                rows.append((m.sqlite3_column_int(stmt, 0), m.sqlite3_column_text(stmt, 1)))
            assert rc == m.SQLITE_DONE, m.sqlite3_errmsg(db)
            assert m.sqlite3_finalize(stmt) == m.SQLITE_OK
            return rows

        run("CREATE TABLE t (id INTEGER, name TEXT)")
        run("INSERT INTO t VALUES (7, 'caf\u00e9')")
        print(run("SELECT id, name FROM t"))
        # a parameter bound with SQLITE_TRANSIENT: SQLite copies the text, whose bytes then go
        rc, stmt, tail = m.sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?, ?)", -1)
        assert m.sqlite3_bind_int(stmt, 1, 8) == m.SQLITE_OK
        assert m.sqlite3_bind_text(stmt, 2, "th\u00e9" + "!" * 3, -1, m.SQLITE_TRANSIENT) == m.SQLITE_OK
        gc.collect()
        assert m.sqlite3_step(stmt) == m.SQLITE_DONE and m.sqlite3_finalize(stmt) == m.SQLITE_OK

        def returning(k):  # an SQL function; each one defined keeps its own callable
            return lambda context, count, values: m.sqlite3_result_int(context, k)

        for name, k in (("one", 1), ("two", 2)):
            assert m.sqlite3_create_function(db, name, 0, m.SQLITE_UTF8, None, returning(k), None, None) == 0
        gc.collect()
        print(run("SELECT id + one() + two(), name FROM t"))
        print(m.sqlite3_close(db) == m.SQLITE_OK)
    """)
    assert printed.splitlines() == [repr([(7, "caf\u00e9".encode())]),
                                    repr([(10, "caf\u00e9".encode()), (11, "th\u00e9!!!".encode())]), "True"]


#: SQLite's documented rules: what sqlite3_mprintf returns and sqlite3_exec's error message are
#: freed with sqlite3_free; a callback that raised asks sqlite3_exec to stop (any non-zero result).
#: Only what the tests call is bound: the whole of sqlite3.h, built again, costs a minute.
SQLITE_RULES = ("--function", "sqlite3_mprintf:return=owned(sqlite3_free)",
                "--function", "sqlite3_exec:callback=on_error(1),errmsg=owned(sqlite3_free)",
                *(flag for name in ("sqlite3_open", "sqlite3_close", "sqlite3_exec", "sqlite3_errcode",
                                    "sqlite3_mprintf", "sqlite3_free", "SQLITE_*") for flag in ("--include", name)))


@pytest.mark.parametrize("backend", one_worker_each("sqlite3"))
def test_sqlite_exec_calls_back_with_each_row_and_stops_when_one_raises(backend, built):
    printed = run_with(built("sqlite3", backend, *SQLITE_RULES), """
        import gc
        rc, db = m.sqlite3_open(":memory:")
        rows = []

        def collect(user, count, values, names):
            rows.append((count, values[:count], names[:count]))
            return 0

        print(m.sqlite3_exec(db, "SELECT 1, 'x' UNION ALL SELECT 2, 'y'", collect, None))
        print(rows)
        calls = []

        def fail(user, count, values, names):
            calls.append(values[0])
            raise LookupError("no such row")

        try:
            m.sqlite3_exec(db, "SELECT 1 UNION ALL SELECT 2", fail, None)
        except LookupError as error:
            print("raised", error)
        # the callback gave sqlite3_exec a non-zero result: it stopped at once, returning SQLITE_ABORT
        print(calls, m.sqlite3_errcode(db) == m.SQLITE_ABORT)
        gc.collect()
        print(m.sqlite3_close(db))
    """)
    assert printed.splitlines() == [
        "(0, None)",
        repr([(2, [b"1", b"x"], [b"1", b"'x'"]), (2, [b"2", b"y"], [b"1", b"'x'"])]),
        "raised no such row",
        "[b'1'] True",
        "0",
    ]


@pytest.mark.parametrize("backend", one_worker_each("sqlite3"))
def test_sqlite_mprintf_formats_its_extra_arguments_into_memory_freed_by_the_rule(backend, built):
    printed = run_with(built("sqlite3", backend, *SQLITE_RULES), """
        print(m.sqlite3_mprintf("%d|%s|%.2f|%lld", 7, "x", 2.5, 2**40))
        print(m.sqlite3_mprintf("%q|%Q|%w", "it's", None, b'say "hi"').decode())
        try:
            m.sqlite3_mprintf("%s", object())
        except TypeError as error:
            print(error)
    """)
    assert printed.splitlines() == [
        "b'7|x|2.50|1099511627776'",
        "it''s|NULL|say \"\"hi\"\"",
        "argument 2 (...) must be an int, float, str, bytes, buffer, record, Pointer, FunctionPointer, cell, "
        "typed argument (c_int.arg(5)) or None, not object",
    ]


@pytest.mark.parametrize("backend", one_worker_each("expat"))
def test_expat_calls_handlers_it_keeps_while_it_parses(backend, built):
    printed = run_with(built("expat", backend), """
        import gc

        parser = m.XML_ParserCreate(None)
        seen = []

        def start(user, name, attributes):
            seen.append(name.decode())

        def end(user, name):
            seen.append("/" + name.decode())

        m.XML_SetElementHandler(parser, start, end)
        del start, end
        gc.collect()
        text = b"<root><a/></root>"
        print(m.XML_Parse(parser, text, len(text), 1) == m.XML_STATUS_OK, seen)
        m.XML_ParserFree(parser)

        # what a handler raises is raised by XML_Parse, during which expat called it
        parser = m.XML_ParserCreate(None)

        def refuse(user, name, attributes):
            raise PermissionError(name.decode())

        m.XML_SetStartElementHandler(parser, refuse)
        try:
            m.XML_Parse(parser, text, len(text), 1)
        except PermissionError as error:
            print("raised", error)
        m.XML_ParserFree(parser)
    """)
    assert printed.splitlines() == ["True ['root', 'a', '/a', '/root']", "raised root"]


@pytest.mark.parametrize("backend", one_worker_each("zlib"))
def test_zlib_writes_and_reads_a_gzip_file_and_compresses_without_packing(backend, built, tmp_path):
    printed = run_with(built("zlib", backend), f"""
        import os
        data = os.urandom(50_000) + bytes(50_000)
        out = m.gzopen({str(tmp_path / "x.gz")!r}, "wb")
        print(m.gzwrite(out, data, len(data)), m.gzclose(out) == m.Z_OK)
        back = bytearray(len(data))
        source = m.gzopen({str(tmp_path / "x.gz")!r}, "rb")
        print(m.gzread(source, back, len(back)), m.gzclose(source) == m.Z_OK, bytes(back) == data)

        dest = bytearray(m.compressBound(len(data)))
        size = m.c_ulong(len(dest))  # uLongf *destLen: a cell, no struct packing
        print(m.compress2(dest, size, data, len(data), 9) == m.Z_OK, size.value < len(data))
        again, length = bytearray(len(data)), m.c_ulong(len(data))
        print(m.uncompress(again, length, dest, size.value) == m.Z_OK, bytes(again[:length.value]) == data)
    """)
    assert printed.split() == ["100000", "True", "100000", "True", "True", "True", "True", "True", "True"]


@pytest.mark.parametrize("backend", one_worker_each("curl"))
def test_curl_makes_a_handle_and_escapes_with_an_ownership_rule(backend, built):
    module = built("curl", backend, "--function", "curl_easy_escape:return=owned(curl_free)")
    printed = run_with(module, """
        handle = m.curl_easy_init()
        print(type(handle).__name__, m.curl_easy_escape(handle, "a b", 0), m.curl_easy_escape(handle, "a b", 1))
        m.curl_easy_cleanup(handle)
    """)
    assert printed.split() == ["CURL", "b'a%20b'", "b'a'"]


@pytest.mark.parametrize("backend", one_worker_each("curl"))
def test_curl_reads_a_url_through_a_write_callback_and_reports_through_a_cell(backend, built, tmp_path):
    data = bytes(range(256)) * 400  # 100 kB: more than one call of the write callback
    source = tmp_path / "data.bin"
    source.write_bytes(data)
    module = built("curl", backend, "--function", "curl_easy_escape:return=owned(curl_free)")
    printed = run_with(module, f"""
        import gc
        handle = m.curl_easy_init()
        chunks = []

        def write(ptr, size, nmemb, user):
            chunks.append(ptr[:size * nmemb])
            return size * nmemb

        print(repr(m.curl_easy_setopt(handle, m.CURLOPT_URL, {source.as_uri()!r})))
        print(repr(m.curl_easy_setopt(handle, m.CURLOPT_WRITEFUNCTION, m.curl_write_callback(write))))
        gc.collect()  # the handle keeps the function pointer the caller dropped
        print(repr(m.curl_easy_perform(handle)), len(chunks) > 1)
        with open({str(tmp_path / "got.bin")!r}, "wb") as out:
            out.write(b"".join(chunks))
        code, size = m.c_long(-1), m.c_double(-1.0)
        print(m.curl_easy_getinfo(handle, m.CURLINFO_RESPONSE_CODE, code) == m.CURLE_OK, code.value)
        print(m.curl_easy_getinfo(handle, m.CURLINFO_SIZE_DOWNLOAD, size) == m.CURLE_OK, size.value)

        def refuse(ptr, size, nmemb, user):
            raise OSError("disk full")

        m.curl_easy_setopt(handle, m.CURLOPT_WRITEFUNCTION, m.curl_write_callback(refuse))
        try:
            m.curl_easy_perform(handle)
        except OSError as error:
            print("raised", error)
        m.curl_easy_cleanup(handle)
    """)
    assert printed.splitlines() == [
        "<CURLcode.CURLE_OK: 0>", "<CURLcode.CURLE_OK: 0>", "<CURLcode.CURLE_OK: 0> True",
        "True 0", f"True {float(len(data))}", "raised disk full",
    ]
    assert (tmp_path / "got.bin").read_bytes() == data


@pytest.mark.parametrize("backend", one_worker_each("curl"))
def test_curl_uploads_what_a_read_callback_writes_into_its_buffer(backend, built, tmp_path):
    # CURLOPT_READFUNCTION: curl gives the callable a char * and a size, and the callable
    # puts the next bytes there (a Pointer's slice assignment); a file:// upload writes them
    data = bytes(range(256)) * 200  # 50 kB: several calls of the read callback
    target = tmp_path / "up.bin"
    module = built("curl", backend, "--function", "curl_easy_escape:return=owned(curl_free)")
    printed = run_with(module, f"""
        left = bytearray(range(256)) * 200
        calls = []

        def read(buffer, size, nitems, user):
            n = min(size * nitems, len(left))
            buffer[:n] = bytes(left[:n])
            del left[:n]
            calls.append(n)
            return n

        handle = m.curl_easy_init()
        m.curl_easy_setopt(handle, m.CURLOPT_URL, {target.as_uri()!r})
        m.curl_easy_setopt(handle, m.CURLOPT_UPLOAD, 1)
        m.curl_easy_setopt(handle, m.CURLOPT_READFUNCTION, m.curl_read_callback(read))
        print(repr(m.curl_easy_perform(handle)), len(calls) > 2)
        m.curl_easy_cleanup(handle)
    """)
    assert printed.splitlines() == ["<CURLcode.CURLE_OK: 0> True"]
    assert target.read_bytes() == data


@pytest.mark.parametrize("backend", one_worker_each("png"))
def test_png_decodes_from_memory_through_a_read_function_into_rows(backend, built):
    # png_set_read_fn: libpng asks a Python function for bytes, which it writes into the
    # png_bytep it is given; png_read_image's rows (png_bytepp, which the header does not mark
    # as a list) take a list of buffers with the in-array role
    module = built("png", backend, "--function", "png_read_image:image=in-array")
    printed = run_with(module, """
        import struct, zlib

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        width, height = 3, 2
        pixels = b"".join(b"\\0" + bytes(10 * y + x for x in range(width) for _ in range(3)) for y in range(height))
        left = bytearray(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                         + chunk(b"IDAT", zlib.compress(pixels)) + chunk(b"IEND", b""))

        def read(png, data, length):
            data[:length] = bytes(left[:length])
            del left[:length]

        png = m.png_create_read_struct(m.PNG_LIBPNG_VER_STRING, None, None, None)
        info = m.png_create_info_struct(png)
        m.png_set_read_fn(png, None, read)
        m.png_read_info(png, info)
        print(m.png_get_image_width(png, info), m.png_get_image_height(png, info), m.png_get_channels(png, info))
        rows = [bytearray(width * 3) for _ in range(height)]
        m.png_read_image(png, rows)
        print([list(row) for row in rows])
    """)
    assert printed.splitlines() == ["3 2 3", "[[0, 0, 0, 1, 1, 1, 2, 2, 2], [10, 10, 10, 11, 11, 11, 12, 12, 12]]"]


@pytest.mark.parametrize("backend", one_worker_each("jansson"))
def test_jansson_loads_walks_and_dumps_and_frees_with_the_example_rules(backend, built, repo_root):
    config = repo_root / "examples" / "jansson" / "pegbind.toml"
    printed = run_with(built("jansson", backend, "-c", str(config)), """
        o = m.json_loads('{"a": [1, 2]}', 0, None)
        print(type(o).__name__, m.json_integer_value(m.json_array_get(m.json_object_get(o, "a"), 1)))
        print(m.json_dumps(o, 0))

        def resident():
            with open("/proc/self/statm") as stats:
                return int(stats.read().split()[1]) * 4096

        for _ in range(2000):
            m.json_dumps(m.json_loads('{"a": [1, 2]}', 0, None), 0)
        before = resident()
        for _ in range(200_000):
            m.json_dumps(m.json_loads('{"a": [1, 2]}', 0, None), 0)
        print((resident() - before) < 2 * 2**20)
    """)
    assert printed.splitlines() == ["json_t 2", "b'{\"a\": [1, 2]}'", "True"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_sizes_the_header_states_are_enforced(backend, built):
    printed = run_with(built("zlib", backend), """
        try:
            m.crc32(0, b"abc", 10**9)
        except ValueError as error:
            print(error)
    """) + run_with(built("uuid", backend), """
        try:
            m.uuid_generate(memoryview(bytearray(32))[0:1])
        except ValueError as error:
            print(error)
    """)
    assert printed.splitlines() == [
        "argument 3 (len_): 1000000000 is more than argument 2 (buf) holds (3 bytes)",
        "argument 1 (out) needs at least 16 bytes, got 1",
    ]


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
