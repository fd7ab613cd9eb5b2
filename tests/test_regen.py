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


def _aged(path, seconds_ago):
    import os
    import time

    then = time.time() - seconds_ago
    os.utime(path, (then, then))


def _files(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_the_cache_keeps_the_most_recently_used_entries_and_none_unused_for_long(tmp_path, monkeypatch):
    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regen, "KEEP", 3)
    runs, facts = tmp_path / "cache" / "runs", tmp_path / "cache" / "facts"
    runs.mkdir(parents=True)
    facts.mkdir()
    for age, name in enumerate("abcde"):  # a used last, e first
        (runs / f"{name}.json").write_text("{}")
        _aged(runs / f"{name}.json", 60 * (age + 1))
    (facts / "old.json").write_text("{}")
    _aged(facts / "old.json", regen.UNUSED + 60)
    (facts / "recent.json").write_text("{}")
    (tmp_path / "in.h").write_text("int f(void);\n")
    regen.store("new", [tmp_path / "in.h"], [tmp_path], [], [], [])
    # the three most recently used stay, whatever their age; an entry unused for long goes
    assert _files(runs) == ["a.json", "b.json", "new.json"]
    assert _files(facts) == ["recent.json"]


def test_an_entry_found_valid_counts_as_used(tmp_path, monkeypatch):
    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regen, "KEEP", 1)
    (tmp_path / "in.h").write_text("int f(void);\n")
    regen.remember("old", 1, [tmp_path / "in.h"])
    regen.remember("newer", 2, [tmp_path / "in.h"])
    facts = tmp_path / "cache" / "facts"
    _aged(facts / "old.json", 120)
    _aged(facts / "newer.json", 60)
    _aged(tmp_path / "cache" / ".tidied", regen.PRUNE_EVERY + 60)
    assert regen.recall("old") == 1  # used now: the most recent
    regen.tidy()
    assert _files(facts) == ["old.json"]


def test_the_cache_is_looked_through_once_a_day(tmp_path, monkeypatch):
    from pegbind import regen

    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(regen, "KEEP", 1)
    runs = tmp_path / "cache" / "runs"
    (tmp_path / "in.h").write_text("int f(void);\n")
    regen.store("first", [tmp_path / "in.h"], [tmp_path], [], [], [])  # looked through: nothing to remove
    _aged(runs / "first.json", 60)
    regen.store("second", [tmp_path / "in.h"], [tmp_path], [], [], [])
    assert _files(runs) == ["first.json", "second.json"]  # not a day since
    _aged(tmp_path / "cache" / ".tidied", regen.PRUNE_EVERY + 60)
    _aged(runs / "second.json", 30)
    regen.store("third", [tmp_path / "in.h"], [tmp_path], [], [], [])
    assert _files(runs) == ["third.json"]


def test_the_cache_keeps_a_few_recently_used_parsers_of_each_grammar(tmp_path, monkeypatch):
    from pegbind import peg, regen

    cache = tmp_path / "cache"
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(cache))
    cache.mkdir()
    # other texts of the grammar, other Pythons: written before, used less recently
    for index in range(regen.GRAMMAR_VERSIONS + 2):
        for grammar in ("tokens", "cexpr"):
            (cache / f"{grammar}-old{index}.parser.marshal").write_bytes(b"")
            _aged(cache / f"{grammar}-old{index}.parser.marshal", 60 * (index + 2))
    (cache / ".cexpr-x.parser.marshal.abc.tmp").write_bytes(b"")  # a writer stopped half-way
    _aged(cache / ".cexpr-x.parser.marshal.abc.tmp", regen.PRUNE_EVERY + 60)
    (cache / "notes.txt").write_text("the folder may be shared")
    (cache / "elsewhere").mkdir()
    (cache / "elsewhere" / "old.json").write_text("{}")
    _aged(cache / "elsewhere" / "old.json", regen.UNUSED + 60)
    path = peg._cache_file("tokens", "a grammar text")
    peg._store(path, compile("x = 1", "<t>", "exec"))
    _aged(path, 60)
    _aged(cache / ".tidied", regen.PRUNE_EVERY + 60)
    assert peg._load(path) is not None  # in use: the most recent
    regen.tidy()
    kept = _files(cache)
    assert path.name in kept
    assert [n for n in kept if n.startswith("tokens-")] == sorted(
        [path.name] + [f"tokens-old{i}.parser.marshal" for i in range(regen.GRAMMAR_VERSIONS - 1)])
    assert [n for n in kept if n.startswith("cexpr-")] == [
        f"cexpr-old{i}.parser.marshal" for i in range(regen.GRAMMAR_VERSIONS)]
    assert "notes.txt" in kept and (cache / "elsewhere" / "old.json").exists()  # not pegbind's
    assert not (cache / ".cexpr-x.parser.marshal.abc.tmp").exists()


def test_compiled_templates_are_kept_by_last_use_and_an_emptied_folder_goes(tmp_path, monkeypatch):
    from pegbind import regen
    from pegbind.backends import get_backend
    from pegbind.emit import env

    def load():
        environment = env.make_environment()
        environment.filters.update(get_backend("ctypes").filters)
        environment.get_template("ctypes/ctypes.py.jinja")

    cache = tmp_path / "cache"
    monkeypatch.setenv("PEGBIND_CACHE_DIR", str(cache))
    env._bytecode_cache.cache_clear()
    monkeypatch.setattr(regen, "KEEP", 2)
    try:
        load()
        (compiled,) = [p for p in cache.glob("templates-*/*") if not p.name.startswith(".")]
        for age, name in enumerate(("a.cache", "b.cache")):  # other templates, compiled before, used since
            (compiled.parent / name).write_bytes(b"")
            _aged(compiled.parent / name, 60 + 30 * age)
        _aged(compiled, 120)
        stale = cache / "templates-0000000000000000"  # another pegbind's, unused for long
        stale.mkdir()
        (stale / "x.cache").write_bytes(b"")
        _aged(stale / "x.cache", regen.UNUSED + 60)
        load()  # from the cache: used now
        (cache / ".tidied").unlink(missing_ok=True)  # never looked through yet
        regen.tidy()
        assert _files(compiled.parent) == sorted([compiled.name, "a.cache"])
        assert not stale.exists()
    finally:
        env._bytecode_cache.cache_clear()


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
