"""What one client may hold of the web server: request sizes, connections, time.

A phone on the Wi-Fi is not trusted. :class:`ConnectionLimits` names what
one client may make the server (app/server.py) hold, and :class:`Book`
keeps the connections to it, on the server's loop thread:

- **Sizes.** A body over ``max_body`` is refused with 413 as soon as its
  ``Content-Length`` says so (before a byte of it is read, and never with
  ``100 Continue``), or as a chunked one grows past it; request headers over
  ``max_headers`` end the connection (Tornado reads at most that much of
  them). Nothing is spooled to disk.
- **Per address.** One client address holds at most ``per_address``
  connections. A new one past that closes the oldest of that address's
  connections that is waiting for its client (an idle keep-alive, a request
  still arriving; never one whose request is being answered); if every one
  of them is being answered, the new connection is closed at once. One
  address can only ever crowd itself.
- **Globally.** Several addresses (a NAT, or one attacker with many
  addresses) can still fill the server's ``capacity``. Rather than stop
  accepting, a new connection then closes the connection that has waited
  longest for its client. A real request arrives within milliseconds of its
  connection and is then being answered, so the host is not crowded out.
- **In time.** A connection whose next request's headers have not all
  arrived ``idle_timeout`` seconds after it opened or after its last answer
  is closed (however steadily they trickle), a body must arrive within
  ``request_timeout`` seconds of its headers, and an answer none of which
  the client takes for ``answer_timeout`` seconds (it stopped reading) is
  dropped with its connection rather than held in memory. A request cut
  short at those limits is answered ``408 Request Timeout`` before its
  connection closes; a connection on which nothing more came is closed
  without a word.

The live streams are not counted: once handed over to the fan-out
(web/fanout.py) they leave the server's connections.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from web.app import MAX_BODY


@dataclass(frozen=True)
class ConnectionLimits:
    """Bounds on what one client can make the web server hold. Defaults for a table's Wi-Fi."""

    #: Largest request body accepted (bytes); the app's own limit by default.
    max_body: int = MAX_BODY
    #: Largest request line plus headers accepted (bytes). A phone sends ~1 KB.
    max_headers: int = 16 * 1024
    #: Connections one client address may hold at once. A browser opens at
    #: most 6 per server; a stream leaves the count once handed over.
    per_address: int = 16
    #: Seconds for a request's body to arrive, from its headers.
    request_timeout: float = 10.0
    #: Seconds for a request's headers to arrive, from the connection's opening
    #: or its last answer (an idle connection is closed then too).
    idle_timeout: float = 15.0
    #: Seconds an answer may wait with none of it taken by the client (it
    #: stopped reading): the answer is dropped and the connection closed.
    answer_timeout: float = 30.0


#: The bounds ``companion run`` serves with.
DEFAULT_LIMITS = ConnectionLimits()

#: A connection refused again and again rests at most 2**this times the Retry-After.
MAX_REST_DOUBLINGS = 3


@dataclass(eq=False)
class Client:
    """One connection as the server keeps it: its client and what it is doing.

    Also the request context Tornado's ``HTTPServerRequest`` reads
    (``remote_ip``, ``protocol``), so the app sees the client's address.
    """

    remote_ip: str
    #: Closes the connection (Tornado's ``IOStream.close``).
    close: Any = field(repr=False)
    protocol: str = "http"
    #: When it began waiting for its client (monotonic); None while a request is answered.
    since: float | None = field(default_factory=time.monotonic)
    #: Until when (monotonic) its next request waits before it is answered.
    rest_until: float = 0.0
    #: How many times in a row it was refused as soon as a rest ended.
    rests: int = 0

    def __str__(self) -> str:  # Tornado names the client so in its log lines
        return self.remote_ip

    def rest(self, seconds: float) -> None:
        """Leave this connection's next request unanswered for ``seconds``.

        For a client just told to come back later (429 or 503 with
        ``Retry-After``): one that asks again at once anyway waits, costing
        the server nothing, rather than being refused again and again as fast
        as it can ask. A connection refused again within ``seconds`` of its
        last rest ending rests twice as long each time, up to
        ``MAX_REST_DOUBLINGS`` doublings.
        """
        now = time.monotonic()
        self.rests = min(self.rests + 1, MAX_REST_DOUBLINGS) \
            if now - self.rest_until < seconds else 0
        self.rest_until = now + seconds * 2 ** self.rests

    def rest_left(self) -> float:
        """Seconds of rest still owed before the next request is answered."""
        return max(0.0, self.rest_until - time.monotonic())


class Book:
    """The server's connections, kept within :class:`ConnectionLimits` and ``capacity``.

    Runs on the server's loop thread only.
    """

    def __init__(self, limits: ConnectionLimits, capacity: int) -> None:
        self.limits = limits
        self.capacity = capacity
        self._open: dict[int, Client] = {}

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, client: Client) -> bool:
        """Count a new connection, making room for it; False: it must be closed at once
        (every connection of its address is being answered)."""
        others = list(self._open.values())
        mine = [c for c in others if c.remote_ip == client.remote_ip]
        if len(mine) >= self.limits.per_address and not self._close_longest_waiting(mine):
            return False
        if len(others) >= self.capacity:
            self._close_longest_waiting(others)
        self._open[id(client)] = client
        return True

    def gone(self, client: Client) -> None:
        """The connection closed (or left the server: a stream handed over)."""
        self._open.pop(id(client), None)


    def _close_longest_waiting(self, clients: list[Client]) -> bool:
        """Close the connection among ``clients`` that waited longest for its client."""
        waiting = [(c.since, c) for c in clients if c.since is not None]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda pair: pair[0])[1]
        self.gone(oldest)
        oldest.close()
        return True
