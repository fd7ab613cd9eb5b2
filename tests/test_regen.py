"""The regeneration cache: an unchanged ``generate``/``build`` answers from disk, any change runs again."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_pegbind


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "inc").mkdir()
    (tmp_path / "late").mkdir()
    (tmp_path / "m.h").write_text('#include "part.h"\nint f(int x);\nPART g(PART x);\n')
    (tmp_path / "late" / "part.h").write_text("typedef int PART;\n")
    (tmp_path / "cache").mkdir()
    return tmp_path


def generate(project: Path, *extra: str) -> tuple[str, str, bool]:
    """(stdout, stderr without -v's log, whether the run was answered from the cache)."""
    result = run_pegbind("generate", "m.h", "-I", "inc", "-I", "late", "--backend", "ctypes", "-o", "out", "-v",
                         *extra, cwd=project, env={"PEGBIND_CACHE_DIR": str(project / "cache")})
    assert result.returncode == 0, result.stderr
    log = [line for line in result.stderr.splitlines() if line.startswith("pegbind: ")]
    said = "\n".join(line for line in result.stderr.splitlines() if not line.startswith("pegbind: "))
    return result.stdout, said, not any(line.startswith("pegbind: preprocessed") for line in log)


def test_an_unchanged_generate_answers_from_the_cache_and_rewrites_nothing(project):
    first, said, cached = generate(project)
    assert not cached and "out/m.py" in first
    stamps = {p: p.stat().st_mtime_ns for p in (project / "out").iterdir()}
    again, said_again, cached = generate(project)
    assert cached and (again, said_again) == (first, said)
    assert {p: p.stat().st_mtime_ns for p in (project / "out").iterdir()} == stamps


@pytest.mark.parametrize("change", ["included header", "define", "config", "template", "output", "shadowing header"])
def test_any_input_that_changes_the_output_runs_again(project, change, tmp_path_factory):
    extra: list[str] = []
    templates = tmp_path_factory.mktemp("templates")
    (templates / "ctypes").mkdir()
    if change == "template":
        extra = ["--templates", str(templates)]
    if change == "config":
        (project / "pegbind.toml").write_text('name = "m"\nheaders = ["m.h"]\ninclude_dirs = ["inc", "late"]\n')
        extra = ["-c", "pegbind.toml"]
    generate(project, *extra)
    assert generate(project, *extra)[2], "the second run was not answered from the cache"
    if change == "included header":
        (project / "late" / "part.h").write_text("typedef long PART;\n")
    elif change == "define":
        extra += ["-D", "EXTRA=1"]
    elif change == "config":
        (project / "pegbind.toml").write_text('name = "m"\nheaders = ["m.h"]\ninclude_dirs = ["inc", "late"]\n'
                                              'exclude = ["g"]\n')
    elif change == "template":
        (templates / "ctypes" / "unused.jinja").write_text("{# a template of the user's #}\n")
    elif change == "output":
        (project / "out" / "m.py").write_text("# edited by hand\n")
    elif change == "shadowing header":
        (project / "inc" / "part.h").write_text("typedef short PART;\n")  # found before late/part.h now
    out, _, cached = generate(project, *extra)
    assert not cached
    text = (project / "out" / "m.py").read_text()
    assert "edited by hand" not in text
    if change in ("included header", "shadowing header"):
        assert ("c_long" if change == "included header" else "c_short") in text


def test_a_damaged_entry_is_a_miss_and_an_empty_cache_setting_turns_it_off(project):
    generate(project)
    (entry,) = (project / "cache" / "runs").glob("*.json")
    entry.write_text(json.dumps({"format": 1, "read": "nonsense"})[:20])
    assert not generate(project)[2]
    assert generate(project)[2]
    result = run_pegbind("generate", "m.h", "-I", "inc", "-I", "late", "--backend", "ctypes", "-o", "out", "-v",
                         cwd=project, env={"PEGBIND_CACHE_DIR": ""})
    assert result.returncode == 0 and "pegbind: preprocessed" in result.stderr


def test_an_unchanged_build_answers_from_the_cache_until_the_compiler_flags_change(project):
    def build(**env: str) -> tuple[str, bool]:
        result = run_pegbind("build", "m.h", "-I", "late", "--backend", "cffi", "-o", "out", "-v", cwd=project,
                             env={"PEGBIND_CACHE_DIR": str(project / "cache"), "CFLAGS": "-O0", **env})
        assert result.returncode == 0, result.stderr
        return result.stdout, "pegbind: preprocessed" not in result.stderr

    first, cached = build()
    assert not cached and first.strip().endswith("out/m.py")
    assert build() == (first, True)
    assert build(CFLAGS="-O1") == (first, False)
    # the compiled module is part of what the build wrote: gone, it is built again
    for module in (project / "out").glob("_m_cffi.*.so"):
        module.unlink()
    assert build(CFLAGS="-O1") == (first, False)
    assert list((project / "out").glob("_m_cffi.*.so"))


def test_entries_unused_for_long_are_pruned_once_there_are_many(tmp_path, monkeypatch):
    import os
    import time

    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regen, "KEEP", 3)
    runs = tmp_path / "cache" / "runs"
    runs.mkdir(parents=True)
    long_ago = time.time() - regen.UNUSED - 60
    for name in ("a", "b", "c"):
        (runs / f"{name}.json").write_text("{}")
        os.utime(runs / f"{name}.json", (long_ago, long_ago))
    (tmp_path / "in.h").write_text("int f(void);\n")
    regen.store("new", [tmp_path / "in.h"], [tmp_path], [], [], [])
    assert sorted(p.stem for p in runs.glob("*.json")) == ["new"]


