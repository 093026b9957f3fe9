"""Every API route, auth and CSRF rule, through Flask's test client."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import PIN, START, Host
from web.auth import Lockout


def test_state_without_a_match(client):
    response = client.get("/api/state")
    assert response.status_code == 200
    assert response.json == {"version": 0, "epoch": response.json["epoch"], "match": None}
    assert isinstance(response.json["epoch"], int) and 0 < response.json["epoch"] < 2**53


def test_a_host_starts_and_plays(client, host):
    started = host.post("/api/match", START)
    assert started.status_code == 200
    assert started.json["match"]["game"] == "center-court" and started.json["version"] == 1
    point = host.post("/api/action", {"type": "point", "winner": 1})
    assert point.status_code == 200 and point.json["match"]["view"]["points"] == ["0", "15"]
    assert client.get("/api/state").json == point.json
    assert host.post("/api/undo").json["match"]["view"]["points"] == ["0", "0"]
    assert host.post("/api/redo").json["match"]["view"]["points"] == ["0", "15"]
    ended = host.post("/api/match/end")
    assert ended.status_code == 200 and ended.json["match"] is None


@pytest.mark.parametrize(("path", "body"), [
    ("/api/match", START), ("/api/action", {"type": "point", "winner": 0}),
    ("/api/undo", None), ("/api/redo", None), ("/api/match/end", None), ("/api/logout", None),
])
def test_changes_need_the_session_and_the_csrf_header(client, path, body):
    before = client.get("/api/state").json
    assert client.post(path, json=body or {}).status_code == 403
    host = Host(client)
    assert client.post(path, json=body or {}).status_code == 403  # cookie but no header
    wrong = client.post(path, json=body or {}, headers={"X-CSRF-Token": "x" + host.csrf})
    assert wrong.status_code == 403 and "X-CSRF-Token" in wrong.json["error"]
    assert client.get("/api/state").json == before


def test_another_browser_without_the_cookie_is_refused(app, host):
    other = app.test_client()
    response = other.post("/api/undo", headers={"X-CSRF-Token": host.csrf})
    assert response.status_code == 403


def test_refusals_are_400_or_409_with_an_error(host):
    assert host.post("/api/action", {"type": "point", "winner": 0}).status_code == 409  # no match
    host.post("/api/match", START)
    cases = [
        ("/api/match", START, 409, "unfinished"),
        ("/api/action", {"type": "serve", "card": 9}, 400, "whole number 1-6"),
        ("/api/action", {"type": "return", "card": 3}, 409, "no ball is in play"),
        ("/api/action", [1, 2], 400, "JSON object"),
        ("/api/redo", None, 409, "nothing to redo"),
    ]
    for path, body, status, message in cases:
        response = host.post(path, body)
        assert response.status_code == status, (path, body, response.json)
        assert message in response.json["error"]


def test_a_body_that_is_not_json_is_400(host):
    response = host.client.post("/api/action", data="serve 3",
                                headers={"X-CSRF-Token": host.csrf,
                                         "Content-Type": "text/plain"})
    assert response.status_code == 400 and "must be JSON" in response.json["error"]


def test_a_start_of_an_unknown_game_is_404_and_a_game_that_is_no_id_400(host):
    """docs/api.md: a game the table does not have is not found (as a player a rename
    names); a ``game`` that is not even an id is a malformed body."""
    response = host.post("/api/match", {"game": "chess", "players": ["a", "b"]})
    assert response.status_code == 404 and "unknown game 'chess'" in response.json["error"]
    response = host.post("/api/match", {"game": ["chess"], "players": ["a", "b"]})
    assert response.status_code == 400 and "must be a game id" in response.json["error"]
    assert host.client.get("/api/state").json["match"] is None


@pytest.mark.parametrize("options", [[], [["sets", 5]], 0, "", False, "sets=5"])
def test_start_record_options_that_are_not_an_object_are_400(host, options):
    response = host.post("/api/match", {**START, "options": options})
    assert response.status_code == 400
    assert "'options' must be a JSON object of the game's options" in response.json["error"]
    assert host.client.get("/api/state").json["match"] is None


def test_login(client):
    assert client.get("/api/session").json == {"host": False, "csrf": None}
    assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    assert client.post("/api/login", json={"pin": 2468}).status_code == 401
    assert client.post("/api/login", data="x").status_code == 401
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/session").json == {"host": True, "csrf": response.json["csrf"]}


def test_logout_ends_the_session(client, host):
    assert host.post("/api/logout").status_code == 200
    assert client.get("/api/session").json["host"] is False
    assert host.post("/api/undo").status_code == 403


def test_lockout_after_five_wrong_pins_grows(client, clock):
    for _ in range(4):
        assert client.post("/api/login", json={"pin": "1111"}).status_code == 401
    fifth = client.post("/api/login", json={"pin": "1111"})
    assert fifth.status_code == 429 and fifth.headers["Retry-After"] == "30"
    # Locked: even the right PIN waits.
    assert client.post("/api/login", json={"pin": PIN}).status_code == 429
    clock.now += 31
    sixth = client.post("/api/login", json={"pin": "1111"})
    assert sixth.status_code == 429 and sixth.headers["Retry-After"] == "60"
    clock.now += 61
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    # A right PIN clears the count.
    assert client.post("/api/login", json={"pin": "1111"}).status_code == 401


def test_lockout_is_per_client(app, client):
    for _ in range(5):
        client.post("/api/login", json={"pin": "1111"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert client.post("/api/login", json={"pin": PIN},
                       environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 429
    assert client.post("/api/login", json={"pin": PIN},
                       environ_base={"REMOTE_ADDR": "10.0.0.10"}).status_code == 200


def test_many_addresses_share_one_budget_of_wrong_pins(app, client, clock):
    """Five free tries per address would let a guesser with a /24 (or IPv6) try
    thousands of PINs an hour; all addresses together get 30 per 10 minutes."""
    for n in range(30):  # 4 each: none of these addresses is locked on its own
        address = f"10.0.{n // 4}.{n % 4 + 1}"
        wrong = client.post("/api/login", json={"pin": "1111"},
                            environ_base={"REMOTE_ADDR": address})
        assert wrong.status_code == (401 if n < 29 else 429)
    # The table's budget is spent: every login waits, the right PIN from a new address too.
    newcomer = client.post("/api/login", json={"pin": PIN},
                           environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert newcomer.status_code == 429 and int(newcomer.headers["Retry-After"]) == 600
    clock.now += 601
    assert client.post("/api/login", json={"pin": PIN},
                       environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code == 200


def test_the_lockout_remembers_a_bounded_number_of_addresses(clock):
    lockout = Lockout(clock=clock, max_records=3, table_tries=1000)
    for n in range(10):
        for _ in range(5):
            lockout.failed(f"10.0.0.{n}")
    assert lockout.retry_after("10.0.0.9") > 0  # the newest are kept
    assert lockout.retry_after("10.0.0.0") == 0  # the oldest went


@pytest.mark.parametrize(("host_header", "allowed"), [
    ("localhost", True), ("localhost:8080", True), ("127.0.0.1:8080", True),
    ("192.168.1.23:8080", True), ("[::1]:8080", True), ("[fe80::1]", True),
    ("evil.example", False), ("evil.example:8080", False), ("localhost.evil.example", False),
    ("localhost" + " " * 300, False), ("1" * 1000, False),
])
def test_host_header_allowlist(client, host_header, allowed):
    response = client.get("/api/state", headers={"Host": host_header})
    assert (response.status_code == 200) == allowed
    if not allowed:
        assert response.status_code == 400 and "unknown host name" in response.json["error"]


def test_the_machines_own_names_are_allowed(client):
    import socket

    name = socket.gethostname()
    for host_header in (name, f"{name}.local:8080"):
        assert client.get("/api/state", headers={"Host": host_header}).status_code == 200


def test_history_and_export(client, host):
    host.post("/api/match", START)
    for _ in range(24):
        host.post("/api/action", {"type": "point", "winner": 0})
    history = client.get("/api/history").json
    assert history[0]["status"] == "finished" and history[0]["winner"] == 0
    assert history[0]["summary"] == "6-0"
    export = client.get(f"/api/matches/{history[0]['id']}/export")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    lines = export.get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["players"] == ["Ann", "Bob"] and len(lines) == 25
    assert client.get("/api/matches/99/export").status_code == 404


@pytest.mark.parametrize(("game", "players", "options", "teams"), [
    ("alakaslam", ["Ann", "Bea", "Cid", "Dan"],
     {"characters": ["austin", "rich", "toots", "simon"], "teams": [0, 1, 0, 1]},
     [[0, 2], [1, 3]]),
    ("alakaslam", ["Ann", "Bea", "Cid"], {"characters": ["austin", "rich", "toots"]},
     [[0], [1, 2]]),
    ("alakaslam", ["Ann", "Bea"], {"characters": ["austin", "rich"]}, [[0], [1]]),
    ("alakazoo", ["Ann", "Bea", "Cid"], {}, [[0], [1], [2]]),
    ("center-court", ["Ann", "Bea"], {}, [[0], [1]]),
])
def test_history_rows_carry_each_sides_players(client, host, game, players, options, teams):
    """``teams``: each side's player indexes as the game seats them (doubles by the
    ``teams`` option, Canadian one against two, everyone alone in Alakazoo), for an
    active match and an ended one alike, and in the command line's JSON shape."""
    answer = host.post("/api/match", {"game": game, "players": players, "options": options})
    assert answer.status_code == 200, answer.json
    assert client.get("/api/history").json[0]["teams"] == teams
    assert host.post("/api/match/end", {}).status_code == 200
    row = client.get("/api/history").json[0]
    assert row["status"] == "abandoned" and row["teams"] == teams


