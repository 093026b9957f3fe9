"""Odd HTTP shapes: what each gets from the server (docs/api.md, HTTP API).

A chunk size that overflows, an absolute-form target naming another site and
``Expect: 100-continue`` with a body past the limit were once left hanging
until the request timeout, answered 200, or told to send the body anyway.
What the server cannot tell from the bytes (a request line without a version,
a chunk line that never ends in CRLF, a body shorter than its length) once
ended with the connection at the timeouts without a word; it is answered 408
with a message then, holding nothing meanwhile, while a keep-alive connection
on which nothing more came is closed without one (docs/design.md, The web
edge).
"""

from __future__ import annotations

import time

import pytest

from tests.hostile.test_web_server import (
    LIMITS,
    answer,
    closed_by_server,
    connect,
    json_error,
    serve,
)
from tests.web.conftest import app, clock, runner, services  # noqa: F401 (fixtures)

#: An answer the server makes from the bytes alone comes well within this (seconds);
#: LIMITS' timeouts are 1 s (body) and 2 s (headers).
PROMPT = 0.9


@pytest.fixture
def server(app):  # noqa: F811
    yield from serve(app, LIMITS)


def exchange(port: int, data: bytes) -> tuple[int, dict[str, str], bytes, float]:
    """Send ``data``; the answer and how long it took."""
    with connect(port, timeout=8) as sock:
        started = time.monotonic()
        sock.sendall(data)
        status, headers, body = answer(sock)
        return status, headers, body, time.monotonic() - started


