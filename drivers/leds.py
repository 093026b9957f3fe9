"""Seat LEDs: the seats whose turn it is are lit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpiozero import LED, Factory

from companion.config import MAX_SEATS, ConfigError, Section
from companion.i18n import _
from companion.table import Snapshot


@dataclass(frozen=True)
class LedsConfig:
    """Optional seat LEDs (one pin per seat, seat order)."""

    seats: tuple[int, ...] = ()


def _check_leds(leds: LedsConfig) -> None:
    if len(leds.seats) > MAX_SEATS:
        raise ConfigError(_("{key}: at most {most} seat LEDs", key="[leds] seats",
                            most=MAX_SEATS))


#: The [leds] section of the config file.
LEDS = Section("leds", LedsConfig, check=_check_leds,
               pins=lambda leds: [(f"[leds] seats[{i}]", p) for i, p in enumerate(leds.seats)])


class SeatLeds:
    """One gpiozero LED per seat, following the table's ``turn``.

    Subscribe :meth:`show` to the table; it only switches pins, so it is
    quick enough to run on the writer thread.
    """

    def __init__(self, pins: Sequence[int], factory: Factory) -> None:
        self.leds = [LED(pin, pin_factory=factory) for pin in pins]

    def show(self, snapshot: Snapshot) -> None:
        turn = set(snapshot.match["turn"]) if snapshot.match else set()
        for seat, led in enumerate(self.leds):
            led.value = seat in turn

    @property
    def lit(self) -> list[int]:
        """The seats lit now."""
        return [seat for seat, led in enumerate(self.leds) if led.is_lit]

    def close(self) -> None:
        for led in self.leds:
            led.close()
