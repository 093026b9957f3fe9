"""Lone surrogates (``"\\ud800"``: half a UTF-16 pair, which JSON's escapes can carry but
no Unicode text holds) and JSON's non-values, from anyone: a 400 naming the field, never
a 500, nothing applied, nothing in the log but what a refusal writes."""

from __future__ import annotations

import json
import logging
import socket

import pytest

from tests.web.conftest import PIN, START


def assert_not_text(response, field: str) -> None:
    assert response.status_code == 400, (response.status_code, response.get_data()[:300])
    message = response.json["error"]
    assert field in message and "lone surrogate" in message, message


def test_a_surrogate_pin_is_400_not_a_500_with_a_traceback(client, caplog):
    with caplog.at_level(logging.INFO):
        for _ in range(20):
            response = client.post("/api/login", data='{"pin": "\\ud800"}',
                                   content_type="application/json")
            assert_not_text(response, "'pin'")
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    # Not counted as a wrong PIN (it guesses nothing): the right PIN still logs in.
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/match", {**START, "players": ["Ann", "B\ud800b"]}, "'players[1]'"),
    ("/api/match", {**START, "game": "\udfff"}, "'game'"),
    ("/api/match", {**START, "options": {"sets\ud800": 1}}, "in 'options'"),
    ("/api/action", {"type": "point", "winner": "\ud83d"}, "'winner'"),
    ("/api/action", {"type": "\ud800"}, "'type'"),
])
def test_surrogates_in_host_requests_are_400_naming_the_field(host, path, body, field):
    if path == "/api/action":
        assert host.post("/api/match", START).status_code == 200
    before = host.client.get("/api/state").json
    # json.dumps escapes them as \ud800, as a hostile client's JSON would.
    response = host.client.post(path, data=json.dumps(body), content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert_not_text(response, field)
    assert host.client.get("/api/state").json == before


def test_a_whole_emoji_is_text_and_goes_through(host):
    players = ["Ann \ud83d\ude00", "Bob"]  # a surrogate pair: one character, 😀
    response = host.client.post("/api/match", data=json.dumps({**START, "players": players}),
                                content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert response.status_code == 200, response.json
    assert response.json["match"]["players"][0] == "Ann 😀"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_non_values_are_refused(host, constant):
    assert host.post("/api/match", START).status_code == 200
    response = host.client.post("/api/action", data=f'{{"type": "point", "winner": {constant}}}',
                                content_type="application/json",
                                headers={"X-CSRF-Token": host.csrf})
    assert response.status_code == 400 and constant.lstrip("-") in response.json["error"]


def test_encoded_surrogates_in_raw_bytes_through_the_server(server):
    """UTF-8 bytes ED A0 80 (a surrogate encoded, which Python's JSON decoder passes)."""
    body = b'{"pin": "\xed\xa0\x80"}'
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                  b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                  % (len(body), body))
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, text = answer.partition(b"\r\n\r\n")
    assert head.split()[1] == b"400", answer[:300]
    assert "lone surrogate" in json.loads(text)["error"]
