"""Drawing on the 128x64 one-bit screen: fonts, soft keys, lists, banners.

Pillow only, with the fonts shipped in ``fonts/``, so a frame is the same
pixels on every machine.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from companion.names import MIN_WIDTH, short_names
from companion.ui.base import SOFT_KEYS, Screen

WIDTH, HEIGHT = 128, 64
FONTS = Path(__file__).parent / "fonts"
#: The soft-key bar: the bottom 9 rows, one 32-pixel cell per panel button.
KEYS_TOP = HEIGHT - 9
SMALL, BODY, BOLD, BIG = "5x8", "6x10", "7x13B", "10x20"
#: One soft-key cell per panel button, a divider between two.
KEY_CELL = WIDTH // len(SOFT_KEYS)


@cache
def font(name: str) -> ImageFont.ImageFont:
    """A shipped bitmap font by name (``"6x10"``...)."""
    return ImageFont.load(str(FONTS / f"{name}.pil"))


def char_width(name: str) -> int:
    """The advance of one character of a fixed-width font."""
    return int(name.split("x")[0])


def blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


def fit(text: str, name: str, width: int) -> str:
    """``text`` cut to ``width`` pixels of font ``name`` (with a dot if cut)."""
    room = width // char_width(name)
    return text if len(text) <= room else text[: max(0, room - 1)] + "."


def fit_names(names: Sequence[str], *lines: Callable[[list[str]], str], room: int) -> str:
    """``lines(names)`` within ``room`` characters, the names shortened only as much as
    needed (all of them together, so they stay told apart): the longest names that
    let one of the lines fit, with the first line that fits with them.

    Falls back to cutting the last line when even the shortest names do not fit.
    """
    for width in range(max(MIN_WIDTH, *map(len, names)), MIN_WIDTH - 1, -1):
        short = short_names(names, width)
        for line in lines:
            text = line(short)
            if len(text) <= room:
                return text
    return fit(text, SMALL, room * char_width(SMALL))


def write(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, name: str = BODY,
          fill: int = 1) -> None:
    draw.text(xy, text, font=font(name), fill=fill)


def write_right(draw: ImageDraw.ImageDraw, right: int, y: int, text: str,
                name: str = BODY, fill: int = 1) -> None:
    write(draw, (right - len(text) * char_width(name), y), text, name, fill)


def write_centred(draw: ImageDraw.ImageDraw, y: int, text: str, name: str = BODY,
                  left: int = 0, width: int = WIDTH, fill: int = 1) -> None:
    text = fit(text, name, width)
    x = left + (width - len(text) * char_width(name)) // 2
    write(draw, (x, y), text, name, fill)


def soft_keys(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    """The bottom bar: what PREV, NEXT, OK and BACK do now, left to right.

    Labels are at most :data:`~companion.ui.controls.SOFT_KEY_CHARS` long
    (checked where bindings are made); :data:`KEY_CELL` holds that many with
    a clear pixel beside each divider (the last column of a glyph is blank).
    """
    draw.line((0, KEYS_TOP, WIDTH - 1, KEYS_TOP), fill=1)
    cell, advance = KEY_CELL, char_width(SMALL)
    for i, button in enumerate(SOFT_KEYS):
        if i:
            draw.line((i * cell, KEYS_TOP, i * cell, HEIGHT - 1), fill=1)
        label = screen.label(button)
        if label:
            inside = cell - 1  # the pixels between two dividers
            x = i * cell + 1 + max(1, (inside - len(label) * advance) // 2)
            write(draw, (x, KEYS_TOP + 1), label, SMALL)


def title_bar(draw: ImageDraw.ImageDraw, title: str) -> int:
    """An inverted title line; returns the first free row below it."""
    draw.rectangle((0, 0, WIDTH - 1, 9), fill=1)
    write_centred(draw, 1, title, SMALL, fill=0)
    return 11


def item_list(draw: ImageDraw.ImageDraw, items: tuple[str, ...], cursor: int | None,
              top: int, bottom: int = KEYS_TOP - 1) -> None:
    """Lines of a menu, scrolled so the cursor line shows, highlighted."""
    line = 10
    rows = max(1, (bottom - top) // line)
    first = 0 if cursor is None else min(max(0, cursor - rows + 1), max(0, len(items) - rows))
    if cursor is not None and cursor >= first + rows:
        first = cursor - rows + 1
    for row, index in enumerate(range(first, min(len(items), first + rows))):
        y = top + row * line
        text = fit(items[index], BODY, WIDTH - 8)
        if index == cursor:
            draw.rectangle((0, y - 1, WIDTH - 1, y + line - 2), fill=1)
            write(draw, (3, y), text, BODY, fill=0)
        else:
            write(draw, (3, y), text, BODY)
    if first > 0:
        draw.polygon([(WIDTH - 4, top - 1), (WIDTH - 7, top + 2), (WIDTH - 1, top + 2)],
                     fill=1)
    if first + rows < len(items):
        y = top + rows * line - 3
        draw.polygon([(WIDTH - 4, y + 2), (WIDTH - 7, y - 1), (WIDTH - 1, y - 1)], fill=1)


def banner(draw: ImageDraw.ImageDraw, message: str, top: int = 22) -> None:
    """A boxed message over the screen, for refusals: from ``top`` down, raised as far as
    the screen's top when a long message needs it (up to six lines), so it is read whole.
    """
    lines = textwrap.wrap(message, WIDTH // char_width(SMALL) - 2)[:6]
    height = 4 + 9 * len(lines)
    top = max(0, min(top, HEIGHT - 1 - height))
    draw.rectangle((0, top, WIDTH - 1, top + height), fill=0, outline=1)
    for i, text in enumerate(lines):
        write_centred(draw, top + 3 + 9 * i, text, SMALL)


def strip(draw: ImageDraw.ImageDraw, message: str, top: int) -> bool:
    """A one-line inverted notice from row ``top`` down to the soft keys, over what a
    board shows least (its last status line), so the score above stays in sight.

    Returns False, drawing nothing, when ``message`` needs more than one line.
    """
    if len(message) > WIDTH // char_width(SMALL) - 1:
        return False
    draw.rectangle((0, top, WIDTH - 1, KEYS_TOP - 1), fill=1)
    write_centred(draw, top + (KEYS_TOP - top - 8) // 2, message, SMALL, fill=0)
    return True


def marker(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A small right-pointing triangle (the server marker), 5 pixels tall."""
    draw.polygon([(x, y), (x, y + 6), (x + 3, y + 3)], fill=1)
