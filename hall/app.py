"""The hall board's web app: the page, ``GET /api/tables`` and the live stream.

Read-only for everyone: the board's routes answer GET (and HEAD) only; anything else
is 405. With a club night (hall/night.py) the director, logged in with the
hall's director PIN, changes events through hall/director_api.py.
``/api/tables`` is the whole list, or a page of it in the order of the table
ids (``limit``, ``after``: a stable cursor), each answer made once per change
of the board (hall/answers.py).
The stream (``GET /api/hall/events``) starts with ``event: tables`` (the
whole ``/api/tables`` body) and then sends ``event: table`` with one card per
change, or ``tables`` again when more than one card changed (the hall's
broker connection, a table gone). Each message's ``id`` is the hall's change
number, one more than the message before: a page that sees a gap (it was
too slow and a message was skipped) opens the stream again and starts from
the whole list.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, render_template, request
from werkzeug.datastructures import MultiDict

import web
from companion.i18n import _, message
from companion.topics import valid_table_id
from hall import director_api, night_pages
from hall.answers import TableAnswers
from hall.cards import MAX_TABLES, Board
from hall.director_api import Director
from hall.night import Night
from hall.results import ClubResults
from web.api import whole_number
from web.door import signed_sessions
from web.fanout import Fanout
from web.guard import guard
from web.i18n import setup as languages
from web.pages import json_block
from web.reads import Refused, refusal
from web.services import error, stream_response
from web.stream import Broker, event_bytes

WEB = Path(web.__file__).parent
#: Larger request bodies are refused (an event of 512 players is well under).
MAX_BODY = 64 * 1024


def page_args(args: MultiDict[str, str]) -> tuple[str | None, int | None]:
    """``(after, limit)`` of a ``GET /api/tables`` query (None: not given or empty);
    ValueError with the message for the client when either is malformed."""
    bad_limit = _("limit must be a whole number 1-{most}", most=MAX_TABLES)
    limit = whole_number(args.get("limit"), bad_limit)
    if limit is not None and not 1 <= limit <= MAX_TABLES:
        raise ValueError(bad_limit)
    after = args.get("after", "").strip() or None
    if after is not None and not valid_table_id(after):
        raise ValueError(_("after must be a table id (the last card's id of the page before: "
                           "1-32 of a-z, 0-9, '-' and '_')"))
    return after, limit


def create_hall_app(board: Board, broker: Broker, *, extra_host_names: tuple[str, ...] = (),
                    answers: TableAnswers | None = None,
                    results: ClubResults | None = None,
                    night: Night | None = None, director: Director | None = None,
                    secret_key: bytes | None = None, language: str | None = None) -> Flask:
    """The hall's app over ``board``, streaming what ``broker`` is given; ``/api/tables``
    answered by ``answers`` (by default its own over ``board``); ``/api/players`` (the
    club leaderboard) by ``results``, when given; the club night's pages and API
    (hall/director_api.py) over ``night`` when given, changed by ``director`` (whose
    sessions are signed with ``secret_key``). ``language``: the hall's own (a shipped
    one, companion/i18n.py), spoken by its pages unless a browser chose another
    (web/i18n.py); None: each browser's Accept-Language."""
    answers = answers if answers is not None else TableAnswers(board)
    app = Flask(__name__, template_folder=WEB / "templates", static_folder=WEB / "static")
    app.config.update(DEBUG=False, PROPAGATE_EXCEPTIONS=False)
    guard(app, extra_host_names)
    languages(app, language)
    if night is not None and director is not None:
        signed_sessions(app, secret_key or secrets.token_bytes(32), "companion_director",
                        MAX_BODY)
        app.extensions["hall.night"] = night
        app.extensions["hall.director"] = director
        app.register_blueprint(director_api.bp)
        app.register_blueprint(night_pages.bp)

    @app.get("/")
    def page() -> Response:
        html = render_template("hall.html", state=json_block(board.json_text()),
                               modules=json_block("{}"))
        return Response(html, headers={"Cache-Control": "no-store"})  # i18n: not said

    @app.get("/api/tables")
    def tables() -> Response:
        try:
            after, limit = page_args(request.args)
        except ValueError as err:
            return error(400, message(err))
        try:
            return answers.tables(after, limit).response()
        except Refused as refused:
            return refusal(request.environ, refused.status, str(refused),
                           refused.retry_after)

    @app.get("/api/players")
    def players() -> Response:
        if results is None:
            return error(404, _("this hall keeps no results"))
        return results.players().response()

    @app.get("/api/hall/events")
    def events() -> Response:
        return stream_response(broker)

    return app


def hall_broker(board_first: Callable[[], tuple[int, str]], max_streams: int,
                keepalive: float, per_client: int) -> Broker:
    """The stream broker of the hall: the whole list first, then each change."""
    def first() -> tuple[int, bytes]:
        version, text = board_first()
        return version, event_bytes(version, "tables", text)

    return Broker("table", max_streams, keepalive, fanout=Fanout(keepalive),
                  per_client=per_client, first=first)
