"""Wizard Dodgeball from the panel: every action reachable with the four buttons."""

from __future__ import annotations

import random

import pytest

from companion.panel import Panel
from companion.table import Table
from companion.ui.controls import Context
from tests.panel_support import Presses, press, view
from tests.support import CATALOG

CTX = Context(CATALOG, names=("Owls", "Newts", "Cy"))
ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
         "options": {"rosters": ROSTERS}}


@pytest.fixture
def panel(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(3))
    table.start(START)
    return Panel(table, CTX)


def events(panel: Panel) -> list[dict]:
    return list(panel.table.match.events)


def menu_to(panel: Panel, label: str) -> None:
    """Move the cursor of the open list to the line starting with ``label`` and press OK."""
    items = panel.state.screen.items
    index = next(i for i, item in enumerate(items) if item.startswith(label))
    press(panel, *["next"] * ((index - panel.state.ui.cursor) % len(items)), "ok")


def test_next_ends_the_activation_and_the_active_sides_seat_button_does_too(panel):
    assert panel.state.screen.label("next") == "End"
    press(panel, "next")
    assert view(panel)["active"] == {"side": 1, "jersey": 45}
    press(panel, "seat1")  # not Owls' turn: nothing happens
    assert view(panel)["activation"] == 2
    press(panel, "seat2")
    assert view(panel)["active"]["jersey"] == 58


def test_a_rolled_throw_from_the_buttons(panel):
    press(panel, "ok")
    menu_to(panel, "Throw")
    menu_to(panel, "#30")
    assert panel.state.ui.screen == "wd-range"
    press(panel, "next", "ok")  # 2 zones
    menu_to(panel, "Holds a ball")
    event = events(panel)[-1]
    assert event["type"] == "throw" and event["target"] == 30 and event["range"] == 2
    assert event["target_holding_ball"] is True and len(event["rolls"]["dodge"]) == 3
    assert panel.state.ui.screen == "board"


def test_hit_and_catch_with_a_wizard_brought_back(panel):
    press(panel, "next")  # Newts' #45 acts
    press(panel, "ok")
    menu_to(panel, "Hit")
    menu_to(panel, "#33")
    assert not view(panel)["sides"][0]["wizards"][3]["on_court"]
    press(panel, "next", "next")  # Newts' #30 acts; #33 is off until its slot
    press(panel, "ok")
    menu_to(panel, "Catch")
    menu_to(panel, "#21")
    assert panel.state.screen.items == ("#33", "Nobody")
    menu_to(panel, "#33")
    assert events(panel)[-1] == {"type": "catch", "thrower": 30, "catcher": 21,
                                 "returning": 33}


def test_cast_on_several_targets_physically_and_by_the_device(panel):
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Freeze")
    menu_to(panel, "Several wizards")
    menu_to(panel, "[ ] #45")
    menu_to(panel, "[ ] #30")
    assert panel.state.screen.items[-1] == "Done (2)"
    menu_to(panel, "Done")
    assert panel.state.screen.title == "Freeze on #45 #30"
    menu_to(panel, "It took effect")
    assert events(panel)[-1] == {"type": "cast", "caster": 21, "spell": "freeze",
                                 "targets": [45, 30]}
    press(panel, "ok")
    assert "Cast" not in panel.state.screen.items  # #21 has cast this activation
    press(panel, "back", "next", "next", "ok")  # frozen #45's slot ends; #58 casts
    menu_to(panel, "Cast")
    assert "Freeze" not in panel.state.screen.items  # recharging
    menu_to(panel, "Weak")
    menu_to(panel, "Several wizards")
    menu_to(panel, "[ ] #10")
    menu_to(panel, "Done")
    menu_to(panel, "Device rolls")
    event = events(panel)[-1]
    assert event["type"] == "cast_roll" and "10" in event["rolls"]["resist"]


def test_dispel_from_the_buttons(panel):
    panel.table.act({"type": "cast", "caster": 21, "spell": "slow", "targets": [45]})
    press(panel, "next")
    press(panel, "ok")
    menu_to(panel, "Dispel")
    menu_to(panel, "#45")
    menu_to(panel, "Slow")
    menu_to(panel, "It worked")
    assert events(panel)[-1] == {"type": "dispel", "caster": 45, "target": 45,
                                 "spell": "slow"}
    assert view(panel)["sides"][1]["wizards"][0]["effects"] == []


