"""pegbind.frozen: a frozen_dataclass behaves as @dataclass(frozen=True, slots=True) does."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import typing

import pytest

from pegbind.diagnostics import Coord
from pegbind.frozen import frozen_dataclass, maker, mutable_dataclass, replace
from pegbind.preprocess.token import ExpansionFrame, Token


def _declare(decorator, name):
    """The same class body under ``decorator``, named ``name``."""
    class Sample:
        """A class with every kind of field the codebase declares."""

        name: str
        count: int = 3
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        note: str = dataclasses.field(default="", compare=False)
        secret: str = dataclasses.field(default="s", repr=False)
        cached: int = dataclasses.field(default=0, hash=False)
        flag: bool = dataclasses.field(default=False, kw_only=True)

        def describe(self) -> str:
            return f"{self.name}:{self.count}"

    Sample.__name__ = Sample.__qualname__ = name
    globals()[name] = made = decorator(Sample)  # pickle finds the class by its name
    return made


Fast = _declare(frozen_dataclass(order=True), "Fast")
Plain = _declare(dataclasses.dataclass(frozen=True, slots=True, order=True), "Plain")


@pytest.mark.parametrize("arguments", [
    (("a",), {}),
    (("a", 5, ("x",)), {"note": "n", "secret": "t", "cached": 9, "flag": True}),
    (("a",), {"tags": ("y", "z"), "count": -1}),
])
def test_a_frozen_dataclass_behaves_as_the_dataclass(arguments):
    args, kwargs = arguments
    fast, plain = Fast(*args, **kwargs), Plain(*args, **kwargs)
    assert repr(fast) == repr(plain).replace("Plain(", "Fast(")
    assert [(f.name, getattr(fast, f.name)) for f in dataclasses.fields(fast)] == \
        [(f.name, getattr(plain, f.name)) for f in dataclasses.fields(plain)]
    assert Fast.__match_args__ == Plain.__match_args__
    assert str(inspect.signature(Fast)) == str(inspect.signature(Plain))
    assert hash(fast) == hash(plain)
    assert fast.describe() == plain.describe()
    same, other = Fast(*args, **kwargs), dataclasses.replace(fast, count=fast.count + 1)
    assert fast == same and hash(fast) == hash(same) and fast != other
    assert fast == dataclasses.replace(fast, note="ignored by ==") and fast != plain
    assert hash(fast) == hash(dataclasses.replace(fast, cached=1))  # hash=False: not hashed
    assert (fast < other, fast <= other, other > fast, other >= fast) == (True, True, True, True)
    assert (plain < dataclasses.replace(plain, count=plain.count + 1)) is True
    with pytest.raises(TypeError):
        _ = fast < plain
    for kept in (pickle.loads(pickle.dumps(fast)), copy.copy(fast), copy.deepcopy(fast)):
        assert kept == fast and kept.note == fast.note and type(kept) is Fast
    for instance in (fast, plain):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'count'"):
            instance.count = 1
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
            del instance.name
    # A name that is no field: refused too (CPython 3.11's own slotted frozen class says
    # "super(type, obj): obj must be an instance or subtype of type", a TypeError).
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'unknown'"):
        fast.unknown = 1
    with pytest.raises((TypeError, AttributeError)):
        plain.unknown = 1


def test_a_default_factory_makes_a_fresh_value_for_each_instance():
    @frozen_dataclass()
    class Bag:
        items: list[int] = dataclasses.field(default_factory=list)

    first, second = Bag(), Bag()
    assert first.items == [] and first.items is not second.items
    assert Bag([1]).items == [1]


def test_missing_and_extra_arguments_are_refused_alike():
    for cls in (Fast, Plain):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls("a", 1, (), "", "", 0, True)  # flag is keyword-only
        with pytest.raises(TypeError):
            cls("a", colour="red")


def test_a_token_behaves_as_the_frozen_dataclass_it_is():
    coord = Coord("a.h", 3, 7)
    token = Token.at("identifier", "x", coord)
    assert (token.expansion, token.space_before) == ((), False)
    same = Token(kind="identifier", text="x", file="a.h", line=3, col=7, expansion=(), space_before=False)
    assert token == same and hash(token) == hash(same) and token is not same
    assert token != Token.at("identifier", "y", coord)
    # where it was written, as a Coord made when asked
    assert token.coord == coord and type(token.coord) is Coord and token.coord is not token.coord
    assert repr(coord) == "Coord(file='a.h', line=3, col=7)"
    assert Coord("a.h", 3, 7) < Coord("a.h", 3, 8) < Coord("a.h", 4, 1)  # Coord keeps its order
    framed = dataclasses.replace(token, expansion=(ExpansionFrame("M", coord),))
    assert framed.expansion[0].macro == "M" and framed.text == "x"
    assert pickle.loads(pickle.dumps(framed)) == framed


def test_what_it_would_write_itself_or_cannot_give_init_is_refused():
    class OwnInit:
        a: int

        def __init__(self, a: int) -> None:
            object.__setattr__(self, "a", a)

    class OwnEquality:
        a: int

        def __eq__(self, other: object) -> bool:
            return True

    class AfterInit:
        a: int

        def __post_init__(self) -> None:
            pass

    class NotGiven:
        a: int = dataclasses.field(default=0, init=False)

    class OnlyForInit:
        a: dataclasses.InitVar[int]

    class OwnSlots:
        __slots__ = ("a",)
        a: int

    for cls in (OwnInit, OwnEquality, AfterInit, NotGiven, OnlyForInit, OwnSlots):
        with pytest.raises(TypeError):
            frozen_dataclass()(cls)


def test_a_class_without_a_docstring_gets_the_dataclass_one():
    def bare():
        class Bare:
            a: int
            b: str = "x"
        return Bare

    assert frozen_dataclass()(bare()).__doc__ == dataclasses.dataclass(frozen=True, slots=True)(bare()).__doc__


def test_classes_of_as_many_fields_share_init_code_yet_keep_their_own_signatures():
    def declare(decorator):
        class Pair:
            left: int
            right: str = "r"
            _: dataclasses.KW_ONLY
            late: float = 1.5
            needed: bytes

        class Other:
            first: str
            second: int
            third: bool
            fourth: tuple[int, ...]

        return decorator(Pair), decorator(Other)

    (fast_pair, fast_other), (plain_pair, plain_other) = (
        declare(frozen_dataclass()), declare(dataclasses.dataclass(frozen=True, slots=True)))
    assert fast_pair.__new__.__code__.co_code == fast_other.__new__.__code__.co_code
    for fast, plain in ((fast_pair, plain_pair), (fast_other, plain_other)):
        assert inspect.signature(fast) == inspect.signature(plain)
    assert repr(fast_pair(1, needed=b"n")).endswith("Pair(left=1, right='r', late=1.5, needed=b'n')")
    assert fast_pair(right="x", left=2, needed=b"", late=0.0) == fast_pair(2, "x", late=0.0, needed=b"")
    assert fast_other("a", 1, True, ()).fourth == ()
    for call in (lambda: fast_pair(1), lambda: fast_pair(1, "r", 2.0, b""), lambda: fast_other("a", 1, True)):
        with pytest.raises(TypeError):
            call()

    class Disordered:
        given: int = 0
        missing: str

    with pytest.raises(TypeError, match="non-default argument 'missing' follows default argument"):
        frozen_dataclass()(Disordered)


def _slots(cls):
    return tuple(slot for klass in reversed(cls.__mro__) for slot in klass.__dict__.get("__slots__", ()))


def _field_facts(cls):
    return [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.kw_only,
             dict(f.metadata)) for f in dataclasses.fields(cls)]


def test_its_fields_slots_and_metadata_are_the_dataclass_ones():
    assert _field_facts(Fast) == _field_facts(Plain)
    # the slots are declared on a base of the frozen class (see frozen._add_new), in the same order
    assert _slots(Fast) == Plain.__slots__ and not hasattr(Fast("a"), "__dict__")
    assert dataclasses.is_dataclass(Fast) and dataclasses.asdict(Fast("a")) == dataclasses.asdict(Plain("a"))
    assert (Fast.__module__, Fast.__qualname__) == (__name__, "Fast")

    def declare(decorator):
        class Counted:
            """Class attributes beside its fields."""

            kind: str
            limit: typing.ClassVar[int] = 3
            shown: typing.ClassVar[str] = "x"
            extra: int = 0

        return decorator(Counted)

    fast, plain = declare(frozen_dataclass()), declare(dataclasses.dataclass(frozen=True, slots=True))
    assert [f[:3] for f in _field_facts(fast)] == [f[:3] for f in _field_facts(plain)] == [
        ("kind", "str", dataclasses.MISSING), ("extra", "int", 0)]
    assert _slots(fast) == plain.__slots__ == ("kind", "extra")
    assert (fast.limit, fast.shown, fast("k").kind, fast("k", 2).extra) == (3, "x", "k", 2)
    assert fast("k") == fast("k") != fast("k", 1)


def test_a_mutable_default_is_refused_as_dataclasses_refuses_it():
    class Listed:
        items: list[int] = []  # noqa: RUF012

    for decorator in (frozen_dataclass(), dataclasses.dataclass(frozen=True, slots=True)):
        with pytest.raises(ValueError, match="mutable default <class 'list'> for field items"):
            decorator(Listed)


def _declare_mutable(decorator, name):
    """A mutable state class under ``decorator``: a field left to ``__post_init__``, others
    given, defaulted, made by a factory or left out of ``__init__`` with a default."""
    class State:
        """The state of one run."""

        path: str
        index: int = 0
        groups: list[int] = dataclasses.field(default_factory=list)
        hidden: str = dataclasses.field(default="h", repr=False, compare=False)
        made: list[str] = dataclasses.field(init=False, default_factory=list)
        counted: int = dataclasses.field(init=False, default=5)
        derived: str = dataclasses.field(init=False)

        def __post_init__(self) -> None:
            self.derived = self.path.upper()

    State.__name__ = State.__qualname__ = name
    globals()[name] = made = decorator(State)
    return made


MutableFast = _declare_mutable(mutable_dataclass(), "MutableFast")
MutablePlain = _declare_mutable(dataclasses.dataclass(slots=True), "MutablePlain")


def test_a_mutable_dataclass_behaves_as_the_dataclass():
    fast, plain = MutableFast("a.h", 2, hidden="x"), MutablePlain("a.h", 2, hidden="x")
    assert repr(fast) == repr(plain).replace("MutablePlain(", "MutableFast(")
    assert _field_facts(MutableFast) == _field_facts(MutablePlain)
    assert MutableFast.__slots__ == MutablePlain.__slots__ and not hasattr(fast, "__dict__")
    assert MutableFast.__match_args__ == MutablePlain.__match_args__ == ("path", "index", "groups", "hidden")
    assert str(inspect.signature(MutableFast)) == str(inspect.signature(MutablePlain))
    assert (fast.derived, fast.made, fast.counted) == ("A.H", [], 5) == (plain.derived, plain.made, plain.counted)
    assert fast.groups is not MutableFast("b.h").groups and fast.made is not MutableFast("b.h").made
    fast.index += 1
    fast.groups.append(3)
    assert fast.index == 3 and fast.groups == [3]
    assert fast == MutableFast("a.h", 3, [3], hidden="ignored by ==") != MutableFast("a.h", 3)
    assert MutableFast.__hash__ is None and MutablePlain.__hash__ is None
    with pytest.raises(AttributeError):
        fast.unknown = 1  # slotted: no other attribute
    for kept in (pickle.loads(pickle.dumps(fast)), copy.copy(fast), copy.deepcopy(fast)):
        assert kept == fast and kept.hidden == fast.hidden and type(kept) is MutableFast
    with pytest.raises(TypeError):
        MutableFast("a.h", made=[])  # not given to __init__


def test_a_mutable_dataclass_refuses_what_it_writes_itself():
    class OwnRepr:
        name: str

        def __repr__(self) -> str:
            return "mine"

    with pytest.raises(TypeError, match="a mutable_dataclass writes __repr__ itself"):
        mutable_dataclass()(OwnRepr)


def test_every_declared_class_is_documented():
    # An undocumented class gets the dataclass's docstring, its signature: inspect.signature
    # for each at import (29 classes took 1.2 ms of every run).
    import importlib
    import pkgutil

    import pegbind

    undocumented = []
    for info in pkgutil.walk_packages(pegbind.__path__, "pegbind."):
        if info.name == "pegbind.__main__":
            continue  # it runs the command line
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == info.name and "__dataclass_fields__" in vars(value)
                    and (value.__doc__ or "").startswith(f"{value.__name__}(")):
                undocumented.append(f"{info.name}.{value.__qualname__}")
    assert not undocumented


def test_replace_gives_what_dataclasses_replace_gives():
    fast = Fast("a", 5, ("x",), note="n", flag=True)
    for changes in ({}, {"count": 7}, {"tags": ("y",), "flag": False, "note": "m"}):
        copy, expected = replace(fast, **changes), dataclasses.replace(fast, **changes)
        assert type(copy) is Fast and copy == expected and copy is not fast
        assert [getattr(copy, f.name) for f in dataclasses.fields(Fast)] == \
            [getattr(expected, f.name) for f in dataclasses.fields(Fast)]
    assert fast.count == 5  # the original is left as it was
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        replace(fast, colour="red")
    # any other dataclass is replaced by dataclasses
    plain, state = Plain("a"), MutableFast("a.h")
    assert replace(plain, count=9) == dataclasses.replace(plain, count=9)
    assert replace(state, index=4).index == 4 and replace(state, index=4).derived == "A.H"


def test_a_subclass_without_the_decorator_is_made_and_copied_as_its_base():
    # A frozen class's instances are made on the class that holds its slots, then given the
    # frozen class; a plain subclass (with a __dict__ of its own) is made through the slots.
    class Named(Fast):
        def shout(self) -> str:
            return self.name.upper()

    named = Named("a", 5)
    assert type(named) is Named and named.shout() == "A" and named.count == 5
    named.extra = 1  # not a field: a subclass may keep other attributes, as a slotted dataclass's may
    with pytest.raises(dataclasses.FrozenInstanceError):
        named.count = 6
    for kept in (copy.copy(named), copy.deepcopy(named)):
        assert type(kept) is Named and (kept.name, kept.count) == ("a", 5)
    fast = Fast("b")
    assert type(fast) is Fast and type(pickle.loads(pickle.dumps(fast))) is Fast


def test_a_maker_makes_what_the_class_makes():
    @frozen_dataclass()
    class Point:
        """Made by its __new__: a maker is that __new__ with the class given."""

        x: int
        y: int = 0
        _: dataclasses.KW_ONLY
        label: str = ""

    make_point = maker(Point)
    assert make_point is not Point
    for args, kwargs in (((1,), {}), ((1, 2), {"label": "p"})):
        made = make_point(*args, **kwargs)
        assert type(made) is Point and made == Point(*args, **kwargs) and repr(made) == repr(Point(*args, **kwargs))
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.x = 3
    with pytest.raises(TypeError):
        make_point()
    made_token = maker(Token)("identifier", "x", "a.h", 1, 2)
    assert made_token == Token.at("identifier", "x", Coord("a.h", 1, 2)) and made_token.coord == Coord("a.h", 1, 2)
    # made by an __init__ (a factory fills a field of Fast's), or mutable: the class is its own maker
    assert maker(Fast) is Fast and maker(MutableFast) is MutableFast
