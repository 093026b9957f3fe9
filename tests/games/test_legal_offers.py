"""Every action a shape ``legal`` offers describes is accepted.

For random states of every game the catalog lists (the test-only game
included), from its setup screen's sample start, and of a few starts chosen to
reach corners (Wizard Dodgeball's small dice, its advanced turns), by random
play from the offered shapes with undo and redo: EVERY combination a shape
allows is accepted, as it is sent back: one value from each list, the other
fields as they are (a Center Court serve's ``player``, a Dodgeball cast's
``min_targets``/``max_targets``), and for ``targets`` every subset of the listed
wizards from ``min_targets`` (0 when absent) to ``max_targets`` (all of them
when absent; then, to keep the run short, every subset of up to two wizards and
every one that leaves out at most one).

A shape may leave a field free for the client to fill (AlakaSLAM's serve and
shot leave out the cards, chosen from the hand the player holds): an action
the shape describes may then be refused, as the Game contract says, only as
missing that field (InvalidAction "missing field '<name>'").
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidAction
from companion.match import Match, StartRecord
from companion.ui.controls import Context, default_draft
from tests.support import CATALOG, with_first_to

GAMES = with_first_to()
NAMES = ("Ann", "Bob", "Cy", "Dee")
#: Starts chosen to reach corners the sample starts rarely do.
STARTS = {
    "center-court": {"game": "center-court", "players": ["Ann", "Bob"],
                     "options": {"sets": 1}},
    "wizard-dodgeball": {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                         "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                                     # Small dice: catches, rebounds and eliminations.
                                     "dice": {"d6": [1, 1, 2, 2, 3, 3]},
                                     # Magic 0-2, and #33 with none (no limit).
                                     "wizards": {"21": {"magic": 1}, "45": {"magic": 2},
                                                 "58": {"magic": 0}, "30": {"magic": 2},
                                                 "12": {"magic": 1}, "10": {"magic": 1},
                                                 "41": {"magic": 2}, "7": {"magic": 1},
                                                 "25": {"magic": 0}}}},
    "wizard-dodgeball-advanced": {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                                  "options": {"rosters": [[21, 58, 12, 33, 7],
                                                          [45, 30, 10, 41, 25]],
                                              "turn": "advanced", "variant": "elimination",
                                              "dice": {"d6": [1, 1, 2, 2, 3, 3]},
                                              # #41 and #7 with no Magic stat.
                                              "wizards": {"21": {"magic": 2},
                                                          "30": {"magic": 1},
                                                          "12": {"magic": 0},
                                                          "45": {"magic": 2},
                                                          "58": {"magic": 1},
                                                          "10": {"magic": 2},
                                                          "33": {"magic": 1},
                                                          "25": {"magic": 1}}}},
    "alakazoo-three": {"game": "alakazoo", "players": ["Ann", "Bob", "Cy"], "options": {}},
}


def sample_start(game_id: str) -> dict:
    """The setup screen's sample start of ``game_id``: its fewest players, its defaults."""
    return default_draft(game_id, Context(GAMES, names=NAMES)).record()


def target_sets(shape: dict) -> list[list[object]]:
    """Every ``targets`` list the shape allows (see the module's docstring)."""
    values = shape["targets"]
    low = shape.get("min_targets", 0)
    high = min(shape.get("max_targets", len(values)), len(values))
    sizes = [k for k in range(low, high + 1)
             if "max_targets" in shape or k <= 2 or k >= len(values) - 1]
    return [list(c) for k in sizes for c in itertools.combinations(values, k)]


def choices(shape: dict, key: str) -> list[object]:
    """What an action may put in ``key`` for the shape."""
    values = shape[key]
    if not isinstance(values, list):
        return [values]  # sent back as it is
    if key == "targets":
        return target_sets(shape)
    return list(values)


def instances(shape: dict) -> Iterator[dict]:
    """Every action the shape describes."""
    keys = [k for k in shape if k != "type"]
    for combo in itertools.product(*(choices(shape, k) for k in keys)):
        yield {"type": shape["type"], **dict(zip(keys, combo, strict=True))}


