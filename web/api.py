"""The HTTP API (docs/api.md): reads for everyone, changes for the logged-in host."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, session
from flask.blueprints import BlueprintSetupState
from werkzeug.routing import IntegerConverter

from companion.errors import (
    IllegalAction,
    InvalidAction,
    StoreDamaged,
    StoreError,
    StoreUnavailable,
    UnknownGame,
    UnknownPlayer,
)
from companion.i18n import Text, _, message, translate
from companion.json_input import parse as parse_json
from companion.offers import played_offers
from companion.table import Snapshot, Table
from web import door
from web.door import logged_in, login_body, pin_login
from web.i18n import current
from web.idempotency import Answer, check_key
from web.reads import MAX_PAGE, MAX_QUERY, Body, Reads
from web.services import (
    STORAGE_STATUS,
    error,
    services,
    stream_response,
)
from web.stream import Broker

bp = Blueprint("api", __name__, url_prefix="/api")

log = logging.getLogger(__name__)

#: How long a host request waits for the table's writer thread to take it up.
WRITE_TIMEOUT = 10.0
#: How much longer it waits for work the writer has begun (a commit under way).
COMMIT_WAIT = 20.0


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
    try:
        last_seen = last_event_id(request.headers.get("Last-Event-ID"))  # i18n: not said
        # The page names the database it has followed (the state's "epoch"), so
        # a new database at the same version number still sends the state.
        epoch = whole_number(request.args.get("epoch"), _("epoch must be the state's epoch"))
    except ValueError as err:
        return error(400, message(err))
    return stream_response(broker(), last_seen, epoch)


#: Versions and match ids are SQLite integers: below 2**63.
MAX_ID = 2**63 - 1


class WholeNumber(IntegerConverter):
    """A match id in a path: ASCII digits only (werkzeug's ``int`` also takes "１")."""

    regex = r"[0-9]+"


# Registered on the app before the routes below that use it are added (deferred in order).
@bp.record_once
def _whole_numbers(state: BlueprintSetupState) -> None:
    state.app.url_map.converters.setdefault("whole", WholeNumber)


def last_event_id(header: str | None) -> int | None:
    """The version a reconnecting stream last saw; None without the header."""
    return whole_number(header, _("Last-Event-ID must be a version this stream sent "
                                  "(a whole number)"))


def whole_number(text: str | None, refusal: str) -> int | None:
    """``text`` as a whole number below 2**63; None when empty; ValueError(refusal) otherwise.

    ``str.isdigit`` alone would also take "²", which ``int`` refuses, and
    5,000 digits are past ``int``'s own limit.
    """
    text = (text or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID):
        raise ValueError(refusal)
    return int(text)


@bp.get("/games")
def games() -> Response:
    """The games and their options, for the host's start form."""
    return jsonify([{
        "id": g.id, "title": g.title, "seats": list(g.seats),
        "options": [{"key": o.key, "label": o.label, "default": o.default,
                     "choices": [{"value": v, "label": label} for v, label in o.choices]}
                    for o in g.options],
        "extras": dict(g.extras),
    } for g in services().catalog.games.values()])


def reads() -> Reads:
    return current_app.extensions["companion.reads"]


@bp.get("/rematch")
def rematch_record() -> Response:
    """The start record of a rematch of the last match on the table (finished, ended or
    still played): its game, players and options, device decisions to be made again; null
    before the first match. The host's New match form is filled from it."""
    return reads().rematch().response()


@bp.get("/history")
def history() -> Response:
    """Stored matches, newest first: all of them, or a page (``limit``, ``before``,
    ``after``, ``q``; docs/api.md)."""
    args = request.args
    try:
        bad_limit = _("limit must be a whole number 1-{most}", most=MAX_PAGE)
        limit = whole_number(args.get("limit"), bad_limit)
        if limit is not None and not 1 <= limit <= MAX_PAGE:
            raise ValueError(bad_limit)
        before = whole_number(args.get("before"),
                              _("before must be a match id (a whole number)"))
        after = whole_number(args.get("after"), _("after must be a match id (a whole number)"))
        q = args.get("q", "")
        if len(q) > MAX_QUERY:
            raise ValueError(_("q must be at most {most} characters", most=MAX_QUERY))
    except ValueError as err:
        return error(400, message(err))
    return reads().history_page(before, after, q.strip(), limit).response()


@bp.get(f"/matches/<whole(max={MAX_ID}):match_id>")
def stored_match(match_id: int) -> Response:
    """One stored match replayed, as the state shows a match (the history's stats)."""
    # Replayed through the rules (damage is StoreDamaged: a 500 naming the file, web/app.py).
    return drawn(reads().board, match_id)


@bp.get(f"/matches/<whole(max={MAX_ID}):match_id>/export")
def export(match_id: int) -> Response:
    return drawn(reads().export, match_id)


@bp.get("/timeline")
def current_timeline() -> Response:
    """The chart of the match on the table (finished or not); 404 when there is none."""
    match = services().runner.table.snapshot.match
    if match is None:
        return error(404, _("no match is on the table: its timeline starts with its first "
                            "action"))
    return stored_timeline(match["id"])


@bp.get(f"/matches/<whole(max={MAX_ID}):match_id>/timeline")
def stored_timeline(match_id: int) -> Response:
    """The chart of a stored match; 404 for an unknown id."""
    return drawn(reads().timeline, match_id)


def drawn(draw: Callable[[int], Body], match_id: int) -> Response:
    """What ``draw`` makes of a stored match (kept while it is unchanged); 404 if unknown."""
    try:
        return draw(match_id).response()
    except StoreError as err:
        if isinstance(err, StoreDamaged):
            raise  # a 500 naming the file (web/app.py)
        return error(404, message(err))


# --- the host's session ----------------------------------------------------------------


@bp.post("/login")
def login() -> Response:
    """Log in with the PIN (``{"pin": ...}``), or with the one-time code the panel shows
    (``{"code": ...}``), which no wrong-PIN wait holds up (web/auth.py Lockout)."""
    svc = services()
    body, refused = login_body()
    if refused is not None:
        # Not a guess (no PIN is half a character): refused, and counted nowhere.
        return refused
    if isinstance(body, dict) and "code" in body:
        if not svc.login_codes.take(body["code"]):
            # Not counted against the PIN: the code's 40 bits and 5 minutes are its guard.
            return error(401, _("wrong or expired code: open Menu > Host login on the table "
                                "and type the code it shows"))
        return logged_in(svc.lockout, svc.sessions)
    return pin_login(body, svc.pin, svc.lockout, svc.sessions, other_way=USE_THE_CODE)


#: How the refusal names the way in that no wrong-PIN wait holds up.
USE_THE_CODE = _("or log in with the one-time code: on the table, Menu > Host login")


@bp.get("/session")
def whoami() -> Response:
    """Whether this browser is the host, and its CSRF token if so."""
    host, csrf = door.whoami(services().sessions)
    return jsonify(host=host, csrf=csrf)


#: Refuse (403) unless a live host session and its CSRF header are both there.
host_only = door.guarded(lambda: services().sessions)


@bp.post("/logout")
@host_only
def logout() -> Response:
    """End every host session made so far, on every browser, not just this one's cookie."""
    services().sessions.end_all()
    session.clear()
    return jsonify(host=False)


# --- changes ------------------------------------------------------------------------------


def json_body() -> Any:
    """The request's JSON body; InvalidAction (400) when it is not JSON or nests too deep."""
    if not request.is_json:
        raise InvalidAction(_("the body must be JSON (Content-Type: application/json)"))
    try:
        return parse_json(request.get_data())
    except ValueError as err:
        raise InvalidAction(_("the body must be JSON (Content-Type: application/json): "
                              "{problem}", problem=message(err))) from err


def change(work: Callable[[Table], Snapshot]) -> Response:
    """Run ``work`` on the writer thread; answer with the new state or the refusal.

    With ``X-Table-Version`` (the version the client's page shows) the change
    is refused (409, nothing applied) when the table has moved on meanwhile,
    from the panel or another phone: a tap is never applied to a state its
    user did not see. Without it, the change applies to the current state.

    The answer says what happened. Work still queued after WRITE_TIMEOUT is
    cancelled (the runner skips it): 503, nothing was applied. Work already
    running is committing: its real outcome is awaited, up to COMMIT_WAIT
    more; only past that is the answer 503 "may yet be applied", and a retry
    with the same ``Idempotency-Key`` then learns what became of it.
    """
    key = request.headers.get("Idempotency-Key")  # i18n: not said
    if key is not None and (problem := check_key(key)) is not None:
        return error(400, problem)
    try:
        premise = whole_number(request.headers.get("X-Table-Version"),  # i18n: not said
                               _("X-Table-Version must be the version the page shows"))
    except ValueError as err:
        return error(400, message(err))
    asked = f"{request.path}\n{request.get_data(as_text=True)}"
    answers = services().answers
    lang = current()  # the refusal is made on the writer thread, said in the asker's words

    def attempt(table: Table) -> Answer:
        if key is not None and (known := answers.recall(key, asked, lang)) is not None:
            return known  # before the premise: the table has moved on by this very change
        try:
            if premise is not None and premise != table.version:
                # "stale": the page can say so in its own words (nothing of the rules);
                # "version": the table's now, the state this refusal is about.
                answer = Answer.refusal(
                    409, translate(_("the table changed since this page showed it (version "
                                     "{premise}, now {version}): look at it again, then act",
                                     premise=premise, version=table.version), lang),
                    stale=True, version=table.version)
            else:
                answer = Answer(200, work(table).json_text)
        except UnknownGame as err:  # a thing named that is not there: 404, as a player
            answer = Answer.refusal(404, translate(message(err), lang))
        except InvalidAction as err:
            answer = Answer.refusal(400, translate(message(err), lang))
        except UnknownPlayer as err:
            answer = Answer.refusal(404, translate(message(err), lang))
        except IllegalAction as err:
            answer = Answer.refusal(409, translate(message(err), lang))
        except StoreUnavailable as err:
            # Not remembered under the key: nothing was applied, and a retry once the
            # storage is back should be applied. The store logged it, once per episode.
            return Answer.refusal(STORAGE_STATUS[err.kind], translate(message(err), lang),
                                  storage=err.kind)
        if key is not None:
            answers.remember(key, asked, answer)
        return answer

    future = services().runner.submit(attempt)
    try:
        answer = future.result(WRITE_TIMEOUT)
    except FutureTimeout:
        if future.cancel():
            return busy(_("the table is busy (slow storage?): nothing was applied; try again"))
        log.warning("%s is still being applied after %g s; waiting for its outcome",
                    request.path, WRITE_TIMEOUT)
        try:
            answer = future.result(COMMIT_WAIT)
        except FutureTimeout:
            waited = f"{WRITE_TIMEOUT + COMMIT_WAIT:g}"
            return busy(_("the table is still committing this change after {seconds} s and it "
                          "may yet be applied: read /api/state, or retry with the same "
                          "Idempotency-Key to get its outcome", seconds=waited))
    response = Response(answer.json_text, status=answer.status, mimetype="application/json")
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"  # i18n: not said
    return response


def busy(refusal: Text) -> Response:
    response = error(503, refusal)
    response.headers["Retry-After"] = "2"  # i18n: not said
    return response


def change_with_body(work: Callable[[Table, Any], Any]) -> Response:
    """Like :func:`change`, for requests whose JSON body is the thing to apply."""
    try:
        body = json_body()
    except InvalidAction as err:
        return error(400, message(err))
    return change(lambda table: work(table, body))


@bp.post("/match")
@host_only
def start() -> Response:
    return change_with_body(lambda table, record: table.start(record))


@bp.get("/offer")
def offer() -> Response:
    """The hall's offer of this table's next match (companion/offers.py): ``{"offer": ...
    or null, "problem": why the hall's latest cannot be used, or null}``."""
    played = played_offers(services().runner.table.snapshot.results)
    response = jsonify(services().offers.to_json(played))
    response.headers["Cache-Control"] = "no-store"  # i18n: not said
    return response


@bp.post("/offer/start")
@host_only
def start_offer() -> Response:
    """Start the hall's offer named by ``{"offer": id}``, the one the page shows: 409
    "the hall's offer changed" (nothing started) when it is no longer the latest."""
    offers = services().offers

    def work(table: Table, body: Any) -> Snapshot:
        if not isinstance(body, dict) or set(body) != {"offer"}:
            raise InvalidAction(_('the body must be {"offer": the id of the offer shown}'))
        return offers.start(table, body["offer"])

    return change_with_body(work)


@bp.post("/action")
@host_only
def action() -> Response:
    return change_with_body(lambda table, body: table.act(body))


def change_without_body(work: Callable[[Table], Snapshot]) -> Response:
    """Like :func:`change`, for requests that take nothing in their body: none, or JSON
    (``{}`` from the pages) whose content is not used; a body that is not JSON, or nests
    too deep, is refused 400 as every body is."""
    if request.get_data():
        try:
            json_body()
        except InvalidAction as err:
            return error(400, message(err))
    return change(work)


@bp.post("/undo")
@host_only
def undo() -> Response:
    # The new state says what was taken back (``undone``, Snapshot.undone).
    return change_without_body(lambda table: table.undo())


@bp.post("/redo")
@host_only
def redo() -> Response:
    return change_without_body(lambda table: table.redo())


@bp.post("/match/end")
@host_only
def end() -> Response:
    return change_without_body(lambda table: table.abandon())
