"""The Flask application factory: phone pages and the HTTP API over a running table.

``create_app(services)`` receives everything it serves (the table's runner,
the PIN, the simulator hooks); nothing lives in module globals, so every test
gets a fresh app over a fresh table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.table import Snapshot, TableRunner
from web.auth import Lockout, host_allowed, host_names
from web.fanout import Fanout
from web.stream import Broker

log = logging.getLogger(__name__)

#: Larger request bodies are refused (a start record is well under 2 KB).
MAX_BODY = 16 * 1024


@dataclass
class Simulator:
    """Hooks into the simulated hardware, for ``/sim`` (only with ``--sim``)."""

    #: Press a button (name, hold); the future gives the state once it was handled.
    press: Callable[[str, bool], Future[Snapshot]]
    display_png: Callable[[], bytes]
    frames: Broker
    #: The buttons that have a simulated pin.
    buttons: tuple[str, ...] = ()


@dataclass
class Services:
    """What the web app serves and with which settings."""

    runner: TableRunner
    pin: str
    secret_key: bytes
    max_streams: int = 200
    keepalive: float = 15.0
    extra_host_names: Iterable[str] = ()
    lockout: Lockout = field(default_factory=Lockout)
    sim: Simulator | None = None
    #: The spectator page's address as printed and shown on the OLED.
    address: str | None = None


def create_app(services: Services) -> Flask:
    """A Flask app over ``services``; subscribes its state broker to the table."""
    from web import api, pages, sim

    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=services.secret_key,
        SESSION_COOKIE_NAME="companion_host",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=MAX_BODY,
        # Never the Werkzeug debugger: errors are logged, clients get JSON.
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=False,
    )
    app.json.sort_keys = False
    broker = Broker("state", services.max_streams, services.keepalive,
                    fanout=Fanout(services.keepalive))
    # Subscribed before the panel and the OLED (the runtime builds the app
    # first), so the phones' copies are on the wire before that work starts.
    services.runner.call(lambda table: (
        table.subscribe(lambda s: broker.publish(s.version, s.json_text)),
        broker.publish(table.snapshot.version, table.snapshot.json_text),
    ))
    app.extensions["companion"] = services
    app.extensions["companion.broker"] = broker
    names = host_names(services.extra_host_names)

    @app.before_request
    def check_host() -> Response | None:
        # Against DNS rebinding: a page on someone else's name must not reach us.
        if not host_allowed(request.host, names):
            return error(400, f"unknown host name {request.host!r}")
        return None

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Response:
        return error(err.code or 500, err.description or err.name)

    @app.errorhandler(Exception)
    def unexpected(err: Exception) -> Response:
        log.exception("request failed: %s %s", request.method, request.path)
        return error(500, "internal error; the table is unchanged")

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    if services.sim is not None:
        app.register_blueprint(sim.bp)
    return app


def error(status: int, message: str) -> Response:
    """``{"error": message}`` with ``status``."""
    response = jsonify(error=message)
    response.status_code = status
    return response
