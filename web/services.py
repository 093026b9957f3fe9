"""What the web app serves, and the helpers every blueprint shares.

The app factory (web/app.py) composes the blueprints (web/api.py,
web/pages.py, web/sim.py); they all read the :class:`Services` it was given
and answer errors the same way, from here, so none of them imports the app.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider

from companion.catalog import Catalog
from companion.login_code import LoginCodes
from companion.offers import Offers
from companion.table import Snapshot, TableRunner
from web.auth import Lockout, Sessions
from web.fanout import connection_of
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
    """``{"error": message}`` with ``status``."""
    response = jsonify(error=message)
    response.status_code = status
    return response


#: The status of a change refused because the store cannot take it (StoreUnavailable's
#: kind): 507 Insufficient Storage for a full disk, else 503 (the service cannot save).
STORAGE_STATUS = {"full": 507, "read-only": 503, "gone": 503}


#: How deep a request body's arrays and objects may nest. Real bodies nest 4
#: levels at most (a Dodgeball start record's dice); a hostile one nested
#: thousands deep would otherwise overflow the parser's recursion.
MAX_DEPTH = 32


def parse_json(text: str | bytes) -> Any:
    """A request body's JSON; ValueError (with the reason) if it is not JSON or nests too deep.

    The depth is checked on the text before parsing, without recursion, so
    no nesting however deep reaches the recursive parser.
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text.decode("utf-8", "replace") if isinstance(text, bytes) else text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise ValueError(f"the JSON nests deeper than {MAX_DEPTH} levels")
        elif char in "]}":
            depth -= 1
    value = json.loads(text, parse_constant=_no_constant)
    if (where := _not_text(value, "")) is not None:
        raise NotText(where)
    return value


class NotText(ValueError):
    """A JSON string held a lone surrogate (``"\\ud800"``): not a Unicode character.

    JSON's ``\\u`` escapes (and Python's decoder, which passes encoded
    surrogates through) let a client send half of a UTF-16 pair; such a
    string cannot be encoded, stored or compared, so it is refused at the
    door instead of failing deep inside (a 500). ``where`` names the field.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        super().__init__(f"{where} is not text: it holds a lone surrogate "
                         "(half of a UTF-16 pair, not a Unicode character)")


def _no_constant(name: str) -> Any:
    # Python's decoder takes NaN and Infinity, which JSON (RFC 8259) has not.
    raise ValueError(f"{name} is not a JSON value")


def _is_text(s: str) -> bool:
    if s.isascii():
        return True
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_text(value: Any, path: str) -> str | None:
    """The field of ``value`` (a parsed body, at most MAX_DEPTH deep) whose text, or
    key, is not valid Unicode, as ``'players[1]'``; None when all of it is."""
    if isinstance(value, str):
        return None if _is_text(value) else repr(path) if path else "the body"
    if isinstance(value, list):
        for i, item in enumerate(value):
            if (found := _not_text(item, f"{path}[{i}]")) is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            if not _is_text(key):
                shown = key.encode("utf-8", "backslashreplace").decode()
                return f"the key {shown!r}" + (f" in {path!r}" if path else "")
            if (found := _not_text(item, f"{path}.{key}" if path else key)) is not None:
                return found
    return None


class BoundedJSON(DefaultJSONProvider):
    """Flask's JSON, with request bodies parsed by :func:`parse_json`."""

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
        response = error(503, str(full))
        response.headers["Retry-After"] = "10"
        return response
    return Response(stream, mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
    })
