"""Passes: the parsed model -> the binding model the emitters render.

Input: a :class:`~pegbind.model.Module`, the :class:`~pegbind.config.BindingConfig`
and the :class:`~pegbind.target.TargetInfo`.  Output: a frozen
:class:`~pegbind.passes.binding.BindingModel`.  The whole pipeline is the
:data:`PIPELINE` table below, run in order; each pass reads the state the
previous ones left and returns a new one.
"""
from __future__ import annotations

import keyword
from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal

from ..config import BindingConfig
from ..diagnostics import ConfigError, Diagnostic, PegbindError
from ..frozen import frozen_dataclass, replace
from ..model import Address, Constant, CType, Function, FunctionType, Module, Pointer, TypedefRef, TypeNode
from ..target import TargetInfo
from ..toolchain import include_spelling
from .binding import (
    MODULE_NAMES,
    AnonymousType,
    BindingModel,
    CallbackBinding,
    CallbackClass,
    ConstantBinding,
    Deallocator,
    EnumBinding,
    ErrorCheck,
    ErrorClasses,
    FieldBinding,
    FunctionBinding,
    FunctionTableBinding,
    HandleBinding,
    ParamBinding,
    RecordBinding,
    ReturnBinding,
)
from .callplan import plan_call
from .naming import anonymous_types, assign_names, python_identifier, unmangled
from .order import order_types
from .plan import (
    Unsupported,
    callback_on_error,
    callback_typedef,
    check_pointer_fields,
    classify_return,
    function_pointer_type,
    plan_callback,
    plan_cells,
    plan_error_classes,
    plan_function_table,
    plan_functions,
    plan_handles,
    plan_ownership,
    plan_records,
    pointer_elements,
    pointer_type,
    rule_name,
)
from .select import is_synthetic, select_declarations, types_of_bound, undeclared_types


def _pointer_constant(module: Module, names: dict, constant: Constant
                      ) -> tuple[Literal["function_pointer", "handle", "pointer"], str, str | None] | None:
    """What the object of an integer cast to a pointer type is (see :class:`ConstantBinding`)."""
    if not isinstance(constant.value, Address):
        return None
    try:
        kind, key = classify_return(module, names, constant.type)
    except Unsupported:
        kind, key = "pointer", None
    if kind == "function_pointer":
        return "function_pointer", function_pointer_type(module, constant.type), None
    if kind == "handle":
        return "handle", pointer_type(module, constant.type), key
    return "pointer", pointer_type(module, constant.type), None  # a string or record C may not hold there


if TYPE_CHECKING:  # what the build found of the linked libraries; passes read no binaries
    from ..exports import Exports

__all__ = [
    "BindingModel", "ConstantBinding", "EnumBinding", "ErrorCheck", "ErrorClasses", "FieldBinding", "FunctionBinding",
    "FunctionTableBinding", "HandleBinding", "ParamBinding", "RecordBinding", "ReturnBinding", "PIPELINE",
    "run_passes", "python_identifier",
]


@frozen_dataclass()
class PassState:
    """What the passes have worked out so far."""

    module: Module
    config: BindingConfig
    target: TargetInfo
    names: dict = field(default_factory=dict)
    type_order: tuple[TypeNode, ...] = ()
    functions: tuple[FunctionBinding, ...] = ()
    declared_only: tuple[Function, ...] = ()
    records: tuple[RecordBinding, ...] = ()
    handles: tuple[HandleBinding, ...] = ()
    function_table: FunctionTableBinding | None = None
    errors: ErrorClasses | None = None
    #: what the linked libraries export, when known (``pegbind.exports``)
    exports: Exports | None = None
    deallocators: tuple[Deallocator, ...] = ()
    owned_records: frozenset[str] = frozenset()
    layouts: dict[str, Any] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    #: warnings about one type declaration (a field it cannot bind, a renamed class),
    #: kept until ``prune`` knows whether the declaration stays: (its node, the warning)
    type_notes: tuple[tuple[tuple[str, str], Diagnostic], ...] = ()
    #: the anonymous structs, unions and enums written inside records (the naming pass)
    anonymous: dict[str, AnonymousType] = field(default_factory=dict)


