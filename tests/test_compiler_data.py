"""pegbind/data/compilers: what each target's compiler predefines and answers, against that compiler.

Each file was written by scripts/compiler-data.py from the real compiler; where the
compiler is installed here, the test asks it again and compares everything.  The
preprocessor's use of the data is checked token for token against gcc -E in
tests/test_preprocess_gcc.py (tests/pp/gcc_compiler_answers.h).
"""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from pegbind.preprocess import preprocess
from pegbind.resources import target_names
from pegbind.target import TARGETS, compiler_facts

_spec = importlib.util.spec_from_file_location("compiler_data", ROOT / "scripts" / "compiler-data.py")
assert _spec is not None and _spec.loader is not None
compiler_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiler_data)

#: the compiler each target's data came from
COMPILERS = {
    "linux-x86_64": ["gcc"],
    "linux-i386": ["gcc", "-m32"],
    "linux-aarch64": ["aarch64-linux-gnu-gcc"],
    "win-x86_64": ["x86_64-w64-mingw32-gcc"],
}


def _installed(cc: list[str]) -> bool:
    if shutil.which(cc[0]) is None:
        return False
    probe = subprocess.run([*cc, "-nostdinc", "-E", "-x", "c", "/dev/null"], capture_output=True)
    return probe.returncode == 0


def test_every_target_has_its_compilers_data():
    # the CLI lists the targets by their data files, without importing pegbind.target
    assert set(COMPILERS) == set(TARGETS) == set(target_names())
    for name in TARGETS:
        facts = compiler_facts(name)
        assert facts.compiler and len(facts.predefined) > 300 and len(facts.builtins) > 900
        assert facts.predefined["__GNUC__"] == "12"


@pytest.mark.parametrize("target", sorted(COMPILERS))
def test_the_data_is_what_the_compiler_says(target):
    cc = COMPILERS[target]
    if not _installed(cc):
        pytest.skip(f"{' '.join(cc)} is not installed")
    facts = compiler_facts(target)
    version = subprocess.run([*cc, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    if version != facts.compiler:
        pytest.skip(f"the data is {facts.compiler!r}'s, this is {version!r}")
    macros = compiler_data.predefined(cc)
    assert dict(facts.predefined) == macros
    names = compiler_data.candidates(cc, macros)
    assert sorted(facts.builtins) == compiler_data.answered(cc, "__has_builtin", names)
    assert dict(facts.attributes) == compiler_data.values(cc, "__has_attribute", names)


def _defined(tmp_path: Path, text: str, target: str = "linux-x86_64") -> dict[str, str]:
    (tmp_path / "t.h").write_text(text)
    result = preprocess([tmp_path / "t.h"], target=target)
    assert not result.diagnostics
    return {name: " ".join(t.text for t in m.body) for name, m in result.macros.definitions.items()
            if name.startswith("R_")}


def test_the_issue_s_missing_macros_and_answers(tmp_path):
    found = _defined(tmp_path, "\n".join([
        "#if defined(__GNUC_STDC_INLINE__)", "#define R_STDC_INLINE 1", "#endif",
        "#if __has_builtin(__builtin_mul_overflow)", "#define R_MUL_OVERFLOW 1", "#endif",
        "#if defined(__SSE__) && defined(__SSE2__) && defined(__MMX__)", "#define R_SSE 1", "#endif",
        "#define R_FLOAT128 __SIZEOF_FLOAT128__",
        "#if __FLT_MANT_DIG__ == 24 && __DBL_MAX_EXP__ == 1024 && __ATOMIC_SEQ_CST == 5", "#define R_FLOATS 1",
        "#endif", "",
    ]))
    assert found == {"R_STDC_INLINE": "1", "R_MUL_OVERFLOW": "1", "R_SSE": "1", "R_FLOAT128": "__SIZEOF_FLOAT128__",
                     "R_FLOATS": "1"}


def test_each_target_answers_as_its_compiler(tmp_path):
    text = "#if __has_builtin(__builtin_ia32_pause)\n#define R_X86 1\n#endif\n#if defined(_WIN32)\n#define R_WIN 1\n#endif\n"
    assert _defined(tmp_path, text, "linux-x86_64") == {"R_X86": "1"}
    assert _defined(tmp_path, text, "win-x86_64") == {"R_X86": "1", "R_WIN": "1"}
    assert _defined(tmp_path, text, "linux-aarch64") == {}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_each_predefined_macro_is_what_its_define_line_gives(target):
    """Only the replacement lists of object-like macros are lexed, each where it stands on its
    ``#define`` line: the macros, their tokens and where each was written are those of the lines."""
    from pegbind.preprocess.directives import parse_directive
    from pegbind.preprocess.engine import _predefined_macros
    from pegbind.preprocess.lexer import lex
    from pegbind.preprocess.macros import Macro

    predefines = TARGETS[target].predefines
    lines = lex("\n".join(f"#define {name} {value}" for name, value in predefines.items()), "<built-in>").lines
    expected = []
    for line in lines:
        directive = parse_directive(line)
        expected.append(Macro(directive.identifier.text, directive.params, directive.variadic,
                              tuple(directive.rest), directive.identifier.coord, "builtin"))
    made = _predefined_macros(target)
    assert made == tuple(expected)
    assert any(not macro.body for macro in made) and any(macro.params is not None for macro in made)
