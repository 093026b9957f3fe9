# ruff: noqa: E501, B007, SIM102
"""Random AlakaSLAM play against the HTTP API, compared with sl_model."""

from __future__ import annotations

import copy
import json
import random
import sys
import time

from harness import Table, export_agrees
from sl_model import Illegal, Slam

CHARS = ["austin", "laurie", "rich", "toots", "josephias", "simon", "sarissia", "wendolyn"]
CARDS = ["R0", "R1", "R2", "R3", "B0", "B1", "B2", "B3", "E1", "E2", "E3", "S2"]
WEIGHTS = [3, 3, 3, 2, 3, 3, 3, 2, 1, 1, 1, 1]
problems = []


def note(m):
    problems.append(m)
    print("PROBLEM:", m, flush=True)


def cards(rng, n=None):
    n = n or rng.choice([1, 1, 2, 2, 3])
    return rng.choices(CARDS, WEIGHTS, k=n)


def gen(rng, m: Slam):
    a = gen1(rng, m)
    if a["type"] in ("serve", "shot") and rng.random() < 0.8:
        for _ in range(40):
            m2 = copy.deepcopy(m)
            try:
                if a["type"] in ("serve", "shot") and m2.hit(a["type"], a) == "in":
                    return a
            except Illegal:
                pass
            a = gen1(rng, m)
    return a


def gen1(rng, m: Slam):
    r = rng.random()
    if r < 0.04:
        w = rng.randint(0, 1)
        return {
            "type": "point",
            "winner": w,
            "reason": rng.choice(["no_return", "declined", "out", "net", "bad_serve"]),
        }
    if r < 0.09 and m.due == "serve":
        return {"type": "mulligan", "player": rng.randrange(m.n)}
    side = (
        (m.serving if m.due == "serve" else m.hitting)
        if rng.random() < 0.92 and m.winner is None
        else rng.randint(0, 1)
    )
    mem = m.members(side)
    p = rng.choice(mem)
    kind = m.due if m.due and rng.random() < 0.95 else rng.choice(["serve", "shot"])

    # a shot that obeys the binding most of the time
    def play(q):
        b = m.bind.get(q)
        if b and rng.random() < 0.8:
            n, rich, _ = rng.choice(b)
            cs = cards(rng, n)
            if rich:
                cs = [c if c[0] != "E" else "B0" for c in cs]
        else:
            cs = cards(rng)
        if m.chars[q] != "austin" and rng.random() < 0.9:
            cs = [c if c != "S2" else "R2" for c in cs]
        if m.format == "doubles" and rng.random() < 0.9:
            cs = [c if c != "E1" else "E2" for c in cs]
        es = [i for i, c in enumerate(cs) if c[0] == "E"]
        if len(es) > 1 and rng.random() < 0.9:
            for i in es[1:]:
                cs[i] = "R1"
        d = {"player": q, "cards": cs}
        if any(c[0] == "E" for c in cs):
            opp = m.members(1 - m.teams[q])
            if len(opp) > 1 or rng.random() < 0.3:
                d["enchant"] = rng.choice(opp)
        return d

    a = {"type": kind, **play(p)}
    if kind == "serve":
        a["corner"] = rng.choice(["red", "blue"])
    mates = [q for q in mem if q != p]
    if mates:
        s = play(mates[0])
        a["support"] = s
    return a


def legal_covers(legal, a):
    for s in legal:
        if s["type"] != a["type"]:
            continue
        ok = True
        for k, v in s.items():
            if k == "type":
                continue
            if (
                k in a
                and isinstance(v, list)
                and not isinstance(a[k], (list, dict))
                and a[k] not in v
            ):
                ok = False
        if ok:
            return True
    return False


