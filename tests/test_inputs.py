"""The debouncer, on synthetic bounce traces in virtual time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.inputs import Debouncer, Input

QUIET = 0.03
HOLD = 0.8


def chatter(rng: random.Random, start: float, level: bool, duration: float,
            max_gap: float) -> list[tuple[float, bool]]:
    """Edges that bounce for ``duration`` then settle at ``level``."""
    edges = [(start, level)]
    t, current = start, level
    while True:
        t += rng.uniform(0.0002, max_gap)
        if t - start >= duration:
            break
        current = not current
        edges.append((t, current))
    if current != level:
        edges.append((t, level))
    return edges


def press_trace(rng: random.Random, start: float, length: float, bounce: float,
                max_gap: float) -> list[tuple[float, bool]]:
    """One physical press of ``length`` seconds, bouncing at both ends."""
    down = chatter(rng, start, True, bounce, max_gap)
    up = chatter(rng, start + length, False, bounce, max_gap)
    return down + up


def run(debouncer: Debouncer, edges: list[tuple[float, bool]]) -> list[tuple[float, Input]]:
    """Feed edges in time order, ticking at every deadline on the way."""
    out = []
    for t, level in edges:
        while debouncer.deadline is not None and debouncer.deadline <= t:
            when = debouncer.deadline
            out += [(when, i) for i in debouncer.tick(when)]
        out += [(t, i) for i in debouncer.edge(t, level)]
    while debouncer.deadline is not None:
        when = debouncer.deadline
        out += [(when, i) for i in debouncer.tick(when)]
    return out


def test_a_clean_tap_of_a_seat_button_counts_on_the_press():
    d = Debouncer("seat1", quiet=QUIET, hold_time=HOLD)
    assert d.edge(10.0, True) == [Input("seat1")]
    assert d.edge(10.1, False) == []


def test_a_clean_tap_of_ok_counts_on_the_release_without_delay():
    d = Debouncer("ok", quiet=QUIET, hold_time=HOLD)
    assert d.edge(10.0, True) == []
    assert d.edge(10.2, False) == [Input("ok")]
    assert d.deadline is None


def test_holding_back_is_one_hold_and_no_tap():
    d = Debouncer("back", quiet=QUIET, hold_time=HOLD)
    out = run(d, [(1.0, True), (3.0, False)])
    assert out == [(1.0 + HOLD, Input("back", hold=True))]


def test_a_short_tap_inside_chatter_still_counts_once():
    # Pressed for 10 ms, all of it bouncing: settles released; one tap.
    d = Debouncer("ok", quiet=QUIET, hold_time=HOLD)
    edges = [(0.0, True), (0.002, False), (0.004, True), (0.010, False)]
    assert [i for _, i in run(d, edges)] == [Input("ok")]


@pytest.mark.parametrize("button", ["ok", "back", "prev", "seat2"])
@pytest.mark.parametrize(("bounce", "max_gap"), [(0.005, 0.001), (0.05, 0.001),
                                                 (0.15, 0.001), (0.15, 0.02)])
def test_bouncing_presses_count_once_each(button, bounce, max_gap):
    rng = random.Random(f"{button}{bounce}{max_gap}")
    d = Debouncer(button, quiet=QUIET, hold_time=HOLD)
    edges, t = [], 0.0
    for _ in range(200):
        length = rng.uniform(bounce + 0.05, 0.6)  # a tap, never a hold
        edges += press_trace(rng, t, length, bounce, max_gap)
        t += length + bounce + rng.uniform(0.05, 0.3)
    out = run(d, edges)
    assert [i for _, i in out] == [Input(button)] * 200


def test_a_storm_of_ten_thousand_presses():
    rng = random.Random(10_000)
    d = Debouncer("ok", quiet=QUIET, hold_time=HOLD)
    edges, t, holds = [], 0.0, 0
    for _ in range(10_000):
        bounce = rng.choice([0.0, 0.001, 0.01, 0.05, 0.15])
        hold = rng.random() < 0.1
        holds += hold
        length = rng.uniform(HOLD + 0.1, 2.0) if hold else rng.uniform(bounce + 0.04, 0.5)
        edges += press_trace(rng, t, length, bounce, 0.001)
        t += length + bounce + rng.uniform(QUIET + 0.01, 0.2)
    out = [i for _, i in run(d, edges)]
    assert len(out) == 10_000
    assert out.count(Input("ok", hold=True)) == holds
    assert out.count(Input("ok")) == 10_000 - holds


def test_release_is_reported_at_once_after_a_calm_hold():
    rng = random.Random(5)
    d = Debouncer("ok", quiet=QUIET, hold_time=HOLD)
    edges = press_trace(rng, 0.0, 0.4, 0.15, 0.001)
    out = run(d, edges)
    # The tap is known at the first edge of the release, bounce or not.
    assert out == [(0.4, Input("ok"))]


@given(st.lists(st.tuples(st.floats(0.0001, 2.0), st.booleans()), max_size=200))
def test_inputs_never_outnumber_the_presses(steps):
    """Whatever the line does, each input needs a settled press behind it."""
    d = Debouncer("ok", quiet=QUIET, hold_time=HOLD)
    edges, t, level, rises = [], 0.0, False, 0
    for gap, _ in steps:
        t += gap
        level = not level
        rises += level
        edges.append((t, level))
    out = run(d, edges)
    assert len(out) <= rises
    times = [when for when, _ in out]
    assert times == sorted(times)


def test_unknown_buttons_are_refused():
    with pytest.raises(ValueError, match="unknown button"):
        Input("turbo")
