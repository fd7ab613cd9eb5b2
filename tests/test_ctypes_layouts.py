"""ctypes layouts against pegbind's: every record of tests/clib, the golden headers and the conformance library.

The ctypes backend declares each record as a Structure/Union with
``_fields_`` (bitfields as plain storage members, padding where ctypes would
place a member elsewhere) and ``_pack_``; this test builds those classes from
the emitter's plans (no library, no compiler) and checks ``ctypes.sizeof``,
``ctypes.alignment``, every member offset and every bitfield's first bit
against :func:`pegbind.target.record_layout` on the host's target
(linux-x86_64).
The cffi cdef is checked the same way through ``FFI.sizeof``/``offsetof``.
"""
from __future__ import annotations

import ctypes
from pathlib import Path

import pytest
from clib.demo_model import HEADER as DEMO_HEADER
from clib.demo_model import demo_module

from pegbind.config import BindingConfig
from pegbind.emit.cffi_backend import c_spelling, cdef_chunks, excluded
from pegbind.emit.cffi_backend.cdef import needs_compiler_layout
from pegbind.emit.ctypes_backend import ctypes_attr, struct_plans
from pegbind.passes import run_passes
from pegbind.pipeline import read_binding
from pegbind.target import get_target, typedef_aligned

HEADERS = Path(__file__).parent / "headers"
#: golden headers written for the host target (the others set --target)
HOST_HEADERS = sorted(
    path for path in HEADERS.glob("*.h") if "--target" not in path.read_text().splitlines()[0]
)


def _binding(header: Path):
    config = BindingConfig(name="layout_probe", headers=(header,))
    if header == DEMO_HEADER:
        module = demo_module()
    else:
        module = read_binding(config).module
    return run_passes(module, config, get_target("linux-x86_64"))


def _ctypes_classes(binding):
    namespace: dict = {"_ct": ctypes}
    plans, _, _ = struct_plans(binding)
    for plan in plans:
        base = ctypes.Union if plan.kind == "union" else ctypes.Structure
        attrs: dict = {}
        if plan.pack:
            attrs["_pack_"] = plan.pack
        anonymous = [m.name for m in plan.members if m.anonymous]
        if anonymous:
            attrs["_anonymous_"] = anonymous
        attrs["_fields_"] = [(m.name, eval(m.ctype, namespace)) for m in plan.members]
        namespace[plan.name] = type(plan.name, (base,), attrs)
    return {plan.key: (namespace[plan.name], plan) for plan in plans}


#: the conformance suite's libraries are bound for the host too
CONFORMANCE_HEADERS = [Path(__file__).parent / "conformance" / name for name in ("conf.h", "hostile.h")]
CASES = [DEMO_HEADER, *HOST_HEADERS, *CONFORMANCE_HEADERS]


@pytest.mark.parametrize("header", CASES, ids=[h.name for h in CASES])
def test_ctypes_sizes_alignments_and_offsets_follow_pegbind_layouts(header):
    binding = _binding(header)
    classes = _ctypes_classes(binding)
    checked = 0
    mismatches = []
    for key, layout in binding.layouts.items():
        if key not in classes:
            continue
        cls, plan = classes[key]
        if ctypes.sizeof(cls) != layout.size:
            mismatches.append(f"{key}: size {ctypes.sizeof(cls)} != {layout.size}")
        # ctypes (before 3.13) has no type aligned beyond long double's 16 bytes; nor can it give
        # a record an alignment that does not divide its size (a typedef's), or put a member below
        # its own alignment without lowering the record's (a typedef's smaller one)
        record = binding.module.get("record", key)
        exact = layout.size % layout.align == 0 and not any(
            typedef_aligned(binding.module, m.type) for m in record.fields or ())
        if exact and ctypes.alignment(cls) != min(layout.align, ctypes.alignment(ctypes.c_longdouble)):
            mismatches.append(f"{key}: alignment {ctypes.alignment(cls)} != {layout.align}")
        bits = {access.path: access for access in plan.bitfields}
        for path, placed in layout.flat_fields():
            if placed.bit_width is not None:
                # a bitfield lives in a storage member: its bits must start where gcc's do
                access = bits[path]
                start = 8 * getattr(cls, access.storage).offset + access.shift
                if (start, access.width) != (placed.bit_offset, placed.bit_width):
                    mismatches.append(f"{key}.{path}: bits {start}+{access.width} != {placed.bit_offset}+{placed.bit_width}")
                continue
            member = getattr(cls, ctypes_attr(path))  # members named like keywords are renamed
            if member.offset != placed.offset:
                mismatches.append(f"{key}.{path}: offset {member.offset} != {placed.offset}")
        checked += 1
    assert checked > 0 or not binding.layouts
    assert mismatches == []


@pytest.mark.parametrize("header", CASES, ids=[h.name for h in CASES])
def test_cffi_cdef_sizes_and_offsets_follow_pegbind_layouts(header):
    cffi = pytest.importorskip("cffi")
    binding = _binding(header)
    ffi = cffi.FFI()
    for chunk in cdef_chunks(binding, excluded(binding)):
        if chunk.pack is None:
            ffi.cdef(chunk.text)
        else:
            ffi.cdef(chunk.text, pack=chunk.pack)
    mismatches = []
    for key, layout in binding.layouts.items():
        record = binding.module.get("record", key)
        if record is None or "<" in key:
            continue
        if needs_compiler_layout(binding.module, record):
            continue  # declared partial ('...;'): only the compiler knows, API mode asks it
        name = c_spelling(record.ref)
        if ffi.sizeof(name) != layout.size:
            mismatches.append(f"{key}: size {ffi.sizeof(name)} != {layout.size}")
        for path, placed in layout.flat_fields():
            if placed.bit_width is None and ffi.offsetof(name, path) != placed.offset:
                mismatches.append(f"{key}.{path}: offset {ffi.offsetof(name, path)} != {placed.offset}")
    assert mismatches == []
