"""``companion hall``: the board, its MQTT client and its web server, put together."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from contextlib import ExitStack
from pathlib import Path

from app.server import WebServer, page_urls
from app.stopping import block_stop_signals, serve_until_stopped
from companion.catalog import Catalog, build
from companion.config import ConfigError, valid_pin
from companion.data_folder import default_data_dir
from companion.i18n import ENGLISH, _, chosen_language, message, translate
from companion.topics import RESULTS, SUMMARY, Topics, prefix_problem
from drivers.broker import MQTT_PASSWORD_ENV, BrokerAddress, ca_file_problem
from hall.answers import TableAnswers
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.director_api import Director
from hall.listener import Listener
from hall.night import Night
from hall.results import BadResults, ClubResults
from web.pins import Pin, kept_pin, secret_key

#: The largest ``results`` message read: 50 matches of four 16-character names, and room.
MAX_RESULTS_PAYLOAD = 64 * 1024

log = logging.getLogger("companion.hall")

#: Files in the data folder: the director PIN made up at a start (when none is chosen),
#: and the epoch that ends every director session at a logout.
DIRECTOR_PIN_FILE, DIRECTOR_SESSIONS_FILE = "director_pin", "director_sessions"
#: The environment variable that chooses the director PIN (after --director-pin).
DIRECTOR_PIN_ENV = "COMPANION_DIRECTOR_PIN"



class Hall:
    """The hall board serving on ``host``:``port``, fed from the broker at ``url``.

    Use as a context manager. The web server is up before the first
    connection attempt, so the page is there (saying so) while the broker is
    not. ConfigError for a bad URL, prefix or CA file,
    ServeError when it cannot listen.
    """

    def __init__(self, url: str, *, host: str = "0.0.0.0", port: int = 8081,
                 prefix: str, username: str | None = None, password: str | None = None,
                 ca_file: Path | None = None, max_streams: int = 200,
                 streams_per_address: int = 8, keepalive: float = 15.0,
                 data: Path | None = None, director_pin: str | None = None,
                 catalog: Catalog | None = None, language: str | None = None) -> None:
        try:
            address = BrokerAddress.parse(url)
        except ConfigError as err:
            raise ConfigError(_("--mqtt: {problem}", problem=message(err))) from None
        if (problem := prefix_problem(prefix)) is not None:
            raise ConfigError(_("--prefix {prefix} {problem}", prefix=repr(prefix),
                                problem=problem))
        if ca_file is not None:
            if not address.tls:
                raise ConfigError(_("--ca-file is for mqtts:// brokers; {url} is not TLS",
                                    url=repr(url)))
            if (problem := ca_file_problem(ca_file)) is not None:
                raise ConfigError(_("--ca-file: {problem}", problem=problem))
        #: Closed last to first: the listener, the streams, the server, the results.
        self._closers = ExitStack()
        self.prefix = prefix
        self.board = Board(prefix, self._publish)
        #: The club leaderboard's matches, in ``data`` (default: the companion's data folder).
        folder = data if data is not None else default_data_dir()
        #: The games the hall knows (None: those companion/catalog.py's FOLDERS lists).
        self.catalog = build() if catalog is None else catalog
        #: Its club-night games counted as the events count them (the one list).
        self.results = ClubResults(folder, self.catalog, lambda: self.night.club_rows())
        self._closers.callback(self.results.close)
        #: The club night (its events in the same folder's hall.db), and its director.
        self.night = Night(folder, prefix, self._offer, self._ratings, catalog=self.catalog)
        self._closers.callback(self.night.close)
        if director_pin is not None and not valid_pin(director_pin):
            raise ConfigError(_("the director PIN must be 4 to 12 digits 0-9"))
        #: As a table's host PIN is (app/runtime.py host_pin): chosen, else kept in the
        #: data folder from an earlier start, else made up now and kept there.
        self.director_pin = (Pin(director_pin, "chosen") if director_pin is not None
                             else kept_pin(folder / DIRECTOR_PIN_FILE,
                                           what="director PIN"))  # i18n: not said (the log's)
        self.director = Director.with_pin(self.director_pin.pin,
                                          folder / DIRECTOR_SESSIONS_FILE)
        self.listener: Listener | None = None
        self.broker = hall_broker(self.board.first, max_streams, keepalive, streams_per_address)
        self.answers = TableAnswers(self.board)
        #: The hall's own language (its pages', unless a browser chose another): one
        #: not shipped is said once in the log, and English is spoken (None: none set,
        #: each browser's Accept-Language).
        self.language = chosen_language(language, "--language")
        self.app = create_hall_app(self.board, self.broker, answers=self.answers,
                                   results=self.results, night=self.night,
                                   director=self.director, secret_key=secret_key(folder),
                                   language=self.language)
        try:
            self.server = WebServer(self.app, host, port, max_streams)
            self._closers.callback(self.server.close)
            self._closers.callback(self.broker.close)  # streams end before the server waits
            self.urls = page_urls(host, self.server.port)
            self.listener = Listener(address, prefix, self._message,
                                     self.board.connection, username=username,
                                     password=password, ca_file=ca_file,
                                     on_connected=self._republish)
            self._closers.callback(self.listener.close)
        except BaseException:
            self.close()
            raise

    def _offer(self, topic: str, payload: bytes) -> None:
        if self.listener is not None:
            self.listener.publish(topic, payload)

    def _republish(self, listener: Listener) -> None:
        """At each connection: every pending offer again, and every withdrawn one cleared
        (a broker restarted without its retained messages, a hall restarted mid-round).
        Through ``listener``: its first connection may come before ``self.listener`` is
        set."""
        self.night.resend(listener.publish)

    def _ratings(self, game: str) -> dict[str, float]:
        """The club's rating of each player of ``game``, by name key (for seeding)."""
        return {r.key: r.ordinal for r in self.results.ratings()[1].board(game)}

    def _message(self, topic: str, payload: bytes) -> None:
        """A table's ``results`` go to the club leaderboard and the club night, its summary
        to the board and the club night; nothing wrong in one stops the hall."""
        parsed = Topics.parse(self.prefix, topic)
        if parsed is None or parsed[1] != RESULTS:
            self.board.receive(topic, payload)
            if parsed is not None and parsed[1] == SUMMARY and payload \
                    and len(payload) <= MAX_RESULTS_PAYLOAD:
                self.night.summary(parsed[0], payload)
            return
        if not payload:  # the retained message cleared (a table's old id): nothing to count
            return
        if len(payload) > MAX_RESULTS_PAYLOAD:
            self.board.complain("%d bytes on %r (more than %d)",  # i18n: not said
                                len(payload), topic[:200],
                                MAX_RESULTS_PAYLOAD)
            return
        try:
            self.results.receive(parsed[0], payload)
        except BadResults as err:
            self.board.complain("%s on %r", err, topic[:200])
            return
        self.night.results(parsed[0], payload)

    def _publish(self, version: int, event: str, text: str) -> None:
        self.broker.publish(version, text, event=event)

    def __enter__(self) -> Hall:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop listening, end the streams, stop serving. Idempotent."""
        self._closers.close()


def director_banner(pin: Pin) -> str | None:
    """The banner's director PIN line (None for a chosen PIN, which the director knows)."""
    if pin.source == "chosen":
        return None
    kept = {"kept": _("as at the last start"), "new": _("new, kept for the next starts"),
            "unkept": _("new for this start only: see the log")}[pin.source]
    return _("  Director PIN: {pin} ({kept}; --director-pin or ${env} chooses one)",
             pin=pin.pin, kept=kept, env=DIRECTOR_PIN_ENV)


