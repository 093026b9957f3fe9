"""Alakazoo from the panel: displays in three or four presses, turns on the seat buttons."""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import IllegalAction
from companion.games.alakazoo.oled import event, labels
from companion.panel import Panel
from companion.table import Table
from companion.ui.controls import Context
from drivers.leds import SeatLeds
from tests.panel_support import Presses, overtaken, press, view
from tests.support import CATALOG

CTX = Context(CATALOG, names=("Ann", "Bob", "Cleo", "Di"))
NAMES = ["Ann", "Bob", "Cleo", "Di"]


def start(store, players: int = 2, **options) -> Panel:
    table = Table(store, CATALOG, rng=random.Random(5))
    table.start({"game": "alakazoo", "players": NAMES[:players], "options": options})
    return Panel(table, CTX)


def events(panel: Panel) -> list[dict]:
    return list(panel.table.match.events)


def magic(n: int) -> dict:
    """A roll of ``n`` dice that all show the Magic Power symbol: ``n`` tokens."""
    return {"type": "roll", "faces": ["Magic"] * n}


def charged(panel: Panel, rolls: tuple[int, int] = (3, 2)) -> int:
    """Ann rolls ``rolls`` Magic Power symbols in two turns (Bob ends his): from the 1
    token she starts with (or 0 with rolls 3, 3), her turn again with the 6 a player
    holds at most. The events so far."""
    for roll in map(magic, rolls):
        for action in (roll, {"type": "end_turn"}, {"type": "end_turn"}):
            panel.table.act(action)
    return len(events(panel))


def test_a_display_on_the_first_empty_space_with_the_own_creature_is_three_presses(
        memory_store):
    panel = start(memory_store, 3, portals=[4, 1, 2])
    panel.table.act({"type": "display", "space": 1, "creature": 2})
    presses = Presses(panel)
    presses("ok")  # the picker opens on space 2, the first empty one
    presses("ok")  # the creature list opens on Ann's own Phoenix
    assert panel.state.screen.items[panel.state.ui.cursor].startswith("Phoenix")
    presses("ok")
    assert presses.count == 3
    assert events(panel)[-1] == {"type": "display", "by": 0, "space": 2, "creature": 4}
    assert view(panel)["players"][0]["points"] == 1 + 2  # space 1 first; space 2 own, first


def test_a_display_one_space_further_is_four_presses(memory_store):
    panel = start(memory_store, 2)
    presses = Presses(panel)
    presses("ok", "next", "ok", "ok")
    assert presses.count == 4
    assert events(panel)[-1] == {"type": "display", "by": 0, "space": 2, "creature": 1}
    assert panel.state.ui.screen == "board"


def test_back_from_the_creature_list_returns_to_the_space_picked(memory_store):
    panel = start(memory_store, 2)
    press(panel, "ok", "next", "next", "ok")  # space 3
    assert panel.state.screen.title == "Space 3: first +1"
    press(panel, "back")
    assert panel.state.ui.screen == "zoo-space"
    press(panel, "ok")
    assert panel.state.screen.title == "Space 3: first +1"


def test_creatures_whose_names_begin_alike_are_told_apart_by_another_letter():
    # Letters, not numbers: a number on the grid reads as a space number.
    assert labels(["Dragon", "Griffin", "Unicorn", "Phoenix", "Kraken", "Hydra"]) == \
        ["D", "G", "U", "P", "K", "H"]
    assert labels(["Basilisk", "Griffin", "Unicorn", "Sphinx", "Siren", "bunyip"]) == \
        ["B", "G", "U", "S", "I", "N"]
    # A name with no free letter left falls back to its number.
    assert labels(["Aa", "A", "Ab", "Ba", "Bb", "Cc"])[1] == "2"


def test_the_event_line_keeps_every_die_and_the_swap_readable_with_long_names():
    names = ["Player 1", "Player 2", "Player 3", "Player 4"]
    view = {"players": [{"name": n} for n in names], "creatures":
            ["Dragon", "Griffin", "Unicorn", "Phoenix", "Kraken", "Hydra"],
            "last": {"type": "roll", "player": 3, "faces": ["Fire", "Fire", "Water"],
                     "device": True}}
    assert event(view, {}) == "Player 4: Fire Fire Water"
    view["last"] = {"type": "swap", "player": 0, "space": 1, "gave": 4, "got": 1,
                    "other": None, "gained": False}
    assert event(view, {}) == "Player 1 1: Dragon (hand)"
    view["last"] = {**view["last"], "other": 3, "gained": True}
    assert event(view, {}) == "Pla.1: Dragon from Pla.4"


