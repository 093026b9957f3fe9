"""The pages: spectators' scoreboard, the host's controls, the history."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, Response, abort, render_template, request, url_for
from markupsafe import Markup

from companion.catalog import Catalog
from companion.i18n import ENGLISH, language
from web.i18n import current, game_words, say
from web.services import services

bp = Blueprint("pages", __name__)

STATIC = Path(__file__).parent / "static"


def json_block(text: str) -> Markup:
    """``text`` (JSON) escaped for a ``<script type="application/json">`` block: ``<``
    cannot end the block early whatever the player names contain."""
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def game_assets(catalog: Catalog, parts: tuple[str, ...]) -> dict[str, list[str]]:
    """Each game's of ``catalog`` files for a page, in the order they load, those that
    exist (a game with none is drawn the generic way): its styles, then its scripts,
    ``static/<game>.css`` and ``static/<game>.js`` (its board) for the part "", and
    ``static/<game>-host.css`` and ``static/<game>-host.js`` for "host" (the host's
    controls: a spectator's phone downloads neither), each script after the script of
    its words in the page's language (:func:`game_words`; none in English, whose words
    are the scripts' own)."""
    lang = current()
    names = [*((part, ".css") for part in parts), *((part, ".js") for part in parts)]
    found: dict[str, list[str]] = {}
    for g in catalog:
        urls = found[g] = []
        for part, ext in names:
            name = f"{g}{'-' + part if part else ''}{ext}"
            if not (STATIC / name).exists():
                continue
            if ext == ".js" and lang != ENGLISH:
                urls.append(url_for("pages.game_words_script", lang=lang, script=name))
            urls.append(url_for("static", filename=name))
    return found


@bp.get("/words/<lang>/<script>")
def game_words_script(lang: str, script: str) -> Response:
    """The words of one game's script in ``lang`` (:func:`web.i18n.game_words`); 404 for
    a script that is no game's, or a language not shipped."""
    games = services().catalog
    known = {f"{g}{suffix}.js" for g in games for suffix in ("", "-host")}
    if script not in known or language(lang) != lang or not (STATIC / script).exists():
        abort(404)
    response = Response(game_words(lang, script), mimetype="text/javascript")
    # The words change with the companion's version only: a phone asks again on each load
    # and is answered "not modified" while they stay the same.
    response.headers["Cache-Control"] = "no-cache"  # i18n: not said
    response.add_etag()
    response.make_conditional(request)  # in place (Werkzeug's documented use)
    return response


def page(template: str, parts: tuple[str, ...] = (), *, on_demand: bool = False,
         **context: object) -> Response:
    """The page with the style and scripts of the game on the table only; the page's
    common code loads another game's (from the map the page carries) when a match of it
    starts. ``on_demand``: not even those, until the page asks (the history, for a match
    opened)."""
    served = services()
    sim = served.sim is not None
    modules = game_assets(served.catalog, parts)
    # One snapshot: the game's files are those of the state the page shows first.
    snapshot = served.runner.table.snapshot
    match = snapshot.match
    shown = modules.get(match["game"], []) if match and not on_demand else []
    html = render_template(template, state=json_block(snapshot.json_text), sim=sim,
                           notice=say(served.notice) if served.notice else None,
                           modules=json_block(json.dumps(modules, separators=(",", ":"))),
                           styles=[u for u in shown if u.endswith(".css")],
                           scripts=[u for u in shown if u.endswith(".js")], **context)
    return Response(html, headers={"Cache-Control": "no-store"})  # i18n: not said


@bp.get("/")
def spectator() -> Response:
    return page("spectator.html", ("",))


@bp.get("/host")
def host() -> Response:
    return page("host.html", ("", "host"))


@bp.get("/history")
def history() -> Response:
    games = {g.id: {"title": g.title, "shared_wins": g.shared_wins}
             for g in services().catalog.games.values()}
    # A finished match opens to its board (each game's board script, loaded on demand)
    # and its timeline (TC.showTimeline loads the chart script).
    return page("history.html", ("",), on_demand=True, games=json_block(json.dumps(games)))
