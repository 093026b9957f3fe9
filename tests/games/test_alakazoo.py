"""Alakazoo rules: scoring on display, Dark Power, the Helper, turns, the end and the jury."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from companion.errors import IllegalAction, InvalidAction
from companion.games.alakazoo import GAME
from companion.games.alakazoo.state import jury
from companion.store import Store
from companion.table import Table
from tests.support import CATALOG, NoDice

NAMES = ["Ann", "Bob", "Cleo", "Dan"]
ALL_SPACES = range(1, 10)


def start(n: int = 2, rng: random.Random | None = None, **options):
    players = NAMES[:n]
    prepared = GAME.prepare(players, options, rng or NoDice())
    return GAME.setup(players, prepared)


def play(state, *actions, rng: random.Random | None = None):
    for action in actions:
        state = GAME.apply(state, GAME.resolve(state, action, rng or NoDice()))
    return state


def refused(state, action, kind=IllegalAction, match=None):
    with pytest.raises(kind, match=match):
        GAME.resolve(state, action, NoDice())


def view(state) -> dict:
    return GAME.view(state)


def show(space: int, creature: int) -> dict:
    return {"type": "display", "space": space, "creature": creature}


def dark(reason: str) -> dict:
    return {"type": "dark_power", "reason": reason}


END = {"type": "end_turn"}


def fill(creatures, skip=()) -> list[dict]:
    """Displays filling spaces 1-9 with ``creatures`` (one number, or nine), except ``skip``."""
    if isinstance(creatures, int):
        creatures = [creatures] * 9
    return [show(s, c) for s, c in zip(ALL_SPACES, creatures, strict=True) if s not in skip]


#: A roll of three dice that all show the Magic Power symbol: three tokens.
MAGIC3 = {"type": "roll", "faces": ["Magic"] * 3}


def three_a_turn(state, *displays: dict):
    """The current player's ``displays``, as many a turn as the Magic Power the record
    allows pays for (RULINGS, third round): each turn rolls three Magic Power symbols
    first, then displays; between two batches the turn goes round the table (the others
    end theirs at once)."""
    p = state.current
    todo = list(displays)
    first = True
    while todo:
        if not first:
            state = to_turn_of(play(state, END), p)
        first = False
        state = play(state, MAGIC3)
        room = state.max_displays - state.displays
        state = play(state, *todo[:room])
        todo = todo[room:]
    return state


def magic(n: int) -> dict:
    """A roll of ``n`` dice that all show the Magic Power symbol: ``n`` tokens."""
    return {"type": "roll", "faces": ["Magic"] * n}


COLUMN = {"type": "column"}


def charged(state, player: int):
    """``player``'s turn with the 6 Magic Power tokens a player holds at most: each of
    their turns before it rolls as many Magic Power symbols as fill the bound (3 dice at
    most, never past 6, so no Dark Power); the others end their turns at once."""
    state = to_turn_of(state, player)
    while state.tokens[player] < 6:
        state = to_turn_of(play(state, magic(min(3, 6 - state.tokens[player])), END), player)
    return state


def to_turn_of(state, player: int):
    """End turns until it is ``player``'s."""
    while state.current != player:
        state = play(state, END)
    return state


# --- scoring in play ---------------------------------------------------------------


def test_an_element_of_the_own_creature_on_a_new_space_scores_own_and_first():
    state = play(start(), show(5, 1))
    v = view(state)
    assert v["players"][0]["points"] == 2 and v["players"][0]["portal"][4] == 1
    assert v["last"] == {"type": "display", "player": 0, "space": 5, "creature": 1,
                         "scored": ["own", "first"]}
    assert v["firsts"] == {"5": 0}
    assert v["players"][0]["filled"] == 1 and v["displayed"] is True


def test_another_creature_scores_only_for_being_first():
    state = play(start(), show(3, 4))
    assert view(state)["last"]["scored"] == ["first"]
    assert view(state)["players"][0]["points"] == 1


def test_the_first_on_a_space_scores_once_for_the_whole_table():
    state = play(start(3), show(5, 4), END, show(5, 2), show(6, 6), END, show(5, 3))
    v = view(state)
    # Bob's own creature is 2: space 5 scores him "own" only; space 6 is new.
    assert [p["points"] for p in v["players"]] == [1, 1 + 1, 1]
    assert v["firsts"] == {"5": 0, "6": 1}
    assert v["last"]["scored"] == ["own"]  # Cleo's own creature is 3; space 5 was taken
    assert v["stats"]["points"] == [{"own": 0, "first": 1, "complete": 0},
                                    {"own": 1, "first": 1, "complete": 0},
                                    {"own": 1, "first": 0, "complete": 0}]


def test_completing_first_scores_and_starts_the_final_round_a_later_completer_gets_nothing():
    ann, bob = fill(1), fill(2)
    # Each turn rolls three Magic Power symbols and displays what they pay for.
    state = three_a_turn(start(3), *ann[:8])
    state = three_a_turn(to_turn_of(play(state, END), 1), *bob[:8])
    state = three_a_turn(to_turn_of(play(state, END), 0), *ann[8:])
    v = view(state)
    assert v["last"]["scored"] == ["own", "first", "complete"]
    assert v["players"][0]["points"] == 9 + 9 + 1
    assert v["ender"] == 0 and v["final_round"] is True and v["current"] == 0
    state = play(state, END, MAGIC3, *bob[8:])
    v = view(state)
    assert v["last"]["scored"] == ["own"] and v["players"][1]["points"] == 9
    assert v["ender"] == 0 and v["stats"]["points"][1]["complete"] == 0


def test_a_display_on_a_filled_space_is_refused_with_the_empty_ones():
    state = play(start(), show(5, 1), show(1, 2))
    refused(state, show(5, 3), match="Ann's space 5 already shows Dragon; "
                                     "empty spaces: 2, 3, 4, 6, 7, 8, 9")
    full = three_a_turn(start(), *fill(1))
    refused(full, show(5, 3), match="already shows Dragon; the portal is full")


def test_swaps_never_change_points_already_won():
    state = play(start(), show(5, 1), END, show(5, 2), END)
    before = [p["points"] for p in view(state)["players"]]
    state = play(state, {"type": "swap", "space": 5, "player": 1})
    assert [p["points"] for p in view(state)["players"]] == before


# --- Dark Power --------------------------------------------------------------------


def kinds(shapes: list[dict]) -> list[str]:
    return [s["type"] for s in shapes]


@pytest.mark.parametrize("reason", ["no_rune", "magic_power", "hand", "helper"])
def test_dark_power_from_each_reason_is_counted_by_reason(reason):
    # A no_rune penalty follows a roll that showed a rune.
    rolled = [{"type": "roll", "faces": ["Fire"]}] if reason == "no_rune" else []
    # More than 6 Magic Power only where the bound could pass 6: Ann kept 6, and this
    # turn's action (not recorded) may have been a roll.
    first = charged(start(), 0) if reason == "magic_power" else start()
    state = play(first, *rolled, dark(reason))
    v = view(state)
    assert v["players"][0]["dark_power"] == 1
    assert v["last"] == {"type": "dark_power", "player": 0, "reason": reason, "gained": True}
    assert v["stats"]["dark_power"] == [1, 0]
    assert v["stats"]["dark_power_by"][0] == {r: int(r == reason) for r in
                                              ("no_rune", "magic_power", "hand", "helper")}
    # The Helper's trick is the turn's action (and so is the roll before a no_rune).
    assert v["acted"] is (reason in ("helper", "no_rune"))


