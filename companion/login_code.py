"""The one-time login code the panel shows: the host's way in whatever the PIN budget says.

The wrong-PIN budget (web/auth.py) must hold off a guesser with many
addresses, so a stranger can spend it and make PIN logins wait. The panel's
Menu > Host login screen then shows a code drawn here; a phone that sends
it (``POST /api/login {"code": ...}``) is logged in, past every lockout.
Whoever reads the code stands at the table, which is what the PIN stands
for too.

A code is 8 characters of Crockford's base 32 (``0-9``, ``A-Z`` without
``I L O U``: 40 bits), shown as ``ABCD-EFGH``. It works once, for
:data:`LIFETIME` seconds, and only while the screen shows it (the panel
voids it when the screen closes or draws a new one). Guessing needs no
budget of its own: at a thousand guesses a second for its whole life, one
code is found with a chance of about 1 in 3.7 million.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable

#: Crockford's base 32: no I, L, O or U, so nothing reads as another character.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
#: How long a code works (seconds, monotonic).
LIFETIME = 300.0
#: What a reader may type for a character it resembles (Crockford's decoding).
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def shown(code: str) -> str:
    """``code`` as the OLED shows it: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def normalised(given: str) -> str:
    """What a phone sent, as a code: case, spaces and dashes ignored, O read as 0, I/L as 1."""
    kept = "".join(c for c in given.upper() if c not in " -\t")
    return kept.translate(_READ_AS)


class LoginCodes:
    """The current one-time code, if any. Thread-safe: the panel (writer thread) draws
    and voids codes, web requests take them."""

    def __init__(self, lifetime: float = LIFETIME,
                 clock: Callable[[], float] = time.monotonic,
                 draw: Callable[[], str] | None = None) -> None:
        """``draw`` makes a code (default: a random one; tests pass a fixed one)."""
        self.lifetime, self._clock = lifetime, clock
        self._draw = draw or (lambda: "".join(secrets.choice(ALPHABET) for _ in range(LENGTH)))
        self._lock = threading.Lock()
        self._code: str | None = None
        self._expires = 0.0
        #: Called (on the taking thread) after a code logged a phone in.
        self.on_taken: Callable[[], None] | None = None

    def issue(self) -> str:
        """A new code (the one before it stops working), in the form :func:`shown` gives."""
        code = self._draw()
        with self._lock:
            self._code, self._expires = code, self._clock() + self.lifetime
        return shown(code)

    def void(self) -> None:
        """No code works any more (its screen closed)."""
        with self._lock:
            self._code = None

    @property
    def active(self) -> bool:
        with self._lock:
            return self._code is not None and self._clock() < self._expires

    def take(self, given: object) -> bool:
        """Whether ``given`` is the current code, still in time; a right one is used up."""
        if not isinstance(given, str) or len(given) > 4 * LENGTH:
            return False
        attempt = normalised(given).encode("utf-8", "replace")
        with self._lock:
            code = self._code
            right = (code is not None and self._clock() < self._expires
                     and hmac.compare_digest(attempt, code.encode()))
            if right:
                self._code = None
        if right and self.on_taken is not None:
            self.on_taken()
        return right
