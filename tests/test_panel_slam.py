"""AlakaSLAM from the panel: points in one press, serves and shots on the card picker."""

from __future__ import annotations

import random

import pytest

from companion.games.alakaslam.panel import preview
from companion.panel import Panel
from companion.table import Table
from companion.ui.controls import Context
from tests.panel_support import Presses, overtaken, press, view
from tests.support import CATALOG

CTX = Context(CATALOG, names=("Ann", "Bob", "Cy", "Di"))
NAMES = {2: ["Ann", "Bob"], 3: ["Ann", "Bob", "Cy"], 4: ["Ann", "Bob", "Cy", "Di"]}


def start(store, players: int, characters: list[str], **options) -> Panel:
    table = Table(store, CATALOG, rng=random.Random(5))
    table.start({"game": "alakaslam", "players": NAMES[players],
                 "options": {"characters": characters, **options}})
    return Panel(table, CTX)


@pytest.fixture
def singles(memory_store):
    """Ann (Austin) v Bob (Rich); Ann serves first."""
    return start(memory_store, 2, ["austin", "rich"])


def events(panel: Panel) -> list[dict]:
    return list(panel.table.match.events)


def test_a_seat_button_gives_its_players_side_the_point_in_one_press(memory_store):
    panel = start(memory_store, 4, ["toots", "laurie", "rich", "austin"])  # Ann+Bob v Cy+Di
    for seat, side in (("seat3", 1), ("seat2", 0), ("seat4", 1)):
        before = len(events(panel))
        press(panel, seat)
        assert events(panel)[before:] == [{"type": "point", "winner": side,
                                           "reason": "no_return"}]
    assert [s["score"] for s in view(panel)["sides"]] == [1, 2]


def test_a_two_card_shot_takes_seven_presses_and_is_previewed_before_it_is_sent(singles):
    panel = singles
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    assert view(panel)["ball"] == [2, 4]
    presses = Presses(panel)
    presses("ok")  # Shot: Bob is alone on his side, so his card row opens
    assert panel.state.ui.screen == "slam-cards"
    presses("prev", "ok")  # R1, next to Go
    presses("next", "next")  # B2 under the cursor: previewed with the row
    seen = preview(panel.state.ui, panel.table.snapshot.match)
    assert (seen.cards, seen.end, seen.result) == (("R1", "B2"), (2, 1), "in")
    presses("ok")
    assert panel.state.screen.label("ok") == "Go"
    recorded = len(events(panel))
    presses("ok")
    assert presses.count == 7
    assert events(panel)[recorded:] == [{"type": "shot", "player": 1, "cards": ["R1", "B2"],
                                         "ability": False}]
    assert view(panel)["ball"] == [2, 1] and panel.state.ui.screen == "board"


def test_a_one_card_serve_takes_seven_presses(singles):
    panel = singles
    presses = Presses(panel)
    presses("ok")  # Serve: Ann is alone on her side, so the corner row opens
    assert panel.state.screen.items == ("Red", "Blue")
    presses("ok")  # Red
    presses("next", "next", "next", "ok")  # B3
    assert preview(panel.state.ui, panel.table.snapshot.match).end == (2, 4)
    presses("ok")  # Go
    assert presses.count == 7
    assert events(panel)[-1] == {"type": "serve", "player": 0, "corner": "red",
                                 "cards": ["B3"]}


def test_a_serve_out_of_the_corner_it_started_in_is_previewed_as_bad(singles):
    panel = singles
    press(panel, "ok", "next", "ok")  # Serve from the blue corner
    press(panel, "prev", "ok", "prev", "prev")  # R1 added, R2 under the cursor
    seen = preview(panel.state.ui, panel.table.snapshot.match)
    assert (seen.start, seen.end, seen.result) == ((3, 1), (1, 4), "in")
    press(panel, "next", "next")  # back on Go: R1 alone lands short of the net
    seen = preview(panel.state.ui, panel.table.snapshot.match)
    assert (seen.cards, seen.end, seen.result) == (("R1",), (2, 2), "bad_serve")
    press(panel, "ok")
    assert events(panel)[-1] == {"type": "serve", "player": 0, "corner": "blue",
                                 "cards": ["R1"]}
    assert view(panel)["last_point"] == {"winner": 1, "reason": "bad_serve"}