def test_a_swap_with_another_portal_is_dark_power_from_the_helper():
    state = play(start(), show(2, 1), END, show(2, 2), END, {"type": "swap", "space": 2,
                                                              "player": 1})
    v = view(state)
    assert v["players"][0]["dark_power"] == 1
    assert v["stats"]["dark_power_by"][0]["helper"] == 1


def test_dark_power_stops_at_three_and_the_excess_is_neither_taken_nor_counted():
    # A roll of a rune and two Magic Power symbols with 6 kept: no free rune, and too
    # much Magic Power; then, in Ann's next turn (no roll), too many cards, twice.
    state = play(charged(start(), 0), {"type": "roll", "faces": ["Fire", "Magic", "Magic"]},
                 dark("no_rune"), dark("magic_power"), END, END, dark("hand"), dark("hand"))
    v = view(state)
    assert v["players"][0]["dark_power"] == 3 == v["dark_max"]
    assert v["last"] == {"type": "dark_power", "player": 0, "reason": "hand", "gained": False}
    assert v["stats"]["dark_power"] == [3, 0]
    assert v["stats"]["dark_power_by"][0] == {"no_rune": 1, "magic_power": 1, "hand": 1,
                                              "helper": 0}


def test_dark_power_at_three_is_offered_and_recorded_as_not_taken():
    # RB: at 3 "they simply do not take" the fourth token, but the penalty happened: it
    # is recorded (a no_rune still lowers the Magic Power bound, a penalty still binds
    # the turn's action), so legal offers what is accepted (an audit found it accepted
    # and not offered). Ann kept 6 Magic Power: more than 6 is possible this turn.
    full = charged(start(), 0)
    state = play(full, dark("hand"), dark("hand"), dark("hand"))
    assert next(s["reason"] for s in GAME.legal(state) if s["type"] == "dark_power") == [
        "magic_power", "hand", "helper"]
    state = play(state, dark("magic_power"))
    assert view(state)["players"][0]["dark_power"] == 3
    assert view(state)["last"]["gained"] is False


def test_a_swap_at_three_dark_power_gains_nothing_but_still_swaps():
    state = play(start(), show(2, 1), END, show(2, 2), END, *[dark("hand")] * 3,
                 {"type": "swap", "space": 2, "player": 1})
    v = view(state)
    assert v["players"][0]["portal"][1] == 2 and v["players"][1]["portal"][1] == 1
    assert v["last"]["gained"] is False and v["players"][0]["dark_power"] == 3


# --- the Magic Helper's swaps ---------------------------------------------------------


def two_portals(n: int = 2):
    """Ann shows a Dragon on space 5, Bob a Griffin there; Ann's turn again, with the
    6 Magic Power tokens a player holds at most (rolled in the turns between)."""
    return charged(play(start(n), show(5, 1), END, show(5, 2), END), 0)


def test_the_helper_swaps_with_another_portal_for_one_dark_power():
    state = play(two_portals(), {"type": "swap", "space": 5, "player": 1})
    v = view(state)
    assert v["players"][0]["portal"][4] == 2 and v["players"][1]["portal"][4] == 1
    assert v["last"] == {"type": "swap", "player": 0, "space": 5, "gave": 1, "got": 2,
                         "other": 1, "gained": True}
    assert v["acted"] is True and v["stats"]["swaps"] == [1, 0]


def test_the_helper_swaps_with_a_card_from_the_hand_without_dark_power():
    state = play(two_portals(), {"type": "swap", "space": 5, "creature": 6})
    v = view(state)
    assert v["players"][0]["portal"][4] == 6 and v["players"][1]["portal"][4] == 2
    assert v["players"][0]["dark_power"] == 0
    assert v["last"] == {"type": "swap", "player": 0, "space": 5, "gave": 1, "got": 6,
                         "other": None, "gained": False}


def test_helper_refusals_name_why_and_what_is_possible():
    state = two_portals(3)
    refused(state, {"type": "swap", "space": 4, "player": 1},
            match=r"Ann's space 4 is empty: .*; swap one of the filled spaces \(5\) instead")
    refused(state, {"type": "swap", "space": 5, "player": 2},
            match="Cleo's space 5 is empty: nothing to exchange")
    refused(state, {"type": "swap", "space": 5, "player": 0},
            match="another player's portal; for a card in hand send \"creature\"")
    refused(state, {"type": "swap", "space": 5, "creature": 1},
            match="Ann's space 5 already shows Dragon")
    # Each card exists once: two portals never show the same element on a space, so the
    # Helper never meets two equal ones; Cleo cannot show Ann's Dragon on 5 again.
    refused(play(state, END, END), show(5, 1), match="the Dragon for space 5 is on Ann's portal")
    refused(state, {"type": "swap", "space": 5, "player": 1, "creature": 3}, InvalidAction,
            match="either \"player\".* or \"creature\"")
    refused(state, {"type": "swap", "space": 5}, InvalidAction, match="either")


def test_in_the_final_round_the_helper_cannot_touch_a_full_portal():
    state = to_turn_of(play(start(3), END, END, show(5, 1), END), 1)
    state = play(three_a_turn(state, *fill(2)), END)  # Bob completes
    assert view(state)["final_round"] and view(state)["current"] == 2
    refused(state, {"type": "swap", "space": 5, "player": 1},
            match="Bob's portal is complete: in the final round the Helper cannot be used")
    # Not offered either, while a hand card still is.
    legal = GAME.legal(state)
    assert not any(s["type"] == "swap" and "player" in s for s in legal)
    # Cleo's Dragon on 5 for a card from her hand: neither a Dragon nor Bob's Griffin.
    assert {"type": "swap", "space": [5], "creature": [3, 4, 5, 6]} in legal
    # The refusal says what is allowed instead: Ann's portal, or a hand card.
    refused(state, {"type": "swap", "space": 5, "player": 1},
            match=r"used against it; swap with a player whose portal is not complete \(Ann\) "
                  r"or swap with a hand card \(send \"creature\"")
    # Ann's portal is not complete: the hand trick may be against her (the companion
    # cannot know whose hand it took from), so it is still offered and accepted.
    assert {"type": "helper", "trick": ["hand", "column"]} in legal
    assert "helper" in shapes_of(state, "dark_power", "reason")[0]["reason"]
    assert view(play(state, {"type": "helper", "trick": "hand"}))["last"]["trick"] == "hand"
    assert view(play(state, dark("helper")))["action"] == "helper"


def charge_all(state, rounds: int = 2):
    """``rounds`` rounds in which each player rolls as many Magic Power symbols as fill
    their bound towards 6 (3 dice at most) and ends the turn: two fill it from 0."""
    for _ in range(rounds * len(state.tokens)):
        need = min(3, 6 - state.tokens[state.current])
        state = play(state, *([magic(need)] if need else []), END)
    return state


def halves(state, *turns: tuple[int, list[int]]):
    """Each turn: the current player takes a column, displays ``creature`` on three
    ``spaces`` (6 Magic Power, charged first by :func:`charge_all`) and ends it."""
    state = charge_all(state)
    for creature, spaces in turns:
        state = play(state, COLUMN, *(show(s, creature) for s in spaces), END)
    return state


def every_other_portal_complete(n: int):
    """The final round, on the last player's turn, every other portal complete: each
    player fills three spaces a turn with their own creature, Ann completes first (with two
    players the issue's example: Bob's own Griffin on spaces 1-6)."""
    state = start(n)
    for spaces in ([1, 2, 3], [4, 5, 6], [7, 8, 9]):
        last = n - 1 if spaces[0] == 7 else n
        state = halves(state, *((p + 1, spaces) for p in range(last)))
    assert view(state)["final_round"] and state.current == n - 1
    return state


