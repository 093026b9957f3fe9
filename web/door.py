"""The door every PIN-guarded app shares: PIN login with the lockout, the signed session,
and the check that a change comes from a live session with its CSRF header.

The table's host (web/api.py) and the hall's director (hall/director_api.py)
both go through here; each adds only what is its own (the table's one-time
code from the panel; the hall's events). What is checked, in order, for a
change: the Host allowlist and the security headers (web/guard.py), the
``Origin``/``Sec-Fetch-Site`` of a browser's request (:func:`web.auth.cross_site`),
then the session (:meth:`web.auth.Sessions.problem`) and its ``X-CSRF-Token``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify, request, session

from companion.i18n import _, message
from companion.json_input import NotText
from companion.json_input import parse as parse_json
from web.auth import (
    Lockout,
    Sessions,
    SteadySessionInterface,
    cross_site,
    new_token,
    pin_matches,
    token_matches,
)
from web.services import error

log = logging.getLogger(__name__)

#: A session's last use is written back at most this often (each write re-sends the cookie).
TOUCH_EVERY = 60.0

#: Requests that change nothing: no Origin check.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def signed_sessions(app: Flask, secret_key: bytes, cookie: str, max_body: int) -> None:
    """Give ``app`` signed cookie sessions named ``cookie`` (HttpOnly, SameSite=Strict,
    lapsing by :class:`Sessions`' steady clock, not Flask's wall clock), bodies of at
    most ``max_body`` bytes, and the cross-site refusal (403) of every change."""
    app.config.update(SECRET_KEY=secret_key, SESSION_COOKIE_NAME=cookie,
                      SESSION_COOKIE_HTTPONLY=True,
                      SESSION_COOKIE_SAMESITE="Strict",  # i18n: not said
                      MAX_CONTENT_LENGTH=max_body, SESSION_REFRESH_EACH_REQUEST=False)
    app.session_interface = SteadySessionInterface()

    @app.before_request
    def check_origin() -> Response | None:
        # Behind the CSRF token: a change made by another site's page is refused outright.
        if request.method in SAFE_METHODS:
            return None
        reason = cross_site(request.headers, request.host, request.scheme)
        return error(403, reason) if reason is not None else None


def login_body() -> tuple[Any, Response | None]:
    """The login request's JSON body (None when it is not JSON: a wrong PIN like any
    other), or the 400 answer for a body that holds a lone surrogate (not a guess)."""
    try:
        return (parse_json(request.get_data()) if request.is_json else None), None
    except NotText as err:
        return None, error(400, message(err))
    except ValueError:
        return None, None


def pin_login(body: Any, pin: str, lockout: Lockout, sessions: Sessions, *,
              other_way: str = "") -> Response:
    """Answer a PIN login (``{"pin": ...}`` in ``body``): 429 while the address (or every
    address together) is locked out, 401 for a wrong PIN, else a new session (its CSRF
    token in the answer). ``other_way`` ends the 429's text (a way in no wait holds up)."""
    client = request.remote_addr or "?"
    mine, everyone = lockout.waits(client)
    if mine > 0 or everyone > 0:
        return locked(mine, everyone, other_way)
    given = body.get("pin") if isinstance(body, dict) else None
    if not pin_matches(given, pin):
        lockout.failed(client)
        mine, everyone = lockout.waits(client)
        if mine > 0 or everyone > 0:
            # Someone guessing the PIN is worth knowing about; one line per
            # lockout, and the lockouts double, so the log cannot be flooded.
            log.warning("too many wrong PINs (from %s, or from all addresses together): "
                        "logins are refused for %.0f s", client, max(mine, everyone))
            return locked(mine, everyone, other_way)
        return error(401, _("wrong PIN"))
    return logged_in(lockout, sessions)


def logged_in(lockout: Lockout, sessions: Sessions) -> Response:
    """This browser holds the session from now on: a new session and its CSRF token."""
    lockout.succeeded(request.remote_addr or "?")
    session.clear()
    session["host"] = True
    session["csrf"] = new_token()
    session["generation"] = sessions.generation
    session["seen"] = sessions.now()
    return jsonify(csrf=session["csrf"])


def locked(mine: float, everyone: float, other_way: str = "") -> Response:
    """429: this address's own wait, else everyone's (which says why it holds a new
    address too), with ``Retry-After``."""
    wait = max(mine, everyone)
    seconds = f"{wait:.0f}"
    if mine >= everyone:
        refusal = _("too many wrong PINs from this address: try again in {seconds} s",
                    seconds=seconds)
    else:
        refusal = _("too many wrong PINs from all addresses together: a PIN from an address "
                    "that has not logged in before waits {seconds} s", seconds=seconds)
    if other_way:
        refusal = _("{refusal}, {other_way}", refusal=refusal, other_way=other_way)
    response = error(429, refusal)
    response.headers["Retry-After"] = str(max(1, round(wait)))  # i18n: not said
    return response


def whoami(sessions: Sessions) -> tuple[bool, str | None]:
    """Whether this browser's session is live, and its CSRF token if so (an ended
    session's cookie is removed)."""
    if sessions.problem(session) is not None:
        if session:
            session.clear()
        return False, None
    return True, session.get("csrf")


def session_refusal(sessions: Sessions) -> Response | None:
    """403 unless a live session and its CSRF header are both there (None: go on);
    the session's last use is written back now and then."""
    problem = sessions.problem(session)
    if problem is not None:
        if session:
            session.clear()
        return error(403, problem)
    if not token_matches(request.headers.get("X-CSRF-Token"),  # i18n: not said
                         session.get("csrf")):
        return error(403, _("missing or wrong X-CSRF-Token header"))
    if sessions.now() - session["seen"] >= TOUCH_EVERY:
        session["seen"] = sessions.now()
    return None


def guarded(sessions: Callable[[], Sessions]) -> Callable[[Callable[..., Response]],
                                                            Callable[..., Response]]:
    """A decorator refusing a view (403) without a live session and its CSRF header."""
    def decorate(view: Callable[..., Response]) -> Callable[..., Response]:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Response:
            refusal = session_refusal(sessions())
            return refusal if refusal is not None else view(*args, **kwargs)
        return wrapper
    return decorate
