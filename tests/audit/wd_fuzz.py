# ruff: noqa: E731, RUF017, SIM102
import sys

from legal_fuzz import note, run

R = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
ALL = sum(R, [])
SPELLS = [
    "dispel",
    "fireball",
    "freeze",
    "shield",
    "teleport",
    "butter_fingers",
    "sticky_fingers",
    "magic_drain",
    "magic_boost",
    "shrink",
    "enlarge",
    "slow",
    "speed",
    "weak",
    "strong",
]


def start(rng):
    o = {
        "rosters": R,
        "turn": rng.choice(["basic", "advanced"]),
        "variant": rng.choice(["points", "points", "elimination"]),
    }
    if rng.random() < 0.6:
        o["wizards"] = {str(j): {"magic": rng.randint(0, 3)} for j in ALL}
    return {"game": "wizard-dodgeball", "players": ["Owls", "Newts"], "options": o}


def gen(rng, m):
    v = m["view"]
    act = v["active"]["jersey"]
    j = lambda: act if rng.random() < 0.6 else rng.choice(ALL)
    t = rng.choice(
        ["hit", "catch", "pass", "throw", "cast", "cast_roll", "dispel", "cast", "cast_roll"]
    )
    if t == "hit":
        a = {"type": t, "thrower": j(), "target": rng.choice(ALL)}
    elif t == "catch":
        a = {
            "type": t,
            "thrower": j(),
            "catcher": rng.choice(ALL),
            "returning": rng.choice([None, rng.choice(ALL)]),
        }
    elif t == "pass":
        a = {"type": t, "thrower": j(), "to": rng.choice(ALL)}
    elif t == "throw":
        a = {
            "type": t,
            "thrower": j(),
            "target": rng.choice(ALL),
            "range": rng.randint(1, 3),
            "target_holding_ball": rng.random() < 0.5,
        }
    elif t == "dispel":
        a = {"type": t, "caster": j(), "target": rng.choice(ALL), "spell": rng.choice(SPELLS)}
    else:
        a = {
            "type": t,
            "caster": j(),
            "spell": rng.choice(SPELLS),
            "targets": rng.sample(ALL, rng.choice([0, 1, 1, 1, 2, 2, 3, 4])),
        }
        if t == "cast_roll" and a["spell"] == "dispel":
            a["effect"] = rng.choice(SPELLS)
    if (
        t in ("hit", "pass", "throw", "catch")
        and v.get("loose_fireballs") is not None
        and rng.random() < 0.3
    ):
        a["fireball"] = rng.choice([True, False, 0, 1])
    return a


def on_view(m, log):
    v = m["view"]
    for s in v["sides"]:
        for w in s["wizards"]:
            if len(w["effects"]) != len(set(w["effects"])):
                note(f"#{w['jersey']} holds one effect twice: {w['effects']}; {log[-4:]}")
            if not w["on_court"] and w["effects"]:
                note(f"#{w['jersey']} off court with effects {w['effects']}")
    kinds = {}
    for s in v["sides"]:
        for w in s["wizards"]:
            for e in w["effects"]:
                kinds[e] = kinds.get(e, 0) + 1
    fb = kinds.get("fireball", 0) + len(v.get("loose_fireballs") or [])
    if fb > 2:
        note(f"{fb} Fireballs about; {log[-4:]}")
    if v["winner"] is None and m["status"] == "active" and v["target"] is not None:
        if max(s["score"] for s in v["sides"]) >= v["target"]:
            note(f"score reached target without a winner: {[s['score'] for s in v['sides']]}")


def side_of(j):
    return 0 if j in R[0] else 1


def wizard(view, j):
    for s in view["sides"]:
        for w in s["wizards"]:
            if w["jersey"] == j:
                return w


def on_accept(prev, new, a, log):
    pv, nv = prev["view"], new["view"]
    last = nv["last"] or {}
    before = [s["score"] for s in pv["sides"]]
    after = [s["score"] for s in nv["sides"]]
    exp = list(before)
    t = a["type"]
    points = pv["variant"] == "points"
    if t in ("hit", "throw", "catch"):
        result = last.get("result")
        if t == "hit":
            shielded = "shield" in wizard(pv, a["target"])["effects"]
            result = "shield" if shielded else "hit"
        if t == "catch":
            result = "catch"
        if result == "hit":
            if points:
                exp[side_of(a["thrower"])] += 1
            if wizard(nv, a["target"])["on_court"]:
                note(f"hit target #{a['target']} still on court; {log[-3:]}")
        elif result == "catch":
            catcher = a.get("catcher", a.get("target"))
            if points:
                exp[side_of(catcher)] += 1
            if wizard(nv, a["thrower"])["on_court"]:
                note(f"caught thrower #{a['thrower']} still on court; {log[-3:]}")
        elif result == "shield":
            if "shield" in wizard(nv, a["target"])["effects"]:
                note(f"shield not spent by a hit: {a}; {log[-3:]}")
    if after != exp:
        note(f"score {after} expected {exp} after {a} (last {last}); {log[-3:]}")
    if points and nv["target"] is not None:
        won = [i for i in (0, 1) if after[i] >= nv["target"]]
        if won and nv["winner"] != won[0]:
            note(f"score {after} reached target but winner {nv['winner']}")
        if not won and nv["winner"] is not None:
            note(f"winner {nv['winner']} at score {after}")
    if not points:
        for i, s in enumerate(nv["sides"]):
            if s["on_court"] == 0 and nv["winner"] != 1 - i:
                note(f"side {i} has nobody on court, winner {nv['winner']}")


if __name__ == "__main__":
    run(
        "wizard-dodgeball",
        start,
        gen,
        int(sys.argv[1]),
        int(sys.argv[2]),
        on_view=on_view,
        on_accept=on_accept,
    )
