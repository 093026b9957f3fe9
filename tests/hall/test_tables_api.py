"""``GET /api/tables``: pages by a stable cursor, made once per change, ETag, gzip, bounds.

The board is fed its MQTT messages directly here (its one feeding thread is
the test's) and asked over HTTP through the app; the last tests go through
the real hall (its server, Mosquitto) with raw request bytes.
"""

from __future__ import annotations

import gzip
import json
import re
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.topics import ONLINE, dumps
from hall.answers import TableAnswers
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from tests.hall.hall_support import Watch, get

P = "p"


def summary(name: str, version: int = 1, score: str = "0-0") -> bytes:
    """A table's summary payload as the hall reads it (companion/topics.py's shape)."""
    return dumps({"table": {"id": "x", "name": name, "url": None}, "version": version,
                  "game": "center-court", "title": "Center Court", "status": "playing",
                  "players": "Ann v Bob", "score": score, "turn": "", "winner": "",
                  "columns": ["Sets"], "sides": [
                      {"name": "Ann", "score": ["0"], "turn": True, "winner": False},
                      {"name": "Bob", "score": ["0"], "turn": False, "winner": False}]}
                 ).encode()


@pytest.fixture
def hall_app():
    """``(board, answers, client)``: a hall's app over a board the test feeds."""
    board = Board(P)
    broker = hall_broker(board.first, 4, 1.0, 2)
    answers = TableAnswers(board)
    app = create_hall_app(board, broker, answers=answers)
    # answers.tables counts its work for the request's address: asked in a request.
    with app.test_request_context():
        yield board, answers, app.test_client()
    broker.close()


def add(board: Board, table: str, name: str | None = None, **fields) -> None:
    board.receive(f"{P}/{table}/summary", summary(name or table, **fields))
    board.receive(f"{P}/{table}/availability", ONLINE.encode())


def walk(client, first: str, *, between=None) -> list[list[str]]:
    """The ids of every page, following ``Link: rel=next`` from ``first``; ``between(n)``
    is called after page ``n``."""
    pages, url = [], first
    while url is not None:
        answer = client.get(url)
        assert answer.status_code == 200, answer.json
        pages.append([c["id"] for c in answer.json["tables"]])
        link = answer.headers.get("Link")
        url = re.fullmatch(r'<([^>]+)>; rel="next"', link).group(1) if link else None
        if between is not None:
            between(len(pages))
    return pages


def test_pages_follow_the_table_ids_and_hold_still_while_tables_come_and_go(hall_app):
    board, _, client = hall_app
    for n in range(20):  # names in the reverse order of the ids
        add(board, f"t{n:02d}", name=f"Table {99 - n}")
    whole = client.get("/api/tables").json
    assert [c["id"] for c in whole["tables"]] == [f"t{n:02d}" for n in reversed(range(20))]
    assert whole["broker"] == "connecting" and whole["connected"] is False

    first = client.get("/api/tables?limit=7")
    assert first.headers["Link"] == '</api/tables?after=t06&limit=7>; rel="next"'
    assert first.json["broker"] == "connecting" and first.json["connected"] is False

    def meanwhile(page: int) -> None:
        if page == 1:  # before the cursor, after it, and a card already sent leaving
            add(board, "a-new")
            add(board, "t07x")
            add(board, "zz")
            board.receive(f"{P}/t03/summary", b"")
        if page == 2:  # cards changing meanwhile keep their places
            add(board, "t15", name="Renamed", version=2)

    pages = walk(client, "/api/tables?limit=7", between=meanwhile)
    seen = [i for page in pages for i in page]
    assert len(seen) == len(set(seen))  # no card twice
    # Every table there from the first page to the last, once: none skipped.
    assert set(seen) >= {f"t{n:02d}" for n in range(20)} and seen == sorted(seen)
    assert "zz" in seen and "t07x" in seen  # arrived after the cursor: in a later page
    assert "a-new" not in seen  # before the cursor: for the next walk (or the stream)
    assert [len(p) for p in pages[:-1]] == [7] * (len(pages) - 1)
    assert walk(client, "/api/tables?limit=500") == [
        sorted([f"t{n:02d}" for n in range(20) if n != 3] + ["a-new", "t07x", "zz"])]
    # `after` alone: every card after it; a cursor whose card has left still works.
    rest = client.get("/api/tables?after=t03").json["tables"]
    assert [c["id"] for c in rest] == ["t04", "t05", "t06", "t07", "t07x", *[
        f"t{n:02d}" for n in range(8, 20)], "zz"]
    assert client.get("/api/tables?after=zz&limit=3").json["tables"] == []
    last = client.get("/api/tables?after=t19&limit=1")
    assert [c["id"] for c in last.json["tables"]] == ["zz"] and "Link" not in last.headers


