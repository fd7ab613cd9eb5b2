"""``pegbind verify``: the real compiler checks the model.

Layer: after the model and ``target`` layouts; reads a :class:`~pegbind.model.Module`
and the binding's headers, include folders and defines.  Out: a
:class:`VerifyReport` listing every disagreement between pegbind and the
compiler.

A C probe is rendered from ``templates/probe/probe.c.jinja``.  It includes the
real headers with the system's real standard headers (not pegbind's own), is
compiled once and run; it prints, for every declaration of the module it is
given (what a binding exposes, wherever declared), what the compiler knows: value and type of each integer and floating
constant (macros and enumerators), the bytes of each string macro, size and
alignment of each complete record and typedef, the offset of each member and
the first bit and width of each bitfield.  When a check does not compile (a
macro that is not an expression to the compiler, say), the compiler's error
is traced back to that check through the ``/*@ID*/`` marker on its line; the
check is reported and the probe rebuilt without it.

For a target this machine cannot run (linux-aarch64 and win-x86_64 here,
through Debian's cross compilers), ``templates/probe/probe_static.c.jinja``
holds the same checks as constant data: it is only compiled to assembly, and
the answers are read back from its data directives (:func:`read_assembly`).
"""
from __future__ import annotations

import os
import platform
import re
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, VerifyError
from .emit.env import make_environment
from .frozen import frozen_dataclass
from .model import (
    Address,
    Array,
    Constant,
    CType,
    FunctionType,
    Module,
    Pointer,
    Primitive,
    Record,
    RecordRef,
    TypedefRef,
    assert_never,
    unnamed,
)
from .target import LayoutError, RecordLayout, TargetInfo, enum_constant_type, enum_type, record_layout, size_align
from .toolchain import CROSS_COMPILERS, CROSS_PACKAGES, host_target

#: What the probes' _Generic tells apart (templates/probe/type_generic.c.jinja), in the order
#: of the static probe's type codes; "other" is anything else and stays last.
PROBE_TYPES = (
    "_Bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
    "long", "unsigned long", "long long", "unsigned long long", "float", "double", "long double",
    "pointer", "other",
)
#: The primitive names among them
_PROBE_TYPE_NAMES = frozenset(PROBE_TYPES) - {"pointer", "other"}
_UNSIGNED_NAMES = frozenset({"_Bool", "unsigned char", "unsigned short", "unsigned int", "unsigned long",
                             "unsigned long long", "pointer"})
#: How many times a probe is rebuilt after dropping checks that did not compile.
_MAX_REBUILDS = 8


@frozen_dataclass()
class Mismatch:
    """One disagreement: what was checked, pegbind's answer and the compiler's."""

    what: str  #: e.g. ``"constant CKA_VENDOR_DEFINED"`` or ``"record struct z_stream_s: size"``
    pegbind: str
    gcc: str

    def __str__(self) -> str:
        # "constant X: pegbind 1 (int), gcc 2 (int)" but "record S: size pegbind 8, gcc 16":
        # a label that already names an aspect after its colon reads on without another.
        separator = " " if ": " in self.what else ": "
        return f"{self.what}{separator}pegbind {self.pegbind}, gcc {self.gcc}"


@dataclass
class VerifyReport:
    """The outcome of one verification run."""

    target: str
    compiler: str
    mismatches: list[Mismatch] = field(default_factory=list)
    checked: int = 0  #: number of individual facts compared

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def format(self) -> str:
        """Each mismatch on its own line, then a one-line summary."""
        lines = [str(m) for m in self.mismatches]
        verdict = "OK" if self.ok else f"{len(self.mismatches)} mismatch{'es' if len(self.mismatches) != 1 else ''}"
        lines.append(f"verify {self.target} with {self.compiler}: {self.checked} checked, {verdict}")
        return "\n".join(lines)


@dataclass
class _Check:
    """One probe line: what to print and how to read and judge the answer."""

    id: int
    kind: str  #: int, float, string, size, offset, bits
    what: str  #: the label of a mismatch
    expr: str  #: C expression or type name
    expected: str  #: pegbind's answer, spelled as the mismatch shows it
    guard: str | None = None  #: macro name tested with #ifdef
    path: str = ""  #: member path for offset and bits
    #: for size checks: label and expected value of the alignment half
    align_what: str = ""
    align_expected: str = ""

    def context(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "expr": self.expr, "guard": self.guard, "path": self.path}


