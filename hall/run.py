"""``companion hall``: the board, its MQTT client and its web server, put together."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from contextlib import ExitStack
from pathlib import Path
from types import FrameType

from app.server import WebServer, page_urls
from companion.config import ConfigError
from companion.data_folder import default_data_dir
from companion.topics import RESULTS, Topics, prefix_problem
from drivers.broker import MQTT_PASSWORD_ENV, BrokerAddress, ca_file_problem
from hall.answers import TableAnswers
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.listener import Listener
from hall.results import BadResults, ClubResults

#: The largest ``results`` message read: 50 matches of four 16-character names, and room.
MAX_RESULTS_PAYLOAD = 64 * 1024

log = logging.getLogger("companion.hall")



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
                 data: Path | None = None) -> None:
        try:
            address = BrokerAddress.parse(url)
        except ConfigError as err:
            raise ConfigError(f"--mqtt: {err}") from None
        if (problem := prefix_problem(prefix)) is not None:
            raise ConfigError(f"--prefix {prefix!r} {problem}")
        if ca_file is not None:
            if not address.tls:
                raise ConfigError(f"--ca-file is for mqtts:// brokers; {url!r} is not TLS")
            if (problem := ca_file_problem(ca_file)) is not None:
                raise ConfigError(f"--ca-file: {problem}")
        #: Closed last to first: the listener, the streams, the server, the results.
        self._closers = ExitStack()
        self.prefix = prefix
        self.board = Board(prefix, self._publish)
        #: The club leaderboard's matches, in ``data`` (default: the companion's data folder).
        self.results = ClubResults(data if data is not None else default_data_dir())
        self._closers.callback(self.results.close)
        self.broker = hall_broker(self.board.first, max_streams, keepalive, streams_per_address)
        self.answers = TableAnswers(self.board)
        self.app = create_hall_app(self.board, self.broker, answers=self.answers,
                                   results=self.results)
        try:
            self.server = WebServer(self.app, host, port, max_streams)
            self._closers.callback(self.server.close)
            self._closers.callback(self.broker.close)  # streams end before the server waits
            self.urls = page_urls(host, self.server.port)
            self.listener = Listener(address, prefix, self._message,
                                     self.board.connection, username=username,
                                     password=password, ca_file=ca_file)
            self._closers.callback(self.listener.close)
        except BaseException:
            self.close()
            raise

    def _message(self, topic: str, payload: bytes) -> None:
        """A table's ``results`` go to the club leaderboard, every other message to the
        board; nothing wrong in one stops the hall."""
        parsed = Topics.parse(self.prefix, topic)
        if parsed is None or parsed[1] != RESULTS:
            self.board.receive(topic, payload)
            return
        if not payload:  # the retained message cleared (a table's old id): nothing to count
            return
        if len(payload) > MAX_RESULTS_PAYLOAD:
            self.board.complain("%d bytes on %r (more than %d)", len(payload), topic[:200],
                                MAX_RESULTS_PAYLOAD)
            return
        try:
            self.results.receive(parsed[0], payload)
        except BadResults as err:
            self.board.complain("%s on %r", err, topic[:200])

    def _publish(self, version: int, event: str, text: str) -> None:
        self.broker.publish(version, text, event=event)

    def __enter__(self) -> Hall:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop listening, end the streams, stop serving. Idempotent."""
        self._closers.close()


def run(args: argparse.Namespace) -> int:
    """``companion hall``: serve until SIGTERM or SIGINT, then stop cleanly."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    with Hall(args.mqtt, host=args.host, port=args.port, prefix=args.prefix,
              username=args.user, password=os.environ.get(MQTT_PASSWORD_ENV) or None,
              ca_file=args.ca_file, data=args.data) as hall:
        print(f"Table Companion hall board; tables from {hall.listener.address} "
              f"under {args.prefix}/")
        for url in hall.urls:
            print(f"  Hall: {url}")
        sys.stdout.flush()
        stop.wait()
    print("Table Companion hall stopped.", flush=True)
    return 0
