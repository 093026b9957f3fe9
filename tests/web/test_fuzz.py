"""Fuzzing the API with hypothesis: no 5xx, no crash, no change without a session.

Every route of the app (read from its URL map, so a new route is fuzzed
without a word here) with any method, odd headers, odd path parameters and
bodies of any shape, deeply nested JSON included: through Flask's test client
and, since the server decodes headers differently (as latin-1 bytes), as raw
bytes through the real server.
"""

from __future__ import annotations

import json
import re
import socket
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.config import Config
from app.runtime import Companion, WebOptions
from companion.inputs import BUTTONS
from tests.web.conftest import PIN, START
from web.auth import Lockout

# Any text, lone surrogates included ("\ud800": JSON's escapes carry them, no Unicode text
# holds them); hypothesis leaves category Cs out unless asked, and draws it rarely when
# allowed, so a second strategy draws text made mostly of surrogates.
TEXT = st.text(st.characters(exclude_categories=()), max_size=12) \
    | st.text(st.characters(categories=["Cs"]) | st.sampled_from("a9é😀"), max_size=6)
#: Keys the routes read, so that a drawn value reaches them, or any text.
KEYS = st.sampled_from(["pin", "code", "type", "game", "players", "options", "button"]) | TEXT
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)
# Bodies near the real ones find more than pure noise does.
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["serve", "return", "point", "undo", "smash", ""])},
    optional={"card": st.integers(-1, 8) | TEXT, "roll": JSON,
              "winner": st.integers(-1, 3) | st.booleans(), "count": JSON},
)
STARTS = st.fixed_dictionaries(
    {"game": st.sampled_from(["center-court", "chess", ""]) | JSON},
    optional={"players": st.lists(st.sampled_from(["Ann", "Bob"]) | TEXT, min_size=2,
                                     max_size=4) | JSON,
              "options": st.dictionaries(st.sampled_from(["sets", "no_ad", "final_set",
                                                          "first_server", "x"]), JSON,
                                         max_size=4)},
)
ROUTES = ["/api/match", "/api/action", "/api/undo", "/api/redo", "/api/match/end",
          "/api/login", "/api/logout"]
LOGINS = st.fixed_dictionaries({}, optional={"pin": TEXT | JSON, "code": TEXT | JSON})
REQUESTS = st.tuples(st.sampled_from(ROUTES), JSON | ACTIONS | STARTS,
                     st.sampled_from(["json", "text", "none"]))

FUZZ = settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])


def send(client, route, body, kind, headers):
    if kind == "json":
        return client.post(route, json=body, headers=headers)
    if kind == "text":
        return client.post(route, data=str(body).encode("utf-8", "surrogatepass"),
                           headers={**headers,
                                                            "Content-Type": "text/plain"})
    return client.post(route, headers=headers)


@FUZZ
@given(requests=st.lists(REQUESTS, min_size=1, max_size=8))
def test_without_a_session_nothing_changes(app, requests):
    client = app.test_client()
    before = client.get("/api/state").json
    for route, body, kind in requests:
        if route == "/api/login":
            continue  # a guessed PIN is the lockout's business, tested on its own
        response = send(client, route, body, kind, {"X-CSRF-Token": "guess"})
        assert response.status_code == 403, (route, body, response.status_code)
    assert client.get("/api/state").json == before


@FUZZ
@given(requests=st.lists(REQUESTS, min_size=1, max_size=12))
def test_the_host_gets_no_5xx_whatever_it_sends(app, requests):
    client = app.test_client()
    csrf = client.post("/api/login", json={"pin": PIN}).json["csrf"]
    client.post("/api/match", json=START, headers={"X-CSRF-Token": csrf})
    for route, body, kind in requests:
        if route in ("/api/login", "/api/logout"):
            continue
        before = client.get("/api/state").json
        response = send(client, route, body, kind, {"X-CSRF-Token": csrf})
        assert response.status_code < 500, (route, body, response.json)
        assert response.status_code in (200, 400, 404, 409), (route, body, response.status_code)
        assert "error" in response.json or response.status_code == 200
        if response.status_code != 200:
            assert client.get("/api/state").json == before


