"""What the club night's tests share: a hall app over a :class:`Night` in a temp folder,
a director logged in through the real API, and the payloads a table publishes.

The payloads are the table's own shapes (companion/topics.py ``results_payload``
and ``summary_payload``'s fields), with the offer's ``event`` as /work/offers.md
has the table carry it.
"""

from __future__ import annotations

import json
from typing import Any

from companion.topics import dumps, results_payload
from tests.support import CATALOG

PIN = "2468"
PREFIX = "table-companion"


class Outbox:
    """What the night published, in order: (topic, payload)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    def __call__(self, topic: str, payload: bytes) -> None:
        self.sent.append((topic, payload))

    def offers(self) -> dict[str, dict | None]:
        """Each topic's newest payload (None: withdrawn), as a retained topic holds it."""
        out: dict[str, dict | None] = {}
        for topic, payload in self.sent:
            out[topic.rsplit("/", 1)[1]] = json.loads(payload) if payload else None
        return out


def finished(offer: dict[str, Any], winner: int | None, match: int = 1,
             players: list[str] | None = None,
             tiebreaks: list[Any] | None = None) -> dict[str, Any]:
    """A table's ``results`` entry of the match it played from ``offer`` (winner 0 or 1;
    None: a draw), with each side's game ``tiebreaks`` when given."""
    places = [0, 0] if winner is None else [0 if winner == 0 else 1, 0 if winner == 1 else 1]
    standing = {"teams": [[0], [1]], "places": places}
    if tiebreaks is not None:
        standing["tiebreaks"] = tiebreaks
    return {"match": match, "game": offer["game"], "players": players or offer["players"],
            "standing": standing,
            "started_at": 1764050000.0 + match,
            "event": {**offer["event"], "offer": offer["offer"]}}


def results_message(table: str, entries: list[dict[str, Any]], epoch: int = 7) -> bytes:
    return results_payload(table, epoch, entries).encode()


def summary_message(table: str, offer: dict[str, Any] | None, version: int = 3) -> bytes:
    """A table's summary while it plays ``offer``'s match (None: no event)."""
    event = None if offer is None else {**offer["event"], "offer": offer["offer"]}
    return dumps({"table": {"id": table, "name": table, "url": None}, "version": version,
                  "epoch": 7, "game": "center-court", "title": "Center Court",
                  "status": "playing", "players": "Ann v Bob", "score": "0-0", "turn": "",
                  "winner": "", "columns": ["Sets"], "event": event, "sides": [
                      {"name": "Ann", "score": ["0"], "turn": True, "winner": False},
                      {"name": "Bob", "score": ["0"], "turn": False, "winner": False}]}
                 ).encode()


class DirectorClient:
    """A Flask test client logged in as the director: ``post(path, body)`` sends the CSRF
    header and, unless given, the event's newest version."""

    def __init__(self, client, pin: str = PIN) -> None:
        self.client = client
        answer = client.post("/api/director/login", json={"pin": pin})
        assert answer.status_code == 200, answer.get_json()
        self.csrf = answer.get_json()["csrf"]

    def get(self, path: str):
        return self.client.get(path)

    def event(self, eid: str) -> dict[str, Any]:
        answer = self.client.get(f"/api/events/{eid}")
        assert answer.status_code == 200
        return answer.get_json()

    def post(self, path: str, body: Any = None, *, eid: str | None = None):
        if isinstance(body, dict) and eid is not None and "version" not in body:
            body = {**body, "version": self.event(eid)["version"]}
        return self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf})


