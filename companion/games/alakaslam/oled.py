"""The AlakaSLAM board and card picker: the court drawn beside the score.

The court is drawn with side 1's baseline (row 1) at the top and the red
edge (column 1) on the left, cells of 10x8 pixels, the net a thick bar
between rows 2 and 3. The side rows beside it are in the same order: side 1
above, side 2 below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from PIL import ImageDraw

from companion.games.alakaslam import CHARACTERS
from companion.games.alakaslam.court import NET, ROWS, Cell
from companion.games.alakaslam.panel import GO, obligation, preview
from companion.games.alakaslam.rules import REASON_WORDS, point_said
from companion.games.said import joined
from companion.i18n import C_, N_, _, translate
from companion.names import TEAM_JOIN
from companion.ui.base import Screen, Ui
from companion.ui.canvas import (
    BODY,
    BOLD,
    SMALL,
    WIDTH,
    char_width,
    fit,
    fit_names,
    short,
    text_width,
    write,
    write_right,
)

CELL_W, CELL_H = 10, 8
#: The court's top-left corner; 2 pixels to the left for the net's post.
COURT_X, COURT_Y = 2, 0
#: Extra rows the net adds between rows NET and NET + 1.
NET_GAP = 2
#: Where the text beside the court starts.
RIGHT = 47
ROW_TOPS = (0, 13)
STATUS_Y = 27
#: The two full-width lines under the court.
LINES_Y = (37, 46)
#: A landing's verdict on the card picker (bold, capitals).
RESULTS = {"in": _("IN"), "out": _("OUT"), "net": _("NET"), "bad_serve": _("BAD SERVE")}
#: A point's reason where the board's line is too narrow for its words (REASON_WORDS):
#: a shorter word a language may have ("no return" is German's "kein Return" there).
SHORT_REASONS = {"no_return": C_("narrow line", "no return"),
                 "declined": C_("narrow line", "declined"), "out": C_("narrow line", "out"),
                 "net": C_("narrow line", "net"), "bad_serve": C_("narrow line", "bad serve")}


def board(draw: ImageDraw.ImageDraw, match: Mapping[str, Any]) -> None:
    """The court, both sides' score, what is due, then two lines of what matters now."""
    view = match["view"]
    ball = view["ball"]
    shot = view["last_shot"]
    court(draw, view["court"]["cols"], ball=ball,
          landed=shot["to"] if ball is None and shot is not None else None)
    _sides(draw, view)
    write(draw, (RIGHT, STATUS_Y), fit(status(view), SMALL, WIDTH - RIGHT), SMALL)
    for y, line in zip(LINES_Y, lines(view, match.get("options", {})), strict=False):
        write(draw, (0, y), fit(line, SMALL, WIDTH), SMALL)


def _cell_box(col: int, row: int) -> tuple[int, int, int, int]:
    x = COURT_X + (col - 1) * CELL_W
    y = COURT_Y + (row - 1) * CELL_H + (NET_GAP if row > NET else 0)
    return x, y, x + CELL_W, y + CELL_H


