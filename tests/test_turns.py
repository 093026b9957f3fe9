"""Turn order and timers: the data every game's turns are made of."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.turns import Timers, TurnOrder


def test_turn_order_cycles_and_counts_rounds():
    order = TurnOrder(("a", "b", "c"))
    seen = []
    for _ in range(7):
        seen.append((order.turn, order.round, order.current))
        order = order.advance()
    assert seen == [(1, 1, "a"), (2, 1, "b"), (3, 1, "c"), (4, 2, "a"), (5, 2, "b"),
                    (6, 2, "c"), (7, 3, "a")]


def test_turn_order_peeks_without_moving():
    order = TurnOrder((0, 1), position=1)
    assert order.peek(0) == 1 and order.peek() == 0 and order.current == 1


def test_turn_order_refuses_nonsense():
    with pytest.raises(ValueError, match="at least one"):
        TurnOrder(())
    with pytest.raises(ValueError, match="outside"):
        TurnOrder((0, 1), position=2)
    with pytest.raises(ValueError, match="only moves forward"):
        TurnOrder((0, 1)).advance(-1)


def test_turn_order_repr_is_readable():
    assert repr(TurnOrder((0, 1))) == "<TurnOrder turn=1 current=0 of (0, 1)>"


def test_timers_expire_at_the_end_of_their_turn():
    timers = Timers().start("freeze", 11).start("shield", 3)
    timers, expired = timers.end_turn(2)
    assert expired == () and set(timers) == {"freeze", "shield"}
    timers, expired = timers.end_turn(3)
    assert expired == ("shield",) and "shield" not in timers and "freeze" in timers
    timers, expired = timers.end_turn(11)
    assert expired == ("freeze",) and len(timers) == 0


def test_timers_refuse_a_key_twice_and_cancel_quietly():
    timers = Timers().start("freeze", 5)
    with pytest.raises(ValueError, match="already running"):
        timers.start("freeze", 6)
    assert timers.cancel("freeze") == Timers() and timers.cancel("nothing") == timers


@given(st.dictionaries(st.integers(0, 20), st.integers(1, 30)), st.integers(0, 30))
def test_timers_partition_on_every_end_of_turn(until, turn):
    timers = Timers(until)
    left, expired = timers.end_turn(turn)
    assert set(left) | set(expired) == set(until)
    assert not set(left) & set(expired)
    assert all(until[k] <= turn for k in expired) and all(until[k] > turn for k in left)
    assert hash(Timers(dict(until))) == hash(timers)
