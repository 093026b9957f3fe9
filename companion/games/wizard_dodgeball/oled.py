"""The Wizard Dodgeball board: who acts, the score, what just happened, the recharging cards."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from companion.games.wizard_dodgeball import SHORT
from companion.games.wizard_dodgeball.words import joined
from companion.i18n import C_, N_, Text, _
from companion.ui.canvas import (
    BOLD,
    KEYS_TOP,
    SMALL,
    WIDTH,
    fit,
    short,
    text_width,
    write,
    write_right,
)

#: Recharging cards: one column per side, this many lines each.
CARD_LINES = 2
CARDS_TOP = 34


def board(draw: ImageDraw.ImageDraw, match: dict[str, Any]) -> None:
    """Active wizard and score; the activation or a reminder; the last event; the cards."""
    view = match["view"]
    names = [s["name"] for s in view["sides"]]
    if view["winner"] is not None:
        room = 90 - text_width(_("{name} wins", name=""), BOLD)
        wins = short(names, room, BOLD)
        write(draw, (0, 0), _("{name} wins", name=wins[view["winner"]]), BOLD)
    else:
        side, jersey = view["active"]["side"], view["active"]["jersey"]
        write(draw, (0, 0), f"#{jersey}", BOLD)
        write(draw, (31, 2), short(names, 60, SMALL)[side], SMALL)
    write_right(draw, WIDTH, 0, score(view), BOLD)
    write(draw, (0, 14), fit(status(view), SMALL, WIDTH), SMALL)
    last = view["last"]
    if last is not None:
        write(draw, (0, 23), fit(last["text"], SMALL, WIDTH), SMALL)
    draw.line((0, CARDS_TOP - 2, WIDTH - 1, CARDS_TOP - 2), fill=1)
    draw.line((WIDTH // 2, CARDS_TOP - 2, WIDTH // 2, KEYS_TOP), fill=1)
    for side in (0, 1):
        left = side * (WIDTH // 2) + 2
        for i, line in enumerate(card_lines(view, side)):
            write(draw, (left, CARDS_TOP + 9 * i), line, SMALL)


def score(view: dict[str, Any]) -> str:
    """Points as ``"3-2"``; in the elimination variant, wizards on court ``"5v4"``."""
    a, b = view["sides"]
    if view["variant"] == "points":
        return f"{a['score']}-{b['score']}"
    return f"{a['on_court']}v{b['on_court']}"


def status(view: dict[str, Any]) -> str:
    """The reminder if there is one, else the activation, round and actions.

    Once the active wizard has recorded an action, the line says what is
    left of the activation instead ("Act 3  left: cast", "no move; 1 action
    left"), since that is what the table needs next.
    """
    if view["winner"] is not None:
        return _("Act {n}  round {round}", n=view["activation"], round=view["round"])
    side, jersey = view["active"]["side"], view["active"]["jersey"]
    me = next(w for w in view["sides"][side]["wizards"] if w["jersey"] == jersey)
    stuck = not me["on_court"] or "freeze" in me["effects"]
    if view["reminder"] and (stuck or not view["used"]):
        return view["reminder"]
    if view["used"]:
        if view["returned"]:
            return _("no move; {left}", left=left(view))
        return _("Act {n}  {left}", n=view["activation"], left=left(view))
    if view["actions"] is not None:
        return N_("Act {act}  round {round}  {n} action", "Act {act}  round {round}  {n} actions",
                  view["actions"], act=view["activation"], round=view["round"])
    return _("Act {n}  round {round}", n=view["activation"], round=view["round"])


#: The kinds of action still open, as the board says them.
KINDS = {"throw": C_("left", "throw"), "cast": C_("left", "cast")}


def left(view: dict[str, Any]) -> Text:
    """What the active wizard may still record: ``"left: cast"``, ``"1 action left"``."""
    if view["actions"] is not None:
        n = view["actions_left"]
        return N_("{n} action left", "{n} actions left", n) if n else _("no action left")
    if view["open"]:
        # Slow: a throw or a cast; Speed: one more of either besides.
        n, kinds = view["actions_left"], view["open"]
        if n < len(kinds):
            return _("left: {kinds}", kinds=C_("left", "throw or cast") if len(kinds) > 1
                     else KINDS[kinds[0]])
        said = joined([KINDS[k] for k in kinds])
        if n > len(kinds):
            return _("left: {kinds} +{more}", kinds=said, more=n - len(kinds))
        return _("left: {kinds}", kinds=said)
    return _("throw, cast done")


def card_lines(view: dict[str, Any], side: int) -> list[str]:
    """``"FRZ#21 in 3"``: the side's recharging cards, each with its caster and the
    activations until it is back ("in 3": a bare number read as a score)."""
    due = [r for r in view["recharging"] if r["side"] == side]
    lines: list[str] = [_("{code}#{j} in {n}", code=SHORT[r["spell"]], j=r["caster"],
                          n=r["left"]) for r in due]
    if not lines:
        return [_("all ready")]
    if len(lines) > CARD_LINES:
        lines = [*lines[: CARD_LINES - 1], _("+{n} more", n=len(lines) - CARD_LINES + 1)]
    return lines