def compare(view, m: Slam, log):
    exp = {
        "score": m.score,
        "due": m.due,
        "hitting_side": m.hitting,
        "ball": list(m.ball) if m.ball else None,
        "winner": m.winner,
        "serving_side": m.serving,
    }
    got = {
        "score": [s["score"] for s in view["sides"]],
        "due": view["due"],
        "hitting_side": view["hitting_side"],
        "ball": view["ball"],
        "winner": view["winner"],
        "serving_side": view["serving_side"],
    }
    if m.winner is not None:
        exp.pop("serving_side")
        got.pop("serving_side")
    if exp != got:
        note(f"view {got} model {exp}; log {json.dumps(log[-5:])}")
        return False
    obl = sorted((o["player"], sorted(o["cards"])) for o in view["obligations"])
    if obl != m.obligations():
        note(
            f"obligations {view['obligations']} model {m.obligations()}; log {json.dumps(log[-5:])}"
        )
        return False
    return True


def main(n, seed):
    rng = random.Random(seed)
    t0 = time.monotonic()
    stats = dict(games=0, accepted=0, refused=0, disagree=0)
    with Table() as t:
        for gi in range(n):
            np_ = rng.choice([2, 2, 3, 4])
            chars = rng.sample(CHARS, np_)
            target = rng.choice([2, 3, 5])
            rec = {
                "game": "alakaslam",
                "players": ["Łukasz", "Σοφία", "Ольга", "李小龙"][:np_],
                "options": {
                    "characters": chars,
                    "first_server": rng.randint(0, 1),
                    "target": target,
                },
            }
            st, body, _ = t.start(rec)
            assert st == 200, body
            m = Slam(chars, first_server=rec["options"]["first_server"], target=target)
            log = [rec]
            mulls = [0] * np_
            for step in range(400):
                if m.winner is not None:
                    break
                a = gen(rng, m)
                if a["type"] == "mulligan":
                    if mulls[a["player"]] >= 4:
                        continue
                m2 = copy.deepcopy(m)
                m2_score_before = list(m.score)
                try:
                    if a["type"] in ("serve", "shot"):
                        m2.hit(a["type"], a)
                    elif a["type"] == "point":
                        m2.point(a["winner"], a["reason"])
                    elif a["type"] == "mulligan":
                        if m.due != "serve":
                            raise Illegal("mulligan after serve")
                    exp_ok, why = True, ""
                except Illegal as e:
                    exp_ok, why = False, str(e)
                legal = body["match"]["legal"]
                s, b2, _ = t.act(a)
                if s == 200 and not exp_ok:
                    stats["disagree"] += 1
                    note(
                        f"accepted, model says illegal ({why}): {json.dumps(a)}; log {json.dumps(log[-4:])}"
                    )
                    break
                if s != 200 and exp_ok:
                    stats["disagree"] += 1
                    note(
                        f"refused, model says legal: {json.dumps(a)} -> {b2}; log {json.dumps(log[-4:])}"
                    )
                    continue
                if s == 200:
                    if not legal_covers(legal, a):
                        note(
                            f"accepted but not in legal: {json.dumps(a)}; legal {json.dumps(legal)}"
                        )
                    stats["accepted"] += 1
                    if a["type"] == "mulligan":
                        mulls[a["player"]] += 1
                    body = b2
                    m = m2
                    log.append(a)
                    if sum(m.score) != sum(m2_score_before):
                        mulls = [0] * np_
                    if not compare(body["match"]["view"], m, log):
                        break
                else:
                    stats["refused"] += 1
                    err = b2.get("error", "")
                    if any(w in err for w in ("None", "True", "False", "{'", "['")):
                        note(f"refusal wording: {json.dumps(a)} -> {err}")
            if gi % 5 == 0:
                d = export_agrees(t)
                if d:
                    note(f"g{gi}: {d}")
            stats["games"] += 1
            if stats["games"] % 20 == 0:
                print("progress", stats, f"{time.monotonic() - t0:.0f}s", flush=True)
    print("done", stats, len(problems), "problems", f"{time.monotonic() - t0:.0f}s", flush=True)
    return problems


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