def run(args: argparse.Namespace) -> int:
    """``companion hall``: serve until SIGTERM or SIGINT, then stop cleanly."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # As a table does (app/stopping.py): SIGTERM and SIGINT wait, blocked in every thread,
    # for serve_until_stopped, with no handler that could deadlock the main thread; a
    # stop and continue of the process is lived through.
    block_stop_signals()
    with Hall(args.mqtt, host=args.host, port=args.port, prefix=args.prefix,
              username=args.user, password=os.environ.get(MQTT_PASSWORD_ENV) or None,
              ca_file=args.ca_file, data=args.data,
              director_pin=getattr(args, "director_pin", None)
              or os.environ.get(DIRECTOR_PIN_ENV) or None,
              catalog=getattr(args, "catalog", None),
              language=getattr(args, "language", None)) as hall:
        assert hall.listener is not None
        # The banner is said in the hall's own language (English when it has none).
        language = hall.language or ENGLISH
        print(translate(_("Table Companion hall board; tables from {broker} under {prefix}/",
                          broker=str(hall.listener.address), prefix=args.prefix), language))
        if (line := director_banner(hall.director_pin)) is not None:
            print(translate(line, language))
        for url in hall.urls:
            print(translate(_("  Hall: {url}", url=url), language))
            print(translate(_("  Director: {url}", url=f"{url}director"), language))
        sys.stdout.flush()
        serve_until_stopped()
    print(translate(_("Table Companion hall stopped."), language), flush=True)
    return 0