def _select(state: PassState) -> PassState:
    module = select_declarations(state.module, state.config)
    # No backend exposes extern objects yet: say so for each one selected.
    unbound = tuple(
        Diagnostic(v.coord, f"variable '{v.name}' is not bound: extern variables are not exposed yet", "warning")
        for v in module.variables
    )
    return replace(state, module=module, diagnostics=state.diagnostics + unbound)


def _name(state: PassState) -> PassState:
    names, warnings = assign_names(state.module, state.config.strip_prefix, state.config.load == "dynamic")
    typed = tuple((key, w) for key, w in warnings if key[0] in ("record", "enum"))
    others = tuple(w for key, w in warnings if key[0] not in ("record", "enum"))
    return replace(state, names=names, diagnostics=state.diagnostics + others, type_notes=state.type_notes + typed,
                   anonymous=anonymous_types(state.module))


def _order(state: PassState) -> PassState:
    return replace(state, type_order=order_types(state.module))


def _plan_records(state: PassState) -> PassState:
    records, dropped = plan_records(state.module, state.names, state.target, state.config)
    return replace(state, records=tuple(records), type_notes=state.type_notes + tuple(dropped))


def _plan_handles(state: PassState) -> PassState:
    return replace(state, handles=tuple(plan_handles(state.module, state.names)))


def _plan_loading(state: PassState) -> PassState:
    return replace(state, function_table=plan_function_table(state.module, state.config))


def _plan_errors(state: PassState) -> PassState:
    return replace(state, errors=plan_error_classes(state.module, state.config, state.names))


def _plan_functions(state: PassState) -> PassState:
    bound, declared_only, dropped = plan_functions(state.module, state.config, state.names, state.target,
                                                   state.function_table, state.exports)
    return replace(
        state, functions=tuple(bound), declared_only=tuple(declared_only),
        diagnostics=state.diagnostics + tuple(dropped),
    )


def _plan_ownership(state: PassState) -> PassState:
    functions, deallocators, owned = plan_ownership(state.config, list(state.functions))
    return replace(state, functions=tuple(functions), deallocators=deallocators, owned_records=owned)


def _users(state: PassState) -> list[Function]:
    """The functions whose types the generated code declares: the bound ones, and the table getter."""
    users = [f.function for f in state.functions] + list(state.declared_only)
    if state.function_table is not None:
        users.append(state.function_table.getter)  # load() calls it
    return users


def _prune(state: PassState) -> PassState:
    # Only now is it known which functions are bound: the types a left-out
    # function alone needed (a va_list, a C library record) go with it.
    module = types_of_bound(state.module, state.config, _users(state))
    kept = {r.key for r in module.records}
    nodes = {("record", key) for key in kept} | {("enum", e.key) for e in module.enums}
    return replace(
        state, module=module, type_order=order_types(module),
        records=tuple(r for r in state.records if r.record.key in kept),
        handles=tuple(h for h in state.handles
                      if (h.key in kept if h.record is not None else module.find_typedef(h.key) is not None)),
        diagnostics=state.diagnostics + tuple(note for node, note in state.type_notes if node in nodes),
    )


def _layout(state: PassState) -> PassState:
    # Layouts are computed by pegbind.target when it offers record_layout;
    # backends that compile against the real header (Cython) do not need them.
    from .. import target as target_module

    record_layout = getattr(target_module, "record_layout", None)
    if record_layout is None:
        return state
    layouts = {}
    problems = []
    for record in state.module.records:
        if record.is_opaque:
            continue
        try:
            layouts[record.key] = record_layout(state.module, record.key, state.target)
        except (PegbindError, KeyError, ValueError, TypeError) as exc:
            if is_synthetic(record.key):
                continue  # the record it is written in has no layout either, and says why
            if isinstance(exc, PegbindError):  # the layout's own diagnostic says where and why
                reason = "; ".join(d.message for d in exc.diagnostics)
            else:
                reason = str(exc)
            problems.append(Diagnostic(record.coord, f"no layout for {record.key}: {reason}", "warning"))
    return replace(state, layouts=layouts, diagnostics=state.diagnostics + tuple(problems))