def test_austin_is_offered_a_straight_two_and_rich_is_not(singles):
    panel = singles
    press(panel, "ok", "ok")
    assert "S2" in panel.state.screen.items
    press(panel, "back")
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    press(panel, "ok")
    assert "S2" not in panel.state.screen.items and "E1" in panel.state.screen.items


def test_an_enchanted_player_is_refused_with_the_rules_message(singles):
    panel = singles
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]})
    panel.table.act({"type": "shot", "player": 1, "cards": ["R2", "E2"]})
    press(panel, "ok")
    assert panel.state.screen.hint == "play 2, no E"  # Rich's Enchant-2
    recorded = len(events(panel))
    press(panel, "next", "ok", "ok")  # B1 alone
    assert panel.state.ui.message.startswith(
        "Ann is under Rich's Enchant-2: play exactly 2 cards")
    assert len(events(panel)) == recorded and panel.state.ui.screen == "slam-cards"


def test_doubles_serve_with_the_support_and_the_enchantments_target(memory_store):
    panel = start(memory_store, 4, ["toots", "laurie", "rich", "austin"])
    press(panel, "ok")
    assert panel.state.screen.items == ("Ann (Toots)", "Bob (Laurie)")
    press(panel, "next", "ok")  # Bob serves
    press(panel, "ok")  # from the red corner
    # Bob plays Laurie: her ability is offered on the serve too.
    assert panel.state.screen.items == ("Normal serve", "Ability: 1 card")
    press(panel, "ok")
    press(panel, "next", "ok", "ok")  # Bob: B1, Go
    assert panel.state.screen.title == "Ann after B1" and "E1" not in panel.state.screen.items
    press(panel, "next", "ok")  # Ann: B1
    press(panel, *["next"] * 5, "ok", "ok")  # E2, Go
    assert panel.state.screen.title == "Ann's E2 binds"
    assert panel.state.screen.items == ("Cy (Rich)", "Di (Austin)")
    press(panel, "next", "ok")
    assert events(panel)[-1] == {"type": "serve", "player": 1, "corner": "red",
                                 "cards": ["B1"],
                                 "support": {"player": 0, "cards": ["B1", "E2"], "enchant": 3}}
    assert view(panel)["obligations"][0]["player"] == 3


def test_back_on_the_supports_empty_row_returns_to_the_first_players_cards(memory_store):
    panel = start(memory_store, 3, ["rich", "josephias", "simon"], first_server=1)
    press(panel, "ok", "ok", "ok", "prev", "ok", "ok")  # Bob serves R1, Go
    assert panel.state.screen.title == "Cy after R1"
    press(panel, "back")
    assert panel.state.screen.title == "Bob" and panel.state.ui.picked == ("R1",)


def test_laurie_chooses_her_ability_and_plays_one_card(memory_store):
    panel = start(memory_store, 2, ["rich", "laurie"])
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    press(panel, "ok")
    assert panel.state.screen.items == ("Normal shot", "Ability: 1 card")
    press(panel, "next", "ok", "next", "next", "next", "ok")  # the ability; B3
    assert panel.state.screen.items == ("Go",)  # one card fills her row
    press(panel, "ok")
    assert events(panel)[-1]["ability"] is True
    assert view(panel)["players"][1]["ability_used"]


def test_the_more_menu_mulligan_ability_copy_and_a_point_with_its_reason(memory_store):
    panel = start(memory_store, 3, ["toots", "josephias", "simon"])
    press(panel, "prev")
    assert panel.state.screen.items == ("Point Ann", "Point Bob & Cy", "Mulligan", "Ability",
                                        "Cy copies")
    Presses(panel).to("Mulligan")
    Presses(panel).to("Bob: 8 > 7")
    assert events(panel)[-1] == {"type": "mulligan", "player": 1}
    press(panel, "prev")
    Presses(panel).to("Cy copies")
    Presses(panel).to("Toots")
    assert events(panel)[-1] == {"type": "copy", "player": 2, "character": "toots"}
    press(panel, "prev")
    Presses(panel).to("Ability")
    # Cy's copied Toots waits for his side's turn: Ann serves now. Bob's Josephias
    # waits for his side's draw phase, after its serve or shot.
    assert panel.state.screen.items == ("Ann (Toots)",)
    Presses(panel).to("Ann")
    assert events(panel)[-1] == {"type": "ability", "player": 0}
    press(panel, "prev")
    Presses(panel).to("Point Bob & Cy")
    Presses(panel).to("Declined")
    assert events(panel)[-1] == {"type": "point", "winner": 1, "reason": "declined"}


