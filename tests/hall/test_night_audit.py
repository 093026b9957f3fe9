"""An independent audit of the club night (issue 27), through the hall's HTTP API only.

One real hall process (``companion hall``) on a real Mosquitto, driven as a director
would: login with the PIN, the CSRF header, every change naming the event's version.
Every game is played "on a table without a companion" (the event has no tables), so
the director enters each result. The checks are the common tournament conventions,
recomputed here from the results the test entered, never read back from the hall:

- Swiss: no rematch while one can be avoided, equal scores together (no more
  crossing than needed), the bye to the lowest-scored player without one, at most
  one bye each, drop-outs and late arrivals between rounds, points and Buchholz.
- Round robin: everyone meets everyone exactly once, each sits out once when odd.
- Single elimination: the bracket's shape, byes, winners advance, draws refused.
- Corrections with a reason, stale premises (409, nothing applied), bad bodies (4xx).
- Every pairing's explanation is served and true.
"""

from __future__ import annotations

import http.cookiejar
import itertools
import json
import random
import re
import time
import urllib.error
import urllib.request
from collections import Counter
from typing import Any

import pytest

from tests.hall.hall_support import HallProcess, Sender
from tests.mqtt_support import Mosquitto

PIN = "246813"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"]


class Director:
    """A director's browser: a cookie jar, the CSRF token, JSON in and out."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf: str | None = None

    def request(self, method: str, path: str, body: Any = None,
                raw: bytes | None = None) -> tuple[int, Any]:
        data = raw if raw is not None else (
            None if body is None else json.dumps(body).encode())
        headers = {"Content-Type": "application/json"}
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers=headers)
        try:
            with self.opener.open(req, timeout=10) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text.decode(errors="replace")

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.request(method, path, body)
        assert status == 200, (method, path, body, status, answer)
        return answer


@pytest.fixture(scope="module")
def director(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audit")
    with Mosquitto(folder / "broker") as broker, HallProcess(
            "--mqtt", broker.url, "--director-pin", PIN, "--data", str(folder / "data")) as hall:
        client = Director(hall.url)
        client.csrf = client.ok("POST", "/api/director/login", {"pin": PIN})["csrf"]
        client.broker = broker
        yield client
        hall.stop()


# --- the tournament as the test keeps it --------------------------------------------------


class Ledger:
    """The results the test entered, and what follows from them by convention."""

    def __init__(self, players: list[str]) -> None:
        self.start = {name: 0.0 for name in players}
        self.games: list[tuple[str, str, float, float]] = []  # a, b, a's points, b's
        self.byes: Counter[str] = Counter()

    def points(self) -> dict[str, float]:
        total = dict(self.start)
        for a, b, pa, pb in self.games:
            total[a] += pa
            total[b] += pb
        for name, count in self.byes.items():
            total[name] += count
        return total

    def met(self, a: str, b: str) -> bool:
        return any({a, b} == {x, y} for x, y, _, _ in self.games)

    def buchholz(self) -> dict[str, float]:
        points = self.points()
        total = {name: 0.0 for name in self.start}
        for a, b, _, _ in self.games:
            total[a] += points[b]
            total[b] += points[a]
        return total


def create(director: Director, fmt: str, players: list[str], rounds: int | None = None) -> dict:
    body: dict[str, Any] = {"name": f"Audit {fmt} {len(players)}", "game": "center-court",
                            "options": {"sets": 1}, "format": fmt, "players": players,
                            "tables": []}
    if rounds is not None:
        body["rounds"] = rounds
    return director.ok("POST", "/api/events", body)


def next_round(director: Director, event: dict) -> dict:
    return director.ok("POST", f"/api/events/{event['id']}/rounds", {"version": event["version"]})


def enter(director: Director, event: dict, pairing: dict, ranks: list[int], **more) -> dict:
    return director.ok("POST", f"/api/events/{event['id']}/pairings/{pairing['id']}/result",
                       {"version": event["version"], "ranks": ranks, **more})


def play(director: Director, event: dict, ledger: Ledger, rng: random.Random,
         draws: bool = True) -> dict:
    """Enter a result for every game of the round; record them (and the byes) in ``ledger``."""
    for game in list(event["pairings"]):
        if game["bye"]:
            ledger.byes[game["players"][0]] += 1
            continue
        a, b = game["players"]
        outcome = rng.choice([[1, 2], [2, 1], [1, 1]] if draws else [[1, 2], [2, 1]])
        event = enter(director, event, game, outcome)
        pa, pb = {(1, 2): (1.0, 0.0), (2, 1): (0.0, 1.0), (1, 1): (0.5, 0.5)}[tuple(outcome)]
        ledger.games.append((a, b, pa, pb))
    return event


def spell(points: float) -> str:
    """Points as the explanations write them: 0 points, ½ point, 1 point, 1½ points."""
    whole, half = int(points), points % 1 == 0.5
    text = ("" if whole == 0 and half else str(whole)) + ("½" if half else "")
    return f"{text} point" + ("" if points in (0.5, 1.0) else "s")


def check_explanations(director: Director, event: dict, ledger: Ledger,
                       before: dict[str, float]) -> None:
    """Each game's ``why``, served on request, says what the scores and history were."""
    for game in event["pairings"]:
        status, answer = director.request(
            "GET", f"/api/events/{event['id']}/pairings/{game['id']}")
        assert status == 200, (game, status, answer)
        why = answer["why"]
        assert why == game["why"]
        if game["bye"]:
            (name,) = game["players"]
            assert why.startswith(f"{name} gets the bye"), why
            if "lowest without one" in why:
                assert ledger.byes[name] == 0, why
            continue
        a, b = game["players"]
        assert why.startswith(f"{a} v {b}:"), why
        if before[a] == before[b]:
            assert f"both {spell(before[a])}" in why, (why, before[a])
        else:
            assert f"{a} {spell(before[a])}" in why and f"{b} {spell(before[b])}" in why, (
                why, before[a], before[b])
        assert ("not met before" in why) == (not ledger.met(a, b)), (why, ledger.games)


