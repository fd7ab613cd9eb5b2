"""Passes ``plan-functions`` and ``plan-records``: how each value crosses the boundary.

Input: the selected Module, the Python names and the config's per-function
rules.  Output: :class:`~pegbind.passes.binding.FunctionBinding` and
:class:`~pegbind.passes.binding.RecordBinding` values, and a diagnostic for
every function or field left out, saying why.  The classification is
backend-neutral: every backend reads the same *kind* for a parameter.
"""
from __future__ import annotations

from ..config import BindingConfig, ParamRole
from ..diagnostics import Diagnostic
from ..model import Array, CType, Field, Function, Module, Pointer, Primitive, Record, RecordRef, TypedefRef
from ..target import TargetInfo
from .binding import ErrorCheck, FieldBinding, FunctionBinding, ParamBinding, RecordBinding, ReturnBinding
from .naming import field_identifier, python_identifier
from .select import is_synthetic

_CHARS = ("char", "signed char", "unsigned char")
#: Roles this version turns into wrappers; the config already rejects unknown ones.
SUPPORTED_ROLES = ("in",)


class Unsupported(Exception):
    """A type has no default Python conversion; the message says which and why."""


def _arithmetic(resolved: CType) -> str | None:
    """``int``/``bool``/``float`` for an arithmetic type (enums are ``int``), else None."""
    if isinstance(resolved, RecordRef) and resolved.kind == "enum":
        return "int"
    if isinstance(resolved, Primitive):
        if resolved.name in ("void", "__int128", "unsigned __int128"):
            return None
        if resolved.name == "_Bool":
            return "bool"
        return "float" if resolved.is_floating else "int"
    return None


def _has_class(module: Module, names: dict, ref: RecordRef) -> bool:
    record = module.get("record", ref.key)
    return record is not None and not record.is_opaque and ("record", ref.key) in names  # type: ignore[union-attr]


def classify_param(module: Module, names: dict, ctype: CType) -> tuple[str, str | None, CType | None]:
    """(kind, record key, buffer element) for a parameter of the ``in`` role."""
    resolved = module.resolve(ctype)
    if isinstance(resolved, Array):  # C adjusts array parameters to pointers
        resolved = Pointer(resolved.element)
    kind = _arithmetic(resolved)
    if kind is not None:
        return kind, None, None
    if isinstance(resolved, RecordRef) and resolved.kind != "enum":
        if _has_class(module, names, resolved):
            return "record", resolved.key, None
        raise Unsupported(f"{resolved.to_c()} is opaque or has no class")
    if isinstance(resolved, Pointer):
        target = module.resolve(resolved.target)
        if isinstance(target, RecordRef) and target.kind != "enum":
            if _has_class(module, names, target):
                return "record_ptr", target.key, None
            raise Unsupported(f"a pointer to the opaque {target.to_c()} has no Python type yet")
        if isinstance(target, Primitive) and target.name == "char" and target.is_const:
            return "cstring", None, target
        if isinstance(target, Primitive) and target.is_void:
            return ("buffer" if target.is_const else "writable_buffer"), None, None
        if _arithmetic(target) is not None:
            return ("buffer" if target.is_const else "writable_buffer"), None, target
    raise Unsupported(f"{ctype.to_c()} has no default Python conversion")


def classify_return(module: Module, names: dict, ctype: CType) -> tuple[str, str | None]:
    resolved = module.resolve(ctype)
    if isinstance(resolved, Primitive) and resolved.is_void:
        return "void", None
    kind = _arithmetic(resolved)
    if kind is not None:
        return kind, None
    if isinstance(resolved, RecordRef) and _has_class(module, names, resolved):
        return "record", resolved.key
    if isinstance(resolved, Pointer):
        target = module.resolve(resolved.target)
        if isinstance(target, Primitive) and target.name in _CHARS:
            return "string", None
    raise Unsupported(f"returning {ctype.to_c()} has no default Python conversion")


def _resolve_success(module: Module, value: str | int) -> int:
    if isinstance(value, int):
        return value
    constant = module.get("constant", value)
    if constant is not None and isinstance(constant.value, int):  # type: ignore[union-attr]
        return constant.value  # type: ignore[union-attr,return-value]
    for enum in module.enums:
        for member in enum.members:
            if member.name == value:
                return member.value
    raise Unsupported(f"error_policy.success names {value!r}, which is not an integer constant")


def plan_function(module: Module, config: BindingConfig, names: dict, function: Function) -> FunctionBinding:
    """The wrapper plan of one function; raises :class:`Unsupported` when it cannot be wrapped."""
    if function.variadic:
        raise Unsupported("variadic functions cannot be called with a fixed signature")
    roles: dict[str, ParamRole] = {}
    release_gil = config.release_gil
    errors = None
    for rule in config.rules_for(function.name):
        roles.update(rule.params)
        if rule.release_gil is not None:
            release_gil = rule.release_gil
        if rule.errors is not None:
            errors = rule.errors
    module_names = set(names.values())
    params = []
    used: set[str] = set()
    for index, param in enumerate(function.params):
        role = roles.get(param.name or "", ParamRole("in"))
        if role.role not in SUPPORTED_ROLES:
            raise Unsupported(f"parameter role {role.role!r} is not supported by this backend version")
        try:
            kind, key, element = classify_param(module, names, param.type)
        except Unsupported as exc:
            raise Unsupported(f"parameter {index + 1} ({param.name or 'unnamed'}): {exc}") from None
        # A parameter may not hide a module-level name the wrapper body needs (a class, a function).
        py_name = python_identifier(param.name) if param.name else f"arg{index}"
        while py_name in module_names or py_name in used:
            py_name += "_"
        used.add(py_name)
        params.append(ParamBinding(index, param.name, py_name, param.type, role, kind, key, element))  # type: ignore[arg-type]
    ret_kind, ret_key = classify_return(module, names, function.ret)
    check = None
    policy = config.error_policy
    if policy is not None and errors is not False:
        ret = function.ret
        if isinstance(ret, TypedefRef) and ret.name == policy.return_type or ret.to_c() == policy.return_type:
            check = ErrorCheck(policy, _resolve_success(module, policy.success))
    return FunctionBinding(
        function,
        names[("function", function.name)],
        tuple(params),
        ReturnBinding(function.ret, ret_kind, ret_key),  # type: ignore[arg-type]
        check,
        release_gil,
    )


