# ruff: noqa: E501
"""Random play against `legal`: every action a shape offers must be accepted,
and a random action outside every shape must be refused (audit, from docs/api.md)."""

from __future__ import annotations

import json
import random
import re
import time

from harness import Table, export_agrees

SUBSET = {"targets"}
META = {"min_targets", "max_targets"}
OPTIONAL = {"fireball", "returning"}

problems: list[str] = []


def note(msg):
    problems.append(msg)
    print("PROBLEM:", msg, flush=True)


class Ambiguous(Exception):
    """The action leaves out a field whose default the shape does not say."""


def same(x, y):
    return type(x) is type(y) and x == y


def within(x, values):
    return any(same(x, v) for v in values)


def matches(a, s):
    if a.get("type") != s.get("type"):
        return False
    for k in a:
        if k != "type" and k not in s and k not in META:
            if k == "fireball" and a[k] is False:
                continue  # docs: 'fireball': false may always be said
            return False
    for k, v in s.items():
        if k == "type" or k in META:
            continue
        if k not in a:
            if k in OPTIONAL:
                raise Ambiguous(k)
            return False  # shapes list every field they need
        if k in SUBSET:
            if not isinstance(a[k], list) or len(set(a[k])) != len(a[k]) or not set(a[k]) <= set(v):
                return False
            if len(a[k]) < s.get("min_targets", 0) or len(a[k]) > s.get("max_targets", 99):
                return False
        elif isinstance(v, list):
            if not within(a[k], v):
                return False
        elif not same(a[k], v):
            return False
    return True


def expand(s, rng):
    a = {}
    for k, v in s.items():
        if k in META:
            continue
        if k in SUBSET:
            lo, hi = s.get("min_targets", 0), min(s.get("max_targets", len(v)), len(v))
            n = rng.randint(lo, hi) if hi >= lo else lo
            a[k] = rng.sample(v, n)
        elif isinstance(v, list):
            if not v:
                return None
            a[k] = rng.choice(v)
        else:
            a[k] = v
    return a


BAD_WORDS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\{'|\['|set\(|Traceback|object at 0x")


def check_error(action, status, body, ctx):
    err = body.get("error", "") if isinstance(body, dict) else str(body)
    if status >= 500:
        note(f"{ctx}: {status} for {action}: {err}")
    if BAD_WORDS.search(err):
        note(f"{ctx}: refusal shows Python values: {action} -> {err}")


def run(
    game, start, gen_random, n_games, seed, max_steps=600, p_legal=0.7, on_view=None, on_accept=None
):
    rng = random.Random(seed)
    offered = refused_offered = outside = outside_accepted = 0
    t0 = time.monotonic()
    with Table() as t:
        for gi in range(n_games):
            rec = start(rng)
            status, st, _ = t.start(rec)
            if status != 200:
                note(f"start refused {rec}: {st}")
                continue
            log = [rec]
            for step in range(max_steps):
                m = st["match"]
                if on_view:
                    on_view(m, log)
                legal = m["legal"]
                if m["status"] != "active" or not legal:
                    break
                if rng.random() < p_legal:
                    s = rng.choice(legal)
                    a = expand(s, rng)
                    if a is None:
                        continue
                    offered += 1
                    status, body, _ = t.act(a)
                    if status != 200:
                        refused_offered += 1
                        note(
                            f"{game} g{gi} s{step}: legal offered {json.dumps(a)} (shape {json.dumps(s)}) but refused: {body}; log {json.dumps(log[-6:])}"
                        )
                        continue
                    if on_accept:
                        on_accept(st["match"], body["match"], a, log)
                    st = body
                    log.append(st["match"]["view"].get("last") or a)
                else:
                    a = gen_random(rng, m)
                    if a is None:
                        continue
                    try:
                        inside = any(matches(a, s) for s in legal)
                    except Ambiguous:
                        continue
                    status, body, _ = t.act(a)
                    if inside:
                        offered += 1
                        if status != 200:
                            refused_offered += 1
                            note(
                                f"{game} g{gi} s{step}: legal offered {json.dumps(a)} but refused: {body}; log {json.dumps(log[-6:])}"
                            )
                            continue
                        if on_accept:
                            on_accept(st["match"], body["match"], a, log)
                        st = body
                        log.append(a)
                        continue
                    outside += 1
                    if status == 200:
                        outside_accepted += 1
                        note(
                            f"{game} g{gi} s{step}: accepted outside legal {json.dumps(a)}; legal {json.dumps(legal)}; log {json.dumps(log[-6:])}"
                        )
                        st = body
                        log.append(a)
                    else:
                        check_error(a, status, body, f"{game} g{gi} s{step}")
            if gi % 5 == 0:
                d = export_agrees(t)
                if d:
                    note(f"{game} g{gi}: {d}")
    print(
        f"{game}: {n_games} games, {offered} offered actions sent ({refused_offered} refused), "
        f"{outside} outside legal ({outside_accepted} accepted), {len(problems)} problems, {time.monotonic() - t0:.0f}s",
        flush=True,
    )
    return problems