# --------------------------------------------------------------------------
# Which compiler flags reach the requested target
# --------------------------------------------------------------------------
_PLAIN_GCC = (None, "gcc", "cc")


@frozen_dataclass()
class Toolchain:
    """How the probe is built for one target."""

    compiler: str  #: the compiler's path
    flags: tuple[str, ...]  #: flags that make it build for the target
    runs: bool  #: True: build and run the probe; False: compile to assembly and read its data


def toolchain(compiler: str | None, target: TargetInfo, run: bool | None = None) -> Toolchain:
    """The compiler for ``target``: ``compiler``, else gcc (with -m32 for i386) or the target's cross gcc.

    The probe is run when the target is this machine's (or i386 on x86_64),
    unless ``run`` is False; otherwise it is compiled to assembly only.
    Raises :class:`VerifyError` when there is no compiler for the target here.
    """
    host = host_target()
    if target.name == host:
        return Toolchain(_found(compiler or "gcc"), (), run is not False)
    if target.name == "linux-i386" and host == "linux-x86_64" and compiler in _PLAIN_GCC:
        found = _found(compiler or "gcc")
        trial = subprocess.run([found, "-m32", "-x", "c", "-", "-o", os.devnull],
                               input="int main(void) { return 0; }\n", capture_output=True, text=True)
        if trial.returncode == 0:
            return Toolchain(found, ("-m32",), run is not False)
        raise VerifyError(f"verifying {target.name} needs '{compiler or 'gcc'} -m32', which cannot build 32-bit "
                          "programs here (install the compiler's multilib support)")
    if compiler not in _PLAIN_GCC:
        return Toolchain(_found(compiler), (), False)
    cross = CROSS_COMPILERS.get(target.name)
    if cross is None:
        raise VerifyError(f"verifying {target.name} needs a compiler for it (--cc); "
                          f"this machine is {host or platform.machine()}")
    if shutil.which(cross) is None:
        raise VerifyError(f"verifying {target.name} needs the cross compiler '{cross}' "
                          f"(Debian package {CROSS_PACKAGES[target.name]}), or another one given with --cc")
    return Toolchain(_found(cross), (), False)


def _found(compiler: str) -> str:
    path = shutil.which(compiler)
    if path is None:
        raise VerifyError(f"compiler '{compiler}' not found on PATH")
    return path


# --------------------------------------------------------------------------
# pegbind's side of each check
# --------------------------------------------------------------------------
def _type_name(module: Module, ctype: CType, target: TargetInfo) -> str:
    """The probe's name for ``ctype``: a primitive name, "pointer" or "other"."""
    resolved = module.resolve(ctype)
    match resolved:
        case Primitive():
            if resolved.name == "char":
                return "char"
            return resolved.name if resolved.name in _PROBE_TYPE_NAMES else "other"
        case RecordRef():
            enum = module.find_enum(resolved.key) if resolved.kind == "enum" else None
            return enum_type(module, enum, target) if enum is not None and enum.members else "other"
        case Pointer():
            return "pointer"
        case TypedefRef() | Array() | FunctionType():
            return "other"
        case _:
            assert_never(resolved)


def _value_text(value: int | float, type_name: str) -> str:
    return f"{value!r} ({type_name})"


def _string_elements(value: str | bytes, element: int) -> list[int]:
    if isinstance(value, bytes):
        return list(value)
    if element == 1:
        return list(value.encode("utf-8"))
    return [ord(ch) for ch in value]


def _record_spelling(module: Module, record: Record) -> str | None:
    """How C names ``record``: ``struct tag``, or the typedef of an untagged one; None if it cannot be named."""
    if record.tag is not None:
        return f"{record.kind} {record.tag}"
    typedef = module.find_typedef(record.key)
    if typedef is not None and module.resolve(typedef.type.unqualified()) == record.ref:
        return record.key
    return None


def _const_bitfields(module: Module, record: Record, prefix: str, const: bool, seen: set[str]) -> set[str]:
    """Paths of bitfields the probe cannot assign to (const, or inside a const member)."""
    found: set[str] = set()
    if record.key in seen:
        return found
    seen = seen | {record.key}
    for member in record.fields or ():
        resolved = module.resolve(member.type)
        is_const = const or resolved.is_const
        path = prefix + member.name if member.name else prefix.rstrip(".")
        if member.bit_width is not None and is_const and member.name:
            found.add(path)
        if isinstance(resolved, RecordRef) and resolved.kind != "enum":
            inner = module.find_record(resolved.key)
            if inner is not None:
                inner_prefix = f"{path}." if path else ""
                found |= _const_bitfields(module, inner, inner_prefix, is_const, seen)
    return found


