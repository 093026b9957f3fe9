"""When a table vanishes without a goodbye (the network cut, the Pi frozen), the broker
sends its last will ``offline`` once it has heard nothing from it for 1.5 keep-alives,
never sooner, and at most a few seconds later: what docs/api.md says, measured on a
real Mosquitto."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from companion.topics import TableInfo, Topics
from drivers.mqtt import MqttConfig, TablePublisher
from tests.mqtt.support import TIMEOUT, Listener
from tests.mqtt_support import Mosquitto
from tests.support import CATALOG

#: The keep-alive the test gives the table (the real one is drivers.mqtt.KEEPALIVE).
KEEPALIVE = 2
#: How much later than 1.5 keep-alives docs/api.md lets the will come: Mosquitto 2.0
#: counts whole seconds and, on a quiet broker, looks at keep-alives every 5 s at most
#: (measured: 0.3 to 5.7 s late with a keep-alive of 2 s, 1.4 to 2.1 s with 30 s).
LATE = 7.0


class Cable:
    """A TCP relay between the table and the broker that can be cut like a network:
    nothing passes any more, and neither end is told (no FIN, no RST)."""

    def __init__(self, broker_port: int) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self._broker_port = broker_port
        self._cut = threading.Event()
        self._sockets: list[socket.socket] = [self.server]
        #: Guards the sockets: the table may reconnect while the cable is being closed.
        self._lock = threading.Lock()
        self._closed = False
        #: time.monotonic() of the last bytes the table sent that reached the broker.
        self.last_from_table = 0.0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                table, _ = self.server.accept()
                broker = socket.create_connection(("127.0.0.1", self._broker_port))
                with self._lock:
                    if self._closed:  # accepted as the cable closed: closed with it
                        table.close()
                        broker.close()
                        return
                    self._sockets += [table, broker]
                threading.Thread(target=self._pump, args=(table, broker, True),
                                 daemon=True).start()
                threading.Thread(target=self._pump, args=(broker, table, False),
                                 daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_table: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if self._cut.is_set():
                    continue  # swallowed, as by a dead network
                sink.sendall(data)
                if from_table:
                    self.last_from_table = time.monotonic()

    def cut(self) -> None:
        self._cut.set()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            sockets = list(self._sockets)
        for s in sockets:
            s.close()


def test_the_last_will_comes_one_and_a_half_keep_alives_after_the_last_packet(
        tmp_path, monkeypatch):
    monkeypatch.setattr("drivers.mqtt.KEEPALIVE", KEEPALIVE)
    with Mosquitto(tmp_path / "broker") as broker, Listener(broker, ["table-companion/#"]) \
            as seen:
        cable = Cable(broker.port)
        cfg = MqttConfig(url=f"mqtt://127.0.0.1:{cable.port}", table="a")
        publisher = TablePublisher(cfg, TableInfo("a", "a"), CATALOG, password=None, data=None)
        try:
            availability = Topics("table-companion", "a").availability
            seen.wait_payload(availability, b"online")
            # Quiet for a keep-alive and more: the table's pings keep it online.
            wait = threading.Event()
            wait.wait(KEEPALIVE * 2)
            assert seen.last(availability) == b"online"
            cable.cut()
            seen.wait_payload(availability, b"offline", timeout=KEEPALIVE * 1.5 + LATE + TIMEOUT)
            gap = time.monotonic() - cable.last_from_table
            log = broker.log.read_text()[-1500:]
        finally:
            publisher.close()
            cable.close()
    assert KEEPALIVE * 1.5 <= gap <= KEEPALIVE * 1.5 + LATE, (gap, log)
