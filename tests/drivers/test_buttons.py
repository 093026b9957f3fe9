"""The GPIO button panel on gpiozero's MockFactory: real pins, real callbacks."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from companion.inputs import Input
from drivers.buttons import ButtonPanel, ButtonsConfig, EncoderConfig
from tests.support import Clock

CFG = ButtonsConfig(seats=(20, 21), hold_time=0.15, debounce=0.02)


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def inputs():
    return queue.Queue()


def next_input(inputs: queue.Queue, timeout: float = 2.0) -> Input:
    return inputs.get(timeout=timeout)


@pytest.fixture
def clock():
    return Clock()


def tap(factory: MockFactory, pin: int, chatter: int = 0, clock: Clock | None = None) -> None:
    """Press and release ``pin``, with ``chatter`` bounces each way.

    With ``clock`` (the panel's), the edges come 1 ms apart on it and a
    second passes after the release, however slowly this machine runs: the
    debouncer then sees exactly this press, never a pause the test did not
    mean (a busy CPU stretched real chatter past the debounce time).
    """
    p = factory.pin(pin)

    def drive(level: str) -> None:
        if clock is not None:
            clock.now += 0.001
        getattr(p, level)()

    drive("drive_low")
    for _ in range(chatter):  # contact bounce: back up and down at once
        drive("drive_high")
        drive("drive_low")
    drive("drive_high")
    for _ in range(chatter):
        drive("drive_low")
        drive("drive_high")
    if clock is not None:
        clock.now += 1.0


def test_each_button_reports_its_tap(factory, inputs, clock):
    with ButtonPanel(CFG, EncoderConfig(), factory, inputs.put, clock=clock) as panel:
        for name, pin in panel.pins.items():
            tap(factory, pin, clock=clock)  # OK and BACK: never a hold, however slow
            assert next_input(inputs) == Input(name)
    assert inputs.empty()


def test_a_bouncing_press_is_one_tap(factory, inputs, clock):
    with ButtonPanel(CFG, EncoderConfig(), factory, inputs.put, clock=clock):
        tap(factory, 20, chatter=25, clock=clock)
        tap(factory, 13, chatter=25, clock=clock)
        # Two clean taps after them: anything more the bounces made would
        # come out before the second of these.
        tap(factory, 21, clock=clock)
        tap(factory, 21, clock=clock)
        assert [next_input(inputs) for _ in range(4)] == [
            Input("seat1"), Input("ok"), Input("seat2"), Input("seat2")]


def test_holding_back(factory, inputs):
    with ButtonPanel(CFG, EncoderConfig(), factory, inputs.put):
        factory.pin(19).drive_low()
        assert next_input(inputs) == Input("back", hold=True)
        factory.pin(19).drive_high()
        with pytest.raises(queue.Empty):
            inputs.get(timeout=0.2)


def test_the_encoder_turns_and_pushes(factory, inputs):
    encoder = EncoderConfig(a=17, b=27, button=22)
    with ButtonPanel(CFG, encoder, factory, inputs.put):
        a, b = factory.pin(17), factory.pin(27)
        # One detent clockwise: A leads B (gpiozero's quadrature sequence).
        a.drive_low(); b.drive_low(); a.drive_high(); b.drive_high()  # noqa: E702
        assert next_input(inputs) == Input("next")
        b.drive_low(); a.drive_low(); b.drive_high(); a.drive_high()  # noqa: E702
        assert next_input(inputs) == Input("prev")
        tap(factory, 22)
        assert next_input(inputs) == Input("ok")


def test_close_releases_the_pins_and_is_idempotent(factory, inputs):
    panel = ButtonPanel(CFG, EncoderConfig(), factory, inputs.put)
    panel.close()
    panel.close()
    # The pins are free again for another panel.
    with ButtonPanel(CFG, EncoderConfig(), factory, inputs.put):
        tap(factory, 5)
        assert next_input(inputs) == Input("prev")


def test_a_failing_consumer_does_not_stop_the_buttons(factory, inputs, caplog):
    calls = []

    def sink(inp):
        calls.append(inp)
        if len(calls) == 1:
            raise RuntimeError("queue full")
        inputs.put(inp)

    with ButtonPanel(CFG, EncoderConfig(), factory, sink):
        tap(factory, 5)
        tap(factory, 6)
        assert next_input(inputs) == Input("next")
    assert "queue full" in caplog.text
