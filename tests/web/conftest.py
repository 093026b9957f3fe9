"""A web app over a fresh table and store for every test."""

from __future__ import annotations

import random

import pytest

from app.server import WebServer
from companion.store import Store
from companion.table import Table, TableRunner
from tests.support import Clock
from web.app import create_app
from web.auth import Lockout
from web.services import Services

PIN = "2468"
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def runner(tmp_path, catalog):
    with Store(tmp_path / "companion.db") as store, \
            TableRunner(Table(store, catalog, rng=random.Random(5))) as r:
        yield r


@pytest.fixture
def services(runner, clock):
    return Services(runner=runner, pin=PIN, secret_key=b"k" * 32, max_streams=3,
                    keepalive=0.2, lockout=Lockout(base=30, clock=clock))


@pytest.fixture
def app(services):
    app = create_app(services)
    yield app
    app.extensions["companion.broker"].close()


@pytest.fixture
def server(app):
    """The app served by the real server on a free loopback port (3 streams)."""
    s = WebServer(app, "127.0.0.1", 0, max_streams=3)
    yield s
    app.extensions["companion.broker"].close()
    s.close()


@pytest.fixture
def client(app):
    return app.test_client()


class Host:
    """A logged-in host: the test client plus its CSRF token."""

    def __init__(self, client) -> None:
        self.client = client
        response = client.post("/api/login", json={"pin": PIN})
        assert response.status_code == 200, response.json
        self.csrf = response.json["csrf"]

    def post(self, path: str, body=None, **kwargs):
        headers = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        return self.client.post(path, json=body if body is not None else {},
                                headers=headers, **kwargs)


@pytest.fixture
def host(client):
    return Host(client)
