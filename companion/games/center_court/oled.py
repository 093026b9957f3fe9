"""The Center Court scoreboard."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from companion.i18n import N_, _, translate
from companion.ui.canvas import (
    BIG,
    BOLD,
    SMALL,
    WIDTH,
    fit,
    marker,
    short,
    text_width,
    write,
    write_centred,
    write_right,
)

ROW_TOPS = (0, 21)
#: Right edge of the games column while playing.
GAMES_RIGHT = 86
#: Space between two set columns of the finished board.
SET_GAP = 4
#: Where a name starts, and its room before the set dots.
NAME_LEFT, NAME_WIDTH = 5, 49
#: The pixels of the status line.
LINE = 126


def board(draw: ImageDraw.ImageDraw, match: dict[str, Any]) -> None:
    """Two player rows above a status line.

    While playing a row is: server marker, name, a dot per set won, games,
    points. Once the match is won no game is running: a row is the name
    (the winner's inverted) and the games of every set, a match tiebreak as
    its points; the status line tells the score from the winner's side.
    """
    view = match["view"]
    if view["winner"] is None:
        _playing_rows(draw, view)
    else:
        _finished_rows(draw, view)
    draw.line((0, 41, WIDTH - 1, 41), fill=1)
    write_centred(draw, 44, status(view), SMALL)


def _playing_rows(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    names = short(view["players"], NAME_WIDTH, BOLD)
    for player, top in enumerate(ROW_TOPS):
        if view["server"] == player:
            marker(draw, 0, top + 5)
        write(draw, (NAME_LEFT, top + 2), names[player], BOLD)
        for i in range(view["sets_won"][player]):
            x = 57 + 6 * i
            draw.ellipse((x, top + 7, x + 3, top + 10), fill=1)
        write_right(draw, GAMES_RIGHT, top + 2, str(view["games"][player]), BOLD)
        write_right(draw, WIDTH, top, view["points"][player], BIG)


def _finished_rows(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    # A match tiebreak is recorded as a set won 1-0; the board shows its points.
    columns = [[str(n) for n in (tb if tb and max(games) == 1 else games)]
               for games, tb in zip(view["sets"], view["set_tiebreaks"], strict=True)]
    # Laid out from the right edge, so the names keep whatever room five sets
    # (or a long advantage set) leave them.
    rights: list[int] = []
    right = WIDTH
    for column in reversed(columns):
        rights.insert(0, right)
        right -= max(text_width(c, BOLD) for c in column) + SET_GAP
    name_width = min(NAME_WIDTH, right - NAME_LEFT)
    names = short(view["players"], name_width, BOLD)
    for player, top in enumerate(ROW_TOPS):
        name = names[player]
        ink = 1
        if view["winner"] == player:
            draw.rectangle((NAME_LEFT - 2, top + 1, NAME_LEFT + text_width(name, BOLD),
                            top + 15), fill=1)
            ink = 0
        write(draw, (NAME_LEFT, top + 2), name, BOLD, fill=ink)
        for column, x in zip(columns, rights, strict=True):
            write_right(draw, x, top + 2, column[player], BOLD)


def status(view: dict[str, Any]) -> str:
    """The one line that says what is going on now, in the language being drawn."""
    if view["winner"] is not None:
        return _result(view)
    call = view["call"]
    last = view["last_serve"]
    if call == "double_fault":
        return fit(_("DOUBLE FAULT (die {roll})", roll=last["roll"]), SMALL, LINE)
    if call == "fault":
        return fit(_("FAULT (die {roll}) 2nd serve", roll=last["roll"]), SMALL, LINE)
    if view["in_play"]:
        if view["rally_returns"] == 0 and last["roll"] is not None:
            # The device may have rolled out of sight: say what the die showed
            # (the returns are on the return screen, one OK away).
            mover = view["players"][view["to_return"]]
            return fit(_("Die {roll}: in  {volley} to {name}", roll=last["roll"],
                         volley=view["volley"], name=mover), SMALL, LINE)
        return _rally(view)
    parts: list[str] = []
    if view["match_tiebreak"]:
        parts.append(_("MATCH TIEBREAK"))
    elif view["tiebreak"]:
        parts.append(_("TIEBREAK"))
    elif view["deuce"]:
        parts.append(_("DEUCE"))
    elif view["advantage"] is not None:
        parts.append(_("AD {name}", name=view["players"][view["advantage"]]))
    sets = [f"{a}-{b}" for a, b in view["sets"]]
    if not parts and not sets and last is not None:
        parts.append(_("last serve {card}", card=last["card"]) if last["roll"] is None else
                     _("last serve {card} die {roll}", card=last["card"], roll=last["roll"]))
    parts += sets
    parts.append(_("set {number}", number=view["set_number"]))
    return fit("  ".join(translate(p) for p in parts), SMALL, LINE)


def _rally(view: dict[str, Any]) -> str:
    """``"4 to Bob: 4 3-3 5-5"``: the ball and the returns that cost fewest cards,
    as many whole ones as the line holds."""
    line = translate(_("{volley} to {name}:", volley=view["volley"],
                       name=view["players"][view["to_return"]]))
    if text_width(line, SMALL) > LINE:
        return fit(line, SMALL, LINE)
    # Returns are "5-5" strings: fewer dashes, fewer cards.
    for ret in sorted(view["returns"], key=lambda r: r.count("-")):
        if text_width(f"{line} {ret}", SMALL) > LINE:
            break
        line += f" {ret}"
    return line


def _result(view: dict[str, Any]) -> str:
    """``"Alexander wins 6-0 6-4"``: the sets from the winner's side; when that
    is too long for the line, how many sets it took (the rows show each set)."""
    name = view["players"][view["winner"]]
    line = translate(_("{name} wins {score}", name=name, score=view["final_score"]))
    if text_width(line, SMALL) <= LINE:
        return line
    # The name is cut to leave the words whole: measured with an empty name first.
    sets = len(view["sets"])
    room = LINE - text_width(N_("{name} wins in {n} set", "{name} wins in {n} sets", sets,
                                name=""), SMALL)
    return translate(N_("{name} wins in {n} set", "{name} wins in {n} sets", sets,
                        name=fit(name, SMALL, room)))