def court(draw: ImageDraw.ImageDraw, cols: int, ball: list[int] | Cell | None = None,
          landed: list[int] | Cell | None = None, start: Cell | None = None) -> None:
    """The grid; the ball's cell filled, a landing crossed, a shot's start ringed."""
    for col in range(1, cols + 1):
        for row in range(1, ROWS + 1):
            draw.rectangle(_cell_box(col, row), outline=1)
    _, top, right, _ = _cell_box(cols, NET + 1)
    draw.rectangle((COURT_X - 2, top - NET_GAP, right + 2, top), fill=1)

    def inside(cell: Any) -> tuple[int, int, int, int] | None:
        if cell is None or not (1 <= cell[0] <= cols and 1 <= cell[1] <= ROWS):
            return None
        return _cell_box(*cell)

    if (box := inside(start)) is not None:
        x0, y0, x1, y1 = box
        draw.rectangle((x0 + 3, y0 + 2, x1 - 3, y1 - 2), outline=1)
    if (box := inside(ball)) is not None:
        x0, y0, x1, y1 = box
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=1)
    if (box := inside(landed)) is not None:
        x0, y0, x1, y1 = box
        draw.line((x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=1)
        draw.line((x0 + 2, y1 - 2, x1 - 2, y0 + 2), fill=1)


#: A pair's names joined on a line too narrow for :data:`TEAM_JOIN`'s spaces.
TIGHT_JOIN = TEAM_JOIN.strip()

def side_names(view: Mapping[str, Any], room: int) -> list[str]:
    """Each side's players' names joined as everywhere (``Ann & Bea``), shortened to
    ``room`` pixels of the bold font; where the spaces would cost a pair letters of
    its names, joined without them (``Ann&Bea``)."""
    out = []
    for side in view["sides"]:
        names = [view["players"][p]["name"] for p in side["players"]]
        for join in (TEAM_JOIN, TIGHT_JOIN):
            each = (room - (len(names) - 1) * text_width(join, BOLD)) // len(names)
            shortened = short(names, each, BOLD)
            if shortened == names:
                break
        out.append(join.join(shortened))
    return out


def _sides(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """A row per side: the server's ball, the name and the score; the side to play inverted."""
    now = view["winner"]
    if now is None:
        now = view["serving_side"] if view["due"] == "serve" else view["hitting_side"]
    names = side_names(view, WIDTH - RIGHT - 9 - 2 * char_width(BOLD))
    for side, top in enumerate(ROW_TOPS):
        ink = 1
        if side == now:
            draw.rectangle((RIGHT - 1, top, WIDTH - 1, top + 12), fill=1)
            ink = 0
        if side == view["serving_side"] and view["winner"] is None:
            draw.ellipse((RIGHT + 1, top + 4, RIGHT + 5, top + 8), fill=ink)
        write(draw, (RIGHT + 8, top), names[side], BOLD, fill=ink)
        write_right(draw, WIDTH - 1, top, str(view["sides"][side]["score"]), BOLD, fill=ink)


#: Pixels of a line of the small font under the court (full width), and beside it.
LINE, STATUS = WIDTH, WIDTH - RIGHT


def status(view: Mapping[str, Any]) -> str:
    """What is due and the match's target: ``"Serve · goal 3"``, ``"Rally 3 · goal 3"``,
    ``"Ann wins"``; within :data:`STATUS` pixels, in the language being drawn."""
    won = view["winner"]
    if won is not None:
        return _fitted(view, lambda n: (_("{side} win", side=_side(view, won, n))
                                        if _pair(view, won) else
                                        _("{side} wins", side=_side(view, won, n))), room=STATUS)
    target = view["target"]
    text = translate(_("Serve · goal {target}", target=target) if view["due"] == "serve" else
                     _("Rally {rally} · goal {target}", rally=view["rally"], target=target))
    # A rally of ten shots or more: the dot alone keeps the two apart.
    return text if text_width(text, SMALL) <= STATUS else text.replace(" · ", "·")


def lines(view: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    """The lines under the court, most pressing first, each within :data:`LINE` pixels.

    In a rally: the obligations, the abilities used, the last shot and where
    it landed. Before a serve: the last point and why, what players did
    before this serve (Simon's copy, mulligans, abilities); at the start, the
    coin flip. Names are shortened (all of a line's together, so they stay
    told apart) only as much as the line needs.
    """
    # The lambdas' defaults bind each line's own values (ruff B023); mypy infers the
    # type of no lambda with defaults, hence the ignores ([misc]) on those lines.
    # Without "play" where the names would lose more than the verb says.
    out = [_fitted(view, lambda n, o=o: _("{name}: {obligation}", name=n[o["player"]],  # type: ignore[misc]
                                         obligation=obligation(view, o["player"])),
                   lambda n, o=o: _("{name}: {obligation}", name=n[o["player"]],  # type: ignore[misc]
                                    obligation=obligation(view, o["player"], verb=False)))
           for o in view["obligations"]]
    used = [CHARACTERS[x["acts_as"]] for x in view["players"] if x["ability_used"]]
    copies = [_fitted(view, lambda n, p=p, x=x: _("{name} as {character}", name=n[p],  # type: ignore[misc]
                                                  character=CHARACTERS[x["copy"]]))
              for p, x in enumerate(view["players"]) if x["copy"]]
    abilities = [fit(_("Used: {characters}", characters=joined(used)), SMALL, WIDTH)] \
        if used else []
    shot, point = view["last_shot"], view["last_point"]
    if view["due"] == "shot":
        # Mulligans are taken before the serve: in a rally they are old news.
        out += copies + abilities
        if shot is not None:
            # The ball is in play: the last shot landed in, on the court (state.end_point).
            cell = _cell_name(shot["to"], view["court"]["cols"])
            out.append(_fitted(view, lambda n: _("Last: {who} in {cell}",
                                                 who=_hitters(view, shot, n), cell=cell)))
        return out
    mulligans = [_fitted(view, lambda n, p=p, x=x: N_(  # type: ignore[misc]
        "{name} mulligans: {n} card", "{name} mulligans: {n} cards", x["hand"], name=n[p]))
                 for p, x in enumerate(view["players"]) if x.get("mulligans")]
    # Simon copies before the serve: his player is reminded each time (not blocked).
    simon = [_fitted(view, lambda n, p=p: _("{name}: Simon, copy whom?", name=n[p]))  # type: ignore[misc]
             for p, x in enumerate(view["players"])
             if x["character"] == "simon" and not x["copy"]]
    if point is not None:
        out.append(_fitted(view, *(partial(_point, view, point, words=w)
                                   for w in (None, REASON_WORDS, SHORT_REASONS))))
    elif options.get("coin_flip") is not None:
        side = options["coin_flip"]
        out.append(_fitted(view, lambda n: (
            _("Coin flip: {side} serve", side=_side(view, side, n)) if _pair(view, side) else
            _("Coin flip: {side} serves", side=_side(view, side, n)))))
    return out + simon + copies + mulligans + abilities


def _fitted(view: Mapping[str, Any], *lines: Callable[[list[str]], str],
            room: int = LINE) -> str:
    """The first of ``lines(names)`` (a line, then its shorter forms) that fits ``room``
    pixels with the players' names shortened (each as short as a name is cut, at
    most), its names shortened just enough (see :func:`~companion.ui.canvas.fit_names`):
    a line's words are kept before a shorter form is taken. A pair is joined without
    the spaces (``Ann&Bea``) before its names lose a letter. Measured as said in the
    language being drawn (a tight form is that language's words, joined tight)."""
    names = [p["name"] for p in view["players"]]
    least = short(names, 0, SMALL)

    def tight(line: Callable[[list[str]], str]) -> Callable[[list[str]], str]:
        return lambda n: translate(line(n)).replace(TEAM_JOIN, TIGHT_JOIN)

    line = next((form for form in lines if text_width(tight(form)(least), SMALL) <= room),
                lines[-1])
    return fit_names(names, line, tight(line), width=room)


def _side(view: Mapping[str, Any], side: int, names: list[str]) -> str:
    """A side's name from its players' (shortened) ``names``: ``"Ann & Bob"``."""
    return TEAM_JOIN.join(names[p] for p in view["sides"][side]["players"])


def _hitters(view: Mapping[str, Any], shot: Mapping[str, Any], names: list[str]) -> str:
    who = TEAM_JOIN.join(names[p] for p in shot.get("players", []))
    return who or _side(view, shot["side"], names)


def _point(view: Mapping[str, Any], point: Mapping[str, Any], names: list[str],
           words: Mapping[str, str] | None = None) -> str:
    """``"Ann scores: net"``: who won the last point and why, in the words of every
    output (the loser goes without saying); with the reasons' ``words``, the shorter
    ``"+1 Ann: net"`` for a line too narrow for the sentence."""
    side = _side(view, point["winner"], names)
    if words is None:
        return point_said(side, point["reason"], pair=_pair(view, point["winner"]))
    return _("+1 {side}: {reason}", side=side, reason=words[point["reason"]])


def _pair(view: Mapping[str, Any], side: int) -> bool:
    """Whether ``side`` is two players (its verbs take the plural: "Ann & Bea win")."""
    return len(view["sides"][side]["players"]) > 1


# --- the card picker -------------------------------------------------------------------


def picker(draw: ImageDraw.ImageDraw, ui: Ui, screen: Screen, match: Mapping[str, Any]) -> None:
    """The row so far, the landing previewed on the court and judged, the ring of cards."""
    seen = preview(ui, match)
    landed = seen.end if seen.cards else None
    court(draw, seen.cols, landed=None, ball=landed, start=seen.start)
    write(draw, (RIGHT, 0), fit(screen.title, SMALL, WIDTH - RIGHT), SMALL)
    shown = list(ui.picked)
    cursor = ui.cursor % len(screen.items)
    under = screen.items[cursor]
    row = " ".join(shown) if shown else "-"
    write(draw, (RIGHT, 9), fit(row, BOLD, WIDTH - RIGHT), BOLD)
    if under != GO:
        # The card under the cursor, not added yet: shown after the row, lighter.
        x = RIGHT + (len(row) + 1) * char_width(BOLD) if shown else RIGHT
        if x + 2 * char_width(BOLD) <= WIDTH:
            draw.rectangle((x - 1, 9, x + 2 * char_width(BOLD), 22), outline=1)
            write(draw, (x, 9), under, BOLD)
    if seen.result:
        # A bad serve's name fills the line; the court shows where it landed.
        where = "" if seen.result == "bad_serve" else _cell_name(seen.end, seen.cols)
        verdict = f"{translate(RESULTS[seen.result])} {where}".strip()
        write(draw, (RIGHT, 22), fit(verdict, BOLD, WIDTH - RIGHT), BOLD)
    _strip(draw, screen.items, cursor, LINES_Y[0])
    if screen.hint:
        write(draw, (0, LINES_Y[1]), fit(screen.hint, SMALL, WIDTH), SMALL)


def _cell_name(cell: Cell, cols: int) -> str:
    """``"2,3"`` on the court; nothing off it (the verdict says out)."""
    if 1 <= cell[0] <= cols and 1 <= cell[1] <= ROWS:
        return f"{cell[0]},{cell[1]}"
    return ""


def _strip(draw: ImageDraw.ImageDraw, items: tuple[str, ...], cursor: int, y: int) -> None:
    """Up to five choices of the ring around the cursor, the cursor's inverted."""
    n = len(items)
    span = min(2, (n - 1) // 2)
    slot = 22
    middle = WIDTH // 2
    for offset in range(-span, span + 1):
        label = translate(items[(cursor + offset) % n])  # "Go" in the table's language
        x = middle + offset * slot - len(label) * char_width(BODY) // 2
        if offset == 0:
            draw.rectangle((x - 2, y - 1, x + len(label) * char_width(BODY) + 1, y + 8), fill=1)
            write(draw, (x, y - 1), label, BODY, fill=0)
        else:
            write(draw, (x, y - 1), label, BODY)
    if n > 2 * span + 1:
        draw.polygon([(2, y + 3), (5, y), (5, y + 6)], fill=1)
        draw.polygon([(WIDTH - 3, y + 3), (WIDTH - 6, y), (WIDTH - 6, y + 6)], fill=1)
