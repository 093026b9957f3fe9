"""The third round's findings (issue 36, RULINGS.md "Third round"), each a match file in
tests/games/round3/ as `companion replay` reads it: refused at the line the rulings
refuse, with a message that says what is wrong and what is allowed now, or played to
the view they decide. Each file was replayed on the engine before the fix and showed
the finding (accepted, or refused without saying what to do instead).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.matchfile import replay
from tests.support import CATALOG

HERE = Path(__file__).parent / "round3"
#: The installed command, as tests/test_cli.py runs it.
COMPANION = str(Path(sys.executable).parent / "companion")


def run(name: str) -> tuple[dict[str, Any] | None, str]:
    """The final view of ``name``'s match, or None and the refusal (``line N: ...``)."""
    try:
        match = replay((HERE / name).read_text(encoding="utf-8").splitlines(),
                       random.Random(1), CATALOG)
    except CompanionError as err:
        return None, str(err)
    return match.view(), ""


def wizard(view: dict, jersey: int) -> dict:
    return next(w for s in view["sides"] for w in s["wizards"] if w["jersey"] == jersey)


#: file -> (the line refused, words its message must hold) for the refused ones.
REFUSED = {
    # Wizard Dodgeball
    "wd-fireball-second-on-one-ball.jsonl": (
        4, ["the ball #21 holds carries the Owls Fireball already", "cast it on another"]),
    "wd-fireball-pass-hands-on-one.jsonl": (4, ["#21 holds carries the Owls Fireball"]),
    "wd-markers-hand-slow-on-five.jsonl": (
        2, ["Owls have 3 Slow/Speed markers: a Slow on 5 wizards needs 5; name at most 3"]),
    "wd-markers-rolled-freeze-on-nine.jsonl": (
        2, ["Owls have 3 Freeze markers", "name at most 3 wizards"]),
    "wd-two-speeds-count-once.jsonl": (9, ["left: no throw or cast"]),
    "wd-loose-fireballs-told-apart.jsonl": (
        10, ["say which one #12 threw with 'fireball' 0 (Owls) or 1 (Newts)"]),
    "wd-target-with-elimination.jsonl": (
        1, ["option 'target' (3) is for the points variant", "leave 'target' out"]),
    "wd-frozen-thrower.jsonl": (5, ["#58 is frozen and cannot throw", "end the activation"]),
    "wd-off-court-thrower.jsonl": (3, ["#21 is off the court and cannot cast",
                                       "end the activation"]),
    "wd-pass-to-itself.jsonl": (2, ["#21 cannot pass to itself",
                                    "who can take one: #58 #12 #33 #7"]),
    "wd-sticky-fingers-thrower.jsonl": (4, ["#45 has Sticky Fingers and cannot throw",
                                            "#45 may still cast"]),
    "wd-rolled-fireball-at-magic-0.jsonl": (
        2, ["#21's Magic is 0", "record it as a 'cast' with targets [21]"]),
    "wd-die-refusal-no-python.jsonl": (2, ["cannot show true;"]),
    # What a refusal allows now (issue 36, "refusals that say only the problem"):
    "wd-returning-on-the-court.jsonl": (
        4, ["#10 cannot come back: it is on the court",
            "Newts may bring back #45, or nobody ('returning': null)"]),
    "wd-returning-with-nobody-off.jsonl": (
        2, ["#58 cannot come back: it plays for Owls", "nobody of Newts is off the court",
            "leave 'returning' out"]),
    "wd-butter-fingers-target-holding.jsonl": (
        3, ["#45 has Butter Fingers and cannot be holding a ball",
            "say 'target_holding_ball': false"]),
    "wd-dispel-no-speed-to-cancel.jsonl": (
        4, ["#45 has no Speed to cancel", "Dispel can cancel its Slow"]),
    "wd-dispel-with-no-effect-anywhere.jsonl": (
        2, ["#45 has no Speed to cancel, nor any effect",
            "a Dispel that cancels nothing is a 'cast' with no targets"]),
    "wd-cast-target-off-the-court.jsonl": (
        3, ["#45 is off the court: spells reach only wizards on it", "leave #45 out",
            "on the court: Owls #21 #58 #12 #33 #7, Newts #30 #10 #41 #25"]),
    "wd-recharging-says-what-is-ready.jsonl": (
        5, ["Speed is recharging (its Slow face was cast)", "ready now: Dispel, Fireball",
            "Butter Fingers/Sticky Fingers"]),
    "wd-not-the-active-wizard.jsonl": (
        2, ["it is #21's activation (Owls): #45 cannot cast now",
            "#21 may still throw or cast, or end the activation"]),
    "wd-card-not-bought.jsonl": (
        2, ["Owls did not buy the Freeze card; their cards: Dispel (ready now: Dispel)"]),
    "wd-hand-cast-at-magic-0.jsonl": (
        2, ["#21's Magic is 0: its spells reach no wizard, only a ball",
            "record the cast with 'targets': []"]),
    "wd-dispelled-speed-not-said-to-give.jsonl": (
        4, ["left: throw", "the extra throw or cast a Speed gave, used before the Speed was "
                           "dispelled"]),
    "wd-throw-at-itself.jsonl": (
        2, ["#21 cannot throw at itself: a throw goes at an opponent on the court: "
            "#45 #30 #10 #41 #25"]),
    "wd-fireball-side-not-about.jsonl": (
        3, ["#21 cannot have thrown the Newts Fireball: the Owls Fireball is on the ball "
            "#21 holds; say 'fireball' true, false or 0"]),
    "wd-dispel-without-its-effect.jsonl": (
        4, ["say which effect Dispel cancels, by its spell id: #45 carries \"slow\""]),
    "wd-back-from-elimination-no-move-kept.jsonl": (
        6, ["(basic turn with Slow: a throw or a cast, not both (no move: back from "
            "elimination))"]),
    # Alakazoo: the Magic Power bound names what the record allows and what to do now.
    "zoo-whole-portal-without-dice.jsonl": (
        3, ["Ann can hold at most 1 Magic Power token now", "nothing from the column",
            "a display spends 2: no display now; end the turn"]),
    "zoo-three-displays-in-a-first-turn.jsonl": (
        5, ["Ann can hold at most 0 Magic Power tokens now", "a roll of 3 dice",
            "4 spent on displays", "no display now; end the turn"]),
    "zoo-display-after-three-no-runes.jsonl": (
        6, ["Ann can hold at most 1 Magic Power token now", "a roll of 3 dice less 3 "
            "'no_rune'", "no display now; end the turn"]),
    "zoo-too-much-magic-power-in-a-first-turn.jsonl": (
        2, ["no 'magic_power' Dark Power now: Ann can hold at most 4 Magic Power tokens",
            "never more than 6"]),
    "zoo-too-much-magic-power-after-a-column.jsonl": (
        9, ["Ann's action this turn is a column, which brings no Magic Power",
            "more than 6 tokens follows a Spell Dice roll"]),
    "zoo-too-many-cards-after-a-roll.jsonl": (
        3, ["no 'hand' Dark Power now", "a Spell Dice roll, which brings no card",
            "more than 4 cards follows a column or the Magic Helper"]),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_saying_what_is_wrong_and_what_is_allowed(name):
    view, error = run(name)
    line, words = REFUSED[name]
    assert view is None, f"{name} was accepted"
    assert error.startswith(f"line {line}: "), error
    for part in words:
        assert part in error, error
    assert "True" not in error and "False" not in error and "None" not in error


def test_a_fireball_thrown_is_spent_with_its_throw():
    view, _ = run("wd-fireball-spent-by-its-throw.jsonl")
    assert view is not None
    # #21's next throw (activation 11) rolls its die: no Fireball left on it.
    assert view["last"]["attack"] == 2 and view["last"]["fireball"] is False
    assert wizard(view, 21)["effects"] == [] and view["loose_fireballs"] == []


def test_a_loose_fireball_named_by_its_side_is_thrown():
    view, _ = run("wd-loose-fireball-named-by-its-side.jsonl")
    assert view is not None and view["loose_fireballs"] == [0]
    assert wizard(view, 10)["on_court"] is False


def test_dispelling_ones_own_speed_leaves_the_throw_it_never_used():
    view, _ = run("wd-speed-dispelled-keeps-the-throw.jsonl")
    assert view is not None and view["used"] == ["cast", "cast", "throw"]
    assert [s["score"] for s in view["sides"]] == [1, 0]


def test_two_shields_count_once_and_an_opponents_shield_spends_none():
    view, _ = run("wd-two-shields-count-once.jsonl")
    assert view is not None
    # #45's Shield on #58, already shielded, changes nothing; #30's hit takes the
    # one Shield, #10's puts #58 out.
    assert wizard(view, 58)["on_court"] is False
    assert [s["score"] for s in view["sides"]] == [0, 1]
    view, _ = run("wd-shield-not-spent-by-opponents-shield.jsonl")
    assert view is not None and wizard(view, 21)["effects"] == ["shield"]
    assert view["last"]["shields"] == []


def test_a_rebound_the_spell_already_took_spends_no_shield():
    view, _ = run("wd-shield-not-spent-by-a-rebound-already-taken.jsonl")
    assert view is not None
    assert sorted(wizard(view, 21)["effects"]) == ["shield", "slow"]
    assert view["last"]["shields"] == []


def test_a_cast_on_a_teammate_shows_no_cast_total():
    view, _ = run("wd-teammate-cast-no-total.jsonl")
    assert view is not None
    assert view["last"]["text"] == "#21 Shield: on #58" and view["last"]["cast"] is None


def test_a_wizard_carrying_the_effect_takes_no_marker():
    """A Speed on four wizards, one of whom carries the Newts' Speed already, needs
    three Owls markers: "an effect counts once", so it is taken (an audit found it
    refused as needing four)."""
    view, error = run("wd-markers-speed-on-one-carrying-it.jsonl")
    assert view is not None, error
    for jersey in (58, 12, 33, 7):
        assert "speed" in wizard(view, jersey)["effects"], wizard(view, jersey)


def test_a_dispelled_speed_is_not_reminded_of():
    """#58 used its Speed's action, then dispelled the Speed: the turn still counts it,
    but the reminder no longer says "Speed: +1 throw or cast" (an audit found it)."""
    view, error = run("wd-speed-dispelled-no-reminder.jsonl")
    assert view is not None, error
    assert view["reminder"] is None


def test_a_dispel_names_the_spell_in_full():
    view, _ = run("wd-dispelled-says-the-spell.jsonl")
    assert view is not None and view["last"]["text"] == "#58 dispelled Slow on #58"


def test_companion_replay_prints_the_refusal_with_its_line():
    """The files are what `companion replay` reads: its exit code and message."""
    result = subprocess.run(
        [COMPANION, "replay", str(HERE / "wd-markers-hand-slow-on-five.jsonl")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("companion: line 2: Owls have 3 Slow/Speed markers")
    result = subprocess.run(
        [COMPANION, "replay", str(HERE / "wd-teammate-cast-no-total.jsonl")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and json.loads(result.stdout)["last"]["cast"] is None


# --- Alakazoo and AlakaSLAM --------------------------------------------------------------

ZOO_REFUSED = {
    "zoo-first-player-roll-with-first-roll.jsonl": (
        1, ["option 'first_roll' records the device's roll", "'first_player' \"roll\" alone",
            "or 'first_player' 2 with it to keep that one"]),
    "zoo-swap-with-an-empty-space.jsonl": (
        5, ["Bob's space 2 is empty", "display first, or use a Helper trick"]),
}


@pytest.mark.parametrize("name", sorted(ZOO_REFUSED))
def test_alakazoo_refusals_say_what_is_allowed(name):
    view, error = run(name)
    line, words = ZOO_REFUSED[name]
    assert view is None and error.startswith(f"line {line}: "), error
    for part in words:
        assert part in error, error


def test_the_alakazoo_timeline_counts_forced_passes_as_turns():
    from companion.games.alakazoo import GAME
    from companion.games.chart import Step
    lines = [json.loads(x) for x in
             ['{"game": "alakazoo", "players": ["Ann", "Bob", "Cleo"]}',
              *['{"type": "end_turn"}'],
              *['{"type": "dark_power", "reason": "hand"}'] * 3,
              '{"type": "end_turn"}', '{"type": "end_turn"}', '{"type": "end_turn"}']]
    match = replay([json.dumps(x) for x in lines], random.Random(1), CATALOG)
    state = match.game.setup(match.start.players, match.start.options)
    steps = [Step(0, None, match.game.view(state))]
    for number, event in enumerate(match.events, 1):
        state = match.game.apply(state, event)
        steps.append(Step(number, event, match.game.view(state)))
    # Ann, Bob (3 Dark Power), Cleo, Ann; Bob's forced pass: turn 5; Cleo's turn 6.
    assert match.view()["passes"] == [{"player": 1, "reset": True}]
    assert "Turns played: 5." in GAME.timeline(steps).summary


SLAM_REFUSED = {
    "slam-serve-of-more-cards-than-the-hand.jsonl": (
        9, ["Ann holds 1 card (the hand after mulligans): 3 cannot be played; play 1 to 1"]),
    "slam-support-of-more-cards-than-the-hand.jsonl": (9, ["Bob holds 1 card"]),
    # Ann (1 card) served it and drew 2: she may play 2, not 3.
    "slam-more-than-drawn-since-the-serve.jsonl": (
        11, ["Ann holds at most 2 cards", "play 1 to 2"]),
    # Bob (2 cards after six mulligans) under Ann's Enchant-3: no shot can obey it, and
    # the refusal says whose point it is instead (it sent him to play 3, then refused 3).
    "slam-enchantment-beyond-the-hand.jsonl": (
        9, ["Bob is under Enchant-3 and holds at most 2 cards: no shot can obey it",
            "give Ann the point (no return)"]),
    "slam-bad-serve-names-whom-to-give.jsonl": (
        2, ["the receivers, Bob & Cid; Ann serves this point: give Ann the point for "
            "another reason (no return, declined, out or net)"]),
    "slam-first-server-against-coin-flip.jsonl": (
        1, ["the device's flip chose side 1, but 'first_server' is 0: they must agree"]),
    "slam-coin-flip-alone.jsonl": (
        1, ["comes with the 'first_server' it chose", "\"coin\" to have the device flip"]),
}


@pytest.mark.parametrize("name", sorted(SLAM_REFUSED))
def test_alakaslam_refusals(name):
    view, error = run(name)
    line, words = SLAM_REFUSED[name]
    assert view is None and error.startswith(f"line {line}: "), error
    for part in words:
        assert part in error, error


@pytest.mark.parametrize("name, face", [
    ("slam-canadian-two-enchantments.jsonl", "play 2 (no E) or 3"),
    ("slam-canadian-two-enchant-twos.jsonl", "play 2"),
])
def test_the_faces_say_the_obligation_the_engine_enforces(name, face):
    """Rich's Enchant-2 and another Enchantment on Ann: either count satisfies, and
    "no Enchantment" holds only with Rich's count; two Enchant-2s read "play 2"."""
    from companion.games.alakaslam.panel import obligation
    view, _ = run(name)
    assert view is not None and obligation(view, 0) == face
    # Nor does the view say "no Enchantment" for the whole obligation (an audit found
    # `no_enchant: true` where an Enchantment with the other count is taken).
    ann = next(o for o in view["obligations"] if o["player"] == 0)
    assert ann["no_enchant"] is False
    # The engine takes what the face says: an Enchantment with 3 cards, or with 2
    # when another's Enchant-2 binds Ann too.
    lines = (HERE / name).read_text().splitlines()
    cards = ["R1", "E1", "R0"] if "enchantments" in name else ["R1", "E1"]
    shot = json.dumps({"type": "shot", "player": 0, "cards": cards, "enchant": 1})
    replay([*lines, shot], random.Random(1), CATALOG)


def test_simon_is_reminded_to_copy_before_each_serve():
    from companion.games.alakaslam.oled import lines
    start = {"game": "alakaslam", "players": ["Ann", "Bob"],
             "options": {"characters": ["simon", "rich"]}}
    match = replay([json.dumps(start)], random.Random(1), CATALOG)
    assert "Ann: Simon, copy whom?" in lines(match.view(), match.start.options)
    copied = replay([json.dumps(start), '{"type": "copy", "player": 0, "character": "rich"}'],
                    random.Random(1), CATALOG)
    assert not any("copy whom" in x for x in lines(copied.view(), copied.start.options))


@pytest.mark.parametrize("name", ["slam-lone-player-plays-what-it-drew.jsonl",
                                  "slam-receiver-plays-what-it-drew.jsonl"])
def test_a_player_plays_the_cards_drawn_since_the_serve(name):
    """The hand shown is the one at the serve; a player alone on a side draws 2 after
    each of its shots ("Draw 2 ... There is no maximum hand size"), so with 1 card at
    the serve it may play 2 on its next shot, with 2 it may play 3 (an audit found both
    refused)."""
    view, error = run(name)
    assert view is not None, error


def test_a_pair_is_named_as_the_history_names_it_and_takes_the_plural():
    """The board wrote "Bob/Cid" where the history writes "Bob & Cid" (issue 36); a pair
    takes plural verbs on every face ("Bob & Cid score", "Ann & Bob win")."""
    from companion.games.alakaslam.oled import lines, status
    from companion.teams import label
    start = {"game": "alakaslam", "players": ["Ann", "Bob", "Cid", "Dee"],
             "options": {"characters": ["toots", "laurie", "rich", "austin"], "target": 1}}
    point = {"type": "point", "winner": 0, "reason": "net"}
    match = replay([json.dumps(start), json.dumps(point)], random.Random(1), CATALOG)
    view = match.view()
    assert [s["name"] for s in view["sides"]] == ["Ann & Bob", "Cid & Dee"]
    assert label(start["players"], ((0, 1), (2, 3))) == "Ann & Bob v Cid & Dee"
    assert "Ann & Bob score: net" in lines(view, match.start.options)
    assert status(view) == "Ann&Bob win" or status(view) == "Ann & Bob win"
    try:
        replay([json.dumps(start), json.dumps(point), json.dumps(point)], random.Random(1),
               CATALOG)
    except CompanionError as err:
        assert "the match is won by Ann & Bob" in str(err)
    else:
        raise AssertionError("a point after the match was taken")


def test_refusals_name_players_and_characters_not_ids_alone():
    """'enchant': 1 or 2, or a list of character ids, said nothing to a player: each id
    comes with the name it stands for (issue 36)."""
    canadian = {"game": "alakaslam", "players": ["Ann", "Bob", "Cid"],
                "options": {"characters": ["austin", "rich", "simon"]}}
    serve = {"type": "serve", "player": 0, "corner": "red", "cards": ["E2", "B3"]}
    with pytest.raises(CompanionError, match=r"'enchant': 1 \(Bob\) or 2 \(Cid\)$"):
        replay([json.dumps(canadian), json.dumps(serve)], random.Random(1), CATALOG)
    copy = {"type": "copy", "player": 2}
    with pytest.raises(CompanionError, match=r"whom Simon copies, \"austin\" \(Austin\) or "
                                             r"\"rich\" \(Rich\)$"):
        replay([json.dumps(canadian), json.dumps(copy)], random.Random(1), CATALOG)
    with pytest.raises(CompanionError, match=r"Toots is not: 'character' \"austin\" "
                                             r"\(Austin\) or \"rich\" \(Rich\)$"):
        replay([json.dumps(canadian), json.dumps(copy | {"character": "toots"})],
               random.Random(1), CATALOG)


def test_legal_offers_no_shot_that_no_hand_can_make():
    """With Bob's 2 cards under Enchant-3, `legal` offered a shot no card list satisfies
    (an audit found it): now only Ann's point, and that point is taken."""
    lines = (HERE / "slam-enchantment-beyond-the-hand.jsonl").read_text().splitlines()[:-1]
    match = replay(lines, random.Random(1), CATALOG)
    shapes = match.game.legal(match.state)
    assert [s["type"] for s in shapes] == ["point"]
    assert shapes[0]["winner"] == [0] and "no_return" in shapes[0]["reason"]
    point = {"type": "point", "winner": 0, "reason": "no_return"}
    assert replay([*lines, json.dumps(point)], random.Random(1), CATALOG).view()["sides"][0][
        "score"] == 1


def test_legal_offers_a_fireball_by_its_side_and_the_pickers_show_each_ball_once():
    """`"fireball": 0` for a loose Owls' Fireball, or for the holder's own, is taken
    (docs/api.md: a side names a loose one at any time) but was not offered (an audit
    found it): `legal` offers the side too, and the panel's picker shows each ball once."""
    from companion.games.wizard_dodgeball.panel import ball_choices
    lines = (HERE / "wd-loose-fireball-named-by-its-side.jsonl").read_text().splitlines()
    start = json.loads(lines[0])
    held = replay([json.dumps(start),
                   '{"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]}'],
                  random.Random(1), CATALOG)
    throw = next(s for s in held.game.legal(held.state) if s["type"] == "hit")
    assert throw["fireball"] == [True, False, 0]
    assert ball_choices(throw["fireball"], []) == [True, False]
    hit = {"type": "hit", "thrower": 21, "target": 45, "fireball": 0}
    assert replay([json.dumps(start),
                   '{"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]}',
                   json.dumps(hit)], random.Random(1), CATALOG).events[-1]["fireball"] is True
    assert ball_choices([False, True, 1], [1]) == [False, True]
    assert ball_choices([False, 0, 1], [0, 1]) == [False, 0, 1]
    # The holder of Owls' Fireball beside the Newts' loose one may have thrown either.
    assert ball_choices([True, False, 0, 1], [1]) == [True, False, 1]
