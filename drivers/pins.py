"""Choosing gpiozero's pin factory: the Pi's library, or mock pins for --sim."""

from __future__ import annotations

from pathlib import Path

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory

from drivers.errors import HardwareError, require_device

GPIOCHIP = Path("/dev/gpiochip0")


def pin_factory(backend: str, sim: bool, gpiochip: Path = GPIOCHIP) -> Factory:
    """The pin factory for ``backend`` ("lgpio" or "rpigpio"), or MockFactory if ``sim``.

    Never falls back to mock pins silently: without GPIO and without --sim
    this raises a HardwareError that says so.
    """
    if sim:
        return MockFactory()
    require_device(gpiochip, "gpio", "this machine has no GPIO. On a PC, run with --sim "
                   "for simulated buttons and display")
    try:
        if backend == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    except ImportError as err:
        package = "lgpio" if backend == "lgpio" else "RPi.GPIO"
        raise HardwareError(
            f"the {package} pin library is not installed ({err}). On the Pi: "
            f"pip install '.[pi]', or sudo apt install python3-{package.lower()}"
        ) from None
    except Exception as err:  # the libraries raise their own types (lgpio.error...)
        raise HardwareError(f"cannot open the GPIO pins with {backend}: {err}") from None