def test_a_chunk_size_that_overflows_is_refused_at_once(server):
    status, _, _, took = exchange(
        server.port, b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\r\n")
    assert status == 400
    assert took < PROMPT, f"answered after {took:.1f} s"


def test_a_request_line_ending_in_a_bare_lf_is_served(server):
    status, _, body, took = exchange(
        server.port, b"GET /api/state HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n")
    assert status == 200 and b'"version"' in body
    assert took < PROMPT


@pytest.mark.parametrize("data", [
    b"GET /api/state\r\n",  # HTTP/0.9: no version, no headers
    b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"5\nhello\n",  # a chunk line that never ends in CRLF
    b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"pin\": ",  # short body
], ids=["http-0.9", "chunk-line-bare-lf", "short-body"])
def test_a_request_that_never_completes_is_answered_408_at_the_timeouts(server, data):
    with connect(server.port, timeout=8) as sock:
        sock.sendall(data)
        status, headers, body = answer(sock)
        assert status == 408
        assert "did not all arrive within" in json_error(status, headers, body)
        assert headers["connection"] == "close"
        assert closed_by_server(sock)


def test_a_next_request_cut_short_on_a_kept_connection_is_answered_408(server):
    with connect(server.port, timeout=8) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer(sock)[0] == 200
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line
        status, headers, body = answer(sock)
        assert status == 408
        assert "request line and headers" in json_error(status, headers, body)


def test_a_kept_connection_has_its_whole_time_after_each_answer(server):
    """The time for a next request runs from the last answer, however long the
    connection has been open: busy past the first idle_timeout (2 s), it is still
    served; a request cut short then is answered 408 only at its own time, and the
    connection left idle after is closed only at its own."""
    with connect(server.port, timeout=8) as sock:
        opened = time.monotonic()
        while time.monotonic() - opened < 3.0:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert answer(sock)[0] == 200
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line
        cut_short = time.monotonic()
        status, _, _ = answer(sock)
        assert status == 408
        assert time.monotonic() - cut_short > 1.8  # its own 2 s, not the connection's
    with connect(server.port, timeout=8) as sock:
        opened = time.monotonic()
        while time.monotonic() - opened < 3.0:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert answer(sock)[0] == 200
        answered = time.monotonic()
        assert sock.recv(4096) == b""
        assert time.monotonic() - answered > 1.8


def test_a_kept_connection_left_idle_is_closed_without_an_answer(server):
    """An answer there would be read as the answer to the client's next request."""
    with connect(server.port, timeout=8) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer(sock)[0] == 200
        assert sock.recv(4096) == b""  # closed at idle_timeout, nothing said


@pytest.mark.parametrize("target", [b"/api/state?x=\xff\xfe", b"/api/players/\xc3\xa9",
                                    b"/\xed\xa0\x80"])
def test_raw_bytes_past_ascii_in_the_target_are_a_json_400(server, target):
    """Tornado reads the request line as Latin-1; such a target reached the app as text
    no URL decodes, and werkzeug's query parsing answered 500."""
    status, headers, body, _ = exchange(
        server.port, b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status == 400
    assert "not a URI" in json_error(status, headers, body)


def test_an_absolute_target_naming_another_site_is_not_served(server):
    status, _, body, _ = exchange(
        server.port, b"GET http://evil.example/api/state HTTP/1.1\r\nHost: localhost\r\n"
        b"Connection: close\r\n\r\n")
    assert status in (400, 404), (status, body)
    assert b'"version"' not in body


def test_expect_100_continue_past_the_body_limit_gets_413_not_continue(server):
    with connect(server.port, timeout=5) as sock:
        sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1000000\r\n"
                     b"Expect: 100-continue\r\n\r\n")
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    assert data.startswith(b"HTTP/1.1 413"), data
    assert b" 100 " not in data.partition(b"\r\n")[0]
    assert b"at most 16384 bytes" in data


def test_expect_100_continue_within_the_limit_is_told_to_go_on(server):
    body = b'{"pin": "0000"}'
    with connect(server.port, timeout=5) as sock:
        sock.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Expect: 100-continue\r\nConnection: close\r\n\r\n" % len(body))
        interim = sock.recv(4096)
        assert interim.startswith(b"HTTP/1.1 100 ")
        sock.sendall(body)
        data = interim.partition(b"\r\n\r\n")[2]
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    assert data.startswith(b"HTTP/1.1 401"), data  # a wrong PIN, read whole


@pytest.mark.parametrize("head", [
    b"GET /api/history HTTP/1.1\r\n",  # no Host at all
    b"GET /api/state HTTP/1.1\r\n",  # no Host, a read made at once
    b"GET /api/history HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n",  # two
    b"GET /api/history HTTP/1.1\r\nHost: evil@127.0.0.1\r\n",  # not a name and port
    b"POST /api/action HTTP/1.1\r\nContent-Length: 0\r\n",  # a change without a Host
], ids=["missing", "missing-at-once", "twice", "malformed", "post-missing"])
def test_a_request_without_one_good_host_is_a_json_400_and_closed(server, head):
    """Tornado refuses such a request as it makes it; on a worker that refusal was lost
    and the connection held, unanswered, until the client hung up (RFC 9112 3.2: 400)."""
    with connect(server.port, timeout=PROMPT) as sock:
        sock.sendall(head + b"\r\n")
        status, headers, body = answer(sock)
        assert status == 400
        assert "Host" in json_error(status, headers, body)
        assert headers["x-content-type-options"] == "nosniff"  # refusals carry them too
        assert closed_by_server(sock)  # at once: within PROMPT, short of the idle time


def test_a_query_of_too_many_fields_is_a_json_400(server):
    query = b"&".join(b"a=%d" % i for i in range(1001))
    status, headers, body, _ = exchange(
        server.port, b"GET /api/history?" + query + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status == 400
    assert "query" in json_error(status, headers, body)


def test_a_content_length_of_thousands_of_digits_is_413(server):
    """int() refuses a number of more than 4,300 digits: the server's own check raised
    and the connection closed without an answer."""
    status, headers, body, took = exchange(
        server.port, b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
        + b"9" * 5000 + b"\r\n\r\n")
    assert status == 413
    assert "too large" in json_error(status, headers, body)
    assert took < PROMPT
