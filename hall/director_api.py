"""The club night's HTTP API on the hall (docs/api.md, "Club night"): reads for everyone,
changes for the logged-in director.

The director logs in with the hall's director PIN, through the same door as a
table's host (web/door.py: lockout, signed session cookie, ``X-CSRF-Token``,
the cross-site refusal; the Host allowlist is web/guard.py's). Every change
names the event's ``version`` it was made on and is refused (409) when the
event moved on; a refusal (4xx, ``{"error": ...}``) changes nothing.

Every answer speaks the request's language (web/i18n.py): a refusal's ``error``, a
pairing's ``why`` and every word in an event's state (kept as messages,
companion/kept_text.py, and said at each answer); its field names and the names in it
stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, request, session

from companion.i18n import _, message, said
from companion.json_input import NotText
from companion.json_input import parse as parse_json
from hall.night import Night, Refusal
from web import door
from web.auth import DIRECTOR, Lockout, Sessions
from web.i18n import current, say

bp = Blueprint("director", __name__)


@dataclass
class Director:
    """The director's login: the PIN, the wrong-PIN lockout and the sessions."""

    pin: str
    sessions: Sessions
    lockout: Lockout = field(default_factory=Lockout)

    @classmethod
    def with_pin(cls, pin: str, path: Path | None = None) -> Director:
        """The director of ``pin``, the sessions' epoch kept in ``path`` (None: in memory);
        a refused session is told of the director and the director PIN, not a host."""
        return cls(pin, Sessions(pin, path, role=DIRECTOR))


def night() -> Night:
    return current_app.extensions["hall.night"]


def director() -> Director:
    return current_app.extensions["hall.director"]


director_only = door.guarded(lambda: director().sessions)


def refused(err: Refusal) -> Response:
    """``{"error": ...}`` in the request's language, with the refusal's other fields."""
    response = jsonify(error=say(message(err)), **err.more)
    response.status_code = err.status
    return response


def body() -> object:
    """The request's JSON body; Refusal 400 when it is not JSON."""
    if not request.is_json:
        raise Refusal(400, _("the body must be JSON (Content-Type: application/json)"))
    try:
        return parse_json(request.get_data())
    except NotText as err:
        raise Refusal(400, message(err)) from None
    except ValueError as err:
        raise Refusal(400, _("the body must be JSON: {problem}", problem=message(err))
                      ) from None


# --- the director's session ---------------------------------------------------------------


@bp.post("/api/director/login")
def login() -> Response:
    """Log in as the director with the PIN (``{"pin": ...}``)."""
    d = director()
    given, bad = door.login_body()
    if bad is not None:
        return bad
    return door.pin_login(given, d.pin, d.lockout, d.sessions,
                          other_way=_("or restart the hall to see its director PIN"))


@bp.get("/api/director/session")
def whoami() -> Response:
    """Whether this browser is the director, and its CSRF token if so."""
    live, csrf = door.whoami(director().sessions)
    return jsonify(director=live, csrf=csrf)


@bp.post("/api/director/logout")
@director_only
def logout() -> Response:
    """End every director session, on every browser."""
    director().sessions.end_all()
    session.clear()
    return jsonify(director=False)


# --- reads ------------------------------------------------------------------------------


@bp.get("/api/events")
def events() -> Response:
    return jsonify(events=night().events())


@bp.get("/api/events/<eid>")
def event(eid: str) -> Response:
    try:
        return night().body(eid, current()).response()
    except Refusal as err:
        return refused(err)


@bp.get("/api/events/<eid>/pairings/<pid>")
def explain(eid: str, pid: str) -> Response:
    """Why a game was paired as it was (``{"why": ...}``)."""
    try:
        return jsonify(why=say(night().explain(eid, pid)))
    except Refusal as err:
        return refused(err)


@bp.get("/api/events/<eid>/standings.csv")
def standings_csv(eid: str) -> Response:
    try:
        text = night().csv(eid)
    except Refusal as err:
        return refused(err)
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="standings-{eid}.csv"'})  # i18n: not said


# --- changes ----------------------------------------------------------------------------


def _change(work: Callable[[object], object]) -> Response:
    """``work`` done with the request's body, its answer as JSON in the request's language;
    a Refusal as its status."""
    try:
        return jsonify(said(work(body()), current()))
    except Refusal as err:
        return refused(err)


@bp.post("/api/events")
@director_only
def create() -> Response:
    return _change(lambda b: night().create(b))


@bp.post("/api/events/<eid>/players")
@director_only
def check_in(eid: str) -> Response:
    return _change(lambda b: night().check_in(eid, b))


@bp.post("/api/events/<eid>/drop")
@director_only
def drop(eid: str) -> Response:
    return _change(lambda b: night().drop(eid, b))


@bp.post("/api/events/<eid>/rounds")
@director_only
def start_round(eid: str) -> Response:
    return _change(lambda b: night().start_round(eid, b))


@bp.post("/api/events/<eid>/pairings/<pid>/move")
@director_only
def move(eid: str, pid: str) -> Response:
    return _change(lambda b: night().move(eid, pid, b))


@bp.post("/api/events/<eid>/pairings/<pid>/result")
@director_only
def result(eid: str, pid: str) -> Response:
    return _change(lambda b: night().enter_result(eid, pid, b))


@bp.post("/api/events/<eid>/pairings/<pid>/revision")
@director_only
def decide(eid: str, pid: str) -> Response:
    """Apply, or keep the result against, a table's new result held for the director."""
    return _change(lambda b: night().decide(eid, pid, b))
