"""Serving the web app with waitress inside ``companion run``, and the addresses to print."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import ipaddress
import logging
import resource
import socket
import struct
import threading
import time

from flask import Flask
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import Task, ThreadedTaskDispatcher

from app.connections import DEFAULT_LIMITS, ConnectionLimits, guard_connections
from companion.config import ConfigError
from companion.errors import CompanionError
from web.reads import plays_first

log = logging.getLogger(__name__)

#: Requests besides the live streams that may run at once (API calls, pages).
SPARE_THREADS = 8
#: waitress's worker threads, whatever ``max_streams``: a live stream holds one
#: only while it hands its first message over to the fan-out (web/fanout.py).
THREADS = 2 * SPARE_THREADS
#: Descriptors the process needs besides connections: the database and its
#: WAL, pipes, selectors, GPIO, the serial pad, logs.
OTHER_FILES = 64
#: The serving loop turns at least this often while it is alive (its poll
#: waits ``asyncore_loop_timeout``, 1 s); longer means it is stuck.
STUCK_AFTER = 10.0
SIOCGIFADDR = 0x8915


class PlayFirst(ThreadedTaskDispatcher):
    """waitress's worker pool, with play ahead of the queue.

    waitress serves requests first come, first served: behind a hundred
    readers' requests (8 addresses' 16 connections each) the host's point
    would wait for all of them. Here a request that :func:`plays_first` is
    queued at the front instead, so it waits for the next free worker only.
    """

    def add_task(self, task: Task) -> None:
        if not _is_play(task):
            super().add_task(task)
            return
        with self.lock:
            # Behind the play already queued (first come, first served among play), ahead
            # of every read; handler_thread takes tasks from the left.
            ahead = 0
            for queued in self.queue:
                if not _is_play(queued):
                    break
                ahead += 1
            self.queue.insert(ahead, task)
            self.queue_cv.notify()


def _is_play(task: Task) -> bool:
    # A request waitress could not parse (an error task) has no command or path.
    request = getattr(task, "request", None)
    method, path = getattr(request, "command", None), getattr(request, "path", None)
    return isinstance(method, str) and method != "" and plays_first(method, path or "")


class ServeError(CompanionError):
    """The web server cannot listen where it was told to; the message names the address."""


class WebServer:
    """waitress on its own thread, sized so ``max_streams`` SSE streams fit.

    A live stream holds a worker only while it writes its first message:
    then the fan-out takes its connection over (web/fanout.py), so the pool
    is a small constant. waitress polls its sockets with ``poll()``, not
    ``select()``, which fails for a descriptor above 1023; the process's
    open-file limit is checked against ``max_streams`` at start (ConfigError
    when it cannot be raised far enough).

    What each client may hold (request sizes, connections per address, time
    to send a request) is bounded by ``limits``: see app/connections.py.
    """

    def __init__(self, app: Flask, host: str, port: int, max_streams: int,
                 limits: ConnectionLimits = DEFAULT_LIMITS) -> None:
        """Listen on ``host``:``port`` and serve; ServeError naming the address if it cannot."""
        connection_limit = max_streams + 4 * SPARE_THREADS
        # Each stream keeps one descriptor in the fan-out; waitress holds up
        # to connection_limit more (a stream being handed over has both).
        ensure_open_files(max_streams + connection_limit + OTHER_FILES, max_streams)
        sockets: dict = {}  # waitress's socket map: closed here if the start fails
        dispatcher = PlayFirst()
        dispatcher.set_thread_count(THREADS)
        try:
            self._server = create_server(
                app, map=sockets, _dispatcher=dispatcher, host=host, port=port, threads=THREADS,
                asyncore_use_poll=True, connection_limit=connection_limit,
                ident="TableCompanion", clear_untrusted_proxy_headers=True,
                **limits.adjustments(),
            )
        except (OSError, ValueError) as err:
            wasyncore.close_all(sockets)
            dispatcher.shutdown(timeout=1)
            raise ServeError(_cannot_serve(host, port, err)) from None
        guard_connections(self._server, limits)
        self.port = int(self._server.effective_port)  # waitress gives it as text
        self.host = host
        self._stop = threading.Event()
        self._turned = time.monotonic()
        #: Held while the connections (waitress's wake-up pipe too) are closed.
        self._closing = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="waitress", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        # waitress's own run() only ends when its socket map is empty; closing
        # that map from another thread races with the poll. Loop here instead
        # and close everything on this thread once asked to stop.
        server = self._server
        try:
            while not self._stop.is_set():
                self._turned = time.monotonic()
                wasyncore.loop(timeout=server.adj.asyncore_loop_timeout, map=server._map,
                               use_poll=server.adj.asyncore_use_poll, count=1)
        except Exception:
            # Nothing can be served any more: say so, close the connections so
            # clients see an error instead of hanging, and let healthy() tell
            # the watchdog.
            log.exception("the web server's loop failed; no request is served")
        server.task_dispatcher.shutdown(timeout=5)
        with self._closing:
            _close_all(server._map)
            self._closed = True

    def healthy(self) -> bool:
        """Whether the server is serving: its thread alive and its loop turning."""
        return (self._thread.is_alive() and not self._stop.is_set()
                and time.monotonic() - self._turned < STUCK_AFTER)

    def close(self) -> None:
        """Stop accepting, end the workers, close every connection. Idempotent."""
        if self._stop.is_set():
            return
        self._stop.set()
        with self._closing:
            # Wake the poll now rather than at its timeout; never once the
            # pipe is closed (its number may belong to another file by then).
            if not self._closed:
                self._server.pull_trigger()
        self._thread.join(10)


def _close_all(sockets: dict) -> None:
    """Close every connection and socket in waitress's map, and what each connection
    was still sending: ``wasyncore.close_all`` closes only the sockets, so a static file
    cut off mid-answer stayed open until the collector found it (a ResourceWarning)."""
    for channel in list(sockets.values()):
        if isinstance(channel, HTTPChannel):
            with contextlib.suppress(OSError):
                channel.handle_close()  # its answers' buffers (open files) too
    wasyncore.close_all(sockets)


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


def ensure_open_files(needed: int, max_streams: int) -> None:
    """Raise the soft open-file limit to ``needed`` if it is lower, within the hard limit.

    ConfigError naming ``[web] max_streams`` when the hard limit is too low.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise ConfigError(
            f"[web] max_streams = {max_streams} needs about {needed} open files, but this "
            f"process may open at most {hard} (RLIMIT_NOFILE); lower [web] max_streams to "
            f"{max(1, (hard - OTHER_FILES - 4 * SPARE_THREADS) // 2)} or raise the limit "
            "(LimitNOFILE= in the systemd unit, ulimit -n)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    log.info("open-file limit raised from %d to %d for [web] max_streams = %d",
             soft, needed, max_streams)


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
