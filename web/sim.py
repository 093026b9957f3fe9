"""The simulator (``--sim`` only): the OLED as the Pi shows it, and the panel's buttons."""

from __future__ import annotations

from concurrent.futures import CancelledError
from concurrent.futures import TimeoutError as FutureTimeout

from flask import Blueprint, Response, current_app, request

from companion.errors import InvalidAction
from companion.i18n import _, message
from companion.inputs import BUTTONS, PANEL, SEATS
from web.api import WRITE_TIMEOUT, host_only, json_body, state_response
from web.fanout import connection_of
from web.pages import page
from web.services import error
from web.stream import TooManyStreams

bp = Blueprint("sim", __name__)


def simulator():
    return current_app.extensions["companion"].sim


@bp.get("/sim")
def sim_page() -> Response:
    buttons = simulator().buttons
    return page("sim.html", panel=[b for b in PANEL if b in buttons],
                seats=[b for b in SEATS if b in buttons])


@bp.post("/api/sim/button")
@host_only
def button() -> Response:
    """Press a button; answer with the table state once the press has been handled.

    A hold is answered after its release. The wait is bounded: past
    WRITE_TIMEOUT (plus the press itself) the answer is 503, and the press
    may still be handled later.
    """
    try:
        body = json_body()
    except InvalidAction as err:  # not JSON: said so, not as a button unknown
        return error(400, message(err))
    if not isinstance(body, dict) or body.get("button") not in BUTTONS:
        return error(400, _("'button' must be one of: {buttons}", buttons=", ".join(BUTTONS)))
    hold = body.get("hold", False)
    if not isinstance(hold, bool):
        return error(400, _("'hold' must be true or false"))
    try:
        handled = simulator().press(body["button"], hold)
    except KeyError as err:
        return error(409, str(err.args[0]))
    try:
        snapshot = handled.result(WRITE_TIMEOUT)
    except (FutureTimeout, CancelledError):
        waited = f"{WRITE_TIMEOUT:g}"
        return error(503, _("the press was made but not handled within {seconds} s; it may "
                            "still be handled: read /api/state", seconds=waited))
    return state_response(snapshot)


@bp.get("/api/sim/display.png")
def display() -> Response:
    return Response(simulator().display_png(), mimetype="image/png",
                    headers={"Cache-Control": "no-store"})  # i18n: not said


@bp.get("/api/sim/events")
def frames() -> Response:
    """``event: frame`` with a rising counter whenever the OLED shows a new frame."""
    try:
        environ = request.environ
        # Handed over to the frames' fan-out like a phone's stream: no worker each.
        # Counted by address, shared out like the phones' streams (web/stream.py).
        stream = simulator().frames.open(None, lambda: connection_of(environ),
                                         client=request.remote_addr)
    except TooManyStreams as full:
        response = error(503, _("simulator pages: {refusal}", refusal=message(full)))
        response.headers["Retry-After"] = "10"  # i18n: not said
        return response
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache, no-transform"})  # i18n: not said
