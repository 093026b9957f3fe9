"""docs/api.md names every route the table's web app and the hall serve: a route added
without its line in the contract fails here."""

from __future__ import annotations

import re
from pathlib import Path

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

API = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")


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


def test_every_route_of_the_table_is_in_the_contract(tmp_path):
    with Store(tmp_path / "companion.db") as store, TableRunner(Table(store, CATALOG)) as runner:
        frames = Broker("frame", limit=4)
        sim = Simulator(press=lambda button, hold: None, display_png=lambda: b"", frames=frames)
        app = create_app(Services(runner=runner, pin="2468", secret_key=b"k" * 32, sim=sim))
        try:
            found = routes(app)
            assert len(found) > 25  # the API, the pages and the simulator's were read
            assert sorted(r for r in found if not documented(*r)) == []
        finally:
            app.extensions["companion.broker"].close()
            frames.close()


def test_every_route_of_the_hall_is_in_the_contract(tmp_path):
    board = Board("table-companion")
    broker = hall_broker(board.first, 4, 1.0, 2)
    night = Night(tmp_path, "table-companion", catalog=CATALOG)
    results = ClubResults(tmp_path, CATALOG)
    try:
        app = create_hall_app(board, broker, night=night, results=results,
                              director=Director("2468", Sessions("2468")),
                              secret_key=b"k" * 32)
        found = routes(app)
        assert ("GET", "/night/standings") in found and len(found) > 15
        assert sorted(r for r in found if not documented(*r)) == []
    finally:
        broker.close()
        night.close()
        results.close()


def test_the_check_finds_a_route_the_contract_leaves_out():
    assert documented("GET", "/api/matches/<whole(max=9):match_id>/export")
    assert not documented("POST", "/api/start")
    assert not documented("GET", "/api/nowhere")
