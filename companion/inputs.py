"""What a button press means to the core: :class:`Input`, and the debouncer.

Inputs come from GPIO buttons, the serial pad, the phone and the simulator;
all of them are reduced to ``Input(button, hold)``. Physical switches bounce,
so GPIO edges go through a :class:`Debouncer` first, which turns each
physical press into exactly one input.

The debouncer is pure: it is fed edge timestamps and asked for deadlines, so
it is tested with synthetic bounce traces in virtual time, and the driver
thread only supplies the clock.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The panel's buttons: the one list of their names. Every other list of buttons
#: (the soft keys, config's pins, the GPIO driver, the serial pad, the simulator
#: page) is read from these.
PANEL = ("prev", "next", "ok", "back")
#: The optional seat buttons, one per seat (``seat(0)`` is the first seat's).
SEATS = ("seat1", "seat2", "seat3", "seat4")
BUTTONS = PANEL + SEATS
#: Buttons whose hold means something (OK: own die; BACK: undo). They report
#: a tap when released; every other button reports its tap on the press, at
#: once, since it has no hold to wait for.
HOLDABLE = frozenset({"ok", "back"})


@dataclass(frozen=True)
class Input:
    """One meaningful press: a tap, or a hold past the hold time."""

    button: str
    hold: bool = False

    def __post_init__(self) -> None:
        if self.button not in BUTTONS:
            raise ValueError(f"unknown button {self.button!r}; buttons: {', '.join(BUTTONS)}")

    def __repr__(self) -> str:
        return f"<Input {self.button}{' hold' if self.hold else ''}>"  # i18n: not said


def seat(index: int) -> Input:
    """The tap of seat ``index``'s button (0 for the first seat)."""
    return Input(SEATS[index])


class Debouncer:
    """Edges of one switch in, taps and holds out.

    The rule: a level change counts once the line has been quiet for
    ``quiet`` seconds, except that the first edge after such a quiet spell
    counts at once (a calm line that moves is a real press or release, and
    waiting would only add lag). Chatter shorter than ``quiet`` between its
    edges is therefore never seen, however long it lasts.

    Feed every raw edge with :meth:`edge` and call :meth:`tick` at (or after)
    :attr:`deadline`. Both return the inputs that became certain.
    """

    def __init__(self, button: str, *, quiet: float, hold_time: float,
                 holdable: bool | None = None) -> None:
        self.button = button
        self.quiet = quiet
        self.hold_time = hold_time
        self.holdable = button in HOLDABLE if holdable is None else holdable
        self._raw = False        # the line's level as last reported
        self._pressed = False    # the debounced level
        self._last_edge = float("-inf")
        self._pressed_at = 0.0
        self._held = False

    @property
    def is_pressed(self) -> bool:
        """The debounced state of the switch."""
        return self._pressed

    @property
    def deadline(self) -> float | None:
        """When :meth:`tick` must next be called, or None if nothing is pending."""
        times = []
        if self._raw != self._pressed:
            times.append(self._last_edge + self.quiet)
        if self._pressed and self.holdable and not self._held:
            times.append(self._pressed_at + self.hold_time)
        return min(times) if times else None

    def edge(self, t: float, pressed: bool) -> list[Input]:
        """The line went to ``pressed`` at time ``t`` (seconds, monotonic)."""
        out = self.tick(t)  # first settle what was pending before this edge
        calm = t >= self._last_edge + self.quiet
        self._last_edge = t
        self._raw = pressed
        if calm and pressed != self._pressed:
            out += self._settle(t, pressed)
        return out

    def tick(self, t: float) -> list[Input]:
        """Settle what has waited long enough by time ``t``."""
        out: list[Input] = []
        # Compared as deadline computes it, so ticking at the deadline settles.
        if self._raw != self._pressed and t >= self._last_edge + self.quiet:
            # Settled at the moment the line went quiet, not when we looked.
            out += self._settle(self._last_edge + self.quiet, self._raw)
        if (self._pressed and self.holdable and not self._held
                and t >= self._pressed_at + self.hold_time):
            self._held = True
            out.append(Input(self.button, hold=True))
        return out

    def _settle(self, t: float, pressed: bool) -> list[Input]:
        self._pressed = pressed
        if pressed:
            self._pressed_at, self._held = t, False
            return [] if self.holdable else [Input(self.button)]
        if self.holdable and not self._held:
            return [Input(self.button)]
        return []
