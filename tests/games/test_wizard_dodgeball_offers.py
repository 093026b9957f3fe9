"""Wizard Dodgeball's ``legal`` offers only what it accepts: the audit's findings
on issue 24 (F2-F5), each as it was reported, through the engine's public interface."""

from __future__ import annotations

from companion.errors import InvalidAction
from tests.games.test_legal_offers import refusals
from tests.games.test_wizard_dodgeball import act, end, refused, start, wizard


def shapes(m, kind: str) -> list[dict]:
    return [s for s in m.game.legal(m.state) if s["type"] == kind]


def all_taken(m) -> None:
    """Every combination every offered shape describes is accepted."""
    assert list(refusals(m)) == []


def test_holding_a_ball_is_offered_per_target_butter_fingers_only_false():
    """F2 (a): a wizard with Butter Fingers holds no ball."""
    m = start()
    act(m, type="cast", caster=21, spell="butter_fingers", targets=[45])
    end(m, 2)
    throws = shapes(m, "throw")
    assert [(s["target"], s["target_holding_ball"]) for s in throws] == [
        ([30, 10, 41, 25], [False, True]), ([45], [False])]
    assert refused(m, type="throw", thrower=58, target=45, range=2,
                   target_holding_ball=True) == \
        "#45 has Butter Fingers and cannot be holding a ball: say 'target_holding_ball': " \
        "false (a wizard with Butter Fingers holds no ball)"
    all_taken(m)


def test_dispel_is_offered_per_wearer_with_that_wearers_spells():
    """F2 (b): #58 wears Freeze, #45 Slow; Slow on #58 is not offered."""
    m = start()
    act(m, type="cast", caster=21, spell="slow", targets=[45])
    end(m)
    act(m, type="cast", caster=45, spell="freeze", targets=[58])
    end(m, 2)
    assert m.view()["active"]["jersey"] == 30
    assert [(s["target"], s["spell"]) for s in shapes(m, "dispel")] == [
        ([58], ["freeze"]), ([45], ["slow"])]
    rolled = [s for s in shapes(m, "cast_roll") if s["spell"] == ["dispel"]]
    assert [(s["targets"], s["effect"], s["min_targets"], s["max_targets"])
            for s in rolled] == [([58], ["freeze"], 1, 1), ([45], ["slow"], 1, 1)]
    assert "#58 has no Slow to cancel" in refused(m, type="dispel", caster=30, target=58,
                                                  spell="slow")
    all_taken(m)
    act(m, type="dispel", caster=30, target=58, spell="freeze")


def test_a_rolled_cast_is_offered_with_at_least_one_target():
    """F2 (c): ``cast_roll`` shapes say ``min_targets`` 1."""
    m = start(wizards={"21": {"magic": 2}})
    rolls = shapes(m, "cast_roll")
    assert rolls and all(s["min_targets"] == 1 for s in rolls)
    msg = refused(m, InvalidAction, type="cast_roll", caster=21, spell="freeze", targets=[])
    assert msg.startswith("a rolled cast needs at least one target wizard")
    all_taken(m)


def test_fireball_is_offered_on_one_held_ball():
    """F2 (d): Fireball's own shapes name exactly one wizard, none with Butter Fingers."""
    m = start()
    act(m, type="cast", caster=21, spell="butter_fingers", targets=[12])
    end(m)
    fire = [s for s in m.game.legal(m.state) if s.get("spell") == ["fireball"]]
    assert [(s["type"], s["min_targets"], s["max_targets"]) for s in fire] == [
        ("cast", 1, 1), ("cast_roll", 1, 1)]
    assert all(12 not in s["targets"] for s in fire)
    assert all("fireball" not in s["spell"] for s in m.game.legal(m.state)
               if s.get("spell") != ["fireball"] and s["type"] in ("cast", "cast_roll"))
    assert refused(m, type="cast_roll", caster=45, spell="fireball", targets=[45, 30]) == \
        "Fireball goes on one held ball: give the one wizard holding it"
    act(m, type="cast", caster=45, spell="fireball", targets=[45], min_targets=1,
        max_targets=1)