def test_a_seat_button_ends_its_own_turn_and_refuses_anothers_and_the_leds_follow(
        memory_store):
    factory = MockFactory()
    leds = SeatLeds([23, 12, 16], factory)
    panel = start(memory_store, 3)
    panel.table.subscribe(leds.show)
    try:
        leds.show(panel.table.snapshot)
        assert [factory.pin(p).state for p in (23, 12, 16)] == [1, 0, 0]
        press(panel, "seat2")  # Bob: not his turn
        assert panel.state.ui.message == "Bob: it is Ann's turn"
        assert events(panel) == [] and factory.pin(23).state == 1
        press(panel, "seat1")  # Ann ends her turn in one press
        assert events(panel) == [{"type": "end_turn", "by": 0}]
        assert view(panel)["current"] == 1
        assert [factory.pin(p).state for p in (23, 12, 16)] == [0, 1, 0]
    finally:
        leds.close()
        factory.close()


def test_the_forced_pass_is_told_as_it_happens(memory_store):
    panel = start(memory_store, 3)
    for _ in range(3):
        panel.table.act({"type": "dark_power", "reason": "hand"})
    press(panel, "seat1", "seat2", "seat3")  # Ann, Bob, Cleo end; Ann passes at once
    match = panel.table.snapshot.match
    assert match["view"]["current"] == 1
    assert event(match["view"], match["options"]) == "Ann passes: 3 Dark Power"


def test_next_rolls_the_dice_the_device_rolls_then_ends_the_turn(memory_store):
    panel = start(memory_store, 2)
    assert panel.state.screen.label("next") == "Roll"
    press(panel, "next")
    assert panel.state.screen.items == ("1", "2", "3") and panel.state.ui.cursor == 2
    press(panel, "prev", "ok")  # two dice
    roll = events(panel)[-1]
    assert roll["type"] == "roll" and len(roll["faces"]) == 2 and roll["device"]
    match = panel.table.snapshot.match
    assert event(match["view"], match["options"]) == f"Ann rolled {' '.join(roll['faces'])}"
    assert panel.state.screen.label("next") == "End"
    press(panel, "next")
    assert events(panel)[-1] == {"type": "end_turn", "by": 0}


def test_holding_ok_on_the_dice_row_records_the_tables_own_dice(memory_store):
    panel = start(memory_store, 2)
    press(panel, "next", "ok!")  # three dice, the table's own
    assert panel.state.screen.title == "Die 1 of 3"
    assert panel.state.screen.items == ("Magic", "Fire", "Water", "Earth", "Air", "Light")
    press(panel, "next", "ok", "ok", "back")  # Fire, Magic; BACK takes Magic off
    assert panel.state.screen.title == "Die 2 of 3" and events(panel) == []
    assert panel.state.screen.hint == "so far: Fire"
    press(panel, "next", "next", "ok", "ok")  # Water, Magic
    assert events(panel) == [{"type": "roll", "by": 0, "faces": ["Fire", "Water", "Magic"],
                              "device": False}]


def test_more_offers_only_what_the_rules_allow_now(memory_store):
    panel = start(memory_store, 2)
    press(panel, "prev")
    # No portal has an element yet: no swap; the rulebook's three actions otherwise.
    assert panel.state.screen.items == ("End turn", "Roll Spell Dice", "Dark Power +1",
                                        "Take column/discard", "Helper: hand swap",
                                        "Helper: column card")
    Presses(panel).to("Dark Power")
    # No roll yet: no rune to miss; the Helper's trick is an action of its own; a first
    # turn cannot pass 6 Magic Power (1 + 3 at most).
    assert panel.state.screen.items == ("Hand > 4 cards",)
    press(panel, "back", "back")
    panel.table.act({"type": "display", "space": 1, "creature": 3})
    press(panel, "prev")
    # Displayed: the turn's action (dice, a column, the Helper) is past.
    assert panel.state.screen.items == ("End turn", "Dark Power +1")
    Presses(panel).to("Dark Power")
    assert "Helper's trick" not in panel.state.screen.items
    Presses(panel).to("Hand > 4")
    assert events(panel)[-1] == {"type": "dark_power", "by": 0, "reason": "hand"}