def test_a_history_row_from_a_start_its_game_cannot_read_has_every_player_alone(caplog):
    import random

    from companion.match import StartRecord
    from companion.teams import teams
    from tests.support import CATALOG

    # Characters the game does not know: its setup refuses; logged, each player alone.
    assert teams(CATALOG, "alakaslam", ["Ann", "Bea"], {"characters": ["nobody"]}) \
        == ((0,), (1,))
    assert "alakaslam's sides could not be read" in caplog.text
    assert teams(CATALOG, "no-such-game", ["Ann", "Bea", "Cid"], {}) == ((0,), (1,), (2,))
    # Kept by options (not names): the same four seated otherwise are other sides.
    for seated, sides in [([0, 0, 1, 1], ((0, 1), (2, 3))), ([1, 0, 0, 1], ((1, 2), (0, 3)))]:
        start = StartRecord.create({"game": "alakaslam", "players": ["Ann", "Bea", "Cid", "Dan"],
                                    "options": {"characters": ["austin", "rich", "toots", "simon"],
                                                "teams": seated}}, random.Random(1),
                                   CATALOG)
        assert teams(CATALOG, start.game, start.players, start.options) == sides


def test_games_lists_options_for_the_start_form(client):
    games = client.get("/api/games").json
    cc = next(g for g in games if g["id"] == "center-court")
    assert cc["seats"] == [2, 2]
    sets = next(o for o in cc["options"] if o["key"] == "sets")
    assert sets["default"] == 3 and [c["value"] for c in sets["choices"]] == [1, 3, 5]


