import sys

sys.path.insert(0, "tests/audit")
from harness import replay


def S(players, chars, **o):
    return {"game": "alakaslam", "players": players, "options": dict(characters=chars, **o)}


def run(name, lines, keys=("obligations",), seed=1):
    rc, out = replay(lines, seed)
    if rc:
        print(f"{name}: REFUSED {out}")
    else:
        print(f"{name}: OK", {k: out.get(k) for k in keys})
    return rc, out