def test_the_helpers_swap_with_another_portal_and_with_a_hand_card(memory_store):
    panel = start(memory_store, 3)
    table = panel.table
    for creature in (1, 2, 4):  # Ann, Bob and Cleo each show one on space 5
        table.act({"type": "display", "space": 5, "creature": creature})
        table.act({"type": "end_turn"})
    press(panel, "prev")
    Presses(panel).to("Swap with a portal")
    assert panel.state.screen.items == ("5",)  # the only space both sides have filled
    press(panel, "ok")
    assert panel.state.screen.items == ("Bob: Griffin", "Cleo: Phoenix")
    Presses(panel).to("Cleo")
    assert events(panel)[-1] == {"type": "swap", "by": 0, "space": 5, "player": 2}
    assert view(panel)["players"][0]["dark_power"] == 1
    press(panel, "seat1", "seat2", "seat3")  # Ann's turn again, her action free
    press(panel, "prev")
    Presses(panel).to("Swap for a card")
    press(panel, "ok")  # space 5 (Ann shows Cleo's Phoenix now)
    # Not her own Phoenix, nor the Griffin and the Dragon the other portals show there.
    assert panel.state.screen.items == ("Unicorn", "Kraken", "Hydra")
    Presses(panel).to("Hydra")
    assert events(panel)[-1] == {"type": "swap", "by": 0, "space": 5, "creature": 6}


def test_a_picker_overtaken_by_the_phone_closes_with_a_notice(memory_store):
    panel = start(memory_store, 2)
    press(panel, "ok", "ok")  # the creature list for space 1
    overtaken(panel, {"type": "display", "space": 1, "creature": 2})


def test_set_up_portals_first_player_and_the_dark_power_ruling(memory_store):
    panel = Panel(Table(memory_store, CATALOG, rng=random.Random(1)), CTX)
    presses = Presses(panel)
    presses("ok", *["ok"] * 3)  # New; Game: Wizard Dodgeball, AlakaSLAM, Alakazoo
    assert panel.state.screen.items[0] == "Game: Alakazoo"
    assert "Bob: Griffin" in panel.state.screen.items
    presses.to("First: P1")
    presses.to("First: P2")  # two players: no P3 or P4, on to the roll
    assert "First: Roll" in panel.state.screen.items
    presses.to("Players: 2")
    assert "Cleo: Unicorn" in panel.state.screen.items
    presses.to("Bob: Griffin")  # Unicorn is Cleo's: Phoenix
    presses.to("3 DP pass: Reset")
    presses.to("Start")
    match = panel.table.snapshot.match
    assert match["game"] == "alakazoo" and match["players"] == ["Ann", "Bob", "Cleo"]
    options = match["options"]
    assert options["portals"] == [1, 4, 3] and options["dark_power_reset"] is False
    assert options["first_player"] == options["first_roll"] in (0, 1, 2)


def test_a_rematch_from_the_setup_keeps_the_phones_creature_names(memory_store):
    creatures = ["Wolf", "Owl", "Bear", "Fox", "Eel", "Yak"]
    panel = start(memory_store, 2, creatures=creatures, portals=[3, 5])
    press(panel, "back")
    Presses(panel).to("New match")
    assert "Ann: Bear" in panel.state.screen.items and "Bob: Eel" in panel.state.screen.items
    Presses(panel).to("Start")  # asks to end this match first
    press(panel, "ok", "ok")  # End; Start again
    assert panel.table.snapshot.match["options"]["creatures"] == creatures


def finish(panel: Panel) -> None:
    """Ann fills her portal with Dragons, rolling three Magic Power symbols each turn and
    displaying what they pay for (two, one, ...); Bob plays the final round: Ann wins
    26-1."""
    for first, last in ((1, 2), (3, 3), (4, 5), (6, 6), (7, 8), (9, 9)):
        panel.table.act(magic(3))
        for space in range(first, last + 1):
            panel.table.act({"type": "display", "space": space, "creature": 1})
        panel.table.act({"type": "end_turn"})
        if last != 9:
            panel.table.act({"type": "end_turn"})
    panel.table.act({"type": "display", "space": 1, "creature": 3})
    panel.table.act({"type": "end_turn"})


