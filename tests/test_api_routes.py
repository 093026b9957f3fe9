"""docs/api.md names every route the table's web app and the hall serve, and no doc names
a route that neither serves: a route added without its line in the contract, or a line
left for a route that is gone, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from companion.store import Store
from companion.table import Table, TableRunner
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.director_api import Director
from hall.night import Night
from hall.results import ClubResults
from tests.support import CATALOG
from web.app import create_app
from web.auth import Sessions
from web.services import Services, Simulator
from web.stream import Broker

ROOT = Path(__file__).resolve().parent.parent
API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
#: Every doc a reader may take a route from.
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def routes(app: Flask) -> set[tuple[str, str]]:
    """(method, rule) of every route but the static files', HEAD and OPTIONS aside."""
    return {(method, rule.rule) for rule in app.url_map.iter_rules()
            if rule.endpoint != "static" for method in rule.methods - {"HEAD", "OPTIONS"}}


def documented(method: str, rule: str) -> bool:
    """Whether docs/api.md names the route: `METHOD /path` (a part in <...> standing for
    any such part), or for a page `/path` alone."""
    path = re.sub(r"<[^>]*>", "<[^>`]+>", re.escape(rule))
    return bool(re.search(rf"`{method} {path}[` ]", API)
                or (method == "GET" and re.search(rf"`{path}`", API)))


def named_in_docs() -> set[tuple[str, str, str]]:
    """(doc, method, path) of each route a doc names as `METHOD /path` (any query left out)."""
    return {(doc.name, m[1], m[2])
            for doc in DOCS
            for m in re.finditer(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`? ]*)[^`]*`",
                                 doc.read_text(encoding="utf-8"))}


def served(method: str, path: str, found: set[tuple[str, str]]) -> bool:
    """Whether ``path`` as a doc writes it (a part in <...> standing for any value) is
    one of the ``found`` routes."""
    given = re.sub(r"<[^>/]*>", "x", path)
    return any(m == method and re.fullmatch(re.sub(r"<[^>]*>", "[^/]+", re.escape(rule)), given)
               for m, rule in found)


@pytest.fixture
def table_routes(tmp_path) -> set[tuple[str, str]]:
    with Store(tmp_path / "companion.db") as store, TableRunner(Table(store, CATALOG)) as runner:
        frames = Broker("frame", limit=4)
        sim = Simulator(press=lambda button, hold: None, display_png=lambda: b"", frames=frames)
        app = create_app(Services(runner=runner, pin="2468", secret_key=b"k" * 32, sim=sim))
        try:
            return routes(app)
        finally:
            app.extensions["companion.broker"].close()
            frames.close()


@pytest.fixture
def hall_routes(tmp_path) -> set[tuple[str, str]]:
    board = Board("table-companion")
    broker = hall_broker(board.first, 4, 1.0, 2)
    night = Night(tmp_path, "table-companion", catalog=CATALOG)
    results = ClubResults(tmp_path, CATALOG)
    try:
        app = create_hall_app(board, broker, night=night, results=results,
                              director=Director("2468", Sessions("2468")),
                              secret_key=b"k" * 32)
        return routes(app)
    finally:
        broker.close()
        night.close()
        results.close()


def test_every_route_of_the_table_is_in_the_contract(table_routes):
    assert len(table_routes) > 25  # the API, the pages and the simulator's were read
    assert sorted(r for r in table_routes if not documented(*r)) == []


def test_every_route_of_the_hall_is_in_the_contract(hall_routes):
    assert ("GET", "/night/standings") in hall_routes and len(hall_routes) > 15
    assert sorted(r for r in hall_routes if not documented(*r)) == []


def test_every_route_a_doc_names_is_served(table_routes, hall_routes):
    named = named_in_docs()
    assert len(named) > 40 and ("api.md", "GET", "/night/standings") in named
    assert sorted(r for r in named if not served(r[1], r[2], table_routes | hall_routes)) == []


def test_the_check_finds_a_named_route_nothing_serves():
    found = {("GET", "/api/matches/<whole(max=9):match_id>/export"), ("POST", "/api/match")}
    assert served("GET", "/api/matches/<id>/export", found)
    assert not served("POST", "/api/start", found)
    assert not served("GET", "/api/matches/<id>", found)
    assert not served("GET", "/api/match", found)


def test_the_check_finds_a_route_the_contract_leaves_out():
    assert documented("GET", "/api/matches/<whole(max=9):match_id>/export")
    assert not documented("POST", "/api/start")
    assert not documented("GET", "/api/nowhere")