def test_dodgeball_through_the_api(client, host):
    games = client.get("/api/games").json
    wd = next(g for g in games if g["id"] == "wizard-dodgeball")
    assert len(wd["extras"]["cards"]) == 10 and wd["extras"]["defaults"]["rosters"]
    bad = host.post("/api/match", {**WD_START, "options": {"rosters": [[1, 2, 3, 4, 5]] * 2}})
    assert bad.status_code == 400 and "#1 is in the rosters twice" in bad.json["error"]
    state = host.post("/api/match", WD_START).json
    assert state["match"]["view"]["active"] == {"side": 0, "jersey": 21}
    cast = host.post("/api/action", {"type": "cast", "caster": 21, "spell": "freeze",
                                     "targets": [45]})
    assert cast.status_code == 200
    assert cast.json["match"]["view"]["sides"][0]["spells"]["freeze"]["returns_after"] == 11
    again = host.post("/api/action", {"type": "cast", "caster": 21, "spell": "freeze",
                                      "targets": [30]})
    assert again.status_code == 409
    assert again.json["error"] == ("#21 has already cast this activation; left: throw "
                                   "(basic turn: move, throw and cast once each)")
    view = client.get("/api/state").json["match"]["view"]
    assert view["used"] == ["cast"] and view["open"] == ["throw"]
    assert view["actions_left"] == 1
    thrown = host.post("/api/action", {"type": "throw", "thrower": 21, "target": 30,
                                       "range": 1, "target_holding_ball": False})
    event = thrown.json["match"]["view"]["last"]
    assert thrown.status_code == 200 and len(event["throw"]) == 3
    assert client.get("/api/state").json == thrown.json


