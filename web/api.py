"""The HTTP API (docs/api.md): reads for everyone, changes for the logged-in host."""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, session

from companion import matchfile
from companion.errors import IllegalAction, InvalidAction, StoreError
from companion.games import GAMES
from companion.table import Snapshot, Table
from web.auth import new_token, pin_matches, token_matches
from web.fanout import connection_of
from web.services import error, services
from web.stream import Broker, TooManyStreams

bp = Blueprint("api", __name__, url_prefix="/api")

#: How long a host request waits for the table's writer thread.
WRITE_TIMEOUT = 10.0


def broker() -> Broker:
    return current_app.extensions["companion.broker"]


def state_response(snapshot: Snapshot) -> Response:
    """The state as JSON, from the text the snapshot encoded once."""
    return Response(snapshot.json_text, mimetype="application/json")


# --- reads -------------------------------------------------------------------------


@bp.get("/state")
def state() -> Response:
    return state_response(services().runner.table.snapshot)


@bp.get("/events")
def events() -> Response:
    last = request.headers.get("Last-Event-ID", "").strip()
    last_seen = int(last) if last.isdigit() else None
    # The page names the database it has followed (the state's "epoch"), so
    # a new database at the same version number still sends the state.
    epoch_text = request.args.get("epoch", "").strip()
    epoch = int(epoch_text) if epoch_text.isdigit() else None
    environ = request.environ
    try:
        stream = broker().open(last_seen, lambda: connection_of(environ), epoch)
    except TooManyStreams:
        response = error(503, "too many live viewers right now; try again shortly")
        response.headers["Retry-After"] = "10"
        return response
    return Response(stream, mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
    })


@bp.get("/games")
def games() -> Response:
    """The games and their options, for the host's start form."""
    return jsonify([{
        "id": g.id, "title": g.title, "seats": list(g.seats),
        "options": [{"key": o.key, "label": o.label, "default": o.default,
                     "choices": [{"value": v, "label": label} for v, label in o.choices]}
                    for o in g.options],
        "extras": dict(g.extras),
    } for g in GAMES.values()])


@bp.get("/history")
def history() -> Response:
    return jsonify([m.to_json() for m in services().runner.table.history()])


@bp.get("/matches/<int:match_id>/export")
def export(match_id: int) -> Response:
    table = services().runner.table
    try:
        stored = table.stored(match_id)
    except StoreError as err:
        return error(404, str(err))
    return Response(matchfile.export(stored), mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="match-{match_id}.jsonl"',
    })


# --- the host's session ----------------------------------------------------------------


@bp.post("/login")
def login() -> Response:
    svc = services()
    client = request.remote_addr or "?"
    wait = svc.lockout.retry_after(client)
    if wait > 0:
        return locked(wait)
    body = request.get_json(silent=True)
    given = body.get("pin") if isinstance(body, dict) else None
    if not pin_matches(given, svc.pin):
        wait = svc.lockout.failed(client)
        return locked(wait) if wait > 0 else error(401, "wrong PIN")
    svc.lockout.succeeded(client)
    session.clear()
    session["host"] = True
    session["csrf"] = new_token()
    return jsonify(csrf=session["csrf"])


def locked(wait: float) -> Response:
    response = error(429, f"too many wrong PINs: try again in {wait:.0f} s")
    response.headers["Retry-After"] = str(max(1, round(wait)))
    return response


@bp.get("/session")
def whoami() -> Response:
    """Whether this browser is the host, and its CSRF token if so."""
    host = bool(session.get("host"))
    return jsonify(host=host, csrf=session.get("csrf") if host else None)


def host_only(view: Callable[..., Response]) -> Callable[..., Response]:
    """Refuse (403) unless the host's session cookie and CSRF header are both there."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        if not session.get("host"):
            return error(403, "only the host can do that: log in with the PIN")
        if not token_matches(request.headers.get("X-CSRF-Token"), session.get("csrf")):
            return error(403, "missing or wrong X-CSRF-Token header")
        return view(*args, **kwargs)

    return wrapper


@bp.post("/logout")
@host_only
def logout() -> Response:
    session.clear()
    return jsonify(host=False)


# --- changes ------------------------------------------------------------------------------


def json_body() -> Any:
    body = request.get_json(silent=True)
    if body is None:
        raise InvalidAction("the body must be JSON (Content-Type: application/json)")
    return body


def change(work: Callable[[Table], Any]) -> Response:
    """Run ``work`` on the writer thread; answer with the new state or the refusal."""
    try:
        snapshot = services().runner.call(work, timeout=WRITE_TIMEOUT)
    except InvalidAction as err:
        return error(400, str(err))
    except IllegalAction as err:
        return error(409, str(err))
    except FutureTimeout:
        return error(503, "the table is busy; try again")
    return state_response(snapshot)


def change_with_body(work: Callable[[Table, Any], Any]) -> Response:
    """Like :func:`change`, for requests whose JSON body is the thing to apply."""
    try:
        body = json_body()
    except InvalidAction as err:
        return error(400, str(err))
    return change(lambda table: work(table, body))


@bp.post("/match")
@host_only
def start() -> Response:
    return change_with_body(lambda table, record: table.start(record))


@bp.post("/action")
@host_only
def action() -> Response:
    return change_with_body(lambda table, body: table.act(body))


@bp.post("/undo")
@host_only
def undo() -> Response:
    return change(lambda table: table.undo())


@bp.post("/redo")
@host_only
def redo() -> Response:
    return change(lambda table: table.redo())


@bp.post("/match/end")
@host_only
def end() -> Response:
    return change(lambda table: table.abandon())