class _Plan:
    """The checks of one probe, numbered in the order they are printed."""

    def __init__(self, module: Module, target: TargetInfo):
        self.module = module
        self.target = target
        self.checks: list[_Check] = []
        self.mismatches: list[Mismatch] = []  # found before compiling (pegbind cannot answer)

    def add(self, **kwargs) -> None:
        self.checks.append(_Check(id=len(self.checks), **kwargs))

    def build(self) -> _Plan:
        enumerator_names = self.plan_enums()
        for constant in self.module.constants:
            if constant.name not in enumerator_names:
                self.plan_constant(constant)
        for record in self.module.records:
            if record.fields is not None:
                self.plan_record(record)
        for typedef in self.module.typedefs:
            try:
                size, align = size_align(self.module, TypedefRef(typedef.name), self.target)
            except LayoutError:
                continue  # functions, void, opaque records: nothing to measure
            what = f"typedef {typedef.name}"
            self.add(kind="size", what=f"{what}: size", expr=typedef.name, expected=str(size),
                     align_what=f"{what}: align", align_expected=str(align))
        return self

    def plan_enums(self) -> set[str]:
        names: set[str] = set()
        for enum in self.module.enums:
            if enum.tag is not None and enum.members:
                what = f"enum {enum.tag}"
                size, align = self.target.sizes[enum_type(self.module, enum, self.target)]
                self.add(kind="size", what=f"{what}: size", expr=what, expected=str(size),
                         align_what=f"{what}: align", align_expected=str(align))
            for member in enum.members:
                names.add(member.name)
                ctype = enum_constant_type(self.module, enum, member.value, self.target)
                self.add(kind="int", what=f"constant {member.name}", expr=member.name,
                         expected=_value_text(member.value, ctype))
        return names

    def plan_constant(self, constant: Constant) -> None:
        value = constant.value
        what = f"constant {constant.name}"
        if isinstance(value, (str, bytes)):
            element = 1
            resolved = self.module.resolve(constant.type)
            if isinstance(resolved, Array):
                try:
                    element = size_align(self.module, resolved.element, self.target)[0]
                except LayoutError:
                    element = 1
            expected = f"{element}:{_string_elements(value, element)!r}"
            self.add(kind="string", what=what, expr=constant.name, expected=expected, guard=constant.name)
        elif isinstance(value, bool) or isinstance(value, int):
            type_name = _type_name(self.module, constant.type, self.target)
            self.add(kind="int", what=what, expr=constant.name, expected=_value_text(int(value), type_name),
                     guard=constant.name)
        elif isinstance(value, float):
            type_name = _type_name(self.module, constant.type, self.target)
            self.add(kind="float", what=what, expr=constant.name, expected=_value_text(value, type_name),
                     guard=constant.name)
        elif isinstance(value, Address):
            # the address as a number, in a probe that compiles only where the macro's type is the one
            # pegbind gave it (otherwise the check's compile error names the bit-field of negative width)
            same = f"__builtin_types_compatible_p(__typeof__({constant.name}), {unnamed(constant.type).to_c()})"
            expr = (f"(unsigned long long)(size_t)({constant.name})"
                    f" + 0 * sizeof(struct {{ int not_the_type_pegbind_gave: {same} ? 1 : -1; }})")
            self.add(kind="int", what=what, expr=expr, expected=_value_text(value.value, "unsigned long long"),
                     guard=constant.name)

    def plan_record(self, record: Record) -> None:
        spelled = _record_spelling(self.module, record)
        if spelled is None:
            return  # anonymous members are checked through their parent's offsets
        what = f"record {spelled}"
        try:
            layout: RecordLayout = record_layout(self.module, record.key, self.target)
        except LayoutError as exc:
            self.mismatches.append(Mismatch(f"{what}: layout", f"cannot lay it out ({exc.diagnostics[0].message})",
                                            "laid it out"))
            return
        self.add(kind="size", what=f"{what}: size", expr=spelled, expected=str(layout.size),
                 align_what=f"{what}: align", align_expected=str(layout.align))
        read_only = _const_bitfields(self.module, record, "", False, set())
        # Dotted paths reach into untagged named members, which have no other way to be checked.
        for path, placed in layout.flat_fields(nested=True):
            if placed.bit_width is None:
                self.add(kind="offset", what=f"{what}: offset of {path}", expr=spelled, path=path,
                         expected=str(placed.offset))
            elif placed.bit_width > 0 and path not in read_only:
                self.add(kind="bits", what=f"{what}: bits of {path}", expr=spelled, path=path,
                         expected=f"{placed.bit_offset}+{placed.bit_width}")