def test_alakazoo_refuses_an_impossible_game_through_the_api_and_applies_nothing(client,
                                                                                 host):
    """Each card once, the deck of a two-player game, three displays and one action a
    turn, no free rune: 409 with what is wrong, nothing applied, and ``legal`` offers only
    what the table takes."""
    assert host.post("/api/match", {"game": "alakazoo", "players": ["Ann", "Bob"]}).status_code \
        == 200

    def refused(action: dict, said: str) -> None:
        before = client.get("/api/state").json
        answer = host.post("/api/action", action)
        assert answer.status_code == 409 and said in answer.json["error"], answer.json
        assert client.get("/api/state").json == before  # nothing applied

    def ok(action: dict) -> dict:
        answer = host.post("/api/action", action)
        assert answer.status_code == 200, answer.json
        return answer.json["match"]

    refused({"type": "dark_power", "reason": "no_rune"}, "Ann has not rolled the Spell Dice")
    # Ann gathers 5 Magic Power (1, then three and one Magic Power symbols rolled).
    for rolled in (["Magic"] * 3, ["Magic"]):
        ok({"type": "roll", "faces": rolled})
        ok({"type": "end_turn"})
        ok({"type": "end_turn"})
    ok({"type": "roll", "faces": ["Magic", "Fire", "Water"]})
    ok({"type": "dark_power", "reason": "no_rune"})
    ok({"type": "dark_power", "reason": "no_rune"})
    refused({"type": "dark_power", "reason": "no_rune"}, "showed 2 runes and 2 have been")
    refused({"type": "column"}, "Ann has rolled the Spell Dice this turn: one action per turn")
    for space, creature in ((1, 2), (2, 5), (3, 6)):  # Kraken and Hydra fill the deck
        match = ok({"type": "display", "space": space, "creature": creature})
    assert not any(shape["type"] == "display" for shape in match["legal"])
    refused({"type": "display", "space": 4, "creature": 1}, "Ann has displayed 3 elements")
    match = ok({"type": "end_turn"})
    # Bob: Ann's Griffin for space 1 is on her portal; Unicorn and Phoenix are out.
    assert {"type": "display", "space": [1], "creature": [1, 5, 6]} in match["legal"]
    refused({"type": "display", "space": 1, "creature": 2},
            "the Griffin for space 1 is on Ann's portal and each card exists once")
    refused({"type": "display", "space": 4, "creature": 3},
            "no Unicorn card is in this game: a 2-player deck holds 4 creatures; the "
            "creatures in play: Dragon, Griffin, Kraken, Hydra")
    match = ok({"type": "helper", "trick": "column"})
    assert match["view"]["action"] == "helper" and match["view"]["stats"]["tricks"] == [0, 1]
    refused({"type": "helper", "trick": "hand"}, "Bob has used the Magic Helper this turn")
    # Every shape legal offers is taken as it is.
    for shape in match["legal"]:
        if shape["type"] == "display":
            ok({"type": "display", "space": shape["space"][0],
                "creature": shape["creature"][0]})
            break
    assert host.post("/api/undo").status_code == 200


