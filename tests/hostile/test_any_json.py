"""Any JSON value in any field, at any depth: a 4xx naming the field, never a 5xx, never a
traceback (docs/api.md, "HTTP API"; issue #34).

Every field of every start (each game of the catalog, at each number of seats, each
option and each of its choices, the start records the docs play), every field of
every action type (on a table played to a state where the rules offer that action,
so the field's check is reached), every field of the hall's event bodies, every
field of a hall's offer, and every field of the other host requests (login, players
renamed and merged) and of a match file's lines (``companion import``) is given an
arbitrary JSON value: lists and objects at every depth, huge numbers, ``1e308`` and
``-0.0``, booleans where numbers belong, null, text holding lone surrogates (sent as
JSON's ``\\ud800`` escapes). The games, their options and their actions are read from
the catalog, each game's ``legal`` and the docs' match files: a new game is covered
without a word here.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import matchfile
from companion.errors import IllegalAction, InvalidAction, MatchFileError
from companion.match import EVENT_FIELDS, Match, StartRecord
from companion.offers import Offers, parse_offer
from companion.ui.base import Draft
from companion.ui.controls import offers
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.director_api import Director
from hall.lineups import SEATS
from hall.night import Night
from tests.hall.night_support import PIN as DIRECTOR_PIN
from tests.hall.night_support import PREFIX, DirectorClient, Outbox
from tests.support import CATALOG
from tests.test_docs import ALL as DOC_BLOCKS
from tests.web.conftest import PIN
from web.auth import Lockout, Sessions

NAMES = ("Ann", "Bob", "Cy", "Dee")
EVENT = {"id": "e-1", "name": "Tuesday Swiss", "round": 1, "pairing": "p-1", "offer": "o-1"}
assert set(EVENT) == set(EVENT_FIELDS)

# --- any JSON -----------------------------------------------------------------------------

#: Text of every kind: lone surrogates too (category Cs, which hypothesis leaves out unless
#: asked), and a strategy made mostly of them.
TEXT = st.text(st.characters(exclude_categories=()), max_size=10) \
    | st.text(st.characters(categories=["Cs"]) | st.sampled_from("aé李😀"), max_size=4)
#: Numbers at and past every bound a field could have: huge ints (JSON has no limit;
#: Python reads 4,300 digits), the largest floats, -0.0.
NUMBERS = st.integers() | st.integers(-10**1000, 10**1000) \
    | st.sampled_from([0, 1, -1, 2, 3, 9, 10, 99, 100, 2**31, 2**63, -2**63, 2**64, 10**400,
                       1e308, -1e308, 5e-324, -0.0, 0.5, 1.0]) \
    | st.floats(allow_nan=False, allow_infinity=False)
SCALARS = st.none() | st.booleans() | NUMBERS | TEXT
ANY = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                   | st.dictionaries(TEXT, inner, max_size=4), max_leaves=10)

Path = tuple[Any, ...]


def paths(value: Any, at: Path = ()) -> Iterator[Path]:
    """Every place in ``value``: itself, and each item and member at every depth."""
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*at, i))


def keys_of(value: Any) -> set[str]:
    """Every object key in ``value``, at every depth."""
    found: set[str] = set()
    for at in paths(value):
        found.update(k for k in at if isinstance(k, str))
    return found


def put(value: Any, at: Path, new: Any, *, insert: bool = False) -> Any:
    """A copy of ``value`` with ``new`` at ``at`` (inserted before it in a list)."""
    if not at:
        return new
    out = copy.deepcopy(value)
    node = out
    for key in at[:-1]:
        node = node[key]
    if insert and isinstance(node, list):
        node.insert(at[-1], new)
    else:
        node[at[-1]] = new
    return out


def mutated(data: st.DataObject, base: Any, keys: list[str]) -> Any:
    """``base`` with one place given any JSON value: an existing one replaced, a member
    added to an object (a field the readers know, or any key) or an item put in a list."""
    at = data.draw(st.sampled_from(list(paths(base))), label="at")
    node = base
    for key in at:
        node = node[key]
    value = data.draw(ANY, label="value")
    how = data.draw(st.sampled_from(["replace", "add"]), label="how")
    if how == "add" and isinstance(node, dict):
        key = data.draw(st.sampled_from(keys) | TEXT if keys else TEXT, label="key")
        return put(base, (*at, key), value)
    if how == "add" and isinstance(node, list):
        return put(base, (*at, data.draw(st.integers(0, len(node)))), value, insert=True)
    return put(base, at, value)


# --- what the catalog and the docs say a start and an action are ---------------------------


def doc_matches() -> list[list[dict[str, Any]]]:
    """Every match file of the docs (a start record, then its actions)."""
    found = []
    for block in DOC_BLOCKS:
        if block.tag == "jsonl":
            lines = [json.loads(line) for line in block.text.splitlines() if line.strip()]
            if lines and lines[0].get("game") in CATALOG.games:
                found.append(lines)
    return found


def sample_starts(game_id: str) -> list[dict[str, Any]]:
    """Start records of ``game_id`` that start: each number of seats with the defaults
    (fitted by its panel, as its setup screen starts them), each choice of each option,
    the docs' own; each as sent and as prepared (every option the game fills in), and with
    a hall's event."""
    game, kit = CATALOG.games[game_id], CATALOG.kit(game_id)
    fit = kit.panel.fit_draft if kit and kit.panel and kit.panel.fit_draft else None
    defaults = {**{s.key: s.default for s in game.options}, **game.extras.get("defaults", {})}
    drafts = [Draft(game_id, NAMES[:n], tuple(defaults.items()))
              for n in range(game.seats[0], game.seats[1] + 1)]
    drafts += [replace(drafts[0], options=tuple({**defaults, spec.key: value}.items()))
               for spec in game.options for value in spec.values]
    records = [(fit(d) if fit else d).record() for d in drafts]
    records += [m[0] for m in doc_matches() if m[0]["game"] == game_id]
    starts = []
    for record in records:
        try:
            prepared = StartRecord.create(record, random.Random(0), CATALOG).to_json()
        except InvalidAction:
            continue  # a choice the fewest seats cannot take (a fourth player first)
        starts += [record, prepared, {**prepared, "event": dict(EVENT)}]
    assert starts, f"{game_id}: no sample start starts"
    return starts


