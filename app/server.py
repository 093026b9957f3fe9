"""Serving the web app with waitress inside ``companion run``, and the addresses to print."""

from __future__ import annotations

import errno
import fcntl
import ipaddress
import socket
import struct
import threading

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from app.connections import DEFAULT_LIMITS, ConnectionLimits, guard_connections
from companion.errors import CompanionError

#: Requests besides the live streams that may run at once (API calls, pages).
SPARE_THREADS = 8
SIOCGIFADDR = 0x8915


class ServeError(CompanionError):
    """The web server cannot listen where it was told to; the message names the address."""


class WebServer:
    """waitress on its own thread, sized so ``max_streams`` SSE streams fit.

    A live stream normally holds a worker only until the fan-out takes its
    connection over (web/fanout.py). Should that hand-over ever be refused
    (another waitress release), each stream keeps its worker for as long as
    it lives, so the pool is still the stream limit plus spare threads for
    everything else; idle workers cost no CPU.

    What each client may hold (request sizes, connections per address, time
    to send a request) is bounded by ``limits``: see app/connections.py.
    """

    def __init__(self, app: Flask, host: str, port: int, max_streams: int,
                 limits: ConnectionLimits = DEFAULT_LIMITS) -> None:
        """Listen on ``host``:``port`` and serve; ServeError naming the address if it cannot."""
        sockets: dict = {}  # waitress's socket map: closed here if the start fails
        try:
            self._server = create_server(
                app, map=sockets, host=host, port=port, threads=max_streams + SPARE_THREADS,
                connection_limit=max_streams + 4 * SPARE_THREADS, ident="TableCompanion",
                clear_untrusted_proxy_headers=True,
                **limits.adjustments(),
            )
        except (OSError, ValueError) as err:
            wasyncore.close_all(sockets)
            raise ServeError(_cannot_serve(host, port, err)) from None
        guard_connections(self._server, limits)
        self.port: int = self._server.effective_port
        self.host = host
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="waitress", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        # waitress's own run() only ends when its socket map is empty; closing
        # that map from another thread races with the poll. Loop here instead
        # and close everything on this thread once asked to stop.
        server = self._server
        while not self._stop.is_set():
            wasyncore.loop(timeout=server.adj.asyncore_loop_timeout, map=server._map,
                           use_poll=server.adj.asyncore_use_poll, count=1)
        server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(server._map)

    def close(self) -> None:
        """Stop accepting, end the workers, close every connection. Idempotent."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._server.pull_trigger()  # wake the poll now rather than at its timeout
        self._thread.join(10)


def _cannot_serve(host: str, port: int, err: OSError | ValueError) -> str:
    """Why waitress could not listen, and what to change, as one line."""
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    where = "--host or [web] host; 0.0.0.0 serves on every address"
    if isinstance(err, ValueError):
        # waitress turns a failed name lookup into "Invalid host/port specified."
        cause = err.__context__
        why = cause.strerror if isinstance(cause, OSError) and cause.strerror else str(err)
        return (f"cannot serve on {address}: {host!r} is not an address of this machine "
                f"({why}); use one of its addresses or names ({where})")
    if err.errno == errno.EADDRINUSE:
        return (f"cannot serve on {address}: the port is already in use (another companion "
                "running?); stop that program or choose another port (--port or [web] port)")
    if err.errno == errno.EADDRNOTAVAIL:
        return (f"cannot serve on {address}: {host} is not an address of this machine; "
                f"use one of its addresses ({where})")
    if err.errno == errno.EACCES and 0 < port < 1024:
        return (f"cannot serve on {address}: ports below 1024 need root; choose a port "
                "from 1024 up (--port or [web] port)")
    return f"cannot serve on {address}: {err.strerror or err}"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (Linux interface list)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # the interface has no IPv4 address
            address = socket.inet_ntoa(packed[20:24])
            if not ipaddress.ip_address(address).is_loopback:
                found.append(address)
    return found


def page_urls(host: str, port: int) -> list[str]:
    """Base URLs a phone can use: the bound address, or every LAN address and the .local name."""
    if host in ("0.0.0.0", "::", ""):
        hosts = [*lan_addresses(), f"{socket.gethostname()}.local"]
    else:
        hosts = [f"[{host}]" if ":" in host else host]
    return [f"http://{h}:{port}/" for h in hosts]
