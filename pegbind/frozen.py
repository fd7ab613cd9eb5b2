"""Frozen, slotted dataclasses that are quicker to make, and quicker to declare.

pegbind's model, syntax and plans are frozen dataclasses, and one of them is
made per token (a :class:`~pegbind.preprocess.token.Token`, which holds its
line and column; its :class:`~pegbind.diagnostics.Coord` is made when asked).
:func:`frozen_dataclass` declares the same class as
``@dataclass(frozen=True, slots=True)``, with three differences that only
show in time:

- Instances are made by a ``__new__`` of the same signature, which stores
  each field by a plain assignment on a base class holding the slots, then
  gives the instance the frozen class (:func:`_add_new`).  The ``__init__``
  :mod:`dataclasses` writes calls ``object.__setattr__(self, "name", value)``,
  which finds the slot on the class again for every field of every instance:
  a Token with a Coord was made in 0.5 us instead of 1.4 us (0.3 us through
  :func:`maker`, which skips the call of the class).  Classes with as many
  fields share the code, its names replaced; only a class with a
  ``default_factory`` compiles its own ``__init__``, which stores each field
  through its slot's descriptor.
- Every other method (``__repr__``, ``__eq__``, ``__hash__``, the order
  methods, the frozen ``__setattr__`` and ``__delattr__``, and the state
  pickling and copying use) is a closure over the fields.  :mod:`dataclasses`
  writes each as source and compiles it: with some 130 classes that was
  85 ms of every ``pegbind`` run, about half of its imports.  The closures
  compare and hash at about half the speed, and the pipeline hardly compares
  or hashes these objects (sqlite3.h's generate: 313 comparisons).
- The fields (:class:`dataclasses.Field`, as :func:`dataclasses.fields` gives
  them) and the slotted class are made here (:func:`_slotted`), not by
  :mod:`dataclasses`, which matched every annotation against ``ClassVar``,
  ``InitVar`` and ``KW_ONLY`` with regular expressions and module lookups.

Instances are otherwise the same: frozen (``FrozenInstanceError``, also for
a name that is no field, where CPython 3.11's own slotted class raises a
``TypeError``), compared and hashed by the fields that take part, printed
alike, and replaced, copied and pickled as before (tests compare both kinds
of class); the slots are the class's base's (``Token.<fields>``), not its
own.  :mod:`dataclasses` records the class as not frozen, so a plain
``@dataclass(frozen=True)`` cannot derive from it.

:func:`mutable_dataclass` declares the run's mutable state objects the same
way, as ``@dataclass(slots=True)``.
"""
from __future__ import annotations

import inspect
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, fields
from dataclasses import field as dataclass_field
from dataclasses import replace as dataclass_replace
from operator import attrgetter
from types import CodeType, FunctionType, MethodType
from typing import Any, TypeVar, dataclass_transform

C = TypeVar("C", bound=type)
T = TypeVar("T")

#: what a frozen_dataclass writes, or passes over (pickle and copy go by ``__reduce__``, not by
#: ``__getstate__``/``__setstate__``); a class that defines one of them itself is refused
_WRITTEN = frozenset({"__init__", "__new__", "__repr__", "__eq__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__",
                      "__setattr__", "__delattr__", "__getstate__", "__setstate__", "__reduce__", "__post_init__"})
#: what a mutable_dataclass writes (``__hash__``: None)
_WRITTEN_MUTABLE = frozenset({"__init__", "__repr__", "__eq__", "__hash__"})


@dataclass_transform(frozen_default=True)
def frozen_dataclass(*, order: bool = False) -> Callable[[C], C]:
    """``@dataclass(frozen=True, slots=True, order=order)``, made and declared faster."""
    def make(cls: C) -> C:
        return _declared(cls, frozen=True, order=order)
    return make


