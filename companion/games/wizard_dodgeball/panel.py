"""Wizard Dodgeball on the panel: the board's keys, the action menus, the roster editor.

Every menu is built from the snapshot's ``legal`` shapes, so the panel only
offers what the rules allow now: a frozen wizard's menu has no Throw, a
recharging card is not in the Cast list. The action being put together
lives in ``Ui.pending``; the targets ticked so far in ``Ui.picked``.

The action screens are drafts (see :class:`~companion.ui.base.ScreenSpec`):
the panel closes them when the table changes from elsewhere, so each is only
ever built on the snapshot its menu was opened on, where the active wizard
and the shapes it was offered are still there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games.wizard_dodgeball import CARD_OF, JERSEY_MAX, SHORT, SPELLS, TITLES
from companion.i18n import C_, Text, _
from companion.inputs import Input, seat
from companion.names import short_names
from companion.ui.base import (
    Binding,
    Builder,
    Context,
    Draft,
    Outcome,
    Screen,
    ScreenSpec,
    Ui,
    by_match,
    choice_row,
    listing,
)

#: Characters a side's or wizard's name keeps in a list line (``"#45 Newts FRZ"``).
NAME_CHARS = 8

END = {"type": "end_activation"}
MENU = Outcome(Ui(screen="wd-act"))


def board(ui: Ui, match: Mapping[str, Any]) -> dict[Input, Binding]:
    """NEXT ends the activation, OK opens the actions, PREV shows the cards.

    The active side's seat button also ends the activation, so a player can
    hand over without reaching for the panel.
    """
    side = match["view"]["active"]["side"]
    end = Outcome(Ui(), ("act", END))
    return {
        Input("prev"): Binding(_("Cards"), Outcome(Ui(screen="wd-cards"))),
        Input("next"): Binding(_("End"), end),
        Input("ok"): Binding(_("Act"), MENU),
        seat(side): Binding("", end),
    }


# --- helpers ---------------------------------------------------------------------------


def _pending(ui: Ui) -> dict[str, Any]:
    return dict(ui.pending)


def _step(screen: str, ui: Ui, **fields: Any) -> Outcome:
    """Go to ``screen`` with ``fields`` added to the action being built."""
    return Outcome(Ui(screen=screen, pending=(*ui.pending, *fields.items()), picked=ui.picked))


def _act(action: Mapping[str, Any]) -> Outcome:
    return Outcome(Ui(), ("act", dict(action)))


def _shape(match: Mapping[str, Any] | None, kind: str, spell: str | None = None
           ) -> dict[str, Any] | None:
    """The legal shape of ``kind`` (for a rolled Dispel: ``spell="dispel"``)."""
    for shape in (match or {}).get("legal", []):
        if shape["type"] == kind and (spell is None) == ("effect" not in shape):
            return shape
    return None


def _fits(shape: Mapping[str, Any], fixed: Mapping[str, Any]) -> bool:
    """Whether the action's ``fixed`` values are among those ``shape`` offers (for
    ``targets``: a subset of its wizards, as many as ``min_targets``..``max_targets``)."""
    for key, value in fixed.items():
        offered = shape.get(key)
        if key == "targets" and isinstance(offered, list):
            most = shape.get("max_targets", len(offered))
            if not (set(value) <= set(offered)
                    and shape.get("min_targets", 0) <= len(value) <= most):
                return False
        elif value not in offered if isinstance(offered, list) else offered != value:
            return False
    return True


def _shapes(match: Mapping[str, Any] | None, kind: str, **fixed: Any) -> list[dict[str, Any]]:
    """The legal shapes of ``kind`` that offer every value in ``fixed``.

    ``legal`` splits a kind's shape where one field's values depend on another
    (holding a ball per target, a Dispel's spells per wearer, a cast's reach
    per spell), so a menu gathers its choices over all of them.
    """
    return [s for s in (match or {}).get("legal", []) if s["type"] == kind and _fits(s, fixed)]


def _offered(match: Mapping[str, Any] | None, kind: str, key: str, **fixed: Any) -> list[Any]:
    """The values of ``key`` over the shapes of ``kind`` offering ``fixed``, in order, once."""
    values: list[Any] = []
    for shape in _shapes(match, kind, **fixed):
        values += [v for v in shape.get(key, []) if v not in values]
    return values


def _cast_spells(match: Mapping[str, Any] | None) -> list[str]:
    """The spells the Cast menu offers (Dispel has its own entry)."""
    spells = _offered(match, "cast", "spell")
    return [s for s in SPELLS if s in spells and s != "dispel"]


def _wizards(view: Mapping[str, Any]) -> dict[int, tuple[int, Mapping[str, Any]]]:
    return {w["jersey"]: (side, w) for side, s in enumerate(view["sides"]) for w in s["wizards"]}


def wizard_label(view: Mapping[str, Any], jersey: int) -> str:
    """``"#45 Newts FRZ"``: jersey, side (or name) and effect tags.

    Names are shortened among all the names on the court, so two that begin
    alike still read differently.
    """
    side, w = _wizards(view)[jersey]
    names = [s["name"] for s in view["sides"]] + [
        v["name"] for s in view["sides"] for v in s["wizards"] if v["name"]]
    short = dict(zip(names, short_names(names, NAME_CHARS), strict=True))
    who = short[w["name"] or view["sides"][side]["name"]]
    tags = " ".join(SHORT[e] for e in w["effects"])
    return f"#{jersey} {who}{' ' + tags if tags else ''}"


def _active(match: Mapping[str, Any]) -> int:
    return match["view"]["active"]["jersey"]


# --- the action menu -----------------------------------------------------------------------


def _act_menu(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    assert match is not None  # opened from the board of a match in play
    entries: list[tuple[str, Outcome]] = []
    fresh = replace(ui, pending=(), picked=())
    # The two plays the device rolls come first, a throw then a cast (one
    # NEXT away); Hit and Catch record a throw rolled at the table.
    if _shape(match, "throw"):
        entries.append((_("Throw (roll)"), _step("wd-target", fresh, type="throw")))
    if _cast_spells(match):
        entries.append((C_("menu", "Cast"), _step("wd-spell", fresh, type="cast")))
    if _shape(match, "throw"):
        entries.append((C_("menu", "Hit"), _step("wd-target", fresh, type="hit")))
    if _shape(match, "catch"):
        entries.append((C_("menu", "Catch"), _step("wd-catcher", fresh, type="catch")))
    if _shape(match, "dispel"):
        # The spell's name as printed on the card: "i18n: not said" in another language.
        entries.append(("Dispel", _step("wd-wearer", fresh, type="dispel")))  # i18n: not said
    if _shape(match, "pass"):
        entries.append((C_("menu", "Pass"), _step("wd-receiver", fresh, type="pass")))
    entries.append((_("End activation"), Outcome(Ui(), ("act", END))))
    return listing(ui, _("#{j} acts", j=_active(match)), entries, back=Outcome(Ui()))


def _target(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    kind = _pending(ui)["type"]
    shape = _shape(match, kind)
    assert match is not None and shape is not None
    view, thrower = match["view"], _active(match)
    entries = []
    for t in _offered(match, kind, "target"):
        if kind == "hit":
            outcome = _ball_or_act(shape, {"type": "hit", "thrower": thrower, "target": t})
        else:
            outcome = _step("wd-range", ui, target=t)
        entries.append((wizard_label(view, t), outcome))
    title = _("#{j} throws at", j=thrower) if kind == "throw" else \
        _("#{j} hit who?", j=thrower)
    return listing(ui, title, entries, back=MENU)


def _ball_or_act(shape: Mapping[str, Any], action: Mapping[str, Any]) -> Outcome:
    """Record ``action``, or first ask which ball was thrown when a Fireball is loose
    (the shape offers ``fireball``, false first): the companion cannot see who picked
    it up. The wizard holding the Fireball throws it (the host page can say otherwise)."""
    if shape.get("fireball", [True])[0]:
        return _act(action)
    return Outcome(Ui(screen="wd-fireball", pending=(("action", dict(action)),)))


def _fireball(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """The Fireball ball or another one: the likelier first, as ``legal`` orders them."""
    action = _pending(ui)["action"]
    shape = _shape(match, action["type"])
    assert match is not None and shape is not None
    entries: list[tuple[str, Outcome]] = [
        (ball_label(match["view"], f), _act({**action, "fireball": f}))
               for f in ball_choices(shape["fireball"], match["view"]["loose_fireballs"])]
    return listing(ui, _("#{j} threw which?", j=action["thrower"]), entries, back=MENU)


def ball_choices(values: Sequence[bool | int], loose: Sequence[int]) -> list[bool | int]:
    """The balls a picker shows of a shape's ``fireball`` values: ``legal`` offers
    every value taken, and a side number that names again the ball ``true`` names is
    left out (the holder's own Fireball, led by ``true``; the one loose Fireball,
    where ``true`` follows ``false``). A loose one beside the holder's stays, and with
    both loose (no ``true``) each side names its own. The host page does the same."""
    if not any(v is True for v in values):
        return list(values)
    if values[0] is True:
        return [v for v in values if isinstance(v, bool) or v in loose]
    return [v for v in values if isinstance(v, bool)]


def ball_label(view: Mapping[str, Any], fireball: bool | int) -> Text:
    """How the ball menu names a ``fireball`` value: ``true`` the Fireball, ``false``
    another ball, a side number that side's Fireball (when both are loose)."""
    if fireball is True:
        return _("The Fireball")
    if fireball is False:
        return _("Another ball")
    names = short_names([s["name"] for s in view["sides"]], NAME_CHARS)
    return _("{side} Fireball", side=names[fireball])


