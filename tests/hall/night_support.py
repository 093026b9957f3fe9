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
             players: list[str] | None = None) -> dict[str, Any]:
    """A table's ``results`` entry of the match it played from ``offer`` (winner 0 or 1;
    None: a draw)."""
    places = [0, 0] if winner is None else [0 if winner == 0 else 1, 0 if winner == 1 else 1]
    return {"match": match, "game": offer["game"], "players": players or offer["players"],
            "standing": {"teams": [[0], [1]], "places": places},
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
