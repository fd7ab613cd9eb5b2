"""pegbind's own headers checked against gcc and glibc.

Two sets, two uses.  The freestanding headers (``pegbind/include``: ``stddef.h``,
``stdint.h`` ...) are read on every target in the place of the compiler's,
before the C library's own headers; the bundled fallback of the C library's
headers (``pegbind/fallback-include``) is read, with them, only for a target
whose C library headers are not installed.  Both must describe the same ABI as
the system's.  The compiler is the oracle and the tests do not depend on
pegbind's preprocessor:

* a probe per header prints the value and C type of every object-like macro the
  header defines, and the size, alignment and kind of every typedef, record and
  record member; it is built once against the system headers and once with
  pegbind's ("hosted": the freestanding headers, then the system's C library
  headers; "alone": the freestanding and fallback headers and nothing else),
  and both outputs must agree line by line (natively, with ``-m32`` for ILP32,
  and with ``-funsigned-char`` for the plain-char signedness of aarch64);
* every prototype of ours is asserted ``__builtin_types_compatible_p`` with the
  system's declaration of the same function;
* each header compiles alone under ``-std=c99 -pedantic-errors`` and
  ``-std=c11 -Wall -Werror``, and the freestanding ones mix with glibc's headers
  (which ask for single names through ``__need_size_t`` and the like);
* for the targets we cannot compile for (aarch64, win-x86_64), the headers are
  preprocessed with exactly the predefines of :mod:`pegbind.target`, and the
  limits and typedef widths must follow that target's data model.
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pegbind.resources import fallback_include_dir, standard_include_dir
from pegbind.target import TARGETS, TargetInfo

INCLUDE = standard_include_dir()
FALLBACK = fallback_include_dir()


def _public_headers(folder: Path) -> list[str]:
    """The public headers; ``_pegbind_types.h`` is our internal helper and has no system counterpart."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.h") if not p.name.startswith("_"))


#: read on every target, in the place of the compiler's own
FREESTANDING = _public_headers(INCLUDE)
#: every bundled header: what a target without C library headers installed reads
HEADERS = sorted({*FREESTANDING, *_public_headers(FALLBACK)})
#: the bundled set and nothing else
ALONE = ["-nostdinc", "-isystem", str(INCLUDE), "-isystem", str(FALLBACK)]


def _system_include_dirs(flags: tuple[str, ...] = ()) -> list[str]:
    """gcc's own search list for <...>, minus its private include directory."""
    result = subprocess.run(["gcc", *flags, "-E", "-v", "-x", "c", "-"], input="", capture_output=True, text=True)
    lines = result.stderr.splitlines()
    start = lines.index("#include <...> search starts here:") + 1
    dirs = [line.strip() for line in lines[start : lines.index("End of search list.")]]
    return [d for d in dirs if "/gcc/" not in d]


@functools.cache
def kit_flags(kit: str, flags: tuple[str, ...] = ()) -> list[str]:
    """How gcc reads pegbind's headers: "alone", or "hosted" before the system's C library headers."""
    if kit == "alone":
        return ALONE
    return ["-nostdinc", "-isystem", str(INCLUDE), *(arg for d in _system_include_dirs(flags) for arg in ("-idirafter", d))]


#: (kit, header) pairs: every bundled header alone; the freestanding ones before glibc's too
KIT_HEADERS = [pytest.param("alone", h, id=f"alone-{h}") for h in HEADERS] + [
    pytest.param("hosted", h, id=f"hosted-{h}") for h in FREESTANDING
]

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the oracle and is not installed")

#: Types our headers declare without a body, as glibc does.
OPAQUE_TYPES = {"FILE"}
#: Names of double-underscore macros that the standard makes public.
PUBLIC_RESERVED_MACROS = {"__bool_true_false_are_defined", "__alignas_is_defined", "__alignof_is_defined"}
#: Member names that are macros for a nested member in both implementations.
EXTRA_MEMBERS = {"struct in6_addr": ["s6_addr"]}
#: Macros that expand to a keyword or operator rather than an expression:
#: their replacement text is compared instead of a value.
TOKEN_MACRO = re.compile(r"^(_Bool|_Alignas|_Alignof|_Noreturn|_Static_assert|_Thread_local|[&|^~!=]+)$")
#: Macros naming a nested member (``s6_addr``): checked as members, not values.
MEMBER_MACRO = re.compile(r"^[A-Za-z_]\w*\.[A-Za-z_.\w]*$")