GAME_IDS = list(CATALOG.games)
STARTS = {g: sample_starts(g) for g in GAME_IDS}
SCRIPTS = {g: [m[1:] for m in doc_matches() if m[0]["game"] == g] for g in GAME_IDS}


def known_fields(game_id: str) -> list[str]:
    """The fields the game's records and actions are known to have (what "add" draws
    first): its starts' keys at every depth, the fields its ``legal`` shapes offer from
    each sample start, and its docs' actions' keys."""
    game, found = CATALOG.games[game_id], set()
    for start in STARTS[game_id]:
        found |= keys_of(start)
        match = Match(StartRecord.create(start, random.Random(0), CATALOG), CATALOG)
        for shape in game.legal(match.state):
            found |= set(shape)
    for script in SCRIPTS[game_id]:
        found |= keys_of(script)
    return sorted(found)


FIELDS = {g: known_fields(g) for g in GAME_IDS}



def fuzz(examples: int) -> settings:
    """``examples`` drawn, however slow (a busy machine), on fixtures shared by them."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def refusal(response, what: Any) -> None:
    """A 4xx with an error saying why, or a 200; never a 5xx."""
    assert response.status_code < 500, (what, response.status_code, response.get_data()[:400])
    if response.status_code >= 400:
        assert response.get_json()["error"], (what, response.get_data())


def end_any_match(host) -> None:
    answer = host.post("/api/match/end")
    assert answer.status_code in (200, 409), answer.get_json()


# --- the table's starts and actions -----------------------------------------------------


@pytest.mark.parametrize(("options", "says"), [
    ({"characters": [[], "wendolyn"]}, "option 'characters': Ann's character (player 0) "
                                       "must be one of: austin"),
    ({"characters": [{"a": 1}, "wendolyn"]}, "option 'characters': Ann's character"),
    ({"characters": ["wendolyn", ["austin"]]}, "option 'characters': Bob's character"),
], ids=["list", "object", "nested"])
def test_a_list_or_object_inside_the_characters_is_400_naming_them(host, options, says):
    """The 500 of issue #34 (``TypeError: unhashable type``), as fuzzed."""
    body = {"game": "alakaslam", "players": ["Ann", "Bob"], "options": options}
    answer = host.post("/api/match", body)
    assert answer.status_code == 400 and says in answer.get_json()["error"]
    assert host.client.get("/api/state").get_json()["match"] is None