def test_alakazoo_the_helper_leaves_two_displays_and_not_a_hand_trick_against_full_portals(
        client, host):
    """The Helper spends 1 of the 6 Magic Power tokens (2 per display): a third display
    after it is refused; in Bob's final turn, with Ann's portal complete, the Helper's hand
    trick is refused and not offered, and the refusals say what is allowed instead."""
    assert host.post("/api/match", {"game": "alakazoo", "players": ["Ann", "Bob"]}).status_code \
        == 200

    def refused(action: dict, said: str) -> None:
        before = client.get("/api/state").json
        answer = host.post("/api/action", action)
        assert answer.status_code == 409 and said in answer.json["error"], answer.json
        assert client.get("/api/state").json == before  # nothing applied

    def ok(*actions: dict) -> dict:
        for action in actions:
            answer = host.post("/api/action", action)
            assert answer.status_code == 200, answer.json
        return answer.json["match"]

    def show(creature: int, *spaces: int) -> list[dict]:
        return [{"type": "display", "space": s, "creature": creature} for s in spaces]

    end = {"type": "end_turn"}
    # Ann gathers the 6 Magic Power a player holds at most (1, then 3 and 2 rolled).
    ok({"type": "roll", "faces": ["Magic"] * 3}, end, end,
       {"type": "roll", "faces": ["Magic"] * 2}, end, end)
    match = ok({"type": "helper", "trick": "column"})
    assert match["view"]["max_displays"] == 2
    match = ok(*show(1, 2, 3))
    assert match["view"]["displays"] == 2
    assert not any(shape["type"] == "display" for shape in match["legal"])
    refused(show(1, 4)[0], "Ann has displayed 2 elements this turn: each display spends 2 "
                           "Magic Power and a player holds at most 6, of which the Magic "
                           "Helper spent 1 this turn, so 2 is the most in this turn")
    # Actions not recorded: each turn displays what 3 more tokens allow.
    match = ok(end, *show(2, 1, 2), end, *show(1, 1), end, *show(2, 3), end, *show(1, 4, 5),
               end, *show(2, 4), end, *show(1, 6), end, *show(2, 5, 6), end, *show(1, 7, 8),
               end, end, *show(1, 9), end)
    assert match["view"]["final_round"] and match["view"]["current"] == 1
    assert match["view"]["max_displays"] == 3
    assert {"type": "helper", "trick": ["column"]} in match["legal"]
    assert not any(s["type"] == "swap" and "player" in s for s in match["legal"])
    dark = next(s for s in match["legal"] if s["type"] == "dark_power")
    assert "helper" not in dark["reason"]
    for trick in ({"type": "helper", "trick": "hand"}, {"type": "dark_power", "reason": "helper"}):
        refused(trick, "no Magic Helper hand trick now: Ann's portal is complete, and in the "
                       "final round the Helper cannot be used against a player with all 9 "
                       "elements; instead Bob may use the Helper's column trick")
    refused({"type": "swap", "space": 1, "player": 0},
            "Ann's portal is complete: in the final round the Helper cannot be used against "
            "it; every other portal is complete: swap with a hand card")
    # What legal offers is taken: a swap for a hand card, and the column trick.
    assert ok({"type": "swap", "space": 1, "creature": 3})["view"]["max_displays"] == 2
    assert host.post("/api/undo").status_code == 200
    assert ok({"type": "helper", "trick": "column"})["view"]["action"] == "helper"


def test_errors_are_json(client, host):
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and "not found" in missing.json["error"]
    assert client.get("/api/action").status_code == 405
    big = host.client.post("/api/action", data="x" * 20_000,
                           headers={"X-CSRF-Token": host.csrf, "Content-Type": "application/json"})
    assert big.status_code == 413 and "error" in big.json


def test_pages_and_security_headers(client):
    for path in ("/", "/host", "/history"):
        response = client.get(path)
        assert response.status_code == 200 and response.mimetype == "text/html"
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get("/sim").status_code == 404  # only with --sim
    assert client.get("/api/sim/display.png").status_code == 404


def test_the_page_carries_the_state_and_cannot_be_broken_by_a_name(client, host):
    host.post("/api/match", {**START, "players": ["</script><b>", "Bob"]})
    html = client.get("/").get_data(as_text=True)
    block = html.split('<script id="state" type="application/json">')[1].split("</script>")[0]
    assert json.loads(block)["match"]["players"][0] == "</script><b>"


def test_no_debugger_in_the_app(app):
    assert app.debug is False and app.config["PROPAGATE_EXCEPTIONS"] is False


def read_events(response, count: int) -> list[bytes]:
    chunks = iter(response.response)
    return [next(chunks) for _ in range(count)]


def test_events_start_with_the_current_state(client, host):
    host.post("/api/match", START)
    response = client.get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    retry, first = read_events(response, 2)
    assert retry == b"retry: 2000\n\n"
    state = client.get("/api/state").json
    assert first == (f"id: {state['version']}\nevent: state\ndata: "
                     f"{json.dumps(state, separators=(',', ':'))}\n\n").encode()
    response.close()


def test_events_resume_with_last_event_id(client, host, app):
    host.post("/api/match", START)
    version = client.get("/api/state").json["version"]
    # Up to date: no state at once, only a keep-alive until something changes.
    same = client.get("/api/events", buffered=False, headers={"Last-Event-ID": str(version)})
    assert read_events(same, 2)[1] == b": keep-alive\n\n"
    same.close()
    # Behind: the current state at once.
    old = client.get("/api/events", buffered=False, headers={"Last-Event-ID": "0"})
    assert read_events(old, 2)[1].startswith(f"id: {version}\n".encode())
    old.close()
    assert app.extensions["companion.broker"].streams == 0