def test_the_fireball_holder_may_throw_another_ball_which_can_be_caught():
    """F3: a catch shape beside a Fireball, with ``fireball`` false only."""
    m = start()
    act(m, type="cast", caster=21, spell="fireball", targets=[21])
    [catch] = shapes(m, "catch")
    assert catch["fireball"] == [False]
    assert "cannot be caught" in refused(m, type="catch", catcher=45, thrower=21,
                                         fireball=True)
    all_taken(m)
    v = act(m, type="catch", catcher=45, thrower=21, fireball=False)
    assert wizard(v, 21)["on_court"] is False


def test_teleport_moves_one_wizard_and_or_a_ball():
    """F4: "target ball and/or wizard", singular."""
    m = start()
    assert "name at most one wizard; 3 named" in refused(
        m, type="cast", caster=21, spell="teleport", targets=[45, 30, 10])
    assert "3 named" in refused(m, type="cast_roll", caster=21, spell="teleport",
                                targets=[45, 30, 10])
    [tele] = [s for s in shapes(m, "cast") if s["spell"] == ["teleport"]]
    assert tele["max_targets"] == 1 and "min_targets" not in tele
    act(m, type="cast", caster=21, spell="teleport", targets=[45], max_targets=1)
    m = start(wizards={"21": {"magic": 0}})
    [tele] = [s for s in shapes(m, "cast") if s["spell"] == ["teleport"]]
    assert tele["targets"] == [] and tele["max_targets"] == 0
    act(m, type="cast", caster=21, spell="teleport", targets=[])  # a ball alone


def test_magic_0_puts_a_fireball_on_its_own_ball_and_an_empty_fireball_is_refused():
    """F5: a Magic of 0 reaches only a ball, its own; a Fireball goes on a ball."""
    m = start(wizards={"21": {"magic": 0}})
    fire = [s for s in m.game.legal(m.state) if s.get("spell") == ["fireball"]]
    assert fire == [{"type": "cast", "caster": [21], "spell": ["fireball"], "targets": [21],
                     "min_targets": 1, "max_targets": 1}]
    assert "reaches only its own ball" in refused(m, type="cast", caster=21,
                                                  spell="fireball", targets=[58])
    # A rolled cast its Magic cannot reach says what to record instead (third round).
    assert refused(m, type="cast_roll", caster=21, spell="fireball", targets=[21]).endswith(
        "its Fireball goes on its own ball with no roll: record it as a 'cast' with "
        "targets [21]")
    assert refused(m, type="cast", caster=21, spell="fireball", targets=[]).startswith(
        "Fireball goes on a held ball: name the wizard holding it")
    all_taken(m)
    v = act(m, type="cast", caster=21, spell="fireball", targets=[21])
    assert wizard(v, 21)["effects"] == ["fireball"]


def test_a_failed_dispel_is_offered_as_a_cast_naming_nobody():
    m = start()
    [failed] = [s for s in shapes(m, "cast") if s["spell"] == ["dispel"]]
    assert failed == {"type": "cast", "caster": [21], "spell": ["dispel"], "targets": [],
                      "max_targets": 0}
    act(m, **{k: v[0] if k in ("caster", "spell") else v for k, v in failed.items()})


def test_bounds_sent_back_must_be_the_offered_ones():
    m = start(wizards={"21": {"magic": 2}})
    msg = refused(m, type="cast", caster=21, spell="fireball", targets=[21], max_targets=2)
    assert msg == ("'max_targets' says 2, but a cast of Fireball by #21 names exactly "
                   "1 wizard (#21's Magic is 2)")
    assert "0 to 2 wizards" in refused(m, type="cast", caster=21, spell="slow", targets=[45],
                                       min_targets=1)
    act(m, type="cast_roll", caster=21, spell="slow", targets=[45], min_targets=1,
        max_targets=2)