def test_a_picker_overtaken_by_the_phone_closes_with_a_notice(singles):
    panel = singles
    press(panel, "ok", "ok", "prev", "ok")
    overtaken(panel, {"type": "point", "winner": 1})


def test_set_up_canadian_doubles_with_characters_teams_and_a_coin_flip(memory_store):
    panel = Panel(Table(memory_store, CATALOG, rng=random.Random(1)), CTX)
    presses = Presses(panel)
    presses("ok", "ok", "ok")  # New; Game: Wizard Dodgeball, then AlakaSLAM
    assert panel.state.screen.items[0] == "Game: AlakaSLAM"
    presses.to("Players: 2")
    assert "Cy: Rich" in panel.state.screen.items  # a character for the new seat
    presses.to("Bob: Laurie")  # Laurie -> Toots (Rich is taken)
    presses.to("Alone: Ann")  # Bob plays alone
    presses.to("Serves: Side 1")
    presses.to("Serves: Side 2")  # -> Coin
    presses.to("Start")
    match = panel.table.snapshot.match
    assert match["game"] == "alakaslam" and match["view"]["format"] == "canadian"
    options = match["options"]
    assert options["characters"] == ["austin", "toots", "rich"]
    assert options["teams"] == [1, 0, 1]
    assert options["coin_flip"] in (0, 1) and options["first_server"] == options["coin_flip"]


def test_setting_up_doubles_picks_the_partner_and_a_rematch_keeps_the_choices(memory_store):
    panel = Panel(Table(memory_store, CATALOG, rng=random.Random(1)), CTX)
    presses = Presses(panel)
    presses("ok", "ok", "ok")
    presses.to("Players: 2")
    presses.to("Players: 3")
    presses.to("P1 partner: Bob")  # -> Cy
    presses.to("Target: 3")  # -> 4
    presses.to("Start")
    match = panel.table.snapshot.match
    assert match["options"]["teams"] == [0, 1, 0, 1] and match["options"]["target"] == 4
    press(panel, "back")
    Presses(panel).to("New match")
    items = panel.state.screen.items
    assert "P1 partner: Cy" in items and "Target: 4 points" in items


# --- second-round rulings on the panel ---------------------------------------------------


def test_a_seat_of_the_side_to_hit_is_refused_with_the_reason(singles):
    panel = singles
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    recorded = len(events(panel))
    press(panel, "seat2")  # Bob is to hit: he cannot have won by a missed return
    assert len(events(panel)) == recorded
    assert panel.state.ui.message == ("Ann hit last and the ball landed in: a point "
                                      "(no return) goes to Ann, not to Bob, who is to hit")
    press(panel, "seat1")
    assert events(panel)[-1] == {"type": "point", "winner": 0, "reason": "no_return"}


def test_the_more_menu_offers_only_the_points_the_record_allows(singles):
    panel = singles
    press(panel, "prev")
    assert panel.state.screen.items[:2] == ("Point Ann", "Point Bob")
    Presses(panel).to("Point Ann")  # Ann serves: not for a bad serve
    assert panel.state.screen.items == ("No return", "Declined", "Out", "Net")
    press(panel, "back")
    Presses(panel).to("Point Bob")
    assert panel.state.screen.items == ("No return", "Declined", "Out", "Net", "Bad serve")
    press(panel, "back", "back")
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    press(panel, "prev")
    assert panel.state.screen.items == ("Point Ann",)  # Bob is to hit
    Presses(panel).to("Point Ann")
    assert panel.state.screen.items == ("No return", "Declined", "Out", "Net")
    Presses(panel).to("Out")
    assert events(panel)[-1] == {"type": "point", "winner": 0, "reason": "out"}