def test_events_to_a_client_ahead_of_the_table_start_with_the_state(client, host):
    """Its Last-Event-ID is from a database moved aside (or a rolled-back WAL): the
    version went back. It once got nothing, not even after later changes."""
    state = host.post("/api/match", START).json
    ahead = client.get("/api/events", buffered=False,
                       headers={"Last-Event-ID": str(state["version"] + 5)})
    assert read_events(ahead, 2)[1].startswith(f"id: {state['version']}\n".encode())
    ahead.close()


def test_events_at_the_same_version_of_another_database_start_with_the_state(client, host):
    state = host.post("/api/match", START).json
    version, epoch = state["version"], state["epoch"]
    other = client.get(f"/api/events?epoch={epoch + 1}", buffered=False,
                       headers={"Last-Event-ID": str(version)})
    first = read_events(other, 2)[1]
    assert first.startswith(f"id: {version}\n".encode()) and f'"epoch":{epoch}'.encode() in first
    other.close()
    same = client.get(f"/api/events?epoch={epoch}", buffered=False,
                      headers={"Last-Event-ID": str(version)})
    assert read_events(same, 2)[1] == b": keep-alive\n\n"  # nothing new for it
    same.close()


def test_a_stream_answered_without_its_body_gives_its_slot_back(client, app):
    """werkzeug answers HEAD without reading the body: the stream generator never
    started, so its slot was never freed, and a few HEADs locked every phone out."""
    for _ in range(5):
        with client.head("/api/events") as answer:  # closed, as a WSGI server does
            assert answer.status_code == 200
    assert app.extensions["companion.broker"].streams == 0
    assert client.get("/api/events", buffered=False).status_code == 200


def test_streams_past_the_limit_get_503(client, app):
    streams = [client.get("/api/events", buffered=False) for _ in range(3)]
    refused = client.get("/api/events")
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    for s in streams:
        read_events(s, 1)
        s.close()
    assert app.extensions["companion.broker"].streams == 0
    assert client.get("/api/events", buffered=False).status_code == 200


WD_START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]],
                        "wizards": {str(j): {"name": "A Rather Long Wizard Name",
                                             "throw": ["blue", "grey"]}
                                    for j in (21, 58, 12, 33, 7, 45, 30, 10, 41, 25)}}}


SLAM_START = {"game": "alakaslam", "players": ["Ann", "Bea", "Cy", "Di"],
              "options": {"characters": ["laurie", "rich", "wendolyn", "simon"]}}
ZOO_START = {"game": "alakazoo", "players": ["Annabelle", "Bartholomew", "Cleopatra", "Dimitri"]}
#: What a phone downloads for the spectator page of each game's match, at most
#: (uncompressed). 60 KB until the shared script took right-to-left isolation of names,
#: the generic board from the match's card and steady heights (issues #34 and #37):
#: AlakaSLAM's page, the heaviest, came to 60.1 KB; 61.9 KB before the languages (issue
#: #40): the picker and TC.t add 1.4 KB in English (63.3 KB), and a translated page its
#: scripts' words and longer words, 64.3 KB in German, French, Spanish and Polish alike
#: (tests/web/test_languages.py, measured). AlakaSLAM's own words (2.6 KB) came with its
#: scripts' translation; the host's controls' style and the shot preview's geometry went
#: to the host page's files (alakaslam-host.css, alakaslam-host.js): 60.8 KB in English,
#: 64.4 KB in each translation (measured). The undo notice's words per game came to
#: 65.2 KB; one maker of HTML and SVG elements (TC.el, TC.svg: the court's and the
#: timeline's own copies went) brought it back to 61.2 KB in English, 64.9 KB translated.
#: Reads asked again of a busy server (TC.read) came to 65.6 KB; the host scripts'
#: contract went to host.js: 61.1 KB in English, 64.9 KB translated (measured).
LIGHT = 65_000


