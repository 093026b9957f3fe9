"""Host login by PIN, the lockout after wrong PINs, CSRF tokens and the Host check.

Spectators only read. Every request that changes anything needs the host's
session cookie and the session's CSRF token in the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: Wrong PINs allowed before the lockout starts.
FREE_TRIES = 5


@dataclass
class _Record:
    failures: int = 0
    locked_until: float = 0.0


class Lockout:
    """Counts wrong PINs per client address; after 5 the client must wait.

    The wait doubles with every further wrong PIN: ``base``, 2 x ``base``,
    4 x ``base``... up to ``cap`` seconds. A right PIN clears the count.
    """

    def __init__(self, base: float = 30.0, cap: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.base, self.cap, self._clock = base, cap, clock
        self._records: dict[str, _Record] = {}
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds the client must still wait (0: it may try now)."""
        with self._lock:
            record = self._records.get(client)
            return max(0.0, record.locked_until - self._clock()) if record else 0.0

    def failed(self, client: str) -> float:
        """Count a wrong PIN; returns the wait it now has (0 while tries are free)."""
        with self._lock:
            record = self._records.setdefault(client, _Record())
            record.failures += 1
            over = record.failures - FREE_TRIES
            if over < 0:
                return 0.0
            wait = min(self.cap, self.base * 2 ** over)
            record.locked_until = self._clock() + wait
            return wait

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._records.pop(client, None)


def pin_matches(given: object, pin: str) -> bool:
    """Constant-time PIN check; anything but a string is wrong."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), pin.encode())


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_matches(given: str | None, expected: str | None) -> bool:
    return bool(given and expected) and hmac.compare_digest(given, expected)


def host_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """Names this companion answers to: localhost, its hostname, ``<hostname>.local``."""
    hostname = socket.gethostname().lower()
    names = {"localhost", hostname, f"{hostname}.local"}
    names.update(n.lower() for n in extra)
    return frozenset(names)


def host_allowed(host_header: str, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names this companion.

    Any IP address is allowed: DNS rebinding needs a domain name that the
    attacker controls, and a literal address cannot be rebound. Names must be
    ours.
    """
    host = host_header.strip().lower()
    if host.startswith("["):  # [v6]:port
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host.rstrip(".") in names
