"""What every app served here shares at its door: the Host allowlist, the security
headers and the JSON error answers.

The table's app (web/app.py) and the hall board's (hall/app.py) both call
:func:`guard`; neither copies it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from companion.i18n import Text, _
from web.auth import host_allowed, host_names
from web.services import error

log = logging.getLogger(__name__)

#: What a page may load and run: only this server's own files, no inline code.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")

#: The headers every answer carries unless it sets its own.
SECURITY_HEADERS = (("Content-Security-Policy", CONTENT_SECURITY_POLICY),  # i18n: not said
                    ("X-Content-Type-Options", "nosniff"),  # i18n: not said
                    ("Referrer-Policy", "no-referrer"))  # i18n: not said


#: What an unexpected fault answers (the log has the traceback).
INTERNAL = _("internal error")
#: The HTTP errors a phone meets, in words of ours (werkzeug's are English).
HTTP_ERRORS: dict[int, Text] = {
    404: _("not found: there is nothing at this address"),
    405: _("this address does not take that method"),
    413: _("the request is too large"),
}


def guard(app: Flask, extra_host_names: Iterable[str] = (), *,
          unexpected: str = INTERNAL) -> None:
    """Register on ``app``: requests naming a host that is not ours are refused (400),
    every answer carries the security headers, and every error is JSON
    ``{"error": ...}`` (an unexpected one logged with its traceback and answered
    500 with the text ``unexpected``)."""
    names = host_names(extra_host_names)

    @app.before_request
    def check_host() -> Response | None:
        # Against DNS rebinding: a page on someone else's name must not reach us.
        if not host_allowed(request.host, names):
            return error(400, _("unknown host name {name}", name=repr(request.host)))
        return None

    @app.after_request
    def security_headers(response: Response) -> Response:
        # Each that an answer does not set itself. One look at the names it has: werkzeug's
        # setdefault reads them all again for each header, on every answer.
        headers = response.headers
        present = {name.lower() for name, _value in headers.items()}
        for name, value in SECURITY_HEADERS:
            if name.lower() not in present:
                headers.add(name, value)
        return response

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Response:
        # Werkzeug's words are English: the common ones are said in the asker's language.
        said = HTTP_ERRORS.get(err.code or 500)
        response = error(err.code or 500, said if said is not None else
                         err.description or err.name)
        if err.code == 405 and (
                allowed := err.get_response().headers.get("Allow")):  # i18n: not said
            response.headers["Allow"] = allowed  # i18n: not said
        return response

    @app.errorhandler(Exception)
    def unexpected_error(err: Exception) -> Response:
        # The request is the input that met the fault: what it asked, with its body.
        log.exception("request failed: %s %s %s", request.method, request.full_path.rstrip("?"),
                      body_text())
        return error(500, unexpected)


#: Keys whose values a logged body never shows (a PIN, a one-time code, a password).
SECRET_KEYS = frozenset({"pin", "code", "password", "new_pin"})
#: The most characters of a body a log line carries.
LOGGED_BODY = 300


def body_text() -> str:
    """The current request's body for the log: its JSON with secrets masked, at most
    :data:`LOGGED_BODY` characters; "(no body)" when it has none."""
    try:
        raw = request.get_data(cache=True)
    except Exception:  # the fault may be in the body itself (a client gone mid-read)
        return "(a body that could not be read)"  # i18n: not said (the log's)
    if not raw:
        return "(no body)"  # i18n: not said (the log's)
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested past what json parses
        text = repr(raw[:LOGGED_BODY])
    else:
        if isinstance(body, dict):
            body = {k: "***" if k in SECRET_KEYS else v for k, v in body.items()}
        text = json.dumps(body, ensure_ascii=False)
    return text if len(text) <= LOGGED_BODY else text[:LOGGED_BODY - 1] + "…"