def plan_functions(module: Module, config: BindingConfig, names: dict) -> tuple[list[FunctionBinding], list[Function], list[Diagnostic]]:
    """Wrapper plans, the functions only declared, and why each of those was left out."""
    bound, declared_only, dropped = [], [], []
    for function in module.functions:
        try:
            bound.append(plan_function(module, config, names, function))
        except Unsupported as exc:
            dropped.append(Diagnostic(function.coord, f"function {function.name!r} is not wrapped: {exc}", "warning"))
            if function.variadic:
                declared_only.append(function)
    return bound, declared_only, dropped


def _bit_range(module: Module, member: Field, target: TargetInfo) -> tuple[int, int] | None:
    if member.bit_width is None:
        return None
    resolved = module.resolve(member.type)
    width = member.bit_width
    unsigned = isinstance(resolved, Primitive) and (
        resolved.is_unsigned or (resolved.name == "char" and not target.char_signed)
    )
    if unsigned or (isinstance(resolved, RecordRef) and resolved.kind == "enum"):
        # gcc gives an enum bitfield the enum's (here unsigned) underlying type
        # unless some enumerator is negative.
        return (0, (1 << width) - 1)
    return (-(1 << (width - 1)), (1 << (width - 1)) - 1)


def plan_field(module: Module, names: dict, member: Field, path: str, target: TargetInfo) -> FieldBinding:
    """How one named member is presented; raises :class:`Unsupported` for the rest."""
    py_name = field_identifier(path)
    resolved = module.resolve(member.type)
    kind = _arithmetic(resolved)
    if kind is not None:
        return FieldBinding(path, py_name, member.type, kind, bit_width=member.bit_width,  # type: ignore[arg-type]
                            bit_range=_bit_range(module, member, target))
    if isinstance(resolved, RecordRef):
        if is_synthetic(resolved.key):
            raise Unsupported("its type is an anonymous record, which has no name to declare")
        if _has_class(module, names, resolved):
            return FieldBinding(path, py_name, member.type, "record", record_key=resolved.key)
        raise Unsupported(f"{resolved.to_c()} is opaque")
    if isinstance(resolved, Array):
        if resolved.length is None:
            raise Unsupported("flexible array members have no fixed size")
        element = module.resolve(resolved.element)
        if isinstance(element, Primitive) and element.name in _CHARS:
            kind = "char_array" if element.name == "char" else "byte_array"
            return FieldBinding(path, py_name, member.type, kind, length=resolved.length, element=resolved.element)  # type: ignore[arg-type]
        element_kind = _arithmetic(element)
        if element_kind is not None:
            return FieldBinding(path, py_name, member.type, "array", length=resolved.length,
                                element=resolved.element, element_kind=element_kind)
        if isinstance(element, RecordRef) and not is_synthetic(element.key) and _has_class(module, names, element):
            return FieldBinding(path, py_name, member.type, "record_array", record_key=element.key,
                                length=resolved.length, element=resolved.element)
        raise Unsupported(f"arrays of {resolved.element.to_c()} are not supported")
    if isinstance(resolved, Pointer):
        target_type = module.resolve(resolved.target)
        if isinstance(target_type, Primitive) and target_type.name == "char":
            return FieldBinding(path, py_name, member.type, "string")
        return FieldBinding(path, py_name, member.type, "pointer")
    raise Unsupported(f"{member.type.to_c()} has no Python conversion")


def _members(module: Module, record: Record):
    """(C path, Field) of every named member, lifting anonymous struct/union members."""
    for member in record.fields or ():
        if member.name is not None:
            yield member.name, member
            continue
        resolved = module.resolve(member.type)
        if isinstance(resolved, RecordRef) and resolved.kind != "enum":
            inner = module.get("record", resolved.key)
            if inner is not None:
                yield from _members(module, inner)  # type: ignore[arg-type]
        # an unnamed bitfield is padding: nothing to bind


def plan_records(module: Module, names: dict, target: TargetInfo) -> tuple[list[RecordBinding], list[Diagnostic]]:
    from .naming import record_class_names  # the same preference order as the naming pass

    bindings, dropped = [], []
    for record in module.records:
        if record.is_opaque or ("record", record.key) not in names:
            continue
        fields = []
        for path, member in _members(module, record):
            try:
                fields.append(plan_field(module, names, member, path, target))
            except Unsupported as exc:
                dropped.append(Diagnostic(member.coord, f"field {path!r} of {record.key} is not bound: {exc}", "warning"))
        aliases = tuple(
            names[("alias", alias)] for alias in record_class_names(module, record)[1:] if ("alias", alias) in names
        )
        bindings.append(RecordBinding(record, names[("record", record.key)], aliases, tuple(fields)))
    return bindings, dropped