@pytest.mark.parametrize("n", [2, 3])
def test_in_the_final_round_no_hand_trick_when_every_other_portal_is_complete(n):
    state = every_other_portal_complete(n)
    last = "Bob" if n == 2 else "Cleo"
    whose = "Ann's portal is" if n == 2 else "every other portal (Ann, Bob) is"
    for action in ({"type": "helper", "trick": "hand"}, dark("helper")):
        refused(state, action, match=re.escape(
            f"no Magic Helper hand trick now: {whose} complete, and in the final round the "
            f"Helper cannot be used against a player with all 9 elements; instead {last} may "
            "use the Helper's column trick"))
    # Not offered either; the column trick and the other penalties still are.
    legal = GAME.legal(state)
    assert {"type": "helper", "trick": ["column"]} in legal
    assert shapes_of(state, "dark_power", "reason")[0]["reason"] == ["magic_power", "hand"]
    refused(state, {"type": "swap", "space": 1, "player": 0},
            match="in the final round the Helper cannot be used against it; every other "
                  "portal is complete: swap with a hand card")
    done = play(state, {"type": "helper", "trick": "column"})
    assert view(done)["max_displays"] == 2


# --- one action per turn --------------------------------------------------------------


@pytest.mark.parametrize("first, second, said", [
    ({"type": "roll", "dice": 2}, {"type": "roll", "dice": 1},
     "no Spell Dice roll now: Ann has rolled the Spell Dice this turn: one action per turn"),
    ({"type": "roll", "dice": 2}, {"type": "swap", "space": 5, "creature": 3},
     "no Magic Helper swap now: Ann has rolled the Spell Dice this turn"),
    ({"type": "swap", "space": 5, "creature": 3}, dark("helper"),
     "no Magic Helper trick now: Ann has used the Magic Helper this turn"),
    (dark("helper"), {"type": "roll", "faces": ["Fire"]},
     "Ann has used the Magic Helper this turn: one action per turn"),
    (show(1, 1), {"type": "roll", "dice": 3},
     "Ann has displayed this turn: the turn's action comes before displaying"),
])
def test_the_turn_has_one_action_and_it_comes_before_displaying(first, second, said):
    state = play(two_portals(), first, rng=random.Random(1))
    refused(state, second, match=said)
    assert not any(s["type"] in ("roll", "swap", "column", "helper") for s in GAME.legal(state))
    assert "helper" not in next(s for s in GAME.legal(state)
                                if s["type"] == "dark_power")["reason"]


def test_a_malformed_roll_is_malformed_whenever_it_comes_and_a_refused_one_rolls_nothing():
    state = play(start(), show(1, 1))
    refused(state, {"type": "roll", "dice": 9}, InvalidAction, match="'dice' must be")
    refused(state, {"type": "roll", "faces": ["Ice"]}, InvalidAction, match="no face 'Ice'")
    refused(state, {"type": "roll", "dice": 2}, IllegalAction, match="has displayed")


def test_after_the_action_displays_and_penalties_may_follow_and_the_next_turn_is_fresh():
    state = play(two_portals(), {"type": "roll", "faces": ["Magic", "Fire"]}, show(1, 1),
                 show(2, 1), dark("no_rune"))
    v = view(state)
    assert v["roll"] == {"faces": ["Magic", "Fire"], "device": False}
    assert v["acted"] and v["displayed"] and v["players"][0]["dark_power"] == 1
    v = view(play(state, END))
    assert (v["roll"], v["acted"], v["displayed"], v["current"]) == (None, False, False, 1)


# --- turns, forced passes and rounds ------------------------------------------------------


def test_rounds_count_each_time_the_turn_comes_back_to_the_first_player():
    state = start(3, first_player=1)
    assert (view(state)["current"], view(state)["round"]) == (1, 1)
    state = play(state, END, END)
    assert (view(state)["current"], view(state)["round"]) == (0, 1)
    state = play(state, END)
    assert (view(state)["current"], view(state)["round"]) == (1, 2)
    assert GAME.turn(state) == (1,)


def test_a_player_at_three_dark_power_passes_and_goes_back_to_zero():
    state = play(start(3), END, {"type": "roll", "faces": ["Fire", "Water", "Air"]},
                 *[dark("no_rune")] * 3, END)  # Bob ends at 3
    state = play(state, END, END)  # Cleo, then Ann end their turns: Bob passes
    v = view(state)
    assert v["current"] == 2 and v["round"] == 2
    assert v["passes"] == [{"player": 1, "reset": True}]
    assert v["last"] == {"type": "end_turn", "player": 0,
                         "passes": [{"player": 1, "reset": True}], "ended": None}
    assert v["players"][1]["dark_power"] == 0 and v["stats"]["forced_passes"] == [0, 1, 0]
    # The next turn shows no pass.
    assert view(play(state, END))["passes"] == []


def test_cleo_passing_at_three_is_visible_in_the_view():
    """What the panel and phones say ("Cleo passes: 3 Dark Power") comes from these keys."""
    state = play(start(3), END, END, *[dark("hand")] * 3, END, END, END)  # Bob ends
    v = view(state)
    passed = v["passes"][0]
    assert v["players"][passed["player"]]["name"] == "Cleo" and v["current"] == 0
    assert v["last"]["passes"] == v["passes"] and v["last"]["player"] == 1


def test_without_the_reset_a_player_at_three_passes_every_turn():
    state = play(start(2, dark_power_reset=False), *[dark("hand")] * 3, END)
    for _ in range(3):
        state = play(state, END)  # Bob ends; Ann passes again, still at 3
        v = view(state)
        assert v["current"] == 1 and v["passes"] == [{"player": 0, "reset": False}]
        assert v["players"][0]["dark_power"] == 3
    assert view(state)["stats"]["forced_passes"] == [3, 0]


def test_without_the_reset_a_table_where_everyone_is_at_three_ends_stuck():
    state = play(start(3, dark_power_reset=False), show(1, 1), *[dark("hand")] * 3, END,
                 *[dark("hand")] * 3, END, *[dark("hand")] * 3)
    assert view(state)["current"] == 2
    state = play(state, END)
    v = view(state)
    assert v["ended"] == "stuck" and v["current"] is None and v["final_round"] is False
    assert len(v["passes"]) == 3
    assert v["winner"] == [0] and v["players"][0]["jury"] is not None
    assert GAME.summary(state).endswith("ended: nobody could act")
    assert GAME.legal(state) == [] and GAME.turn(state) == ()
    refused(state, END, match=r"the game is over \(Ann wins\): only undo is possible now")


def test_with_the_reset_a_table_at_three_never_sticks():
    state = play(start(2), *[dark("hand")] * 3, END, *[dark("hand")] * 3, END)
    v = view(state)
    assert v["ended"] is None and v["current"] == 0
    assert v["passes"] == [{"player": 0, "reset": True}, {"player": 1, "reset": True}]
    assert [p["dark_power"] for p in v["players"]] == [0, 0]


# --- the final round ------------------------------------------------------------------


@pytest.mark.parametrize("n, first, ender", [
    (n, f, e) for n in (2, 3, 4) for f in range(n) for e in range(n)])
def test_the_final_round_ends_when_the_turn_would_come_back_to_the_first_player(n, first,
                                                                                ender):
    state = to_turn_of(start(n, first_player=first), ender)
    state = three_a_turn(state, *fill(ender + 1))
    assert view(state)["ender"] == ender
    expected = []
    p = (ender + 1) % n
    while p != first:
        expected.append(p)
        p = (p + 1) % n
    turns = []
    while view(state)["current"] is not None:
        state = play(state, END)
        if view(state)["current"] is not None:
            turns.append(view(state)["current"])
    assert turns == expected
    v = view(state)
    assert v["ended"] == "final_round" and v["final_round"] is False
    assert v["last"]["ended"] == "final_round" and GAME.winner(state) is not None


