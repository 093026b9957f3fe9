"""Host login by PIN, the lockout after wrong PINs, sessions, CSRF tokens, Host and Origin.

Spectators only read. Every request that changes anything needs the host's
session cookie and the session's CSRF token in the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import logging
import os
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.datastructures import Headers

from companion.i18n import Text, _

log = logging.getLogger(__name__)

#: Wrong PINs allowed before the lockout starts.
FREE_TRIES = 5
#: Wrong PINs from all addresses together allowed in :data:`TABLE_WINDOW` seconds.
TABLE_TRIES = 30
TABLE_WINDOW = 600.0
#: Addresses whose wrong PINs are remembered; past that the oldest record goes.
MAX_RECORDS = 4096


@dataclass
class _Record:
    failures: int = 0
    locked_until: float = 0.0


class Lockout:
    """Counts wrong PINs per client address and for the whole table.

    Per address: 5 are free, then the client must wait, and the wait doubles
    with every further wrong PIN: ``base``, 2 x ``base``, 4 x ``base``... up
    to ``cap`` seconds. A right PIN clears that address's count. One address
    never makes another wait.

    For the table: a guesser with many addresses (a /24 on the Wi-Fi, or any
    number of IPv6 addresses) gets 5 free tries from each, so all addresses
    together get ``table_tries`` wrong PINs in ``window`` seconds; past that
    a PIN login from an address that has not logged in before waits (the
    right PIN too, or the budget would mean nothing) until the oldest wrong
    PIN in the window has aged out. At the defaults a 6-digit PIN then takes
    months of guessing. Such a stranger cannot keep the host out: an address
    that logged in as the host before (the host's phone, remembered by this
    process) is not held by the table's budget, only by its own wrong PINs;
    and the one-time code the panel shows (companion/login_code.py) logs any
    phone in past both. A host already logged in is not affected, and the
    table's own buttons never are.

    Memory is bounded: at most ``max_records`` addresses are remembered, of
    each kind.
    """

    def __init__(self, base: float = 30.0, cap: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic, *,
                 table_tries: int = TABLE_TRIES, window: float = TABLE_WINDOW,
                 max_records: int = MAX_RECORDS) -> None:
        self.base, self.cap, self._clock = base, cap, clock
        self.table_tries, self.window, self.max_records = table_tries, window, max_records
        self._records: dict[str, _Record] = {}
        #: Addresses that logged in as the host (newest last), past the table's budget.
        self._known: dict[str, None] = {}
        #: When the wrong PINs of the window came (oldest first), for the table's budget.
        self._recent: deque[float] = deque(maxlen=table_tries)
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds the client must still wait (0: it may try now)."""
        return max(self.waits(client))

    def waits(self, client: str) -> tuple[float, float]:
        """Seconds the client must wait for its own wrong PINs, and for the table's."""
        with self._lock:
            now = self._clock()
            record = self._records.get(client)
            mine = max(0.0, record.locked_until - now) if record else 0.0
            return mine, self._table_wait(client, now)

    def _table_wait(self, client: str, now: float) -> float:
        if len(self._recent) < self.table_tries or client in self._known:
            return 0.0
        return max(0.0, self._recent[0] + self.window - now)

    def failed(self, client: str) -> float:
        """Count a wrong PIN; returns the wait it now has (0 while tries are free)."""
        with self._lock:
            now = self._clock()
            self._recent.append(now)
            record = self._records.pop(client, None) or _Record()
            self._records[client] = record  # newest last: the oldest is evicted first
            while len(self._records) > self.max_records:
                del self._records[next(iter(self._records))]
            record.failures += 1
            over = record.failures - FREE_TRIES
            if over >= 0:
                record.locked_until = now + min(self.cap, self.base * 2 ** over)
            return max(0.0, record.locked_until - now, self._table_wait(client, now))

    def succeeded(self, client: str) -> None:
        """The client logged in (PIN or code): its count is cleared, and from now on the
        table's budget does not hold it."""
        with self._lock:
            self._records.pop(client, None)
            self._known.pop(client, None)
            self._known[client] = None
            while len(self._known) > self.max_records:
                del self._known[next(iter(self._known))]