def test_the_folder_is_looked_through_for_old_entries_once_a_day(tmp_path, monkeypatch):
    import os
    import time

    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regen, "KEEP", 1)
    runs = tmp_path / "cache" / "runs"
    (tmp_path / "in.h").write_text("int f(void);\n")
    regen.store("first", [tmp_path / "in.h"], [tmp_path], [], [], [])  # looked through: nothing old
    long_ago = time.time() - regen.UNUSED - 60
    for name in ("a", "b"):
        (runs / f"{name}.json").write_text("{}")
        os.utime(runs / f"{name}.json", (long_ago, long_ago))
    regen.store("second", [tmp_path / "in.h"], [tmp_path], [], [], [])
    assert sorted(p.stem for p in runs.glob("*.json")) == ["a", "b", "first", "second"]  # not a day since
    yesterday = time.time() - regen.PRUNE_EVERY - 60
    os.utime(runs / ".pruned", (yesterday, yesterday))
    regen.store("third", [tmp_path / "in.h"], [tmp_path], [], [], [])
    assert sorted(p.stem for p in runs.glob("*.json")) == ["first", "second", "third"]


def test_a_file_a_valid_entry_recorded_is_not_hashed_again_unless_it_changed(tmp_path, monkeypatch):
    import hashlib
    import os

    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regen, "_known_digests", {})
    library = tmp_path / "libx.so"
    library.write_bytes(b"\x7fELF symbols")
    regen.remember("symbols", ["f"], [library])
    regen._known_digests.clear()  # a new process: it knows the file only from the fact's entry
    assert regen.recall("symbols") == ["f"]

    hashed: list[str] = []
    real = regen._digest
    monkeypatch.setattr(regen, "_digest", lambda path: hashed.append(str(path)) or real(path))
    regen.store("run", [library], [], [], [], [])
    assert hashed == []
    entry = json.loads((tmp_path / "cache" / "runs" / "run.json").read_text())
    assert entry["read"][0][3] == hashlib.sha256(library.read_bytes()).hexdigest()

    library.write_bytes(b"\x7fELF symbols, more of them")  # another size, another time
    os.utime(library, ns=(1, 1))
    regen.store("run", [library], [], [], [], [])
    assert hashed == [str(library)]
    entry = json.loads((tmp_path / "cache" / "runs" / "run.json").read_text())
    assert entry["read"][0][3] == hashlib.sha256(library.read_bytes()).hexdigest()
    assert regen.recall("symbols") is None  # the fact it was worked out from changed


def test_what_a_run_wrote_is_hashed_again_only_where_its_time_changed(tmp_path, monkeypatch):
    import os

    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    header, written = tmp_path / "in.h", tmp_path / "out.py"
    header.write_text("int f(void);\n")
    written.write_text("def f(): ...\n")
    regen.store("run", [header], [], [written], ["out.py"], [])
    hashed: list[str] = []
    real = regen._digest
    monkeypatch.setattr(regen, "_digest", lambda path: hashed.append(str(path)) or real(path))
    assert regen.lookup("run") == (["out.py"], [])
    assert hashed == []
    stat = written.stat()
    os.utime(written, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # touched, the same content
    assert regen.lookup("run") == (["out.py"], [])
    assert hashed == [str(written)]
    written.write_text("def f(): return 1\n")  # edited by hand
    assert regen.lookup("run") is None