def test_a_forced_pass_is_a_turn_of_the_final_round():
    ann = fill(1)
    # Three displays a turn after a column, each turn with 6 Magic Power rolled before.
    state = play(charged(start(3), 0), COLUMN, *ann[:3], END)
    state = play(charged(state, 0), COLUMN, *ann[3:6], END)
    state = play(charged(state, 0), END, *[dark("hand")] * 3, END, END, COLUMN, *ann[6:],
                 END)  # Ann completes; Bob is at 3 Dark Power
    v = view(state)  # Bob's last turn is a forced pass; Cleo plays hers
    assert v["final_round"] and v["current"] == 2
    assert v["passes"] == [{"player": 1, "reset": True}]
    state = play(state, END)  # the turn would come back to Ann: over
    assert view(state)["ended"] == "final_round"
    bob = fill(2)
    state = play(charged(start(3), 1), COLUMN, *bob[:3], END)
    state = play(charged(state, 1), COLUMN, *bob[3:6], END)
    state = play(charged(state, 1), END, END, *[dark("hand")] * 3, END, COLUMN, *bob[6:],
                 END, END)
    v = view(state)  # Bob completed, Cleo played; Ann would start again: the game is over
    assert v["ended"] == "final_round" and v["passes"] == []


# --- the Magic Jury ------------------------------------------------------------------


@pytest.mark.parametrize("portal, creature, rows, cols, pure", [
    # Mixed: a Dragon row, an all-different row, a 1-2-2 row (nothing).
    ([1, 1, 1, 2, 3, 4, 1, 2, 2], 1, "same different pair", "pair different different", 0),
    # Every row and column all different.
    ([1, 2, 3, 2, 3, 1, 3, 1, 2], 1, "different " * 3, "different " * 3, 0),
    # Only the portal's creature: 6 + 1.
    ([4] * 9, 4, "same " * 3, "same " * 3, 1),
    # One creature, but not the portal's: no bonus.
    ([2] * 9, 1, "same " * 3, "same " * 3, 0),
    # Partly filled lines never score, and the bonus needs all nine.
    ([1, 1, 1, 1, 1, 1, 1, 1, None], 1, "same same open", "same same open", 0),
    ([1, 2, None, 3, None, None, None, None, None], 1, "open " * 3, "open " * 3, 0),
    ([1, 2, 3, 4, 5, 6, 1, 2, None], 1, "different different open",
     "pair pair open", 0),
    ([None] * 9, 1, "open " * 3, "open " * 3, 0),
])
def test_the_jury_scores_each_full_line_and_the_pure_portal(portal, creature, rows, cols,
                                                           pure):
    verdict = jury(tuple(portal), creature)
    score = {"same": 1, "different": 1, "pair": 0, "open": 0}
    assert (list(verdict.row_kinds), list(verdict.col_kinds)) == (rows.split(), cols.split())
    assert list(verdict.rows) == [score[k] for k in rows.split()]
    assert list(verdict.cols) == [score[k] for k in cols.split()]
    assert verdict.pure == pure
    assert verdict.total == sum(verdict.rows) + sum(verdict.cols) + pure


def test_the_jury_scores_every_portal_at_the_end_and_totals_decide():
    mixed, ann = [1, 1, 1, 2, 3, 4, 1, 2, 2], fill([1, 1, 1, 2, 3, 4, 1, 2, 2])
    # Bob's Griffins leave out spaces 4 and 8, where Ann's portal holds the Griffin cards.
    bob = fill([2, 2, 2, 3, 2, 2, 2, 4, 2], skip=(9,))
    state = start(2)  # three displays a turn after a column, with 6 Magic Power rolled
    for mine, his in ((ann[:3], bob[:3]), (ann[3:6], bob[3:6]), (ann[6:], bob[6:])):
        state = play(charged(state, 0), COLUMN, *mine, END)
        state = play(charged(state, 1), COLUMN, *his, END)
    assert view(state)["players"][0]["portal"] == mixed
    v = view(state)
    ann, bob = v["players"]
    assert ann["jury"] == {"rows": [1, 1, 0], "cols": [0, 1, 1], "pure": 0, "total": 4,
                           "kinds": {"rows": ["same", "different", "pair"],
                                     "cols": ["pair", "different", "different"]}}
    assert ann["points"] == 4 + 9 + 1 and ann["total"] == 14 + 4
    assert bob["jury"] == {"rows": [1, 0, 0], "cols": [0, 0, 0], "pure": 0, "total": 1,
                           "kinds": {"rows": ["same", "pair", "open"],
                                     "cols": ["pair", "pair", "open"]}}
    assert bob["points"] == 6 and bob["total"] == 7
    assert v["winner"] == [0] and GAME.winner(state) == 0
    assert GAME.summary(state) == "18-7 · Ann: 14 in play + 4 jury · Bob: 6 in play + 1 jury"


def test_the_jury_is_hidden_while_playing():
    v = view(three_a_turn(start(), *fill(1)))
    assert all(p["jury"] is None for p in v["players"]) and v["winner"] is None
    assert v["players"][0]["total"] == v["players"][0]["points"] == 19


def test_a_tie_is_a_shared_win():
    state = play(start(2, dark_power_reset=False), *[dark("hand")] * 3, END,
                 *[dark("hand")] * 3, END)
    v = view(state)
    assert v["ended"] == "stuck" and v["winner"] == [0, 1]
    assert GAME.winner(state) == (0, 1)
    refused(state, END, match="Ann and Bob share the win")


def test_a_pure_portal_scores_twenty_six():
    state = play(three_a_turn(start(3), *fill(1)), END, END, END)
    v = view(state)
    assert v["players"][0]["jury"]["total"] == 7 and v["players"][0]["total"] == 26
    assert GAME.summary(state) == "26-0-0 · Ann: 19 in play + 7 jury · Bob: 0 in play + 0 jury" \
        " · Cleo: 0 in play + 0 jury"


# --- the first player ----------------------------------------------------------------


def test_a_rolled_first_player_is_kept_in_the_options_and_rolled_again_for_a_rematch():
    seen = set()
    for seed in range(20):
        prepared = GAME.prepare(NAMES[:3], {"first_player": "roll"}, random.Random(seed))
        assert prepared["first_player"] == prepared["first_roll"]
        seen.add(prepared["first_player"])
        # The prepared options replay without rolling.
        assert GAME.prepare(NAMES[:3], prepared, NoDice()) == prepared
        state = GAME.setup(NAMES[:3], prepared)
        assert view(state)["current"] == view(state)["first_player"] == prepared["first_roll"]
        again = GAME.again(prepared)
        assert again["first_player"] == "roll" and "first_roll" not in again
        with pytest.raises(AssertionError, match="nothing should have been rolled"):
            GAME.prepare(NAMES[:3], again, NoDice())  # the rematch rolls anew
    assert seen == {0, 1, 2}


def test_a_chosen_first_player_is_not_rolled_and_stays_for_a_rematch():
    prepared = GAME.prepare(NAMES[:2], {"first_player": 1}, NoDice())
    assert prepared["first_player"] == 1 and prepared["first_roll"] is None
    assert GAME.prepare(NAMES[:2], GAME.again(prepared), NoDice()) == prepared


# --- premises and refusals -------------------------------------------------------------


