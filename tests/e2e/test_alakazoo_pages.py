"""Alakazoo on the phones, in a real browser at phone size: the four portals and the
Magic Jury on the spectator board, the host's start form and turn controls, the history."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import (
    PHONE,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    url,
)

sync_api = require_chromium()
expect = sync_api.expect

FOUR = {"game": "alakazoo", "players": ["Annabelle", "Bartholomew", "Cleo", "Dimitri"],
        "options": {"portals": [1, 5, 3, 4], "first_player": 0}}


def start(companion, setup: dict) -> None:
    companion.runner.call(lambda t: t.start(setup))


def view(companion) -> dict:
    return companion.table.snapshot.match["view"]


def displays(*pairs: tuple[int, int]) -> list[dict]:
    return [{"type": "display", "space": s, "creature": c} for s, c in pairs]


END = {"type": "end_turn"}
#: Five turns of a 4-player match: Spell Dice, displays, Dark Power, the Helper's trick
#: and swap; then (shown live) Bartholomew's device roll.
MIDGAME = [
    {"type": "roll", "faces": ["Fire", "Magic"]}, *displays((5, 1), (1, 1)), END,
    *displays((5, 5), (2, 2)), {"type": "dark_power", "reason": "no_rune"}, END,
    {"type": "dark_power", "reason": "hand"}, {"type": "dark_power", "reason": "no_rune"},
    *displays((5, 3)), END,
    {"type": "dark_power", "reason": "helper"}, *displays((9, 4)), END,
    {"type": "swap", "space": 5, "player": 1}, END,
    {"type": "roll", "dice": 3},
]
#: Annabelle completes her portal (rows: one creature, all different, nothing; the final
#: round), then the others display once each: the game ends when the turn comes back.
FINISH = [
    *displays((1, 1), (2, 1), (3, 1), (4, 2), (5, 3), (6, 4), (7, 1), (8, 1), (9, 6)), END,
    *displays((1, 5), (2, 5), (3, 5)), END,
    *displays((5, 3)), END,
    *displays((9, 4)), END,
]


def box(page, selector: str) -> dict:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return b


def above_the_fold(page, selector: str) -> None:
    b = box(page, selector)
    assert b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"], (selector, b)
    assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (selector, b)


def test_spectator_shows_four_portals_dark_power_and_the_last_event(companion, phone):
    start(companion, FOUR)
    play(companion, *MIDGAME[:-1])
    phone.goto(url(companion))
    board = phone.locator("#board")
    expect(board.locator(".head")).to_have_text("Round 2 · Bartholomew's turn")
    portals = board.locator(".zp")
    expect(portals).to_have_count(4)
    # Annabelle's portal: her Dragon on 1 (first there), Bartholomew's Kraken on 5 by the swap.
    ann = portals.nth(0)
    expect(ann.locator("[data-space='1']")).to_have_class("sp cr1 first")
    expect(ann.locator("[data-space='1']")).to_have_attribute("aria-label", "space 1: Dragon, first here")
    expect(ann.locator("[data-space='5']")).to_have_text("K★")
    expect(ann.locator("[data-space='5']")).to_have_class("sp cr5 first")
    expect(portals.nth(1).locator("[data-space='5']")).to_have_text("D")
    expect(ann.locator(".sp.empty")).to_have_count(7)
    expect(ann.locator(".pips .pip.on")).to_have_count(1)  # the swap with a player's portal
    expect(portals.nth(0).locator(".pts")).to_have_text("4")
    expect(portals.nth(1).locator(".pts")).to_have_text("2")
    expect(portals.nth(2).locator(".pips")).to_have_attribute("aria-label", "2 Dark Power")
    expect(portals.nth(3).locator(".pips .pip.on")).to_have_count(1)  # the Helper's trick
    expect(portals.nth(1)).to_have_attribute("aria-current", "true")
    expect(board.locator(".last")).to_have_text("Annabelle ends the turn")
    expect(board.locator(".firsts")).to_have_text(
        "First on a space: Annabelle 1 5 · Bartholomew 2 · Dimitri 9")
    play(companion, MIDGAME[-1])  # the device rolls 3 Spell Dice: shown live
    expect(board.locator(".last")).to_contain_text("Bartholomew rolls the Spell Dice: ", timeout=5000)
    faces = view(companion)["roll"]["faces"]
    expect(board.locator(".status.now")).to_have_text("Spell Dice: " + " · ".join(faces))
    # The key facts fit a phone's first screen with four players.
    for selector in ["#board .head", "#board .last", "#board .status.now"]:
        above_the_fold(phone, selector)
    for p in range(4):
        for part in [".pname", ".pts", ".pips", ".grid", ".zchip"]:
            above_the_fold(phone, f"#board .zp[data-player='{p}'] {part}")
    shot(phone, "zoo-spectator-midgame")


def test_spectator_final_round_and_the_jury(companion, phone):
    start(companion, FOUR)
    phone.goto(url(companion))
    board = phone.locator("#board")
    play(companion, *FINISH[:10])
    expect(board.locator(".banner")).to_have_text("Final round: Annabelle completed the portal",
                                                  timeout=5000)
    expect(board.locator(".last")).to_have_text("Annabelle ends the turn")
    play(companion, *FINISH[10:])
    expect(board.locator(".head")).to_have_text("Annabelle wins with 18", timeout=5000)
    expect(board.locator(".banner")).to_have_count(0)
    ann = board.locator(".zp[data-player='0']")
    expect(ann).to_have_class("zp winner")
    expect(ann.locator(".chip.won")).to_have_text("winner")
    # Rows: Dragons (=), all different (≠), Dragon-Dragon-Hydra (nothing); columns likewise.
    expect(ann.locator(".verdict")).to_have_text(["=", "≠", "–", "–", "–", "≠"])
    expect(ann.locator("[data-line='rows1']")).to_have_attribute("aria-label", "row 1: same creature, +1")
    expect(ann.locator(".jury")).to_have_text("15 in play + 3 jury = 18")
    # The table of the match: points by source, the jury, Dark Power, forced passes.
    expect(board.locator("table.stats tbody tr").nth(0)).to_have_text("Annabelle591300")
    for selector in ["#board .head", "#board .zp[data-player='0'] .grid",
                     "#board .zp[data-player='3'] .jury", "#board .zp[data-player='0'] .pts"]:
        above_the_fold(phone, selector)
    shot(phone, "zoo-spectator-jury")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_alakazoo_pages_pass_axe(companion, browser, scheme):
    start(companion, FOUR)
    play(companion, *FINISH)
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(url(companion))
        expect(page.locator("#board .zp .jury")).to_have_count(4)
        assert accessibility_problems(page) == []
        shot(page, f"zoo-spectator-jury-{scheme}")
    finally:
        context.close()


def test_host_starts_a_match_with_portals_names_and_dice(companion, phone):
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "alakazoo")
    setup = phone.locator(".zoo-setup")
    expect(setup).to_be_visible()  # its script came with the choice of game
    names = phone.locator("#players input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    names.nth(2).fill("Cleo")
    expect(setup.locator(".zoo-player:visible")).to_have_count(3)
    setup.locator("select").nth(1).select_option("6")
    first = phone.locator("[name=first_player]")
    expect(first.locator("option")).to_have_text(["Ann", "Bob", "Cleo", "Player 4", "the device rolls"])
    first.select_option(label="Bob")
    phone.locator("[name=dark_power_reset]").select_option(label="Keep")
    phone.locator(".zoo-names summary").click()
    phone.locator("[name=creature]").nth(5).fill("Snake")
    expect(setup.locator("select").nth(1).locator("option:checked")).to_have_text("Snake")
    phone.locator("[name=dice_faces]").fill("Magic, Fire, Moon")
    shot(phone, "zoo-host-start-form")
    phone.click("#start button[type=submit]")
    expect(phone.locator("#board .zoo .head")).to_have_text("Round 1 · Bob's turn", timeout=5000)
    m = companion.table.snapshot.match
    assert m["players"] == ["Ann", "Bob", "Cleo"]
    assert m["options"]["portals"] == [1, 6, 3]
    assert m["options"]["first_player"] == 1 and m["options"]["dark_power_reset"] is False
    assert m["options"]["creatures"][5] == "Snake"
    assert m["options"]["dice_faces"] == ["Magic", "Fire", "Moon"]
    expect(phone.locator("#board .zp[data-player='1'] .zchip")).to_have_text("Snake")
