import sys

sys.path.insert(0, "tests/audit")
from harness import replay

R = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]


def S(**o):
    return {
        "game": "wizard-dodgeball",
        "players": ["Owls", "Newts"],
        "options": dict(rosters=R, **o),
    }


E = {"type": "end_activation"}


def c(caster, spell, targets, roll=False, **kw):
    return dict(
        type="cast_roll" if roll else "cast", caster=caster, spell=spell, targets=targets, **kw
    )


def run(name, lines, keys=("last",), seed=1):
    rc, out = replay(lines, seed)
    if rc:
        print(f"{name}: REFUSED {out}")
    else:
        print(f"{name}: OK", {k: out.get(k) for k in keys})
    return rc, out
