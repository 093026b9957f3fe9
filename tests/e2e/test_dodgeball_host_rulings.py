"""The Dodgeball host page after issue 24's rulings, in a real browser: it offers only
what the companion accepts (Speed and Slow, the Magic reach, a loose Fireball,
Butter Fingers) and starts a match with the turn and the spell list apart."""

from __future__ import annotations

import re

import pytest

from tests.e2e.browser_support import log_in, play, require_chromium, shot, start

sync_api = require_chromium()

ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]


def begin(phone, companion, **options) -> None:
    start(companion, {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                      "options": {"rosters": ROSTERS, **options}})
    log_in(phone, companion, "host", "#host")
    sync_api.expect(phone.locator("#board")).to_contain_text("#21")


def test_the_form_starts_an_advanced_turn_with_all_ten_cards(companion, phone):
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "wizard-dodgeball")
    phone.select_option("#options select[name=turn]", label="Advanced")
    spells = phone.locator("select[name=spell_list]")
    sync_api.expect(spells).to_have_value("all")
    boxes = phone.locator('fieldset[data-spells="0"]')
    sync_api.expect(boxes).to_be_hidden()
    # Bought spells show the cards to tick, with either turn.
    spells.select_option("bought")
    sync_api.expect(boxes).to_be_visible()
    spells.select_option("all")
    phone.click("#start button[type=submit]")
    sync_api.expect(phone.locator(".status.now")).to_contain_text("2 of 2 actions left")
    view = companion.table.snapshot.match["view"]
    assert view["turn"] == "advanced" and view["spell_list"] == "all"


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 320, "height": 640}])
def test_the_new_match_form_is_about_a_screen_long(companion, phones, size):
    """The rosters folded to a line each that lists them (opened: a wizard a line, its
    stats folded), no spell cards to tick for all ten cards: the whole form, from the
    game to Start, is about a screen and a half at most (1,000 px), and nothing in it is
    wider than the phone."""
    phone = phones.open(size)
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "wizard-dodgeball")
    phone.wait_for_function("() => document.querySelector('.roster-form') !== null")
    form = phone.locator("#new-match").bounding_box()
    shot(phone, f"dodgeball-form-{size['width']}")
    assert form["height"] <= 1000, form  # it was 2,700 px at 390
    sums = phone.locator(".roster-form .roster-sum")
    sync_api.expect(sums).to_have_text(["#1 #2 #3 #4 #5", "#6 #7 #8 #9 #10"])
    sync_api.expect(phone.locator('fieldset[data-spells="0"]')).to_be_hidden()
    # Opened, a roster is a wizard a line (a narrow phone: two).
    phone.locator('details.roster-form[data-side="1"] > summary').click()
    rows = phone.locator('.wiz[data-side="1"]')
    sync_api.expect(rows).to_have_count(5)
    for i in range(5):
        assert rows.nth(i).bounding_box()["height"] <= (60 if size["width"] >= 390 else 110)
    assert phone.evaluate("document.documentElement.scrollWidth") <= size["width"]
    rows.nth(0).locator("[name=jersey]").fill("45")
    sync_api.expect(sums.nth(1)).to_have_text("#45 #7 #8 #9 #10")
    phone.evaluate("document.activeElement.blur()")
    shot(phone, f"dodgeball-form-roster-{size['width']}")
    phone.click("#start button[type=submit]")
    sync_api.expect(phone.locator("#board")).to_contain_text("#45")
    assert companion.table.snapshot.match["options"]["rosters"][1] == [45, 7, 8, 9, 10]


def test_speed_leaves_a_second_throw_and_slow_one_of_throw_or_cast(companion, phone):
    begin(phone, companion)
    play(companion, {"type": "cast", "caster": 21, "spell": "speed", "targets": [21]},
         {"type": "hit", "thrower": 21, "target": 45})
    now = phone.locator(".status.now")
    sync_api.expect(now).to_contain_text("left: throw or cast")
    throw = phone.locator('fieldset[data-action="throw"]')
    throw.locator("select[name=target]").select_option(label="#30")
    throw.locator("text=Hit (we rolled)").click()
    sync_api.expect(now).to_contain_text("no throw or cast left")
    assert phone.locator('fieldset[data-action="cast"]').count() == 0
    assert companion.table.match.events[-1] == {"type": "hit", "thrower": 21, "target": 30}
    play(companion, {"type": "end_activation"},
         {"type": "cast", "caster": 45, "spell": "slow", "targets": [58]},
         {"type": "end_activation"})
    sync_api.expect(now).to_contain_text("Slow: throw or cast")
    phone.locator('fieldset[data-action="pass"]').locator("button", has_text="Pass").click()
    sync_api.expect(now).to_contain_text("no throw or cast left")
    assert phone.locator('fieldset[data-action="cast"]').count() == 0
    shot(phone, "dodgeball-host-slow")


