# ruff: noqa: E501
"""Random play of Center Court against the HTTP API, compared with cc_model."""

from __future__ import annotations

import copy
import random
import sys
import time

from cc_model import CC, DIE
from harness import Table, export_agrees

KEYS = [
    "server",
    "serve",
    "in_play",
    "rally_serve",
    "points",
    "tiebreak",
    "match_tiebreak",
    "games",
    "sets",
    "set_tiebreaks",
    "sets_won",
    "winner",
    "final_score",
    "volley",
    "to_return",
    "rally_returns",
    "stats",
    "longest_rally",
    "set_number",
    "deuce",
    "advantage",
]

problems = []


def note(msg):
    problems.append(msg)
    print("PROBLEM:", msg, flush=True)


def legal_expected(m: CC):
    if m.winner is not None:
        return []
    out = []
    if m.in_play:
        out.append({"type": "return", "card": [1, 2, 3, 4, 5, 6], "player": m.to_return})
    else:
        out.append({"type": "serve", "card": [1, 2, 3, 4, 5, 6], "player": m.server()})
    out.append({"type": "point", "winner": [0, 1]})
    return out


def play(t: Table, rng: random.Random, gi: int, max_steps=3000):
    opts = {
        "sets": rng.choice([1, 1, 3, 5]),
        "no_ad": rng.random() < 0.3,
        "final_set": rng.choice(["tiebreak", "advantage", "match-tiebreak"]),
        "first_server": rng.choice([0, 1]),
    }
    status, st, _ = t.start(
        {"game": "center-court", "players": ["Łukasz", "李小龙"], "options": opts}
    )
    assert status == 200, st
    m = CC(**opts)
    hist = []
    log = [{"game": "center-court", "players": ["Łukasz", "李小龙"], "options": opts}]
    for step in range(max_steps):
        match = st["match"]
        view = match["view"]
        for k in KEYS:
            exp = m.view()[k]
            if view.get(k) != exp:
                note(
                    f"game {gi} step {step} opts {opts}: view[{k}]={view.get(k)!r} model {exp!r}; log tail {log[-4:]}"
                )
                return False
        if m.in_play and view["returns"] != m.returns():
            note(f"returns {view['returns']} vs {m.returns()}")
        if match["legal"] != legal_expected(m):
            note(f"game {gi} step {step}: legal {match['legal']} model {legal_expected(m)}")
            return False
        if m.winner is not None:
            if match["status"] != "finished":
                note(f"status {match['status']} with winner")
            # probe: anything after the end is refused
            a = {"type": "point", "winner": 0}
            s2, b2, _ = t.act(a)
            if s2 == 200:
                note(f"point accepted after match end: {log}")
            return True
        r = rng.random()
        # illegal probes (must be refused, and nothing applied)
        if r < 0.08:
            probes = []
            if m.in_play:
                v = m.volley
                c = rng.randint(1, 6)
                probes.append(
                    {"type": "return", "card": c, "count": 1 + abs(c - v) + rng.choice([-1, 1])}
                )
                probes.append({"type": "serve", "card": rng.randint(1, 6)})
                probes.append({"type": "return", "card": c, "player": 1 - m.to_return})
            else:
                probes.append({"type": "return", "card": rng.randint(1, 6)})
                probes.append(
                    {"type": "serve", "card": rng.choice([3, 4]), "roll": rng.choice(DIE)}
                )
                probes.append(
                    {"type": "serve", "card": rng.choice([1, 2, 5, 6]), "roll": rng.choice([3, 4])}
                )
                probes.append({"type": "serve", "card": 3, "player": 1 - m.server()})
            a = rng.choice(probes)
            s2, b2, _ = t.act(a)
            if s2 == 200:
                note(f"illegal accepted: {a} after {log}")
                return False
            err = b2.get("error", "") if isinstance(b2, dict) else str(b2)
            if (
                any(x in err for x in ("None", "True", "False", "{'", "[", "player 0", "player 1"))
                and "'legal'" not in err
            ):
                note(f"refusal wording: {a} -> {err}")
            continue
        if r < 0.12 and hist:
            s2, st, _ = t.undo()
            assert s2 == 200, st
            m = hist.pop()
            log.append({"type": "undo"})
            continue
        if r < 0.40:
            a = {"type": "point", "winner": rng.randint(0, 1)}
        elif m.in_play:
            c = rng.randint(1, 6)
            a = {"type": "return", "card": c}
            if rng.random() < 0.5:
                a["count"] = 1 + abs(c - m.volley)
            if rng.random() < 0.3:
                a["player"] = m.to_return
        else:
            c = rng.randint(1, 6)
            a = {"type": "serve", "card": c}
            if c in (1, 2, 5, 6) and rng.random() < 0.7:
                a["roll"] = rng.choice(DIE)
            if rng.random() < 0.3:
                a["player"] = m.server()
        s2, st2, _ = t.act(a)
        if s2 != 200:
            note(f"legal refused: {a} -> {st2} after {log}")
            return False
        hist.append(copy.deepcopy(m))
        st = st2
        if a["type"] == "point":
            m.award(a["winner"])
        elif a["type"] == "serve":
            roll = st["match"]["view"]["last_serve"]["roll"]
            if a["card"] in (3, 4) and roll is not None:
                note(f"roll {roll} for a {a['card']}")
            if "roll" in a and roll != a["roll"]:
                note("roll changed")
            if roll is not None and roll not in DIE:
                note(f"die showed {roll}")
            m.do_serve(a["card"], roll)
            a = dict(a, roll=roll)
        else:
            m.do_return(a["card"], 1 + abs(a["card"] - m.volley))
        log.append(a)
    return True


def main(n=20, seed=1):
    rng = random.Random(seed)
    t0 = time.monotonic()
    done = 0
    with Table() as t:
        for gi in range(n):
            play(t, rng, gi)
            if gi % 5 == 0:
                d = export_agrees(t)
                if d:
                    note(f"g{gi}: {d}")
            done += 1
            if done % 20 == 0:
                print(
                    f"progress: {done} games, {len(problems)} problems, {time.monotonic() - t0:.0f}s",
                    flush=True,
                )
    print(f"{done} games, {len(problems)} problems, {time.monotonic() - t0:.0f}s")
    return problems


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