def pin_matches(given: object, pin: str) -> bool:
    """Constant-time PIN check; anything but a string is wrong."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), pin.encode())


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_matches(given: str | None, expected: str | None) -> bool:
    """Constant-time token check. Compared as bytes: ``compare_digest`` refuses
    str with non-ASCII characters, which any client can put in a header."""
    if not (given and expected):
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def steady_clock() -> Callable[[], float]:
    """Wall-clock seconds that never jump: the wall time when made, advanced by the
    monotonic clock. A Pi without a clock battery starts with a stale time and sets it
    from the network later; durations measured across that (a session's idle time)
    must not grow by the jump."""
    wall, start = time.time(), time.monotonic()
    return lambda: wall + (time.monotonic() - start)


#: A session whose last use is further than this from now (either way) was made by a
#: companion whose clock was off (a restart after the clock was set from the network):
#: its idle time is not known.
CLOCK_SET = 30 * 86400.0

#: A host session ends after this long without a host request: a club evening
#: has long pauses (a long match watched, a meal), but a phone left logged in
#: must not still be the host the next club night.
IDLE_LIMIT = 4 * 3600.0


@dataclass(frozen=True)
class Role:
    """Who a kind of session makes someone, and its refusals in their words (each a
    sentence of its own: a role's name takes other words around it in each language):
    ``not_logged_in``, ``ended`` (a logout or a new PIN), ``clock_set`` (the machine's
    clock set since; no clock battery)."""

    who: str
    not_logged_in: Text
    ended: Text
    clock_set: Text


#: A table's host (web/api.py) and a hall's club-night director (hall/director_api.py).
HOST = Role(
    "host", _("only the host can do that: log in with the PIN"),
    _("this host session has ended (a logout or a new PIN): log in with the PIN"),
    _("this host session was made before the table's clock was set (a Pi without a clock "
      "battery sets it from the network): log in with the PIN"))
DIRECTOR = Role(
    "director", _("only the director can do that: log in with the director PIN"),
    _("this director session has ended (a logout or a new director PIN): log in with the "
      "director PIN"),
    _("this director session was made before the hall's clock was set (a computer without "
      "a clock battery sets it from the network): log in with the director PIN"))


class Sessions:
    """Which host sessions are still valid: made since the last logout, with this PIN, not idle.

    A session (Flask's signed cookie) records the :attr:`generation` it was
    made in and when it was last used. The generation is an HMAC of the PIN
    keyed with a random epoch kept in ``path`` (the data folder): a logout
    draws a new epoch, a new PIN changes the HMAC, and either way every
    session made before no longer matches, in this process and after a
    restart. No ``path`` (tests): the epoch lives in memory only. An epoch
    file that cannot be read is replaced by a new one, which ends every
    session: the safe way round.
    """

    def __init__(self, pin: str, path: Path | None = None, idle: float = IDLE_LIMIT,
                 clock: Callable[[], float] | None = None, role: Role = HOST) -> None:
        """``clock``: seconds as stored in a session (default: :func:`steady_clock`, so
        a wall-clock jump while running neither ends nor lengthens a session);
        ``role``: whose sessions these are, as the refusals say."""
        self.idle, self._path, self._pin, self.role = idle, path, pin, role
        self._clock = clock or steady_clock()
        self._lock = threading.Lock()
        epoch = self._read()
        self.generation = self._generation(epoch if epoch is not None else self._new_epoch())

    def _read(self) -> bytes | None:
        if self._path is None:
            return None
        try:
            epoch = self._path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            log.warning("cannot read %s (%s): every host session ends", self._path, err)
            return None
        return epoch if len(epoch) == 16 else None

    def _new_epoch(self) -> bytes:
        epoch = secrets.token_bytes(16)
        if self._path is not None:
            # Written aside, then moved over: a crash leaves the old epoch or the new one.
            part = self._path.with_name(self._path.name + ".new")
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(epoch)
                f.flush()
                os.fsync(f.fileno())
            os.replace(part, self._path)
        return epoch

    def _generation(self, epoch: bytes) -> str:
        return hmac.new(epoch, self._pin.encode(), sha256).hexdigest()[:32]

    def now(self) -> float:
        return self._clock()

    def end_all(self) -> None:
        """End every session made so far (logout)."""
        with self._lock:
            self.generation = self._generation(self._new_epoch())

    def problem(self, session: Mapping[str, object]) -> Text | None:
        """Why ``session`` is not the host's (the director's, for :data:`DIRECTOR`
        sessions), or None when it is."""
        role = self.role
        if not session.get("host"):
            return role.not_logged_in
        seen = session.get("seen")
        if session.get("generation") != self.generation or not isinstance(seen, (int, float)):
            return role.ended
        unused = self._clock() - seen
        if abs(unused) > CLOCK_SET:
            return role.clock_set
        if unused > self.idle:
            hours = f"{self.idle / 3600:g}"
            return (_("this host session expired after {hours} h without use: log in with "
                      "the PIN", hours=hours) if role.who == "host" else
                    _("this director session expired after {hours} h without use: log in "
                      "with the director PIN", hours=hours))
        return None


class SteadySessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, without Flask's own age check of the signature.

    Flask refuses a cookie signed longer ago than its session lifetime by the
    wall clock, so a clock set from the network (years forward, or back) ended
    every session with a misleading "only the host can do that". The idle
    limit is :meth:`Sessions.problem`'s, on a clock that does not jump, and it
    names a clock change when it sees one.
    """

    def __init__(self) -> None:
        #: The signing serializer and cookie name, each with the keys and name it was made
        #: for: made again only when the app's keys or cookie name change.
        self._signing: tuple[object, URLSafeTimedSerializer | None] | None = None
        self._cookie: tuple[object, str] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once for the app's keys rather than for every request.

        Making one costs as much as the rest of a small request: itsdangerous tries
        the serializer on ``{}`` to learn whether it gives text, and that goes
        through the app's JSON (web/i18n.py ``SaidJSON``), which works out the
        request's language. A serializer keeps no state between calls, so one
        serves every worker thread."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self._signing
        if made is None or made[0] != keys:
            made = self._signing = (keys, super().get_signing_serializer(app))
        return made[1]

    def get_cookie_name(self, app: Flask) -> str:
        """The app's cookie name with a mark of its signing key (``companion_host_3f9a0c1e``:
        8 hex digits of the key's SHA-256, which tell nothing of the key). A browser sends an
        address's cookies to every port, so two tables tried on one PC (one address, two
        ports, two data folders) would otherwise share one cookie, and logging in to one
        would log the other out; a table restarted keeps its key, and so its cookie."""
        asked = (app.secret_key, super().get_cookie_name(app))
        named = self._cookie
        if named is None or named[0] != asked:
            key = app.secret_key
            key = key.encode() if isinstance(key, str) else bytes(key or b"")
            named = self._cookie = (asked, f"{asked[1]}_{sha256(key).hexdigest()[:8]}")
        return named[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            return self.session_class(serializer.loads(cookie))
        except BadSignature:
            return self.session_class()


def cross_site(headers: Headers | Mapping[str, str], host: str,
               scheme: str = "http") -> Text | None:
    """Why a change request comes from another site's page (None: it does not seem to):
    its ``Origin`` is not ``scheme://host`` (the request's own), or the browser says so.

    A second line behind the CSRF token. Browsers send ``Sec-Fetch-Site``
    and ``Origin`` with every POST made by a page; a request with neither
    comes from a program (curl, a script), which no other site can make a
    browser send, so it is let through to the session and CSRF checks.
    """
    site = headers.get("Sec-Fetch-Site")  # i18n: not said
    if site is not None and site not in ("same-origin", "none"):
        return _("refused: this request came from another site's page (Sec-Fetch-Site: "
                 "{site})", site=site)
    origin = headers.get("Origin")  # i18n: not said
    if origin is None:
        return None
    try:
        parts = urlsplit(origin) if origin != "null" else None
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() != scheme or not parts.netloc \
            or parts.netloc.lower() != host.lower():
        return _("refused: this request came from a page of another site (Origin: {origin}); "
                 "use the companion's own pages", origin=repr(origin))
    return None


def host_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """Names this companion answers to: localhost, its hostname, ``<hostname>.local``."""
    hostname = socket.gethostname().lower()
    names = {"localhost", hostname, f"{hostname}.local"}
    names.update(n.lower() for n in extra)
    return frozenset(names)


#: The longest ``Host`` that can name us: a DNS name (253) and a port.
MAX_HOST = 253 + len(":65535")


def host_allowed(host_header: str, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names this companion.

    Any IP address is allowed: DNS rebinding needs a domain name that the
    attacker controls, and a literal address cannot be rebound. Names must be
    ours. A header longer than any name or address with its port is neither.
    """
    if len(host_header) > MAX_HOST:
        return False
    return _host_allowed(host_header, names)


# Every request asks, and a table's requests name one host or two: the answers are
# kept (a few KB at most: 64 hosts of at most MAX_HOST characters).
@functools.lru_cache(maxsize=64)
def _host_allowed(host_header: str, names: frozenset[str]) -> bool:
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
