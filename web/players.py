"""Players and their ratings over HTTP: the leaderboards, a player's page, rename and merge.

Reads (``GET /api/players``, ``GET /api/players/<name>``) are made once per
change and kept (web/reads.py). Rename and merge are host changes like any
other (web/api.py ``change``): session, CSRF token, the premise in
``X-Table-Version``; a refusal is a 4xx with the reason and nothing applied.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from companion.errors import InvalidAction, UnknownPlayer
from companion.i18n import N_, _, message
from web.api import MAX_ID, change_with_body, host_only, reads, whole_number
from web.pages import page
from web.reads import MAX_PAGE
from web.services import error, services

bp = Blueprint("players", __name__)
#: The most names one ratings line asks for (a table seats at most 8 players).
MAX_NAMES = 8


@bp.get("/api/players")
def leaderboards() -> Response:
    """Every game's leaderboard (``limit`` rows each), or with ``game`` a page of one
    (``offset``, ``limit``; a ``Link: rel="next"`` header while more follow), or with
    ``game`` and ``name`` (repeated) just those players' rows (the scoreboard's line)."""
    args = request.args
    try:
        game = args.get("game") or None
        catalog = services().catalog
        if game is not None and game not in catalog:
            raise ValueError(_("game must be one of {games}", games=", ".join(catalog)))
        bad_limit = _("limit must be a whole number 1-{most}", most=MAX_PAGE)
        limit = whole_number(args.get("limit"), bad_limit)
        if limit is not None and not 1 <= limit <= MAX_PAGE:
            raise ValueError(bad_limit)
        bad_offset = _("offset must be a whole number")
        offset = whole_number(args.get("offset"), bad_offset) or 0
        if offset > MAX_ID:
            raise ValueError(bad_offset)
        names = args.getlist("name")
        if names and game is None:
            raise ValueError(_("name needs game: a player's rating is one game's"))
        if len(names) > MAX_NAMES:
            raise ValueError(N_("at most {n} name at once", "at most {n} names at once",
                                MAX_NAMES))
    except ValueError as err:
        return error(400, message(err))
    if names and game is not None:   # names without a game were refused above
        return reads().ratings_of(game, names).response()
    return reads().players_page(game, offset, limit).response()


@bp.get("/api/players/<path:name>")
def player(name: str) -> Response:
    """One player's ratings, their course, results and the players met; 404 if unknown."""
    try:
        return reads().player(name).response()
    except UnknownPlayer as err:
        return error(404, message(err))


def _names(body: object, *keys: str) -> list[str]:
    """The body's fields ``keys``, each a string; InvalidAction naming a missing one."""
    if not isinstance(body, dict):
        raise InvalidAction(_("the body must be an object with {fields}",
                              fields=", ".join(keys)))
    for key in keys:
        if not isinstance(body.get(key), str):
            raise InvalidAction(_("missing {field}: a player's name (a string)",
                                  field=repr(key)))
    return [body[k] for k in keys]


@bp.post("/api/players/rename")
@host_only
def rename() -> Response:
    """``{"name": old, "to": new}``: the player shown by a new name everywhere."""
    return change_with_body(lambda table, body: table.rename_player(*_names(body, "name", "to")))


@bp.post("/api/players/merge")
@host_only
def merge() -> Response:
    """``{"name": a, "into": b}``: ``a``'s matches become ``b``'s; one player, ``b``."""
    return change_with_body(lambda table, body: table.merge_players(*_names(body, "name",
                                                                            "into")))


@bp.get("/players")
def players_page() -> Response:
    return page("players.html")


@bp.get("/players/<path:name>")
def player_page(name: str) -> Response:
    return page("player.html", name=name)
