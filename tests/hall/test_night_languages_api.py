"""The club night speaks the director's language (issue #40): each kind of refusal the
night makes, through the director's HTTP API, comes back in the request's language with
its placeholders filled (names in any script, tables, rounds, counts); an event's state
and "why this pairing" too, to a TV in one language and a phone in another; and what the
hall keeps (a pairing's why, a note from a table) is kept as a message, said in each
reader's language after a restart, while a hall.db from before keeps its English."""

from __future__ import annotations

import sqlite3

import pytest

from companion.i18n import LANGUAGES, N_, Text, _, translate
from hall.night import FILE, Night
from hall.run import director_banner
from tests.hall.night_support import PREFIX, DirectorClient, Outbox, finished, results_message
from tests.hall.test_director_api import Hall, play_round, swiss
from tests.support import CATALOG
from web.pins import Pin

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: Names in every script, the widest (16 capitals) among them.
NAMES = ["Łukasz", "Σοφία", "Ольга", "李小龙", "דוד", "MMMMMMMMMMMMMMMM"]


class Speaker:
    """The director in ``lang`` (the browser's Accept-Language) on ``hall``."""

    def __init__(self, hall: Hall, lang: str) -> None:
        client = hall.client()
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = f"{lang},en;q=0.5"
        self.director = DirectorClient(client)

    def error(self, method: str, path: str, body=None, eid: str | None = None
              ) -> tuple[int, str]:
        if method == "GET":
            answer = self.director.get(path)
        else:
            answer = self.director.post(path, body, eid=eid)
        assert answer.status_code >= 400, answer.get_json()
        return answer.status_code, answer.get_json()["error"]


@pytest.fixture
def hall(tmp_path):
    h = Hall(tmp_path)
    yield h
    h.close()


def refusals(hall: Hall) -> list[tuple[str, str, object, str | None, Text]]:
    """An event in each state a refusal needs, and every kind of the night's refusal as
    ``(method, path, body, event, the message it must be)``. Each refusal changes
    nothing, so each can be asked again in every language."""
    director = DirectorClient(hall.client())
    one = swiss(director, players=NAMES[:5], tables=("t1", "t2"), rounds=2)
    eid, name = one["id"], "Tuesday Swiss"
    state = director.post(f"/api/events/{eid}/rounds", {}, eid=eid).get_json()
    games = [p for p in state["pairings"] if not p["bye"]]
    bye = next(p for p in state["pairings"] if p["bye"])
    first, second = games
    play = f"/api/events/{eid}/pairings/{first['id']}"
    # The first game has a result (the table's); the second is played at t2.
    play_round(hall, {"tables": ["t1"]})
    robin = director.post("/api/events", {
        "name": "Ronde", "game": "center-court", "options": {"sets": 1},
        "format": "round-robin", "players": NAMES[:2], "tables": ["t5"]}).get_json()
    director.post(f"/api/events/{robin['id']}/rounds", {}, eid=robin["id"])
    empty = swiss(director, players=NAMES[:1], tables=("t7",), rounds=1, name="Solo")
    late = f"/api/events/{robin['id']}/players"
    new = {"name": "N", "game": "center-court", "options": {"sets": 1}, "format": "swiss",
           "rounds": 2}
    return [
        ("POST", "/api/events", {**new, "name": " "}, None,
         _("name is the event's name, 1-{most} characters", most=60)),
        ("POST", "/api/events", {**new, "game": "chess"}, None,
         _("game is one of {games}, not {game}", games=", ".join(CATALOG), game="'chess'")),
        ("POST", "/api/events", {**new, "format": "ladder"}, None,
         _("format is one of {formats}, not {format}",
           formats="swiss, round-robin, elimination", format="'ladder'")),
        ("POST", "/api/events", {**new, "rounds": 99}, None,
         _("rounds is the number of Swiss rounds, 1-{most}", most=30)),
        ("POST", "/api/events", {**new, "players": [NAMES[0], NAMES[0].upper()]}, None,
         _("{name} is checked in already", name=NAMES[0].upper())),
        ("POST", "/api/events", {**new, "tables": ["t1"]}, None,
         _("table {table} is in use by another event that has not finished", table="t1")),
        ("POST", "/api/events", [1], None, _("the body is a JSON object")),
        ("POST", f"/api/events/{eid}/rounds", {"version": "x"}, None,
         _("give the event's version you saw (\"version\": a whole number)")),
        ("POST", f"/api/events/{eid}/rounds", {"version": 1}, None,
         _("the event changed meanwhile (version {version}, not {given}): look again and "
           "redo the change", version=director.event(eid)["version"], given=1)),
        ("POST", f"/api/events/{eid}/rounds", {}, eid,
         _("the next round cannot start: {problem}", problem=N_(
             "round {round} has {n} game without a result",
             "round {round} has {n} games without a result", 1, round=1))),
        ("POST", f"/api/events/{empty['id']}/rounds", {}, empty["id"],
         _("the next round cannot start: {problem}",
           problem=_("check in two players at least"))),
        ("POST", late, {"players": ["Zoë"]}, robin["id"],
         _("a round robin or a knockout keeps the field it started with: only a Swiss takes "
           "late arrivals")),
        ("POST", f"/api/events/{eid}/drop", {"name": "Nobody"}, eid,
         _("{name} is not checked in", name="'Nobody'")),
        ("POST", f"/api/events/{eid}/drop", {"name": second["players"][0]}, eid,
         _("{name} is in a game of round {round}: enter its result first",
           name=second["players"][0], round=1)),
        ("POST", f"{play}/move", {"table": "t3"}, eid,
         _("{game} has its result: correct it instead", game=" v ".join(first["players"]))),
        ("POST", f"/api/events/{eid}/pairings/{second['id']}/move", {"table": "t2"}, eid,
         _("{game} is at {table} already", game=" v ".join(second["players"]),
           table="t2")),
        ("POST", f"/api/events/{eid}/pairings/{second['id']}/move", {"table": "t5"}, eid,
         _("{table} has a game of its own now: move that one first", table="t5")),
        ("POST", f"/api/events/{eid}/pairings/{second['id']}/move", {}, eid,
         _("give the table to move to (\"table\": its id, or null for a table without a "
           "companion)")),
        ("POST", f"/api/events/{eid}/pairings/{bye['id']}/result", {"ranks": [1]}, eid,
         _("{name}'s bye has no result to enter", name=bye["players"][0])),
        ("POST", f"{play}/result", {"ranks": [3, 3]}, eid,
         _("ranks gives each of {names} a place from 1, someone first (equal places: a "
           "draw)", names=", ".join(first["players"]))),
        ("POST", f"{play}/result", {"ranks": [2, 1]}, eid,
         _("{game} has a result: a correction needs a reason",
           game=" v ".join(first["players"]))),
        ("POST", f"{play}/result", {"ranks": [1, 2], "reason": "Tippfehler"}, eid,
         _("that is the result it has already")),
        ("POST", f"{play}/revision", {"choice": "apply"}, eid,
         _("no new result of {game} waits for a decision",
           game=" v ".join(first["players"]))),
        ("POST", f"/api/events/{eid}/pairings/r9-9/result", {"ranks": [1, 2]}, eid,
         _("no pairing {pairing} in {event}", pairing="'r9-9'", event=name)),
        ("GET", f"/api/events/{eid}/pairings/r9-9", None, None,
         _("no pairing {pairing} in {event}", pairing="'r9-9'", event=name)),
        ("GET", "/api/events/e-404", None, None, _("no event {event}", event="'e-404'")),
    ]


