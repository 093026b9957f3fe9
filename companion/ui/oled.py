"""OLED rendering: what the panel shows, as a 128x64 one-bit Pillow image.

:func:`render` is a pure function of the panel state (and the context for
the info screen's address): the same state always gives the same pixels.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from companion.games.alakaslam import oled as alakaslam
from companion.games.alakazoo import oled as alakazoo
from companion.games.center_court import oled as center_court
from companion.games.wizard_dodgeball import oled as wizard_dodgeball
from companion.panel import PanelState
from companion.ui import canvas, menus
from companion.ui.base import Context, Screen

_BOARDS: dict[str, Callable[..., None]] = {
    "center-court": center_court.board,
    "wizard-dodgeball": wizard_dodgeball.board,
    "alakaslam": alakaslam.board,
    "alakazoo": alakazoo.board,
}
#: Where each board's last status line begins: a short notice covers it (and only
#: it), never the score above. Unknown games get the lowest line's top.
NOTICE_TOP: dict[str, int] = {
    "center-court": 44,
    "wizard-dodgeball": 44,
    "alakaslam": 46,
    "alakazoo": 47,
}
#: Game screens drawn their own way (not as a list or a row of choices), by Ui screen.
_DRAWN: dict[str, Callable[..., None]] = {
    "slam-cards": alakaslam.picker,
    "zoo-space": alakazoo.picker,
    "zoo-jury": alakazoo.jury,
}


def render(state: PanelState, ctx: Context) -> Image.Image:
    """The frame for ``state``."""
    image, draw = canvas.blank()
    ui, screen = state.ui, state.screen
    match = state.snapshot.match
    if ui.screen == "board":
        if match is None:
            menus.welcome(draw)
        else:
            _BOARDS[match["game"]](draw, match)
    elif ui.screen in _DRAWN and match is not None:
        _DRAWN[ui.screen](draw, ui, screen, match)
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
        top = NOTICE_TOP.get(match["game"], 47) if ui.screen == "board" and match else None
        if top is None or not canvas.strip(draw, ui.message, top):
            canvas.banner(draw, ui.message)
    return image


__all__ = ["Screen", "render"]
