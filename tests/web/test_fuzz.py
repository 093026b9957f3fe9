"""Fuzzing the API with hypothesis: no 5xx, no crash, no change without a session."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import PIN, START

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12,
)
# Bodies near the real ones find more than pure noise does.
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["serve", "return", "point", "undo", "smash", ""])},
    optional={"card": st.integers(-1, 8) | st.text(max_size=2), "roll": JSON,
              "winner": st.integers(-1, 3) | st.booleans(), "count": JSON},
)
STARTS = st.fixed_dictionaries(
    {"game": st.sampled_from(["center-court", "chess", ""]) | JSON},
    optional={"players": st.lists(st.text(max_size=20), max_size=4) | JSON,
              "options": st.dictionaries(st.sampled_from(["sets", "no_ad", "final_set",
                                                          "first_server", "x"]), JSON,
                                         max_size=4)},
)
ROUTES = ["/api/match", "/api/action", "/api/undo", "/api/redo", "/api/match/end",
          "/api/login", "/api/logout"]
REQUESTS = st.tuples(st.sampled_from(ROUTES), JSON | ACTIONS | STARTS,
                     st.sampled_from(["json", "text", "none"]))

FUZZ = settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])


def send(client, route, body, kind, headers):
    if kind == "json":
        return client.post(route, json=body, headers=headers)
    if kind == "text":
        return client.post(route, data=str(body), headers={**headers,
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
        assert response.status_code in (200, 400, 409), (route, body, response.status_code)
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