def test_every_refusal_of_the_night_is_said_in_the_request_language(hall):
    cases = refusals(hall)
    speakers = {lang: Speaker(hall, lang) for lang in LANGUAGES}
    for method, path, body, eid, expected in cases:
        status, english = speakers["en"].error(method, path, body, eid)
        assert english == expected, (path, body)  # the case names the message it makes
        for lang in OTHERS:
            again, said = speakers[lang].error(method, path, body, eid)
            assert again == status, (lang, path, body)
            assert said == translate(expected, lang), (lang, path, body)
            assert said != english, (lang, english)
            for _key, value in expected.params:  # every placeholder filled, names as given
                if isinstance(value, str) and not isinstance(value, Text) and value:
                    assert value in said, (lang, value, said)


def test_the_event_and_why_this_pairing_come_in_each_readers_language(hall, tmp_path):
    director = DirectorClient(hall.client())
    event = swiss(director, players=NAMES[:5], tables=("t1", "t2"), rounds=2)
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    offer = hall.outbox.offers()["t1"]
    play_round(hall, event)
    # The table plays its game again from the same offer: a note for the director.
    hall.night.results("t1", results_message("t1", [finished(offer, 0), finished(offer, 1, 2)]))
    english = director.event(eid)
    assert english["notes"] and english["pairings"][0]["why"]
    for lang in OTHERS:
        tv = Speaker(hall, lang).director
        state = tv.event(eid)
        for mine, theirs in zip(state["pairings"], english["pairings"], strict=True):
            assert mine["why"] != theirs["why"] and mine["players"] == theirs["players"]
            assert all(n in mine["why"] for n in mine["players"]), mine["why"]
            why = tv.get(f"/api/events/{eid}/pairings/{mine['id']}").get_json()["why"]
            assert why == mine["why"]
        assert [n["text"] for n in state["notes"]] != [n["text"] for n in english["notes"]]
        assert "t1" in state["notes"][0]["text"]
        # A change answers with the state in the request's language too.
        changed = tv.post(f"/api/events/{eid}/players", {"players": [f"Zoë {lang}"]},
                          eid=eid).get_json()
        assert changed["pairings"][0]["why"] == state["pairings"][0]["why"]
    # The English answer is not changed by the others (one body per language).
    again = director.event(eid)
    assert again["pairings"][0]["why"] == english["pairings"][0]["why"]


def test_what_the_hall_keeps_is_said_after_a_restart_and_old_english_stays(tmp_path):
    hall = Hall(tmp_path)
    director = DirectorClient(hall.client())
    event = swiss(director, players=NAMES[:4], tables=("t1", "t2"), rounds=2)
    eid = event["id"]
    director.post(f"/api/events/{eid}/rounds", {}, eid=eid)
    before = hall.night.state(eid)["pairings"][0]["why"]
    hall.close()
    # A pairing written by a hall before this one kept messages: its English words.
    db = sqlite3.connect(tmp_path / FILE)
    db.execute("UPDATE event_pairings SET why = ? WHERE id = 'r1-2'", ("Old words: kept",))
    db.commit()
    db.close()
    night = Night(tmp_path, PREFIX, Outbox(), catalog=CATALOG)
    try:
        state = night.state(eid)
        first, second = state["pairings"]
        assert first["why"] == before and isinstance(first["why"], Text)
        assert translate(first["why"], "pl") != first["why"]
        assert second["why"] == "Old words: kept" and translate(second["why"], "de") == (
            "Old words: kept")
    finally:
        night.close()


def test_the_director_pin_banner_is_said_in_the_halls_language():
    line = director_banner(Pin("482913", "new"))
    assert line is not None and line.startswith("  Director PIN: 482913 (new, kept")
    for lang in OTHERS:
        said = translate(line, lang)
        assert "482913" in said and "--director-pin" in said and said != line, said
        assert "kept for the next starts" not in said, said