def _plan_calls(state: PassState) -> PassState:
    functions = tuple(replace(f, call=plan_call(state.module, state.target, f)) for f in state.functions)
    return replace(state, functions=functions)


#: The passes, in the order they run.
PIPELINE: tuple[tuple[str, Callable[[PassState], PassState]], ...] = (
    ("select", _select),
    ("name", _name),
    ("order", _order),
    ("plan-records", _plan_records),
    ("plan-handles", _plan_handles),
    ("plan-loading", _plan_loading),
    ("plan-errors", _plan_errors),
    ("plan-functions", _plan_functions),
    ("plan-ownership", _plan_ownership),
    ("prune", _prune),
    ("layout", _layout),
    ("plan-calls", _plan_calls),
)


def callback_classes(module: Module, config: BindingConfig, target: TargetInfo, functions: tuple[FunctionBinding, ...],
                     names: dict) -> tuple[CallbackClass, ...]:
    """A class for each function pointer typedef: of those callable parameters are declared
    with, and of every other the library declares whose values can cross to Python (curl's
    ``curl_write_callback``, given to ``curl_easy_setopt`` among its extra arguments).  Named
    as the typedef (C gives a typedef no name a function, constant or variable has); none for
    a name the module has given something else, or one C reserves (``__compar_fn_t``)."""
    taken = set(names.values()) | MODULE_NAMES
    found: dict[str, CallbackClass] = {}

    def add(name: str, callback: CallbackBinding) -> None:
        if (name not in found and name not in taken and name.isidentifier() and not keyword.iskeyword(name)
                and unmangled(name) == name):  # C reserves it (__compar_fn_t), and a class body could not spell it
            function_type = isinstance(module.resolve(TypedefRef(name)), FunctionType)
            found[name] = CallbackClass(name, callback, f"{name} *" if function_type else name)

    for function in functions:
        for param in function.params:
            # a parameter's own on_error is its own: the class gives what the typedef's says
            if param.callback is None or param.role.on_error is not None:
                continue
            named = callback_typedef(module, param.ctype)
            if named:
                add(named, param.callback)
    pointers = set()
    for typedef in module.typedefs:
        ref = TypedefRef(typedef.name)
        resolved = module.resolve(ref)
        pointer: CType = ref
        if isinstance(resolved, FunctionType):  # typedef int (Tcl_ObjCmdProc)(...): C passes a pointer to one
            pointer, resolved = Pointer(ref), Pointer(resolved)
        function_type = module.resolve(resolved.target) if isinstance(resolved, Pointer) else None
        if not isinstance(function_type, FunctionType):
            continue
        pointers.add(typedef.name)
        if typedef.name in found or typedef.name.startswith("_"):
            continue
        try:
            callback = plan_callback(module, target, names, pointer, function_type)
        except Unsupported:
            continue  # an argument or result no Python value stands for: no class, as no parameter
        if typedef.name in config.callbacks:
            callback = callback_on_error(module, config, callback, config.callbacks[typedef.name],
                                         config.key(f"callbacks.{typedef.name}"))
        add(typedef.name, callback)
    for name in config.callbacks:
        if name not in pointers:
            key = config.key(f"callbacks.{name}")
            raise ConfigError(Diagnostic(config.coord(key),
                                         f"{key}: the headers declare no function pointer type {name}"))
    return tuple(found.values())