def test_a_list_inside_bought_spells_is_400_naming_the_spell(host):
    body = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"], "options": {
        "rosters": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], "spells": [[["freeze"]], ["dispel"]]}}
    answer = host.post("/api/match", body)
    assert answer.status_code == 400
    assert "option 'spells': unknown spell" in answer.get_json()["error"]


@fuzz(150)
@given(data=st.data())
def test_any_json_in_any_field_of_a_start_is_refused_by_name(host, data):
    end_any_match(host)
    game = data.draw(st.sampled_from(GAME_IDS), label="game")
    base = data.draw(st.sampled_from(STARTS[game]), label="start")
    body = mutated(data, base, FIELDS[game])
    answer = host.post("/api/match", body)
    refusal(answer, body)
    assert answer.status_code in (200, 400, 404), (body, answer.get_json())


@fuzz(40)
@given(data=st.data())
def test_any_json_in_any_field_of_any_action_at_a_state_that_offers_it(host, data):
    """A match played step by step (the rules' offers, or a match file of the docs); before
    each step, that step's action (as offered, or as resolved: dice and defaults filled
    in) with one field given any value. Accepted, it is undone; the step is then played."""
    end_any_match(host)
    game_id = data.draw(st.sampled_from(GAME_IDS), label="game")
    game = CATALOG.games[game_id]
    start = data.draw(st.sampled_from([s for s in STARTS[game_id] if "event" not in s]),
                      label="start")
    script = data.draw(st.sampled_from([None, *SCRIPTS[game_id]]), label="script")
    if script is not None:
        start = StartRecord.create(doc_matches()[[m[1:] for m in doc_matches()].index(
            script)][0], random.Random(0), CATALOG).to_json()
    replica = Match(StartRecord.create(start, random.Random(0), CATALOG), CATALOG)
    started = host.post("/api/match", replica.start.to_json())
    assert started.status_code == 200, started.get_json()
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for step in range(data.draw(st.integers(1, 30), label="steps")):
        if script is not None:
            if step >= len(script):
                break
            action = script[step]
        else:
            offered = offers(game.legal(replica.state))
            if not offered:
                break
            action = data.draw(st.sampled_from(offered), label="offered")
        try:
            event, state = replica.resolve(action, rng)
        except (InvalidAction, IllegalAction):
            break  # a refusal the docs tell of: the match file goes no further
        body = mutated(data, data.draw(st.sampled_from([action, event]), label="base"),
                       FIELDS[game_id])
        answer = host.post("/api/action", body)
        refusal(answer, body)
        assert answer.status_code in (200, 400, 409), (body, answer.get_json())
        if answer.status_code == 200:
            assert host.post("/api/undo").status_code == 200
        played = host.post("/api/action", event)
        assert played.status_code == 200, (event, played.get_json())
        replica.push(event, state)


def test_every_action_type_of_every_game_is_reached():
    """The walks above reach every action type the rules offer (a new game's too): each
    type ``legal`` offers in a random match of each sample start, or a docs' match plays."""
    for game_id in GAME_IDS:
        game, reached = CATALOG.games[game_id], set()
        for start in STARTS[game_id]:
            match = Match(StartRecord.create(start, random.Random(0), CATALOG), CATALOG)
            rng = random.Random(1)
            for _ in range(120):
                offered = offers(game.legal(match.state))
                reached.update(a["type"] for a in offered)
                if not offered:
                    break
                with contextlib.suppress(InvalidAction, IllegalAction):
                    match.push(*match.resolve(rng.choice(offered), rng))
        reached.update(a["type"] for script in SCRIPTS[game_id] for a in script)
        assert reached, game_id
        assert len(reached) >= 2, (game_id, reached)


