"""Malformed requests of the kinds a hostile phone sent: each a 4xx with an error, never a 500.

Through Flask's test client and, where header decoding matters, through a
the real server (it hands headers to the app as latin-1 text).
"""

from __future__ import annotations

import json
import socket

import pytest

from tests.web.conftest import PIN, START

DEEP = "[" * 5000 + "]" * 5000


def assert_refused(response, status):
    assert response.status_code == status, (response.status_code, response.get_data()[:200])
    assert response.json["error"]


def test_deeply_nested_json_on_login_is_refused_not_a_crash(client):
    assert_refused(client.post("/api/login", data=DEEP, content_type="application/json"), 401)
    nested_pin = '{"pin": ' + "[" * 900 + "]" * 900 + "}"
    assert_refused(client.post("/api/login", data=nested_pin,
                               content_type="application/json"), 401)


@pytest.mark.parametrize("path", ["/api/match", "/api/action"])
def test_deeply_nested_json_from_the_host_is_400_naming_the_depth(host, path):
    host.post("/api/match", START)
    before = host.client.get("/api/state").json
    response = host.client.post(path, data=DEEP, content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert_refused(response, 400)
    assert "nests deeper than 32 levels" in response.json["error"]
    # Deep, but under the parser's recursion limit: refused the same way.
    options = '{"game": "center-court", "players": ["a", "b"], "options": {"sets": ' \
        + "[" * 900 + "]" * 900 + "}}"
    response = host.client.post(path, data=options, content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert_refused(response, 400)
    assert host.client.get("/api/state").json == before


@pytest.mark.parametrize("last", ["²", "9" * 5000, "-1", "1.5", "٣", str(2**63)])
def test_a_bad_last_event_id_is_400(client, last):
    response = client.get("/api/events", headers={"Last-Event-ID": last})
    try:
        assert_refused(response, 400)
        assert "Last-Event-ID" in response.json["error"]
    finally:
        response.close()  # a stream opened by mistake must not outlive the test


def test_a_good_last_event_id_still_opens_the_stream(client):
    response = client.get("/api/events", headers={"Last-Event-ID": " 0 "})
    try:
        assert response.status_code == 200
    finally:
        response.close()


@pytest.mark.parametrize("token", ["é", "²", "\u202e", "x" * 5000])
def test_a_non_ascii_csrf_token_is_403(host, token):
    response = host.client.post("/api/undo", json={}, headers={"X-CSRF-Token": token})
    assert_refused(response, 403)


@pytest.mark.parametrize("match_id", [2**63, 2**64, 10**40, "9" * 5000])
def test_exporting_an_impossible_match_id_is_404(client, match_id):
    assert_refused(client.get(f"/api/matches/{match_id}/export"), 404)


def raw(port: int, request: bytes) -> tuple[int, dict]:
    """Send raw bytes to the server; its status and JSON body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body) if body.strip() else {}


def test_over_real_http_non_ascii_header_bytes_are_4xx(server):
    port = server.port
    login = json.dumps({"pin": PIN}).encode()
    status, _ = raw(port, b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                          b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                    % (len(login), login))
    assert status == 200
    for name, value in [(b"X-CSRF-Token", "é".encode()), (b"X-CSRF-Token", b"\xff\xfe"),
                        (b"Last-Event-ID", "²".encode())]:
        method = b"GET /api/events" if name == b"Last-Event-ID" else b"POST /api/undo"
        status, body = raw(port, method + b" HTTP/1.1\r\nHost: localhost\r\n"
                                 b"Connection: close\r\nContent-Length: 0\r\n" + name + b": "
                           + value + b"\r\n\r\n")
        assert 400 <= status < 500 and body["error"], (name, value, status, body)


def test_head_requests_do_not_use_up_the_streams(client):
    path = "/api/events"
    for _ in range(10):  # the limit here is 3
        head = client.head(path)
        assert head.status_code == 200 and head.mimetype == "text/event-stream"
        head.close()
    response = client.get(path)
    try:
        assert response.status_code == 200
    finally:
        response.close()


def test_brackets_inside_strings_are_not_nesting(host):
    name = "A" + "[{" * 40  # a name needs a letter (companion/names.py)
    response = host.post("/api/match", {"game": "center-court", "players": [name[:16], "Bob"]})
    assert response.status_code == 200, response.json
    assert response.json["match"]["players"][0] == name[:16]
    escaped = '{"game": "center-court", "players": ["\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", ' \
        '"Bob"]}'
    response = host.client.post("/api/match", data=escaped, content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert response.status_code in (400, 409) and "nests" not in response.json["error"]
