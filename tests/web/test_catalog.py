"""The catalog is the one list of games, and every game in it plays on every output.

A conformance test runs over the catalog: for each game, from a sample start
and after each first legal action, the panel builds, the OLED renders, the
card and the timeline answer, the serial STATE line is written and the host's
API serves what its controls are drawn from. A test-only game (tests/first_to/,
no panel, no OLED, no card, no page script) registered with one catalog line
plays end to end through the generic faces, and its stored match resumes.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from PIL import ImageChops

from app.config import Config
from app.runtime import Companion, WebOptions
from companion import kit as kits
from companion.errors import InvalidAction
from companion.headline import headline
from companion.inputs import Input
from companion.integrity import replay_stored
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.timeline import timeline
from companion.ui import canvas
from companion.ui.base import Binding, Outcome, Screen, ScreenSpec, by_match
from companion.ui.controls import (
    GENERIC_SCREENS,
    SCREENS,
    Context,
    Ui,
    build,
    default_draft,
    offers,
)
from companion.ui.oled import render
from drivers.serial_pad import state_lines
from tests import first_to
from tests.panel_support import press
from tests.support import CATALOG, with_first_to
from tests.web.conftest import PIN
from tests.web.sse import SseClient
from web.pages import STATIC

CTX = Context(CATALOG, names=("Ann", "Bob", "Cy", "Dee"), address="http://10.0.0.2:8080/")
FIRST_TO = {"game": "first-to", "players": ["Ann", "Bob"], "options": {"target": 3}}


def sample_start(game_id: str) -> dict:
    """A start record of ``game_id``: its fewest players and its defaults (as the
    panel's setup screen starts from)."""
    return default_draft(game_id, replace(CTX, catalog=GAMES)).record()


#: The four real games and the test-only one (in the catalog of the tests that ask).
IDS = [*CATALOG, first_to.GAME_ID]
GAMES = with_first_to()


def first_actions(game_id: str) -> list[dict]:
    """Every action the sample start's ``legal`` offers first, spelt out (bounded)."""
    with Store(":memory:") as store:
        table = Table(store, GAMES, rng=random.Random(1))
        table.start(sample_start(game_id))
        return offers(table.snapshot.match["legal"])[:12]


def conforms(table: Table, store: Store) -> None:
    """Every output answers for the table's match: the panel's board and menu build,
    the OLED draws something, the card names the players, the timeline charts the
    log, the serial STATE line carries the state; and what is stored resumes, every
    logged event resolving again to itself (as a restart checks it)."""
    snapshot = table.snapshot
    # StoreDamaged if an event does not resolve to itself:
    replay_stored(store.current(), table.catalog)
    match = snapshot.match
    ctx = replace(CTX, catalog=table.catalog)
    panel = Panel(table, ctx)
    board = build(Ui(), snapshot.to_json(), ctx)
    assert board.label("back") == "Menu"
    build(Ui(screen="menu"), snapshot.to_json(), ctx)
    frame = render(panel.state, ctx)
    assert frame.size == (canvas.WIDTH, canvas.HEIGHT) and frame.getbbox() is not None
    card = headline(snapshot.to_json(), table.catalog)
    assert card["game"] == match["game"] and card["title"] == GAMES.title(match["game"])
    assert card["sides"] and all(side["name"] for side in card["sides"])
    chart = timeline(table.match)
    assert chart["game"] == match["game"] and chart["events"] == len(table.match.events)
    assert chart["series"]
    word, version, body = state_lines(snapshot).split(b"\n")[0].split(b" ", 2)
    assert word == b"STATE" and int(version) == snapshot.version
    assert json.loads(body)["match"] == json.loads(snapshot.json_text)["match"]


@pytest.mark.usefixtures("first_to_game")
@pytest.mark.parametrize("game_id", IDS)
def test_every_game_conforms_from_its_sample_start_and_each_first_action(game_id):
    played = 0
    for action in first_actions(game_id):
        with Store(":memory:") as store:
            table = Table(store, GAMES, rng=random.Random(2))
            table.start(sample_start(game_id))
            conforms(table, store)
            try:
                table.act(action)
            except InvalidAction as err:
                # A shape's free fields (AlakaSLAM's cards) are not spelt out by legal:
                # the rules say what is missing, and nothing was applied.
                assert "missing field" in str(err) and not table.match.events
                continue
            played += 1
            conforms(table, store)
    assert played, f"{game_id}: none of its first legal offers could be played"


@pytest.mark.usefixtures("first_to_game")
@pytest.mark.parametrize("game_id", IDS)
def test_every_game_is_served_to_the_host_page(client, host, game_id):
    """What the host page draws a game's controls from: its start form's entry, the
    state's legal offers, the page with the game's scripts (if it has any)."""
    form = {g["id"]: g for g in client.get("/api/games").json}[game_id]
    game = GAMES.game(game_id)
    assert form["title"] == game.title and form["seats"] == list(game.seats)
    started = host.post("/api/match", sample_start(game_id))
    assert started.status_code == 200, started.json
    assert started.json["match"]["legal"]
    page = client.get("/host")
    assert page.status_code == 200
    scripts = [f"/static/{game_id}{part}.js" for part in ("", "-host")
               if (STATIC / f"{game_id}{part}.js").exists()]
    assert all(script in page.text for script in scripts)


def test_no_game_s_screen_takes_the_name_of_one_of_the_panel_s_own():
    for kit in GAMES.kits.values():
        for name in kit.screen_names:
            assert name not in SCREENS, f"{kit.id}'s screen {name!r} is the panel's own"
    assert sum(len(kit.screen_names) for kit in GAMES.kits.values()) > 20  # read them


def test_a_kit_that_names_a_screen_as_the_panel_s_own_is_refused():
    with pytest.raises(ValueError, match="first-to: screen 'menu' is one of the panel's own"):
        kits.Kit(first_to.GAME, kits.Panel(board=lambda ui, match: {},
                                           screens={"menu": GENERIC_SCREENS["play"]}))
    with pytest.raises(ValueError, match="a game 'alakazoo' is already in the catalog"):
        CATALOG.plus(CATALOG.kits["alakazoo"])
    assert first_to.GAME_ID not in CATALOG


def test_two_games_may_name_a_screen_alike_each_opens_its_own():
    """Screen names are a game's own: the panel looks a screen up in the kit of the game
    it is about, so First to N may have a "wd-cards" screen of its own beside Wizard
    Dodgeball's, and each match opens its game's (a phone starting the other game's
    match closes it)."""
    def cards(ui, match, ctx):
        return Screen(keys={Input("back"): Binding("Back", Outcome(Ui()))}, title="Mine")

    own = kits.Kit(first_to.GAME, kits.Panel(
        board=lambda ui, match: {Input("prev"): Binding("Cards", Outcome(Ui(screen="wd-cards")))},
        screens={"wd-cards": ScreenSpec(cards, premise=by_match)}))
    games = CATALOG.plus(own)  # no clash: each kit keeps its names
    with Store(":memory:") as store:
        table = Table(store, games, rng=random.Random(5))
        panel = Panel(table, replace(CTX, catalog=games))
        table.start(FIRST_TO)
        press(panel, "prev")
        assert panel.state.ui.screen == "wd-cards" and panel.state.screen.title == "Mine"
        assert render(panel.state, panel.ctx).getbbox() is not None
        table.abandon()
        table.start({"game": "wizard-dodgeball", "players": ["Owls", "Newts"], "options": {
            "rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}})
        assert panel.state.ui.screen == "board"  # the other game's match closed it
        press(panel, "ok", "prev")  # past the notice, then Wizard Dodgeball's own
        assert panel.state.ui.screen == "wd-cards" and panel.state.screen.title != "Mine"


def test_without_registration_the_test_game_is_unknown(host):
    """The test game exists only through its catalog line."""
    response = host.post("/api/match", FIRST_TO)
    assert response.status_code == 404 and "unknown game 'first-to'" in response.json["error"]


# --- the test-only game end to end ------------------------------------------------------


@pytest.mark.usefixtures("first_to_game")
def test_the_test_game_is_set_up_and_played_on_the_buttons_and_the_oled():
    with Store(":memory:") as store:
        panel = Panel(Table(store, GAMES, rng=random.Random(3)), replace(CTX, catalog=GAMES))
        press(panel, "ok")  # New: the setup screen, its first row the game
        while not panel.state.screen.items[0].endswith("First to N"):
            press(panel, "ok")
        assert panel.state.screen.items[-2] == "Target: 3 points"
        press(panel, "prev", "ok")  # up to Start
        match = panel.table.snapshot.match
        assert match["game"] == "first-to" and match["players"] == ["Ann", "Bob"]
        empty = render(panel.state, CTX)
        assert panel.state.screen.label("ok") == "Play"
        press(panel, "ok")  # the generic list of what legal offers
        assert panel.state.ui.screen == "play"
        assert panel.state.screen.items == ("Point Ann", "Point Bob")
        assert render(panel.state, CTX).getbbox() is not None
        press(panel, "next", "ok")
        assert panel.table.snapshot.match["view"]["scores"] == [0, 1]
        assert panel.state.ui.screen == "board"
        scored = render(panel.state, CTX)
        assert ImageChops.difference(empty, scored).getbbox() is not None
        for _ in range(3):
            press(panel, "ok", "ok")  # Play, the first seat's point
        match = panel.table.snapshot.match
        assert match["status"] == "finished" and match["view"]["winner"] == 0
        assert panel.state.screen.label("ok") == "Again"
        press(panel, "back!")  # undo, as everywhere
        assert panel.table.snapshot.match["view"]["scores"] == [2, 1]


@pytest.mark.usefixtures("first_to_game")
def test_the_test_game_on_the_phones_the_hall_card_and_the_history(client, host):
    assert "first-to" in [g["id"] for g in client.get("/api/games").json]
    started = host.post("/api/match", FIRST_TO)
    assert started.status_code == 200, started.json
    # What the host page's generic controls are drawn from: one row per shape.
    assert started.json["match"]["legal"] == [{"type": "point", "seat": [0, 1]}]
    for page in ("/", "/host", "/history"):
        assert client.get(page).status_code == 200
    for seat in (1, 1, 0, 1):
        assert host.post("/api/action", {"type": "point", "seat": seat}).status_code == 200
    state = client.get("/api/state").json
    assert state["match"]["status"] == "finished"
    card = headline(state, GAMES)
    assert card["title"] == "First to N" and card["players"] == "Ann v Bob"
    assert card["score"] == "1-3" and card["winner"] == "Bob"
    assert [s["score"] for s in card["sides"]] == [["1"], ["3"]]
    [line] = client.get("/api/history").json
    assert (line["game"], line["winner"], line["summary"]) == ("first-to", 1, "1-3")
    chart = client.get("/api/timeline").json
    assert [s["name"] for s in chart["series"]] == ["Ann", "Bob"]
    assert chart["marks"][0]["label"] == "Bob wins"
    stored = client.get(f"/api/matches/{state['match']['id']}").json
    assert stored["view"]["scores"] == [1, 3]


@pytest.mark.usefixtures("first_to_game")
def test_the_test_game_streams_to_the_phones(server, host):
    stream = SseClient("127.0.0.1", server.port)
    try:
        assert stream.status == 200
        stream.next_event()  # the state as it is
        assert host.post("/api/match", FIRST_TO).status_code == 200
        assert host.post("/api/action", {"type": "point", "seat": 0}).status_code == 200
        for _ in range(5):
            sent = stream.next_event().json()
            if sent["match"] and sent["match"]["view"]["scores"] == [1, 0]:
                break
        else:
            pytest.fail("the point never reached the stream")
    finally:
        stream.conn.close()


@pytest.mark.usefixtures("first_to_game")
def test_a_stored_match_of_a_game_without_a_panel_resumes(tmp_path):
    """The companion starts over a stored match of a game that brings no panel, no OLED
    and no card: the board is the generic one and the buttons play it on."""
    with Store(tmp_path / "companion.db") as store:
        table = Table(store, GAMES, rng=random.Random(4))
        table.start(FIRST_TO)
        table.act({"type": "point", "seat": 1})
    web = WebOptions(host="127.0.0.1", port=0, pin=PIN, keepalive=1.0)
    with Companion(Config(), sim=True, data=tmp_path, web=web, catalog=GAMES) as companion:
        resumed = companion.runner.call(lambda t: t.snapshot.match)
        assert resumed["game"] == "first-to" and resumed["view"]["scores"] == [0, 1]
        assert companion.display_png()  # the OLED drew the generic board
        companion.press("ok").result(timeout=10)  # Play
        companion.press("ok").result(timeout=10)  # the first seat's point
        after = companion.runner.call(lambda t: t.snapshot.match)
        assert after["view"]["scores"] == [1, 1]