class SimTable:
    """A table played by the test: a real :class:`companion.table.Table` on a memory store,
    publishing on the broker what a table publishes (its summary and its retained
    ``results``, companion/topics.py), with the offer's ``event`` in both as offers.md
    has a table carry it (the table's side of the protocol is another branch's)."""

    def __init__(self, sender, table_id: str) -> None:
        import random

        from companion.store import Store
        from companion.table import Table
        from companion.topics import ONLINE, Topics

        self.sender, self.id = sender, table_id
        self.topics = Topics(PREFIX, table_id)
        self.store = Store(":memory:")
        self.table = Table(self.store, CATALOG, rng=random.Random(7))
        self.events: dict[int, dict[str, Any]] = {}  # match id -> its event
        self.event: dict[str, Any] | None = None
        sender.send(self.topics.availability, ONLINE)

    def _summary(self) -> None:
        from companion.topics import SUMMARY, TableInfo, summary_payload

        body = json.loads(summary_payload(json.loads(self.table.snapshot.json_text),
                                          TableInfo(self.id, self.id), CATALOG))
        self.sender.send(self.topics.leaf(SUMMARY), dumps({**body, "event": self.event}))

    def publish_results(self) -> None:
        """The retained ``results`` as the table sends them (at each finished match, and
        again at each reconnection)."""
        from companion.topics import RESULTS

        entries = [{**r, **({"event": self.events[r["match"]]}
                            if r["match"] in self.events else {})}
                   for r in self.table.snapshot.results]
        self.sender.send(self.topics.leaf(RESULTS),
                         results_payload(self.id, self.table.snapshot.epoch, entries))

    def start(self, offer: dict[str, Any]) -> None:
        """The host's press: the offer's match starts (and the summary says so)."""
        self.table.start({"game": offer["game"], "players": offer["players"],
                          "options": offer["options"]})
        self.event = {**offer["event"], "offer": offer["offer"]}
        self._summary()

    def finish(self, winner: int) -> None:
        """Play points to seat ``winner`` until the match is over; publish its result."""
        match = self.table.snapshot.match
        assert match is not None
        for _ in range(500):
            if len(self.table.snapshot.results) and \
                    self.table.snapshot.results[-1]["match"] == match["id"]:
                break
            self.table.act({"type": "point", "winner": winner})
        else:
            raise AssertionError("the match did not finish")
        assert self.event is not None
        self.events[match["id"]] = self.event
        self.event = None
        self._summary()
        self.publish_results()

    def close(self) -> None:
        self.store.close()


class HttpDirector:
    """The director over real HTTP (a cookie jar, the CSRF header), as a browser would."""

    def __init__(self, url: str, pin: str = PIN) -> None:
        import http.cookiejar
        import urllib.request

        self.url = url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        status, answer = self.request("POST", "/api/director/login", {"pin": pin})
        assert status == 200, answer
        self.csrf = answer["csrf"]

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        import urllib.error
        import urllib.request

        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if method == "POST" and getattr(self, "csrf", None):
            headers["X-CSRF-Token"] = self.csrf
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    def event(self, eid: str) -> dict[str, Any]:
        status, state = self.request("GET", f"/api/events/{eid}")
        assert status == 200, state
        return state

    def change(self, path: str, body: dict[str, Any], eid: str) -> dict[str, Any]:
        status, answer = self.request("POST", path, {**body,
                                                     "version": self.event(eid)["version"]})
        assert status == 200, answer
        return answer


class OfferWatch:
    """A broker client (paho) holding each table's newest offer as the broker gives it
    (retained first): ``offers[table]`` the payload's JSON, or None once withdrawn.
    It subscribes again at every connection (a broker restarted)."""

    def __init__(self, port: int, topic: str = f"{PREFIX}/_hall/offers/+", **login: str) -> None:
        import threading

        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.offers: dict[str, dict | None] = {}
        self.received: list[tuple[str, bytes]] = []
        self._cond = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if login:
            self.client.username_pw_set(login["user"], login["password"])
        self.client.reconnect_delay_set(1, 2)  # back soon after a broker restart
        self.client.on_connect = lambda c, *a: c.subscribe(topic, 1)
        #: How many times the broker took the subscription (once per connection).
        self.subscriptions = 0
        self.client.on_subscribe = self._subscribed
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _subscribed(self, *args) -> None:
        with self._cond:
            self.subscriptions += 1
            self._cond.notify_all()

    def subscribed(self, count: int, timeout: float = 20.0) -> None:
        """Wait until the broker has taken the subscription ``count`` times (a withdrawal
        published before that, on a broker restarted, would never reach this watch)."""
        with self._cond:
            assert self._cond.wait_for(lambda: self.subscriptions >= count, timeout), \
                f"subscribed {self.subscriptions} times, not {count}"

    def _message(self, client, userdata, message) -> None:
        with self._cond:
            self.received.append((message.topic, message.payload))
            table = message.topic.rsplit("/", 1)[1]
            self.offers[table] = json.loads(message.payload) if message.payload else None
            self._cond.notify_all()

    def until(self, check, timeout: float = 20.0) -> dict[str, dict | None]:
        with self._cond:
            assert self._cond.wait_for(lambda: check(self.offers), timeout), self.offers
            return dict(self.offers)

    def close(self) -> None:
        from drivers.broker import release

        self.client.disconnect()
        self.client.loop_stop()
        release(self.client)



