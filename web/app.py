"""The Flask application factory: phone pages and the HTTP API over a running table.

``create_app(services)`` receives everything it serves (the table's runner,
the PIN, the simulator hooks); nothing lives in module globals, so every test
gets a fresh app over a fresh table. This module only composes: the
blueprints (api, pages, sim) and what they share (web/services.py) sit
below it and never import it.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, request

from companion.errors import StoreDamaged, StoreUnavailable
from companion.i18n import _, message
from companion.table import Table
from web import api, pages, players, sim
from web.door import signed_sessions
from web.fanout import Fanout
from web.guard import guard
from web.i18n import setup as languages
from web.reads import ReadGate, Reads, Refused, refusal
from web.services import STORAGE_STATUS, BoundedJSON, Services, error
from web.stream import Broker

log = logging.getLogger(__name__)

#: Larger request bodies are refused (a start record is well under 2 KB).
MAX_BODY = 16 * 1024


def create_app(services: Services) -> Flask:
    """A Flask app over ``services``; subscribes its state broker to the table."""
    app = Flask(__name__)
    # Never the Werkzeug debugger: errors are logged, clients get JSON.
    app.config.update(DEBUG=False, PROPAGATE_EXCEPTIONS=False)
    app.json = BoundedJSON(app)
    app.json.sort_keys = False
    broker = Broker("state", services.max_streams, services.keepalive,
                    fanout=Fanout(services.keepalive), per_client=services.streams_per_address)
    # Subscribed before the panel and the OLED (the runtime builds the app
    # first), so the phones' copies are on the wire before that work starts.
    def follow(table: Table) -> None:
        table.subscribe(lambda s: broker.publish(s.version, s.json_text, s.epoch))
        broker.publish(table.snapshot.version, table.snapshot.json_text, table.snapshot.epoch)

    services.runner.call(follow)
    app.extensions["companion"] = services
    app.extensions["companion.broker"] = broker
    app.extensions["companion.reads"] = Reads(services.runner.table)
    guard(app, services.extra_host_names,
          unexpected=_("internal error (logged); GET /api/state shows what the table holds"))
    # The host's signed session, lapsing by services.sessions' steady clock, and the
    # cross-site refusal of every change (web/door.py, shared with the hall's director).
    signed_sessions(app, services.secret_key, "companion_host", MAX_BODY)
    # Each request in its reader's language: ?lang, the page's choice, Accept-Language.
    languages(app)

    @app.errorhandler(StoreDamaged)
    def damaged(err: StoreDamaged) -> Response:
        # Named, never hidden: which file and what is wrong (the log has it too).
        log.error("request failed: %s %s: %s", request.method, request.path, err)
        return error(500, _('{problem}; see "If the SD card is damaged" in README.md',
                            problem=message(err)))

    @app.errorhandler(Refused)
    def refused(err: Refused) -> Response:
        # Readers past their budget (web/reads.py): told when to come back.
        return refusal(request.environ, err.status, str(err), err.retry_after)

    @app.errorhandler(StoreUnavailable)
    def unavailable(err: StoreUnavailable) -> Response:
        # The store logged it, once per episode: no traceback per request.
        return error(STORAGE_STATUS[err.kind], message(err))

    # Reads one at a time, so no number of readers starves the writer (web/reads.py).
    # Wrapping wsgi_app is Flask's documented way to add WSGI middleware; mypy sees
    # a method replaced (hence the ignore [method-assign]).
    app.wsgi_app = ReadGate(app.wsgi_app)  # type: ignore[method-assign]
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(players.bp)
    if services.sim is not None:
        app.register_blueprint(sim.bp)
    return app
