"""The match as every output shows it, with the draw and refill reminders."""

from __future__ import annotations

from companion.games.alakaslam.court import serve_positions
from companion.games.alakaslam.rules import REASON_WORDS, side_name
from companion.games.alakaslam.state import REASONS, State, acts_as, draws, hand_size
from companion.games.base import JSON
from companion.games.said import joined
from companion.i18n import N_, Text, _


def view(state: State) -> JSON:
    """The match as every output shows it (keys: shared/CONTRACT.md, AlakaSLAM)."""
    s = state.setup
    everyone = range(len(s.names))
    shot = state.last_shot
    obligations = []
    for p in everyone:
        mine = [b for b in state.bindings if b.player == p]
        if mine:
            obligations.append({"player": p, "cards": [b.cards for b in mine],
                                # No count lets an Enchantment in (the engine takes
                                # any count whose binding allows what is played).
                                "no_enchant": all(b.no_enchant for b in mine),
                                # Which of the counts is Rich's (forbids an Enchantment).
                                "no_enchant_each": [b.no_enchant for b in mine],
                                "by": [b.by for b in mine]})
    # Reminders only: the companion cannot see hands.
    draw = ([draws(state, p) for p in shot.players]
            if shot is not None and state.due == "shot" else [])
    refill = []
    positions = None
    if state.due == "serve":
        side = state.serving_side
        pairs = [len(s.side_players(x)) == 2 for x in (side, 1 - side)]
        positions = {corner: {role: None if cell is None else list(cell) for role, cell in
                              serve_positions(side, corner, state.cols, *pairs).items()}
                     for corner in ("red", "blue")}
        loser = None if state.last_point is None else 1 - state.last_point[0]
        refill = [{"player": p, "discard_up_to": 3 if s.teams[p] == loser else 0,
                   "hand": hand_size(state, p)} for p in everyone]
    return {
        "format": s.format,
        "players": [{"name": s.names[p], "character": s.characters[p], "side": s.teams[p],
                     "ability_used": state.ability_used[p], "copy": state.copies[p],
                     # The character whose ability the player uses now (Simon's copy).
                     "acts_as": acts_as(state, p),
                     "hand": hand_size(state, p), "mulligans": state.mulligans[p],
                     # Spaces each Enchantment discarded for movement gives.
                     "enchant_move": 2 if s.format == "canadian"
                     and s.teammate(p) is None else 1}
                    for p in everyone],
        "sides": [{"players": list(s.side_players(side)), "score": state.score[side],
                   "name": side_name(state, side)} for side in (0, 1)],
        "target": s.target,
        "serving_side": state.serving_side,
        "due": state.due,
        "hitting_side": state.hitting_side,
        "ball": None if state.ball is None else list(state.ball),
        "court": {"cols": state.cols, "rows": 4},
        "obligations": obligations,
        "rally": state.rally,
        "last_shot": None if shot is None else {
            "side": shot.side, "players": list(shot.players), "from": list(shot.start),
            "to": list(shot.end), "result": shot.result},
        "last_point": None if state.last_point is None else {
            "winner": state.last_point[0], "reason": state.last_point[1]},
        "winner": state.winner,
        "draws": draw,
        "refill": refill,
        "serve_positions": positions,
        "stats": {"points": [dict(zip(REASONS, won, strict=True)) for won in state.won_by],
                  "longest_rally": state.longest_rally,
                  "abilities": list(state.abilities)},
    }


def winner(state: State) -> int | tuple[int, ...] | None:
    """The winning player's index in singles; a pair's indexes, a shared win (history)."""
    if state.winner is None:
        return None
    won = state.setup.side_players(state.winner)
    return won[0] if len(won) == 1 else tuple(won)


def summary(state: State) -> str:
    """The score from side 0's view, then the stats, for the history; e.g.
    ``3-1 · Ann: 2 out, 1 no return · Bob: 1 net · longest rally 6 · 2 abilities used``.
    Marked words (a :class:`~companion.i18n.Text`), each part said in the reader's
    language where the whole is said (companion/games/said.py)."""
    parts: list[Text | str] = [f"{state.score[0]}-{state.score[1]}"]
    for side in (0, 1):
        how = joined([_("{n} {reason}", n=n, reason=REASON_WORDS[reason])
                      for reason, n in zip(REASONS, state.won_by[side], strict=True) if n])
        if how:
            parts.append(_("{side}: {how}", side=side_name(state, side), how=how))
    if state.longest_rally:
        parts.append(_("longest rally {n}", n=state.longest_rally))
    used = sum(state.abilities)
    if used:
        parts.append(N_("{n} ability used", "{n} abilities used", used))
    return joined(parts, " · ")


def turn(state: State) -> tuple[int, ...]:
    """The seats of the side to serve or hit now; none once won."""
    if state.winner is not None:
        return ()
    side = state.serving_side if state.due == "serve" else state.hitter
    return state.setup.side_players(side)