def _check_rules_match(module: Module, config: BindingConfig) -> None:
    """A ``functions`` rule whose ``match`` names no function the headers declare, or whose
    ``params``/``nonnull`` name a parameter none of its functions has, is a mistake (a misspelt
    name, another library's function): said, not left to bind the function unchecked.
    Not for a rule marked ``optional``: one config may serve headers of several versions,
    which may spell a parameter differently."""
    targets = {a.name: a.target for a in module.function_aliases}
    functions = {f.name: f for f in module.functions}
    problems = []
    for rule in config.functions:
        if rule.optional:
            continue
        located = not rule.key.startswith("--")
        matched = [functions[targets.get(name, name)] for name in [*functions, *targets]
                   if rule.matches(name) and targets.get(name, name) in functions]
        if not matched and not any(rule.matches(name) for name in targets):
            key = f"{rule.key}.match" if located else rule.key
            problems.append(Diagnostic(config.coord(key), f"{key}: {rule.pattern!r} matches no function the "
                                                          "headers declare (optional = true: only some versions "
                                                          "of the headers declare it)"))
            continue
        known = list(dict.fromkeys(rule_name(p.name, i) for f in matched for i, p in enumerate(f.params)))
        named = [(f"params.{name}", name) for name in rule.params]
        named += [(f"nonnull[{i}]", name) for i, name in enumerate(rule.nonnull) if name != "*"]
        for where, name in named:
            if name in known:
                continue
            key = f"{rule.key}.{where}" if located else rule.key
            import difflib  # only for a rule naming nothing

            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (its parameters: {', '.join(known) or 'none'})"
            lacks = (f"{matched[0].name} has no parameter {name!r}" if len(matched) == 1 else
                     f"none of the {len(matched)} functions {rule.pattern!r} matches has a parameter {name!r}")
            problems.append(Diagnostic(config.coord(key), f"{key}: {lacks}{hint}"))
    if problems:
        raise ConfigError(problems)


def run_passes(module: Module, config: BindingConfig, target: TargetInfo,
               exports: Exports | None = None) -> BindingModel:
    """Run :data:`PIPELINE` over ``module`` and package the result.

    ``exports``: the symbols the linked libraries define, where they could be
    read; a function they do not define is left out.
    """
    _check_rules_match(module, config)
    check_pointer_fields(module, config)
    state = PassState(module, config, target, exports=exports)
    for _name_of_pass, run in PIPELINE:
        state = run(state)
    names = state.names
    enums = tuple(
        EnumBinding(
            enum,
            names.get(("enum", enum.key)),
            tuple((names[("member", m.name)], m.value) for m in enum.members),
        )
        for enum in state.module.enums
    )
    constants = tuple(
        ConstantBinding(c, names[("constant", c.name)], _pointer_constant(state.module, names, c))
        for c in state.module.constants
    )
    cells, cell_aliases = plan_cells(target)
    # the types of the Pointer objects the module makes: returned, written to out cells, read from
    # fields, given to callables
    pointers = [f.function.ret for f in state.functions if f.ret.kind == "pointer"]
    pointers += [p.element for f in state.functions for p in f.params
                 if p.kind == "pointer" and p.role.role == "out" and p.element is not None]
    pointers += [field.ctype for r in state.records for field in r.fields if field.kind == "data_pointer"]
    pointers += [Pointer(field.element) for r in state.records for field in r.fields
                 if field.kind == "array_pointer" and field.element is not None]
    classes = callback_classes(state.module, config, target, state.functions, names)
    callables = [p.callback for f in state.functions for p in f.params if p.callback is not None]
    callables += [c.callback for c in classes]
    callables += [field.callback for r in state.records for field in r.fields if field.callback is not None]
    pointers += [a.ctype for cb in callables for a in cb.args if a.kind == "pointer"]
    wrapped = {f.function.name: f.py_name for f in state.functions}
    function_aliases = tuple(
        (names[("function_alias", a.name)], wrapped[a.target])
        for a in state.module.function_aliases if a.target in wrapped
    )
    return BindingModel(
        name=config.name,
        module=state.module,
        target=target,
        headers=tuple(include_spelling(path, config.include_dirs)[0] for path in config.headers),
        functions=state.functions,
        records=state.records,
        enums=enums,
        constants=constants,
        type_order=state.type_order,
        layouts=dict(state.layouts),
        declared_only=state.declared_only,
        diagnostics=state.diagnostics,
        load="dynamic" if config.load == "dynamic" else "link",
        function_table=state.function_table,
        handles=state.handles,
        errors=state.errors,
        function_aliases=function_aliases,
        cells=cells,
        cell_aliases=cell_aliases,
        deallocators=state.deallocators,
        owned_records=state.owned_records,
        undeclared_types=undeclared_types(state.module, _users(state)),
        weak_references=exports is None or not exports.archives,
        anonymous={key: place for key, place in state.anonymous.items()
                   if state.module.find_record(key) is not None or state.module.find_enum(key) is not None},
        pointer_elements=pointer_elements(state.module, target, names, pointers),
        callback_classes=classes,
    )
