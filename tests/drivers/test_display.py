"""The OLED adapter on luma's dummy device: frames, idle care, hardware errors."""

from __future__ import annotations

import math
import os
import subprocess
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageDraw

from drivers.display import DisplayConfig, Oled, open_device
from drivers.errors import DeviceNotFoundError, DevicePermissionError
from drivers.pins import pin_factory


def picture(text: str) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).text((10, 10), text, fill=1)
    return image


class Frames:
    """Collects frames as the Oled reports them; waits on them with a timeout."""

    def __init__(self, oled: Oled) -> None:
        self.frames: list[Image.Image] = []
        self.arrived = threading.Condition()
        oled.frames.add(self.add)

    def add(self, image: Image.Image) -> None:
        with self.arrived:
            self.frames.append(image)
            self.arrived.notify_all()

    def wait(self, count: int, timeout: float = 30.0) -> list[Image.Image]:
        """The frames so far, once there are ``count``; ``timeout`` bounds a hung
        display thread, not its speed (a busy CI machine may take seconds)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.frames) >= count, timeout), \
                f"expected {count} frames, got {len(self.frames)}"
            return list(self.frames)

    def wait_for(self, image: Image.Image, timeout: float = 30.0) -> None:
        """Until a frame with ``image``'s pixels arrives (a frame the display thread was
        drawing before may come first)."""
        with self.arrived:
            assert self.arrived.wait_for(
                lambda: any(f.tobytes() == image.tobytes() for f in self.frames), timeout), \
                "the expected frame never came"


def test_sim_device_is_a_persistent_dummy():
    device = open_device(DisplayConfig(), sim=True)
    assert device.size == (128, 64) and device.mode == "1" and device.persist


def test_frames_reach_the_device_only_when_they_change():
    device = open_device(DisplayConfig(), sim=True)
    oled = Oled(device, DisplayConfig(), picture)
    frames = Frames(oled)
    try:
        oled.update("15-0")
        frames.wait(1)
        oled.update("15-0")   # same pixels: not sent
        oled.update("30-0")
        frames.wait(2)
        assert oled.frames_sent == 2
        assert device.image.tobytes() == picture("30-0").tobytes()
    finally:
        oled.close()
        oled.close()


class CountingClock:
    """time.monotonic, counting how often the display thread looks at it."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        return time.monotonic()


@pytest.mark.parametrize("timing", [
    {"dim_after": math.nan}, {"dim_after": math.inf}, {"dim_after": -math.inf},
    {"dim_after": 1e300}, {"dim_after": 0.0, "shift_every": math.nan},
    {"dim_after": 0.0, "shift_every": math.inf},
])
def test_timings_config_refuses_still_neither_spin_nor_end_the_display(timing):
    # The [display] section refuses these; the display must survive them anyway. nan used
    # to spin the thread at full CPU, inf ended it (a blank OLED, service up).
    cfg = DisplayConfig(**timing)
    clock = CountingClock()
    oled = Oled(open_device(cfg, sim=True), cfg, picture, clock=clock)
    frames = Frames(oled)
    try:
        oled.update("15-0")
        frames.wait(1)
        looked = clock.calls
        threading.Event().wait(0.3)  # an idle display: it should barely look at the clock
        assert clock.calls - looked < 10
        oled.update("30-0")  # still drawing
        assert frames.wait(2)[-1].tobytes() in {picture("30-0").tobytes(),
                                                 *shifted_forms(picture("30-0"))}
    finally:
        oled.close()


def shifted_forms(image: Image.Image) -> set[bytes]:
    forms = set()
    for shift in ((1, 0), (1, 1), (0, 1)):
        moved = Image.new(image.mode, image.size, 0)
        moved.paste(image, shift)
        forms.add(moved.tobytes())
    return forms


class HeldClock:
    """time.monotonic that stands still until ``run()``, then runs from where it stood:
    what is checked before is not raced by a busy machine's lost time."""

    def __init__(self) -> None:
        self.still = time.monotonic()
        self.since: float | None = None

    def run(self) -> None:
        self.since = time.monotonic()

    def hold(self) -> None:
        """Stand still again where it is: what follows is not raced by lost time."""
        self.still, self.since = self(), None

    def __call__(self) -> float:
        return self.still if self.since is None else self.still + time.monotonic() - self.since


def test_idle_dims_and_shifts_then_a_button_wakes():
    cfg = DisplayConfig(dim_after=0.2, shift_every=0.1, contrast=200, dim_contrast=5)
    device = open_device(cfg, sim=True)
    clock = HeldClock()
    oled = Oled(device, cfg, picture, clock=clock)
    frames = Frames(oled)
    try:
        oled.update("40-15")
        frames.wait(1)
        assert not oled.dimmed
        clock.run()  # from here on, idle time passes
        shifted = frames.wait(3)[1:]
        assert oled.dimmed
        # The same picture, moved by a pixel: never the unshifted frame again.
        assert all(f.tobytes() != picture("40-15").tobytes() for f in shifted)
        assert all(f.getbbox() != picture("40-15").getbbox() for f in shifted)
        # Time stands still from the press on: on a busy machine the idle time could
        # otherwise run out again (0.2 s) before the woken frame is drawn.
        clock.hold()
        with frames.arrived:
            frames.frames.clear()
        oled.activity()
        frames.wait_for(picture("40-15"))
        assert not oled.dimmed
    finally:
        oled.close()


def test_a_missing_i2c_bus_names_the_path_and_the_fix(tmp_path):
    with pytest.raises(DeviceNotFoundError) as err:
        open_device(DisplayConfig(i2c_port=1), sim=False, dev=tmp_path)
    message = str(err.value)
    assert str(tmp_path / "i2c-1") in message and "raspi-config" in message


def test_a_missing_spi_device_names_the_path(tmp_path):
    with pytest.raises(DeviceNotFoundError, match=r"spidev0\.1.*do_spi"):
        open_device(DisplayConfig(interface="spi", spi_device=1), sim=False, dev=tmp_path)


@pytest.fixture
def unwritable_bus(tmp_path):
    """A device file this process may not write: chmod for users, a read-only mount for root."""
    folder = tmp_path / "dev"
    folder.mkdir()
    bus = folder / "i2c-1"
    if os.geteuid() != 0:
        bus.write_text("")
        bus.chmod(0o400)
        yield folder
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "none", str(folder)],
                             capture_output=True, timeout=30)
    if mounted.returncode != 0:
        pytest.skip(f"root cannot mount a tmpfs here: {mounted.stderr!r}")
    try:
        bus.write_text("")
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True, timeout=30)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], timeout=30)


def test_no_permission_on_the_bus_names_the_path_and_the_group(unwritable_bus):
    with pytest.raises(DevicePermissionError) as err:
        open_device(DisplayConfig(), sim=False, dev=unwritable_bus)
    assert str(unwritable_bus / "i2c-1") in str(err.value)
    assert "'i2c' group" in str(err.value)


def test_no_gpio_and_no_sim_is_a_clear_error(tmp_path):
    with pytest.raises(DeviceNotFoundError, match=r"no GPIO\. On a PC, run with --sim"):
        pin_factory("lgpio", sim=False, gpiochip=tmp_path / "gpiochip0")


def test_sim_pins_are_gpiozeros_mock_pins():
    assert isinstance(pin_factory("lgpio", sim=True), MockFactory)