def test_by_is_a_premise_on_whose_turn_it_is():
    state = start(3)
    refused(state, {"type": "end_turn", "by": 1}, match="it is Ann's turn, not Bob's")
    refused(state, {"type": "end_turn", "by": 5}, InvalidAction, match="'by' must be")
    event = GAME.resolve(state, {"type": "display", "space": 1, "creature": 2, "by": 0},
                         NoDice())
    assert event == {"type": "display", "by": 0, "space": 1, "creature": 2}
    assert GAME.resolve(state, END, NoDice()) == {"type": "end_turn", "by": 0}


@pytest.mark.parametrize("action, kind, said", [
    ({"type": "fly"}, InvalidAction, "expected one of: display, dark_power, swap, roll"),
    ({"type": "display", "space": 10, "creature": 1}, InvalidAction,
     "'space' must be a whole number 1-9"),
    ({"type": "display", "space": 1, "creature": 7}, InvalidAction,
     "'creature' must be a whole number 1-6"),
    ({"type": "display", "space": 1}, InvalidAction, "missing field 'creature'"),
    ({"type": "display", "space": 1, "creature": 1, "card": 2}, InvalidAction,
     "has no field 'card'; its fields: by, creature, space"),
    ({"type": "dark_power"}, InvalidAction,
     "missing field 'reason' \\(one of: no_rune, magic_power, hand, helper\\)"),
    ({"type": "dark_power", "reason": "greed"}, InvalidAction,
     'must be one of "no_rune", "magic_power", "hand", "helper"'),
    ({"type": "roll"}, InvalidAction, 'either "dice" \\(1-3: the device rolls'),
    ({"type": "roll", "dice": 4}, InvalidAction, "'dice' must be a whole number 1-3"),
    ({"type": "roll", "dice": 1, "faces": ["Fire"]}, InvalidAction, "either"),
    ({"type": "roll", "dice": 1, "device": False}, InvalidAction,
     "gives \"faces\" instead"),
    ({"type": "roll", "faces": []}, InvalidAction, "must list 1 to 3 faces"),
    ({"type": "roll", "faces": ["Fire"] * 4}, InvalidAction, "must list 1 to 3 faces"),
    ({"type": "roll", "faces": ["Ice"]}, InvalidAction,
     "no face 'Ice'; its faces: Magic, Fire, Water, Earth, Air, Light"),
    ({"type": "roll", "faces": ["Fire"], "device": "yes"}, InvalidAction,
     "'device' must be true or false"),
    ({"type": "swap", "space": 1, "player": 9}, InvalidAction,
     "'player' must be a whole number 0-1"),
    ({"type": "end_turn", "space": 1}, InvalidAction, "its fields: by"),
])
def test_malformed_actions_are_refused_naming_the_field(action, kind, said):
    refused(start(), action, kind, match=said)


def test_only_device_rolls_roll_and_a_logged_roll_replays_as_it_was():
    state = start()
    event = GAME.resolve(state, {"type": "roll", "faces": ["Air", "Air"]}, NoDice())
    assert event == {"type": "roll", "by": 0, "faces": ["Air", "Air"], "device": False}
    event = GAME.resolve(state, {"type": "roll", "dice": 3}, random.Random(4))
    assert event["device"] is True and len(event["faces"]) == 3
    assert set(event["faces"]) <= set(view(state)["dice_faces"])
    # The logged event is itself an action: it replays to the same faces without rolling.
    assert GAME.resolve(state, event, NoDice()) == event


# --- options -----------------------------------------------------------------------------


def test_defaults_are_filled_in():
    prepared = GAME.prepare(NAMES[:4], {}, NoDice())
    assert prepared == {"portals": [1, 2, 3, 4], "first_player": 0, "first_roll": None,
                        "dark_power_reset": True,
                        "creatures": ["Dragon", "Griffin", "Unicorn", "Phoenix", "Kraken",
                                      "Hydra"],
                        "dice_faces": ["Magic", "Fire", "Water", "Earth", "Air", "Light"]}
    v = view(GAME.setup(NAMES[:4], prepared))
    assert [p["creature_name"] for p in v["players"]] == ["Dragon", "Griffin", "Unicorn",
                                                          "Phoenix"]


def test_names_and_faces_can_follow_the_tables_own_box():
    state = start(2, portals=[6, 3], creatures=["Ogre", "Sprite", "Wyrm", "Roc", "Naga", "Imp"],
                  dice_faces=["Star", "Moon"])
    v = view(state)
    assert [(p["creature"], p["creature_name"]) for p in v["players"]] == [(6, "Imp"),
                                                                           (3, "Wyrm")]
    assert v["dice_faces"] == ["Star", "Moon"]
    state = play(state, {"type": "roll", "dice": 3}, rng=random.Random(2))
    assert set(view(state)["roll"]["faces"]) <= {"Star", "Moon"}
    refused(play(state, show(5, 6)), show(5, 1), match="already shows Imp")


@pytest.mark.parametrize("options, said", [
    ({"portals": [1]}, "option 'portals' lists the creature \\(1-6\\) on each player's"),
    ({"portals": [1, 7]}, "2 numbers, e.g. \\[1, 2\\]"),
    ({"portals": [1, True]}, "option 'portals'"),
    ({"portals": [2, 2]}, "every player needs a different Portal board"),
    ({"first_player": 2}, "'first_player' must be a player index 0-1 or \"roll\""),
    ({"first_player": "coin"}, "'first_player'"),
    ({"dark_power_reset": 1}, "'dark_power_reset' must be one of true, false"),
    ({"creatures": ["A", "B"]}, "option 'creatures' must be a list of 6 short names"),
    ({"creatures": ["A", "B", "C", "D", "E", "a"]}, "the names must differ"),
    ({"creatures": ["A", "B", "C", "D", "E", "Dragonfly"]},
     "entry 6 must be 1 to 8 printable characters"),
    ({"creatures": ["A", "B", "C", "D", "E", 6]}, "entry 6 must be a string"),
    ({"dice_faces": ["Fire"]}, "option 'dice_faces' must be a list of 2 to 12 short names"),
    ({"dice_faces": [str(i) for i in range(13)]}, "2 to 12"),
    ({"dice_faces": ["Fire", "Thunder"]}, "entry 2 must be 1 to 6 printable"),
    ({"dice_faces": ["Fire", " "]}, "entry 2 must be 1 to 6"),
    ({"first_roll": 5}, "option 'first_roll' must be a player index 0-1"),
    ({"first_player": 0, "first_roll": 1},
     "'first_roll' is the player the device rolled to start, so it must equal 'first_player' "
     r"\(0\), or be null"),
    ({"speed": 2}, "unknown option 'speed'"),
])
def test_bad_options_are_refused_saying_what_is_expected(options, said):
    with pytest.raises(InvalidAction, match=said):
        GAME.prepare(NAMES[:2], options, NoDice())


def test_five_players_are_refused():
    with pytest.raises(InvalidAction, match="2 to 4 names"):
        GAME.prepare([*NAMES, "Eve"], {}, NoDice())


# --- through the real table --------------------------------------------------------------


def test_device_rolls_are_logged_and_undo_then_redo_never_rolls_again():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(7))
        table.start({"game": "alakazoo", "players": ["Ann", "Bob"]})
        table.act({"type": "roll", "dice": 3})
        event = table.match.events[-1]
        assert event["type"] == "roll" and event["device"] is True and event["by"] == 0
        faces = event["faces"]
        assert len(faces) == 3 and table.snapshot.match["view"]["roll"] == {
            "faces": faces, "device": True}
        table.undo()
        assert table.snapshot.match["view"]["roll"] is None
        table.redo()
        assert table.match.events[-1] == event
        assert table.snapshot.match["view"]["roll"]["faces"] == faces
        # Resumed from the store, it is the same roll.
        assert Table(store, CATALOG).snapshot.match["view"]["roll"]["faces"] == faces


