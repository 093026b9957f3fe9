"""OLED rendering: what the panel shows, as a 128x64 one-bit Pillow image.

:func:`render` is a pure function of the panel state (and the context for
the info screen's address): the same state always gives the same pixels.
A game's board and its own screens are drawn by its kit's OLED face (its kit
in the context's catalog, :mod:`companion.catalog`); a game that brings none
gets :func:`generic_board`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from companion.catalog import Catalog
from companion.headline import headline
from companion.i18n import speaking
from companion.kit import STATUS_TOP, Kit
from companion.panel import PanelState
from companion.ui import canvas, menus
from companion.ui.base import Context, Screen
from companion.ui.controls import screen_game

#: Where the generic board's rows begin, and its status line.
_GENERIC_ROWS, _GENERIC_STATUS = 10, STATUS_TOP


def render(state: PanelState, ctx: Context[Catalog]) -> Image.Image:
    """The frame for ``state``, its words in the panel's language (``state.language``)."""
    with speaking(state.language):
        return _render(state, ctx)


def _render(state: PanelState, ctx: Context[Catalog]) -> Image.Image:
    image, draw = canvas.blank()
    ui, screen = state.ui, state.screen
    match = state.snapshot.match
    kit = ctx.catalog.kit(match["game"]) if match is not None else None
    if ui.screen == "board":
        if screen.offer is not None:
            menus.offer(draw, screen.offer[1])
        elif match is None:
            menus.welcome(draw)
        else:
            _board(kit, ctx.catalog)(draw, match)
    elif (drawn := _drawn(ui.screen, ctx.catalog.kit(screen_game(ui, match)))) is not None:
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
        top = notice_top(kit) if ui.screen == "board" and match else None
        if top is None or not canvas.strip(draw, ui.message, top):
            canvas.banner(draw, ui.message, page=ui.page)
    return image


def notice_top(kit: Kit | None) -> int:
    """Where the game's board's last status line begins (the generic board's for a
    game whose kit brings no OLED)."""
    return kit.oled.status_top if kit and kit.oled else _GENERIC_STATUS


def _board(kit: Kit | None, catalog: Catalog) -> Callable[..., None]:
    return kit.oled.board if kit and kit.oled else partial(generic_board, catalog=catalog)


def _drawn(name: str, kit: Kit | None) -> Callable[..., None] | None:
    """The game's own drawing of screen ``name``, if it brings one."""
    return kit.oled.drawn.get(name) if kit and kit.oled else None


def generic_board(draw: ImageDraw.ImageDraw, match: Mapping[str, Any], *,
                  catalog: Catalog) -> None:
    """The board of a game whose kit in ``catalog`` brings no OLED: its title, a row per
    side of its hall card (name and score, whose turn marked, the winner's row
    inverted) and the card's score line as the status line."""
    card = headline({"match": match}, catalog)
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
