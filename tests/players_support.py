"""Finished matches of every game and every match shape, played through a real Table.

Each helper starts a match on the table and plays it to a result chosen by
the caller, in as few actions as the rules allow, so histories of hundreds
of matches stay quick.
"""

from __future__ import annotations

import random
from typing import Any

from companion.table import Table

ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
CHARACTERS = ["austin", "laurie", "rich", "toots"]
#: AlakaSLAM's formats by number of players: teams per player.
SLAM_TEAMS = {2: [0, 1], 3: [0, 1, 1], 4: [0, 0, 1, 1]}


def center_court(table: Table, players: list[str], winner: int) -> None:
    """A one-set match ``winner`` wins 6-0."""
    table.start({"game": "center-court", "players": players, "options": {"sets": 1}})
    for _ in range(24):
        table.act({"type": "point", "winner": winner})


def alakaslam(table: Table, players: list[str], winner_side: int) -> None:
    """Singles (2 players), Canadian doubles (3: one against two) or doubles (4), to one
    point won by ``winner_side``."""
    n = len(players)
    table.start({"game": "alakaslam", "players": players,
                 "options": {"characters": CHARACTERS[:n], "teams": SLAM_TEAMS[n],
                             "target": 1}})
    table.act({"type": "point", "winner": winner_side})


def dodgeball(table: Table, sides: list[str], winner: int) -> None:
    """Two sides to one point: the winning side's first wizard hits."""
    table.start({"game": "wizard-dodgeball", "players": sides,
                 "options": {"rosters": ROSTERS, "target": 1}})
    if winner == 1:
        table.act({"type": "end_activation"})
    table.act({"type": "hit", "thrower": ROSTERS[winner][0],
               "target": ROSTERS[1 - winner][0]})


def alakazoo(table: Table, players: list[str], shown: list[int]) -> None:
    """Each player displays ``shown[i]`` of their own creature on their first turn (one
    point each, plus one per space no one filled before), then everyone takes Dark Power
    until nobody can act and the match ends."""
    table.start({"game": "alakazoo", "players": players,
                 "options": {"dark_power_reset": False}})
    for i in range(len(players)):
        creature = table.snapshot.match["view"]["players"][i]["creature"]
        for space in range(1, shown[i] + 1):
            table.act({"type": "display", "space": space, "creature": creature})
        for _ in range(3):
            table.act({"type": "dark_power", "reason": "hand"})
        table.act({"type": "end_turn"})
    while table.snapshot.match["status"] != "finished":
        table.act({"type": "end_turn"})


def random_match(table: Table, rng: random.Random, names: list[str]) -> dict[str, Any]:
    """A random finished match of a random game and shape among ``names``; returns what
    was played: ``{"game", "players", "teams" (indexes), "places"}`` as the test's own
    reference reads the rules, not through the companion's standings."""
    game = rng.choice(["center-court", "alakaslam", "wizard-dodgeball", "alakazoo"])
    if game == "center-court":
        players, w = rng.sample(names, 2), rng.randrange(2)
        center_court(table, players, w)
        return {"game": game, "players": players, "teams": [[0], [1]],
                "places": [0 if w == 0 else 1, 1 if w == 0 else 0]}
    if game == "wizard-dodgeball":
        players, w = rng.sample(names, 2), rng.randrange(2)
        dodgeball(table, players, w)
        return {"game": game, "players": players, "teams": [[0], [1]],
                "places": [0 if w == 0 else 1, 1 if w == 0 else 0]}
    if game == "alakaslam":
        n = rng.choice([2, 3, 4])
        players, w = rng.sample(names, n), rng.randrange(2)
        alakaslam(table, players, w)
        sides = SLAM_TEAMS[n]
        teams = [[i for i in range(n) if sides[i] == s] for s in (0, 1)]
        return {"game": game, "players": players, "teams": teams,
                "places": [0 if s == w else 1 for s in (0, 1)]}
    n = rng.choice([2, 3, 4])
    players = rng.sample(names, n)
    shown = [rng.randrange(3) for _ in range(n)]
    alakazoo(table, players, shown)
    totals = [p["total"] for p in table.snapshot.match["view"]["players"]]
    return {"game": game, "players": players, "teams": [[i] for i in range(n)],
            "places": [sorted(totals, reverse=True).index(t) for t in totals]}
