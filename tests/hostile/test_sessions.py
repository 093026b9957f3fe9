"""Host sessions end when they should: at logout (everywhere), with a new PIN, when idle;
and a change made by another site's page is refused even with a valid session."""

from __future__ import annotations

import pytest
from flask.sessions import SecureCookieSessionInterface

from app.config import Config
from app.runtime import Companion, WebOptions
from tests.web.conftest import PIN, START, Host
from tests.web.test_server import HttpHost
from web.auth import IDLE_LIMIT, Sessions


def test_logout_ends_every_session_not_only_this_browsers(app, client):
    phone, tablet = Host(client), Host(app.test_client())
    assert phone.post("/api/logout").status_code == 200
    refused = tablet.post("/api/match", START)
    assert refused.status_code == 403 and "ended" in refused.json["error"]
    assert tablet.client.get("/api/session").json == {"host": False, "csrf": None}
    # A stolen copy of the phone's cookie from before the logout is no better.
    assert Host(app.test_client()).post("/api/match", START).status_code == 200


def test_a_session_expires_when_idle(client, services, clock):
    services.sessions = Sessions(PIN, clock=clock)
    host = Host(client)
    # Used every three hours all evening: still the host.
    for _ in range(3):
        clock.now += IDLE_LIMIT - 3600
        assert host.post("/api/undo").status_code == 409  # nothing to undo, but allowed
    clock.now += IDLE_LIMIT + 1
    refused = host.post("/api/match", START)
    assert refused.status_code == 403 and "expired" in refused.json["error"]
    assert client.get("/api/session").json["host"] is False


def test_a_new_signing_key_is_taken_at_once(app, client):
    """The session's signer is made once for the app's key (web/auth.py), not once per
    request: a key changed under it must still be the one that signs and checks."""
    old_key = app.secret_key
    host = Host(client)
    assert host.post("/api/match", START).status_code == 200
    app.secret_key = b"n" * 32
    point = {"type": "point", "winner": 0}
    # Signed with the old key: not the host's any more.
    assert host.post("/api/action", point).status_code == 403
    assert client.get("/api/session").json["host"] is False
    # Signed with the new key (Flask's own signer for it reads the cookie), and
    # checked with it.
    assert Host(client).post("/api/action", point).status_code == 200
    cookie = client.get_cookie(app.session_interface.get_cookie_name(app))
    assert SecureCookieSessionInterface().get_signing_serializer(app).loads(cookie.value)["host"]
    app.secret_key = old_key
    assert Host(app.test_client()).post("/api/action", point).status_code == 200


def served(tmp_path, pin):
    return Companion(Config(), sim=True, data=tmp_path,
                     web=WebOptions(host="127.0.0.1", port=0, pin=pin))


def test_a_restart_with_a_new_pin_ends_the_old_sessions(tmp_path):
    with served(tmp_path, PIN) as first:
        old = HttpHost(first.server.port)
    with served(tmp_path, PIN) as same_pin:
        old.port = same_pin.server.port
        assert old.post("/api/match", START)[0] == 200  # a restart alone keeps the host
    with served(tmp_path, "97531") as new_pin:
        old.port = new_pin.server.port
        status, _, body = old.post("/api/match/end")
        assert status == 403 and "log in" in body["error"]
        assert old.request("GET", "/api/session", headers={"Cookie": old.cookie})[2]["host"] \
            is False


def test_a_logout_holds_across_a_restart(tmp_path):
    with served(tmp_path, PIN) as first:
        kept, leaving = HttpHost(first.server.port), HttpHost(first.server.port)
        assert leaving.post("/api/logout")[0] == 200
    with served(tmp_path, PIN) as second:
        kept.port = second.server.port
        assert kept.post("/api/match", START)[0] == 403


@pytest.mark.parametrize(("headers", "allowed"), [
    ({"Origin": "http://evil.example"}, False),
    ({"Origin": "null"}, False),
    ({"Origin": "http://localhost:9"}, False),  # another port is another origin
    ({"Origin": "https://localhost"}, False),  # another scheme too (RFC 6454)
    ({"Origin": "chrome-extension://localhost"}, False),
    ({"Sec-Fetch-Site": "cross-site"}, False),
    ({"Sec-Fetch-Site": "same-site"}, False),
    ({"Origin": "http://localhost"}, True),
    ({"Origin": "http://LOCALHOST", "Sec-Fetch-Site": "same-origin"}, True),
    ({}, True),  # curl, scripts: no browser page can make a request without Origin
])
def test_changes_from_another_sites_page_are_refused(host, headers, allowed):
    response = host.client.post("/api/match", json=START,
                                headers={"X-CSRF-Token": host.csrf, **headers})
    if allowed:
        assert response.status_code == 200
    else:
        assert response.status_code == 403 and "another site" in response.json["error"]
        assert host.client.get("/api/state").json["match"] is None


def test_a_cross_site_login_is_refused_too(client):
    response = client.post("/api/login", json={"pin": PIN},
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and "another site" in response.json["error"]
    assert client.get("/api/session").json["host"] is False




def test_a_damaged_session_epoch_file_ends_the_sessions_not_the_start(tmp_path):
    with served(tmp_path, PIN) as first:
        old = HttpHost(first.server.port)
    (tmp_path / "host_sessions").write_bytes(b"\x00garbage")
    with served(tmp_path, PIN) as second:
        old.port = second.server.port
        assert old.post("/api/match", START)[0] == 403
        assert HttpHost(second.server.port).post("/api/match", START)[0] == 200
