"""The Center Court scoreboard."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from companion.names import short_names
from companion.screens.canvas import (
    BIG,
    BOLD,
    SMALL,
    WIDTH,
    char_width,
    fit,
    marker,
    write,
    write_centred,
    write_right,
)

ROW_TOPS = (0, 21)
#: Room for a name on its row, before the set dots.
NAME_WIDTH = 49


def board(draw: ImageDraw.ImageDraw, match: dict[str, Any]) -> None:
    """Two rows (server marker, name, a dot per set won, games, points), then a status line."""
    view = match["view"]
    over = view["winner"] is not None
    names = short_names(view["players"], NAME_WIDTH // char_width(BOLD))
    for player, top in enumerate(ROW_TOPS):
        if not over and view["server"] == player:
            marker(draw, 0, top + 5)
        write(draw, (5, top + 2), names[player], BOLD)
        for i in range(view["sets_won"][player]):
            x = 57 + 6 * i
            draw.ellipse((x, top + 7, x + 3, top + 10), fill=1)
        write_right(draw, 86, top + 2, str(view["games"][player]), BOLD)
        if not over:
            write_right(draw, WIDTH, top, view["points"][player], BIG)
        elif view["winner"] == player:
            write_right(draw, WIDTH, top + 2, "WIN", BOLD)
    draw.line((0, 41, WIDTH - 1, 41), fill=1)
    write_centred(draw, 44, status(view), SMALL)


def status(view: dict[str, Any]) -> str:
    """The one line that says what is going on now."""
    if view["winner"] is not None:
        sets = " ".join(f"{a}-{b}" for a, b in view["sets"])
        return f"{view['players'][view['winner']]} wins {sets}"
    call = view["call"]
    last = view["last_serve"]
    if call == "double_fault":
        return f"DOUBLE FAULT (die {last['roll']})"
    if call == "fault":
        return f"FAULT (die {last['roll']}) 2nd serve"
    if view["in_play"]:
        mover = view["players"][view["to_return"]]
        return fit(f"{view['volley']} to {mover}: {' '.join(view['returns'][:3])}", SMALL, 126)
    parts = []
    if view["match_tiebreak"]:
        parts.append("MATCH TIEBREAK")
    elif view["tiebreak"]:
        parts.append("TIEBREAK")
    elif view["deuce"]:
        parts.append("DEUCE")
    elif view["advantage"] is not None:
        parts.append(f"AD {view['players'][view['advantage']]}")
    sets = [f"{a}-{b}" for a, b in view["sets"]]
    if not parts and not sets and last is not None:
        roll = "" if last["roll"] is None else f" die {last['roll']}"
        parts.append(f"last serve {last['card']}{roll}")
    parts += sets
    parts.append(f"set {view['set_number']}")
    return fit("  ".join(parts), SMALL, 126)