@fuzz(60)
@given(data=st.data())
def test_any_json_in_the_other_host_requests_is_refused(host, data):
    """Login (a wrong PIN is counted: a fresh lockout each time), rename and merge."""
    route, base = data.draw(st.sampled_from([
        ("/api/players/rename", {"name": "Ann", "to": "Annie"}),
        ("/api/players/merge", {"name": "Ann", "into": "Bob"}),
        ("/api/login", {"pin": PIN}), ("/api/login", {"code": "123456"}),
        ("/api/offer/start", {"offer": "o-1"}),
    ]), label="route")
    body = mutated(data, base, ["name", "to", "into", "pin", "code", "offer"])
    host.client.application.extensions["companion"].lockout = Lockout()
    answer = host.post(route, body)
    refusal(answer, body)


# --- a match file (companion import, replay) ------------------------------------------------


@fuzz(150)
@given(data=st.data())
def test_any_json_in_a_match_file_is_a_line_and_a_reason(data):
    lines = data.draw(st.sampled_from(doc_matches()), label="file")
    game_id = lines[0]["game"]
    n = data.draw(st.integers(0, len(lines) - 1), label="line")
    lines = [*lines[:n], mutated(data, lines[n], FIELDS[game_id]), *lines[n + 1:]]
    try:
        matchfile.read([json.dumps(line) for line in lines], random.Random(0), CATALOG)
    except MatchFileError as err:
        assert err.line >= 1 and err.reason


# --- the hall's offers ------------------------------------------------------------------------


def offer_of(start: dict[str, Any]) -> dict[str, Any]:
    return {"offer": "o-1", "event": {k: v for k, v in EVENT.items() if k != "offer"},
            "game": start["game"], "players": start["players"],
            "options": start.get("options", {}), "sent_at": 1764050000}


OFFERS = [offer_of(s) for g in GAME_IDS for s in STARTS[g] if "event" not in s]


def test_an_offer_with_a_list_inside_its_characters_is_one_warning(caplog):
    """The traceback of issue #34: the table reading such an offer logs one clear line."""
    offer = offer_of({"game": "alakaslam", "players": ["Ann", "Bob"],
                      "options": {"characters": [[], "wendolyn"]}})
    kept = Offers(CATALOG)
    with caplog.at_level(logging.INFO, logger="companion.offers"):
        kept.receive(json.dumps(offer).encode())
    assert [(r.levelname, r.exc_info) for r in caplog.records] == [("WARNING", None)]
    assert "option 'characters': Ann's character (player 0) must be one of" in caplog.text
    assert kept.current is None and "option 'characters'" in kept.problem


@pytest.mark.parametrize("sent_at", [10**400, -1, 1e308, [1764050000], {"at": 1}])
def test_an_offer_sent_at_no_clock_says_is_refused_by_name(sent_at):
    """A 400-digit ``sent_at`` overflowed the float it was checked as (a traceback)."""
    offer = {**offer_of(STARTS["center-court"][0]), "sent_at": sent_at}
    with pytest.raises(InvalidAction, match="the offer's 'sent_at' must be a Unix time"):
        parse_offer(json.dumps(offer).encode(), CATALOG)


@fuzz(300)
@given(data=st.data())
def test_any_json_in_any_field_of_an_offer_is_one_line_never_a_traceback(data, caplog):
    base = data.draw(st.sampled_from(OFFERS), label="offer")
    offer = mutated(data, base, sorted(keys_of(base) | set(EVENT_FIELDS)
                                       | set(FIELDS[base["game"]])))
    payload = json.dumps(offer).encode()
    try:
        parse_offer(payload, CATALOG)
        usable = True
    except InvalidAction as err:
        usable = False
        assert str(err)
    offers_kept = Offers(CATALOG)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion.offers"):
        offers_kept.receive(payload)
        offers_kept.receive(payload)   # said once, not once per message
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == (0 if usable else 1), caplog.text
    assert (offers_kept.current is not None) == usable
    assert (offers_kept.problem is None) == usable
    # And the table goes on: the next good offer is taken.
    offers_kept.receive(json.dumps(OFFERS[0]).encode())
    assert offers_kept.current is not None and offers_kept.problem is None