@FUZZ
@given(headers=st.dictionaries(
    st.sampled_from(["Host", "Last-Event-ID", "X-CSRF-Token", "Cookie", "Content-Type"]),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30),
    max_size=4), path=st.sampled_from(["/api/state", "/api/history", "/api/games", "/",
                                       "/host", "/history", "/api/session"]))
def test_reads_with_odd_headers_never_fail(app, headers, path):
    response = app.test_client().get(path, headers=headers)
    assert response.status_code in (200, 400), (path, headers, response.status_code)


# --- every route, every method, any header, any body ----------------------------------------


@pytest.fixture(scope="module")
def companion(tmp_path_factory):
    """The whole companion with simulated hardware (so the simulator's routes exist too),
    served by the real server on a free port."""
    with Companion(Config(), sim=True, data=tmp_path_factory.mktemp("fuzz"),
                   web=WebOptions(host="127.0.0.1", port=0, pin=PIN)) as c:
        yield c


ODD = ["²", "٣", "9" * 5000, str(2**63), str(2**64), "-1", "0", "1.5", "null", "", " ", "é",
       "\u202e", "[::1", "http://evil.example", "http://localhost", "cross-site",
       "same-origin", "application/json", "application/json; charset=latin-1", "text/plain",
       "multipart/form-data; boundary=x", "companion_host=garbage", "companion_host=.e30.x.y"]
HEADER_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\0"),
                      max_size=30)
HEADERS = st.dictionaries(
    st.sampled_from(["Host", "Last-Event-ID", "X-CSRF-Token", "Origin", "Cookie",
                     "Content-Type", "Sec-Fetch-Site", "Idempotency-Key", "X-Table-Version",
                     "Accept"]),
    st.sampled_from(ODD) | HEADER_TEXT, max_size=4)
SEGMENT = (st.integers(-2**70, 2**70).map(str) | st.sampled_from(ODD) | TEXT
           ).map(lambda s: quote(s, safe="", errors="surrogatepass"))
# Half of them the methods the routes take, so the fuzz gets past the 405s.
METHODS = st.sampled_from(["GET", "POST"]) \
    | st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
DEEP = st.integers(30, 6000).map(lambda n: "[" * n + "]" * n) \
    | st.integers(30, 3000).map(lambda n: '{"pin": ' + "[" * n + "]" * n + "}")
SIM = st.fixed_dictionaries({"button": st.sampled_from([*BUTTONS, "x"]) | JSON},
                            optional={"hold": st.just(False) | JSON})
# As JSON's escapes ("\\ud800") and as the raw UTF-8 bytes of a surrogate (ED A0 80).
BODIES = (JSON | ACTIONS | STARTS | SIM | LOGINS).map(json.dumps) \
    | (JSON | ACTIONS | STARTS | LOGINS).map(
        lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")) \
    | DEEP | st.binary(max_size=40)


def routes(app) -> list[str]:
    return sorted(rule.rule for rule in app.url_map.iter_rules())


def fill(rule: str, draw) -> str:
    """The rule's path with every parameter replaced by a drawn segment."""
    return re.sub(r"<[^>]*>", lambda _: draw(SEGMENT), rule)


def check(method: str, response) -> None:
    try:
        assert response.status_code < 500, (method, response.status_code, response.get_data())
        if response.status_code >= 400 and method != "HEAD":
            assert response.json["error"], response.get_data()
    finally:
        response.close()  # a stream opened by a GET must not hold its place


FUZZ_ALL = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@FUZZ_ALL
@given(data=st.data(), as_host=st.booleans())
def test_every_route_any_method_headers_and_body_no_5xx(companion, data, as_host):
    app = companion.app
    # A fresh wrong-PIN budget each time, or the fuzz's wrong PINs lock the login
    # route after a few examples and the rest never reach its body.
    app.extensions["companion"].lockout = Lockout()
    client = app.test_client()
    headers: dict[str, str] = {}
    if as_host:
        login = client.post("/api/login", json={"pin": PIN},
                            environ_base={"REMOTE_ADDR": "10.1.1.1"})
        assert login.status_code == 200
        headers["X-CSRF-Token"] = login.json["csrf"]
    for _ in range(data.draw(st.integers(1, 4))):
        rule = data.draw(st.sampled_from(routes(app)))
        method = data.draw(METHODS)
        odd = {**headers, **data.draw(HEADERS)}
        body = data.draw(BODIES)
        response = client.open(fill(rule, data.draw), method=method, headers=odd, data=body,
                               content_type=odd.pop("Content-Type", "application/json"),
                               environ_base={"REMOTE_ADDR": "10.2.2.2"})
        check(method, response)


#: A body with any of the fields the routes read, each any text or any JSON.
FIELDS = st.fixed_dictionaries({}, optional={
    key: TEXT | JSON for key in ("pin", "code", "type", "game", "players", "options", "button",
                                 "hold", "winner", "card")})


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), as_host=st.booleans())
def test_any_text_in_any_field_of_every_route_no_5xx(companion, data, as_host):
    """Every route and method of the URL map (a new route is in it by itself), each with
    a body whose fields are any text (lone surrogates too) or any JSON, sent as JSON's
    escapes or as raw UTF-8 bytes; logged in and not."""
    app = companion.app
    app.extensions["companion"].lockout = Lockout()  # every body reaches the login's parser
    client = app.test_client()
    headers: dict[str, str] = {}
    if as_host:
        login = client.post("/api/login", json={"pin": PIN},
                            environ_base={"REMOTE_ADDR": "10.1.1.1"})
        headers["X-CSRF-Token"] = login.json["csrf"]
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            body = data.draw(FIELDS)
            raw = json.dumps(body) if data.draw(st.booleans()) else \
                json.dumps(body, ensure_ascii=False).encode("utf-8", "surrogatepass")
            response = client.open(fill(rule.rule, data.draw), method=method, headers=headers,
                                   data=raw, content_type="application/json",
                                   environ_base={"REMOTE_ADDR": "10.3.3.3"})
            check(method, response)