@dataclass_transform()
def mutable_dataclass() -> Callable[[C], C]:
    """``@dataclass(slots=True)``, declared faster: the state objects of one run (the
    preprocessor's open files and groups, the diagnostics sink, the include resolver).

    Declaring one with :mod:`dataclasses` compiled its ``__init__``, ``__repr__`` and
    ``__eq__`` from source, half a millisecond a class: some 6 ms of every run's
    imports for a dozen classes.  Made as :func:`frozen_dataclass` makes its classes,
    without the frozen ``__setattr__``, and unhashable, as dataclasses leaves a
    mutable class that compares.  Unlike a frozen_dataclass, a field may be left out
    of ``__init__`` (``field(init=False)``, set from its default, its factory, or by
    ``__post_init__``), which ``__init__`` calls where the class defines one.
    """
    def make(cls: C) -> C:
        return _declared(cls, frozen=False, order=False)
    return make


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``, quicker for an instance of a frozen_dataclass.

    dataclasses reads every field's declaration and calls ``__init__`` with
    each value by keyword: 3 us for a type of the model, more for a plan of
    twenty fields, and a run replaces some 2,000 of them (sqlite3.h's).  A
    frozen_dataclass has no ``__post_init__`` and gives every field to
    ``__init__``, so the copy is made as unpickling makes it: the values read
    at once, the changed ones put in, each stored in its slot.  Any other
    object is given to dataclasses.
    """
    made = _REPLACING.get(type(obj))
    if made is None:
        return dataclass_replace(obj, **changes)  # type: ignore[type-var]
    index, values_of, setters = made
    values = list(values_of(obj))
    for name, value in changes.items():
        at = index.get(name)
        if at is None:
            raise TypeError(f"{type(obj).__qualname__}.__init__() got an unexpected keyword argument {name!r}")
        values[at] = value
    return _filled(type(obj), setters, values)


def _remade(kind: type, values: tuple[Any, ...]) -> Any:
    """An instance of ``kind`` (a frozen_dataclass, or a class deriving from one) with the
    values of its fields: what pickle and copy make again (see ``__reduce__``)."""
    return _filled(kind, next(_REPLACING[klass][2] for klass in kind.__mro__ if klass in _REPLACING), values)


def _filled(kind: type, setters: Sequence[Callable[[Any, Any], None]], values: Sequence[Any]) -> Any:
    """A new instance of ``kind``, each value stored through its slot's setter (no ``__new__``,
    no ``__init__``, no frozen ``__setattr__``)."""
    made: Any = object.__new__(kind)
    for set_field, value in zip(setters, values, strict=True):
        set_field(made, value)
    return made


#: a frozen_dataclass -> (a field's name -> its index, its values getter, its slots' setters)
_REPLACING: dict[type, tuple[dict[str, int], Callable[[Any], tuple[Any, ...]], list[Callable[[Any, Any], None]]]] = {}


def _declared(cls: C, *, frozen: bool, order: bool) -> C:
    written = _WRITTEN if frozen else _WRITTEN_MUTABLE
    found = sorted(written & {name for klass in cls.__mro__[:-1] for name in vars(klass)})
    if found:
        kind = "frozen_dataclass" if frozen else "mutable_dataclass"
        raise TypeError(f"{cls.__name__}: a {kind} writes {', '.join(found)} itself")
    undocumented = not cls.__doc__
    if undocumented:  # or dataclasses reads object's own signature from its text (a compile each time)
        cls.__doc__ = cls.__name__
    made, every, fields_class = _slotted(cls, frozen=frozen)
    if fields_class is not None:
        _add_new(made, fields_class, every)
    else:
        _add_init(made, every)
    _add_methods(made, every, order, frozen)
    if undocumented:  # as dataclasses words it
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made


#: what every frozen_dataclass records as its dataclass parameters (only a stdlib dataclass
#: deriving from one would read them), and the kind dataclasses gives a field that is one
#: (neither a ClassVar nor an InitVar): both taken from a class dataclasses declares once
_DECLARED: Any = dataclass(slots=True, init=False, repr=False, eq=False)(
    type("_Declared", (), {"__annotations__": {"x": int}, "__doc__": "documented: no signature read"}))
_PARAMETERS = _DECLARED.__dataclass_params__
_FIELD_KIND = fields(_DECLARED)[0]._field_type  # type: ignore[attr-defined]


def _slotted(cls: C, *, frozen: bool = True) -> tuple[C, tuple[Field[Any], ...], type | None]:
    """The class again, with a slot for each field it declares; and its fields, as
    ``dataclass(slots=True, init=False, repr=False, eq=False)`` makes them.

    dataclasses asks of each annotation, written as text under
    ``from __future__ import annotations``, whether it names ``ClassVar``,
    ``InitVar`` or ``KW_ONLY``, three regular expression matches and module
    lookups a field: with everything else it does, that was half the time of
    declaring a class, and some 5 ms of every run's imports.  Here the name an
    annotation's text starts with tells: a ``ClassVar`` stays a class attribute,
    the fields after ``KW_ONLY`` are keyword-only, and an ``InitVar`` (which
    needs a ``__post_init__``) is refused.
    """
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")  # as dataclasses refuses it
    every: dict[str, Field[Any]] = {}  # a base cannot be a dataclass: it would write __init__
    body = dict(cls.__dict__)
    keyword_only = False
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        kind = _special(annotation)
        if kind == "ClassVar":
            continue  # a class attribute, as it is
        if kind == "KW_ONLY":  # the fields after it are keyword-only
            keyword_only = True
            body.pop(name, None)
            continue
        if kind == "InitVar":
            refused = "a frozen_dataclass has no InitVar (it writes no __post_init__)" if frozen else "no InitVar"
            raise TypeError(f"{cls.__name__}.{name}: {refused}")
        default = body.pop(name, MISSING)
        made: Field[Any] = default if isinstance(default, Field) else dataclass_field(default=default)
        if made.default is not MISSING and made.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(made.default)} for field {name} is not allowed: "
                             "use default_factory")
        if not made.init and frozen:
            raise TypeError(f"{cls.__name__}.{name}: every field of a frozen_dataclass is given to __init__")
        made.name, made.type = name, annotation
        made._field_type = _FIELD_KIND  # type: ignore[attr-defined]
        if made.kw_only is MISSING:
            made.kw_only = keyword_only
        every[name] = made
    inherited = {slot for base in cls.__mro__[1:-1] for slot in _slots_of(base)}
    slots = tuple(name for name in every if name not in inherited)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__dataclass_fields__"] = every
    body["__dataclass_params__"] = _PARAMETERS
    body["__match_args__"] = tuple(name for name, made in every.items() if made.init and not made.kw_only)
    bases, fields_class = cls.__bases__, None
    if frozen and all(made.default_factory is MISSING for made in every.values()):
        # the slots on a class of their own that refuses no assignment (see _add_new)
        fields_class = type(cls)(cls.__name__, bases, {"__slots__": slots, "__module__": cls.__module__,
                                                        "__qualname__": f"{cls.__qualname__}.<fields>"})
        bases, slots = (fields_class,), ()
    body["__slots__"] = slots
    slotted: C = type(cls)(cls.__name__, bases, body)
    slotted.__qualname__ = cls.__qualname__
    return slotted, tuple(every.values()), fields_class


def _special(annotation: object) -> str:
    """"ClassVar", "InitVar" or "KW_ONLY" for an annotation naming one (as text, too:
    ``"dataclasses.KW_ONLY"``, ``"ClassVar[int]"``), else ""."""
    if not isinstance(annotation, str):
        annotation = getattr(annotation, "__name__", None) or repr(annotation)
    head = annotation.split("[", 1)[0].strip().rsplit(".", 1)[-1]
    return head if head in ("ClassVar", "InitVar", "KW_ONLY") else ""


def _slots_of(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def field_values(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function of an instance giving the tuple of those fields (as the generated methods
    compare them, and the syntax walker searches a node's parts)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda instance: (one(instance),)
    return lambda instance: ()


class _Made:
    """The default of a parameter whose field's default is made anew for each instance."""

    def __repr__(self) -> str:
        return "<factory>"  # as a dataclass's signature shows it


