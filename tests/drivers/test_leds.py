"""Seat LEDs follow whose turn it is, on gpiozero's mock pins."""

from __future__ import annotations

import random

from gpiozero.pins.mock import MockFactory

from companion.table import Table
from drivers.leds import SeatLeds
from tests.support import CATALOG


def test_the_seat_to_move_is_lit(memory_store):
    factory = MockFactory()
    leds = SeatLeds([23, 12], factory)
    table = Table(memory_store, CATALOG, rng=random.Random(0))
    table.subscribe(leds.show)
    try:
        table.start({"game": "center-court", "players": ["Ann", "Bob"],
                     "options": {"first_server": 1, "sets": 1}})
        assert leds.lit == [1] and factory.pin(12).state == 1 and factory.pin(23).state == 0
        table.act({"type": "serve", "card": 4})  # Ann must return now
        assert leds.lit == [0]
        for _ in range(24):
            table.act({"type": "point", "winner": 0})
        assert leds.lit == []  # the match is over
        table.undo()
        assert leds.lit != []
    finally:
        leds.close()
        factory.close()
