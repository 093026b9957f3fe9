"""Center Court's hall card: the sets, the games and the points of each player."""

from __future__ import annotations

from companion.games.base import JSON, Card, won


def card(view: JSON) -> Card:
    """The sets so far, then the games and points (or a match tiebreak's points) while live."""
    # Written as the game writes a score line (center_court.set_score): a set
    # "6-4", a set tiebreak "7-6(7-5)", a match tiebreak "[10-8]".
    sets, breaks = view["sets"], view.get("set_tiebreaks") or [None] * len(view["sets"])
    games, points = view["games"], view["points"]
    live = view["winner"] is None
    columns = [f"S{i + 1}" for i in range(len(sets))]
    line = [_set_text(games_, tb) for games_, tb in zip(sets, breaks, strict=True)]
    if live and view.get("match_tiebreak"):
        columns += ["P"]
        line += [f"[{points[0]}-{points[1]}]"]
    elif live:
        columns += ["G", "P"]
        line += [f"{games[0]}-{games[1]}", f"({points[0]}-{points[1]})"]
    sides = []
    for p, name in enumerate(view["players"]):
        cells = [_set_cell(games_, tb, p) for games_, tb in zip(sets, breaks, strict=True)]
        if live and view.get("match_tiebreak"):
            cells += [str(points[p])]
        elif live:
            cells += [str(games[p]), str(points[p])]
        sides.append((name, cells, (p,), won(view["winner"], p)))
    return Card(" ".join(line), columns, sides)


def _set_text(games: list[int], tiebreak: list[int] | None) -> str:
    """One finished set from the first player's side."""
    if tiebreak is None:
        return f"{games[0]}-{games[1]}"
    if max(games) == 1:  # a match tiebreak stands for the deciding set
        return f"[{tiebreak[0]}-{tiebreak[1]}]"
    return f"{games[0]}-{games[1]}({tiebreak[0]}-{tiebreak[1]})"


def _set_cell(games: list[int], tiebreak: list[int] | None, player: int) -> str:
    """One player's cell of a finished set: games, the loser of a set tiebreak with
    their tiebreak points ("6(5)"), a match tiebreak's points in brackets."""
    if tiebreak is None:
        return str(games[player])
    if max(games) == 1:
        return f"[{tiebreak[player]}]"
    lost = games[player] < games[1 - player]
    return f"{games[player]}({tiebreak[player]})" if lost else str(games[player])


def tiebreaks(view: JSON) -> list[float]:
    """Each player's own tiebreak for a club night's standings: sets won minus lost, with
    games won minus lost as hundredths (6-4 6-3: 2.07 and -2.07). A set tiebreak is
    the set's seventh game; a match tiebreak counts as one set of one game."""
    sets = [(a, b) for a, b in view["sets"]]
    won = sum(a > b for a, b in sets) - sum(b > a for a, b in sets)
    games = sum(a - b for a, b in sets)
    mine = round(won + games / 100, 2)
    return [mine, -mine]
