"""ctypes spelling of model types: ``_ct.c_int32``, ``_S<n>`` record classes, pointers as ``c_void_p``."""
from __future__ import annotations

import keyword

from ...model import COMPLEX_PARTS, Array, CType, FunctionType, Pointer, Primitive, RecordRef, TypedefRef, assert_never
from ...passes.binding import BindingModel, FunctionBinding, ParamBinding
from ...passes.naming import unmangled
from ...target import integer_primitive
from ..pywrapper import UnspellableError


class CtypesSpellingError(UnspellableError):
    """A C type with no ctypes equivalent (``__int128``, a function by value)."""


def ctypes_attr(name: str) -> str:
    """The attribute a C member is reached by on a ctypes Structure: Python keywords, and names a
    class body would rewrite (``__x``: see :func:`~pegbind.passes.naming.unmangled`), are renamed."""
    return f"_pb_{name}" if keyword.iskeyword(name) or unmangled(name) != name else name


_FLOATS = {"float": "_ct.c_float", "double": "_ct.c_double", "long double": "_ct.c_longdouble"}
#: Where a complex value crosses a call as a structure of its two parts would (libffi knows no
#: complex type), as an argument and as a result.  Arguments: on x86-64 (SysV) float and double in
#: SSE registers and long double in memory, alike; on i386 all on the stack; on AArch64 each a
#: homogeneous aggregate of its parts.  Results: on x86-64 not long double, which C returns in the
#: x87 registers and a structure in memory; on i386 none, which C returns in registers and a
#: structure in memory.
_COMPLEX_ARGUMENTS = {target: tuple(COMPLEX_PARTS) for target in ("linux-x86_64", "linux-aarch64", "linux-i386")}
_COMPLEX_RESULTS = {
    "linux-x86_64": ("float _Complex", "double _Complex"),
    "linux-aarch64": ("float _Complex", "double _Complex", "long double _Complex"),
}


class CtypesSpeller:
    """Spells model types as ctypes expressions for one binding's module and target.

    Integer types are spelled by width (``_ct.c_int32``) from the target's
    data model, so the module describes the target's layout, not the
    generating machine's; records are the ``_S<n>`` classes of the module.
    """

    def __init__(self, binding: BindingModel):
        self.module = binding.module
        self.target = binding.target
        self.struct_names: dict[str, str] = {}
        #: the Structure class of each complex type spelled (its two parts), by name -> part type
        self.complex_classes: dict[str, str] = {}
        for index, record in enumerate(r for r in self.module.records if not r.is_opaque):
            self.struct_names[record.key] = f"_S{index}"

    def integer(self, name: str) -> str:
        if name == "_Bool":
            return "_ct.c_bool"
        bits = 8 * self.target.size_of(name)
        if bits > 64:
            raise CtypesSpellingError(f"ctypes has no {bits}-bit integer ({name})")
        return f"_ct.c_{'' if self.target.is_signed(name) else 'u'}int{bits}"

    def spell(self, ctype: CType) -> str:
        """The ctypes type of a value of ``ctype`` (data pointers are ``c_void_p``)."""
        resolved = self.module.resolve(ctype)
        match resolved:
            case Primitive():
                if resolved.is_void:
                    return "None"
                if resolved.is_floating:
                    return _FLOATS[resolved.name]
                if resolved.is_complex:
                    part = COMPLEX_PARTS[resolved.name]
                    name = f"_pb_c_{part.replace(' ', '')}_complex"
                    self.complex_classes[name] = _FLOATS[part]
                    return name
                return self.integer(resolved.name)
            case RecordRef():
                if resolved.kind == "enum":
                    return self.integer(integer_primitive(self.module, resolved, self.target) or "int")
                return self.struct_name(resolved.key)
            case Pointer():
                return "_ct.c_void_p"
            case Array():
                return f"({self.spell(resolved.element)} * {resolved.length or 0})"
            case FunctionType():
                raise CtypesSpellingError("a function type has no value")
            case TypedefRef():  # a typedef that leads to no type: undeclared (a compiler builtin) or circular
                raise CtypesSpellingError(f"cannot spell {ctype.to_c()} in ctypes")
            case _:
                assert_never(resolved)

    def field_type(self, ctype: CType) -> str:
        """Like :meth:`spell`, but ``char`` arrays as ``c_char`` arrays (ctypes reads those as
        bytes up to the NUL); pointers, characters too, hold addresses (``c_void_p``), which the
        record class reads."""
        resolved = self.module.resolve(ctype)
        match resolved:
            case Pointer():
                return self.spell(ctype)
            case Array():
                element = self.module.resolve(resolved.element)
                if isinstance(element, Primitive) and element.name == "char":
                    return f"(_ct.c_char * {resolved.length or 0})"
                return f"({self.field_type(resolved.element)} * {resolved.length or 0})"
            case Primitive() | TypedefRef() | RecordRef() | FunctionType():
                return self.spell(ctype)
            case _:
                assert_never(resolved)

    def struct_name(self, key: str) -> str:
        """The ctypes class of the record ``key``; CtypesSpellingError when the module has none."""
        name = self.struct_names.get(key)
        if name is None:
            record = self.module.find_record(key)
            opaque = record is None or record.is_opaque
            raise CtypesSpellingError(f"{key} is opaque" if opaque else f"it needs {key}, which is not in it")
        return name

    def by_value(self, ctype: CType, result: bool = False) -> str:
        """:meth:`spell` for a value a call passes (or returns, ``result``): a complex type only
        where the target's ABI passes it as the structure ctypes has for it."""
        resolved = self.module.resolve(ctype)
        if isinstance(resolved, Primitive) and resolved.is_complex:
            allowed = (_COMPLEX_RESULTS if result else _COMPLEX_ARGUMENTS).get(self.target.name, ())
            if resolved.name not in allowed:
                verb = "return" if result else "pass"
                raise CtypesSpellingError(f"ctypes cannot {verb} {resolved.name} by value on {self.target.name}")
        return self.spell(ctype)

    def argtype(self, param: ParamBinding) -> str:
        if param.kind == "cstring":
            return "_ct.c_char_p"
        if param.kind in ("buffer", "writable_buffer"):
            return "_ct.c_void_p"
        if param.kind == "record_ptr":
            return f"_ct.POINTER({self.struct_name(param.record_key or '')})"
        return self.by_value(param.c_type)

    def restype(self, binding: FunctionBinding) -> str:
        if binding.ret.kind == "string":
            return "_ct.c_char_p"
        return self.by_value(binding.function.ret, result=True)
