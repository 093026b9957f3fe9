"""Text in any script on the one-bit OLED: which font draws each character, in what
order, and how wide it is drawn.

Each text style of the screen (:data:`STYLES`: ``"5x8"``, ``"6x10"``, ``"7x13B"``,
``"10x20"``) is a stack of bitmap fonts shipped in ``fonts/`` (``fonts/README.md``
says where each comes from and its licence): the misc-fixed cut of that size first,
then fallbacks for what it lacks (CJK from misc-fixed's 12x13ja and efont, Arabic and
the rest of Unicode's Basic Multilingual Plane from GNU Unifont). Each character is
drawn by the first font of its stack that has it, on the line's baseline, so a name
mixing scripts keeps one line. A character no font has (an emoji, anything past the
BMP) is drawn as a replacement mark: a frame never fails for want of a glyph.

Pillow draws the fonts with FreeType (its ``.pil`` bitmap format holds only 256
characters), with its basic layout so the pixels do not depend on how Pillow was
built. Right-to-left text is put in display order here (Arabic letters joined by
``arabic_reshaper``, the Unicode bidirectional algorithm by ``python-bidi``): a
line is laid out left to right unless all its strong characters are right-to-left,
so "דוד wins" keeps its English order and a name alone reads from its right.

All functions take text in logical order (as typed) and are pure.
"""

from __future__ import annotations

import re
import struct
import sys
import unicodedata
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import BinaryIO

import arabic_reshaper
from bidi import get_display
from PIL import ImageDraw, ImageFont

FONTS = Path(__file__).parent / "fonts"

#: Each text style's fonts, first choice first (file stems in ``fonts/``, ``.pcf``).
STYLES: dict[str, tuple[str, ...]] = {
    "5x8": ("5x8", "b10", "unifont"),
    "6x10": ("6x10", "b10", "unifont"),
    "7x13B": ("7x13B", "12x13ja", "b12", "unifont"),
    "10x20": ("10x20", "unifont"),
}
#: Each shipped font's pixel size (a bitmap font has that one size only).
SIZES = {"5x8": 8, "6x10": 10, "7x13B": 13, "10x20": 20, "12x13ja": 13, "b10": 10,
         "b12": 12, "unifont": 16}
#: What stands for a character none of a style's fonts has.
REPLACEMENT = "\ufffd"

#: Characters that never take a glyph of their own (joiners, variation selectors,
#: direction marks): dropped before drawing, never shown as a replacement.
_IGNORED = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff"
                      "\U000e0000-\U000e0fff]")
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")
_RIGHT_TO_LEFT = {"R", "AL"}
#: A run of right-to-left letters (a Hebrew or Arabic name; words and the spaces between
#: them included) in a left-to-right line: isolated for the bidi algorithm (U+2068 ...
#: U+2069), so a number after it keeps its place ("דוד +2" not "2+ דוד"), as the pages
#: do (web/static/common.js TC.isolate).
_RTL_RUN = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+"
                      "(?:[ '.\\-]+[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+)*")
_ISOLATES = re.compile("[\u2068\u2069]")
#: PCF: its table of contents' type for the character-to-glyph table, and the bit
#: of a table's format that says its numbers are big-endian.
_PCF_BDF_ENCODINGS, _PCF_BYTE_MASK, _NO_GLYPH = 1 << 5, 1 << 2, 0xFFFF


@dataclass(frozen=True)
class Coverage:
    """The characters a PCF font has: its encodings table, a glyph index (or none) per
    code point from ``(low1, low2)`` to ``(high1, high2)`` (first byte, second byte)."""

    low1: int
    high1: int
    low2: int
    high2: int
    glyphs: array = field(repr=False)

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, int):
            return False
        first, second = code >> 8, code & 0xFF
        if not (self.low1 <= first <= self.high1 and self.low2 <= second <= self.high2):
            return False
        row = self.high2 - self.low2 + 1
        return self.glyphs[(first - self.low1) * row + second - self.low2] != _NO_GLYPH


@dataclass(frozen=True)
class Font:
    """One shipped bitmap font: Pillow's FreeType font and the characters it has."""

    name: str
    face: ImageFont.FreeTypeFont = field(repr=False)
    ascent: int
    characters: Coverage = field(repr=False)


@cache
def font(name: str) -> Font:
    """The shipped font ``fonts/<name>.pcf``, read on first use. FreeType reads from
    the file what it draws (the whole of GNU Unifont held in memory would be 5 MB; a
    compressed file it reads slowly, seeking back)."""
    path = FONTS / f"{name}.pcf"
    face = ImageFont.truetype(str(path), SIZES[name], layout_engine=ImageFont.Layout.BASIC)
    with path.open("rb") as file:
        characters = _pcf_characters(file)
    return Font(name, face, face.getmetrics()[0], characters)


