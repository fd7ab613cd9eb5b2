"""pegbind.frozen: the faster __init__ keeps every other behaviour of a frozen dataclass."""
from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from pegbind.diagnostics import Coord
from pegbind.frozen import frozen_dataclass
from pegbind.preprocess.token import ExpansionFrame, Token


def test_a_token_behaves_as_the_frozen_dataclass_it_is():
    coord = Coord("a.h", 3, 7)
    token = Token("identifier", "x", coord)
    assert (token.expansion, token.space_before) == ((), False)
    same = Token(kind="identifier", text="x", coord=Coord("a.h", 3, 7), expansion=(), space_before=False)
    assert token == same and hash(token) == hash(same) and token is not same
    assert token != Token("identifier", "y", coord)
    assert repr(coord) == "Coord(file='a.h', line=3, col=7)"
    assert Coord("a.h", 3, 7) < Coord("a.h", 3, 8) < Coord("a.h", 4, 1)  # Coord keeps its order
    with pytest.raises(dataclasses.FrozenInstanceError):
        token.text = "y"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del coord.line  # type: ignore[misc]
    framed = dataclasses.replace(token, expansion=(ExpansionFrame("M", coord),))
    assert framed.expansion[0].macro == "M" and framed.text == "x"
    assert pickle.loads(pickle.dumps(framed)) == framed
    assert copy.deepcopy(framed) == framed
    with pytest.raises(TypeError):
        Token("identifier", "x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Coord("a.h", 1, 2, 3)  # type: ignore[call-arg]


def test_only_plain_fields_and_no_init_of_its_own_are_taken():
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    class KeywordOnly:
        a: int = dataclasses.field(kw_only=True)

    class OwnInit:
        a: int

        def __init__(self, a: int) -> None:
            object.__setattr__(self, "a", a)

    for cls in (Factory, KeywordOnly, OwnInit):
        with pytest.raises(TypeError):
            frozen_dataclass()(cls)
