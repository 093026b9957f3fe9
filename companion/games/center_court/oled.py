# i18n: words not marked yet (issue #40)
"""The Center Court scoreboard."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

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
    """The one line that says what is going on now."""
    if view["winner"] is not None:
        return _result(view)
    call = view["call"]
    last = view["last_serve"]
    if call == "double_fault":
        return f"DOUBLE FAULT (die {last['roll']})"
    if call == "fault":
        return f"FAULT (die {last['roll']}) 2nd serve"
    if view["in_play"]:
        if view["rally_returns"] == 0 and last["roll"] is not None:
            # The device may have rolled out of sight: say what the die showed
            # (the returns are on the return screen, one OK away).
            mover = view["players"][view["to_return"]]
            return fit(f"Die {last['roll']}: in  {view['volley']} to {mover}", SMALL, LINE)
        return _rally(view)
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
    return fit("  ".join(parts), SMALL, LINE)


def _rally(view: dict[str, Any]) -> str:
    """``"4 to Bob: 4 3-3 5-5"``: the ball and the returns that cost fewest cards,
    as many whole ones as the line holds."""
    line = f"{view['volley']} to {view['players'][view['to_return']]}:"
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
    line = f"{name} wins {view['final_score']}"
    if text_width(line, SMALL) <= LINE:
        return line
    tail = f" wins in {len(view['sets'])} sets"
    return fit(name, SMALL, LINE - text_width(tail, SMALL)) + tail