# --- the hall's events ----------------------------------------------------------------------


class HallApp:
    """A hall's app over a night in ``folder`` (the director's API), and a logged-in
    director."""

    def __init__(self, folder) -> None:
        self.night = Night(folder, PREFIX, Outbox(), catalog=CATALOG)
        self.broker = hall_broker(Board(PREFIX).first, 4, 1.0, 2)
        self.app = create_hall_app(Board(PREFIX), self.broker, night=self.night,
                                   director=Director(DIRECTOR_PIN, Sessions(DIRECTOR_PIN)),
                                   secret_key=b"k" * 32)
        self.director = DirectorClient(self.app.test_client())

    def close(self) -> None:
        self.broker.close()
        self.night.close()


@pytest.fixture
def hall(tmp_path):
    h = HallApp(tmp_path)
    yield h
    h.close()


def event_bodies() -> list[dict[str, Any]]:
    """A body that creates an event, for each game and each lineup its kit allows, with
    options of that game as a start takes them, and players as names or as objects."""
    bodies = []
    for game_id in GAME_IDS:
        kit = CATALOG.kit(game_id)
        for lineup in kit.lineups.allowed if kit else ("singles",):
            seats = max(SEATS[lineup])
            options = next((s.get("options", {}) for s in STARTS[game_id]
                            if len(s["players"]) == seats and "event" not in s), None)
            if options is None:
                continue
            bodies.append({"name": "Tuesday", "game": game_id, "options": options,
                           "format": "swiss", "rounds": 3, "lineup": lineup,
                           "players": ["Ann", {"name": "Bob", "start_points": 1}, "Cy",
                                       "Dee"], "tables": ["t1", "t2"]})
    return bodies


EVENT_BODIES = event_bodies()


def test_each_event_body_the_fuzz_starts_from_creates_an_event(hall):
    for i, body in enumerate(EVENT_BODIES):
        answer = hall.director.post("/api/events", {**body, "tables": [f"x{i}"]})
        assert answer.status_code == 200, (body, answer.get_json())


@fuzz(150)
@given(data=st.data())
def test_any_json_in_any_field_of_an_event_is_refused_by_name(hall, data):
    base = data.draw(st.sampled_from(EVENT_BODIES), label="event")
    body = mutated(data, base, sorted(keys_of(base) | set(FIELDS[base["game"]])))
    answer = hall.director.post("/api/events", body)
    refusal(answer, body)


@fuzz(150)
@given(data=st.data())
def test_any_json_in_any_field_of_a_director_change_is_refused_by_name(hall, data):
    """Check-in, drop, a round, a move and a result, on an event whose first round is
    paired, each body with one field given any value (its version the event's own)."""
    events = hall.director.get("/api/events").get_json()["events"]
    if not events:
        made = hall.director.post("/api/events", {
            "name": "Tuesday", "game": "center-court", "options": {"sets": 1},
            "format": "swiss", "rounds": 30, "players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
            "tables": ["t1", "t2"]}).get_json()
        hall.director.post(f"/api/events/{made['id']}/rounds", {"version": made["version"]})
        events = hall.director.get("/api/events").get_json()["events"]
    eid = events[0]["id"]
    state = hall.director.get(f"/api/events/{eid}").get_json()
    pairing = next((p["id"] for p in state["pairings"] if not p["bye"]), "r1-1")
    version = state["version"]
    path, base = data.draw(st.sampled_from([
        (f"/api/events/{eid}/players", {"version": version,
                                         "players": ["Fay", {"name": "Gus", "start_points": 1}]}),
        (f"/api/events/{eid}/drop", {"version": version, "name": "Eve"}),
        (f"/api/events/{eid}/rounds", {"version": version}),
        (f"/api/events/{eid}/pairings/{pairing}/move", {"version": version, "table": "t9"}),
        (f"/api/events/{eid}/pairings/{pairing}/result",
         {"version": version, "ranks": [1, 2], "tiebreaks": [3, 1], "reason": "typo"}),
    ]), label="change")
    body = mutated(data, base, sorted(keys_of(base)))
    answer = hall.director.post(path, body)
    refusal(answer, body)