def test_a_rolled_first_player_is_in_the_stored_start_record():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        table.start({"game": "alakazoo", "players": ["Ann", "Bob", "Cleo"],
                     "options": {"first_player": "roll"}})
        options = table.snapshot.match["options"]
        assert options["first_player"] == options["first_roll"]
        assert table.snapshot.match["view"]["current"] == options["first_roll"]
        assert table.snapshot.match["turn"] == [options["first_roll"]]
        assert Table(store, CATALOG).snapshot == table.snapshot


def test_a_finished_match_is_stored_with_its_shared_winners_and_summary():
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=NoDice())
        table.start({"game": "alakazoo", "players": ["Ann", "Bob"],
                     "options": {"dark_power_reset": False}})
        for _ in range(2):
            for _ in range(3):
                table.act(dark("hand"))
            table.act(END)
        assert table.snapshot.match["status"] == "finished"
        row = table.history()[0]
        assert row.winner == [0, 1] and row.summary == \
            "0-0 · Ann: 0 in play + 0 jury · Bob: 0 in play + 0 jury · 2 forced passes · " \
            "6 Dark Power taken · ended: nobody could act"
        table.undo()
        assert table.snapshot.match["status"] == "active"


# --- stats ---------------------------------------------------------------------------------


def test_stats_count_points_by_kind_dark_power_by_reason_passes_swaps_and_rolls():
    # Ann's turns: displays (actions not recorded); again; nothing (6 Magic Power kept);
    # a roll with a rune and no free rune, taking her past 6; the Helper's swap with Bob's
    # portal, and too many cards at 3 Dark Power (not taken); then a forced pass.
    state = play(start(2), show(1, 1), END,
                 {"type": "roll", "dice": 2}, show(1, 2), END,
                 show(2, 3), END, END, END, END,
                 {"type": "roll", "faces": ["Fire", "Magic", "Magic"]}, dark("no_rune"),
                 dark("magic_power"), END, END,
                 {"type": "swap", "space": 1, "player": 1}, dark("hand"), END, END,
                 rng=random.Random(5))
    v = view(state)
    st = v["stats"]
    assert st["points"] == [{"own": 1, "first": 2, "complete": 0},
                            {"own": 1, "first": 0, "complete": 0}]
    assert st["dark_power"] == [3, 0]
    assert st["dark_power_by"][0] == {"no_rune": 1, "magic_power": 1, "hand": 0, "helper": 1}
    assert st["forced_passes"] == [1, 0] and st["swaps"] == [1, 0] and st["rolls"] == [1, 1]
    assert GAME.summary(state) == "3-1 · Ann: 3 in play · Bob: 1 in play · 1 forced pass · " \
        "3 Dark Power taken"
    assert v["reminders"][0]["reason"] == "hand" and v["reminders"][1]["reason"] == \
        "magic_power"


# --- each card once, the deck, three displays, no free rune, the turn's one action ---------


def shapes_of(state, kind: str, key: str = "creature") -> list[dict]:
    return [s for s in GAME.legal(state) if s["type"] == kind and key in s]


def test_a_card_on_a_portal_cannot_be_displayed_on_another_and_is_not_offered():
    state = play(start(), show(1, 2), END)
    refused(state, show(1, 2), match="the Griffin for space 1 is on Ann's portal and each card "
                                     "exists once: Bob cannot display a second one; free for "
                                     "space 1: Dragon, Unicorn, Phoenix, Kraken, Hydra")
    assert shapes_of(state, "display") == [
        {"type": "display", "space": [1], "creature": [1, 3, 4, 5, 6]},
        {"type": "display", "space": [2, 3, 4, 5, 6, 7, 8, 9], "creature": [1, 2, 3, 4, 5, 6]}]
    # Another creature there is fine, and so is the Griffin on another space.
    assert view(play(state, show(1, 3), show(2, 2)))["players"][1]["portal"][:2] == [3, 2]


def test_a_swap_for_a_hand_card_cannot_bring_a_second_copy_either():
    state = play(start(), show(1, 2), END, show(1, 3), END, END)  # Bob's turn, Unicorn on 1
    refused(state, {"type": "swap", "space": 1, "creature": 2},
            match="the Griffin for space 1 is on Ann's portal and each card exists once: Bob "
                  "cannot swap in a second one; free for space 1: Dragon, Phoenix, Kraken")
    assert shapes_of(state, "swap") == [{"type": "swap", "space": [1],
                                         "creature": [1, 4, 5, 6]}]
    # The swap between the two portals exchanges the two cards: never a copy.
    v = view(play(state, {"type": "swap", "space": 1, "player": 0}))
    assert [p["portal"][0] for p in v["players"]] == [3, 2]


@pytest.mark.parametrize("n, size", [(2, 4), (3, 5), (4, 6)])
def test_the_deck_holds_four_five_or_six_creatures_by_player_count(n, size):
    state = start(n)
    v = view(state)
    assert v["deck_size"] == size and v["deck"] == list(range(1, n + 1)) and v["boxed"] is None
    # The first creatures displayed that are on no Portal board fill the free places.
    others = [c for c in range(1, 7) if c > n]
    for space, creature in enumerate(others[:size - n], start=1):
        state = play(state, show(space, creature))
    assert view(state)["deck"] == sorted({*range(1, n + 1), *others[:size - n]})
    if size == 6:
        return
    state = play(state, END)
    out = others[size - n]
    refused(state, show(9, out), match=f"no {v['creatures'][out - 1]} card is in this game: "
                                       f"a {n}-player deck holds {size} creatures; the "
                                       "creatures in play: ")
    assert all(out not in s["creature"] for s in shapes_of(state, "display"))
    assert all(out not in s["creature"] for s in shapes_of(state, "swap"))


def test_six_creatures_in_a_two_player_game_are_refused_through_a_hand_swap_too():
    state = charged(play(start(), show(1, 5), show(2, 6), END, show(1, 1), END), 0)
    refused(state, {"type": "swap", "space": 1, "creature": 3},
            match="no Unicorn card is in this game: a 2-player deck holds 4 creatures; the "
                  "creatures in play: Dragon, Griffin, Kraken, Hydra")


def test_the_boxed_option_names_the_creatures_put_back_in_the_box():
    state = start(3, portals=[2, 4, 6], boxed=[1])
    v = view(state)
    assert v["boxed"] == [1] and v["deck"] == [2, 3, 4, 5, 6]
    refused(state, show(1, 1), match="no Dragon card is in this game: it was put back in the "
                                     "box; the creatures in play: Griffin, Unicorn, Phoenix, "
                                     "Kraken, Hydra")
    assert shapes_of(state, "display")[0]["creature"] == [2, 3, 4, 5, 6]
    prepared = GAME.prepare(NAMES[:3], {"portals": [2, 4, 6], "boxed": [1]}, NoDice())
    assert prepared["boxed"] == [1] and GAME.again(prepared)["boxed"] == [1]
    # Left out, it stays out of the options: the table's play decides the deck.
    assert "boxed" not in GAME.prepare(NAMES[:3], {}, NoDice())