def _range(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    zones = ui.cursor % 3 + 1
    hint = {1: _("both dice + white"), 2: _("both throw dice"),
            3: _("the right die only")}[zones]
    pick = _step("wd-ball", replace(ui, cursor=0), range=zones)
    return choice_row(ui, 3, Binding(_("OK"), pick), Binding(_("Back"), MENU),
                      title=_("Zones away?"), items=("1", "2", "3"), hint=hint)


def _ball(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    p = _pending(ui)
    shape = _shape(match, "throw")
    assert match is not None and shape is not None
    action = {"type": "throw", "thrower": _active(match), "target": p["target"],
              "range": p["range"]}
    # Holding a ball is offered only when the target can hold one (no Butter Fingers).
    label = {False: _("No ball"), True: _("Holds a ball")}
    holds = _offered(match, "throw", "target_holding_ball", target=p["target"])
    entries: list[tuple[str, Outcome]] = [
        (label[h], _ball_or_act(shape, {**action, "target_holding_ball": h}))
               for h in holds]
    ok = _("Roll") if "fireball" not in shape else _("OK")
    return listing(ui, _("Does #{j} hold one?", j=p["target"]), entries, back=MENU,
                   ok_label=ok)


def _catcher(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    shape = _shape(match, "catch")
    assert match is not None and shape is not None
    view, thrower = match["view"], _active(match)
    entries = []
    for c in shape["catcher"]:
        action = _catch(match, c)
        if shape["returning"] == [None]:
            entries.append((wizard_label(view, c), _act({**action, "returning": None})))
        else:
            entries.append((wizard_label(view, c), _step("wd-returning", ui, catcher=c)))
    return listing(ui, _("Who caught #{j}'s?", j=thrower), entries, back=MENU)


def _returning(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    shape = _shape(match, "catch")
    assert match is not None and shape is not None
    action = _catch(match, _pending(ui)["catcher"])
    entries = [(f"#{j}" if j is not None else _("Nobody"), _act({**action, "returning": j}))
               for j in shape["returning"]]
    return listing(ui, _("Who comes back?"), entries, back=MENU)


def _catch(match: Mapping[str, Any], catcher: int) -> dict[str, Any]:
    """A catch of the active wizard's ball; beside a Fireball the shape offers
    ``fireball`` false only (the holder threw another ball: a Fireball is not caught)."""
    shape = _shape(match, "catch")
    assert shape is not None
    fire = {"fireball": shape["fireball"][0]} if "fireball" in shape else {}
    return {"type": "catch", "thrower": _active(match), "catcher": catcher, **fire}


def _receiver(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """The teammate who takes the active wizard's pass."""
    shape = _shape(match, "pass")
    assert match is not None and shape is not None
    view, thrower = match["view"], _active(match)
    entries = [(wizard_label(view, t),
                _ball_or_act(shape, {"type": "pass", "thrower": thrower, "to": t}))
               for t in shape["to"]]
    return listing(ui, _("#{j} passes to", j=thrower), entries, back=MENU)


def _spell(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    assert match is not None
    caster = _active(match)
    entries = [(TITLES[s], _step("wd-targets", replace(ui, cursor=0, picked=()), spell=s))
               for s in spell_order(match["view"], caster, _cast_spells(match))]
    return listing(ui, _("#{j} casts", j=caster), entries, back=MENU)


def spell_order(view: Mapping[str, Any], caster: int, spells: list[str]) -> list[str]:
    """``spells`` with the likeliest first: the ones ``caster`` cast before, newest
    first, then the ones the side's other wizards cast, newest first, then the rest
    in card order. A card just cast is recharging, so these are old favourites.
    """
    side, _ = _wizards(view)[caster]
    recent = view["sides"][side]["recent_casts"]
    mine = [c["spell"] for c in recent if c["caster"] == caster]
    favourites = [*mine, *(c["spell"] for c in recent if c["caster"] != caster)]
    return sorted(spells, key=lambda s: favourites.index(s) if s in favourites
                  else len(favourites))


#: Spells a side casts on its own wizards (the caster first); the others are
#: cast on opponents. Fireball goes on a held ball, Teleport mostly moves the
#: caster; Shrink adds a dodge die and Enlarge takes one away, so Enlarge
#: (for all its move) is the one cast on an opponent.
FRIENDLY = frozenset({"fireball", "teleport", "shield", "sticky_fingers", "magic_boost",
                      "shrink", "speed", "strong"})


def target_order(view: Mapping[str, Any], caster: int, spell: str,
                 targets: list[int]) -> list[int]:
    """``targets`` with the likeliest first: opponents for an attack, the caster and
    teammates for a spell that helps; otherwise in initiative order.
    """
    wizards = _wizards(view)
    own = wizards[caster][0]
    friendly = spell in FRIENDLY
    return sorted(targets, key=lambda j: ((wizards[j][0] == own) != friendly, j != caster))


def _targets(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """The spell's target: OK on a wizard casts on that one alone; "Several
    wizards" turns the list into ticks, with Done at the end (none is allowed).
    """
    p = _pending(ui)
    spell = p["spell"]
    assert match is not None
    shape = _shapes(match, "cast", spell=spell)[0]
    view = match["view"]
    order = target_order(view, _active(match), spell, shape["targets"])
    # The caster's Magic (when known) caps how many wizards it names, itself included;
    # Fireball and Teleport name one.
    most = shape.get("max_targets")
    single = most == 1
    if not p.get("several"):
        entries = [(wizard_label(view, t), _step("wd-how", replace(ui, cursor=0, picked=(t,))))
                   for t in order]
        # Teleport moves a ball and/or one wizard: the ball alone stays reachable.
        if not order or (single and spell == "teleport"):
            entries.append((_("No wizard (a ball)"),
                            _step("wd-how", replace(ui, cursor=0, picked=()))))
        elif not single:
            several = replace(ui, cursor=0, picked=(), pending=(*ui.pending, ("several", True)))
            entries.append((_("Several wizards"), Outcome(several)))
        return listing(ui, _("{spell} on?", spell=TITLES[spell]), entries, back=MENU,
                       ok_label=_("Pick"))
    full = most is not None and len(ui.picked) >= most
    entries = []
    for t in order:
        on = t in ui.picked
        picked = tuple(x for x in ui.picked if x != t) if on else (*ui.picked, t)
        mark = "[x]" if on else "[-]" if full else "[ ]"
        # Once the reach is full only unticking is offered: OK on another does nothing.
        entries.append((f"{mark} {wizard_label(view, t)}",
                        Outcome(replace(ui, picked=picked) if on or not full else ui)))
    entries.append((_("Done ({count})", count=len(ui.picked)),
                    _step("wd-how", replace(ui, cursor=0))))
    cursor = min(ui.cursor, len(entries) - 1)
    label = _("Next") if cursor == len(order) else _("Untick") if order[cursor] in ui.picked \
        else _("Full") if full else _("Tick")
    # Ticking keeps the cursor where it is (listing's outcomes carry ``ui``).
    return listing(ui, _("{spell} on?", spell=TITLES[spell]), entries, back=MENU,
                   ok_label=label)


def _how(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    p = _pending(ui)
    assert match is not None
    cast = {"type": "cast", "caster": _active(match), "spell": p["spell"]}
    targets = list(ui.picked)
    # Only what legal offers: no roll with nobody named (or at a Magic of 0), no
    # Fireball on no ball.
    rolls = _shapes(match, "cast_roll", spell=p["spell"], targets=targets)
    took = _shapes(match, "cast", spell=p["spell"], targets=targets)
    nobody = _shapes(match, "cast", spell=p["spell"], targets=[])
    entries: list[tuple[str, Outcome]] = []
    if targets:
        if rolls:
            entries.append((_("Device rolls"), _act({**cast, "type": "cast_roll",
                                                      "targets": targets})))
        if took:
            entries.append((_("It took effect"), _act({**cast, "targets": targets})))
        if nobody:
            entries.append((_("All resisted"), _act({**cast, "targets": []})))
    elif nobody:
        entries.append((_("Cast (no wizard)"), _act({**cast, "targets": []})))
    on = " ".join(f"#{t}" for t in targets)
    title = _("{spell} on {on}", spell=TITLES[p["spell"]], on=on) if on else \
        TITLES[p["spell"]]
    return listing(ui, title, entries, back=MENU)


def _wearer(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    assert match is not None
    view = match["view"]
    entries = [(wizard_label(view, j), _step("wd-effect", ui, target=j))
               for j in _offered(match, "dispel", "target")]
    return listing(ui, _("Dispel on whom?"), entries, back=MENU)


def _effect(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    target = _pending(ui)["target"]
    assert match is not None
    entries = [(TITLES[e], _step("wd-dispel-how", ui, spell=e))
               for e in _offered(match, "dispel", "spell", target=target)]
    return listing(ui, _("Which effect on #{j}?", j=target), entries, back=MENU)


def _dispel_how(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    p = _pending(ui)
    assert match is not None
    caster = _active(match)
    rolled = {"type": "cast_roll", "caster": caster, "spell": "dispel",
              "targets": [p["target"]], "effect": p["spell"]}
    failed = {"type": "cast", "caster": caster, "spell": "dispel", "targets": []}
    entries: list[tuple[str, Outcome]] = [
        (_("It worked"), _act({"type": "dispel", "caster": caster, "target": p["target"],
                               "spell": p["spell"]})),
    ]
    if _shapes(match, "cast_roll", **{k: v for k, v in rolled.items() if k != "type"}):
        entries.insert(0, (_("Device rolls"), _act(rolled)))
    if _shapes(match, "cast", spell="dispel", targets=[]):
        entries.append((_("It failed"), _act(failed)))
    return listing(ui, _("Dispel {code} on #{j}", code=SHORT[p["spell"]], j=p["target"]),
                   entries, back=MENU)


def _cards(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Both sides' cards: the recharging ones first, with activations left."""
    assert match is not None  # opened from the board; closed if the match goes
    view = match["view"]
    lines: list[str] = [_("S{side} {code} #{j} {n} left", side=r["side"] + 1,
                          code=SHORT[r["spell"]], j=r["caster"], n=r["left"])
                        for r in view["recharging"]]
    for side, s in enumerate(view["sides"]):
        # One tag per card (its first face), four to a line.
        ready = [SHORT[k] for k, v in s["spells"].items() if v == "ready" and CARD_OF[k].id == k]
        lines.append(_("S{side} ready:", side=side + 1) if ready else
                     _("S{side} ready: none", side=side + 1))
        lines += [" " + " ".join(ready[i:i + 4]) for i in range(0, len(ready), 4)]
    entries = [(line, Outcome(ui)) for line in lines]
    screen = listing(ui, _("Cards"), entries, back=Outcome(Ui()))
    return replace(screen, keys={k: b for k, b in screen.keys.items() if k != Input("ok")})


# --- the roster on the setup screen ---------------------------------------------------------


def fit_draft(draft: Draft) -> Draft:
    """The draft's target in step with its variant: none in the elimination variant
    (which has no points to reach; a target there is refused), 5 back in points."""
    options = dict(draft.options)
    if options.get("variant") == "elimination":
        options["target"] = None
    elif options.get("target") is None:
        options["target"] = 5
    return replace(draft, options=tuple(options.items()))


def setup_rows(ui: Ui, draft: Draft, first_row: int) -> list[tuple[str, Outcome]]:
    """One row per wizard: OK opens the jersey editor on it."""
    rosters = draft.option("rosters")
    rows: list[tuple[str, Outcome]] = []
    for side, roster in enumerate(rosters):
        for slot, jersey in enumerate(roster):
            edit = Ui(screen="wd-jersey", draft=draft, cursor=0,
                      pending=(("side", side), ("slot", slot),
                               ("row", first_row + len(rows)), ("value", jersey)))
            rows.append((_("S{side} wizard {slot}: #{j}", side=side + 1, slot=slot + 1,
                           j=jersey), Outcome(edit)))
    return rows


def _jersey(ui: Ui, match: Mapping[str, Any] | None, ctx: Context) -> Screen:
    """Two digits, tens then units: PREV/NEXT change the boxed one, OK moves on."""
    p = _pending(ui)
    assert ui.draft is not None
    value, digit = p["value"], ui.cursor % 2
    step = 10 if digit == 0 else 1

    def change(delta: int) -> Outcome:
        tens, units = divmod(value, 10)
        if digit == 0:
            tens = (tens + delta) % 10
        else:
            units = (units + delta) % 10
        new = min(JERSEY_MAX, tens * 10 + units)
        return Outcome(replace(ui, pending=(*ui.pending[:3], ("value", new))))

    back = Outcome(Ui(screen="setup", draft=ui.draft, cursor=p["row"]))
    if digit == 0:
        ok = Binding(_("Next"), Outcome(replace(ui, cursor=1)))
    else:
        rosters = [list(r) for r in ui.draft.option("rosters")]
        rosters[p["side"]][p["slot"]] = value
        options = {**dict(ui.draft.options), "rosters": tuple(tuple(r) for r in rosters)}
        draft = replace(ui.draft, options=tuple(options.items()))
        ok = Binding(_("Set"), Outcome(Ui(screen="setup", draft=draft, cursor=p["row"])))
    taken = [(s + 1, i + 1) for s, r in enumerate(ui.draft.option("rosters"))
             for i, j in enumerate(r) if j == value and (s, i) != (p["side"], p["slot"])]
    hint = _("taken: S{side} wizard {slot}", side=taken[0][0], slot=taken[0][1]) if taken \
        else _("PREV/NEXT: -/+{step}", step=step)
    return Screen(
        keys={Input("prev"): Binding("-", change(-1)), Input("next"): Binding("+", change(1)),
              Input("ok"): ok, Input("back"): Binding(_("Back"), back)},
        title=_("S{side} wizard {slot} jersey", side=p["side"] + 1, slot=p["slot"] + 1),
        items=tuple(f"{value:02d}"), hint=hint, row=True)


#: The game's screens: action drafts, the cards (shown for as long as the same
#: match is on the table, refreshed on every change) and the setup screen's
#: jersey editor (a part of the setup: it closes when another match starts).
SCREENS: dict[str, Builder | ScreenSpec] = {
    "wd-act": _act_menu,
    "wd-target": _target,
    "wd-range": _range,
    "wd-fireball": _fireball,
    "wd-ball": _ball,
    "wd-catcher": _catcher,
    "wd-returning": _returning,
    "wd-receiver": _receiver,
    "wd-spell": _spell,
    "wd-targets": _targets,
    "wd-how": _how,
    "wd-wearer": _wearer,
    "wd-effect": _effect,
    "wd-dispel-how": _dispel_how,
    "wd-cards": ScreenSpec(_cards, premise=by_match),
    "wd-jersey": ScreenSpec(_jersey, premise=by_match),
}
