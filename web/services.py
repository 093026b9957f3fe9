"""What the web app serves, and the helpers every blueprint shares.

The app factory (web/app.py) composes the blueprints (web/api.py,
web/pages.py, web/sim.py); they all read the :class:`Services` it was given
and answer errors the same way, from here, so none of them imports the app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, jsonify, request

from companion.catalog import Catalog
from companion.i18n import message
from companion.json_input import parse as parse_json
from companion.login_code import LoginCodes
from companion.offers import Offers
from companion.table import Snapshot, TableRunner
from web.auth import Lockout, Sessions
from web.fanout import connection_of
from web.i18n import SaidJSON, say
from web.idempotency import Answers
from web.stream import Broker, TooManyStreams


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
    #: Streams one client address may hold of ``max_streams`` ([web] streams_per_address).
    streams_per_address: int = 8
    keepalive: float = 15.0
    extra_host_names: Iterable[str] = ()
    lockout: Lockout = field(default_factory=Lockout)
    sim: Simulator | None = None
    #: The spectator page's address as printed and shown on the OLED.
    address: str | None = None
    #: The answers to keyed host requests (Idempotency-Key), for retries.
    answers: Answers = field(default_factory=Answers)
    #: What went wrong with the stored data at start (damage set aside, changes lost),
    #: shown at the top of every page; None when nothing did.
    notice: str | None = None
    #: The one-time login codes the panel shows (Menu > Host login).
    login_codes: LoginCodes = field(default_factory=LoginCodes)
    # None (the two below): __post_init__ makes the default, so a built Services has
    # both (typed as what the routes get; hence the ignores [assignment]).
    #: The hall's offer of the next match (None: an empty one, the table having no broker).
    offers: Offers = None  # type: ignore[assignment]
    #: Which host sessions are valid; None: sessions over ``pin`` kept in memory only.
    sessions: Sessions = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.sessions is None:
            self.sessions = Sessions(self.pin)
        if self.offers is None:
            self.offers = Offers(self.catalog)

    @property
    def catalog(self) -> Catalog:
        """The games the table plays (its own catalog): what the pages offer and name."""
        return self.runner.table.catalog


def services() -> Services:
    """The current app's services (``create_app`` keeps them in its extensions)."""
    return current_app.extensions["companion"]


def error(status: int, message: str) -> Response:
    """``{"error": message}`` with ``status``, the message said in the request's language
    (web/i18n.py; a message made with companion/i18n.py's ``_``, else as it is)."""
    response = jsonify(error=say(message))
    response.status_code = status
    return response


#: The status of a change refused because the store cannot take it (StoreUnavailable's
#: kind): 507 Insufficient Storage for a full disk, else 503 (the service cannot save).
STORAGE_STATUS = {"full": 507, "read-only": 503, "gone": 503}


class BoundedJSON(SaidJSON):
    """Flask's JSON, with request bodies parsed by :func:`parse_json`, and every ``Text``
    in an answer said in the request's language (web/i18n.py)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_json(s)


def stream_response(broker: Broker, last_seen: int | None = None,
                    epoch: int | None = None) -> Response:
    """The current request's live stream from ``broker`` (see :meth:`Broker.open`), or
    503 with Retry-After when the broker serves its limit of streams already."""
    # A HEAD opens a stream too: its unread body gives the place back when the
    # server closes it (web/stream.py Stream), as any unread stream does.
    environ = request.environ
    try:
        stream = broker.open(last_seen, lambda: connection_of(environ), epoch,
                             client=request.remote_addr)
    except TooManyStreams as full:
        response = error(503, message(full))
        response.headers["Retry-After"] = "10"  # i18n: not said
        return response
    return Response(stream, mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform",  # i18n: not said
        "X-Accel-Buffering": "no",  # i18n: not said
    })