def test_the_target_ticks_stop_at_the_casters_magic(companion, phone):
    begin(phone, companion, wizards={"21": {"magic": 2}})
    cast = phone.locator('fieldset[data-action="cast"]')
    sync_api.expect(cast).to_contain_text("Magic 2: up to 2 wizards")
    # Fireball goes on one held ball: one tick.
    cast.locator("select[name=spell]").select_option(label="Fireball")
    cast.locator('input[value="21"]').check()
    sync_api.expect(cast.locator('input[value="58"]')).to_be_disabled()
    cast.locator("select[name=spell]").select_option(label="Freeze")
    cast.locator('input[value="45"]').check()
    cast.locator('input[value="30"]').check()
    sync_api.expect(cast.locator('input[value="10"]')).to_be_disabled()
    cast.locator('input[value="30"]').uncheck()
    sync_api.expect(cast.locator('input[value="10"]')).to_be_enabled()


def test_a_loose_fireball_is_said_by_the_host_and_attacks_10(companion, phone):
    begin(phone, companion)
    play(companion, {"type": "cast", "caster": 21, "spell": "fireball", "targets": [21]},
         {"type": "end_activation"},
         {"type": "cast", "caster": 45, "spell": "butter_fingers", "targets": [21]},
         {"type": "end_activation"})
    sync_api.expect(phone.locator(".status.now")).to_contain_text(
        "The Owls Fireball is on a loose ball")
    throw = phone.locator('fieldset[data-action="throw"]')
    which = throw.locator("select[name=fireball]")
    sync_api.expect(which.locator("option")).to_have_text(["another ball", "the Fireball"])
    which.select_option(label="the Fireball")
    throw.locator("select[name=target]").select_option(label="#30")
    throw.locator("select[name=range]").select_option(label="3 zones away")
    throw.locator("text=Roll the throw").click()
    sync_api.expect(phone.locator(".lastplay")).to_contain_text("Fireball 10")
    assert companion.table.match.events[-1]["fireball"] is True


def test_a_target_with_butter_fingers_cannot_be_said_to_hold_a_ball(companion, phone):
    begin(phone, companion)
    play(companion, {"type": "cast", "caster": 21, "spell": "butter_fingers",
                     "targets": [30]})
    sync_api.expect(phone.locator(".status.now")).to_contain_text("left: throw")
    sync_api.expect(phone.locator(".status.now")).not_to_contain_text("cast")
    throw = phone.locator('fieldset[data-action="throw"]')
    holding = throw.locator("input[name=holding]")
    sync_api.expect(holding).to_be_enabled()
    throw.locator("select[name=target]").select_option(label="#30")
    sync_api.expect(holding).to_be_disabled()


def test_dispel_offers_each_wearer_its_own_effects(companion, phone):
    begin(phone, companion)
    play(companion, {"type": "cast", "caster": 21, "spell": "slow", "targets": [45]},
         {"type": "end_activation"},
         {"type": "cast", "caster": 45, "spell": "freeze", "targets": [58]},
         {"type": "end_activation"}, {"type": "end_activation"})
    dispel = phone.locator('fieldset[data-action="dispel"]')
    sync_api.expect(dispel.locator("select[name=target] option")).to_have_text(["#58", "#45"])
    effect = dispel.locator("select[name=effect] option")
    sync_api.expect(effect).to_have_text(["Freeze"])
    dispel.locator("select[name=target]").select_option(label="#45")
    sync_api.expect(effect).to_have_text(["Slow"])
    dispel.locator("text=It worked").click()
    # The board's last play names the dispel once it is recorded (the status line's
    # "left" was there before the tap, and so could not say it).
    sync_api.expect(phone.locator(".lastplay")).to_contain_text(re.compile("#30 dispel", re.I))
    assert companion.table.match.events[-1] == {"type": "dispel", "caster": 30, "target": 45,
                                                "spell": "slow"}


def test_a_catch_beside_a_fireball_and_a_fireball_on_one_ball_only(companion, phone):
    begin(phone, companion, wizards={"21": {"magic": 0}})
    cast = phone.locator('fieldset[data-action="cast"]')
    cast.locator("select[name=spell]").select_option(label="Fireball")
    # Magic 0: the caster's own ball only; no roll, and no Fireball on no ball.
    sync_api.expect(cast.locator("input[type=checkbox]")).to_have_count(1)
    sync_api.expect(cast.locator("text=No effect")).to_be_disabled()
    sync_api.expect(cast.locator("text=It took effect")).to_be_disabled()
    cast.locator('input[value="21"]').check()
    sync_api.expect(cast.locator("text=Device rolls")).to_have_count(0)  # nothing to roll
    cast.locator("text=It took effect").click()
    sync_api.expect(phone.locator(".lastplay")).to_contain_text("Fireball")
    catch = phone.locator('fieldset[data-action="catch"]')
    catch.locator("select[name=catcher]").select_option(label="#30")
    catch.locator("button", has_text="Caught").click()
    sync_api.expect(phone.locator(".lastplay")).to_contain_text("#30")
    assert companion.table.match.events[-1] == {"type": "catch", "thrower": 21, "catcher": 30,
                                                "returning": None, "fireball": False}