def test_the_fuzz_reaches_every_route(companion):
    rules = routes(companion.app)
    # The reads, the host's changes and the simulator's routes are all in the map it samples.
    for route in ("/api/events", "/api/login", "/api/match", "/api/sim/button",
                  "/api/matches/<whole(max=9223372036854775807):match_id>/export",
                  "/api/matches/<whole(max=9223372036854775807):match_id>/timeline",
                  "/api/timeline", "/"):
        assert route in rules


def raw_status(port: int, request: bytes) -> tuple[int, bytes, bytes]:
    """Send raw bytes to the server; the status, the head and the body (up to 64 KB, 5 s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or not is_stream(data):
            try:
                chunk = s.recv(65536)
            except (TimeoutError, ConnectionResetError):
                # A reset: the server answered before reading a body the route did not
                # want, and closed with it unread; what arrived before is the answer.
                break
            if not chunk:
                break
            data += chunk
            if len(data) > 65536:
                break
    head, _, body = data.partition(b"\r\n\r\n")
    return (int(head.split()[1]) if head else 0), head, body


def is_stream(data: bytes) -> bool:
    return b"text/event-stream" in data.partition(b"\r\n\r\n")[0]


RAW_VALUE = st.binary(max_size=30).filter(lambda b: not set(b) & set(b"\r\n\0")) \
    | st.sampled_from(ODD).map(lambda s: s.encode())


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_raw_bytes_through_the_server_no_5xx(companion, data):
    rule = data.draw(st.sampled_from(routes(companion.app)))
    method = data.draw(METHODS).encode()
    headers = data.draw(st.dictionaries(
        st.sampled_from([b"Last-Event-ID", b"X-CSRF-Token", b"Origin", b"Cookie",
                         b"Content-Type", b"Sec-Fetch-Site", b"Idempotency-Key",
                         b"X-Table-Version", b"Host"]),
        RAW_VALUE, max_size=4))
    headers.setdefault(b"Host", b"localhost")
    body = data.draw(BODIES)
    body = body.encode() if isinstance(body, str) else body
    request = (method + b" " + fill(rule, data.draw).encode() + b" HTTP/1.1\r\n"
               + b"".join(k + b": " + v + b"\r\n" for k, v in headers.items())
               + b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    status, head, answer = raw_status(companion.server.port, request)
    assert status < 500, (request[:300], head, answer[:300])
    if status >= 400 and b"application/json" in head and method != b"HEAD":
        assert json.loads(answer)["error"]
