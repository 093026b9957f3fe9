"""What the web app serves, and the helpers every blueprint shares.

The app factory (web/app.py) composes the blueprints (web/api.py,
web/pages.py, web/sim.py); they all read the :class:`Services` it was given
and answer errors the same way, from here, so none of them imports the app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field

from flask import Response, current_app, jsonify

from companion.table import Snapshot, TableRunner
from web.auth import Lockout
from web.stream import Broker


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


def services() -> Services:
    """The current app's services (``create_app`` keeps them in its extensions)."""
    return current_app.extensions["companion"]


def error(status: int, message: str) -> Response:
    """``{"error": message}`` with ``status``."""
    response = jsonify(error=message)
    response.status_code = status
    return response