# The probe prints through its own declarations so it needs no header itself.
PROBE_PRELUDE = r"""
int printf(const char *, ...);
static int pb_streq(const char *a, const char *b) { while (*a && *a == *b) { a++; b++; } return *a == *b; }
#define PB_KIND(x) _Generic((x), _Bool: "_Bool", char: "char", signed char: "signed char", \
  unsigned char: "unsigned char", short: "short", unsigned short: "unsigned short", int: "int", \
  unsigned int: "unsigned int", long: "long", unsigned long: "unsigned long", long long: "long long", \
  unsigned long long: "unsigned long long", float: "float", double: "double", \
  long double: "long double", char *: "char *", const char *: "const char *", void *: "void *", \
  default: "other")
static void pb_show(const char *kind, ...)
{
  __builtin_va_list ap;
  __builtin_va_start(ap, kind);
  printf("%s ", kind);
  if (pb_streq(kind, "unsigned int")) printf("%u", __builtin_va_arg(ap, unsigned int));
  else if (pb_streq(kind, "long")) printf("%ld", __builtin_va_arg(ap, long));
  else if (pb_streq(kind, "unsigned long")) printf("%lu", __builtin_va_arg(ap, unsigned long));
  else if (pb_streq(kind, "long long")) printf("%lld", __builtin_va_arg(ap, long long));
  else if (pb_streq(kind, "unsigned long long")) printf("%llu", __builtin_va_arg(ap, unsigned long long));
  else if (pb_streq(kind, "float") || pb_streq(kind, "double")) printf("%a", __builtin_va_arg(ap, double));
  else if (pb_streq(kind, "long double")) printf("%La", __builtin_va_arg(ap, long double));
  else if (pb_streq(kind, "char *") || pb_streq(kind, "const char *")) printf("\"%s\"", __builtin_va_arg(ap, const char *));
  else if (pb_streq(kind, "void *")) printf("%s", __builtin_va_arg(ap, void *) ? "nonnull" : "null");
  else if (!pb_streq(kind, "other")) printf("%d", __builtin_va_arg(ap, int));
  printf("\n");
  __builtin_va_end(ap);
}
"""