IDS = st.text("abct0-", min_size=1, max_size=4).map(lambda s: f"a{s}z")
#: Between two pages: a table arrives (or changes), or leaves.
CHANGES = st.lists(st.tuples(st.sampled_from(["add", "leave"]), IDS), max_size=6)


@given(start=st.sets(IDS, max_size=25), limit=st.integers(1, 6),
       between=st.lists(CHANGES, max_size=12))
def test_a_walk_sends_each_card_there_throughout_once_in_order(start, limit, between):
    """Whatever arrives, changes or leaves between pages: the walk's ids rise (none
    twice), every card there from the first page to the last is in it, and each card
    sent was on the board when its page was made."""
    board = Board(P)
    for table in start:
        board.receive(f"{P}/{table}/availability", ONLINE.encode())
    throughout, sent, after = set(start), [], None
    changes = iter(between)
    while True:
        text, more = board.view().page(after, limit)
        on_board = set(board.view().ids)
        page = [c["id"] for c in json.loads(text)["tables"]]
        assert len(page) <= limit and set(page) <= on_board
        sent += page
        if more is None:
            break
        assert more == page[-1]
        after = more
        for what, table in next(changes, []):
            if what == "add":
                board.receive(f"{P}/{table}/availability", b"offline")
            else:
                board.receive(f"{P}/{table}/availability", b"")
                throughout.discard(table)
    assert sent == sorted(set(sent)) and set(sent) >= throughout