def test_the_jury_opens_on_the_winner_and_flips_between_players(memory_store):
    panel = start(memory_store, 2)
    finish(panel)
    assert view(panel)["winner"] == [0]
    assert panel.state.screen.label("prev") == "Jury"
    press(panel, "prev")
    assert (panel.state.ui.screen, panel.state.ui.cursor) == ("zoo-jury", 0)
    press(panel, "next")
    assert panel.state.ui.cursor == 1
    press(panel, "next")
    assert panel.state.ui.cursor == 0
    press(panel, "back")
    assert panel.state.ui.screen == "board"


def test_the_column_and_the_helpers_tricks_are_the_turns_action_from_more(memory_store):
    panel = start(memory_store, 2)
    press(panel, "prev")
    Presses(panel).to("Take column/discard")
    assert events(panel) == [{"type": "column", "by": 0}]
    assert panel.state.screen.label("next") == "End"  # the action is spent: NEXT ends
    press(panel, "prev")
    assert panel.state.screen.items == ("End turn", "Dark Power +1")
    press(panel, "back", "next")
    press(panel, "prev")
    Presses(panel).to("Helper: hand swap")
    assert events(panel)[-1] == {"type": "helper", "by": 1, "trick": "hand"}
    assert view(panel)["players"][1]["dark_power"] == 1
    match = panel.table.snapshot.match
    assert event(match["view"], match["options"]) == "Bob: hand swap +1 DP"


def test_no_rune_is_offered_after_a_roll_once_per_die_that_showed_a_rune(memory_store):
    panel = start(memory_store, 2)
    panel.table.act({"type": "roll", "faces": ["Fire", "Magic"]})
    press(panel, "prev")
    Presses(panel).to("Dark Power")
    assert panel.state.screen.items[0] == "No rune (dice)"
    Presses(panel).to("No rune")
    assert events(panel)[-1] == {"type": "dark_power", "by": 0, "reason": "no_rune"}
    press(panel, "prev")
    # One rune: one penalty; after a roll in a first turn neither too many cards nor
    # more than 6 Magic Power is possible, so no Dark Power is left to offer.
    assert panel.state.screen.items == ("End turn",)


def test_the_creature_list_offers_only_cards_that_can_be_in_a_hand(memory_store):
    panel = start(memory_store, 2)
    # Ann shows a Griffin on 1 and brings Kraken and Hydra into the two-player deck (two
    # displays in her first turn, one in her second).
    for space, creature in ((1, 2), (2, 5), (3, 6)):
        if space == 3:
            panel.table.act({"type": "end_turn"})
            panel.table.act({"type": "end_turn"})
        panel.table.act({"type": "display", "space": space, "creature": creature})
    panel.table.act({"type": "end_turn"})
    press(panel, "ok", "ok")  # Bob: space 1, the creatures
    # Not Ann's Griffin for space 1; no Unicorn or Phoenix (out of a full deck).
    assert panel.state.screen.items == ("Dragon", "Kraken", "Hydra")
    press(panel, "back", "next", "ok")  # space 2: his own Griffin first
    assert panel.state.screen.items == ("Dragon", "Griffin  own +1", "Hydra")
    assert panel.state.screen.items[panel.state.ui.cursor].startswith("Griffin")


def test_after_three_displays_ok_offers_no_fourth(memory_store):
    panel = start(memory_store, 2)
    before = charged(panel)  # 6 Magic Power: three displays after a column
    panel.table.act({"type": "column"})
    presses = Presses(panel)
    for _ in range(3):
        presses("ok", "ok", "ok")
    assert [e.get("space") for e in events(panel)[before:]] == [None, 1, 2, 3]
    assert panel.state.screen.label("ok") in (None, "")
    before = events(panel)
    press(panel, "ok")
    assert events(panel) == before
    assert panel.state.ui.message == api_refusal(panel) == (
        "Ann has displayed 3 elements this turn: each display spends 2 Magic Power and a "
        "player holds at most 6, so 3 is the most in one turn; end the turn")


