"""The hall's offer on the OLED: golden images, long names within the screen."""

from __future__ import annotations

import json
import random

import pytest

from companion.offers import Offers
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.controls import offer_lines
from companion.ui.oled import render
from tests.screens.test_golden import CTX, assert_golden, press
from tests.support import CATALOG


def offer_payload(players: list[str], *, game: str = "center-court", name: str = "Tuesday Swiss",
                  round_: int = 2, offer: str = "o-1", options: dict | None = None) -> bytes:
    return json.dumps({"offer": offer, "event": {"id": "e-1", "name": name, "round": round_,
                                                 "pairing": "p-17"},
                       "game": game, "options": options if options is not None else {"sets": 3},
                       "players": players, "sent_at": 1764050000}).encode()


LONG = ["Annabelle-Marie1", "Bartholomew-Jone"]  # 16 characters each: the longest names

SCENES = {
    "offer-idle": (offer_payload(["Ann", "Bob"]), None),
    "offer-long-names": (offer_payload(LONG, name="The Tuesday Night Swiss of the Club at "
                                                   "the Corner"), None),
    "offer-four-players": (offer_payload(["Annabelle-Marie1", "Bartholomew-Jone", "Cy",
                                          "Dorothea-Jasmine"], game="alakazoo", options={}),
                           None),
    "offer-doubles": (offer_payload(["Annabelle-Marie1", "Bartholomew-Jone", "Hal",
                                     "Zoë O'Neil"], game="alakaslam", options={
        "characters": ["austin", "laurie", "rich", "toots"]}), None),
    "offer-after-match": (offer_payload(["Ann", "Bob"], round_=3), "finished"),
    "offer-replaced": (offer_payload(["Ann", "Bob"]), "replaced"),
}


def frame(scene: str):
    payload, how = SCENES[scene]
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        offers = Offers(CATALOG)
        panel = Panel(table, CTX, offers=offers)
        if how == "finished":
            table.start({"game": "center-court", "players": ["Cy", "Di"],
                         "options": {"sets": 1}})
            for _ in range(24):
                table.act({"type": "point", "winner": 0})
        offers.receive(payload)
        panel.show_offer()
        if how == "replaced":
            offers.receive(offer_payload(["Cy", "Di"], offer="o-2"))
            panel.show_offer()
        return render(panel.state, panel.ctx)


@pytest.mark.parametrize("scene", SCENES)
def test_offer_screen_matches_its_golden_image(scene):
    assert_golden(frame(scene), scene)


def test_long_names_and_event_names_fit_the_screen_lines():
    players = ["Annabelle-Marie1", "Bartholomew-Jone"]
    lines = offer_lines(players, {"round": 12, "name": "x" * 60})
    assert all(len(line) <= 25 for line in lines)
    assert lines[:2] == ("Next: Annabelle-Marie1", "v Bartholomew-Jone")
    assert lines[-1].startswith("R12 · x") and lines[-1].endswith(".")
    assert offer_lines(["Ann", "Bob"], {"round": 2, "name": "Tuesday Swiss"}) == (
        "Next: Ann v Bob", "R2 · Tuesday Swiss")
    four = offer_lines(["Annabelle-Marie1", "Bartholomew-Jone", "Cy", "Dorothea-Jasmine"],
                       {"round": 1, "name": "Zoo"})
    assert all(len(line) <= 25 for line in four) and len(four) == 3
    # A doubles game by its sides, the teams' names shortened alike to fit.
    doubles = offer_lines(["Annabelle-Marie1", "Bartholomew-Jone", "Hal", "Zoë O'Neil"],
                          {"round": 1, "name": "Cup"}, (0, 0, 1, 1))
    assert all(len(line) <= 25 for line in doubles) and len(doubles) == 3
    assert doubles[0].startswith("Next: Anna") and " & " in doubles[0]
    assert doubles[1].startswith("v Hal & Zoë")
    assert offer_lines(["Ann", "Bob", "Hal", "Zoë"], {"round": 1, "name": "Cup"},
                       (0, 0, 1, 1))[0] == "Next: Ann&Bob v Hal&Zoë"


def test_the_offer_board_says_what_ok_does():
    with Store(":memory:") as store:
        offers = Offers(CATALOG)
        panel = Panel(Table(store, CATALOG, rng=random.Random(0)), CTX, offers=offers)
        offers.receive(offer_payload(["Ann", "Bob"]))
        panel.show_offer()
        keys = [panel.state.screen.label(b) for b in ("prev", "next", "ok", "back")]
        assert keys == ["Hist", "New", "Start", "Menu"]
        press(panel, "ok")
        assert panel.table.snapshot.match["event"]["offer"] == "o-1"
