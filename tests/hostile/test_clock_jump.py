"""A Pi without a clock battery sets its clock from the network after it started: years
forward in a moment. The host stays logged in, and a session the jump does make
unreadable says why."""

from __future__ import annotations

import time

from tests.web.conftest import PIN, START, Host
from web.auth import Sessions

YEARS = 25 * 365 * 86400.0


def test_a_wall_clock_jump_keeps_the_host_logged_in(app, client, services, monkeypatch):
    services.sessions = Sessions(PIN)  # the real clock, as in the product
    host = Host(client)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + YEARS)  # NTP answers
    assert host.post("/api/match", START).status_code == 200
    assert client.get("/api/session").json["host"] is True
    monkeypatch.setattr(time, "time", lambda: real() - YEARS)  # and back
    assert host.post("/api/action", {"type": "point", "winner": 0}).status_code == 200
    assert client.get("/api/session").json["host"] is True


def test_a_session_from_before_the_clock_was_set_says_so(app, client, services, clock,
                                                         tmp_path):
    clock.now = 978_307_200.0  # 2001: the Pi's stale time at boot
    services.sessions = Sessions(PIN, tmp_path / "epoch", clock=clock)
    host = Host(client)
    # Restarted once the clock was set: the same epoch file, a clock 25 years on.
    clock.now += YEARS
    services.sessions = Sessions(PIN, tmp_path / "epoch", clock=clock)
    refused = host.post("/api/match", START)
    assert refused.status_code == 403
    assert "clock was set" in refused.json["error"], refused.json