# --------------------------------------------------------------------------
# The compiler's side
# --------------------------------------------------------------------------
def _include_spelling(path: str | Path) -> str:
    return str(Path(path).resolve()).replace("\\", "\\\\").replace('"', '\\"')


def _define_flags(defines: Mapping[str, str | None] | Iterable[str]) -> list[str]:
    if isinstance(defines, Mapping):
        return [f"-D{name}" if value is None else f"-D{name}={value}" for name, value in defines.items()]
    return [f"-D{item}" for item in defines]


_MARKER = re.compile(r"/\*@(\d+)\*/\s*$")


def _failing_checks(source: str, stderr: str, probe: Path) -> dict[int, str]:
    """Check id -> the compiler's error, for every check whose line the messages point at.

    An error inside a header reached through a macro is followed by notes
    ("in expansion of macro ...") naming the probe line; each probe line is
    charged with the error most recently reported.
    """
    markers: dict[int, int] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        found = _MARKER.search(line)
        if found:
            markers[number] = int(found.group(1))
    located = re.compile(rf"(?:^|[\s/]){re.escape(probe.name)}:(\d+):")
    failing: dict[int, str] = {}
    last_error = "does not compile"
    for line in stderr.splitlines():
        if ": error: " in line:
            last_error = line.split(": error: ", 1)[1].strip()
        found = located.search(line)
        if found:
            check = markers.get(int(found.group(1)))
            if check is not None:
                failing.setdefault(check, last_error)
    return failing


def _build(chain: Toolchain, flags: list[str], checks: list[_Check], includes: list[str], undefs: Sequence[str],
           workdir: Path) -> tuple[str, dict[int, str]]:
    """Compile the probe, dropping checks that do not compile.

    Returns the program's path (or, for a probe that is not run, the text of
    its assembly) and, for dropped checks, the compiler's first error message.
    """
    name = "probe/probe.c.jinja" if chain.runs else "probe/probe_static.c.jinja"
    template = make_environment().get_template(name)
    probe = workdir / "pegbind_probe.c"
    output = workdir / ("pegbind_probe" if chain.runs else "pegbind_probe.s")
    mode = [] if chain.runs else ["-S"]
    dropped: dict[int, str] = {}
    live = list(checks)
    for _ in range(_MAX_REBUILDS):
        source = template.render(includes=includes, undefs=undefs, checks=[c.context() for c in live],
                                 type_names=PROBE_TYPES)
        probe.write_text(source, encoding="utf-8")
        # The C locale keeps the compiler's messages in plain ASCII quotes for the report.
        built = subprocess.run([chain.compiler, *chain.flags, *flags, *mode, "-w", "-o", str(output), str(probe)],
                               capture_output=True, text=True, cwd=workdir, env={**os.environ, "LC_ALL": "C"})
        if built.returncode == 0:
            break
        failing = _failing_checks(source, built.stderr, probe)
        if not failing:
            raise VerifyError(Diagnostic(None, f"the probe does not compile with {chain.compiler}:\n"
                                               f"{built.stderr.strip()}"))
        dropped.update(failing)
        live = [c for c in live if c.id not in failing]
    else:
        raise VerifyError(f"the probe still does not compile with {chain.compiler} after {_MAX_REBUILDS} attempts")
    if chain.runs:
        return str(output), dropped
    return output.read_text(encoding="latin-1"), dropped


def _run(program: str, compiler: str, workdir: Path) -> dict[int, list[str]]:
    """The running probe's answers by check id."""
    ran = subprocess.run([program], capture_output=True, text=True, cwd=workdir)
    if ran.returncode != 0:
        raise VerifyError(f"the probe built by {compiler} failed with status {ran.returncode}: {ran.stderr.strip()}")
    answers: dict[int, list[str]] = {}
    for line in ran.stdout.splitlines():
        number, _, rest = line.partition("|")
        answers[int(number)] = rest.split("|")
    return answers


