"""Swiss pairing: one round at a time, by a maximum-weight matching (networkx).

Every present player gets exactly one game or the bye. Among all the ways to
do that, the round chosen is the best by these rules, each one counting only
when the ones before it tie:

1. No second bye while a player without one can take it (the bye goes to
   someone with the fewest byes so far).
2. As few rematches as possible (none whenever one can be avoided).
3. The bye to the lowest-ranked player who may take it (rules 1 and 2 allowing).
4. Score groups kept together: no game crosses more score groups than it
   must (the widest crossing as small as it can be, then as few of those as
   can be, then the next widest, ...). A score group is everyone on the same
   points; the groups are counted from the top.
5. Within a score group, its top half meets its bottom half in order (first v
   first of the lower half), as the Dutch system does.

The ranking: points (a late arrival's ``start_points`` count), then rating,
then a draw made with the seed (the same seed gives the same round).

Each rule is a tier of the edge weights, scaled so that any difference in a
tier outweighs every tier below it added over the whole round; networkx's
``max_weight_matching(maxcardinality=True)`` then finds the best round
exactly. For a field larger than :data:`FULL_GRAPH_UP_TO` the graph holds,
for speed, only games between players at most :data:`WINDOW` places apart in
rule 5's order (and every possible bye); if the best round on that graph
leaves someone unpaired, has a rematch or a second bye, the whole graph is
used, so rules 1 and 2 always hold exactly.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from companion.i18n import N_, Text, _
from hall.director.model import Pairing, Player, Result, Round, points_text
from hall.director.standings import CHESS, Scoring, effective, standings

#: Up to this many present players the matching sees every possible game.
FULL_GRAPH_UP_TO = 64
#: In a larger field, the games the matching considers: players this close in rule 5's order.
WINDOW = 24

_BYE = "\x00bye"  # the bye's node in the graph: no player's name can be this


@dataclass(frozen=True)
class _Field:
    """What the pairing knows of the present players."""

    ranked: tuple[str, ...]             # best first
    points: dict[str, float]
    group: dict[str, int]               # score group, 0 the top
    order: dict[str, int]               # place in rule 5's order
    met: dict[frozenset[str], list[int]]
    byes: dict[str, int]

    def rematch(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.met


def _field(players: Sequence[Player], results: Sequence[Result], scoring: Scoring,
           seed: int) -> _Field:
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"a player is listed twice: {sorted(names)}")
    counted = effective(results)
    table = {s.name: s.points for s in standings(players, counted, scoring)}
    rng = random.Random(seed)
    draw = {name: rng.random() for name in sorted(names)}
    rating = {p.name: p.rating for p in players}
    ranked = tuple(sorted(names, key=lambda n: (-table[n], -rating[n], draw[n])))
    scores = sorted({table[n] for n in names}, reverse=True)
    group = {n: scores.index(table[n]) for n in names}
    sequence: list[str] = []
    for g in range(len(scores)):
        members = [n for n in ranked if group[n] == g]
        top, bottom = members[:len(members) // 2], members[len(members) // 2:]
        for i, name in enumerate(bottom):  # the bottom half is never the smaller
            sequence += [top[i], name] if i < len(top) else [name]
    order = {n: i for i, n in enumerate(sequence)}
    met: dict[frozenset[str], list[int]] = defaultdict(list)
    byes: dict[str, int] = defaultdict(int)
    for result in counted:
        if result.bye:
            byes[result.players[0]] += 1
        for i, a in enumerate(result.players):
            for j, b in enumerate(result.players[i + 1:], i + 1):
                if result.opposed(i, j):
                    met[frozenset((a, b))].append(result.round)
    return _Field(ranked, {n: table[n] for n in names}, group, order, dict(met), dict(byes))


def _costs(f: _Field, a: str, b: str) -> tuple[int, int, int, int, int]:
    """The tiers (rules 1 to 5) of one edge; lower is better."""
    if b == _BYE:
        below = len(f.ranked) - 1 - f.ranked.index(a)
        return (f.byes.get(a, 0), 0, below, 0, 0)
    return (0, int(f.rematch(a, b)), 0, abs(f.group[a] - f.group[b]),
            abs(f.order[a] - f.order[b]) - 1)


def _match(f: _Field, edges: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """The best perfect matching on ``edges`` by the tiers, or a smaller one if none is perfect."""
    games = (len(f.ranked) + 1) // 2
    costs = {e: _costs(f, *e) for e in edges}
    # Rule 4's tier: one game crossing d groups must outweigh any number of
    # games crossing fewer, so it costs base**d - 1 with base above the game count.
    base = games + 1
    costs = {e: (*c[:3], base ** c[3] - 1, c[4]) for e, c in costs.items()}
    weight = {e: 0 for e in edges}
    scale = 1
    for tier in range(4, -1, -1):
        for e, c in costs.items():
            weight[e] += c[tier] * scale
        scale = games * max(weight.values(), default=0) + 1
    top = scale  # above every edge's total cost: all weights positive
    return _matching(edges, {e: top - w for e, w in weight.items()})


#: The largest edge weight handed to rustworkx, whose matching sums weights in 128-bit
#: integers: a round's total stays far below that bound (a bigger one goes to networkx,
#: whose Python integers have none).
MAX_FAST_WEIGHT = 2 ** 100


def _matching(edges: list[tuple[str, str]], weight: dict[tuple[str, str], int]
              ) -> set[tuple[str, str]]:
    """The maximum-weight matching of greatest cardinality on ``edges``.

    rustworkx's (compiled: a 400-player round in a tenth of the time of networkx's,
    the same blossom algorithm on the same integer weights, so the same optimum);
    networkx's when a weight is too large for rustworkx's integers. Either is
    imported here, when a round is paired: most halls pair nothing, and the import
    is a good part of a start-up."""
    if max(weight.values(), default=0) <= MAX_FAST_WEIGHT:
        import rustworkx as rx

        graph = rx.PyGraph()
        names = sorted({n for e in edges for n in e})
        index = dict(zip(names, graph.add_nodes_from(names), strict=True))
        graph.add_edges_from([(index[a], index[b], w) for (a, b), w in weight.items()])
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        return {(names[a], names[b]) for a, b in found}
    import networkx as nx

    nxgraph: nx.Graph[str] = nx.Graph()
    nxgraph.add_weighted_edges_from((a, b, w) for (a, b), w in weight.items())
    return {tuple(pair) for pair in nx.max_weight_matching(nxgraph, maxcardinality=True)}


def pair_swiss(players: Sequence[Player], results: Sequence[Result], number: int, *,
               scoring: Scoring = CHESS, seed: int = 0) -> Round:
    """Round ``number`` of a Swiss for the ``players`` present now.

    ``results`` are the event's results so far (corrections included; players
    no longer present count for nobody's pairing but their games still
    count as met). A drop-out is left out of ``players``; a late arrival is
    put in, with the ``start_points`` the director gives.
    """
    if number < 1:
        raise ValueError(f"rounds count from 1, not {number}")
    if not players:
        return Round(number, ())
    f = _field(players, results, scoring, seed)
    nodes = [*f.ranked, *([_BYE] if len(f.ranked) % 2 else [])]
    every = [(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:]]
    if len(f.ranked) <= FULL_GRAPH_UP_TO:
        matching = _match(f, every)
    else:
        near = [(a, b) for a, b in every if b == _BYE or abs(f.order[a] - f.order[b]) <= WINDOW]
        matching = _match(f, near)
        fewest = min(f.byes.get(n, 0) for n in f.ranked)
        if (len(matching) * 2 < len(nodes)
                or any(f.rematch(*p) for p in matching if _BYE not in p)
                or any(f.byes.get(n, 0) > fewest for p in matching if _BYE in p for n in p)):
            matching = _match(f, every)
    return _round(f, number, matching)


def _round(f: _Field, number: int, matching: set[tuple[str, str]]) -> Round:
    place = {n: i for i, n in enumerate(f.ranked)}
    games = sorted((tuple(sorted(p, key=place.__getitem__)) for p in matching if _BYE not in p),
                   key=lambda g: (place[g[0]], place[g[1]]))
    pairings = [Pairing(board, g, _why_game(f, *g)) for board, g in enumerate(games, 1)]
    for p in matching:
        if _BYE in p:
            name = p[0] if p[1] == _BYE else p[1]
            pairings.append(Pairing(len(pairings) + 1, (name,), _why_bye(f, name)))
    return Round(number, tuple(pairings))


def _why_game(f: _Field, a: str, b: str) -> Text:
    scores: Text
    if f.points[a] == f.points[b]:
        scores = _("both {points}", points=points_text(f.points[a]))
    else:
        groups = f.group[b] - f.group[a]
        scores = N_("{a} {a_points}, {b} {b_points}: {a} floats down a score group",
                    "{a} {a_points}, {b} {b_points}: {a} floats down {n} score groups",
                    groups, a=a, b=b, a_points=points_text(f.points[a]),
                    b_points=points_text(f.points[b]))
    rounds = f.met.get(frozenset((a, b)))
    if not rounds:
        return _("{a} v {b}: {scores}, not met before", a=a, b=b, scores=scores)
    return _("{a} v {b}: {scores}, met before in round {rounds}: no pairing of this round "
             "avoids every rematch", a=a, b=b, scores=scores,
             rounds=", ".join(map(str, rounds)))


def _why_bye(f: _Field, name: str) -> Text:
    fewest = min(f.byes.get(n, 0) for n in f.ranked)
    if f.byes.get(name, 0):
        return _("{name} gets the bye again: everyone here has had one, {name} is lowest of "
                 "those with fewest", name=name)
    lower = [n for n in f.ranked[f.ranked.index(name) + 1:] if f.byes.get(n, 0) == fewest]
    if not lower:
        return _("{name} gets the bye: lowest without one", name=name)
    return _("{name} gets the bye: lowest without one but {names}, whose bye would force a "
             "rematch", name=name, names=", ".join(lower))
