"""OLED rendering: what the panel shows, as a 128x64 one-bit Pillow image.

:func:`render` is a pure function of the panel state (and the context for
the info screen's address): the same state always gives the same pixels.
A game's board and its own screens are drawn by its kit's OLED face
(:mod:`companion.catalog`); a game that brings none gets :func:`generic_board`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image, ImageDraw

from companion import catalog
from companion.headline import headline
from companion.kit import STATUS_TOP
from companion.panel import PanelState
from companion.ui import canvas, menus
from companion.ui.base import Context, Screen

#: Where the generic board's rows begin, and its status line.
_GENERIC_ROWS, _GENERIC_STATUS = 10, STATUS_TOP


def render(state: PanelState, ctx: Context) -> Image.Image:
    """The frame for ``state``."""
    image, draw = canvas.blank()
    ui, screen = state.ui, state.screen
    match = state.snapshot.match
    if ui.screen == "board":
        if screen.offer is not None:
            menus.offer(draw, screen.offer[1])
        elif match is None:
            menus.welcome(draw)
        else:
            _board(match)(draw, match)
    elif (drawn := _drawn(ui.screen, match)) is not None:
        drawn(draw, ui, screen, match)
    elif ui.screen == "info":
        menus.info(image, draw, screen, ctx)
    elif ui.screen == "code":
        menus.login_code(draw, screen)
    elif screen.items and screen.row:
        menus.choices(draw, screen, ui.cursor)
    else:
        menus.listing(draw, screen, None if ui.screen == "history" and not ui.rows
                      else ui.cursor)
    canvas.soft_keys(draw, screen)
    if ui.message:
        # On a board a short message is a strip over its status line; a longer one
        # (a refusal to read whole) or one over a menu is a box.
        top = notice_top(match["game"]) if ui.screen == "board" and match else None
        if top is None or not canvas.strip(draw, ui.message, top):
            canvas.banner(draw, ui.message, page=ui.page)
    return image


def notice_top(game_id: str) -> int:
    """Where the game's board's last status line begins (the generic board's for a
    game whose kit brings no OLED)."""
    kit = catalog.kit(game_id)
    return kit.oled.status_top if kit and kit.oled else _GENERIC_STATUS


def _board(match: Mapping[str, Any]) -> Callable[..., None]:
    kit = catalog.kit(match["game"])
    return kit.oled.board if kit and kit.oled else generic_board


def _drawn(name: str, match: Mapping[str, Any] | None) -> Callable[..., None] | None:
    """The game's own drawing of screen ``name``, if it brings one."""
    kit = catalog.kit(match["game"]) if match is not None else None
    return kit.oled.drawn.get(name) if kit and kit.oled else None


def generic_board(draw: ImageDraw.ImageDraw, match: Mapping[str, Any]) -> None:
    """The board of a game whose kit brings no OLED: its title, a row per side of
    its hall card (name and score, whose turn marked, the winner's row
    inverted) and the card's score line as the status line."""
    card = headline({"match": match})
    canvas.write_centred(draw, 0, canvas.fit(card["title"], canvas.SMALL, canvas.WIDTH),
                         canvas.SMALL)
    for i, side in enumerate(card["sides"][:4]):
        top = _GENERIC_ROWS + 8 * i
        score = " ".join(side["score"])
        if side["winner"]:
            draw.rectangle((0, top, canvas.WIDTH - 1, top + 7), fill=1)
        elif side["turn"]:
            canvas.marker(draw, 0, top + 1)
        name = canvas.fit(side["name"], canvas.SMALL,
                          canvas.WIDTH - 8 - canvas.text_width(f" {score}", canvas.SMALL))
        fill = 0 if side["winner"] else 1
        canvas.write(draw, (6, top), name, canvas.SMALL, fill=fill)
        canvas.write_right(draw, canvas.WIDTH - 1, top, score, canvas.SMALL, fill=fill)
    draw.line((0, _GENERIC_STATUS - 3, canvas.WIDTH - 1, _GENERIC_STATUS - 3), fill=1)
    canvas.write_centred(draw, _GENERIC_STATUS,
                         canvas.fit(card["score"], canvas.SMALL, canvas.WIDTH), canvas.SMALL)


__all__ = ["Screen", "generic_board", "notice_top", "render"]