# --------------------------------------------------------------------------
# The probe compiled to assembly: its answers read from the data
# --------------------------------------------------------------------------
#: GNU assembler data directives and the size of their items (``.word`` depends on the target)
_DATA_SIZES = {
    ".byte": 1, ".2byte": 2, ".short": 2, ".value": 2, ".hword": 2, ".half": 2,
    ".4byte": 4, ".long": 4, ".int": 4, ".8byte": 8, ".quad": 8, ".xword": 8, ".dword": 8,
}
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):")
_DIRECTIVE = re.compile(r"(\.\S+)\s*(.*?)\s*$")
_LETTER_ESCAPES = {"b": 8, "f": 12, "n": 10, "r": 13, "t": 9}


def _string_bytes(operand: str) -> bytes:
    """The bytes of a GNU assembler string ``"..."``: octal, hex and letter escapes."""
    if len(operand) < 2 or operand[0] != '"' or operand[-1] != '"':
        raise ValueError(f"not a string: {operand!r}")
    body, out, i = operand[1:-1], bytearray(), 0
    while i < len(body):
        if body[i] != "\\" or i + 1 == len(body):
            out.append(ord(body[i]) & 0xFF)
            i += 1
            continue
        escape = body[i + 1]
        octal = re.match(r"[0-7]{1,3}", body[i + 1:])
        if octal:
            out.append(int(octal.group(), 8) & 0xFF)
            i += 1 + len(octal.group())
        elif escape == "x":
            digits = re.match(r"[0-9A-Fa-f]*", body[i + 2:]).group()  # type: ignore[union-attr]
            out.append(int(digits or "0", 16) & 0xFF)
            i += 2 + len(digits)
        else:
            out.append(_LETTER_ESCAPES.get(escape, ord(escape) & 0xFF))  # \\ and \" stand for themselves
            i += 2
    return bytes(out)


def read_assembly(text: str, word_size: int) -> dict[str, bytes]:
    """The bytes of each object labelled ``pegbind_...`` in GNU assembler output, for little-endian targets.

    An object's data is every data directive after its label, up to the next
    label or any other directive.  ``word_size`` is the size of ``.word``
    (2 on x86, 4 on Arm).  Raises ValueError for data it cannot read.
    """
    objects: dict[str, bytearray] = {}
    current: bytearray | None = None
    for raw in text.splitlines():
        line = raw.strip()
        label = _LABEL.match(line)
        if label:
            name = label.group(1)
            current = objects.setdefault(name, bytearray()) if name.startswith("pegbind_") else None
            line = line[label.end():].strip()
        if current is None or not line.startswith("."):
            continue
        directive, operand = _DIRECTIVE.match(line).groups()  # type: ignore[union-attr]
        size = word_size if directive == ".word" else _DATA_SIZES.get(directive)
        if size is not None:
            for item in operand.split(","):
                current += (int(item.strip(), 0) % (1 << (8 * size))).to_bytes(size, "little")
        elif directive in (".zero", ".space", ".skip"):
            count, _, fill = operand.partition(",")
            current += bytes([int(fill.strip() or "0", 0) & 0xFF]) * int(count.strip(), 0)
        elif directive in (".string", ".asciz"):
            current += _string_bytes(operand) + b"\0"
        elif directive == ".ascii":
            current += _string_bytes(operand)
        else:
            current = None  # .globl, .align, .section, ...: the object has ended
    return {name: bytes(data) for name, data in objects.items()}


def _unsigned(data: bytes) -> int:
    return int.from_bytes(data[:8], "little")


def _type_of_code(code: int) -> str:
    return PROBE_TYPES[min(code, len(PROBE_TYPES) - 1)]


