"""The pages: spectators' scoreboard, the host's controls, the history."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template
from markupsafe import Markup

bp = Blueprint("pages", __name__)


def initial_state() -> Markup:
    """The current state as JSON for the page to show before its stream opens.

    Escaped for a ``<script type="application/json">`` block: ``<`` cannot
    end the block early whatever the player names contain.
    """
    text = current_app.extensions["companion"].runner.table.snapshot.json_text
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def page(template: str, **context: object) -> Response:
    sim = current_app.extensions["companion"].sim is not None
    html = render_template(template, state=initial_state(), sim=sim, **context)
    return Response(html, headers={"Cache-Control": "no-store"})


@bp.get("/")
def spectator() -> Response:
    return page("spectator.html")


@bp.get("/host")
def host() -> Response:
    return page("host.html")


@bp.get("/history")
def history() -> Response:
    return page("history.html")