@pytest.mark.parametrize("n, boxed, said", [
    (2, [5], "with 2 players the deck holds 4 creatures, so 2 different creatures of "
             r"\[3, 4, 5, 6\]"),
    (2, [5, 5], "2 different creatures"),
    (2, [1, 5], "creature 1 is on a Portal board and stays in the deck"),
    (3, [7], "1 different creature of"),
    (4, [6], "none \\(all six creatures play\\)"),
    (2, "5,6", "option 'boxed' lists the creatures put back in the box"),
])
def test_a_wrong_boxed_option_is_refused_saying_what_fits(n, boxed, said):
    with pytest.raises(InvalidAction, match=said):
        GAME.prepare(NAMES[:n], {"boxed": boxed}, NoDice())


def test_at_most_three_displays_in_a_turn():
    state = play(charged(start(), 0), COLUMN, show(1, 1), show(2, 1), show(3, 1))
    v = view(state)
    assert (v["displays"], v["max_displays"]) == (3, 3)
    refused(state, show(4, 1), match="Ann has displayed 3 elements this turn: each display "
                                     "spends 2 Magic Power and a player holds at most 6, so 3 "
                                     "is the most in one turn; end the turn")
    assert not shapes_of(state, "display")
    state = play(state, END, END)
    assert view(state)["displays"] == 0 and shapes_of(state, "display")


def test_no_rune_needs_this_turns_roll_with_a_rune_one_per_rune_die():
    state = start()
    refused(state, dark("no_rune"), match="Ann has not rolled the Spell Dice this turn")
    assert "no_rune" not in shapes_of(state, "dark_power", "reason")[0]["reason"]
    magic = play(state, {"type": "roll", "faces": ["Magic", "Magic", "Magic"]})
    refused(magic, dark("no_rune"), match=r"Ann's roll \(Magic Magic Magic\) showed only Magic")
    assert view(magic)["no_rune_left"] == 0
    two = play(state, {"type": "roll", "faces": ["Fire", "Magic", "Air"]})
    assert view(two)["no_rune_left"] == 2
    two = play(two, dark("no_rune"), show(1, 1), dark("no_rune"))  # after a display too
    assert view(two)["no_rune_left"] == 0 and view(two)["players"][0]["dark_power"] == 2
    refused(two, dark("no_rune"), match="showed 2 runes and 2 have been recorded")
    assert not any("no_rune" in s["reason"] for s in shapes_of(two, "dark_power", "reason"))
    # The next turn starts without a roll.
    refused(play(two, END), dark("no_rune"), match="Bob has not rolled")


def test_the_first_face_of_the_tables_own_dice_is_the_magic_power_symbol():
    state = start(dice_faces=["Star", "Moon", "Sun"])
    refused(play(state, {"type": "roll", "faces": ["Star", "Star"]}), dark("no_rune"),
            match="showed only Star, the Magic Power symbol")
    assert view(play(state, {"type": "roll", "faces": ["Star", "Moon"]}))["no_rune_left"] == 1


@pytest.mark.parametrize("action, gained, last", [
    ({"type": "column"}, 0, {"type": "column", "player": 0}),
    ({"type": "helper", "trick": "hand"}, 1,
     {"type": "helper", "player": 0, "trick": "hand", "gained": True}),
    ({"type": "helper", "trick": "column"}, 0,
     {"type": "helper", "player": 0, "trick": "column", "gained": False}),
])
def test_a_column_and_the_helpers_tricks_are_recorded_as_the_turns_one_action(action, gained,
                                                                              last):
    state = play(two_portals(), action)
    v = view(state)
    assert v["last"] == last and v["acted"] is True
    assert v["action"] == ("column" if action["type"] == "column" else "helper")
    assert v["players"][0]["dark_power"] == gained
    assert v["stats"]["columns"][0] == (action["type"] == "column")
    assert v["stats"]["tricks"][0] == (action["type"] == "helper")
    for second in ({"type": "roll", "dice": 1}, {"type": "column"}, dark("helper"),
                   {"type": "helper", "trick": "column"},
                   {"type": "swap", "space": 5, "player": 1}):
        refused(state, second, match="this turn: one action per turn")
    assert {s["type"] for s in GAME.legal(state)} == {"display", "dark_power", "end_turn"}
    # Displays may follow it: three after a column, two after the Helper, which spent one
    # of the player's 6 Magic Power tokens (2 per display).
    most = 2 if action["type"] == "helper" else 3
    assert view(state)["max_displays"] == most
    shown = play(state, *(show(s, 1) for s in range(1, most + 1)))
    assert view(shown)["displays"] == most
    assert not shapes_of(shown, "display")
    refused(shown, show(most + 1, 1), match=f"so {most} is the most in")


@pytest.mark.parametrize("helper", [{"type": "swap", "space": 5, "player": 1},
                                    {"type": "swap", "space": 5, "creature": 6},
                                    dark("helper")])
def test_every_use_of_the_helper_leaves_two_displays(helper):
    # The Helper spends 1 of the player's 6 Magic Power tokens, each display 2.
    state = play(two_portals(), helper)
    assert view(state)["max_displays"] == 2
    state = play(state, show(1, 1), show(2, 1))
    refused(state, show(3, 1), match="Ann has displayed 2 elements this turn: each display "
                                     "spends 2 Magic Power and a player holds at most 6, of "
                                     "which the Magic Helper spent 1 this turn, so 2 is the "
                                     "most in this turn; end the turn")
    assert not shapes_of(state, "display")
    # The next turn may show three again.
    assert view(play(state, END))["max_displays"] == 3


def test_the_turns_action_comes_before_any_display():
    state = play(two_portals(), show(1, 1))
    for action in ({"type": "column"}, {"type": "helper", "trick": "hand"},
                   {"type": "roll", "dice": 2}, {"type": "swap", "space": 5, "player": 1}):
        refused(state, action, match="Ann has displayed this turn: the turn's action comes "
                                     "before displaying")


@pytest.mark.parametrize("action, said", [
    ({"type": "helper"}, "missing field 'trick'"),
    ({"type": "helper", "trick": "steal"}, 'must be one of "hand", "column"'),
    ({"type": "column", "space": 1}, "action 'column' has no field 'space'"),
])
def test_a_malformed_column_or_trick_is_refused_naming_the_field(action, said):
    refused(start(), action, InvalidAction, match=said)


def test_every_legal_shape_is_accepted_in_every_combination():
    state = play(start(3), {"type": "roll", "faces": ["Fire", "Magic", "Magic"]}, show(1, 2),
                 show(5, 3),
                 END, show(1, 4), show(5, 5), END)  # Cleo: the deck is full (five creatures)
    for shape in GAME.legal(state):
        lists = {k: v for k, v in shape.items() if isinstance(v, list)}
        combos = [dict(zip(lists, values, strict=True))
                  for values in itertools.product(*lists.values())]
        for combo in combos:
            GAME.resolve(state, {**shape, **combo}, random.Random(1))


def test_a_swap_with_a_portal_is_offered_per_player_only_where_it_exchanges_something():
    # Ann shows 1 and 5; Bob only 5; Cleo both: Bob is offered for space 5 alone.
    state = charged(play(start(3), show(1, 1), show(5, 1), END, show(5, 2), END, show(1, 3),
                         show(5, 3), END), 0)
    assert shapes_of(state, "swap", "player") == [
        {"type": "swap", "space": [5], "player": [1]},
        {"type": "swap", "space": [1, 5], "player": [2]}]
    refused(state, {"type": "swap", "space": 1, "player": 1}, match="Bob's space 1 is empty")


# --- the Magic Power bound's two readings (RULINGS, third round) -------------------------


