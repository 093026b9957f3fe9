"""The club leaderboard on a real Mosquitto: two real companions play, the hall counts every
finished match once, through a table SIGKILLed and restarted, a broker restarted and the
hall's own restart (with the tables gone)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from hall.run import Hall
from tests.e2e.test_run import run_companion
from tests.hall.hall_support import get

PIN = "2468"
TIMEOUT = 30.0


class Companion:
    """``companion run --sim`` publishing as table ``table`` on ``broker``; its host logged in."""

    def __init__(self, folder: Path, broker, table: str) -> None:
        self.folder, self.broker, self.table = folder, broker, table
        self.start()

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        cfg = self.folder / "config.toml"
        cfg.write_text(f"[mqtt]\nurl = '{self.broker.url}'\ntable = '{self.table}'\n"
                       f"name = 'Table {self.table}'\n")
        self.proc = run_companion("--sim", "--config", str(cfg), "--data",
                                  str(self.folder / "data"), "--port", "0", "--pin", PIN,
                                  env={**os.environ, "COMPANION_MQTT_PASSWORD": ""})
        banner = ""
        while "MQTT:" not in banner:
            line = self.proc.stdout.readline()
            assert line, self.proc.stderr.read()
            banner += line
        self.url = banner.split("Host:")[1].split()[0].removesuffix("host")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = self.post("/api/login", {"pin": PIN}, csrf=False)["csrf"]

    def post(self, path: str, body: dict, csrf: bool = True) -> dict:
        request = urllib.request.Request(
            self.url.rstrip("/") + path, json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json",
                     **({"X-CSRF-Token": self.csrf} if csrf else {})})
        with self.opener.open(request, timeout=TIMEOUT) as answer:
            return json.loads(answer.read())

    def doubles(self, players: list[str], winner: int) -> None:
        """An AlakaSLAM doubles match to one point, won by side ``winner``."""
        self.post("/api/match", {"game": "alakaslam", "players": players, "options": {
            "characters": ["austin", "laurie", "rich", "toots"], "target": 1}})
        state = self.post("/api/action", {"type": "point", "winner": winner})
        assert state["match"]["status"] == "finished"

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.communicate(timeout=TIMEOUT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.communicate()


def club(hall: Hall) -> dict:
    status, _, body = get(f"http://127.0.0.1:{hall.server.port}/api/players")
    assert status == 200
    return body


def until_matches(hall: Hall, n: int, timeout: float = TIMEOUT) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = club(hall)
        if body["matches"] == n or time.monotonic() > deadline:
            assert body["matches"] == n, body
            return body
        time.sleep(0.1)


def played(body: dict) -> dict[str, tuple[int, int]]:
    slam = next(g for g in body["games"] if g["game"] == "alakaslam")
    # Each table shows a player as first written there ("Ann" on a, "ann" on b): one
    # player all the same; the hall shows the spelling last sent.
    return {p["name"].casefold(): (p["matches"], p["wins"]) for p in slam["players"]}


def test_two_tables_one_club_leaderboard_each_match_once(tmp_path, mosquitto):
    data = tmp_path / "hall"
    a = b = None
    try:
        with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion",
                  keepalive=1.0, data=data) as hall:
            a = Companion(tmp_path / "a", mosquitto, "a")
            b = Companion(tmp_path / "b", mosquitto, "b")
            a.doubles(["Ann", "Bob", "Cleo", "Dan"], 0)
            b.doubles(["ann", "Eve", "Finn", "Gus"], 1)
            a.doubles(["Bob", "Ann", "Dan", "Cleo"], 1)
            until_matches(hall, 3)
            # A table killed without a word and started again sends its results again.
            a.kill()
            a.start()
            b.doubles(["Eve", "Ann", "Gus", "Finn"], 0)
            until_matches(hall, 4)
            a.doubles(["Cleo", "Dan", "Eve", "Finn"], 0)
            until_matches(hall, 5)
            # A broker restarted loses every retained message; the tables greet it again.
            mosquitto.kill()
            mosquitto.start()
            b.doubles(["Gus", "Finn", "Ann", "Bob"], 1)
            # The tables and the hall try the broker again with backoff (up to 30 s).
            body = until_matches(hall, 6, 3 * TIMEOUT)
            time.sleep(2)  # whatever else the reconnections send, nothing is counted twice
            body = until_matches(hall, 6)
            expected = {"ann": (5, 3), "bob": (3, 2), "cleo": (3, 2), "dan": (3, 2),
                        "eve": (3, 1), "finn": (4, 1), "gus": (3, 1)}
            assert played(body) == expected
        a.stop()
        b.stop()
        # The hall again, the tables gone: the leaderboard is still there.
        with Hall(mosquitto.url, host="127.0.0.1", port=0, prefix="table-companion",
                  keepalive=1.0, data=data) as again:
            shown = club(again)
            assert shown["matches"] == 6 and played(shown) == expected
            assert shown["games"] == body["games"]
    finally:
        for table in (a, b):
            if table is not None:
                table.stop()