def _pcf_characters(file: BinaryIO) -> Coverage:
    """The code points a PCF font (X11's compiled bitmap format) has a glyph for, from
    its encodings table. Pillow's FreeType fonts do not say which characters they
    lack (a missing one silently draws the font's default glyph), so it is read here.
    """
    head = file.read(8)
    if head[:4] != b"\x01fcp":
        raise ValueError("not a PCF font")
    (count,) = struct.unpack_from("<i", head, 4)
    toc = file.read(16 * count)
    for i in range(count):
        kind, _fmt, _size, offset = struct.unpack_from("<iiii", toc, 16 * i)
        if kind != _PCF_BDF_ENCODINGS:
            continue
        file.seek(offset)
        (fmt,) = struct.unpack("<i", file.read(4))
        big = bool(fmt & _PCF_BYTE_MASK)
        low2, high2, low1, high1, _default = struct.unpack(">5h" if big else "<5h",
                                                           file.read(10))
        glyphs = array("H")
        glyphs.frombytes(file.read(2 * (high2 - low2 + 1) * (high1 - low1 + 1)))
        if big != (sys.byteorder == "big"):
            glyphs.byteswap()
        return Coverage(low1, high1, low2, high2, glyphs)
    raise ValueError("a PCF font without an encodings table")


def ascent(style: str) -> int:
    """Pixels from the top of a line of ``style`` to its baseline."""
    return font(STYLES[style][0]).ascent


def cell(style: str) -> int:
    """The advance of one Latin character in ``style`` (its fonts are fixed-width)."""
    return int(font(STYLES[style][0]).face.getlength("0"))


@lru_cache(maxsize=256)
def display(text: str) -> str:
    """``text`` in the order its characters are drawn from left to right, Arabic letters
    in their joined forms, without the characters that take no glyph."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFC", text)
    if _ARABIC.search(text):
        text = arabic_reshaper.reshape(text)
    text = _IGNORED.sub("", text)
    kinds = {unicodedata.bidirectional(c) for c in text}
    if kinds & _RIGHT_TO_LEFT:
        if "L" in kinds:
            text = _RTL_RUN.sub("\u2068\\g<0>\u2069", text)
            text = _ISOLATES.sub("", get_display(text, base_dir="L"))
        else:
            text = get_display(text, base_dir="R")
    return text


@lru_cache(maxsize=4096)
def runs(text: str, style: str) -> tuple[tuple[Font, str], ...]:
    """:func:`_runs` kept: a frame draws the same few texts again and again."""
    return tuple(_runs(text, style))


def _runs(text: str, style: str) -> Iterator[tuple[Font, str]]:
    """``text`` (logical order) as runs of ``(font, characters)`` in drawing order: each
    character with the first of the style's fonts that has it, else the replacement
    (which every style's first font has: a test holds it)."""
    run: list[str] = []
    current: Font | None = None
    for char in display(text):
        found = _font_for(ord(char), style)
        if found is None:
            char, found = REPLACEMENT, font(STYLES[style][0])
        if found is not current and current is not None:
            yield current, "".join(run)
            run = []
        current = found
        run.append(char)
    if current is not None:
        yield current, "".join(run)


@lru_cache(maxsize=8192)
def _font_for(code: int, style: str) -> Font | None:
    for name in STYLES[style]:
        found = font(name)
        if code in found.characters:
            return found
    return None


def has_glyph(char: str, style: str) -> bool:
    """Whether one of ``style``'s fonts draws ``char`` (else it shows as the replacement)."""
    return _font_for(ord(char), style) is not None


@lru_cache(maxsize=8192)
def width(text: str, style: str) -> int:
    """The pixels ``text`` takes drawn in ``style``, from its first column to the next
    character's (the blank column that ends each glyph included)."""
    return sum(int(f.face.getlength(chars)) for f, chars in runs(text, style))


def draw(canvas: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, style: str,
         fill: int = 1) -> None:
    """``text`` with its line's top left corner at ``xy``, each run of characters on the
    baseline of the style's first font (a taller fallback glyph may reach past the
    line's top or bottom by the pixels it is taller)."""
    x, top = xy
    baseline = top + ascent(style)
    for f, chars in runs(text, style):
        canvas.text((x, baseline), chars, font=f.face, fill=fill, anchor="ls")
        x += int(f.face.getlength(chars))