def test_an_answer_is_made_once_per_change_and_unchanged_is_304(hall_app):
    board, answers, client = hall_app
    add(board, "t1")
    add(board, "t2")
    first = client.get("/api/tables")
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{24}"', etag)
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.headers["Vary"] == "Accept-Encoding"
    # Asked again: the same answer from memory, not made again.
    assert answers.tables(None, None) is answers.tables(None, None)
    assert answers.tables("t0", 5) is answers.tables("t0", 5)
    again = client.get("/api/tables", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    page = client.get("/api/tables?limit=1")
    assert page.headers["ETag"] != etag
    assert client.get("/api/tables?limit=1", headers={
        "If-None-Match": page.headers["ETag"]}).status_code == 304
    board.receive(f"{P}/t1/availability", b"offline")  # a change: a new answer, a new tag
    changed = client.get("/api/tables", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.json["tables"][0]["online"] is False
    assert client.get("/api/tables", headers={"If-None-Match": '"nothing", ' + changed.headers[
        "ETag"]}).status_code == 304


def test_a_client_that_takes_gzip_gets_it_compressed_once(hall_app):
    board, answers, client = hall_app
    for n in range(30):
        add(board, f"t{n:02d}")
    plain = client.get("/api/tables")
    assert "Content-Encoding" not in plain.headers and len(plain.data) > 1024
    packed = client.get("/api/tables", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data)
    assert packed.headers["ETag"] == plain.headers["ETag"][:-1] + '-gz"'
    body = answers.tables(None, None)
    assert body.gzipped() is body.gzipped()  # compressed once, kept
    assert client.get("/api/tables", headers={
        "Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]}).status_code == 304
    # A page: compressed the same way, its Link kept.
    page = client.get("/api/tables?limit=25", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert [c["id"] for c in json.loads(gzip.decompress(page.data))["tables"]] == [
        f"t{n:02d}" for n in range(25)]
    assert page.headers["Link"] == '</api/tables?after=t24&limit=25>; rel="next"'
    small = client.get("/api/tables?limit=1", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers  # under 1 KB: sent as it is


BAD = [
    ("limit=0", "limit must be a whole number 1-500"),
    ("limit=501", "limit must be a whole number 1-500"),
    ("limit=-1", "limit must be a whole number"),
    ("limit=abc", "limit must be a whole number"),
    ("limit=1.5", "limit must be a whole number"),
    ("limit=%C2%B2", "limit must be a whole number"),          # "²"
    ("limit=%EF%BC%91", "limit must be a whole number"),       # a full-width "１"
    ("limit=" + "9" * 5000, "limit must be a whole number"),
    ("limit=%ED%A0%80", "limit must be a whole number"),       # a lone surrogate's bytes
    ("limit=%FF%FE", "limit must be a whole number"),          # not UTF-8
    ("limit=%00", "limit must be a whole number"),
    ("after=Bad!", "after must be a table id"),
    ("after=T1", "after must be a table id"),
    ("after=" + "x" * 33, "after must be a table id"),
    ("after=%ED%A0%80", "after must be a table id"),
    ("after=%ED%B2%A9%ED%A0%80", "after must be a table id"),
    ("after=%FF%FE%00", "after must be a table id"),
    ("after=t1%0Alimit=2", "after must be a table id"),
    ("after=..%2F..%2Fetc", "after must be a table id"),
    ("after=t1&limit=2x", "limit must be a whole number"),
]


@pytest.mark.parametrize(("query", "said"), BAD)
def test_a_malformed_parameter_is_a_400_that_says_which(hall_app, query, said):
    board, _, client = hall_app
    add(board, "t1")
    answer = client.get("/api/tables?" + query)
    assert answer.status_code == 400 and said in answer.json["error"], answer.json
    assert "Link" not in answer.headers


def test_parameters_it_does_not_know_leave_the_whole_list(hall_app):
    board, _, client = hall_app
    add(board, "t1")
    whole = client.get("/api/tables").data
    for query in ("x=1", "%FF=%FE", "limit=&after=", "after=%20", "q=t"):
        answer = client.get("/api/tables?" + query)
        assert answer.status_code == 200 and answer.data == whole, query


def test_what_a_client_can_make_the_hall_hold_is_bounded(hall_app):
    board, answers, client = hall_app
    for n in range(200):
        add(board, f"t{n:03d}", name="N" * 64)
    made = set()
    for n in range(300):  # every page a different one: 300 answers asked for
        answer = client.get(f"/api/tables?after=t{n % 200:03d}&limit={1 + n // 200}")
        assert answer.status_code in (200, 429, 503), answer.status_code
        made.add(answer.headers.get("ETag"))
    kept, held = answers.held
    assert 1 <= kept <= answers.kept and held <= answers.kept_bytes
    # A small bound: the least recently asked for go first, the newest always stays.
    small = TableAnswers(board, kept_bytes=30_000)
    for n in range(50):
        small.tables(f"t{n:03d}", 100)
    kept, held = small.held
    assert kept >= 1 and held <= 30_000 + 2 * len(small.tables("t049", 100).data)
    # A change: the answers of the change before are let go.
    add(board, "zz")
    small.tables(None, None)
    assert small.held[0] == 1


def test_the_hall_serves_pages_and_refuses_garbage_bytes_over_the_wire(hall, sender):
    """The real hall (its server, Mosquitto): pages follow tables arriving over MQTT, and a
    query of raw bytes that are not UTF-8 (or spell a lone surrogate) is a 400, never a
    500, and the hall answers as before."""
    for n in range(5):
        sender.send(f"table-companion/t{n}/availability", ONLINE)
    with Watch(hall.server.port) as watch:
        watch.until(lambda w: len(w.cards) == 5)
    base = hall.urls[0]
    status, headers, body = get(base + "api/tables?limit=2")
    assert status == 200 and [c["id"] for c in body["tables"]] == ["t0", "t1"]
    assert headers["Link"] == '</api/tables?after=t1&limit=2>; rel="next"'
    sender.send("table-companion/t0a/availability", ONLINE)  # arrives after t0: next page
    with Watch(hall.server.port) as watch:
        watch.until(lambda w: len(w.cards) == 6)
    status, _, body = get(base + "api/tables?after=t1&limit=2")
    assert [c["id"] for c in body["tables"]] == ["t2", "t3"]
    for query in (b"after=\xed\xa0\x80", b"limit=\xff\xfe", b"after=\xc0\xaf"):
        # Refused by the server before the app: not a URI.
        status, answer = raw_get(hall.server.port, b"/api/tables?" + query)
        assert status == 400 and json.loads(answer)["error"], (query, answer)
    # Control bytes break the request line itself: Tornado's own bare 400.
    assert raw_get(hall.server.port, b"/api/tables?after=\x01\x7f")[0] == 400
    for query in (b"after=%ED%A0%80", b"limit=%ED%A0%80&after=%80", b"after=%C0%AF",
                  b"limit=%FF%FE"):  # percent-encoded: the app reads them and says what
        status, answer = raw_get(hall.server.port, b"/api/tables?" + query)
        assert status == 400 and "must be" in json.loads(answer)["error"], (query, answer)
    status, _, body = get(base + "api/tables")
    assert status == 200 and len(body["tables"]) == 6


def raw_get(port: int, target: bytes) -> tuple[int, bytes]:
    """``(status, body)`` of a GET of ``target`` sent as these very bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                  b"Connection: close\r\n\r\n" % port)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body
