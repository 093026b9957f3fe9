"""The pages' language: which one a request is answered in, and the words for it.

Each request is answered in the language chosen in this order (the first that names a
shipped one, companion/i18n.py LANGUAGES):

1. ``?lang=xx`` in the address (kept in the :data:`COOKIE` for the next pages: how a
   TV without a keyboard is set apart from the director's phone);
2. the :data:`COOKIE`, set by the page's language picker (web/static/common.js);
3. the app's own language when it has one (the hall's ``language`` in its config: a
   club's hall speaks its club's language whatever the TV's browser was set to);
4. the browser's ``Accept-Language``: its best shipped language, else English.

Nothing here ever refuses a request: a malformed or huge header, a cookie or a
``lang`` naming no shipped language, each falls back to the next step, and at the end
to English.

:func:`setup` installs it on an app: templates get ``_()`` (``{{ _("Score") }}``,
named ``{placeholders}`` as in Python), ``N_()``, ``lang`` (for ``<html lang>``),
``languages`` (the picker's) and ``script_words`` (the scripts' domain of the
language, as a JSON block: a script says ``TC.t("Offline")``, never keeping its own
copy); :func:`error_text` says a JSON error in the request's language.

Per-request JSON carries Python-made words too (a timeline's titles and labels, the
start form's options, a refusal): they stay :class:`Text` in the value answered and are
said where it is encoded, by :func:`said`: :class:`SaidJSON` (Flask's ``jsonify``, which
:func:`setup` installs) and web/reads.py (the answers it keeps, one per language). The
live state and its stream are one message for every phone and carry no words.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from flask import Flask, Response, current_app, g, has_request_context, request
from flask.json.provider import DefaultJSONProvider
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Request

from companion.i18n import (
    C_,
    ENGLISH,
    LANGUAGES,
    N_,
    NAMES,
    SCRIPTS,
    Text,
    _,
    language,
    translate,
    words,
)
from companion.i18n import said as i18n_said

#: The cookie that keeps a language chosen on a page (a year; any path of the site).
COOKIE, COOKIE_AGE = "lang", 365 * 24 * 3600
#: The most of an ``Accept-Language`` header read (a real one is under 200 characters;
#: the rest of a longer one is ignored, never parsed).
MAX_HEADER = 512


def choose(query: str | None, cookie: str | None, own: str | None,
           header: str | None) -> str:
    """The language a request is answered in (see the module's order)."""
    for value in (query, cookie, own):
        if (found := language(value)) is not None:
            return found
    if header:
        accepted = parse_accept_header(header[:MAX_HEADER], LanguageAccept)  # i18n: not said
        found = accepted.best_match(LANGUAGES)
        if found is not None:
            return language(found) or ENGLISH
    return ENGLISH


def current() -> str:
    """The language of the request being answered (English outside a request)."""
    if not has_request_context():
        return ENGLISH
    if "language" not in g:
        g.language = choose(request.args.get("lang"), request.cookies.get(COOKIE),
                            current_app.config.get("COMPANION_LANGUAGE"),
                            request.headers.get("Accept-Language"))  # i18n: not said
    return str(g.language)


def of_environ(environ: dict[str, Any], own: str | None = None) -> str:
    """The language of a request not yet in Flask's hands (WSGI middleware that answers
    before the app: web/reads.py ReadGate), by the same order as :func:`current`."""
    asked = Request(environ)
    return choose(asked.args.get("lang"), asked.cookies.get(COOKIE), own,
                  environ.get("HTTP_ACCEPT_LANGUAGE"))


def said(value: Any, lang: str | None = None) -> Any:
    """``value`` (JSON-ready) with every :class:`Text` in it said in ``lang`` (None: the
    request's): companion/i18n.py's walker, in the request's language."""
    return i18n_said(value, lang or current())


class SaidJSON(DefaultJSONProvider):
    """Flask's JSON, every :class:`Text` in an answer said in the request's language
    (:func:`said`): ``jsonify`` answers speak as the pages do."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return super().dumps(said(obj), **kwargs)


def say(text: object) -> str:
    """``text`` in the request's language."""
    return translate(text, current())


def error_text(message: object) -> str:
    """An API error's words in the request's language (its field names stay English)."""
    return say(message)


#: The scripts of one page each (a page hands its scripts the words of these that it
#: loads, and of :data:`SHARED`). A game's scripts (``<game>.js``, ``<game>-host.js``)
#: are neither: their words come with them (:func:`game_words`), so a page carries the
#: words of the game on the table only, as it carries its scripts (web/pages.py).
PAGE_SCRIPTS = frozenset({"host.js", "session.js", "spectator.js", "history.js",
                          "players.js", "hall.js", "night.js", "night-next.js",
                          "night-tv.js", "night-director.js", "sim.js"})
#: The scripts every page loads.
SHARED = frozenset({"common.js", "timeline.js"})


def script_words(lang: str, page: tuple[str, ...] = ()) -> Markup:
    """The words of the scripts a page loads (``page``: its own, :data:`PAGE_SCRIPTS`,
    with :data:`SHARED`) in ``lang`` as a JSON block for ``<script id="words">``:
    English has none (each script's message id is its English words). Only a page's
    own: each page stays in its weight budget (tests/web/test_api.py LIGHT) in every
    language."""
    return _json(words(lang, SCRIPTS, _user_of(frozenset(page) | SHARED)))


def game_words(lang: str, script: str) -> str:
    """The script that adds the words of the game script ``script`` (``alakaslam.js``)
    in ``lang`` to the page's (``TC.words``): loaded just before that script, by the
    page or on demand with it (web/pages.py game_assets)."""
    said = _json(words(lang, SCRIPTS, _user_of(frozenset({script}))))
    return f"Object.assign(TC.words, {said});\n"  # i18n: not said (a script)


def _json(said: Mapping[str, str]) -> Markup:
    """``said`` as JSON that cannot end a ``<script>`` block early."""
    text = json.dumps(dict(said), ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e")
                  .replace("&", "\\u0026"))


@cache
def _user_of(scripts: frozenset[str]) -> Callable[[str], bool]:
    """Whether a script (its path in the catalog) is one of ``scripts``."""
    def used(path: str) -> bool:
        return path.rsplit("/", 1)[-1] in scripts
    return used


def setup(app: Flask, own: str | None = None) -> None:
    """Answer ``app``'s pages in each request's language (``own``: the app's configured
    language, step 3 of the module's order, already checked by its config)."""
    app.config["COMPANION_LANGUAGE"] = own
    if not isinstance(app.json, SaidJSON):  # an app's own provider may say them already
        app.json = SaidJSON(app)

    def gettext(msgid: str, /, **params: Any) -> str:
        return say(_(msgid, **params))

    def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
        return say(N_(singular, plural, n, **params))

    def pgettext(context: str, msgid: str, /, **params: Any) -> str:
        return say(C_(context, msgid, **params))

    @app.context_processor
    def page_words() -> dict[str, Any]:
        lang = current()
        return {"_": gettext, "N_": ngettext, "C_": pgettext, "lang": lang,
                "languages": [(code, NAMES[code]) for code in LANGUAGES],
                "script_words": lambda page=(): script_words(lang, tuple(page))}

    @app.after_request
    def keep(response: Response) -> Response:
        # ?lang=xx chose a language: kept for this browser's next pages.
        if has_request_context() and (chosen := language(request.args.get("lang"))):
            response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE,
                                samesite="Lax")  # i18n: not said
        return response


__all__ = ["COOKIE", "SaidJSON", "Text", "choose", "current", "error_text", "game_words",
           "of_environ", "said", "say", "script_words", "setup"]
