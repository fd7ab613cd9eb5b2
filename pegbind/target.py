"""Targets: data models, predefined macros and (below) record layout.

Input: a target name (``--target``) and, for layouts, the :class:`~pegbind.model.Module`.
Output: :class:`TargetInfo` — sizes and alignments of the primitive types,
signedness of ``char``, the macros a compiler for that target predefines —
used by the preprocessor (predefines, our own standard headers) and by the
layout computation that gives every record its size, alignment and offsets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

DEFAULT_TARGET = "linux-x86_64"


@dataclass(frozen=True, slots=True)
class TargetInfo:
    """What a C compiler for one target knows before reading any header."""

    name: str
    #: (size, alignment) in bytes of each primitive type and of ``pointer``
    sizes: Mapping[str, tuple[int, int]]
    char_signed: bool
    #: the type of ``wchar_t`` / ``size_t`` / ``ptrdiff_t`` / ``intptr_t`` as primitive names
    wchar_type: str
    size_type: str
    ptrdiff_type: str
    int64_type: str  #: the primitive ``int64_t`` is on this target
    #: macros predefined for this target, name -> replacement text
    predefines: Mapping[str, str] = field(default_factory=dict)
    #: Microsoft bitfield layout (win-x86_64) instead of SysV
    ms_bitfields: bool = False

    def size_of(self, primitive: str) -> int:
        return self.sizes[primitive][0]

    def align_of(self, primitive: str) -> int:
        return self.sizes[primitive][1]

    @property
    def pointer_size(self) -> int:
        return self.sizes["pointer"][0]


def _sizes(long: int, pointer: int, long_double: tuple[int, int], *, i386: bool = False) -> Mapping[str, tuple[int, int]]:
    # On i386 SysV, long long and double are 8 bytes but only 4-aligned in records.
    eight_align = 4 if i386 else 8
    table = {
        "void": (1, 1),
        "_Bool": (1, 1),
        "char": (1, 1),
        "signed char": (1, 1),
        "unsigned char": (1, 1),
        "short": (2, 2),
        "unsigned short": (2, 2),
        "int": (4, 4),
        "unsigned int": (4, 4),
        "long": (long, long),
        "unsigned long": (long, long),
        "long long": (8, eight_align),
        "unsigned long long": (8, eight_align),
        "float": (4, 4),
        "double": (8, eight_align),
        "long double": long_double,
        "pointer": (pointer, pointer),
    }
    if pointer == 8:
        table["__int128"] = (16, 16)
        table["unsigned __int128"] = (16, 16)
    return MappingProxyType(table)


def _common_gnu_predefines() -> dict[str, str]:
    return {
        "__STDC__": "1",
        "__STDC_VERSION__": "201710L",
        "__STDC_HOSTED__": "1",
        "__GNUC__": "12",
        "__GNUC_MINOR__": "2",
        "__GNUC_PATCHLEVEL__": "0",
        "__VERSION__": '"12.2.0"',
        "__CHAR_BIT__": "8",
        "__ORDER_LITTLE_ENDIAN__": "1234",
        "__ORDER_BIG_ENDIAN__": "4321",
        "__ORDER_PDP_ENDIAN__": "3412",
        "__BYTE_ORDER__": "__ORDER_LITTLE_ENDIAN__",
        "__SCHAR_MAX__": "0x7f",
        "__SHRT_MAX__": "0x7fff",
        "__INT_MAX__": "0x7fffffff",
        "__LONG_LONG_MAX__": "0x7fffffffffffffffLL",
        "__SIZEOF_INT__": "4",
        "__SIZEOF_SHORT__": "2",
        "__SIZEOF_LONG_LONG__": "8",
        "__SIZEOF_FLOAT__": "4",
        "__SIZEOF_DOUBLE__": "8",
    }


def _linux_predefines(long: int, pointer: int, long_double: int) -> dict[str, str]:
    table = _common_gnu_predefines()
    table.update(
        {
            "__linux__": "1",
            "__linux": "1",
            "linux": "1",
            "__unix__": "1",
            "__unix": "1",
            "unix": "1",
            "__gnu_linux__": "1",
            "__ELF__": "1",
            "__SIZEOF_LONG__": str(long),
            "__SIZEOF_POINTER__": str(pointer),
            "__SIZEOF_LONG_DOUBLE__": str(long_double),
            "__SIZEOF_SIZE_T__": str(pointer),
            "__SIZEOF_WCHAR_T__": "4",
            "__SIZEOF_WINT_T__": "4",
            "__SIZEOF_PTRDIFF_T__": str(pointer),
            "__LONG_MAX__": "0x7fffffffffffffffL" if long == 8 else "0x7fffffffL",
            "__WCHAR_MAX__": "0x7fffffff",
            "__WCHAR_MIN__": "(-__WCHAR_MAX__ - 1)",
        }
    )
    if pointer == 8:
        table["__SIZEOF_INT128__"] = "16"
    if long == 8 and pointer == 8:
        table["__LP64__"] = "1"
        table["_LP64"] = "1"
        table["__SIZE_TYPE__"] = "long unsigned int"
        table["__PTRDIFF_TYPE__"] = "long int"
        table["__SIZE_MAX__"] = "0xffffffffffffffffUL"
        table["__INTPTR_TYPE__"] = "long int"
        table["__UINTPTR_TYPE__"] = "long unsigned int"
        table["__INT64_TYPE__"] = "long int"
        table["__UINT64_TYPE__"] = "long unsigned int"
    else:
        table["_ILP32"] = "1"
        table["__ILP32__"] = "1"
        table["__SIZE_TYPE__"] = "unsigned int"
        table["__PTRDIFF_TYPE__"] = "int"
        table["__SIZE_MAX__"] = "0xffffffffU"
        table["__INTPTR_TYPE__"] = "int"
        table["__UINTPTR_TYPE__"] = "unsigned int"
        table["__INT64_TYPE__"] = "long long int"
        table["__UINT64_TYPE__"] = "long long unsigned int"
    table["__WCHAR_TYPE__"] = "int"
    return table


def _build_targets() -> dict[str, TargetInfo]:
    x86_64 = _linux_predefines(8, 8, 16)
    x86_64.update({"__x86_64__": "1", "__x86_64": "1", "__amd64__": "1", "__amd64": "1"})

    aarch64 = _linux_predefines(8, 8, 16)
    aarch64.update({"__aarch64__": "1", "__ARM_64BIT_STATE": "1", "__CHAR_UNSIGNED__": "1", "__AARCH64EL__": "1"})

    i386 = _linux_predefines(4, 4, 12)
    i386.update({"__i386__": "1", "__i386": "1", "i386": "1", "__i686__": "1"})

    # MinGW-w64 style: GNU extensions, Windows data model (LLP64).
    win64 = _common_gnu_predefines()
    win64.update(
        {
            "_WIN32": "1",
            "_WIN64": "1",
            "__WIN32": "1",
            "__WIN64": "1",
            "__WIN32__": "1",
            "__WIN64__": "1",
            "WIN32": "1",
            "WIN64": "1",
            "__MINGW32__": "1",
            "__MINGW64__": "1",
            "__x86_64__": "1",
            "__x86_64": "1",
            "__amd64__": "1",
            "__amd64": "1",
            "_M_X64": "100",
            "_M_AMD64": "100",
            "__LLP64__": "1",
            "__SIZEOF_LONG__": "4",
            "__SIZEOF_POINTER__": "8",
            "__SIZEOF_LONG_DOUBLE__": "16",
            "__SIZEOF_SIZE_T__": "8",
            "__SIZEOF_WCHAR_T__": "2",
            "__SIZEOF_WINT_T__": "2",
            "__SIZEOF_PTRDIFF_T__": "8",
            "__SIZEOF_INT128__": "16",
            "__LONG_MAX__": "0x7fffffffL",
            "__WCHAR_MAX__": "0xffff",
            "__WCHAR_MIN__": "0",
            "__SIZE_TYPE__": "long long unsigned int",
            "__PTRDIFF_TYPE__": "long long int",
            "__SIZE_MAX__": "0xffffffffffffffffULL",
            "__INTPTR_TYPE__": "long long int",
            "__UINTPTR_TYPE__": "long long unsigned int",
            "__INT64_TYPE__": "long long int",
            "__UINT64_TYPE__": "long long unsigned int",
            "__WCHAR_TYPE__": "short unsigned int",
        }
    )

    return {
        "linux-x86_64": TargetInfo(
            "linux-x86_64", _sizes(8, 8, (16, 16)), True, "int", "unsigned long", "long", "long",
            MappingProxyType(x86_64),
        ),
        "linux-aarch64": TargetInfo(
            "linux-aarch64", _sizes(8, 8, (16, 16)), False, "unsigned int", "unsigned long", "long", "long",
            MappingProxyType(aarch64),
        ),
        "linux-i386": TargetInfo(
            "linux-i386", _sizes(4, 4, (12, 4), i386=True), True, "int", "unsigned int", "int", "long long",
            MappingProxyType(i386),
        ),
        "win-x86_64": TargetInfo(
            "win-x86_64", _sizes(4, 8, (16, 16)), True, "unsigned short", "unsigned long long", "long long",
            "long long", MappingProxyType(win64), ms_bitfields=True,
        ),
    }


TARGETS: Mapping[str, TargetInfo] = MappingProxyType(_build_targets())
#: ``ilp32`` is accepted as another name for the 32-bit Linux target.
ALIASES = {"ilp32": "linux-i386", "lp64": "linux-x86_64", "llp64": "win-x86_64"}


def get_target(name: str | None) -> TargetInfo:
    """The :class:`TargetInfo` for ``name`` (default target when None); KeyError lists the choices."""
    name = ALIASES.get(name or DEFAULT_TARGET, name or DEFAULT_TARGET)
    try:
        return TARGETS[name]
    except KeyError:
        choices = ", ".join(sorted(TARGETS))
        raise KeyError(f"unknown target {name!r} (choose one of: {choices})") from None
