"""Benchmark: a tap on a mock pin to the new frame on the display, and an idle minute.

Run: .venv/bin/python -m tests.bench.bench_panel [--taps N] [--idle SECONDS]

The taps are timed three times: on Center Court's board at deuce (PREV/NEXT,
then OK/BACK opening and closing the serve screen), on AlakaSLAM's card row,
where each press redraws the court with the previewed landing (PREV/NEXT
moves the cursor off Go, OK adds that card, BACK takes it off again), and on
Alakazoo's space picker over a four-player match in play (PREV/NEXT move the
framed space on the portal, BACK draws the board with the portal, the
others' pips and the last event, OK opens the picker again).

The whole simulated companion runs in this process (mock pins, debouncer,
writer thread, panel, renderer, luma dummy device). Budgets on the
development machine: tap to frame p99 <= 10 ms; while idle, no frames but
the pixel shift and under 1% of a core. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from app.config import Config
from app.runtime import Companion, tune_for_presses
from drivers.display import DisplayConfig

START = {"game": "center-court", "players": ["Ann", "Bob"],
         "options": {"sets": 5, "final_set": "advantage"}}


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


class FrameClock:
    """Records when each frame reached the display device."""

    def __init__(self, companion: Companion) -> None:
        self.arrived = threading.Event()
        self.at = 0.0
        companion.oled.frames.add(self._frame)

    def _frame(self, image: object) -> None:
        self.at = time.perf_counter()
        self.arrived.set()


#: Doubles: the card row shows the Support's and the court is the widest.
SLAM = {"game": "alakaslam", "players": ["Ann", "Bea", "Cy", "Di"],
        "options": {"characters": ["austin", "rich", "toots", "simon"]}}


#: Four players in round 2, portals partly filled, Dark Power held.
ZOO = {"game": "alakazoo", "players": ["Ann", "Bea", "Cy", "Di"], "options": {}}
ZOO_PLAY = [{"type": "roll", "dice": 3}, {"type": "display", "space": 5, "creature": 1},
            {"type": "display", "space": 1, "creature": 2}, {"type": "end_turn"},
            {"type": "dark_power", "reason": "hand"},
            {"type": "display", "space": 5, "creature": 2}, {"type": "end_turn"},
            {"type": "display", "space": 3, "creature": 3}, {"type": "end_turn"},
            {"type": "end_turn"}]
#: Every press here is a tap: a hold needs 5 s (the longest the config allows), so a
#: busy machine that keeps a tap's release from being driven for a moment does not turn
#: it into a hold and take the bench off its screen (the taps' timing is unchanged:
#: PREV/NEXT report on the press, OK/BACK on the release).
TAPS_ONLY = replace(Config(), buttons=replace(Config().buttons, hold_time=5))
#: The OK/BACK releases timed after each PREV/NEXT, in order, per game.
RELEASES = {"alakazoo": ("back", "ok")}


def tap(c: Companion, button: str, pause: threading.Event) -> None:
    """A whole press and release, paced past the debounce."""
    pin = c.factory.pin(c.buttons.pins[button])
    pin.drive_low()
    pause.wait(c.cfg.buttons.debounce + 0.005)
    pin.drive_high()
    pause.wait(c.cfg.buttons.debounce + 0.005)


def bench_taps(taps: int, game: str) -> None:
    pause = threading.Event()  # never set: paces the taps like a hand
    with tempfile.TemporaryDirectory() as tmp, \
            Companion(TAPS_ONLY, sim=True, data=Path(tmp)) as c:
        tune_for_presses()  # as `companion run` does
        if game == "center-court":
            c.table.start(START)
            for w in (0, 0, 0, 1, 1, 1):  # deuce: every point from now on changes the screen
                c.table.act({"type": "point", "winner": w})
        elif game == "alakaslam":
            c.table.start(SLAM)
            for button in ("ok", "ok", "ok"):  # the server, the corner: the card row
                tap(c, button, pause)
            screen = c.runner.call(lambda _: c.panel.state.ui.screen)
            assert screen == "slam-cards", f"not on the card row but on {screen}"
        else:
            c.table.start(ZOO)
            for action in ZOO_PLAY:
                c.table.act(action)
            recorded = len(c.table.match.events)
            tap(c, "ok", pause)  # the space picker
            screen = c.runner.call(lambda _: c.panel.state.ui.screen)
            assert screen == "zoo-space", f"not on the space picker but on {screen}"
        clock = FrameClock(c)
        quiet = c.cfg.buttons.debounce
        on_press, on_release = [], []
        for i in range(taps):
            # PREV and NEXT report on the press; OK/BACK (which can be held)
            # on the release: open the serve screen and close it again.
            pin = c.factory.pin(c.buttons.pins["prev" if i % 2 else "next"])
            clock.arrived.clear()
            start = time.perf_counter()
            pin.drive_low()
            assert clock.arrived.wait(2), "no frame after a tap"
            on_press.append((clock.at - start) * 1000)
            pin.drive_high()
            pause.wait(quiet + 0.005)
            for button in RELEASES.get(game, ("ok", "back")):
                pin = c.factory.pin(c.buttons.pins[button])
                pin.drive_low()
                pause.wait(quiet + 0.005)
                clock.arrived.clear()
                start = time.perf_counter()
                pin.drive_high()
                assert clock.arrived.wait(2), "no frame after a release"
                on_release.append((clock.at - start) * 1000)
                pause.wait(quiet + 0.005)
        # Every press was on a screen: none may have recorded anything.
        played = len(c.table.match.events) - (recorded if game == "alakazoo" else 0)
        assert game == "center-court" or not played, "a press recorded a play"
    for name, samples in ((f"{game}: PREV/NEXT (press)", on_press),
                          (f"{game}: OK/BACK (release)", on_release)):
        print(f"{name:32} n={len(samples):5}  p50 {percentile(samples, 50):.2f} ms   "
              f"p99 {percentile(samples, 99):.2f} ms   max {max(samples):.2f} ms   "
              f"mean {statistics.fmean(samples):.2f} ms   (budget p99 <= 10 ms)")


def bench_idle(seconds: float, dim_after: float, shift_every: float) -> None:
    display = replace(DisplayConfig(), dim_after=dim_after, shift_every=shift_every)
    cfg = replace(Config(), display=display)
    with tempfile.TemporaryDirectory() as tmp, Companion(cfg, sim=True, data=Path(tmp)) as c:
        c.table.start(START)
        settle = threading.Event()
        settle.wait(0.5)
        frames_before = c.oled.frames_sent
        cpu0, wall0 = time.process_time(), time.perf_counter()
        settle.wait(seconds)
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        frames = c.oled.frames_sent - frames_before
    # Dimming changes the contrast, not the pixels; each shift is one frame.
    expected = max(0, int((seconds - dim_after) // shift_every))
    print(f"idle {wall:.0f} s (dim after {dim_after:g} s, shift every {shift_every:g} s): "
          f"frames sent {frames} (pixel shifts expected: about {expected}), "
          f"CPU {cpu * 1000:.0f} ms = {100 * cpu / wall:.3f}% of a core (budget < 1%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=500)
    parser.add_argument("--idle", type=float, default=60.0)
    parser.add_argument("--dim-after", type=float, default=20.0)
    parser.add_argument("--shift-every", type=float, default=10.0)
    args = parser.parse_args()
    for game in ("center-court", "alakaslam", "alakazoo"):
        bench_taps(args.taps, game)
    bench_idle(args.idle, args.dim_after, args.shift_every)


if __name__ == "__main__":
    main()
