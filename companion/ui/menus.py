"""Menus, lists, choice rows, the welcome, the info (QR code) and the login code screens."""

from __future__ import annotations

import segno
from PIL import Image, ImageDraw

from companion.i18n import _
from companion.ui.base import Context, Screen
from companion.ui.canvas import (
    BIG,
    BODY,
    KEYS_TOP,
    SMALL,
    WIDTH,
    fit,
    item_list,
    text_width,
    title_bar,
    wrap,
    write,
    write_centred,
)


def welcome(draw: ImageDraw.ImageDraw) -> None:
    """No match on the table."""
    write_centred(draw, 8, "Table", BODY)
    write_centred(draw, 19, "Companion", BODY)
    write_centred(draw, 38, _("OK: set up a match"), SMALL)


def offer(draw: ImageDraw.ImageDraw, lines: tuple[str, ...]) -> None:
    """The hall's offer of the next match: who plays (one or two lines, the larger font
    when they fit it), the event, and what OK does."""
    *who, where = lines
    font = BODY if all(text_width(line, BODY) <= WIDTH for line in who) else SMALL
    step = 11 if font == BODY else 9
    y = 2
    for line in who:
        write_centred(draw, y, line, font)
        y += step
    write_centred(draw, y + 3, where, SMALL)
    write_centred(draw, KEYS_TOP - 10, _("OK to start"), SMALL)


def listing(draw: ImageDraw.ImageDraw, screen: Screen, cursor: int | None) -> None:
    """A title, lines with a cursor, and a hint line if the screen has one."""
    top = title_bar(draw, screen.title)
    bottom = KEYS_TOP - 1 - (10 if screen.hint and screen.items else 0)
    # No lines, no cursor: one carried over from another screen marks no line.
    item_list(draw, screen.items, cursor if screen.items else None, top + 1, bottom)
    if screen.hint:
        y = bottom + 1 if screen.items else top + 12
        write_centred(draw, y, screen.hint, SMALL)


def choices(draw: ImageDraw.ImageDraw, screen: Screen, cursor: int) -> None:
    """A row of big choices (cards, die faces) with the chosen one boxed."""
    top = title_bar(draw, screen.title)
    n = len(screen.items)
    cell = WIDTH // n
    y = top + 4
    for i, label in enumerate(screen.items):
        x = i * cell + (cell - text_width(label, BIG)) // 2
        if i == cursor % n:
            draw.rectangle((i * cell + 1, y - 2, (i + 1) * cell - 2, y + 21), fill=1)
            write(draw, (x, y), label, BIG, fill=0)
        else:
            write(draw, (x, y), label, BIG)
    if screen.hint:
        write_centred(draw, KEYS_TOP - 10, screen.hint, SMALL)


#: The lines the broker's status has on the info screen, each of its width (the screen
#: beside the QR code: 14 small letters); tests/screens/test_language_fits.py holds every
#: status to them in every language.
STATUS_LINES = 3
#: Its lines, across the screen, when no phone page is served (no QR code).
UNSERVED_STATUS_LINES = 2


def info(image: Image.Image, draw: ImageDraw.ImageDraw, screen: Screen, ctx: Context) -> None:
    """The spectator page's address, as text and as a QR code to scan, and the MQTT
    broker's status (the screen's one item) when a broker is configured."""
    address = ctx.address
    broker = screen.items[0] if screen.items else None
    if not address:
        top = title_bar(draw, screen.title)
        write_centred(draw, top + 10, _("Phone pages are"), SMALL)
        write_centred(draw, top + 19, _("not being served"), SMALL)
        if broker:
            said = _("MQTT: {status}", status=broker)
            for i, line in enumerate(wrap(said, WIDTH - 2)[:UNSERVED_STATUS_LINES]):
                write_centred(draw, top + 27 + 8 * i, line, SMALL)
        return
    qr = segno.make(address, error="l", micro=False)
    size = int(qr.symbol_size(border=1)[0])   # whole modules at scale 1 (typed int | float)
    scale = max(1, (KEYS_TOP - 1) // size)
    side = size * scale
    # The QR code needs dark modules on light: draw a light square, then
    # clear the dark modules.
    draw.rectangle((0, 0, side - 1, side - 1), fill=1)
    for row, bits in enumerate(qr.matrix_iter(scale=scale, border=1)):
        for col, dark in enumerate(bits):
            if dark:
                image.putpixel((col, row), 0)
    left = side + 3
    width = WIDTH - left
    host, _colon, port = address.split("://", 1)[-1].rstrip("/").partition(":")
    if broker:
        # Tighter, so the status has three whole lines under the address: its label
        # shares the port's line, at its right end.
        write(draw, (left, 1), fit(_("Scan to watch:"), SMALL, width), SMALL)
        write(draw, (left, 10), fit(host, SMALL, width), SMALL)
        if port:
            write(draw, (left, 18), f":{port}", SMALL)
        label = "MQTT:"  # i18n: not said (the protocol's name, in every language)
        write(draw, (WIDTH - text_width(label, SMALL), 18), label, SMALL)
        for i, line in enumerate(wrap(broker, width)[:STATUS_LINES]):
            write(draw, (left, 28 + 8 * i), fit(line, SMALL, width), SMALL)
        return
    write(draw, (left, 1), _("Scan to"), SMALL)
    write(draw, (left, 10), _("watch:"), SMALL)
    # Host and port on lines of their own: an IP address is read, not wrapped.
    write(draw, (left, 26), fit(host, SMALL, width), SMALL)
    if port:
        write(draw, (left, 35), fit(f":{port}", SMALL, width), SMALL)


def login_code(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    """The one-time login code (the screen's one item), big enough to read across the
    table, and what to do with it."""
    top = title_bar(draw, screen.title)
    if screen.items:
        write_centred(draw, top + 5, screen.items[0], BIG)
    if screen.hint:
        write_centred(draw, top + 29, screen.hint, SMALL)
