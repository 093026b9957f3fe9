"""The match as every output shows it, with the jury's breakdown at the end."""

from __future__ import annotations

from companion.games.alakazoo.rules import no_display, no_runes_left
from companion.games.alakazoo.state import (
    DARK_MAX,
    DARK_REASONS,
    SCORES,
    State,
    jury,
    totals,
    winners,
)
from companion.games.base import JSON
from companion.games.said import joined
from companion.i18n import N_, _

#: The penalties the companion cannot see, shown as reminders (each +1 Dark Power). The
#: view is one message for every phone: its ``text`` is English, and the pages say each
#: reminder by its ``reason`` in their own language (web/static/alakazoo.js).
REMINDERS = (
    {"reason": "hand",
     "text": _("More than 4 cards in hand: discard down to 4, +1 Dark Power")},
    {"reason": "magic_power",
     "text": _("More than 6 Magic Power tokens: give the extra back, +1 Dark Power")},
)


def view(state: State) -> JSON:
    """The match as every output shows it (keys: shared/CONTRACT.md, Alakazoo)."""
    s = state.setup
    total = totals(state)
    players = []
    for p, name in enumerate(s.names):
        verdict = jury(state.portals[p], s.portals[p]) if state.over else None
        players.append({
            "name": name, "creature": s.portals[p], "creature_name": s.creature(s.portals[p]),
            "dark_power": state.dark[p], "points": state.points[p],
            "portal": list(state.portals[p]),
            "filled": sum(c is not None for c in state.portals[p]),
            "jury": None if verdict is None else {
                "rows": list(verdict.rows), "cols": list(verdict.cols), "pure": verdict.pure,
                "total": verdict.total,
                "kinds": {"rows": list(verdict.row_kinds), "cols": list(verdict.col_kinds)}},
            "total": total[p],
            # The most Magic Power tokens the record allows the player now.
            "magic_power": state.magic_power(p) if not state.over else state.tokens[p],
        })
    won = winners(state)
    return {
        "players": players,
        "current": state.current,
        "round": state.round,
        "first_player": s.first_player,
        "final_round": state.final_round,
        "ender": state.ender,
        "ended": state.ended,
        "firsts": {str(i + 1): p for i, p in enumerate(state.firsts) if p is not None},
        "winner": list(won) if state.over else None,
        "creatures": list(s.creatures),
        "dice_faces": list(s.faces),
        "dark_max": DARK_MAX,
        "dark_power_reset": s.reset,
        # This turn: the Spell Dice rolled, whether its one action is spent, displays made.
        "roll": None if state.roll is None else {"faces": list(state.roll[0]),
                                                 "device": state.roll[1]},
        "acted": state.acted,
        "action": state.action,
        "displayed": state.displayed,
        "displays": state.displays,
        "max_displays": state.max_displays,
        # Why no display is possible now and what to do, as the API refuses one: English
        # in the JSON every phone shares (the host page says it from the data, in its own
        # language), the refusal's own words on the OLED (companion/games/alakazoo/panel.py).
        "no_display": no_display(state),
        "no_rune_left": no_runes_left(state) if state.current is not None else 0,
        # The deck: its size by player count, the creatures known to be in it.
        "deck_size": s.deck_size,
        "deck": sorted(state.deck),
        "boxed": None if s.boxed is None else list(s.boxed),
        "passes": [{"player": x.player, "reset": x.reset} for x in state.passes],
        "last": None if state.last is None else dict(state.last),
        "reminders": [dict(r) for r in REMINDERS],
        "stats": {
            "points": [dict(zip(SCORES, st.won, strict=True)) for st in state.stats],
            "dark_power": [sum(st.dark) for st in state.stats],
            "dark_power_by": [dict(zip(DARK_REASONS, st.dark, strict=True))
                              for st in state.stats],
            "forced_passes": [st.forced_passes for st in state.stats],
            "swaps": [st.swaps for st in state.stats],
            "rolls": [st.rolls for st in state.stats],
            "columns": [st.columns for st in state.stats],
            "tricks": [st.tricks for st in state.stats],
        },
    }


def winner(state: State) -> int | tuple[int, ...] | None:
    """The winner's index; a tuple of indexes for a shared win; None while playing."""
    won = winners(state)
    if not won:
        return None
    return won[0] if len(won) == 1 else won


def summary(state: State) -> str:
    """Totals in seat order, then each player's points and the stats, for the history;
    e.g. ``14-11-9 · Ann: 6 in play + 8 jury · ... · 2 forced passes``: one message of
    its parts, which the history keeps and says in each reader's language."""
    total = totals(state)
    parts: list[str] = ["-".join(map(str, total))]
    for p, name in enumerate(state.setup.names):
        if state.over:
            parts.append(_("{name}: {points} in play + {jury} jury", name=name,
                           points=state.points[p], jury=total[p] - state.points[p]))
        else:
            parts.append(_("{name}: {points} in play", name=name, points=state.points[p]))
    forced = sum(st.forced_passes for st in state.stats)
    if forced:
        parts.append(N_("{n} forced pass", "{n} forced passes", forced))
    dark = sum(sum(st.dark) for st in state.stats)
    if dark:
        parts.append(_("{n} Dark Power taken", n=dark))
    if state.ended == "stuck":
        parts.append(_("ended: nobody could act"))
    return joined(parts, " · ")


def turn(state: State) -> tuple[int, ...]:
    """The seat whose turn it is; none once over."""
    return () if state.current is None else (state.current,)
