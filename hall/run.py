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
from companion.topics import prefix_problem
from drivers.broker import MQTT_PASSWORD_ENV, BrokerAddress, ca_file_problem
from hall.answers import TableAnswers
from hall.app import create_hall_app, hall_broker
from hall.cards import Board
from hall.listener import Listener

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
                 streams_per_address: int = 8, keepalive: float = 15.0) -> None:
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
        #: Closed last to first: the listener, the streams, then the server.
        self._closers = ExitStack()
        self.board = Board(prefix, self._publish)
        self.broker = hall_broker(self.board.first, max_streams, keepalive, streams_per_address)
        self.answers = TableAnswers(self.board)
        self.app = create_hall_app(self.board, self.broker, answers=self.answers)
        try:
            self.server = WebServer(self.app, host, port, max_streams)
            self._closers.callback(self.server.close)
            self._closers.callback(self.broker.close)  # streams end before the server waits
            self.urls = page_urls(host, self.server.port)
            self.listener = Listener(address, prefix, self.board.receive,
                                     self.board.connection, username=username,
                                     password=password, ca_file=ca_file)
            self._closers.callback(self.listener.close)
        except BaseException:
            self.close()
            raise

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
              ca_file=args.ca_file) as hall:
        print(f"Table Companion hall board; tables from {hall.listener.address} "
              f"under {args.prefix}/")
        for url in hall.urls:
            print(f"  Hall: {url}")
        sys.stdout.flush()
        stop.wait()
    print("Table Companion hall stopped.", flush=True)
    return 0