#: number of fields -> the code of an ``__init__`` storing that many (see :func:`_add_init`)
_INIT_CODE: dict[int, CodeType] = {}


def _add_init(cls: type, every: tuple[Field[Any], ...]) -> None:
    compiled = any(field.default_factory is not MISSING or not field.init for field in every) or hasattr(
        cls, "__post_init__")
    init = _init_compiled(cls, every) if compiled else _init_without_factories(cls, every)
    init.__annotations__ = {**{field.name: field.type for field in every}, "return": None}
    _attach(cls, init)


def _parameters(every: tuple[Field[Any], ...]) -> tuple[list[Field[Any]], int, list[Any]]:
    """The fields in the order of their parameters (the keyword-only ones last), how many are
    positional, and the defaults of the positional ones that have one."""
    ordered = [field for field in every if field.kw_only is not True] + [f for f in every if f.kw_only is True]
    positional = sum(field.kw_only is not True for field in every)
    defaults: list[Any] = []
    for field in ordered[:positional]:
        if field.default is not MISSING:
            defaults.append(field.default)
        elif defaults:  # as Python's compiler (and so dataclasses) refuses it
            raise TypeError(f"non-default argument {field.name!r} follows default argument")
    return ordered, positional, defaults


def _init_without_factories(cls: type, every: tuple[Field[Any], ...]) -> FunctionType:
    """``__init__`` made from the code every class of that many fields shares, its
    parameters renamed: compiling one for each of some 130 classes was a tenth of a
    run's imports."""
    ordered, positional, defaults = _parameters(every)
    code = _INIT_CODE.get(len(ordered))
    if code is None:
        parameters = "".join(f", f{index}" for index in range(len(ordered)))
        body = "".join(f"    _set{index}(self, f{index})\n" for index in range(len(ordered))) or "    pass\n"
        space: dict[str, Any] = {}
        exec(f"def __init__(self{parameters}):\n{body}", space)  # noqa: S102
        code = _INIT_CODE[len(ordered)] = space["__init__"].__code__
    code = code.replace(co_varnames=("self", *(field.name for field in ordered)),
                        co_argcount=1 + positional, co_kwonlyargcount=len(ordered) - positional)
    namespace = {f"_set{index}": getattr(cls, field.name).__set__ for index, field in enumerate(ordered)}
    init = FunctionType(code, namespace, "__init__", tuple(defaults) or None)
    kw_defaults = {field.name: field.default for field in ordered[positional:] if field.default is not MISSING}
    if kw_defaults:
        init.__kwdefaults__ = kw_defaults
    return init


