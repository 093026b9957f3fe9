"""The club night's pages on the hall: the director's page, the TV, the players' "my next
table", and the printable standings.

The pages read the JSON API (hall/director_api.py) and change nothing by
themselves; the director's page changes events through it, with the session
and CSRF token the API asks for. The printable standings are made here, on
the server, so that they print as they are with no script.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from companion.catalog import Catalog
from companion.games.base import OptionSpec
from companion.i18n import _, message, said
from hall.lineups import SEATS, allowed
from hall.night import FORMATS, Night, Refusal
from web.i18n import current, say
from web.pages import json_block
from web.services import error

bp = Blueprint("night_pages", __name__)


def _spec(o: OptionSpec) -> dict[str, Any]:
    """An option as the director's form builds its field from it (no JSON typed), its
    words in the page's language."""
    return {"key": o.key, "label": say(o.label), "default": o.default,
            "choices": [{"value": v, "label": say(label)} for v, label in o.choices]}


def _form(catalog: Catalog, game: str) -> dict[str, Any]:
    """What the director's form asks of ``game``'s options (read in ``catalog``): its
    kit's menu options, and those it takes one per seat (with the seats each lineup
    has)."""
    found = catalog.kit(game)
    per_seat = found.lineups.per_seat if found is not None else ()
    return {"options": [_spec(o) for o in catalog.game(game).options],
            "per_seat": [_spec(o) for o in per_seat],
            "seats": {lineup: SEATS[lineup][0] for lineup in allowed(catalog, game)}}


def _page(template: str, **more: object) -> Response:
    catalog = current_app.extensions["hall.night"].catalog
    games = [{"id": g, "title": catalog.title(g), "lineups": allowed(catalog, g),
              "form": _form(catalog, g)} for g in catalog]
    html = render_template(template, state=json_block("{}"), modules=json_block("{}"),
                           games=games, formats=FORMATS, **more)
    return Response(html, headers={"Cache-Control": "no-store"})  # i18n: not said


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
        return error(404, _("no event yet: the director creates one on /director"))
    try:
        state = said(night.state(eid), current())
    except Refusal as err:
        return error(err.status, message(err))
    html = render_template("night_print.html", state=json_block("{}"),
                           modules=json_block("{}"), event=state)
    return Response(html, headers={"Cache-Control": "no-store"})  # i18n: not said
