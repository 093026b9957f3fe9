"""The PINs and the session key a server keeps in its data folder: what a table's
composition root (app/runtime.py, the host PIN) and the hall's (hall/run.py, the
director PIN) share, below both.

A PIN chosen (a flag, the config, the environment) is never written down; one made
up is kept in the data folder (mode 0600) so a restart keeps every session, until a
new one is asked for. The key that signs sessions is kept there too.
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from companion.config import valid_pin

log = logging.getLogger(__name__)


def secret_key(data: Path) -> bytes:
    """The key that signs host sessions, kept in the data folder so logins survive restarts."""
    path = data / "secret_key"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        data.mkdir(parents=True, exist_ok=True)
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key


@dataclass(frozen=True)
class Pin:
    """A PIN (the table's host PIN, the hall's director PIN) and where it came from:
    ``chosen`` (flag, config or environment), ``kept`` (made up at an earlier start and
    kept in the data folder), ``new`` (made up now and kept), or ``unkept`` (made up
    now; the data folder would not take it)."""

    pin: str
    source: str


def kept_pin(path: Path, *, renew: bool = False,
             what: str = "host PIN") -> Pin:  # i18n: not said (the log's)
    """The PIN kept in ``path`` (made up at an earlier start), else a new random one,
    kept there (``renew``: a new one whatever is kept). A file that does not hold a
    PIN is set aside, named in the log, and replaced."""
    if not renew:
        try:
            kept = path.read_bytes().decode("ascii", "replace").strip()
        except FileNotFoundError:
            pass
        except OSError as err:
            log.warning("%s could not be read (%s): making a new %s", path, err, what)
        else:
            if valid_pin(kept):
                return Pin(kept, "kept")
            aside = path.with_name(f"{path.name}.damaged")
            path.replace(aside)
            log.warning("%s does not hold a PIN of 4 to 12 digits: set aside as %s, "
                        "and a new %s made", path, aside, what)
    pin = new_pin()
    try:
        _keep(path, pin)
    except OSError as err:
        # The data folder's own check (at the table's start) says what is wrong
        # with the folder; the PIN still serves this start.
        log.warning("the %s could not be kept in %s (%s): a new one is made at "
                    "each start until it can", what, path, err)
        return Pin(pin, "unkept")
    return Pin(pin, "new")


def _keep(path: Path, pin: str) -> None:
    """Write ``pin`` to ``path`` (mode 0600) whole under another name, then rename it:
    a power cut leaves the old PIN or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.new")
    part.unlink(missing_ok=True)
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(pin + "\n")
        f.flush()
        os.fsync(f.fileno())
    part.replace(path)


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"