def accepted(match: Match, action: dict) -> bool:
    try:
        match.resolve(action, random.Random(0))
    except (IllegalAction, InvalidAction):
        return False
    return True


def free_field(shape: dict, err: Exception) -> bool:
    """Whether ``err`` refuses an action only for a field the shape leaves to the client."""
    missing = re.match(r"missing field '(\w+)'", str(err))
    return isinstance(err, InvalidAction) and missing is not None \
        and missing[1] not in shape


def refusals(match: Match) -> Iterator[str]:
    """Each action some offered shape describes that the match refuses, with why (a free
    field's absence aside)."""
    for shape in match.game.legal(match.state):
        lists = [k for k, v in shape.items() if k not in ("type", "targets")
                 and isinstance(v, list)]
        for key in lists:
            # Only a list of candidate targets may be empty: the action names none.
            assert shape[key], f"{shape} offers no value for {key!r}"
        for action in instances(shape):
            try:
                match.resolve(action, random.Random(0))
            except (IllegalAction, InvalidAction) as err:
                if not free_field(shape, err):
                    yield f"{match.game.id}: {shape} offers {action}, refused: {err}"


def check_offers(match: Match) -> None:
    """Every action every offered shape describes is accepted."""
    refused = list(itertools.islice(refusals(match), 3))
    assert not refused, f"{refused}; view: {match.view()}"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(GAMES))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 40))
def test_every_offered_value_is_accepted(game_id, seed, steps):
    rng = random.Random(seed)
    play_checking_offers(Match(StartRecord.create(sample_start(game_id), rng, GAMES), GAMES),
                         rng, steps)


@pytest.mark.slow
@pytest.mark.parametrize("start", list(STARTS))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 40))
def test_every_offered_value_is_accepted_in_corners(start, seed, steps):
    rng = random.Random(seed)
    play_checking_offers(Match(StartRecord.create(STARTS[start], rng, CATALOG), CATALOG),
                         rng, steps)


def test_a_free_field_is_only_one_the_shape_leaves_out():
    shape = {"type": "shot", "player": [0]}
    assert free_field(shape, InvalidAction("missing field 'cards': Ann's cards"))
    assert not free_field(shape, InvalidAction("missing field 'player'"))
    assert not free_field(shape, IllegalAction("missing field 'cards'"))
    assert not free_field(shape, InvalidAction("field 'cards' must be a list"))


def play_checking_offers(match: Match, rng: random.Random, steps: int) -> None:
    """Up to ``steps`` random changes (actions from the offered shapes, undo, redo), every
    offered action checked before each."""
    for _ in range(steps):
        check_offers(match)
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
        if not _play_one(match, shapes, rng):
            break  # every offer leaves a field free: the client's to fill


def _play_one(match: Match, shapes: list[dict], rng: random.Random) -> bool:
    """Push an action of a random shape (another shape when none of 8 of its actions is
    taken); False when none is."""
    for shape in rng.sample(shapes, k=len(shapes)):
        picks = list(instances(shape))
        for action in rng.sample(picks, k=min(8, len(picks))):
            if accepted(match, action):
                match.push(*match.resolve(action, rng))
                return True
    return False


def test_center_court_takes_its_shapes_back_with_the_player():
    match = Match(StartRecord.create(STARTS["center-court"], random.Random(1), CATALOG), CATALOG)
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
                                      "options": {}}, random.Random(0), CATALOG), CATALOG)
    for action in ({"type": "display", "space": 1, "creature": 1}, {"type": "end_turn"},
                   {"type": "end_turn"}):
        match.push(*match.resolve(action, random.Random(0)))
    swap = next(s for s in match.game.legal(match.state) if s["type"] == "swap")
    for creature in swap["creature"]:
        assert accepted(match, {"type": "swap", "space": 1, "creature": creature}), creature
