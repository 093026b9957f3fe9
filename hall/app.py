"""The hall board's web app: the page, ``GET /api/tables`` and the live stream.

Read-only: every route answers GET (and HEAD) only; anything else is 405.
The stream (``GET /api/hall/events``) starts with ``event: tables`` (the
whole ``/api/tables`` body) and then sends ``event: table`` with one card per
change, or ``tables`` again when more than one card changed (the hall's
broker connection, a table gone). Each message's ``id`` is the hall's change
number, one more than the message before: a page that sees a gap (it was
too slow and a message was skipped) opens the stream again and starts from
the whole list.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from flask import Flask, Response, render_template

import web
from hall.cards import Board
from web.fanout import Fanout
from web.guard import guard
from web.pages import json_block
from web.services import stream_response
from web.stream import Broker, event_bytes

WEB = Path(web.__file__).parent


def create_hall_app(board: Board, broker: Broker, *, extra_host_names: tuple[str, ...] = ()
                    ) -> Flask:
    """The hall's app over ``board``, streaming what ``broker`` is given."""
    app = Flask(__name__, template_folder=WEB / "templates", static_folder=WEB / "static")
    app.config.update(DEBUG=False, PROPAGATE_EXCEPTIONS=False)
    guard(app, extra_host_names)

    @app.get("/")
    def page() -> Response:
        html = render_template("hall.html", state=json_block(board.json_text()),
                               modules=json_block("{}"))
        return Response(html, headers={"Cache-Control": "no-store"})

    @app.get("/api/tables")
    def tables() -> Response:
        return Response(board.json_text(), mimetype="application/json",
                        headers={"Cache-Control": "no-store"})

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