#: number of fields -> the code of a ``__new__`` storing that many (see :func:`_add_new`)
_NEW_CODE: dict[int, CodeType] = {}


def _add_new(cls: type, fields_class: type, every: tuple[Field[Any], ...]) -> None:
    """``__new__`` of a frozen class whose fields have no default factory, in the place of ``__init__``.

    A frozen class refuses assignment through its own ``__setattr__``, so its
    ``__init__`` must store each field through the slot's descriptor, a call
    each (a Token and its Coord took 0.67 us, a tenth of a run went in these
    calls).  The slots are declared on a base class of the frozen one that
    refuses nothing (``fields_class``): ``__new__`` makes an instance of that,
    assigns the fields as Python assigns any slot, at the speed of a plain
    attribute store, then gives the instance the frozen class, whose layout is
    the same (it adds no slot).  An undecorated subclass of the frozen class
    (which may add a ``__dict__``) is made through the descriptors as before.
    Classes with as many fields share the code, its names replaced.
    """
    ordered, positional, defaults = _parameters(every)
    code = _NEW_CODE.get(len(ordered))
    if code is None:
        values = "".join(f", f{index}" for index in range(len(ordered)))
        stores = "".join(f"    _pb_made.n{index} = f{index}\n" for index in range(len(ordered)))
        space: dict[str, Any] = {}
        given = f"({values[2:]},)" if values else "()"
        exec(f"def __new__(_pb_class{values}):\n"  # noqa: S102
             f"    if _pb_class is not _frozen:\n        return _other(_pb_class, {given})\n"
             f"    _pb_made = _new(_fields)\n{stores}    _pb_made.__class__ = _pb_class\n    return _pb_made\n", space)
        code = _NEW_CODE[len(ordered)] = space["__new__"].__code__
    names = {f"n{index}": field.name for index, field in enumerate(ordered)}
    code = code.replace(co_varnames=("_pb_class", *(field.name for field in ordered), "_pb_made"),
                        co_names=tuple(names.get(name, name) for name in code.co_names),
                        co_argcount=1 + positional, co_kwonlyargcount=len(ordered) - positional)
    setters = [getattr(cls, field.name).__set__ for field in ordered]

    def other(kind: type, values: tuple[Any, ...]) -> Any:  # a subclass's instance: through the descriptors
        return _filled(kind, setters, values)

    namespace = {"_frozen": cls, "_fields": fields_class, "_new": object.__new__, "_other": other}
    new = FunctionType(code, namespace, "__new__", tuple(defaults) or None)
    kw_defaults = {field.name: field.default for field in ordered[positional:] if field.default is not MISSING}
    if kw_defaults:
        new.__kwdefaults__ = kw_defaults
    new.__annotations__ = {**{field.name: field.type for field in every}, "return": None}  # as __init__ has it
    new.__qualname__ = f"{cls.__qualname__}.__new__"
    new.__module__ = cls.__module__
    cls.__new__ = staticmethod(new)  # type: ignore[method-assign]
    _MAKERS[cls] = MethodType(new, cls)


#: a frozen class made by its __new__ -> that __new__ with the class given (see :func:`maker`)
_MAKERS: dict[type, Callable[..., Any]] = {}


