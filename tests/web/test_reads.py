"""Reads never stall play, and every read is bounded and cheap (issue 22).

Through the real app (and the real server where several clients
or a stuck commit are the point): reads answer while a commit waits for the
database, the history pages with cursors that stay put when matches are
added, searches on the server, answers 304 to an unchanged ETag and gzip to
a client that takes it, and readers past their bound get a clear 429 or 503
with Retry-After while the host plays on.
"""

from __future__ import annotations

import gzip
import http.client
import json
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import web.reads
from tests.web.conftest import START
from tests.web.test_server import HttpHost, wait_until


def get(port: int, path: str, source: str = "127.0.0.1", headers: dict | None = None):
    """(status, headers, body bytes) of a GET from ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(source, 0))
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def matches(host, *players: tuple[str, str], points: int = 0) -> None:
    """One match per pair of players: started, ``points`` played (deuce after deuce), ended."""
    for pair in players:
        assert host.post("/api/match", {**START, "players": list(pair)}).status_code == 200
        for i in range(points):
            assert host.post("/api/action", {"type": "point", "winner": i % 2}).status_code == 200
        assert host.post("/api/match/end").status_code == 200


# --- no read waits on the writer ---------------------------------------------------------


def test_reads_answer_while_a_commit_waits_for_the_database(server, runner, tmp_path):
    host = HttpHost(server.port)
    assert host.post("/api/match", START)[0] == 200
    assert host.post("/api/action", {"type": "point", "winner": 0})[0] == 200
    # Another program holds the database's write lock: the next commit waits for it
    # (SQLite's busy timeout), inside the store, as on a stalled SD card.
    blocker = sqlite3.connect(tmp_path / "companion.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    with ThreadPoolExecutor(1) as pool:
        try:
            point = pool.submit(host.post, "/api/action", {"type": "point", "winner": 0})
            wait_until(lambda: runner.stalled(0.3))  # the writer is inside that commit
            # Nothing read yet: each of these reads the database, beside the commit.
            for path in ("/api/history", "/api/matches/1", "/api/matches/1/timeline",
                         "/api/matches/1/export", "/api/rematch", "/api/timeline"):
                status, _, body = get(server.port, path)
                assert status == 200, (path, body)
                assert not point.done(), f"{path} was answered only after the commit"
            assert json.loads(get(server.port, "/api/history")[2])[0]["plays"] == 1
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert point.result(20)[0] == 200
    assert json.loads(get(server.port, "/api/history")[2])[0]["plays"] == 2


# --- paged, searched, cached -------------------------------------------------------------


def ids(response) -> list[int]:
    return [m["id"] for m in response.json]


def next_page(response) -> str | None:
    link = response.headers.get("Link")
    if link is None:
        return None
    assert link.endswith('>; rel="next"')
    return link[1:link.index(">")]


def test_history_pages_with_cursors_that_stay_put_when_matches_are_added(client, host):
    matches(host, *[(f"Ann {i}", f"Bob {i}") for i in range(7)])
    whole = client.get("/api/history")
    assert ids(whole) == [7, 6, 5, 4, 3, 2, 1] and "Link" not in whole.headers
    first = client.get("/api/history?limit=3")
    assert ids(first) == [7, 6, 5] and first.json == whole.json[:3]  # the same rows
    second_page = next_page(first)
    assert second_page == "/api/history?before=5&limit=3"
    matches(host, ("Cy", "Di"), ("Eve", "Fay"))  # new matches meanwhile
    second = client.get(second_page)
    assert ids(second) == [4, 3, 2]  # the cursor did not move with them
    last = client.get(next_page(second))
    assert ids(last) == [1] and next_page(last) is None
    # What is new since the newest one the page has, and only that.
    assert ids(client.get("/api/history?after=7")) == [9, 8]
    assert ids(client.get("/api/history?after=7&before=9")) == [8]


def test_history_searches_player_names_and_games_on_the_server(client, host):
    matches(host, ("Ann", "Bob"), ("Zoë", "Bob"), ("Cy", "Zoë"), ("Ann", "Cy"))
    assert ids(client.get("/api/history?q=zoë")) == [3, 2]
    assert ids(client.get("/api/history?q=ZOË")) == [3, 2]  # any case
    assert ids(client.get("/api/history?q=ann+cy")) == [4]  # every word
    assert ids(client.get("/api/history?q=center+court")) == [4, 3, 2, 1]  # the game's title
    assert client.get("/api/history?q=nobody").json == []
    page = client.get("/api/history?q=bob&limit=1")
    assert ids(page) == [2] and next_page(page) == "/api/history?before=2&q=bob&limit=1"
    assert ids(client.get(next_page(page))) == [1]


def test_history_search_matches_names_as_unicode_text(client, host):
    """"ÖZIL" finds "özil"; "Zoë" typed with a combining diaeresis finds the one typed
    composed (and the other way round)."""
    matches(host, ("özil", "Bob"), ("Zoe\u0308", "Ann"), ("Cy", "Di"))
    assert ids(client.get("/api/history?q=%C3%96ZIL")) == [1]  # ÖZIL
    assert ids(client.get("/api/history?q=Zo%C3%AB")) == [2]  # composed ë
    assert ids(client.get("/api/history?q=zoe%CC%88")) == [2]  # e + combining diaeresis


@pytest.mark.parametrize("query", ["limit=0", "limit=501", "limit=x", "before=-1",
                                   "after=1.5", "before=" + "9" * 30, "q=" + "a" * 101])
def test_a_malformed_history_request_is_a_clear_400(client, query):
    response = client.get(f"/api/history?{query}")
    assert response.status_code == 400 and response.json["error"]


def test_an_unchanged_answer_is_a_304_and_a_changed_one_is_sent(client, host):
    matches(host, ("Ann", "Bob"), points=3)
    for path in ("/api/history", "/api/history?limit=5", "/api/matches/1",
                 "/api/matches/1/timeline", "/api/matches/1/export", "/api/rematch"):
        first = client.get(path)
        tag = first.headers["ETag"]
        assert first.status_code == 200 and tag.startswith('"'), path
        again = client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    tag = client.get("/api/history").headers["ETag"]
    matches(host, ("Cy", "Di"))
    changed = client.get("/api/history", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert ids(changed) == [2, 1]


def test_answers_are_gzip_compressed_for_a_client_that_accepts_it(client, host):
    matches(host, ("Ann", "Bob"), points=40)
    matches(host, *[(f"Ann {i}", f"Bob {i}") for i in range(7)])
    for path in ("/api/history", "/api/history?limit=6", "/api/matches/1/export"):
        plain = client.get(path)
        assert "Content-Encoding" not in plain.headers and len(plain.data) >= 1024, path
        packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate"})
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(packed.data) == plain.data
        assert len(packed.data) < len(plain.data)
        # Its own tag: a cache holding the plain body is not told the packed one is it.
        assert packed.headers["ETag"] != plain.headers["ETag"]
        again = client.get(path, headers={"Accept-Encoding": "gzip",
                                          "If-None-Match": packed.headers["ETag"]})
        assert again.status_code == 304
    small = client.get("/api/rematch", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers  # not worth it under 1 KB


OPS = st.lists(st.sampled_from(["start", "point", "undo", "redo", "end", "forget"]),
               max_size=14)


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_the_history_kept_in_memory_is_the_stored_history_after_any_changes(client, host,
                                                                             runner, app, ops):
    for op in ops:
        if op == "forget":  # what was kept let go (no read for a while): made again alike
            app.extensions["companion.reads"].forget()
        elif op == "start":
            host.post("/api/match", START)
        elif op == "point":
            host.post("/api/action", {"type": "point", "winner": 0})
        else:
            host.post(f"/api/{'match/end' if op == 'end' else op}")
        stored = [m.to_json() for m in runner.table.history()]
        assert client.get("/api/history").json == stored
        assert client.get("/api/history?limit=2").json == stored[:2]
        assert client.get("/api/history?q=bob").json == stored  # searched as kept
        if stored:  # a page below the newest, cut from the rows as kept
            below = client.get(f"/api/history?before={stored[0]['id']}&limit=2")
            assert below.json == stored[1:3]


def test_what_is_kept_is_let_go_once_the_reads_stop_and_made_again_alike(client, host, app):
    # A burst of readers leaves the table's memory as it was: once no one has read for a
    # while, the history and the answers kept are let go; the next reader gets the same.
    reads = app.extensions["companion.reads"]
    reads.forget_after = 0.3
    matches(host, ("Łukasz", "Σοφία"), ("Ольга", "李小龙"), points=5)
    paths = ("/api/history", "/api/history?limit=1", "/api/history?q=ольга", "/api/rematch",
             "/api/matches/1", "/api/matches/2/timeline", "/api/matches/1/export")
    before = {p: client.get(p, headers={"Accept-Encoding": "gzip"}) for p in paths}
    assert all(r.status_code == 200 for r in before.values()) and reads.holds()
    wait_until(lambda: not reads.holds(), timeout=60)
    for p in paths:
        again = client.get(p, headers={"Accept-Encoding": "gzip"})
        assert (again.status_code, again.data, again.headers["ETag"]) == (
            200, before[p].data, before[p].headers["ETag"]), p
    assert reads.holds()
    # Made again from the store, it is brought up to date as before.
    matches(host, ("דוד", "Ann"))
    assert ids(client.get("/api/history")) == [3, 2, 1]


# --- bounded ------------------------------------------------------------------------------


def test_readers_past_their_bound_are_refused_at_once_while_the_host_plays(server, app,
                                                                           monkeypatch):
    host = HttpHost(server.port)
    assert host.post("/api/match", START)[0] == 200
    gate = app.wsgi_app
    gate.running, gate.waiting, gate.per_address = 1, 0, 1
    # A read that takes its time: replaying a long match on a slow card, say.
    entered, release = threading.Event(), threading.Event()
    real = web.reads.replay_stored

    def slow(stored, catalog):
        entered.set()
        release.wait(20)
        return real(stored, catalog)

    monkeypatch.setattr(web.reads, "replay_stored", slow)
    with ThreadPoolExecutor(1) as pool:
        try:
            held = pool.submit(get, server.port, "/api/matches/1")
            assert entered.wait(10)
            # The same address again: its share is taken (429, naming it).
            status, headers, body = get(server.port, "/api/history")
            assert status == 429 and headers["Retry-After"] == "1"
            assert "127.0.0.1" in json.loads(body)["error"]
            assert headers["X-Content-Type-Options"] == "nosniff"  # made outside Flask
            # Another address: every place is taken (503).
            status, headers, body = get(server.port, "/api/history", source="127.0.0.2")
            assert status == 503 and headers["Retry-After"] == "1"
            assert "busy" in json.loads(body)["error"]
            # Play is not a read: the host's point and the phones' state go through.
            status, _, state = host.post("/api/action", {"type": "point", "winner": 0})
            assert status == 200 and state["match"]["view"]["points"] == ["15", "0"]
            assert get(server.port, "/api/state", source="127.0.0.2")[0] == 200
            assert not held.done()
        finally:
            release.set()
        assert held.result(20)[0] == 200
    # The places are given back.
    assert get(server.port, "/api/history")[0] == 200
    assert get(server.port, "/api/history", source="127.0.0.2")[0] == 200


def test_making_answers_is_bounded_per_address_and_in_all_while_kept_ones_are_served(
        server, app):
    host = HttpHost(server.port)
    for _ in range(3):
        assert host.post("/api/match", START)[0] == 200
        assert host.post("/api/action", {"type": "point", "winner": 0})[0] == 200
        assert host.post("/api/match/end")[0] == 200
    # A budget that one answer uses up (and that drains only slowly).
    app.extensions["companion.reads"].budget = web.reads.CostBudget(
        share=0.001, per_address=0.0005, burst=0.0)
    assert get(server.port, "/api/matches/1/timeline")[0] == 200  # made: the budget spent
    status, headers, body = get(server.port, "/api/matches/2/timeline")
    assert status == 429 and int(headers["Retry-After"]) >= 1
    assert "127.0.0.1" in json.loads(body)["error"]
    status, headers, body = get(server.port, "/api/matches/3/export", source="127.0.0.2")
    assert status == 503 and int(headers["Retry-After"]) >= 1
    # What was made is served from memory, to anyone; play goes on.
    assert get(server.port, "/api/matches/1/timeline")[0] == 200
    assert get(server.port, "/api/matches/1/timeline", source="127.0.0.2")[0] == 200
    assert host.post("/api/match", START)[0] == 200
    assert get(server.port, "/api/state", source="127.0.0.2")[0] == 200


def test_play_is_answered_while_every_reader_worker_is_busy():
    """Play has workers of its own: however many reads are being answered (here each
    holds its worker until released), the host's point and the phones' state are
    answered at once, never queued behind them."""
    from flask import Flask

    from app.server import SPARE_THREADS, WebServer

    app = Flask("readers")
    release = threading.Event()
    holding = threading.Semaphore(0)

    @app.get("/api/history")
    def history():
        holding.release()
        release.wait(20)
        return {"matches": []}

    @app.post("/api/action")
    def action():
        return {"version": 1}

    @app.get("/api/state")
    def state():
        return {"version": 1}

    server = WebServer(app, "127.0.0.1", 0, max_streams=3)
    readers = ThreadPoolExecutor(3 * SPARE_THREADS)
    try:
        # More reads than the server has workers for them: some wait for one.
        asked = [readers.submit(get, server.port, "/api/history", f"127.0.1.{i + 1}")
                 for i in range(3 * SPARE_THREADS)]
        for _ in range(2 * SPARE_THREADS):
            assert holding.acquire(timeout=20), "the reads did not all start"
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("POST", "/api/action", body=b"{}",
                     headers={"Content-Type": "application/json"})
        assert conn.getresponse().status == 200
        conn.close()
        assert get(server.port, "/api/state")[0] == 200
        assert time.monotonic() - started < 5
        release.set()
        assert {f.result(timeout=30)[0] for f in asked} == {200}
    finally:
        release.set()
        readers.shutdown()
        server.close()


def test_a_burst_of_phones_opening_the_pages_is_not_refused(tmp_path):
    """Pages and their scripts are cheap: a burst of them (phones opening the scoreboard
    together, each asking for several files at once) is answered, never 503."""
    import concurrent.futures

    from web.reads import ReadGate

    def slow_app(environ, start_response):
        time.sleep(0.01)  # a file read from a slow SD card: the burst overlaps
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    gate = ReadGate(slow_app, running=1, waiting=2, per_address=2)
    statuses = []

    def ask(path):
        got = []
        gate({"REQUEST_METHOD": "GET", "PATH_INFO": path, "REMOTE_ADDR": "10.0.0.1"},
             lambda status, headers: got.append(status))
        return got[0]

    paths = ["/", "/static/app.css", "/static/common.js", "/static/spectator.js"] * 10
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(ask, paths))
    assert set(statuses) == {"200 OK"}
