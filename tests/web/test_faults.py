"""A fault of the companion's own while a host's request is handled is never silent:
the host's phone is an input lane like the buttons (tests/test_panel_faults.py). The
fault is logged with the request that met it, body and all but its secrets; the answer
is a 500 with an error; the next request is served as usual."""

from __future__ import annotations

import logging

from companion.table import Table
from tests.web.conftest import START


def test_a_fault_in_a_host_request_is_logged_with_its_body_and_the_table_goes_on(
        host, client, monkeypatch, caplog):
    """The host's phone is an input lane too: a fault while its request is handled is
    logged with what it asked (the action itself, secrets masked), answered 500, and
    the next request is served as usual."""
    assert host.post("/api/match", START).status_code == 200

    def broken(table: Table, action: dict) -> None:
        raise RuntimeError("a bug in act")

    monkeypatch.setattr(Table, "act", broken)
    with caplog.at_level(logging.ERROR, logger="web.guard"):
        answer = host.post("/api/action", {"type": "point", "winner": 1})
    assert answer.status_code == 500 and "/api/state" in answer.json["error"]
    (record,) = [r for r in caplog.records if r.name == "web.guard"]
    message = record.getMessage()
    assert "POST /api/action" in message and '"winner": 1' in message, message
    assert record.exc_info is not None and "a bug in act" in str(record.exc_info[1])
    monkeypatch.undo()
    assert host.post("/api/action", {"type": "point", "winner": 1}).status_code == 200
    assert client.get("/api/state").json["match"]["view"]["points"] == ["0", "15"]


def test_a_logged_body_never_shows_a_pin(client, monkeypatch, caplog):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the login")

    monkeypatch.setattr("web.api.pin_login", broken)
    with caplog.at_level(logging.ERROR, logger="web.guard"):
        assert client.post("/api/login", json={"pin": "24681357"}).status_code == 500
    (record,) = [r for r in caplog.records if r.name == "web.guard"]
    assert '"pin": "***"' in record.getMessage() and "24681357" not in record.getMessage()


def test_a_body_nested_past_what_json_parses_is_logged_as_bytes(host, monkeypatch, caplog):
    """The log line of a fault never fails itself: a body of 10,000 brackets is logged
    as its first bytes."""
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in reading the action")

    monkeypatch.setattr("web.api.json_body", broken)
    nested = b"[" * 10_000
    with caplog.at_level(logging.ERROR, logger="web.guard"):
        answer = host.client.post("/api/action", data=nested, content_type="application/json",
                                  headers={"X-CSRF-Token": host.csrf})
    assert answer.status_code == 500 and "error" in answer.json
    (record,) = [r for r in caplog.records if r.name == "web.guard"]
    assert "b'[[[[" in record.getMessage()
