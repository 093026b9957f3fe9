"""The club night for real: a Mosquitto with the README's ACL (TLS, a user per table and
one for the hall), ``companion hall`` with a director PIN, and four ``companion run --sim``
tables, each its own process. The director creates an 8-player Swiss of 3 rounds over the
hall's API and starts each round; each table starts its offer with one OK on its
simulated panel or one tap of its host, and its host plays the match to its end; the
results come back by themselves. In round 2 a table is SIGKILLed mid-match and started
again (its match resumes and counts once), and the hall is SIGKILLed mid-round while a
table finishes and another still has its offer (the hall resumes, offers again what is
pending, counts each game once). No score is typed on the hall.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hall.director.model import Player, Result
from hall.director.standings import standings
from tests.hall.hall_support import COMPANION, HallProcess
from tests.hall.night_support import PIN as DIRECTOR_PIN
from tests.hall.night_support import HttpDirector
from tests.mqtt.support import Listener
from tests.mqtt.test_offers import Host, readme_acl
from tests.mqtt_support import Mosquitto
from tests.web.conftest import PIN as HOST_PIN

pytestmark = pytest.mark.slow

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
TABLES = ["table-1", "table-2", "table-3", "table-4"]
USERS = {**{t: f"{t}-secret" for t in TABLES}, "hall": "hall-secret"}
#: Center Court's shortest match: one set played as a match tiebreak, no-ad.
SHORT = {"sets": 1, "final_set": "match-tiebreak", "no_ad": True}
#: How long one thing may take to happen (a process up, an offer seen, a result in): a
#: bound for a hung table, not a speed (four companions start at once on a CI machine
#: that may be busy: at a load of 40 on two cores one took over 40 s to start).
WAIT = 60.0


def until(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """``check()``'s first true answer, asked again until ``timeout``; fails naming
    ``what``. (What is waited on lives in other processes: asking is the event.)"""
    deadline = time.monotonic() + timeout
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def four_tables_acl() -> str:
    """The README's ACL with its per-table lines (written for table-1) for each table."""
    stanzas = readme_acl().strip().split("\n\n")
    (one,) = [s for s in stanzas if s.startswith("user table-1\n")]
    others = [s for s in stanzas if not re.match(r"user table-\d+\n", s)]
    return "\n\n".join([*(one.replace("table-1", t) for t in TABLES), *others]) + "\n"