# --- Swiss: what the best round can be, found by brute force -------------------------------


def matchings(people: list[str]):
    """Every way to pair ``people`` (an even number), as lists of pairs."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *more]


def rounds_possible(present: list[str], ledger: Ledger):
    """Every round of ``present`` that respects "at most one bye each" (rule above all)."""
    if len(present) % 2 == 0:
        for m in matchings(present):
            yield None, m
        return
    without = [p for p in present if ledger.byes[p] == 0] or present
    for bye in without:
        for m in matchings([p for p in present if p != bye]):
            yield bye, m


def check_swiss_round(event: dict, ledger: Ledger, present: list[str]) -> None:
    before = ledger.points()
    games = [g for g in event["pairings"] if not g["bye"]]
    byes = [g["players"][0] for g in event["pairings"] if g["bye"]]
    seated = [p for g in event["pairings"] for p in g["players"]]
    assert sorted(seated) == sorted(present), ("everyone present plays once", seated, present)
    assert len(byes) == len(present) % 2, byes
    pairs = [tuple(g["players"]) for g in games]
    rematches = [p for p in pairs if ledger.met(*p)]
    options = list(rounds_possible(present, ledger))
    if rematches:
        clean = [o for o in options if not any(ledger.met(*p) for p in o[1])]
        assert not clean, (f"round {event['round']}: rematch {rematches} although "
                           f"{clean[0]} avoids it")
    for bye in byes:
        assert ledger.byes[bye] == 0 or all(ledger.byes[p] for p in present), (
            f"second bye for {bye}", dict(ledger.byes))
        # The lowest without a bye (by points) gets it, unless that forces a rematch.
        candidates = [p for p in present if ledger.byes[p] == 0]
        lowest = min(before[p] for p in candidates) if candidates else before[bye]
        if before[bye] > lowest and not rematches:
            lower = [p for p in candidates if before[p] < before[bye]]
            can = [o for o in options if o[0] in lower
                   and not any(ledger.met(*p) for p in o[1])]
            assert not can, (f"round {event['round']}: bye to {bye} on {before[bye]} although "
                             f"{lower} have fewer points and no bye; {can[0]} avoids rematches")

    groups = sorted({before[p] for p in present})

    def crossing(m) -> tuple[int, int]:
        """(the widest crossing in score groups, how many games cross that wide)."""
        widths = [abs(groups.index(before[a]) - groups.index(before[b])) for a, b in m]
        widest = max(widths, default=0)
        return widest, sum(w == widest > 0 for w in widths)

    # Equal scores together (docs/club-night.md rule 4, in score groups crossed): with
    # the hall's bye and no more rematches than it made, no other round crosses less.
    same = [m for bye, m in options if bye == (byes[0] if byes else None)
            and sum(ledger.met(*p) for p in m) <= len(rematches)]
    best = min(crossing(m) for m in same)
    assert crossing(pairs) <= best, (f"round {event['round']}: {pairs} crosses score groups "
                                     f"{crossing(pairs)}, {best} was possible; scores {before}")


def checked_swiss_round(director: Director, event: dict, ledger: Ledger, present: list[str],
                        rng: random.Random) -> dict:
    """Pair the next Swiss round, check its pairings and their explanations against the
    ledger, play it with random results and check the standings: the event after it."""
    before = ledger.points()
    event = next_round(director, event)
    check_swiss_round(event, ledger, present)
    check_explanations(director, event, ledger, before)
    event = play(director, event, ledger, rng)
    check_standings(event, ledger)
    return event


def check_standings(event: dict, ledger: Ledger) -> None:
    points, buchholz = ledger.points(), ledger.buchholz()
    lines = {line["name"]: line for line in event["standings"]}
    assert set(lines) >= set(ledger.start), (lines.keys(), ledger.start)
    for name in ledger.start:
        assert lines[name]["points"] == points[name], (name, lines[name], points[name])
        assert lines[name]["buchholz"] == buchholz[name], (name, lines[name], buchholz[name])
        assert lines[name]["byes"] == ledger.byes[name], (name, lines[name])
    ordered = [line["points"] for line in sorted(event["standings"], key=lambda x: x["place"])]
    assert ordered == sorted(ordered, reverse=True), event["standings"]


@pytest.mark.parametrize("count, rounds", [(5, 5), (7, 7), (8, 7), (9, 9)])
def test_swiss_over_every_round(director, count, rounds):
    players = NAMES[:count]
    rng = random.Random(count)
    ledger = Ledger(players)
    event = create(director, "swiss", players, rounds)
    present = list(players)
    for number in range(1, rounds + 1):
        before = ledger.points()
        event = next_round(director, event)
        assert event["round"] == number
        check_swiss_round(event, ledger, present)
        check_explanations(director, event, ledger, before)
        event = play(director, event, ledger, rng)
        check_standings(event, ledger)
    event = next_round(director, event)
    assert event["finished"], event
    assert event["winner"] == min(event["standings"], key=lambda x: x["place"])["name"]


@pytest.mark.parametrize("count", [7, 8, 9])
def test_swiss_with_drop_outs_and_late_arrivals(director, count):
    players = NAMES[:count]
    rng = random.Random(100 + count)
    ledger = Ledger(players)
    event = create(director, "swiss", players, 5)
    present = list(players)
    for number in range(1, 6):
        if number == 3:  # one leaves, one arrives with 1½ points given by the director
            event = director.ok("POST", f"/api/events/{event['id']}/drop",
                                {"version": event["version"], "name": present[1]})
            present.remove(present[1])
            late = NAMES[count]
            event = director.ok("POST", f"/api/events/{event['id']}/players",
                                {"version": event["version"],
                                 "players": [{"name": late, "start_points": 1.5}]})
            present.append(late)
            ledger.start[late] = 1.5
        if number == 4:  # a late arrival without points, and another drop-out
            late = NAMES[count + 1] if count + 1 < len(NAMES) else "Lu"
            event = director.ok("POST", f"/api/events/{event['id']}/players",
                                {"version": event["version"], "players": [late]})
            present.append(late)
            ledger.start[late] = 0.0
            event = director.ok("POST", f"/api/events/{event['id']}/drop",
                                {"version": event["version"], "name": present[0]})
            present.remove(present[0])
        event = checked_swiss_round(director, event, ledger, present, rng)
        assert sorted(event["waiting"]) == [], event["waiting"]


# --- round robin --------------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 5])
def test_round_robin_everyone_meets_everyone_once(director, count):
    players = NAMES[:count]
    rng = random.Random(200 + count)
    ledger = Ledger(players)
    event = create(director, "round-robin", players)
    rounds = count - 1 if count % 2 == 0 else count
    for number in range(1, rounds + 1):
        event = next_round(director, event)
        assert not event["finished"] and event["round"] == number, event
        seated = [p for g in event["pairings"] for p in g["players"]]
        assert sorted(seated) == sorted(players), event["pairings"]
        event = play(director, event, ledger, rng)
        check_standings(event, ledger)
    met = Counter(frozenset((a, b)) for a, b, _, _ in ledger.games)
    assert met == Counter(frozenset(p) for p in itertools.combinations(players, 2)), met
    assert ledger.byes == (Counter(players) if count % 2 else Counter()), ledger.byes
    event = next_round(director, event)
    assert event["finished"], event
    assert event["round"] == rounds


def test_round_robin_keeps_its_field(director):
    event = next_round(director, create(director, "round-robin", NAMES[:4]))
    status, answer = director.request("POST", f"/api/events/{event['id']}/players",
                                      {"version": event["version"], "players": ["Zed"]})
    assert status == 409 and answer.get("error"), (status, answer)


# --- single elimination -------------------------------------------------------------------


@pytest.mark.parametrize("count", [5, 8])
def test_single_elimination_bracket(director, count):
    """Without club ratings every player has the same (the field's average): the
    bracket is still 1 v N, 2 v N-1... in some seed order, byes to the top seeds, and
    the top two seeds can meet only in the final."""
    players = NAMES[:count]
    rng = random.Random(300 + count)
    event = create(director, "elimination", players)
    event = next_round(director, event)
    games = event["pairings"]
    byes = [g["players"][0] for g in games if g["bye"]]
    played = [g for g in games if not g["bye"]]
    assert len(byes) == 8 - count and len(played) == (count - len(byes)) // 2, games
    assert sorted(p for g in games for p in g["players"]) == sorted(players)
    # A draw cannot decide who advances: refused, and nothing applied.
    status, answer = director.request(
        "POST", f"/api/events/{event['id']}/pairings/{played[0]['id']}/result",
        {"version": event["version"], "ranks": [1, 1]})
    assert 400 <= status < 500 and answer.get("error"), (status, answer)
    assert director.ok("GET", f"/api/events/{event['id']}")["version"] == event["version"]
    alive = set(players)
    rounds = 0
    while not event["finished"]:
        rounds += 1
        assert rounds <= 3, event
        seated = sorted(p for g in event["pairings"] for p in g["players"])
        assert seated == sorted(alive), ("only the winners so far play on", seated, alive)
        for game in list(event["pairings"]):
            if game["bye"]:
                continue
            ranks = rng.choice([[1, 2], [2, 1]])
            event = enter(director, event, game, ranks)
            alive.discard(game["players"][ranks.index(2)])
        event = next_round(director, event)
    assert rounds == 3, rounds
    assert len(alive) == 1 and event["winner"] == next(iter(alive)), (alive, event["winner"])


# --- corrections, premises, bad bodies ----------------------------------------------------


def test_a_correction_with_a_reason(director):
    players = NAMES[:4]
    ledger = Ledger(players)
    event = next_round(director, create(director, "swiss", players, 2))
    first, second = event["pairings"]
    event = enter(director, event, first, [1, 2])
    event = enter(director, event, second, [1, 1])
    a, b = first["players"]
    # A correction without a reason is refused and changes nothing.
    status, answer = director.request(
        "POST", f"/api/events/{event['id']}/pairings/{first['id']}/result",
        {"version": event["version"], "ranks": [2, 1]})
    assert 400 <= status < 500 and answer.get("error"), (status, answer)
    assert director.ok("GET", f"/api/events/{event['id']}") == event
    event = enter(director, event, first, [2, 1], reason="entered the wrong way round")
    ledger.games = [(a, b, 0.0, 1.0), (*second["players"], 0.5, 0.5)]
    check_standings(event, ledger)
    assert any(c["reason"] == "entered the wrong way round" and c["pairing"] == first["id"]
               for c in event["corrections"]), event["corrections"]
    game = next(g for g in event["pairings"] if g["id"] == first["id"])
    assert game["result"]["ranks"] == [2, 1]
    assert game["result"]["reason"] == "entered the wrong way round"
    # Kept: read again, the reason and the corrected standings are still there.
    again = director.ok("GET", f"/api/events/{event['id']}")
    assert again["corrections"] == event["corrections"] and again["standings"] == event["standings"]
    # Shown: the CSV export follows the correction too.
    status, csv = director.request("GET", f"/api/events/{event['id']}/standings.csv")
    assert status == 200 and f"{b},1" in csv.replace(".0", ""), csv
    # The next round is paired from the corrected result.
    event = next_round(director, event)
    top = next(g for g in event["pairings"] if b in g["players"])
    other = next(p for p in top["players"] if p != b)
    assert ledger.points()[b] == 1.0 and ledger.points()[other] == 0.5, (top, ledger.points())


def test_a_stale_premise_is_refused_and_nothing_applied(director):
    event = next_round(director, create(director, "swiss", NAMES[:4], 2))
    stale = event["version"]
    first, second = event["pairings"]
    event = enter(director, event, first, [1, 2])
    for path, body in [
            (f"pairings/{second['id']}/result", {"ranks": [1, 2]}),
            (f"pairings/{first['id']}/result", {"ranks": [2, 1], "reason": "late"}),
            ("players", {"players": ["Zed"]}),
            ("drop", {"name": "Ann"}),
            ("rounds", {}),
            (f"pairings/{second['id']}/move", {"table": None})]:
        status, answer = director.request("POST", f"/api/events/{event['id']}/{path}",
                                          {"version": stale, **body})
        assert status == 409 and answer.get("error"), (path, status, answer)
        assert director.ok("GET", f"/api/events/{event['id']}") == event, path


BAD_CREATES = [
    {},
    {"name": "", "game": "center-court", "format": "swiss", "rounds": 3, "players": ["A", "B"],
     "tables": []},
    {"name": "x" * 61, "game": "center-court", "format": "swiss", "rounds": 3,
     "players": ["A", "B"], "tables": []},
    {"name": "N", "game": "chess", "format": "swiss", "rounds": 3, "players": ["A", "B"],
     "tables": []},
    {"name": "N", "game": "center-court", "format": "ladder", "players": ["A", "B"],
     "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 0,
     "players": ["A", "B"], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 31,
     "players": ["A", "B"], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": "3",
     "players": ["A", "B"], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
     "players": ["Ann", "ann "], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
     "players": ["A" * 17, "B"], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
     "players": [None, 3], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
     "players": "Ann,Bob", "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
     "players": [{"name": "A", "start_points": "lots"}, "B"], "tables": []},
    {"name": "N", "game": "center-court", "options": {"sets": "many"}, "format": "swiss",
     "rounds": 3, "players": ["A", "B"], "tables": []},
    {"name": "N", "game": "center-court", "format": "swiss", "rounds": 3,
     "players": ["A", "B"], "tables": "t1"},
    [1, 2, 3],
    "swiss",
    None,
]


@pytest.mark.parametrize("body", BAD_CREATES, ids=range(len(BAD_CREATES)))
def test_bad_event_bodies_are_4xx_with_a_message(director, body):
    before = director.ok("GET", "/api/events")
    status, answer = director.request("POST", "/api/events", body)
    assert 400 <= status < 500, (body, status, answer)
    assert isinstance(answer, dict) and answer.get("error"), (body, status, answer)
    assert director.ok("GET", "/api/events") == before


def test_bad_change_bodies_are_4xx_with_a_message(director):
    event = next_round(director, create(director, "swiss", NAMES[:5], 3))
    game = next(g for g in event["pairings"] if not g["bye"])
    bye = next(g for g in event["pairings"] if g["bye"])
    v = event["version"]
    base = f"/api/events/{event['id']}"
    cases = [
        (f"{base}/pairings/{game['id']}/result", None, b"{not json"),
        (f"{base}/pairings/{game['id']}/result", None, b""),
        (f"{base}/pairings/{game['id']}/result", [1, 2], None),
        (f"{base}/pairings/{game['id']}/result", {"ranks": [1, 2]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": str(v), "ranks": [1, 2]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": True, "ranks": [1, 2]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v, "ranks": [1]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v, "ranks": [1, 2, 3]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v, "ranks": ["1", "2"]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v, "ranks": [0, 1]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v, "ranks": [1.5, 2]}, None),
        (f"{base}/pairings/{game['id']}/result", {"version": v, "ranks": "1,2"}, None),
        (f"{base}/pairings/{game['id']}/result",
         {"version": v, "ranks": [1, 2], "tiebreaks": [1e9, 0]}, None),
        (f"{base}/pairings/{game['id']}/result",
         {"version": v, "ranks": [1, 2], "tiebreaks": ["a", 0]}, None),
        (f"{base}/pairings/{game['id']}/result",
         {"version": v, "ranks": [1, 2], "tiebreaks": [1]}, None),
        (f"{base}/pairings/{game['id']}/result", None,
         b'{"version": %d, "ranks": [1, 2], "tiebreaks": [NaN, 0]}' % v),
        (f"{base}/pairings/{game['id']}/result",
         {"version": v, "ranks": [1, 2], "reason": 7}, None),
        (f"{base}/pairings/{bye['id']}/result", {"version": v, "ranks": [1]}, None),
        (f"{base}/pairings/r9-9/result", {"version": v, "ranks": [1, 2]}, None),
        (f"{base}/pairings/nonsense/result", {"version": v, "ranks": [1, 2]}, None),
        ("/api/events/e-999/pairings/r1-1/result", {"version": v, "ranks": [1, 2]}, None),
        (f"{base}/players", {"version": v, "players": "Zed"}, None),
        (f"{base}/players", {"version": v, "players": [{"start_points": 1}]}, None),
        (f"{base}/players", {"version": v, "players": ["Ann"]}, None),
        (f"{base}/drop", {"version": v, "name": "Nobody"}, None),
        (f"{base}/drop", {"version": v, "name": ["Ann"]}, None),
        (f"{base}/drop", {"version": v}, None),
        (f"{base}/pairings/{game['id']}/move", {"version": v, "table": 5}, None),
        (f"{base}/rounds", {"version": v}, None),  # games without a result: 409
    ]
    for path, body, raw in cases:
        status, answer = director.request("POST", path, body, raw)
        assert 400 <= status < 500, (path, body, raw, status, answer)
        assert isinstance(answer, dict) and answer.get("error"), (path, body, raw, status, answer)
    assert director.ok("GET", base) == event
    # A long reason on a correction is refused too.
    event = enter(director, event, game, [1, 2])
    status, answer = director.request("POST", f"{base}/pairings/{game['id']}/result",
                                      {"version": event["version"], "ranks": [2, 1],
                                       "reason": "x" * 201})
    assert 400 <= status < 500 and answer.get("error"), (status, answer)
    assert director.ok("GET", base) == event


def test_changes_need_the_director(director):
    event = create(director, "swiss", NAMES[:4], 2)
    anonymous = Director(director.url)
    status, answer = anonymous.request("POST", f"/api/events/{event['id']}/rounds",
                                       {"version": event["version"]})
    assert status in (401, 403), (status, answer)
    stolen = Director(director.url)
    stolen.opener = director.opener  # the cookie but not the CSRF token
    status, answer = stolen.request("POST", f"/api/events/{event['id']}/rounds",
                                    {"version": event["version"]})
    assert status in (400, 401, 403), (status, answer)
    assert director.ok("GET", f"/api/events/{event['id']}") == event


def test_explanation_for_unknown_pairing_is_404(director):
    event = create(director, "swiss", NAMES[:4], 2)
    status, answer = director.request("GET", f"/api/events/{event['id']}/pairings/r1-1")
    assert status == 404 and answer.get("error"), (status, answer)
    assert re.match(r"^e-", event["id"])


def test_incomplete_bodies_are_refused_not_guessed(director):
    """A result whose places have no first place, and a move that names no table, are
    bad input: the docs' bodies are {"version", "ranks"} with places from 1, and
    {"version", "table"} where "table": null is a deliberate choice."""
    event = next_round(director, create(director, "swiss", NAMES[:4], 2))
    base = f"/api/events/{event['id']}"
    game = event["pairings"][0]
    for path, body in [(f"{base}/pairings/{game['id']}/result",
                        {"version": event["version"], "ranks": [2, 2]}),
                       (f"{base}/pairings/{game['id']}/move", {"version": event["version"]})]:
        status, answer = director.request("POST", path, body)
        assert 400 <= status < 500 and isinstance(answer, dict) and answer.get("error"), (
            path, body, status, answer if not isinstance(answer, dict) else {
                k: answer[k] for k in ("pairings", "standings") if k in answer})
        assert director.ok("GET", base) == event


# --- with club ratings: seeding --------------------------------------------------------------

# Eight players whose strength is their index here (S1 strongest), checked in scrambled.
SEEDED = ["Sam", "Tia", "Uma", "Vic", "Wes", "Xan", "Yul", "Zoe"]
CHECK_IN = ["Wes", "Zoe", "Tia", "Yul", "Sam", "Vic", "Xan", "Uma"]


@pytest.fixture(scope="module")
def rated(director):
    """Club ratings for SEEDED, as a table publishes its finished matches: each player
    beat every weaker one (28 matches: a table publishes at most its last 50).
    Answers each player's rating from GET /api/players."""
    matches = []
    pairs = itertools.combinations(range(len(SEEDED)), 2)
    for number, (i, j) in enumerate(pairs, start=1):
        matches.append({"match": number, "game": "center-court",
                        "players": [SEEDED[i], SEEDED[j]],
                        "standing": {"teams": [[0], [1]], "places": [0, 1],
                                     "tiebreaks": [1.0, -1.0]},
                        "started_at": 1_760_000_000 + 600 * number})
    sender = Sender(director.broker)
    try:
        sender.send("table-companion/audit-table/results",
                    json.dumps({"table": "audit-table", "epoch": 1, "results": matches}))
        deadline = time.monotonic() + 10
        while True:
            board = director.ok("GET", "/api/players")
            rows = [row for game in board["games"] if game["game"] == "center-court"
                    for row in game["players"]]
            ratings = {row["name"]: row["rating"] for row in rows if row["name"] in SEEDED}
            if len(ratings) == len(SEEDED):
                break
            assert time.monotonic() < deadline, board
            time.sleep(0.05)
    finally:
        sender.close()
    assert sorted(SEEDED, key=ratings.get, reverse=True) == SEEDED, ratings
    return ratings


def winners_by_seed(director: Director, event: dict) -> dict:
    """Play the round with the better seed (earlier in SEEDED) winning every game."""
    for game in list(event["pairings"]):
        if not game["bye"]:
            a, b = game["players"]
            event = enter(director, event, game,
                          [1, 2] if SEEDED.index(a) < SEEDED.index(b) else [2, 1])
    return event


def games_of(event: dict) -> set:
    return {frozenset(g["players"]) for g in event["pairings"] if not g["bye"]}


def test_knockout_of_eight_is_seeded_by_rating(director, rated):
    s = SEEDED
    event = next_round(director, create(director, "elimination", CHECK_IN))
    ratings = {p["name"]: p["rating"] for p in event["players"]}
    assert all(ratings[name] == pytest.approx(rated[name], abs=0.01) for name in s), ratings
    assert games_of(event) == {frozenset(p) for p in [
        (s[0], s[7]), (s[1], s[6]), (s[2], s[5]), (s[3], s[4])]}, event["pairings"]
    event = next_round(director, winners_by_seed(director, event))
    assert games_of(event) == {frozenset((s[0], s[3])), frozenset((s[1], s[2]))}, (
        "the top two seeds meet only in the final", event["pairings"])
    event = next_round(director, winners_by_seed(director, event))
    assert games_of(event) == {frozenset((s[0], s[1]))}, event["pairings"]
    event = next_round(director, winners_by_seed(director, event))
    assert event["finished"] and event["winner"] == s[0], event["winner"]


def test_knockout_of_five_gives_the_byes_to_the_top_seeds(director, rated):
    s = SEEDED
    field = [name for name in CHECK_IN if name in s[:5]]
    event = next_round(director, create(director, "elimination", field))
    byes = sorted(g["players"][0] for g in event["pairings"] if g["bye"])
    assert byes == sorted(s[:3]), event["pairings"]
    assert games_of(event) == {frozenset((s[3], s[4]))}, event["pairings"]
    event = next_round(director, winners_by_seed(director, event))
    assert games_of(event) == {frozenset((s[0], s[3])), frozenset((s[1], s[2]))}, event["pairings"]
    event = next_round(director, winners_by_seed(director, event))
    assert games_of(event) == {frozenset((s[0], s[1]))}, event["pairings"]


@pytest.mark.parametrize("count", [5, 8])
def test_swiss_round_one_top_half_against_bottom_half(director, rated, count):
    """Round 1, everyone on 0: by rating, the top half meets the bottom half in order
    (1 v 5, 2 v 6... of 8), and with an odd count the lowest rated sits out."""
    s = SEEDED[:count]
    field = [name for name in CHECK_IN if name in s]
    event = next_round(director, create(director, "swiss", field, 3))
    half = count // 2
    assert games_of(event) == {frozenset((s[i], s[half + i])) for i in range(half)}, (
        event["pairings"])
    byes = [g["players"][0] for g in event["pairings"] if g["bye"]]
    assert byes == ([s[-1]] if count % 2 else []), byes


# --- the answer to a change is the event as it now is ---------------------------------------


def test_the_answer_that_finishes_the_event_is_its_new_version(director):
    """Each change answers the event; its version is the premise of the director's
    next change. The answer that finishes the event must be what the hall now holds."""
    event = next_round(director, create(director, "swiss", NAMES[:4], 1))
    for game in list(event["pairings"]):
        event = enter(director, event, game, [1, 2])
    event = next_round(director, event)
    assert event["finished"]
    now = director.ok("GET", f"/api/events/{event['id']}")
    assert now["version"] == event["version"], (event["version"], now["version"])
    # And so a correction made on that answer is not refused as stale.
    game = event["pairings"][0]
    status, answer = director.request(
        "POST", f"/api/events/{event['id']}/pairings/{game['id']}/result",
        {"version": event["version"], "ranks": [1, 1], "reason": "a draw, in fact"})
    assert status == 200, (status, answer)


# --- a player who left comes back by name ----------------------------------------------------


@pytest.mark.parametrize("comeback", ["exact", "other case", "with points"])
def test_a_player_who_left_comes_back_by_name(director, comeback):
    """docs/api.md: "a player who left comes back by name"; names are one player "in any
    case and spacing"; a check-in may be {"name", "start_points"}."""
    event = next_round(director, create(director, "swiss", NAMES[:4], 3))
    for game in list(event["pairings"]):
        event = enter(director, event, game, [1, 2])
    who = event["pairings"][0]["players"][0]  # a winner: 1 point
    event = director.ok("POST", f"/api/events/{event['id']}/drop",
                        {"version": event["version"], "name": who})
    assert not next(p for p in event["players"] if p["name"] == who)["present"]
    entry = {"exact": who, "other case": who.upper() + " ",
             "with points": {"name": who, "start_points": 0}}[comeback]
    status, answer = director.request("POST", f"/api/events/{event['id']}/players",
                                      {"version": event["version"], "players": [entry]})
    assert status == 200, (entry, status, answer)
    names = [p["name"] for p in answer["players"]]
    assert names.count(who) == 1 and len(names) == 4, names
    assert next(p for p in answer["players"] if p["name"] == who)["present"]
    line = next(x for x in answer["standings"] if x["name"] == who)
    assert line["points"] == 1.0 and line["played"] == 1, line


def test_round_robin_and_knockout_explanations(director):
    event = next_round(director, create(director, "round-robin", NAMES[:5]))
    for game in event["pairings"]:
        status, answer = director.request(
            "GET", f"/api/events/{event['id']}/pairings/{game['id']}")
        assert status == 200 and answer["why"] == game["why"], (status, answer)
        if game["bye"]:
            assert answer["why"].startswith(f"{game['players'][0]} sits out"), answer
        else:
            names = " v ".join(game["players"])
            assert answer["why"].startswith(names) and "round 1 of 5" in answer["why"], answer
    event = next_round(director, create(director, "elimination", NAMES[:5]))
    for game in event["pairings"]:
        status, answer = director.request(
            "GET", f"/api/events/{event['id']}/pairings/{game['id']}")
        assert status == 200 and answer["why"] == game["why"], (status, answer)
        assert ("bye" in answer["why"]) == game["bye"], answer


# --- tiebreaks, the order of the standings, the CSV --------------------------------------------


def test_standings_order_tiebreaks_and_csv(director):
    """Points, then Buchholz, then the game's own tiebreak (the sum of the values given
    with the results); the CSV says the same; a round-1 correction made after round 2
    moves the standings and Buchholz of everyone concerned."""
    players = NAMES[:6]
    rng = random.Random(6)
    ledger = Ledger(players)
    own = {name: 0.0 for name in players}
    event = create(director, "swiss", players, 3)
    for _ in range(3):
        event = next_round(director, event)
        for game in list(event["pairings"]):
            a, b = game["players"]
            ranks = rng.choice([[1, 2], [2, 1], [1, 1]])
            value = rng.choice([0.0, 1.02, 2.06, 1.0]) * (1 if ranks[0] <= ranks[1] else -1)
            event = enter(director, event, game, ranks, tiebreaks=[value, -value])
            pa, pb = {(1, 2): (1.0, 0.0), (2, 1): (0.0, 1.0), (1, 1): (0.5, 0.5)}[tuple(ranks)]
            ledger.games.append((a, b, pa, pb))
            own[a] += value
            own[b] -= value
        check_standings(event, ledger)
    for line in event["standings"]:
        assert line["tiebreak"] == pytest.approx(own[line["name"]]), (line, own)
    # Correct round 1's first game after round 3: its winner (or the first, if drawn)
    # loses it, and its tiebreak values become 0.
    a, b, pa, pb = ledger.games[0]
    ranks = [2, 1] if pa >= pb else [1, 2]
    event = enter(director, event, {"id": "r1-1"}, ranks, tiebreaks=[0, 0],
                  reason="scores swapped on the sheet")
    ledger.games[0] = (a, b, *((0.0, 1.0) if ranks == [2, 1] else (1.0, 0.0)))
    first = next(g for g in event["corrections"] if g["pairing"] == "r1-1")
    assert first["reason"] == "scores swapped on the sheet", event["corrections"]
    assert first["players"] == [a, b], (first, a, b)
    check_standings(event, ledger)
    lines = sorted(event["standings"], key=lambda x: x["place"])
    keys = [(x["points"], x["buchholz"], x["tiebreak"]) for x in lines]
    assert keys == sorted(keys, reverse=True), keys
    status, csv = director.request("GET", f"/api/events/{event['id']}/standings.csv")
    assert status == 200, (status, csv)
    rows = [row.split(",") for row in csv.strip().splitlines()]
    assert rows[0] == ["place", "name", "points", "buchholz", "tiebreak", "played", "byes"]
    assert [(int(r[0]), r[1], float(r[2]), float(r[3]), float(r[4])) for r in rows[1:]] == [
        (x["place"], x["name"], x["points"], x["buchholz"], x["tiebreak"]) for x in lines]


def test_the_doors_of_the_hall(director):
    """A Host that is not the hall's is refused (400), a page of another site too (403),
    and neither changes anything."""
    event = create(director, "swiss", NAMES[:4], 2)
    for headers, expected in [({"Host": "evil.example"}, 400),
                              ({"Origin": "http://evil.example"}, 403)]:
        req = urllib.request.Request(
            f"{director.url}/api/events/{event['id']}/rounds", method="POST",
            data=json.dumps({"version": event["version"]}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": director.csrf,
                     **headers})
        try:
            with director.opener.open(req, timeout=10) as answer:
                status = answer.status
        except urllib.error.HTTPError as err:
            status = err.code
        assert status == expected, (headers, status)
    assert director.ok("GET", f"/api/events/{event['id']}") == event


def test_moving_a_game_to_another_events_table_is_refused(director):
    """docs/api.md: tables are "each in one unfinished event at most"; a move goes to
    "another table" of the event, so not to a table another event is using."""
    other = director.ok("POST", "/api/events", {
        "name": "Other night", "game": "center-court", "options": {"sets": 1},
        "format": "swiss", "rounds": 2, "players": NAMES[:4], "tables": ["audit-busy"]})
    event = next_round(director, create(director, "swiss", NAMES[4:8], 2))
    game = event["pairings"][0]
    status, answer = director.request(
        "POST", f"/api/events/{event['id']}/pairings/{game['id']}/move",
        {"version": event["version"], "table": "audit-busy"})
    assert 400 <= status < 500 and isinstance(answer, dict) and answer.get("error"), (
        status, {k: answer[k] for k in ("pairings", "tables")} if status == 200 else answer)
    assert director.ok("GET", f"/api/events/{event['id']}") == event
    assert director.ok("GET", f"/api/events/{other['id']}")["tables"] == ["audit-busy"]


@pytest.mark.parametrize("seed, count, rounds", [(1, 6, 5), (2, 7, 7), (3, 9, 6), (4, 8, 6)])
def test_swiss_nights_with_random_comings_and_goings(director, seed, count, rounds):
    """Random results, drop-outs and late arrivals (with given points) between rounds:
    every round keeps the Swiss rules, every explanation is true, the standings are
    what the results make."""
    rng = random.Random(seed)
    players = NAMES[:count]
    ledger = Ledger(players)
    event = create(director, "swiss", players, rounds)
    present = list(players)
    for number in range(1, rounds + 1):
        if number > 1 and rng.random() < 0.4 and len(present) > 4:
            who = rng.choice(present)
            event = director.ok("POST", f"/api/events/{event['id']}/drop",
                                {"version": event["version"], "name": who})
            present.remove(who)
        if number > 1 and rng.random() < 0.4:
            late, points = f"Late{number}", rng.choice([0, 0.5, 1.0, 1.5])
            event = director.ok("POST", f"/api/events/{event['id']}/players",
                                {"version": event["version"],
                                 "players": [{"name": late, "start_points": points}]})
            present.append(late)
            ledger.start[late] = points
        event = checked_swiss_round(director, event, ledger, present, rng)