def test_after_the_helper_ok_offers_two_displays_and_no_third(memory_store):
    # The Helper spent 1 of Ann's 6 Magic Power tokens: two displays of 2 are left.
    panel = start(memory_store, 2)
    before = charged(panel)
    press(panel, "prev")
    Presses(panel).to("Helper: column card")
    presses = Presses(panel)
    for _ in range(2):
        presses("ok", "ok", "ok")
    assert [e.get("space") for e in events(panel)[before:]] == [None, 1, 2]
    assert panel.state.screen.label("ok") in (None, "")
    before = events(panel)
    press(panel, "ok")
    assert events(panel) == before
    assert panel.state.ui.message == api_refusal(panel)
    assert "of which the Magic Helper spent 1 this turn, so 2 is the most in this turn; " \
        "end the turn" in panel.state.ui.message


def test_ok_says_what_the_api_says_when_the_magic_power_pays_for_no_display(memory_store):
    """RULINGS third round: a display the bound cannot pay for is refused naming the
    bound; the panel's OK says the same words and what to do (it said "Ann: 0 shown,
    the most in a turn", as if three had been shown)."""
    panel = start(memory_store, 2)
    panel.table.act({"type": "column"})  # 1 token, a column gives none
    assert panel.state.screen.label("ok") in (None, "")
    before = events(panel)
    press(panel, "ok")
    assert events(panel) == before
    assert panel.state.ui.message == api_refusal(panel) == (
        "Ann can hold at most 1 Magic Power token now (1 kept from earlier turns, nothing "
        "from the column) and a display spends 2: no display now; end the turn")


def api_refusal(panel: Panel) -> str:
    """What the table answers a display on the first empty space now."""
    portal = view(panel)["players"][view(panel)["current"]]["portal"]
    with pytest.raises(IllegalAction) as refused:
        panel.table.act({"type": "display", "space": portal.index(None) + 1, "creature": 6})
    return str(refused.value)


def test_no_hand_swap_in_the_final_round_against_complete_portals(memory_store):
    # Ann completes; in Bob's final turn every other portal is complete: the Helper's
    # hand trick has nobody to be used against, its column trick is still there.
    panel = start(memory_store, 2)
    for first in (1, 4, 7):
        # 6 Magic Power each time (from 1, then from 0): three displays after a column.
        charged(panel, (3, 2) if first == 1 else (3, 3))
        panel.table.act({"type": "column"})
        for space in range(first, first + 3):
            panel.table.act({"type": "display", "space": space, "creature": 1})
        panel.table.act({"type": "end_turn"})
        if first != 7:
            panel.table.act({"type": "end_turn"})
    assert view(panel)["final_round"] and view(panel)["current"] == 1
    press(panel, "prev")
    assert "Helper: hand swap" not in panel.state.screen.items
    Presses(panel).to("Dark Power")
    assert "Helper's trick" not in panel.state.screen.items
    press(panel, "back")
    Presses(panel).to("Helper: column card")
    assert events(panel)[-1] == {"type": "helper", "by": 1, "trick": "column"}


def test_a_rematch_keeps_the_boxed_creatures_while_they_fit_the_seats(memory_store):
    panel = start(memory_store, 2, boxed=[5, 6])
    press(panel, "back")
    Presses(panel).to("New match")
    Presses(panel).to("Start")  # asks to end this match first
    press(panel, "ok", "ok")  # End; Start again
    assert panel.table.snapshot.match["options"]["boxed"] == [5, 6]
    press(panel, "back")
    Presses(panel).to("New match")
    Presses(panel).to("Players: 2")  # three players: one creature goes back, not two
    Presses(panel).to("Start")
    press(panel, "ok", "ok")
    match = panel.table.snapshot.match
    assert len(match["players"]) == 3 and "boxed" not in match["options"]


def test_the_dice_row_offers_only_the_counts_a_penalty_before_the_roll_leaves(memory_store):
    """RULINGS third round: after a 'magic_power' penalty the roll must be able to pass 6;
    with 4 tokens kept only 3 dice do, so the row offers 3 alone (legal's counts)."""
    panel = start(memory_store, 2)
    for action in ({"type": "roll", "faces": ["Magic"] * 3}, {"type": "end_turn"},
                   {"type": "end_turn"}, {"type": "dark_power", "reason": "magic_power"}):
        panel.table.act(action)
    press(panel, "next")
    assert panel.state.screen.items == ("3",)
    press(panel, "ok")
    assert len(events(panel)[-1]["faces"]) == 3