def test_a_frozen_wizard_is_offered_only_the_end(panel):
    panel.table.act({"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]})
    press(panel, "next", "ok")
    assert panel.state.screen.items == ("End activation",)


def test_a_menu_overtaken_by_the_phone_closes_with_a_notice(panel):
    press(panel, "ok")
    menu_to(panel, "Catch")
    # The phone freezes the thrower while the catch menu is open.
    panel.table.act({"type": "cast", "caster": 21, "spell": "freeze", "targets": [21]})
    assert panel.state.ui.screen == "board"
    assert panel.state.ui.message == "Changed from a phone"
    before = panel.table.version
    press(panel, "ok")  # only clears the notice
    assert panel.state.ui.message is None and panel.table.version == before


def test_set_up_a_match_and_edit_a_jersey_with_the_buttons(memory_store):
    panel = Panel(Table(memory_store, CATALOG, rng=random.Random(1)), CTX)
    press(panel, "ok", "ok")  # New; Game: Center Court -> Wizard Dodgeball
    items = panel.state.screen.items
    assert items[0] == "Game: Wizard Dodgeball" and "S1 wizard 1: #1" in items
    menu_to(panel, "S1 wizard 1")
    assert panel.state.ui.screen == "wd-jersey" and panel.state.screen.items == ("0", "1")
    press(panel, "next", "next", "ok", "prev")  # tens 0 -> 2, units 1 -> 0
    assert panel.state.screen.items == ("2", "0")
    press(panel, "ok")  # Set
    assert panel.state.ui.screen == "setup"
    assert "S1 wizard 1: #20" in panel.state.screen.items
    press(panel, *["next"] * 10)  # the last roster row, then Start
    assert panel.state.screen.label("ok") == "Start"
    press(panel, "ok")
    match = panel.table.snapshot.match
    assert match["game"] == "wizard-dodgeball"
    assert match["options"]["rosters"] == [[20, 2, 3, 4, 5], [6, 7, 8, 9, 10]]


def test_a_duplicate_jersey_is_flagged_and_refused_at_start(memory_store):
    panel = Panel(Table(memory_store, CATALOG, rng=random.Random(1)), CTX)
    press(panel, "ok", "ok")
    menu_to(panel, "S1 wizard 1")
    press(panel, "ok", "next")  # 01 -> 02, which wizard 2 wears
    assert panel.state.screen.hint == "taken: S1 wizard 2"
    press(panel, "ok", *["next"] * 10, "ok")
    assert panel.table.snapshot.match is None
    assert "#2 is in the rosters twice" in panel.state.ui.message


def test_rematch_keeps_rosters_and_rolls_off_again(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(2))
    table.start({**START, "options": {"rosters": ROSTERS, "first_side": "roll", "target": 1}})
    table.act({"type": "hit", "thrower": table.snapshot.match["view"]["active"]["jersey"],
               "target": 45 if table.snapshot.match["view"]["active"]["side"] == 0 else 21})
    panel = Panel(table, CTX)
    press(panel, "ok")  # Again
    options = panel.table.snapshot.match["options"]
    assert options["rosters"] == ROSTERS and options["roll_off"]
    assert panel.table.snapshot.match["view"]["winner"] is None


def back_to(panel: Panel, jersey: int) -> None:
    """End activations until ``jersey`` acts again."""
    while True:
        panel.table.act(END)
        if view(panel)["active"]["jersey"] == jersey:
            return


END = {"type": "end_activation"}


def test_a_device_rolled_cast_of_a_familiar_spell_on_one_opponent_takes_six_presses(panel):
    panel.table.act({"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]})
    back_to(panel, 21)  # Freeze is back in the hand
    back_to(panel, 21)
    presses = Presses(panel)
    presses("ok")
    presses.to("Cast")
    assert panel.state.screen.items[0] == "Freeze"  # cast last time
    presses.to("Freeze")
    assert panel.state.screen.items[0] == "#45 Newts"  # an opponent first
    presses.to("#45")
    assert panel.state.screen.items[0] == "Device rolls"
    presses.to("Device rolls")
    assert presses.count == 6
    event = events(panel)[-1]
    assert (event["type"], event["caster"], event["spell"], event["targets"]) == \
        ("cast_roll", 21, "freeze", [45])
    assert panel.state.ui.screen == "board"


def test_a_helping_spell_offers_the_caster_and_teammates_first(panel):
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Shield")
    assert panel.state.screen.items[:5] == ("#21 Owls", "#58 Owls", "#12 Owls", "#33 Owls",
                                            "#7 Owls")
    menu_to(panel, "#58")
    menu_to(panel, "Device rolls")
    assert view(panel)["sides"][0]["wizards"][1]["effects"] == ["shield"]


def test_recent_spells_come_first_the_casters_own_before_the_sides(panel):
    panel.table.act({"type": "cast", "caster": 21, "spell": "slow", "targets": [45]})
    panel.table.act(END)
    panel.table.act({"type": "cast", "caster": 45, "spell": "weak", "targets": [21]})
    panel.table.act(END)
    panel.table.act({"type": "cast", "caster": 58, "spell": "shield", "targets": [58]})
    assert view(panel)["sides"][0]["recent_casts"] == [
        {"spell": "shield", "caster": 58}, {"spell": "slow", "caster": 21}]
    assert view(panel)["sides"][1]["recent_casts"] == [{"spell": "weak", "caster": 45}]
    back_to(panel, 21)
    back_to(panel, 21)  # every card is back
    press(panel, "ok")
    menu_to(panel, "Cast")
    # #21's own Slow, then #58's Shield, then the rest in card order.
    assert panel.state.screen.items[:4] == ("Slow", "Shield", "Fireball", "Freeze")


def test_a_teleport_of_a_ball_alone_stays_reachable(panel):
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Teleport")
    items = panel.state.screen.items
    assert items[0] == "#21 Owls"  # the caster moves itself, mostly
    # Teleport moves a ball and/or one wizard: no "Several", the ball alone at the end.
    assert "Several wizards" not in items and items[-1] == "No wizard (a ball)"
    menu_to(panel, "No wizard")
    menu_to(panel, "Cast (no wizard)")
    assert events(panel)[-1] == {"type": "cast", "caster": 21, "spell": "teleport",
                                 "targets": []}



def test_a_fireball_goes_on_one_wizard_the_caster_first(panel):
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Fireball")
    items = panel.state.screen.items
    assert items[0] == "#21 Owls" and "Several wizards" not in items
    menu_to(panel, "#21")
    menu_to(panel, "It took effect")
    assert events(panel)[-1] == {"type": "cast", "caster": 21, "spell": "fireball",
                                 "targets": [21]}


def test_pass_from_the_buttons_and_the_used_throw_leaves_the_menu(panel):
    panel.table.act({"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]})
    press(panel, "ok")
    menu_to(panel, "Pass")
    assert panel.state.screen.title == "#21 passes to"
    assert panel.state.screen.items == ("#58 Owls", "#12 Owls", "#33 Owls", "#7 Owls")
    menu_to(panel, "#12")
    assert events(panel)[-1] == {"type": "pass", "thrower": 21, "to": 12, "fireball": True}
    assert view(panel)["sides"][0]["wizards"][2]["effects"] == ["fireball"]
    assert view(panel)["last"]["text"] == "#21 passed to #12 (Fireball)"
    # The pass was #21's throw, and it has cast: only the end is left.
    press(panel, "ok")
    assert panel.state.screen.items == ("End activation",)


# --- issue 24: what Speed, Slow, the Magic reach and a loose Fireball offer -------------------


def act_menu(panel: Panel) -> tuple[str, ...]:
    press(panel, "ok")
    items = panel.state.screen.items
    press(panel, "back")
    return items


def test_a_sped_wizard_is_offered_its_second_throw_and_a_slowed_one_only_one(panel):
    table = panel.table
    table.act({"type": "cast", "caster": 21, "spell": "speed", "targets": [21]})
    table.act({"type": "hit", "thrower": 21, "target": 45})
    # Speed: one more throw or cast, either.
    assert {"Throw (roll)", "Cast"} <= set(act_menu(panel))
    press(panel, "ok")
    menu_to(panel, "Hit")
    menu_to(panel, "#30")
    assert events(panel)[-1] == {"type": "hit", "thrower": 21, "target": 30}
    assert act_menu(panel) == ("End activation",)
    press(panel, "next")
    table.act({"type": "cast", "caster": 45, "spell": "slow", "targets": [58]})
    press(panel, "next")
    assert view(panel)["active"]["jersey"] == 58
    assert view(panel)["reminder"] == "Slow: throw or cast"
    press(panel, "ok")
    menu_to(panel, "Pass")
    menu_to(panel, "#12")
    assert act_menu(panel) == ("End activation",)


def test_the_target_ticks_stop_at_the_casters_magic(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(3))
    table.start({**START, "options": {"rosters": ROSTERS, "wizards": {"21": {"magic": 2}}}})
    panel = Panel(table, CTX)
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Freeze")
    menu_to(panel, "Several wizards")
    menu_to(panel, "[ ] #45")
    menu_to(panel, "[ ] #30")
    items = panel.state.screen.items
    assert all(i.startswith(("[x]", "[-]", "Done")) for i in items)
    menu_to(panel, "[-] #10")  # full: nothing changes
    assert panel.state.ui.picked == (45, 30)
    assert panel.state.screen.label("ok") == "Full"
    menu_to(panel, "Done (2)")
    menu_to(panel, "It took effect")
    assert events(panel)[-1]["targets"] == [45, 30]


def test_magic_1_is_offered_one_wizard_and_no_several(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(3))
    table.start({**START, "options": {"rosters": ROSTERS, "wizards": {"21": {"magic": 1}}}})
    panel = Panel(table, CTX)
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Freeze")
    assert "Several wizards" not in panel.state.screen.items


def test_a_loose_fireball_is_asked_about_when_a_ball_is_thrown(panel):
    table = panel.table
    table.act({"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]})
    press(panel, "next")
    table.act({"type": "cast", "caster": 45, "spell": "butter_fingers", "targets": [21]})
    press(panel, "next")
    assert view(panel)["loose_fireballs"] == [0]
    press(panel, "ok")
    menu_to(panel, "Throw")
    menu_to(panel, "#30")
    press(panel, "next", "next", "ok")  # 3 zones
    menu_to(panel, "No ball")
    assert panel.state.ui.screen == "wd-fireball"
    assert panel.state.screen.items == ("Another ball", "The Fireball")
    menu_to(panel, "The Fireball")
    event = events(panel)[-1]
    assert event["fireball"] is True and event["rolls"]["throw"] == []
    assert view(panel)["last"]["attack"] == 10


def test_butter_fingers_on_the_target_leaves_holds_a_ball_out(panel):
    table = panel.table
    table.act({"type": "cast", "caster": 21, "spell": "butter_fingers", "targets": [30]})
    press(panel, "ok")
    menu_to(panel, "Throw")
    menu_to(panel, "#30")
    press(panel, "ok")
    assert panel.state.screen.items == ("No ball",)


def test_dispel_offers_each_wearer_only_its_own_effects(panel):
    table = panel.table
    table.act({"type": "cast", "caster": 21, "spell": "slow", "targets": [45]})
    press(panel, "next")
    table.act({"type": "cast", "caster": 45, "spell": "freeze", "targets": [58]})
    press(panel, "next", "next")  # #58 is frozen: #30 acts
    press(panel, "ok")
    menu_to(panel, "Dispel")
    assert [i.split()[0] for i in panel.state.screen.items] == ["#58", "#45"]
    menu_to(panel, "#58")
    assert panel.state.screen.items == ("Freeze",)
    menu_to(panel, "Freeze")
    assert panel.state.screen.items == ("Device rolls", "It worked", "It failed")
    menu_to(panel, "It worked")
    assert events(panel)[-1] == {"type": "dispel", "caster": 30, "target": 58,
                                 "spell": "freeze"}


def test_a_catch_beside_a_fireball_is_of_another_ball(panel):
    panel.table.act({"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]})
    press(panel, "ok")
    menu_to(panel, "Catch")
    menu_to(panel, "#45")
    assert events(panel)[-1] == {"type": "catch", "thrower": 21, "catcher": 45,
                                 "returning": None, "fireball": False}


def test_magic_0_puts_a_fireball_on_its_own_ball_and_nothing_else(memory_store):
    table = Table(memory_store, CATALOG, rng=random.Random(3))
    table.start({**START, "options": {"rosters": ROSTERS, "wizards": {"21": {"magic": 0}}}})
    panel = Panel(table, CTX)
    press(panel, "ok")
    menu_to(panel, "Cast")
    menu_to(panel, "Fireball")
    assert panel.state.screen.items == ("#21 Owls",)
    menu_to(panel, "#21")
    # No roll at a Magic of 0, and no Fireball on no ball.
    assert panel.state.screen.items == ("It took effect",)
    menu_to(panel, "It took effect")
    assert events(panel)[-1] == {"type": "cast", "caster": 21, "spell": "fireball",
                                 "targets": [21]}
