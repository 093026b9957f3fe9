"""The club night's pages on the hall: the director's page, the TV, the players' "my next
table", and the printable standings.

The pages read the JSON API (hall/director_api.py) and change nothing by
themselves; the director's page changes events through it, with the session
and CSRF token the API asks for. The printable standings are made here, on
the server, so that they print as they are with no script.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from hall.lineups import allowed
from hall.night import FORMATS, Night, Refusal
from web.pages import json_block
from web.services import error

bp = Blueprint("night_pages", __name__)


def _page(template: str, **more: object) -> Response:
    catalog = current_app.extensions["hall.night"].catalog
    games = [{"id": g, "title": catalog.title(g), "lineups": allowed(catalog, g)}
             for g in catalog]
    html = render_template(template, state=json_block("{}"), modules=json_block("{}"),
                           games=games, formats=FORMATS, **more)
    return Response(html, headers={"Cache-Control": "no-store"})


@bp.get("/director")
def director() -> Response:
    return _page("night_director.html")


@bp.get("/night")
def tv() -> Response:
    return _page("night_tv.html")


@bp.get("/next")
def next_table() -> Response:
    return _page("night_next.html")


@bp.get("/night/standings")
def printable() -> Response:
    """The standings of ``?event=`` (default: the newest event), ready to print."""
    night: Night = current_app.extensions["hall.night"]
    eid = request.args.get("event") or next((e["id"] for e in night.events()), None)
    if eid is None:
        return error(404, "no event yet: the director creates one on /director")
    try:
        state = night.state(eid)
    except Refusal as err:
        return error(err.status, str(err))
    html = render_template("night_print.html", state=json_block("{}"),
                           modules=json_block("{}"), event=state)
    return Response(html, headers={"Cache-Control": "no-store"})
