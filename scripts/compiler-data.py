"""Write what a compiler predefines and answers, as pegbind stands in for it: pegbind/data/compilers/TARGET.json.

Run once per target from the repository root, with that target's compiler installed:

    python scripts/compiler-data.py linux-x86_64 gcc
    python scripts/compiler-data.py linux-i386 gcc -m32
    python scripts/compiler-data.py linux-aarch64 aarch64-linux-gnu-gcc
    python scripts/compiler-data.py win-x86_64 x86_64-w64-mingw32-gcc

Each file holds:

- ``predefined``: every macro ``CC -dM -E`` prints for an empty file, as ``#define`` would
  take it (``"__INT8_C(c)": "c"``).  ``-nostdinc`` keeps out the C library's implicit
  ``stdc-predef.h``: pegbind reads that from the system as it reads the other headers of
  the C library.
- ``builtins``: the names ``__has_builtin`` is 1 for;
- ``attributes`` and ``c_attributes``: the names ``__has_attribute`` and ``__has_c_attribute``
  are not 0 for, with their values.

The names tried are the identifiers in the compiler proper (``cc1``), the standard
attributes and the ``gnu::`` spellings of the attributes found; the compiler answers for
each in one run of ``CC -E``.  ``tests/test_compiler_data.py`` compares the files with the
compilers that are installed.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "pegbind" / "data" / "compilers"
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DEFINE = re.compile(r"^#define (\S+?(?:\([^)]*\))?)(?: (.*))?$")
#: the attributes C23 names (``__has_c_attribute`` answers for them in C mode)
STANDARD_ATTRIBUTES = ("deprecated", "fallthrough", "maybe_unused", "nodiscard", "noreturn", "_Noreturn",
                       "reproducible", "unsequenced")


def run(cc: list[str], source: str) -> str:
    return subprocess.run([*cc, "-nostdinc", "-E", "-P", "-x", "c", "-"], input=source, capture_output=True,
                          text=True, check=True).stdout


def predefined(cc: list[str]) -> dict[str, str]:
    text = subprocess.run([*cc, "-nostdinc", "-dM", "-E", "-x", "c", "/dev/null"], capture_output=True, text=True,
                          check=True).stdout
    table = {}
    for line in text.splitlines():
        match = DEFINE.match(line)
        if match is None:
            raise SystemExit(f"cannot read {line!r}")
        table[match.group(1)] = match.group(2) or ""
    return dict(sorted(table.items()))


def candidates(cc: list[str], macros: dict[str, str]) -> list[str]:
    """The identifiers of cc1, but for macros (an operator's argument is expanded: a macro's name
    is not asked about) and the operators themselves."""
    cc1 = subprocess.run([*cc, "-print-prog-name=cc1"], capture_output=True, text=True, check=True).stdout.strip()
    words = subprocess.run(["strings", cc1], capture_output=True, text=True, check=True).stdout.split()
    macro_names = {name.split("(")[0] for name in macros}
    operators = {"defined", "__has_include", "__has_include_next", "__has_attribute", "__has_cpp_attribute",
                 "__has_c_attribute", "__has_builtin", "_Pragma", "__VA_ARGS__", "__VA_OPT__",
                 # the macros -dM does not print, whose value is where or when they expand
                 "__FILE__", "__LINE__", "__COUNTER__", "__INCLUDE_LEVEL__", "__BASE_FILE__", "__FILE_NAME__",
                 "__DATE__", "__TIME__", "__TIMESTAMP__"}
    found = {w for w in words if IDENTIFIER.match(w)} | set(STANDARD_ATTRIBUTES)
    return sorted(found - macro_names - operators)


def answered(cc: list[str], operator: str, names: list[str]) -> list[str]:
    """The names ``operator(name)`` is true for, in one run."""
    source = "".join(f"#if {operator}({name})\n{name.replace('::', '__SCOPE__')}\n#endif\n" for name in names)
    return [line.replace("__SCOPE__", "::") for line in run(cc, source).split()]


def values(cc: list[str], operator: str, names: list[str]) -> dict[str, int]:
    """The value of ``operator(name)`` for each name it is true for, bit by bit, in one run."""
    true = answered(cc, operator, names)
    source = "".join(
        f"#if {operator}({name}) & {1 << bit}\nB_{index}_{bit}\n#endif\n"
        for index, name in enumerate(true) for bit in range(31)
    )
    found = {name: 0 for name in true}
    for word in run(cc, source).split():
        _, index, bit = word.split("_")
        found[true[int(index)]] |= 1 << int(bit)
    return dict(sorted(found.items()))


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    target, cc = argv[0], argv[1:]
    version = subprocess.run([*cc, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    macros = predefined(cc)
    names = candidates(cc, macros)
    attributes = values(cc, "__has_attribute", names)
    scoped = [f"gnu::{name}" for name in attributes] + list(STANDARD_ATTRIBUTES)
    data = {
        "compiler": version,
        "command": " ".join(cc),
        "predefined": macros,
        "builtins": answered(cc, "__has_builtin", names),
        "attributes": attributes,
        "c_attributes": values(cc, "__has_c_attribute", scoped),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{target}.json").write_text(json.dumps(data, indent=0, sort_keys=False) + "\n")
    print(f"{target}: {len(data['predefined'])} macros, {len(data['builtins'])} builtins, "
          f"{len(attributes)} attributes, {len(data['c_attributes'])} C attributes ({version})")


if __name__ == "__main__":
    main(sys.argv[1:])
