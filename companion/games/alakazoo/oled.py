"""The Alakazoo board, space picker and Magic Jury: a portal as a 3x3 grid beside the scores.

A portal is drawn as nine 12-pixel cells in reading order (spaces 1 2 3 on
top). Each element is its creature's initial (another letter of its name
when two names begin alike); an element of the portal's own creature is
inverted, so what scores for the jury's pure bonus stands out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from companion.games.alakazoo.panel import offered
from companion.i18n import _, translate
from companion.ui.base import Screen, Ui
from companion.ui.canvas import (
    BODY,
    BOLD,
    KEYS_TOP,
    SMALL,
    WIDTH,
    char_width,
    fit,
    fit_names,
    short,
    text_width,
    write,
    write_centred,
    write_right,
)

CELL = 12
#: The grid's side: three cells and the closing line.
GRID = 3 * CELL + 1
#: Where the text beside the grid starts.
RIGHT = GRID + 4
#: The other players' lines beside the grid, and the full-width event line.
OTHERS_Y = (23, 31, 39)
EVENT_Y = KEYS_TOP - 8
PIP = 7
#: How each reason for Dark Power reads on the event line.
DARK_REASONS = {"no_rune": _("no rune"), "magic_power": _("Magic Power"),
                "hand": _("hand > 4"), "helper": _("Helper")}
#: Why a display scored, on the event line; a shorter word where "complete" is too long.
SCORED = {"own": _("own"), "first": _("first"), "complete": _("complete")}
SAID = {**SCORED, "complete": _("done")}


def labels(creatures: Sequence[str]) -> list[str]:
    """One character per creature: its initial; when two names begin alike, the later
    one takes the next letter of its name nobody has (Sphinx S, Siren I); a digit
    only when a name has no free letter. Letters, so they never read as space numbers."""
    taken: list[str] = []
    for i, name in enumerate(creatures):
        free = [ch for ch in name.upper() if ch.isalpha() and ch not in taken]
        taken.append(free[0] if free else str(i + 1))
    return taken


def grid(draw: ImageDraw.ImageDraw, x: int, y: int, portal: Sequence[int | None], own: int,
         marks: Sequence[str], cursor: int | None = None) -> None:
    """The portal's nine cells at (x, y); the own creature's inverted; the ``cursor``
    space (1-9) framed twice, with its number when it is empty."""
    for i, c in enumerate(portal):
        x0, y0 = x + (i % 3) * CELL, y + (i // 3) * CELL
        draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), outline=1)
        ink = 1
        if c == own:
            # A black ring inside the grid line keeps inverted neighbours apart.
            draw.rectangle((x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=1)
            ink = 0
        if c is not None:
            write(draw, (x0 + 4, y0 + 2), marks[c - 1], BODY, fill=ink)
        if cursor == i + 1:
            draw.rectangle((x0 - 1, y0 - 1, x0 + CELL + 1, y0 + CELL + 1), outline=1)
            if c is None:
                write(draw, (x0 + 5, y0 + 2), str(i + 1), SMALL)


def pips(draw: ImageDraw.ImageDraw, x: int, y: int, held: int, most: int,
         size: int = PIP) -> int:
    """Dark Power as ``most`` circles, ``held`` of them filled; returns the x after them."""
    for i in range(most):
        x0 = x + i * (size + 2)
        draw.ellipse((x0, y, x0 + size - 1, y + size - 1), outline=1, fill=int(i < held))
    return x + most * (size + 2)


def fitted(names: Sequence[str], *lines: Callable[[list[str]], str], name: str = SMALL) -> str:
    """The first of ``lines(names)`` that fits a full-width line of font ``name`` (see
    :func:`~companion.ui.canvas.fit_names`)."""
    return fit_names(names, *lines, width=WIDTH, name=name)


def event(view: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    """What just happened, within a full-width line: ``"Ann +2: own, first"``,
    ``"Cleo passes: 3 Dark Power"``, ``"Ann rolled Fire Water"``... Made while drawing
    (in the OLED's language: the joined words are said before they are joined)."""
    names = [p["name"] for p in view["players"]]
    last = view["last"]
    creatures = view["creatures"]
    if last is None:
        first = view["first_player"]
        if options.get("first_roll") is not None:
            return fitted(names, lambda n: _("Roll: {name} starts", name=n[first]))
        return fitted(names, lambda n: _("{name} starts", name=n[first]))
    who = last["player"]
    kind = last["type"]
    if kind == "display":
        scored = last["scored"]
        if not scored:
            return fitted(names, lambda n: _("{name}: {creature} on {space}", name=n[who],
                                             creature=creatures[last["creature"] - 1],
                                             space=last["space"]))
        why = ", ".join(translate(SCORED[s]) for s in scored)
        said = ", ".join(translate(SAID[s]) for s in scored)
        forms = [lambda n: _("{name} +{points}: {why}", name=n[who], points=len(scored),
                             why=why),
                 lambda n: _("{name} +{points}: {why}", name=n[who], points=len(scored),
                             why=said)]
        if "complete" in scored:
            forms.append(lambda n: _("{name} completes: +{points}", name=n[who],
                                     points=len(scored)))
        return fitted(names, *forms)
    if kind == "dark_power":
        reason = DARK_REASONS[last["reason"]]
        if last["gained"]:
            return fitted(names, lambda n: _("{name} +1 Dark Power: {reason}", name=n[who],
                                             reason=reason),
                          lambda n: _("{name} +1 DP: {reason}", name=n[who], reason=reason))
        return fitted(names, lambda n: _("{name} at 3 Dark Power: {reason}", name=n[who],
                                         reason=reason),
                      lambda n: _("{name} at 3 Dark Power", name=n[who]))
    if kind == "swap":
        got, space = creatures[last["got"] - 1], last["space"]
        if last["other"] is None:
            return fitted(names, lambda n: _("{name} swaps {space}: {creature} from hand",
                                             name=n[who], space=space, creature=got),
                          lambda n: _("{name} {space}: {creature} from hand", name=n[who],
                                      space=space, creature=got),
                          lambda n: _("{name} {space}: {creature} (hand)", name=n[who],
                                      space=space, creature=got))
        other = last["other"]
        return fitted(names, lambda n: _("{name} swaps {space}: {creature} from {other}",
                                         name=n[who], space=space, creature=got,
                                         other=n[other]),
                      lambda n: _("{name} {space}: {creature} from {other}", name=n[who],
                                  space=space, creature=got, other=n[other]),
                      lambda n: _("{name}: {creature} from {other}", name=n[who],
                                  creature=got, other=n[other]))
    if kind == "roll":
        faces = " ".join(last["faces"])
        # Every face matters more than the verb: drop "rolled", then shorten the faces.
        short_faces = " ".join(f[:4] for f in last["faces"])
        return fitted(names, lambda n: _("{name} rolled {faces}", name=n[who], faces=faces),
                      lambda n: f"{n[who]}: {faces}",
                      lambda n: f"{n[who]}: {short_faces}")
    if kind == "column":
        return fitted(names, lambda n: _("{name}: column/discard", name=n[who]),
                      lambda n: _("{name}: cards", name=n[who]))
    if kind == "helper":
        if last["trick"] == "column":
            return fitted(names, lambda n: _("{name} Helper: column card", name=n[who]),
                          lambda n: _("{name}: column card", name=n[who]))
        if last["gained"]:
            return fitted(names, lambda n: _("{name} Helper: hand swap +1 DP", name=n[who]),
                          lambda n: _("{name}: hand swap +1 DP", name=n[who]))
        return fitted(names, lambda n: _("{name} Helper: hand swap", name=n[who]),
                      lambda n: _("{name}: hand swap", name=n[who]))
    passed = [x["player"] for x in last["passes"]]
    if passed:
        if len(passed) == 1:
            return fitted(names, lambda n: _("{name} passes: 3 Dark Power", name=n[passed[0]]),
                          lambda n: _("{name} passes: 3 DP", name=n[passed[0]]))
        return fitted(names, lambda n: _("{names} pass: 3 Dark Power",
                                         names=" & ".join(n[q] for q in passed)),
                      lambda n: _("{names} pass: 3 DP", names=" & ".join(n[q] for q in passed)),
                      lambda n: _("{names} pass", names=" & ".join(n[q] for q in passed)))
    if view["final_round"] and view["ender"] == who:
        return fitted(names, lambda n: _("{name} completed the portal", name=n[who]),
                      lambda n: _("{name} completed", name=n[who]))
    return fitted(names, lambda n: _("{name} ended the turn", name=n[who]))


def board(draw: ImageDraw.ImageDraw, match: Mapping[str, Any]) -> None:
    """In play: the current player's portal, name, points, Dark Power, the round (or
    FINAL ROUND), the others' points and Dark Power, and the last event. Over: the
    standings."""
    view = match["view"]
    if view["current"] is None:
        standings(draw, view)
        return
    me = view["players"][view["current"]]
    marks = labels(view["creatures"])
    grid(draw, 0, 0, me["portal"], me["creature"], marks)
    # The own creature's name, inverted like its elements on the grid: the legend.
    legend = fit(me["creature_name"], SMALL, RIGHT)
    draw.rectangle((0, GRID + 1, text_width(legend, SMALL) + 1, GRID + 9), fill=1)
    write(draw, (1, GRID + 1), legend, SMALL, fill=0)
    names = [p["name"] for p in view["players"]]
    points = str(me["points"])
    room = WIDTH - RIGHT - 2 - text_width(points, BOLD)
    write(draw, (RIGHT, 0), short(names, room, BOLD)[view["current"]], BOLD)
    write_right(draw, WIDTH, 0, points, BOLD)
    pips(draw, RIGHT, 15, me["dark_power"], view["dark_max"])
    if view["final_round"]:
        text = translate(_("FINAL ROUND"))
        x = WIDTH - text_width(text, SMALL) - 2
        draw.rectangle((x - 2, 13, WIDTH - 1, 22), fill=1)
        write(draw, (x, 14), text, SMALL, fill=0)
    else:
        write_right(draw, WIDTH, 14, _("Round {round}", round=view["round"]), SMALL)
    others = [q for q in range(len(names)) if q != view["current"]]
    shortened = short(names, 10 * char_width(SMALL), SMALL)
    for y, q in zip(OTHERS_Y, others, strict=False):
        other = view["players"][q]
        write(draw, (RIGHT, y), shortened[q], SMALL)
        left = WIDTH - view["dark_max"] * 7 + 1
        pips(draw, left, y + 1, other["dark_power"], view["dark_max"], 5)
        write_right(draw, left - 4, y, str(other["points"]), SMALL)
    write(draw, (0, EVENT_Y), event(view, match.get("options", {})), SMALL)


def standings(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """The match is over: who won, then each player's points in play + jury = total."""
    names = [p["name"] for p in view["players"]]
    won = view["winner"] or []
    if len(won) == 1:
        head = fitted(names, lambda n: _("{name} wins", name=n[won[0]]), name=BOLD)
    else:
        head = _("Shared win")
    write_centred(draw, 0, head, BOLD)
    write(draw, (0, 14), _("play+jury"), SMALL)
    write_right(draw, WIDTH, 14, _("total"), SMALL)
    shortened = short(names, 9 * char_width(SMALL), SMALL)
    for i, p in enumerate(view["players"]):
        y = 22 + 8 * i
        star = "*" if i in won else " "
        jury = p["jury"]["total"] if p["jury"] else 0
        write(draw, (0, y), f"{star}{shortened[i]}", SMALL)
        write(draw, (60, y), f"{p['points']:>2}+{jury}", SMALL)
        write_right(draw, WIDTH, y, str(p["total"]), SMALL)
    if view["ended"] == "stuck":
        write(draw, (0, EVENT_Y), _("ended: nobody could act"), SMALL)


# --- the space picker ---------------------------------------------------------------------


def picker(draw: ImageDraw.ImageDraw, ui: Ui, screen: Screen, match: Mapping[str, Any]) -> None:
    """The current portal with the picked space framed; beside it what is there now."""
    view = match["view"]
    me = view["players"][view["current"]]
    marks = labels(view["creatures"])
    choices = offered(ui, match)
    space = choices[ui.cursor % len(choices)] if choices else None
    grid(draw, 0, 0, me["portal"], me["creature"], marks, cursor=space)
    write(draw, (RIGHT, 0), fit(screen.title, SMALL, WIDTH - RIGHT), SMALL)
    if space is None:
        return
    write(draw, (RIGHT, 10), _("Space {space}", space=space), BOLD)
    there = me["portal"][space - 1]
    if there is None:
        first = str(space) not in view["firsts"]
        write(draw, (RIGHT, 25), _("empty"), SMALL)
        if first:
            write(draw, (RIGHT, 33), _("first: +1"), SMALL)
    else:
        write(draw, (RIGHT, 25), fit(view["creatures"][there - 1], SMALL, WIDTH - RIGHT),
              SMALL)
    write(draw, (0, EVENT_Y), _("spaces: {spaces}", spaces=" ".join(map(str, choices))), SMALL)


# --- the Magic Jury ------------------------------------------------------------------------


def jury(draw: ImageDraw.ImageDraw, ui: Ui, screen: Screen, match: Mapping[str, Any]) -> None:
    """One player's jury: the portal with each row's verdict beside it and each column's
    below it, then points in play, rows, columns, pure bonus and the total."""
    view = match["view"]
    n = len(view["players"])
    who = ui.cursor % n
    p = view["players"][who]
    verdict = p["jury"] or {"rows": [0] * 3, "cols": [0] * 3, "pure": 0, "total": 0}
    grid(draw, 0, 0, p["portal"], p["creature"], labels(view["creatures"]))
    for i, v in enumerate(verdict["rows"]):
        write(draw, (GRID + 1, i * CELL + 2), "+1" if v else " 0", SMALL)
    for i, v in enumerate(verdict["cols"]):
        write(draw, (i * CELL + 2, GRID + 1), "+1" if v else " 0", SMALL)
    left = GRID + 14
    names = [x["name"] for x in view["players"]]
    page = f"{who + 1}/{n}"
    room = WIDTH - left - text_width(page, SMALL) - 2
    write(draw, (left, 0), short(names, room, BOLD)[who], BOLD)
    write_right(draw, WIDTH, 0, page, SMALL)
    lines = ((_("In play"), p["points"]), (_("Rows"), sum(verdict["rows"])),
             (_("Columns"), sum(verdict["cols"])), (_("Pure"), verdict["pure"]))
    for i, (label, value) in enumerate(lines):
        y = 12 + 8 * i
        write(draw, (left, y), label, SMALL)
        write_right(draw, WIDTH, y, str(value), SMALL)
    write(draw, (left, 46), _("Total"), SMALL)
    write_right(draw, WIDTH, 43, str(p["total"]), BOLD)
    won = view["winner"] or []
    if who in won:
        text = translate(_("WINNER") if len(won) == 1 else _("JOINT WIN"))
        draw.rectangle((0, GRID + 9, text_width(text, SMALL) + 3, GRID + 18), fill=1)
        write(draw, (2, GRID + 10), text, SMALL, fill=0)