def run_gcc(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gcc", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


# --- what a header declares, read from its preprocessed text --------------------------

TOKEN = re.compile(r"[A-Za-z_]\w*|\d\w*|\S")
KEYWORDS = {"struct", "union", "enum", "typedef", "extern", "const", "volatile", "__extension__", "__restrict",
            "restrict", "signed", "unsigned", "int", "char", "short", "long", "float", "double", "void", "_Bool"}


def _strip_attributes(tokens: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] in ("__attribute__", "__asm__", "__asm"):
            depth, i = 0, i + 1
            while i < len(tokens):
                depth += {"(": 1, ")": -1}.get(tokens[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        out.append(tokens[i])
        i += 1
    return out


def _drop_groups(tokens: list[str], open_: str, close: str) -> list[str]:
    out, depth = [], 0
    for tok in tokens:
        if tok == open_:
            depth += 1
        elif tok == close:
            depth -= 1
        elif depth == 0:
            out.append(tok)
    return out


def _split(tokens: list[str], sep: str) -> list[list[str]]:
    """Split at ``sep`` outside braces, parentheses and brackets."""
    parts: list[list[str]] = []
    current: list[str] = []
    depth = 0
    for tok in tokens:
        if tok in "({[":
            depth += 1
        elif tok in ")}]":
            depth -= 1
        if tok == sep and depth == 0:
            parts.append(current)
            current = []
        else:
            current.append(tok)
    if current:
        parts.append(current)
    return parts


def _declarator_name(tokens: list[str]) -> str | None:
    tokens = _drop_groups(_drop_groups(tokens, "{", "}"), "[", "]")
    if ":" in tokens:  # bit-field width
        tokens = tokens[: tokens.index(":")]
    if tokens and tokens[-1] == ")":  # function pointer: drop the parameter list
        depth = 0
        for i in range(len(tokens) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(tokens[i], 0)
            if depth == 0:
                tokens = tokens[:i]
                break
    names = [t for t in tokens if re.match(r"[A-Za-z_]\w*$", t) and t not in KEYWORDS]
    return names[-1] if names else None


def _members(body: list[str]) -> list[str]:
    names = []
    for decl in _split(body, ";"):
        for declarator in _split(decl, ","):
            name = _declarator_name(declarator)
            if name and not name.startswith("__"):
                names.append(name)
    return names


@dataclass
class Declared:
    """Public typedefs and records of a header, with the members of each record."""

    types: list[str] = field(default_factory=list)
    members: dict[str, list[str]] = field(default_factory=dict)


def declared_in(preprocessed: str) -> Declared:
    found = Declared()
    for statement in _split(_strip_attributes(TOKEN.findall(preprocessed)), ";"):
        body: list[str] | None = None
        record: str | None = None
        if "{" in statement:
            start = statement.index("{")
            head = statement[:start]
            if head[-2:-1] in (["struct"], ["union"]):
                record = " ".join(head[-2:])
            depth = 0
            for end in range(start, len(statement)):
                depth += {"{": 1, "}": -1}.get(statement[end], 0)
                if depth == 0:
                    break
            body = statement[start + 1 : end]
        if "typedef" in statement:
            name = _declarator_name(statement)
            if name and not name.startswith("_"):
                found.types.append(name)
                if body is not None and record is None:
                    record = name
        if record and body is not None and not record.split()[-1].startswith("_"):
            found.types.append(record)
            found.members[record] = _members(body) + EXTRA_MEMBERS.get(record, [])
        elif record and body is not None and "typedef" in statement:
            # A private tag behind a public typedef (struct __jmp_buf_tag): members via the typedef.
            typedef_name = _declarator_name(statement)
            if typedef_name and not typedef_name.startswith("_") and "[" not in statement[statement.index("}"):]:
                found.members[typedef_name] = _members(body)
    found.types = list(dict.fromkeys(found.types))
    return found


# --- the probes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """One way of running gcc: the flags and whether it can be used here."""

    name: str
    flags: tuple[str, ...]


CONFIGS = {
    "native": Config("native", ()),
    "m32": Config("m32", ("-m32",)),
    "unsigned-char": Config("unsigned-char", ("-funsigned-char",)),
}


@functools.cache
def config_skip_reason(config: str) -> str | None:
    """Why this gcc configuration cannot build and run programs here, or None."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "t.c")
        source.write_text("#include <stdio.h>\nint main(void) { return puts(\"\") < 0; }\n")
        result = run_gcc([*CONFIGS[config].flags, "t.c", "-o", "t"], Path(tmp))
        if result.returncode != 0:
            return f"gcc {' '.join(CONFIGS[config].flags)} cannot build programs here (install gcc-multilib): " + (
                result.stderr.strip().splitlines() or ["?"]
            )[-1]
    return None


def _macros(header: str, flags: list[str], tmp: Path) -> dict[str, str]:
    """Object-like macros defined after including ``header`` (minus the predefined ones)."""
    source = tmp / "macros.c"
    source.write_text(f"#include <{header}>\n")
    defined = run_gcc([*flags, "-dM", "-E", source.name], tmp)
    assert defined.returncode == 0, defined.stderr
    empty = tmp / "empty.c"
    empty.write_text("")
    predefined = set(run_gcc([*flags, "-dM", "-E", empty.name], tmp).stdout.splitlines())
    table = {}
    for line in defined.stdout.splitlines():
        if line in predefined:
            continue
        match = re.match(r"#define ([A-Za-z_]\w*)(\(| |$)(.*)", line)
        if match and match.group(2) != "(":
            table[match.group(1)] = match.group(3).strip()
    return table


def _public(name: str) -> bool:
    if name in PUBLIC_RESERVED_MACROS:
        return True
    return not name.startswith("__") and not name.endswith(("_H", "_H_"))  # include guards say nothing


@dataclass
class HeaderProbe:
    """Both outputs of one header's probe, or why one of them could not be built."""

    ours: dict[str, str]
    system: dict[str, str]
    error: str | None = None


def _run_probe(source: str, flags: list[str], tmp: Path, tag: str) -> tuple[dict[str, str], str | None]:
    path = tmp / f"probe_{tag}.c"
    path.write_text(source)
    exe = tmp / f"probe_{tag}"
    built = run_gcc([*flags, "-std=gnu11", "-w", path.name, "-o", exe.name], tmp)
    if built.returncode != 0:
        return {}, f"{tag} probe does not compile:\n{built.stderr}"
    ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    if ran.returncode != 0:
        return {}, f"{tag} probe exited with {ran.returncode}"
    lines: dict[str, str] = {}
    for line in ran.stdout.splitlines():
        key, _, value = line.partition("=")
        lines[key] = value
    return lines, None


def probe_source(header: str, macros: dict[str, str], declared: Declared) -> str:
    lines = [f"#include <{header}>", PROBE_PRELUDE, "int main(void)", "{"]
    for name, text in macros.items():
        if TOKEN_MACRO.match(text) or MEMBER_MACRO.match(text):
            continue
        # A macro glibc lacks would not compile in the system probe; it is reported as missing.
        lines.append(f"#ifdef {name}")
        lines.append(f'  printf("macro {name}="); pb_show(PB_KIND({name}), {name});')
        lines.append("#else")
        lines.append(f'  printf("macro {name}=undefined\\n");')
        lines.append("#endif")
    for type_name in declared.types:
        if type_name in OPAQUE_TYPES:
            continue
        lines.append(
            f'  printf("type {type_name}=size %lu align %lu kind %s\\n", (unsigned long)sizeof({type_name}),'
            f" (unsigned long)_Alignof({type_name}), PB_KIND(*({type_name} *)0));"
        )
    for record, members in declared.members.items():
        for member in members:
            lines.append(
                f'  printf("member {record}.{member}=offset %lu size %lu kind %s\\n",'
                f" (unsigned long)__builtin_offsetof({record}, {member}),"
                f" (unsigned long)sizeof((({record} *)0)->{member}), PB_KIND((({record} *)0)->{member}));"
            )
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def _probe_header(header: str, config: Config, kit: str) -> HeaderProbe:
    with tempfile.TemporaryDirectory(prefix="pegbind-std-") as name:
        tmp = Path(name)
        flags = list(config.flags)
        ours_flags = kit_flags(kit, config.flags)
        macros = {k: v for k, v in _macros(header, [*flags, *ours_flags], tmp).items() if _public(k)}
        source = tmp / "decl.c"
        source.write_text(f"#include <{header}>\n")
        pre = run_gcc([*flags, *ours_flags, "-E", "-P", source.name], tmp)
        assert pre.returncode == 0, pre.stderr
        declared = declared_in(pre.stdout)
        text = probe_source(header, macros, declared)
        ours, error = _run_probe(text, [*flags, *ours_flags], tmp, "ours")
        system, system_error = _run_probe(text, flags, tmp, "system")
        # Token macros are compared by their replacement text.
        system_table = _macros(header, flags, tmp)
        for name, replacement in macros.items():
            if TOKEN_MACRO.match(replacement):
                ours[f"macro {name}"] = replacement
                system[f"macro {name}"] = system_table.get(name, "undefined")
        return HeaderProbe(ours, system, error or system_error)


@functools.cache
def probes(config: str, kit: str) -> dict[str, HeaderProbe]:
    """Every header's probe for one configuration, built in parallel once per session."""
    headers = HEADERS if kit == "alone" else FREESTANDING
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = pool.map(lambda h: _probe_header(h, CONFIGS[config], kit), headers)
        return dict(zip(headers, results))


def _compare(header: str, config: str, kit: str) -> None:
    reason = config_skip_reason(config)
    if reason:
        pytest.skip(reason)
    probe = probes(config, kit)[header]
    assert probe.error is None, probe.error
    mismatches = [
        f"{key}: ours {value!r}, system {probe.system.get(key, 'missing')!r}"
        for key, value in probe.ours.items()
        if probe.system.get(key) != value
    ]
    assert not mismatches, f"<{header}> differs from the system's ({config}, {kit}):\n" + "\n".join(mismatches)


@pytest.mark.parametrize("kit, header", KIT_HEADERS)
def test_values_and_layouts_match_system_native(kit: str, header: str) -> None:
    _compare(header, "native", kit)


@pytest.mark.slow
@pytest.mark.parametrize("kit, header", KIT_HEADERS)
def test_values_and_layouts_match_system_ilp32(kit: str, header: str) -> None:
    _compare(header, "m32", kit)


@pytest.mark.slow
@pytest.mark.parametrize("kit, header", [("alone", "limits.h"), ("alone", "stdint.h"), ("alone", "wchar.h"),
                                         ("hosted", "limits.h"), ("hosted", "stdint.h")])
def test_values_match_system_with_unsigned_char(kit: str, header: str) -> None:
    _compare(header, "unsigned-char", kit)


# --- prototypes ---------------------------------------------------------------------------

AUX_LINE = re.compile(r"/\* (?P<file>[^:]+):\d+:NC \*/ extern (?P<decl>.*);$")


def _our_prototypes(header: str, flags: list[str], tmp: Path) -> dict[str, str]:
    """Function name -> the declaration gcc reconstructs (-aux-info) from our header."""
    source = tmp / "decls.c"
    source.write_text(f"#include <{header}>\n")
    aux = tmp / "decls.aux"
    result = run_gcc([*flags, *ALONE, "-fsyntax-only", f"-aux-info={aux.name}", source.name], tmp)
    assert result.returncode == 0, result.stderr
    prototypes = {}
    ours = (INCLUDE.resolve(), FALLBACK.resolve())
    for line in aux.read_text().splitlines():
        match = AUX_LINE.match(line)
        if not match or not any(Path(match["file"]).resolve().is_relative_to(folder) for folder in ours):
            continue
        decl = match["decl"].replace("__va_list_tag *", "__builtin_va_list")
        name = re.search(r"(\w+) \(", decl)
        assert name, decl
        prototypes[name.group(1)] = decl
    return prototypes


def _prototype_check(header: str, config: str) -> None:
    reason = config_skip_reason(config)
    if reason:
        pytest.skip(reason)
    flags = list(CONFIGS[config].flags)
    with tempfile.TemporaryDirectory(prefix="pegbind-proto-") as name:
        tmp = Path(name)
        prototypes = _our_prototypes(header, flags, tmp)
        if not prototypes:
            pytest.skip(f"<{header}> declares no functions")
        # Our declaration, spelt with public type names, becomes a function type in a
        # translation unit that sees only the system's header.
        lines = [f"#include <{header}>"]
        for function, decl in prototypes.items():
            typedef = re.sub(rf"\b{function} \(", f"pb_type_{function} (", decl, count=1)
            lines.append(f"typedef {typedef};")
            lines.append(
                f"_Static_assert(__builtin_types_compatible_p(__typeof__({function}), pb_type_{function}),"
                f' "{function}: ours is {decl}");'
            )
        source = tmp / "compat.c"
        source.write_text("\n".join(lines) + "\n")
        result = run_gcc([*flags, "-std=gnu11", "-fsyntax-only", source.name], tmp)
        assert result.returncode == 0, f"<{header}> prototypes differ from the system's:\n{result.stderr}"


@pytest.mark.parametrize("header", HEADERS)
def test_prototypes_compatible_with_system_native(header: str) -> None:
    _prototype_check(header, "native")


@pytest.mark.slow
@pytest.mark.parametrize("header", HEADERS)
def test_prototypes_compatible_with_system_ilp32(header: str) -> None:
    _prototype_check(header, "m32")


# --- strictness and coexistence -------------------------------------------------------------

STRICT_MODES = {
    "c99-pedantic": ["-std=c99", "-pedantic-errors", "-Wall", "-Werror"],
    "c11-wall": ["-std=c11", "-Wall", "-Wextra", "-Werror"],
}


@pytest.mark.parametrize("mode", sorted(STRICT_MODES))
@pytest.mark.parametrize("kit, header", KIT_HEADERS)
def test_header_compiles_alone_in_strict_modes(kit: str, header: str, mode: str, tmp_path: Path) -> None:
    # Included twice to exercise the include guard (and assert.h's deliberate lack of one).
    (tmp_path / "strict.c").write_text(f"#include <{header}>\n#include <{header}>\nint pb_unused;\n")
    result = run_gcc([*kit_flags(kit), *STRICT_MODES[mode], "-fsyntax-only", "strict.c"], tmp_path)
    assert result.returncode == 0, result.stderr


#: C library headers that ask for single names (``__need_size_t``, ``__need___va_list`` ...)
#: or read ours through include_next (stdint.h, limits.h)
GLIBC_HEADERS = ("stdio.h", "stdlib.h", "string.h", "wchar.h", "signal.h", "pthread.h", "sched.h", "sys/uio.h",
                 "sys/stat.h", "netdb.h", "inttypes.h", "uchar.h", "time.h", "setjmp.h")


@pytest.mark.parametrize("order", ["ours-first", "system-first"])
def test_freestanding_headers_mix_with_the_c_librarys(order: str, tmp_path: Path) -> None:
    # Nothing may be defined twice, differently, whichever comes first.
    ours = "".join(f"#include <{h}>\n" for h in FREESTANDING)
    theirs = "".join(f"#include <{h}>\n" for h in GLIBC_HEADERS)
    text = ours + theirs if order == "ours-first" else theirs + ours
    (tmp_path / "mix.c").write_text(text + "int pb_unused;\n")
    result = run_gcc([*kit_flags("hosted"), "-std=gnu11", "-Wall", "-Werror", "-fsyntax-only", "mix.c"], tmp_path)
    assert result.returncode == 0, result.stderr


# --- every target, through exactly the predefines pegbind's preprocessor will use ----------

SPELLINGS = {
    "signed char": "signed char", "unsigned char": "unsigned char", "char": "char",
    "short": "short", "short int": "short", "unsigned short": "unsigned short", "short unsigned int": "unsigned short",
    "int": "int", "unsigned int": "unsigned int", "unsigned": "unsigned int",
    "long": "long", "long int": "long", "unsigned long": "unsigned long", "long unsigned int": "unsigned long",
    "long long": "long long", "long long int": "long long",
    "unsigned long long": "unsigned long long", "long long unsigned int": "unsigned long long",
}
TYPEDEF_LINE = re.compile(r"^(?:__extension__ )?typedef (?:__extension__ )?([a-z ]+?) (\w+);$", re.M)


def _preprocess_for(target: TargetInfo, text: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    defines = [f"-D{name}={value}" for name, value in target.predefines.items()]
    (tmp / "target.c").write_text(text)
    return run_gcc(["-undef", *ALONE, *defines, "-E", "-P", "target.c"], tmp)


def _typedefs_for(target: TargetInfo, tmp: Path) -> dict[str, str]:
    result = _preprocess_for(target, "".join(f"#include <{h}>\n" for h in HEADERS), tmp)
    assert result.returncode == 0, result.stderr
    return {name: SPELLINGS[spelling] for spelling, name in TYPEDEF_LINE.findall(result.stdout) if spelling in SPELLINGS}


def _wchar_param(name: str) -> object:
    target = TARGETS[name]
    predefined = target.predefines["__WCHAR_TYPE__"]
    if SPELLINGS.get(predefined) != target.wchar_type:
        return pytest.param(name, marks=pytest.mark.xfail(
            strict=True, reason=f"pegbind/target.py: {name} predefines __WCHAR_TYPE__ {predefined!r} "
            f"but its wchar_type is {target.wchar_type!r}"))
    return name


@pytest.mark.parametrize("target_name", sorted(TARGETS))
def test_typedef_widths_follow_target_data_model(target_name: str, tmp_path: Path) -> None:
    target = TARGETS[target_name]
    typedefs = _typedefs_for(target, tmp_path)
    pointer = target.pointer_size
    expected = {
        "int8_t": 1, "int16_t": 2, "int32_t": 4, "int64_t": 8, "uint8_t": 1, "uint16_t": 2, "uint32_t": 4,
        "uint64_t": 8, "int_least64_t": 8, "int_fast8_t": 1, "int_fast64_t": 8, "intmax_t": 8, "uintmax_t": 8,
        "intptr_t": pointer, "uintptr_t": pointer, "size_t": pointer, "ptrdiff_t": pointer, "ssize_t": pointer,
        "register_t": pointer, "char16_t": 2, "char32_t": 4, "sig_atomic_t": 4, "socklen_t": 4,
        "wchar_t": int(target.predefines["__SIZEOF_WCHAR_T__"]),
        "wint_t": int(target.predefines["__SIZEOF_WINT_T__"]),
        "time_t": 8 if target_name.startswith("win") else target.size_of("long"),
        "off_t": target.size_of("long"),
    }
    widths = {name: target.size_of(typedefs[name]) for name in expected if name in typedefs}
    assert widths == expected
    assert typedefs["size_t"] == target.size_type
    assert typedefs["ptrdiff_t"] == target.ptrdiff_type
    assert typedefs["int64_t"] == target.int64_type


@pytest.mark.parametrize("target_name", [_wchar_param(name) for name in sorted(TARGETS)])
def test_wchar_t_is_the_targets(target_name: str, tmp_path: Path) -> None:
    target = TARGETS[target_name]
    assert _typedefs_for(target, tmp_path)["wchar_t"] == target.wchar_type


@pytest.mark.parametrize("target_name", sorted(TARGETS))
def test_limits_follow_target_data_model(target_name: str, tmp_path: Path) -> None:
    target = TARGETS[target_name]

    def smax(size: int) -> int:
        return 2 ** (8 * size - 1) - 1

    long, pointer = target.size_of("long"), target.pointer_size
    expected = {
        "CHAR_MIN": 0 if not target.char_signed else -128, "CHAR_MAX": 127 if target.char_signed else 255,
        "LONG_MAX": smax(long), "LONG_MIN": -smax(long) - 1, "ULONG_MAX": 2 ** (8 * long) - 1,
        "SIZE_MAX": 2 ** (8 * pointer) - 1, "PTRDIFF_MAX": smax(pointer), "PTRDIFF_MIN": -smax(pointer) - 1,
        "INTPTR_MAX": smax(pointer), "UINTPTR_MAX": 2 ** (8 * pointer) - 1, "SSIZE_MAX": smax(pointer),
        "INT64_MAX": smax(8), "INT64_MIN": -smax(8) - 1, "UINT64_MAX": 2**64 - 1, "INTMAX_MAX": smax(8),
        "UINT32_MAX": 2**32 - 1, "INT_MIN": -(2**31), "LLONG_MIN": -(2**63), "ULLONG_MAX": 2**64 - 1,
        "INT_FAST8_MAX": 127, "UINT8_MAX": 255, "INT16_MIN": -32768,
        "INT64_C(1)": 1, "UINT64_C(0) - 1": 2**64 - 1,
    }
    lines = [f"#include <{h}>" for h in ("limits.h", "stdint.h")]
    for expr, value in expected.items():
        # The preprocessor computes in intmax_t/uintmax_t: compare in the right signedness.
        literal = f"{value}U" if value > smax(8) else (f"({value + 1} - 1)" if value < 0 else str(value))
        lines.append(f'#if ({expr}) != {literal}\n#error "{expr} is not {value}"\n#endif')
    result = _preprocess_for(target, "\n".join(lines) + "\n", tmp_path)
    assert result.returncode == 0, result.stderr
