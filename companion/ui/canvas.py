"""Drawing on the 128x64 one-bit screen: text, soft keys, lists, banners.

Pillow only, with the fonts shipped in ``fonts/`` (:mod:`companion.ui.text` draws
every script with them), so a frame is the same pixels on every machine. Text is
measured by its drawn width, never by its count of characters: a name in wide
characters (李小龙) is shortened more than one in Latin letters.

Every helper here that takes text says a marked message (companion/i18n.py) in the
language being drawn (``i18n.speaking``, set by companion/ui/oled.py's render and
the panel's build) before it measures, cuts or draws it: the OLED's words are
translated at this one output step.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from companion.i18n import _, translate
from companion.names import MIN_WIDTH, short_names
from companion.ui import text as _text
from companion.ui.base import SOFT_KEY_CHARS, SOFT_KEYS, Screen

WIDTH, HEIGHT = 128, 64
#: The soft-key bar: the bottom 9 rows, one 32-pixel cell per panel button.
KEYS_TOP = HEIGHT - 9
SMALL, BODY, BOLD, BIG = "5x8", "6x10", "7x13B", "10x20"
#: One soft-key cell per panel button, a divider between two.
KEY_CELL = WIDTH // len(SOFT_KEYS)


def char_width(name: str) -> int:
    """The advance of one Latin letter or digit in font ``name`` (its misc-fixed cell)."""
    return _text.cell(name)


def text_width(text: str, name: str = BODY) -> int:
    """The pixels ``text`` takes drawn in font ``name``."""
    return _text.width(translate(text), name)


def blank() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


def fit(text: str, name: str, width: int) -> str:
    """``text`` cut to ``width`` pixels of font ``name`` (with a dot if cut)."""
    text = translate(text)
    if text_width(text, name) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip() + "."
        if text_width(cut, name) <= width:
            return cut
    return "." if text_width(".", name) <= width else ""


def short(names: Sequence[str], width: int, name: str) -> list[str]:
    """:func:`~companion.names.short_names` by drawn width: each of ``names`` within
    ``width`` pixels of font ``name`` (never under three of its characters' width),
    still told apart."""
    room = max(width, MIN_WIDTH * char_width(name))
    return short_names(names, room, lambda t: text_width(t, name))


def key_names(names: Sequence[str], prefix: str = "") -> list[str]:
    """``names`` told apart in soft-key labels ``prefix + name``: each label within its
    cell's pixels (:func:`soft_keys`) and :data:`~companion.ui.base.SOFT_KEY_CHARS`."""
    room = KEY_CELL - 2 - text_width(prefix, SMALL)
    chars = SOFT_KEY_CHARS - len(prefix)

    def measure(label: str) -> int:
        return text_width(label, SMALL) if len(label) <= chars else room + 1

    return short_names(names, room, measure)


def fit_names(names: Sequence[str], *lines: Callable[[list[str]], str], width: int,
              name: str = SMALL) -> str:
    """``lines(names)`` within ``width`` pixels of font ``name``, the names shortened only
    as much as needed (all of them together, so they stay told apart): the longest
    names that let one of the lines fit, with the first line that fits with them.

    Falls back to cutting the last line when even the shortest names do not fit.
    """
    longest = max(map(lambda n: text_width(n, name), names))
    least = MIN_WIDTH * char_width(name)
    text = ""
    for room in range(max(least, longest), least - 1, -1):
        shortened = short_names(names, room, lambda t: text_width(t, name))
        for line in lines:
            text = line(shortened)
            if text_width(text, name) <= width:
                return text
    return fit(text, name, width)


def write(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, name: str = BODY,
          fill: int = 1) -> None:
    """``text`` with its top left corner at ``xy``, in any script (see
    :mod:`companion.ui.text`)."""
    _text.draw(draw, xy, translate(text), name, fill)


def write_right(draw: ImageDraw.ImageDraw, right: int, y: int, text: str,
                name: str = BODY, fill: int = 1) -> None:
    write(draw, (right - text_width(text, name), y), text, name, fill)


def write_centred(draw: ImageDraw.ImageDraw, y: int, text: str, name: str = BODY,
                  left: int = 0, width: int = WIDTH, fill: int = 1) -> None:
    text = fit(text, name, width)
    x = left + (width - text_width(text, name)) // 2
    write(draw, (x, y), text, name, fill)


def soft_keys(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    """The bottom bar: what PREV, NEXT, OK and BACK do now, left to right.

    Labels are at most :data:`~companion.ui.controls.SOFT_KEY_CHARS` long
    (checked where bindings are made); :data:`KEY_CELL` holds that many with
    a clear pixel beside each divider (the last column of a glyph is blank).
    """
    draw.line((0, KEYS_TOP, WIDTH - 1, KEYS_TOP), fill=1)
    cell = KEY_CELL
    for i, button in enumerate(SOFT_KEYS):
        if i:
            draw.line((i * cell, KEYS_TOP, i * cell, HEIGHT - 1), fill=1)
        label = screen.label(button)
        if label:
            inside = cell - 1  # the pixels between two dividers
            # A label of wide characters (a name in CJK) is cut to its cell.
            label = fit(label, SMALL, inside - 1)
            x = i * cell + 1 + max(1, (inside - text_width(label, SMALL)) // 2)
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


#: A message box's lines of text: the full screen holds six of 9 rows.
BOX_LINES = 6
#: The pixels of text on a line of the box (the width of 23 small letters).
BOX_TEXT = WIDTH - 2 * char_width(SMALL) - 3


#: Marks that never begin a line, though a language may set a space before them: French
#: writes "jouez : 2 cartes" and "(lent ?)"; the mark stays with the word before it.
CLOSING = frozenset(":;!?»).,]")
#: A mark set before a space that never ends a line: French's "«" stays with its word.
OPENING = frozenset("«")
#: A word's pieces where a word wider than a line may break: each character with the
#: closing marks after it (and the spaces between), and each space.
_PIECES = re.compile(rf"[^ ](?: *[{re.escape(''.join(sorted(CLOSING)))}])*| ")


def _words(message: str) -> list[str]:
    """``message``'s words as a line may break between them: a word of closing marks
    only joins the word before it, an opening mark the word after it."""
    words: list[str] = []
    for word in message.split():
        if words and (set(word) <= CLOSING or set(words[-1]) <= OPENING):
            words[-1] = f"{words[-1]} {word}"
        else:
            words.append(word)
    return words


def wrap(message: str, width: int, name: str = SMALL) -> list[str]:
    """``message`` in lines of at most ``width`` pixels of font ``name``, broken between
    words (a word wider than a line, such as a name in CJK, between its characters);
    a line never starts with a closing mark set apart, such as French's " :".
    Every character of ``message`` but the spaces where it breaks is kept."""
    lines: list[str] = []
    line = ""
    for word in _words(translate(message)):
        joined = f"{line} {word}" if line else word
        if text_width(joined, name) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        # Wider than a line: broken between its characters, never so that a closing
        # mark starts a line (a mark goes with the character before it).
        for piece in _PIECES.findall(word):
            if line and text_width(line + piece, name) > width:
                lines.append(line.rstrip())
                line = ""
            if line or piece != " ":
                line += piece
    if line:
        lines.append(line)
    return lines


def pages(message: str) -> list[tuple[str, ...]]:
    """The pages of a message box: one when the message fits :data:`BOX_LINES` lines;
    else pages of one line fewer, the box's last row saying which page is shown (the
    next press shows the next; :func:`banner`). Nothing of the message is left out."""
    lines = wrap(message, BOX_TEXT)
    if len(lines) <= BOX_LINES:
        return [tuple(lines)]
    per = BOX_LINES - 1
    return [tuple(lines[i:i + per]) for i in range(0, len(lines), per)]


def banner(draw: ImageDraw.ImageDraw, message: str, top: int = 22, page: int = 0) -> None:
    """A boxed message over the screen, for refusals: from ``top`` down, raised as far as
    the screen's top when a long message needs it, so it is read whole. A message of
    more than :data:`BOX_LINES` lines is shown a page at a time (:func:`pages`; the
    panel turns them, companion/ui/controls.py), its last row an inverted "1/2 more"
    that says a press shows the rest ("2/2" on the last page)."""
    shown = pages(message)
    page = min(max(page, 0), len(shown) - 1)
    lines = shown[page]
    rows = len(lines) + (len(shown) > 1)
    height = 4 + 9 * rows
    top = max(0, min(top, HEIGHT - 1 - height))
    draw.rectangle((0, top, WIDTH - 1, top + height), fill=0, outline=1)
    for i, line in enumerate(lines):
        write_centred(draw, top + 3 + 9 * i, line, SMALL)
    if len(shown) > 1:
        y = top + 3 + 9 * (rows - 1)  # a blank row between the text and the band
        draw.rectangle((1, y, WIDTH - 2, top + height - 1), fill=1)
        said = (_("{page}/{pages} more", page=page + 1, pages=len(shown))
                if page < len(shown) - 1 else f"{page + 1}/{len(shown)}")
        write_centred(draw, y + 1, said, SMALL, fill=0)


def strip(draw: ImageDraw.ImageDraw, message: str, top: int) -> bool:
    """A one-line inverted notice from row ``top`` down to the soft keys, over what a
    board shows least (its last status line), so the score above stays in sight.

    Returns False, drawing nothing, when ``message`` needs more than one line.
    """
    if text_width(message, SMALL) > WIDTH - char_width(SMALL):
        return False
    draw.rectangle((0, top, WIDTH - 1, KEYS_TOP - 1), fill=1)
    write_centred(draw, top + (KEYS_TOP - top - 8) // 2, message, SMALL, fill=0)
    return True


def marker(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A small right-pointing triangle (the server marker), 5 pixels tall."""
    draw.polygon([(x, y), (x, y + 6), (x + 3, y + 3)], fill=1)
