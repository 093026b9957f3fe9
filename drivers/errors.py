"""Hardware problems, translated at the adapter into messages a person can act on."""

from __future__ import annotations

import os
from pathlib import Path

from companion.errors import CompanionError


class HardwareError(CompanionError):
    """A device is missing, unreadable or misconfigured; the message says what to check."""


class DeviceNotFoundError(HardwareError):
    """The device file (``/dev/i2c-1``, ``/dev/gpiochip0``...) is not there."""


class DevicePermissionError(HardwareError):
    """The device file is there but this user may not open it."""


def require_device(path: Path, group: str, missing: str) -> None:
    """Check that the device file ``path`` is there and usable by this user.

    Raises DeviceNotFoundError (``missing`` says how to enable it) or
    DevicePermissionError (naming the group to join), both with the path.
    """
    if not path.exists():
        raise DeviceNotFoundError(f"{path} not found: {missing}")
    if not os.access(path, os.R_OK | os.W_OK):
        raise DevicePermissionError(
            f"no permission to open {path}: add this user to the '{group}' group "
            f"(sudo usermod -aG {group} $USER) and log in again"
        )