class TableProcess:
    """``companion run --sim`` as one table of the club (its ``[mqtt]`` section, its own
    broker user, its data folder kept across a SIGKILL); :attr:`host` is its host page's
    session."""

    def __init__(self, folder: Path, broker: Mosquitto, table: str) -> None:
        folder.mkdir()
        self.folder, self.table = folder, table
        self.config = folder / "config.toml"
        self.config.write_text(f"[mqtt]\nurl = '{broker.url}'\ntable = '{table}'\n"
                               f"username = '{table}'\nca_file = '{broker.ca_file}'\n")
        self.proc: subprocess.Popen | None = None
        self.reader: threading.Thread | None = None

    def launch(self) -> None:
        """Start the process (:meth:`ready` waits for it: several start at once)."""
        self.reader = None
        log = open(self.folder / "companion.log", "a")  # noqa: SIM115 (the process's)
        self.proc = subprocess.Popen(
            [COMPANION, "run", "--sim", "--config", str(self.config), "--data",
             str(self.folder / "data"), "--port", "0", "--pin", HOST_PIN],
            stdout=subprocess.PIPE, stderr=log, text=True,
            env={**os.environ, "COMPANION_MQTT_PASSWORD": USERS[self.table]})
        log.close()

    def ready(self) -> None:
        """Wait until it serves and has its broker section up; log its host in."""
        assert self.proc is not None and self.proc.stdout is not None
        lines: queue.Queue[str] = queue.Queue()  # its banner, read without blocking the test
        stdout = self.proc.stdout
        self.reader = threading.Thread(target=lambda: [lines.put(line) for line in stdout],
                                       daemon=True)
        self.reader.start()
        url = None
        while True:
            try:
                line = lines.get(timeout=WAIT * 2)
            except queue.Empty:
                raise AssertionError(f"{self.table} did not start") from None
            if line.startswith("  Host:"):
                url = line.split()[-1].removesuffix("host")
            if line.startswith("  MQTT:"):
                break
        assert url is not None, (self.folder / "companion.log").read_text()[-3000:]
        self.host = Host(url)

    def start(self) -> None:
        self.launch()
        self.ready()

    def kill(self) -> None:
        """SIGKILL: no goodbye, nothing flushed but what the table committed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self._ended()

    def _ended(self) -> None:
        """Wait for the process to end; its stdout (drained by :meth:`ready`'s reader)
        closed once read to its end."""
        assert self.proc is not None and self.proc.stdout is not None
        self.proc.wait(WAIT)
        if self.reader is not None:
            self.reader.join(WAIT)
        self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self._ended()
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self._ended()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.host.call(method, path, body)
        assert status == 200, (self.table, path, status, answer)
        return answer

    def offer(self) -> dict[str, Any] | None:
        return self.call("GET", "/api/offer")["offer"]

    def state(self) -> dict[str, Any]:
        return self.call("GET", "/api/state")

    def wait_offer(self, offer_id: str) -> dict[str, Any]:
        return until(lambda: (o := self.offer()) and o["offer"] == offer_id and o,
                     f"{self.table} to be offered {offer_id}")

    def start_offer(self, offer_id: str, how: str) -> dict[str, Any]:
        """One OK on the simulated panel, or one tap of the host page: the match starts."""
        self.wait_offer(offer_id)
        if how == "press":
            state = self.call("POST", "/api/sim/button", {"button": "ok"})
            match = state["match"]
            if match is None or match["status"] != "active":
                # The offer came while the board showed the one before it (on a loaded
                # machine, after its first look): the panel said "Hall's offer changed",
                # and a press takes that notice away first (companion/panel.py
                # show_offer). A player reads it and presses again.
                state = self.call("POST", "/api/sim/button", {"button": "ok"})
        else:
            state = self.call("POST", "/api/offer/start", {"offer": offer_id})
        match = state["match"]
        assert match is not None and match["status"] == "active", (self.table, how, state)
        assert match["event"]["offer"] == offer_id
        return match

    def points(self, winner: int, count: int | None = None) -> dict[str, Any]:
        """The host taps ``count`` points (None: until the match is over) to ``winner``."""
        state = self.state()
        for _ in range(count if count is not None else 200):
            if state["match"]["status"] != "active":
                break
            state = self.call("POST", "/api/action", {"type": "point", "winner": winner})
        if count is None:
            assert state["match"]["status"] != "active", state["match"]
        return state


def winner_of(players: list[str]) -> int:
    """Who the test lets win: not always the first seat, so the standings spread."""
    return sum(map(len, players)) % 2


@pytest.fixture
def club(tmp_path):
    with Mosquitto(tmp_path / "broker", users=USERS, acl=four_tables_acl(), tls=True) as broker:
        tables: dict[str, TableProcess] = {}
        try:
            for t in TABLES:
                tables[t] = TableProcess(tmp_path / t, broker, t)
                tables[t].launch()
            for table in tables.values():
                table.ready()
            yield broker, tables
        finally:
            for table in tables.values():
                table.stop()


def start_hall(broker: Mosquitto, data: Path) -> tuple[HallProcess, HttpDirector]:
    hall = HallProcess("--mqtt", broker.url, "--ca-file", str(broker.ca_file), "--user",
                       "hall", "--data", str(data), "--director-pin", DIRECTOR_PIN,
                       env={"COMPANION_MQTT_PASSWORD": USERS["hall"]})
    assert hall.url is not None, hall.proc.stderr.read()
    return hall, HttpDirector(hall.url)


def by_table(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["table"]: p for p in state["pairings"] if p["table"] is not None}


def wait_done(director: HttpDirector, eid: str, tables: list[str]) -> dict[str, Any]:
    return until(lambda: (s := director.event(eid)) and all(
        by_table(s)[t]["status"] == "done" for t in tables) and s,
        f"the results of {tables} on the hall")


def new_round(director: HttpDirector, eid: str, number: int) -> dict[str, dict[str, Any]]:
    state = director.change(f"/api/events/{eid}/rounds", {}, eid)
    assert state["round"] == number
    pairings = by_table(state)
    assert sorted(pairings) == TABLES and all(p["status"] == "offered"
                                              for p in pairings.values())
    return pairings


def play_round(tables: dict[str, TableProcess], pairings: dict[str, dict[str, Any]],
               first: str) -> None:
    """Every table starts its offer (a press, a tap, by turns from ``first``) and plays it."""
    how = first
    for t, p in pairings.items():
        tables[t].start_offer(p["offer"], how)
        tables[t].points(winner_of(p["players"]))
        how = "tap" if how == "press" else "press"


def test_a_swiss_night_played_by_four_companions_through_a_table_and_a_hall_killed(
        club, tmp_path):
    broker, tables = club
    data = tmp_path / "hall"
    hall, director = start_hall(broker, data)
    try:
        status, event = director.request("POST", "/api/events", {
            "name": "Tuesday Swiss", "game": "center-court", "options": SHORT,
            "format": "swiss", "rounds": 3, "players": EIGHT, "tables": TABLES})
        assert status == 200, event
        eid = event["id"]

        # Round 1: four offers, four tables, each started by one press or one tap.
        pairings = new_round(director, eid, 1)
        play_round(tables, pairings, "press")
        state = wait_done(director, eid, TABLES)
        assert {p["result"]["source"] for p in state["pairings"]} == {"table"}

        # Round 2.
        pairings = new_round(director, eid, 2)
        one, two, three, four = (pairings[t] for t in TABLES)
        # table-1 starts, plays three points, and is SIGKILLed mid-match.
        tables["table-1"].start_offer(one["offer"], "press")
        tables["table-1"].points(0, 3)
        before = tables["table-1"].state()["match"]
        tables["table-1"].kill()
        tables["table-1"].start()
        again = tables["table-1"].state()["match"]
        assert again["status"] == "active" and again["event"] == before["event"]
        assert again["view"] == before["view"]  # resumed where it was
        tables["table-1"].wait_offer(one["offer"])  # offered again by the broker: it waits
        tables["table-1"].points(winner_of(one["players"]))
        # table-2 plays its game; table-3 starts and is mid-match when the hall dies.
        tables["table-2"].start_offer(two["offer"], "tap")
        tables["table-2"].points(winner_of(two["players"]))
        wait_done(director, eid, ["table-1", "table-2"])
        tables["table-3"].start_offer(three["offer"], "press")
        tables["table-3"].points(1, 2)
        until(lambda: by_table(director.event(eid))["table-3"]["status"] == "playing",
              "the hall to see table-3 playing")
        before = director.event(eid)
        hall.proc.kill()  # SIGKILL: no goodbye
        hall.proc.communicate(timeout=WAIT)
        # Meanwhile table-3 finishes (its result waits, retained, on the broker).
        tables["table-3"].points(winner_of(three["players"]))
        offers = Listener(broker, ["table-companion/_hall/offers/table-4"], username="hall",
                          password=USERS["hall"])
        try:
            hall, director = start_hall(broker, data)
            # The hall publishes table-4's pending offer again, the same offer.
            offers.wait_for(lambda: any(not m.retain and json.loads(m.payload)["offer"] ==
                                        four["offer"] for m in offers.messages),
                            "table-4's offer published again")
        finally:
            offers.close()
        # It takes table-3's result from the broker; what it had before is as it was.
        state = wait_done(director, eid, ["table-1", "table-2", "table-3"])
        assert {t: p["result"] for t, p in by_table(state).items() if t != "table-3"} == \
            {t: p["result"] for t, p in by_table(before).items() if t != "table-3"}
        assert [p["offer"] for p in state["pairings"]] == [p["offer"] for p in
                                                           before["pairings"]]
        # table-4 starts the offer it had all along with one press.
        tables["table-4"].start_offer(four["offer"], "press")
        tables["table-4"].points(winner_of(four["players"]))
        state = wait_done(director, eid, TABLES)
        assert [p["result"]["source"] for p in state["pairings"]] == ["table"] * 4
        assert sum(s["played"] for s in state["standings"]) == 16  # 2 rounds, each once

        # Round 3, then the end.
        pairings = new_round(director, eid, 3)
        play_round(tables, pairings, "tap")
        wait_done(director, eid, TABLES)
        final = director.change(f"/api/events/{eid}/rounds", {}, eid)
        # The event is over: no table is offered anything.
        until(lambda: all(table.offer() is None for table in tables.values()),
              "every offer withdrawn")
    finally:
        code, _, err = hall.stop()
    assert code == 0, err
    assert final["finished"] is True and final["winner"] == final["standings"][0]["name"]
    lines = {s["name"]: s for s in final["standings"]}
    assert sorted(lines) == sorted(EIGHT) and all(lines[n]["played"] == 3 for n in EIGHT)
    assert sum(s["points"] for s in final["standings"]) == 12  # 12 games, each counted once
    assert all(len(set(s["opponents"])) == 3 for s in final["standings"])  # no rematch

    # The standings are what the tables' own results say, recomputed from scratch: each
    # table's retained ``results`` as the broker gives them to a newcomer (the hall's user).
    watch = Listener(broker, ["table-companion/+/results"], username="hall",
                     password=USERS["hall"])
    try:
        watch.wait_for(lambda: all(watch.last(f"table-companion/{t}/results")
                                   for t in TABLES), "every table's results")
        entries = [e for t in TABLES
                   for e in json.loads(watch.last(f"table-companion/{t}/results"))["results"]]
    finally:
        watch.close()
    assert all(e["event"]["id"] == eid for e in entries)
    assert len(entries) == 12 and len({e["event"]["pairing"] for e in entries}) == 12
    # Center Court's own tiebreak comes with each: one side's sets and games, the other's
    # the same negated (one player a team).
    assert all(e["standing"]["tiebreaks"][0] == -e["standing"]["tiebreaks"][1] != 0
               for e in entries)
    results = [Result(e["event"]["round"], tuple(e["players"]),
                      tuple(p + 1 for p in e["standing"]["places"]),
                      tuple(e["standing"]["tiebreaks"]), game=e["event"]["pairing"])
               for e in entries]
    again = standings([Player(n) for n in EIGHT], results)
    assert [(s.name, s.points, s.buchholz, s.tiebreak) for s in again] == [
        (s["name"], s["points"], s["buchholz"], s["tiebreak"]) for s in final["standings"]]