def maker(cls: type[T]) -> Callable[..., T]:
    """A function making an instance of ``cls`` from the arguments ``cls(...)`` takes, without
    the call of the class: ``type.__call__`` looks up ``__new__`` and ``__init__`` and packs the
    arguments on every call, a third of making a Token with its Coord.  For the places that make
    objects by the million (the lexer); ``cls`` itself where it is not made by its ``__new__``."""
    return _MAKERS.get(cls, cls)


def _init_compiled(cls: type, every: tuple[Field[Any], ...]) -> FunctionType:
    """``__init__`` of a class with a field whose default is made for each instance, or one
    ``__init__`` is not given, or a ``__post_init__``: compiled for it."""
    namespace: dict[str, Any] = {"_made": _Made()}
    parameters: list[str] = []
    keyword_only: list[str] = []
    body: list[str] = []
    for index, field in enumerate(every):
        namespace[f"_set{index}"] = getattr(cls, field.name).__set__
        value = field.name
        if field.default_factory is not MISSING:
            namespace[f"_factory{index}"] = field.default_factory
            parameter = f"{field.name}=_made"
            value = f"_factory{index}() if {field.name} is _made else {field.name}"
        elif field.default is not MISSING:
            namespace[f"_default{index}"] = field.default
            parameter = f"{field.name}=_default{index}"
        else:
            parameter = field.name
        if not field.init:  # set from its default or factory, else left for __post_init__
            if field.default_factory is not MISSING:
                body.append(f"    _set{index}(self, _factory{index}())\n")
            elif field.default is not MISSING:
                body.append(f"    _set{index}(self, _default{index})\n")
            continue
        (keyword_only if field.kw_only else parameters).append(parameter)
        body.append(f"    _set{index}(self, {value})\n")
    if keyword_only:
        parameters += ["*", *keyword_only]
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    exec(f"def __init__(self, {', '.join(parameters)}):\n{''.join(body) or '    pass'}\n", namespace)  # noqa: S102
    init: FunctionType = namespace["__init__"]
    return init


def _add_methods(cls: type, every: tuple[Field[Any], ...], order: bool, frozen: bool) -> None:
    shown = [(field.name, attrgetter(field.name)) for field in every if field.repr]
    compared = field_values([field.name for field in every if field.compare])
    hashed = field_values([field.name for field in every if (field.compare if field.hash is None else field.hash)])

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join([f'{name}={get(self)!r}' for name, get in shown])})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    _attach(cls, __repr__)
    _attach(cls, __eq__)
    if not frozen:  # unhashable, as a dataclass that compares and may change; pickled as slots are
        cls.__hash__ = None  # type: ignore[assignment]
        return

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    names = frozenset(field.name for field in every)
    setters = [getattr(cls, field.name).__set__ for field in every]
    every_value = field_values([field.name for field in every])

    # what a subclass's own attributes go to, as super(cls, self) would find it
    inherited_set = next(vars(k)["__setattr__"] for k in cls.__mro__[1:] if "__setattr__" in vars(k))
    inherited_delete = next(vars(k)["__delattr__"] for k in cls.__mro__[1:] if "__delattr__" in vars(k))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        inherited_set(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        inherited_delete(self, name)

    def __reduce__(self: Any) -> tuple[Any, ...]:  # made again without __new__, which takes every field
        return _remade, (type(self), every_value(self))

    for method in (__hash__, __setattr__, __delattr__, __reduce__):
        _attach(cls, method)
    _REPLACING[cls] = ({field.name: index for index, field in enumerate(every)}, every_value, setters)
    if order:
        def __lt__(self: Any, other: Any) -> Any:
            return compared(self) < compared(other) if other.__class__ is self.__class__ else NotImplemented

        def __le__(self: Any, other: Any) -> Any:
            return compared(self) <= compared(other) if other.__class__ is self.__class__ else NotImplemented

        def __gt__(self: Any, other: Any) -> Any:
            return compared(self) > compared(other) if other.__class__ is self.__class__ else NotImplemented

        def __ge__(self: Any, other: Any) -> Any:
            return compared(self) >= compared(other) if other.__class__ is self.__class__ else NotImplemented

        for method in (__lt__, __le__, __gt__, __ge__):
            _attach(cls, method)


def _attach(cls: type, method: Callable[..., Any]) -> None:
    method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    method.__module__ = cls.__module__
    setattr(cls, method.__name__, method)