class ClubHall:
    """The hall's club night and club leaderboard as ``companion hall`` joins them (one
    ``hall.db``, the leaderboard counting the events' games as the events do), fed a
    table's messages directly; its app for the director and the pages."""

    def __init__(self, folder, clock=None) -> None:
        import time

        from hall.app import create_hall_app, hall_broker
        from hall.cards import Board
        from hall.director_api import Director
        from hall.night import Night
        from hall.results import ClubResults
        from web.auth import Sessions

        self.outbox = Outbox()
        self.results = ClubResults(folder, CATALOG, lambda: self.night.club_rows())
        self.night = Night(folder, PREFIX, self.outbox, self._ratings,
                           clock=clock or time.time, catalog=CATALOG)
        self.board = Board(PREFIX)
        self.broker = hall_broker(self.board.first, 4, 1.0, 2)
        self.app = create_hall_app(self.board, self.broker, results=self.results,
                                   night=self.night, director=Director(PIN, Sessions(PIN)),
                                   secret_key=b"k" * 32)
        self.director = DirectorClient(self.app.test_client())

    def _ratings(self, game: str) -> dict[str, float]:
        return {r.key: r.ordinal for r in self.results.ratings()[1].board(game)}

    def feed(self, topic: str, payload: bytes) -> None:
        """One message of a table, as hall/run.py hands it on."""
        from companion.topics import RESULTS, SUMMARY, Topics

        parsed = Topics.parse(PREFIX, topic)
        assert parsed is not None, topic
        table, leaf = parsed
        if leaf == RESULTS:
            self.results.receive(table, payload)
            self.night.results(table, payload)
        else:
            self.board.receive(topic, payload)
            if leaf == SUMMARY:
                self.night.summary(table, payload)

    def send(self, topic: str, payload: str | bytes) -> None:  # a Sender's interface
        self.feed(topic, payload.encode() if isinstance(payload, str) else payload)

    def leaderboard(self, game: str = "center-court") -> dict[str, tuple[int, int]]:
        """Each player's (matches, wins) on the club leaderboard of ``game``."""
        body = json.loads(self.results.players().data)
        board = next(g for g in body["games"] if g["game"] == game)
        return {r["name"]: (r["matches"], r["wins"]) for r in board["players"]}

    def close(self) -> None:
        self.broker.close()
        self.night.close()
        self.results.close()


class PlayedTable:
    """A table played by the test: a real :class:`companion.table.Table` on a memory store,
    started from the hall's offer as one press starts it (companion/offers.py), which
    publishes what the table publishes after each change (its summary, and its retained
    ``results`` whenever they change: a finished match, an undo past the win, a rename)."""

    def __init__(self, hall, table_id: str) -> None:
        import random

        from companion.offers import Offers
        from companion.store import Store
        from companion.table import Table
        from companion.topics import ONLINE, Topics

        self.hall, self.id = hall, table_id
        self.topics = Topics(PREFIX, table_id)
        self.store = Store(":memory:")
        self.table = Table(self.store, CATALOG, rng=random.Random(7))
        self.offers = Offers(CATALOG)
        self._results: tuple = ()
        self.table.subscribe(self._changed)
        hall.send(self.topics.availability, ONLINE)

    def _changed(self, snapshot) -> None:
        from companion.topics import (
            RESULTS,
            SUMMARY,
            TableInfo,
            results_payload,
            summary_payload,
        )

        state = json.loads(snapshot.json_text)
        self.hall.send(self.topics.leaf(SUMMARY),
                       summary_payload(state, TableInfo(self.id, self.id), CATALOG))
        if snapshot.results is not self._results:
            self._results = snapshot.results
            self.hall.send(self.topics.leaf(RESULTS), results_payload(
                self.id, snapshot.epoch, list(snapshot.results), snapshot.rulings))

    def offer(self) -> dict[str, Any] | None:
        """The hall's offer to this table now (its retained topic)."""
        return self.hall.outbox.offers().get(self.id)

    def start(self) -> dict[str, Any]:
        """One press on the offer the table holds."""
        payload = self.hall.outbox.offers().get(self.id)
        assert payload is not None and "offer" in payload, payload
        self.offers.receive(json.dumps(payload).encode())
        self.offers.start(self.table, payload["offer"])
        return payload

    def hear(self) -> None:
        """The hall's message on this table's offer topic, taken as the runtime takes it
        (app/runtime.py): its rulings laid on the table's history."""
        payload = self.hall.outbox.offers().get(self.id)
        self.offers.receive(b"" if payload is None else json.dumps(payload).encode())
        self.table.apply_rulings(self.offers.rulings)

    def win(self, seat: int) -> None:
        """Points to ``seat`` until the match is over."""
        for _ in range(500):
            match = self.table.snapshot.match
            if match is None or match["status"] != "active":
                return
            self.table.act({"type": "point", "winner": seat})
        raise AssertionError("the match did not finish")

    def close(self) -> None:
        self.store.close()