def test_laurie_as_the_support_uses_her_ability_on_one_card(memory_store):
    panel = start(memory_store, 4, ["toots", "laurie", "rich", "austin"])
    press(panel, "ok", "ok", "ok")  # Ann serves from the red corner
    press(panel, "next", "ok", "ok")  # Ann: B1, Go
    assert panel.state.screen.title == "Bob: Laurie"
    assert panel.state.screen.items == ("Normal Support", "Ability: 1 card")
    press(panel, "next", "ok")
    assert panel.state.screen.title == "Bob after B1"
    assert panel.state.screen.hint == "ability: 1 card"
    press(panel, "next", "ok")  # B1
    assert panel.state.screen.items == ("Go",)  # one card fills her row
    press(panel, "ok")
    assert events(panel)[-1] == {"type": "serve", "player": 0, "corner": "red",
                                 "cards": ["B1"],
                                 "support": {"player": 1, "cards": ["B1"], "ability": True}}
    assert view(panel)["stats"]["abilities"] == [0, 1, 0, 0]
    # Her ability is spent: the next hit of hers offers no choice.
    panel.table.act({"type": "shot", "player": 2, "cards": ["B1"],
                     "support": {"player": 3, "cards": ["R1"]}})
    press(panel, "ok", "ok")  # Ann at the ball
    assert panel.state.ui.screen == "slam-cards"
    press(panel, "next", "ok", "ok")
    assert panel.state.screen.title == "Bob after B1"


def test_simons_copy_is_offered_only_until_he_uses_the_copied_ability(memory_store):
    panel = start(memory_store, 3, ["simon", "toots", "rich"])
    press(panel, "prev")
    Presses(panel).to("Ann copies")
    Presses(panel).to("Toots")
    press(panel, "prev")
    assert "Ann copies" in panel.state.screen.items  # he may still change his mind
    Presses(panel).to("Ability")
    Presses(panel).to("Ann")
    assert events(panel)[-1] == {"type": "ability", "player": 0}
    press(panel, "prev")
    assert "Ann copies" not in panel.state.screen.items
    press(panel, "back")
    panel.table.act({"type": "point", "winner": 1})
    press(panel, "prev")
    assert "Ann copies" in panel.state.screen.items  # a new point


def test_josephias_ability_is_offered_only_in_his_sides_draw_phase(memory_store):
    panel = start(memory_store, 3, ["austin", "josephias", "toots"])
    press(panel, "prev")
    assert "Ability" not in panel.state.screen.items  # before the serve: not his draw
    press(panel, "back")
    panel.table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    press(panel, "prev")
    Presses(panel).to("Ability")  # Bob & Cid to hit: Cy's Toots, not yet Bob's draw
    assert panel.state.screen.items == ("Cy (Toots)",)
    press(panel, "back", "back")
    panel.table.act({"type": "shot", "player": 1, "cards": ["R2"],
                     "support": {"player": 2, "cards": ["B0"]}})
    press(panel, "prev")
    Presses(panel).to("Ability")
    assert panel.state.screen.items == ("Bob (Josephias)", "Cy (Toots)")
    Presses(panel).to("Bob")
    assert events(panel)[-1] == {"type": "ability", "player": 1}


def test_the_supports_enchantment_binds_the_opponent_left_without_asking(memory_store):
    panel = start(memory_store, 4, ["rich", "austin", "toots", "laurie"])
    press(panel, "ok", "ok", "ok")  # Ann serves from the red corner
    Presses(panel).to("B3")
    Presses(panel).to("E2")
    Presses(panel).to("Go")
    Presses(panel).to("B0")
    Presses(panel).to("E3")
    Presses(panel).to("Go")
    assert panel.state.screen.title == "Ann's E2 binds"
    assert panel.state.screen.items == ("Cy (Toots)", "Di (Laurie)")
    Presses(panel).to("Cy")  # Bob's E3 can then only bind Di: no second question
    assert events(panel)[-1] == {"type": "serve", "player": 0, "corner": "red",
                                 "cards": ["B3", "E2"], "enchant": 2,
                                 "support": {"player": 1, "cards": ["B0", "E3"],
                                             "enchant": 3}}