def test_a_no_rune_recorded_after_the_displays_still_lowers_the_bound():
    # "a recorded roll of n dice adds n less the no_rune penalties recorded for it":
    # recorded for it whenever it comes, so a late one takes a token back, this turn
    # and the next.
    state = play(start(), {"type": "roll", "faces": ["Fire", "Magic", "Magic"]}, show(1, 1))
    assert view(state)["players"][0]["magic_power"] == 2  # 1 + 3, less 2 for the display
    state = play(state, dark("no_rune"))
    assert view(state)["players"][0]["magic_power"] == 1 and view(state)["max_displays"] == 1
    refused(state, show(2, 1), match=re.escape(
        "Ann can hold at most 1 Magic Power token now (1 kept from earlier turns, a roll of "
        "3 dice less 1 'no_rune', 2 spent on displays) and a display spends 2: no display "
        "now; end the turn"))
    assert view(play(state, END))["players"][0]["magic_power"] == 1


def test_the_helper_needs_a_token_the_record_lets_the_player_keep():
    # RB action 3: the Helper is paid by discarding "one Magic Power token owned"; as the
    # turn's action it rolls none, so the token is one kept from earlier turns. Ann spent
    # her 2 (1 + a Magic face) on a display: none kept (an audit found it accepted).
    state = play(start(), {"type": "roll", "faces": ["Magic"]}, show(1, 1), END, END)
    assert view(state)["players"][0]["magic_power"] == 3  # 0 kept, 3 if a roll not entered
    message = re.escape(
        "no Magic Helper now: it spends 1 Magic Power token, and Ann can hold none now (none "
        "kept from earlier turns, as the table recorded them, and a turn whose action is the "
        "Helper rolls none); roll the Spell Dice, take a column, display or end the turn")
    for helper in ({"type": "helper", "trick": "column"}, {"type": "helper", "trick": "hand"},
                   dark("helper"), {"type": "swap", "space": 1, "creature": 2}):
        refused(state, helper, match=message)
    kinds = {s["type"] for s in GAME.legal(state)}
    assert kinds == {"display", "roll", "column", "dark_power", "end_turn"}
    assert "helper" not in next(s["reason"] for s in GAME.legal(state)
                                if s["type"] == "dark_power")
    # One token kept pays for it (and leaves none for a display).
    state = play(state, {"type": "roll", "faces": ["Magic"]}, END, END)
    assert view(state)["players"][0]["magic_power"] == 1 + 3
    state = play(state, {"type": "helper", "trick": "column"})
    assert view(state)["players"][0]["magic_power"] == 0 and view(state)["max_displays"] == 0


def test_a_bound_spent_past_none_leaves_none_not_a_debt():
    # "The most Magic Power tokens the record allows" is a count of tokens: never below
    # 0. Ann's two displays spent the 4 her roll allowed; two no_rune recorded after them
    # take 2 from the roll: the record spent 2 more than it allowed. She keeps none, and
    # her next turn, its action not entered, pays a display again. (A debt carried on
    # left her 1: no display; repeated, it refused her displays for ever.)
    state = play(start(), {"type": "roll", "faces": ["Fire", "Water", "Magic"]}, show(1, 1),
                 show(2, 1), dark("no_rune"), dark("no_rune"))
    assert view(state)["players"][0]["magic_power"] == 0
    state = play(state, END, END)
    assert view(state)["players"][0]["magic_power"] == 3
    assert view(state)["max_displays"] == 1 and shapes_of(state, "display")
    state = play(state, show(3, 1))
    assert view(state)["players"][0]["portal"][2] == 1


# --- a penalty recorded before the turn's action binds the action (RULINGS, third round) --


def test_a_hand_penalty_before_the_action_leaves_no_roll():
    # "Too many cards only in a turn whose action is a column or the Magic Helper, or not
    # recorded": a roll recorded after it would make the turn's record impossible (RB: a
    # roll brings no card; a column or a Helper trick does).
    state = play(start(), dark("hand"))
    refused(state, {"type": "roll", "faces": ["Magic"]}, match=re.escape(
        "no Spell Dice roll now: Ann took a 'hand' Dark Power this turn, and more than 4 "
        "cards follows a column or the Magic Helper (a roll brings no card); record the "
        "column or the Helper, or undo the penalty"))
    refused(state, {"type": "roll", "dice": 2}, match="no Spell Dice roll now")
    assert not [s for s in GAME.legal(state) if s["type"] == "roll"]
    assert view(play(state, {"type": "column"}))["action"] == "column"
    assert view(play(state, {"type": "helper", "trick": "column"}))["action"] == "helper"


def saved_four():
    """Ann's turn with 4 Magic Power kept (1 + three Magic faces, nothing spent)."""
    return play(start(), {"type": "roll", "faces": ["Magic"] * 3}, END, END)


def test_a_magic_power_penalty_before_the_action_needs_a_roll_past_six():
    # "Too much Magic Power only in a turn whose action is a roll or not recorded, and
    # only when the bound could pass 6": 4 kept, so a roll of 3 dice, not a column, the
    # Helper, or a roll of 2 (RB: "no more than 6 tokens of Magic Power").
    state = play(saved_four(), dark("magic_power"))
    refused(state, {"type": "column"}, match=re.escape(
        "no column now: Ann took a 'magic_power' Dark Power this turn, and more than 6 "
        "tokens follows a Spell Dice roll (a column brings no Magic Power); record the "
        "roll, or undo the penalty"))
    refused(state, {"type": "helper", "trick": "column"}, match="no Magic Helper now")
    refused(state, {"type": "swap", "space": 1, "creature": 2}, match="no Magic Helper now")
    refused(state, {"type": "roll", "faces": ["Magic", "Magic"]}, match=re.escape(
        "no roll of 2 dice now: Ann took a 'magic_power' Dark Power this turn, and with 4 "
        "tokens kept from earlier turns only a roll of 3 dice or more takes the Magic Power "
        "past 6; roll 3 dice, or undo the penalty"))
    assert [s for s in GAME.legal(state) if s["type"] in ("roll", "column", "helper", "swap")
            ] == [{"type": "roll", "dice": [3]}]
    state = play(state, {"type": "roll", "faces": ["Fire", "Magic", "Magic"]})
    # The roll's three tokens took 4 past 6 only if none of its dice gave no rune.
    assert view(state)["no_rune_left"] == 0
    refused(state, dark("no_rune"), match=re.escape(
        "no more 'no_rune' Dark Power: Ann took a 'magic_power' Dark Power this turn, so the "
        "roll took the Magic Power past 6: with 4 tokens kept from earlier turns and 3 dice, "
        "at most 0 dice gave no token; undo the 'magic_power' penalty if it was wrong"))
    assert "no_rune" not in next(s["reason"] for s in GAME.legal(state)
                                 if s["type"] == "dark_power")


def test_no_rune_and_full_portal_refusals_say_what_is_allowed():
    # Issue 36: a refusal names what is wrong and what is allowed now (an audit found
    # these two saying only the first).
    state = play(start(), {"type": "roll", "faces": ["Magic", "Magic"]})
    refused(state, dark("no_rune"), match=re.escape(
        "no 'no_rune' Dark Power: Ann's roll (Magic Magic) showed only Magic, the Magic "
        "Power symbol, and no rune; display or end the turn"))
    state = play(start(), {"type": "roll", "faces": ["Fire", "Magic"]}, dark("no_rune"))
    refused(state, dark("no_rune"), match="one per rune die at most; display or end the turn")
    # Ann fills her portal, three displays a turn from 6 Magic Power rolled before.
    state = start()
    for first in (1, 4, 7):
        state = play(charged(state, 0), show(first, 1), show(first + 1, 1), show(first + 2, 1))
        if first < 7:
            state = play(state, END)
    refused(state, show(6, 1), match=re.escape(
        "Ann's space 6 already shows Dragon; the portal is full: nothing more to display; "
        "end the turn"))