def _static_answers(objects: Mapping[str, bytes], checks: list[_Check]) -> dict[int, list[str]]:
    """The static probe's answers by check id, worded as the running probe prints them."""
    answers: dict[int, list[str]] = {}
    for check in checks:
        data = objects.get(f"pegbind_c{check.id}")
        if f"pegbind_u{check.id}" in objects:
            answers[check.id] = ["undefined"]
        elif data is None:
            continue  # judged as "printed nothing"
        elif check.kind == "int":
            value = _unsigned(data[8:16])
            signed = value - (1 << 64) if value >> 63 else value
            answers[check.id] = ["int", _type_of_code(_unsigned(data)), str(signed), str(value)]
        elif check.kind == "float":
            code = _unsigned(objects.get(f"pegbind_t{check.id}", b"\xff" * 8))
            answers[check.id] = ["float", _type_of_code(code), struct.unpack("<d", data[:8])[0].hex()]
        elif check.kind == "string":
            element = _unsigned(objects.get(f"pegbind_e{check.id}", b"\x01")) or 1
            items = [int.from_bytes(data[i:i + element], "little") for i in range(0, len(data) - element, element)]
            answers[check.id] = ["string", str(element), "".join(f"{item:x}," for item in items)]
        elif check.kind == "size":
            answers[check.id] = ["size", str(_unsigned(data)), str(_unsigned(data[8:16]))]
        elif check.kind == "offset":
            answers[check.id] = ["offset", str(_unsigned(data))]
        elif check.kind == "bits":
            bits = [i for i in range(8 * len(data)) if data[i // 8] >> (i % 8) & 1]
            answers[check.id] = ["bits", str(bits[0] if bits else -1), str(len(bits))]
    return answers


def _judge(check: _Check, answer: list[str] | None, report: VerifyReport) -> None:
    """Compare one answer with pegbind's expectation, adding mismatches to ``report``."""
    if answer is None:
        report.mismatches.append(Mismatch(check.what, check.expected, "printed nothing"))
        return
    kind, *values = answer
    if kind == "undefined":
        report.checked += 1
        report.mismatches.append(Mismatch(check.what, check.expected, "<not defined>"))
        return
    if kind == "size":
        report.checked += 2
        if values[0] != check.expected:
            report.mismatches.append(Mismatch(check.what, check.expected, values[0]))
        if values[1] != check.align_expected:
            report.mismatches.append(Mismatch(check.align_what, check.align_expected, values[1]))
        return
    report.checked += 1
    if kind == "int":
        type_name, as_signed, as_unsigned = values
        value = int(as_unsigned) if type_name in _UNSIGNED_NAMES else int(as_signed)
        got = _value_text(value, type_name)
    elif kind == "float":
        type_name, hex_value = values
        got = _value_text(float.fromhex(hex_value), type_name)
    elif kind == "string":
        element, items = values
        got = f"{element}:{[int(x, 16) for x in items.split(',') if x]!r}"
    elif kind == "offset":
        got = values[0]
    elif kind == "bits":
        got = f"{values[0]}+{values[1]}"
    else:
        got = "|".join(answer)
    if got != check.expected:
        report.mismatches.append(Mismatch(check.what, check.expected, got))


def verify(
    module: Module,
    *,
    headers: Sequence[str | Path],
    include_dirs: Sequence[str | Path] = (),
    defines: Mapping[str, str | None] | Iterable[str] = (),
    target: TargetInfo,
    compiler: str | None = None,
    run: bool | None = None,
) -> VerifyReport:
    """Compare every constant, size, alignment and offset of ``module`` with ``compiler``.

    Everything in ``module`` is checked, wherever it was declared: pass the
    module a binding exposes (:func:`pegbind.passes.select.select_declarations`),
    so that a record of the C library a bound function takes (``fd_set``) is
    checked with the library's own declarations.  ``compiler`` defaults to gcc, or to Debian's
    cross gcc for linux-aarch64 and win-x86_64; ``run`` (default: when the
    target is this machine's) says whether the probe is run or only compiled
    to assembly (see :func:`toolchain`).  Raises :class:`VerifyError` when the
    compiler is missing, cannot target ``target``, or the headers themselves
    do not compile.
    """
    chain = toolchain(compiler, target, run)
    flags = [f"-I{Path(d).resolve()}" for d in include_dirs] + _define_flags(defines)
    plan = _Plan(module, target).build()
    report = VerifyReport(target.name, compiler or Path(chain.compiler).name, list(plan.mismatches))
    includes = [_include_spelling(h) for h in headers]
    with tempfile.TemporaryDirectory(prefix="pegbind-verify-") as tmp:
        built, dropped = _build(chain, flags, plan.checks, includes, module.hiding_macros(), Path(tmp))
        if chain.runs:
            answers = _run(built, chain.compiler, Path(tmp))
        else:
            try:
                objects = read_assembly(built, 4 if target.name.endswith("aarch64") else 2)
            except ValueError as exc:
                raise VerifyError(f"cannot read the probe's assembly from {chain.compiler}: {exc}") from None
            answers = _static_answers(objects, plan.checks)
    for check in plan.checks:
        if check.id in dropped:
            report.mismatches.append(Mismatch(check.what, check.expected, f"<does not compile: {dropped[check.id]}>"))
            continue
        _judge(check, answers.get(check.id), report)
    return report