def page_weight(client, path: str) -> tuple[int, list[bytes]]:
    """The bytes a browser downloads for ``path``: the page and what it loads (scripts,
    the stylesheet, the icon), those of the game on the table among them; not the
    pages its links lead to."""
    import re

    html = client.get(path).get_data()
    links = re.findall(rb'(?:src|href)="([^"]+)"', html)
    assert links and all(a.startswith(b"/") for a in links), links  # no CDN, no other host
    assets = re.findall(rb'<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    total = len(html)
    for asset in assets:
        with client.get(asset.decode()) as response:
            assert response.status_code == 200, asset
            total += len(response.get_data())
    return total, assets


@pytest.mark.parametrize("start", [START, WD_START, SLAM_START, ZOO_START],
                         ids=["center-court", "wizard-dodgeball", "alakaslam", "alakazoo"])
def test_the_spectator_page_is_light_and_needs_nothing_from_elsewhere(client, host, start):
    assert host.post("/api/match", start).status_code == 200
    total, assets = page_weight(client, "/")
    game = start["game"]
    scripts = {a.decode().rsplit("/", 1)[-1] for a in assets if a.endswith(b".js")}
    # The game's own script and the shared ones, no other game's.
    others = {f"{g}.js" for g in ("wizard-dodgeball", "alakaslam", "alakazoo") if g != game}
    assert not scripts & others, scripts
    assert game == "center-court" or f"{game}.js" in scripts, scripts
    print(f"{game}: the spectator page weighs {total} bytes")
    assert total <= LIGHT, f"the {game} spectator page weighs {total} bytes"


def test_a_change_made_on_a_state_the_table_has_left_is_refused(host, runner):
    """Two hands on one table: a phone's tap built on version N must not land on
    the state the panel (or another phone) made meanwhile."""
    shown = host.post("/api/match", START).json["version"]
    runner.call(lambda t: t.act({"type": "point", "winner": 1}))  # the panel, meanwhile
    stale = host.client.post("/api/action", json={"type": "point", "winner": 0},
                             headers={"X-CSRF-Token": host.csrf, "X-Table-Version": str(shown)})
    assert stale.status_code == 409 and "changed" in stale.json["error"]
    assert stale.json["stale"] is True  # the host page words it for people
    assert stale.json["version"] == runner.table.version  # the state it was refused on
    assert runner.table.snapshot.match["view"]["points"] == ["0", "15"]  # nothing applied
    now = runner.table.version
    fresh = host.client.post("/api/action", json={"type": "point", "winner": 0},
                             headers={"X-CSRF-Token": host.csrf, "X-Table-Version": str(now),
                                      "Idempotency-Key": "tap-1"})
    assert fresh.status_code == 200 and fresh.json["match"]["view"]["points"] == ["15", "15"]
    refused = host.client.post("/api/action", json={"type": "serve", "card": 9},
                               headers={"X-CSRF-Token": host.csrf,
                                        "X-Table-Version": str(now + 1)})
    assert refused.status_code in (400, 409) and "stale" not in refused.json  # the rules' own
    # Its retry names the version it was made on, now gone: it gets the first answer.
    again = host.client.post("/api/action", json={"type": "point", "winner": 0},
                             headers={"X-CSRF-Token": host.csrf, "X-Table-Version": str(now),
                                      "Idempotency-Key": "tap-1"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert runner.table.snapshot.match["view"]["points"] == ["15", "15"]


@pytest.mark.parametrize("value", ["x", "-1", "²", "9" * 30])
def test_a_malformed_table_version_is_400(host, value):
    response = host.client.post("/api/undo", json={}, headers={
        "X-CSRF-Token": host.csrf, "X-Table-Version": value})
    assert response.status_code == 400 and "X-Table-Version" in response.json["error"]


def test_timeline_of_the_current_match_and_of_a_stored_one(client, host):
    assert client.get("/api/timeline").status_code == 404
    assert "no match is on the table" in client.get("/api/timeline").json["error"]
    host.post("/api/match", START)
    for winner in (0, 0, 1):
        host.post("/api/action", {"type": "point", "winner": winner})
    current = client.get("/api/timeline")  # a spectator (no session) may read it
    assert current.status_code == 200 and current.mimetype == "application/json"
    chart = current.json
    assert chart["game"] == "center-court" and chart["events"] == 3
    assert chart["series"][0]["points"] == [[0, 0], [1, 1], [2, 2], [3, 1]]
    host.post("/api/undo")
    assert client.get("/api/timeline").json["series"][0]["points"][-1] == [2, 2]
    stored = client.get(f"/api/matches/{chart['id']}/timeline")
    assert stored.status_code == 200 and stored.json["events"] == 2
    host.post("/api/match/end")  # abandoned: no longer on the table, still in the history
    assert client.get("/api/timeline").status_code == 404
    assert client.get(f"/api/matches/{chart['id']}/timeline").json["events"] == 2


@pytest.mark.parametrize("path", ["/api/matches/99/timeline",
                                  f"/api/matches/{2**63 - 1}/timeline"])
def test_the_timeline_of_an_unknown_match_is_404_with_a_message(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.json == {"error": "there is no match "
                                                               + path.split("/")[3]}


@pytest.mark.parametrize("match_id", ["abc", "-1", "1.5", str(2**63), "%00", "１", "01x"])
def test_a_malformed_timeline_id_is_a_4xx(client, host, match_id):
    host.post("/api/match", START)
    assert client.get("/api/matches/1/timeline").status_code == 200  # the well-formed one
    for what in ("timeline", "export"):
        response = client.get(f"/api/matches/{match_id}/{what}")
        assert 400 <= response.status_code < 500 and "error" in response.json, what


def test_a_stored_match_is_replayed_once_however_often_phones_ask(client, host, monkeypatch):
    import web.reads

    replays = []
    real = web.reads.replay_stored
    monkeypatch.setattr(web.reads, "replay_stored",
                        lambda s, catalog: replays.append(s.id) or real(s, catalog))
    host.post("/api/match", START)
    host.post("/api/action", {"type": "point", "winner": 0})
    for _ in range(5):
        assert client.get("/api/matches/1").json["view"]["points"] == ["15", "0"]
        assert client.get("/api/matches/1/timeline").json["events"] == 1
    assert len(replays) == 2  # one for the board, one for the chart
    host.post("/api/action", {"type": "point", "winner": 0})  # a new log: replayed anew
    assert client.get("/api/matches/1").json["view"]["points"] == ["30", "0"]
    host.post("/api/match/end")  # the same log, another status
    assert client.get("/api/matches/1").json["status"] == "abandoned"
    assert len(replays) == 4


def test_the_timeline_answer_is_bounded_however_long_the_match(client, host):
    from companion.games.chart import MAX_POINTS

    host.post("/api/match", {**START, "options": {"sets": 5, "final_set": "advantage"}})
    # Two sets each way (24 points each), then a final set of games won in turn: 6-6,
    # 7-7, ... never decided, far past MAX_POINTS points.
    for winner in (0, 1, 0, 1):
        for _ in range(24):
            host.post("/api/action", {"type": "point", "winner": winner})
    for game in range(120):
        for _ in range(4):
            host.post("/api/action", {"type": "point", "winner": game % 2})
    chart = client.get("/api/timeline").json
    assert chart["events"] == 4 * 24 + 480 and chart["thinned"] is True
    line = chart["series"][0]["points"]
    assert len(line) == MAX_POINTS and line[-1][0] == 4 * 24 + 480
    assert len(client.get("/api/timeline").data) < 40_000


def test_rematch_is_the_last_match_with_device_decisions_made_again(client, host):
    """The host's New match form is filled from it: null before any match, then the last
    match's game, players and options, even once that match has ended without a result;
    the coin the device flipped is to be flipped again."""
    assert client.get("/api/rematch").json is None
    start = {"game": "center-court", "players": ["Ann", "Bob"],
             "options": {"sets": 1, "first_server": "coin"}}
    assert host.post("/api/match", start).status_code == 200
    assert host.post("/api/match/end").status_code == 200
    assert client.get("/api/state").json["match"] is None
    again = client.get("/api/rematch").json
    assert again["game"] == "center-court" and again["players"] == ["Ann", "Bob"]
    assert again["options"]["sets"] == 1 and again["options"]["first_server"] == "coin"
    assert "coin_flip" not in again["options"]


@pytest.mark.parametrize("path", ["/api/undo", "/api/redo", "/api/match/end"])
@pytest.mark.parametrize("body", [b"]]]][[[[", b"[" * 5000 + b"]" * 5000, b"9" * 5000,
                                  b"\xff\xfe"], ids=["garbage", "deep", "digits", "bytes"])
def test_a_change_that_takes_no_body_refuses_a_malformed_one(host, runner, path, body):
    """Undo, redo and End take nothing in their body, but a body that is not JSON is
    malformed as anywhere (docs/api.md): 400, and nothing is applied."""
    host.post("/api/match", START)
    host.post("/api/action", {"type": "point", "winner": 0})
    if path == "/api/redo":
        host.post("/api/undo")
    before = runner.table.version
    response = host.client.post(path, data=body, content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert response.status_code == 400 and "JSON" in response.json["error"]
    assert runner.table.version == before
    # None, or the pages' {}: applied.
    assert host.post(path).status_code == 200

