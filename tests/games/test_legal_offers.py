"""Every shape ``legal`` offers can be sent back as an action as it is.

For random states of Center Court, Wizard Dodgeball and Alakazoo (random
play from the offered shapes, with undo and redo): each value a shape offers
for a field is accepted in some action that picks one value from each of the
shape's lists and keeps its other fields as they are (a Center Court serve's
``player``, a Dodgeball cast's ``max_targets``). A list of ``targets`` is a
list of candidates: the action names one of them (or none).

AlakaSLAM is left out: its serve and shot shapes do not list the cards,
which the client chooses from the hand it holds. Alakazoo's random play is
left to its own work on issue 24; the one case this test found there is
kept below, marked until that work fixes it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidAction
from companion.match import Match, StartRecord

STARTS = {
    "center-court": {"game": "center-court", "players": ["Ann", "Bob"],
                     "options": {"sets": 1}},
    "wizard-dodgeball": {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                         "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                                     # Small dice: catches, rebounds and eliminations.
                                     "dice": {"d6": [1, 1, 2, 2, 3, 3]},
                                     "wizards": {"21": {"magic": 1}, "45": {"magic": 2},
                                                 "58": {"magic": 0}}}},
    "wizard-dodgeball-advanced": {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                                  "options": {"rosters": [[21, 58, 12, 33, 7],
                                                          [45, 30, 10, 41, 25]],
                                              "turn": "advanced", "variant": "elimination"}},
    "alakazoo": {"game": "alakazoo", "players": ["Ann", "Bob", "Cy"], "options": {}},
}


def choices(key: str, values: object) -> list[object]:
    """What an action may put in ``key`` for a shape's ``values``."""
    if not isinstance(values, list):
        return [values]  # sent back as it is
    if key == "targets":
        return [[], *([v] for v in values)]
    return list(values)


def instances(shape: dict, key: str | None = None, value: object = None) -> Iterator[dict]:
    """Every action the shape describes (with ``key`` offering ``value``, if given)."""
    keys = [k for k in shape if k != "type"]
    options = []
    for k in keys:
        picks = choices(k, shape[k])
        if k == key:
            picks = [p for p in picks if p == value or p == [value]]
        options.append(picks)
    for combo in itertools.product(*options):
        yield {"type": shape["type"], **dict(zip(keys, combo, strict=True))}


def accepted(match: Match, action: dict) -> bool:
    try:
        match.resolve(action, random.Random(0))
    except (IllegalAction, InvalidAction):
        return False
    return True


def check_offers(match: Match, rng: random.Random) -> None:
    """One random offered value of every shape is accepted in some action."""
    for shape in match.game.legal(match.state):
        lists = [(k, v) for k, v in shape.items() if k != "type" and isinstance(v, list)]
        if not lists:
            assert accepted(match, dict(shape)), shape
            continue
        key, values = rng.choice(lists)
        # Only a list of candidate targets may be empty: the action names none.
        assert values or key == "targets", f"{shape} offers no value for {key!r}"
        value = rng.choice(values) if values else None
        picked = instances(shape, key, value) if values else instances(shape)
        assert any(accepted(match, a) for a in picked), (
            f"{match.game.id}: {shape} offers {key}={value!r}, but no such action is "
            f"accepted; view: {match.view()}")


@pytest.mark.parametrize("game", ["center-court", "wizard-dodgeball",
                                  "wizard-dodgeball-advanced"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 60))
def test_every_offered_value_is_accepted(game, seed, steps):
    rng = random.Random(seed)
    match = Match(StartRecord.create(STARTS[game], rng))
    for _ in range(steps):
        check_offers(match, rng)
        shapes = match.game.legal(match.state)
        if not shapes:
            break
        roll = rng.random()
        if roll < 0.1 and match.can_undo:
            match.undo()
            continue
        if roll < 0.15 and match.can_redo:
            match.redo()
            continue
        shape = rng.choice(shapes)
        for action in rng.sample(list(instances(shape)), k=min(8, len(list(instances(shape))))):
            if accepted(match, action):
                match.push(*match.resolve(action, rng))
                break


def test_center_court_takes_its_shapes_back_with_the_player():
    match = Match(StartRecord.create(STARTS["center-court"], random.Random(1)))
    serve = match.game.legal(match.state)[0]
    assert serve["type"] == "serve" and serve["player"] == 0
    match.push(*match.resolve({**serve, "card": 3}, random.Random(1)))
    back = match.game.legal(match.state)[0]
    assert back == {"type": "return", "card": [1, 2, 3, 4, 5, 6], "player": 1}
    try:
        match.resolve({"type": "return", "card": 3, "player": 0}, random.Random(1))
    except IllegalAction as err:
        assert str(err) == "Bob returns now, not Ann (player 1, as 'legal' offers it)"
    else:
        raise AssertionError("a return by the wrong player was accepted")
    match.push(*match.resolve({**back, "card": 4}, random.Random(1)))
    assert match.view()["in_play"]


def test_alakazoo_swap_offers_only_creatures_it_takes():
    match = Match(StartRecord.create({"game": "alakazoo", "players": ["Ann", "Bob"],
                                      "options": {}}, random.Random(0)))
    for action in ({"type": "display", "space": 1, "creature": 1}, {"type": "end_turn"},
                   {"type": "end_turn"}):
        match.push(*match.resolve(action, random.Random(0)))
    swap = next(s for s in match.game.legal(match.state) if s["type"] == "swap")
    for creature in swap["creature"]:
        assert accepted(match, {"type": "swap", "space": 1, "creature": creature}), creature
