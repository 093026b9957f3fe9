"""Alakazoo on the phones, in a real browser at phone size: the four portals and the
Magic Jury on the spectator board, the host's start form and turn controls, the history."""

from __future__ import annotations

import pytest

from tests.e2e.browser_support import (
    PHONE,
    above_the_fold,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    start,
    url,
)
from tests.games.zoo_matches import COMPLETED, END, FINISH, FOUR, MIDGAME, displays, magic

sync_api = require_chromium()
expect = sync_api.expect


def view(companion) -> dict:
    return companion.table.snapshot.match["view"]


def test_spectator_shows_four_portals_dark_power_and_the_last_event(companion, phone):
    start(companion, FOUR)
    play(companion, *MIDGAME[:-1])
    phone.goto(url(companion))
    board = phone.locator("#board")
    expect(board.locator(".head")).to_have_text("Round 4 · Bartholomew's turn")
    portals = board.locator(".zp")
    expect(portals).to_have_count(4)
    # Annabelle's portal: her Dragon on 1 (first there), Bartholomew's Kraken on 5 by the swap.
    ann = portals.nth(0)
    expect(ann.locator("[data-space='1']")).to_have_class("sp cr1 first")
    expect(ann.locator("[data-space='1']")).to_have_attribute("aria-label",
                                                              "space 1: Dragon, first here")
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
    expect(board.locator(".last")).to_have_text("Annabelle ended the turn")
    expect(board.locator(".firsts")).to_have_text(
        "First on a space: Annabelle 1 5 · Bartholomew 2 · Dimitri 9")
    play(companion, MIDGAME[-1])  # the device rolls 3 Spell Dice: shown live
    expect(board.locator(".last")).to_contain_text("Bartholomew rolls the Spell Dice: ")
    faces = view(companion)["roll"]["faces"]
    # The dice said once (issue #25): by the last line while the roll is the last news.
    expect(board.locator(".last")).to_contain_text(" · ".join(faces))
    expect(board.locator(".status.now")).to_be_empty()
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
    expect(board.locator(".last")).to_have_text("Annabelle starts")
    play(companion, *FINISH[:COMPLETED])
    expect(board.locator(".banner")).to_have_text("Final round: Annabelle completed the portal")
    expect(board.locator(".last")).to_have_text("Annabelle ended the turn")
    above_the_fold(phone, "#board .banner")
    shot(phone, "zoo-spectator-final-round")
    play(companion, *FINISH[COMPLETED:])
    # The end in a short list: place, name, total a row, the winner's row marked.
    expect(board.locator(".places li")).to_have_text(
        ["1st Annabelle 18", "2nd Bartholomew 4", "=3rd Cleo 1", "=3rd Dimitri 1"])
    expect(board.locator(".places li.won")).to_have_text("1st Annabelle 18")
    expect(board.locator(".banner")).to_have_count(0)
    expect(board.locator(".last")).to_contain_text("the final round is over: the Magic Jury scores")
    ann = board.locator(".zp[data-player='0']")
    expect(ann).to_have_class("zp winner")
    expect(ann.locator(".chip.won")).to_have_text("winner")
    # Rows: Dragons (=), all different (≠), Dragon-Dragon-Hydra (nothing); columns likewise.
    expect(ann.locator(".verdict")).to_have_text(["=", "≠", "–", "–", "–", "≠"])
    expect(ann.locator("[data-line='rows1']")).to_have_attribute("aria-label",
                                                                 "row 1: same creature, +1")
    expect(ann.locator(".jury")).to_have_text("15 in play + 3 jury = 18")
    expect(board.locator(".jury-key")).to_contain_text("one creature (=)")
    # The table of the match: points by source, the jury, Dark Power, forced passes.
    expect(board.locator("table.stats tbody tr").nth(0)).to_have_text("Annabelle591300")
    for selector in ["#board .head", "#board .zp[data-player='0'] .grid",
                     "#board .zp[data-player='3'] .jury", "#board .zp[data-player='0'] .pts"]:
        above_the_fold(phone, selector)
    shot(phone, "zoo-spectator-jury")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_alakazoo_pages_pass_axe(companion, phones, scheme):
    """No serious or critical axe finding (none at all) on the spectator's jury, the
    spectator mid-game, the host's controls with a refusal, and the start form."""
    start(companion, FOUR)
    play(companion, *FINISH)
    page = phones.open(PHONE, scheme)
    page.goto(url(companion))
    expect(page.locator("#board .zp .jury")).to_have_count(4)
    assert accessibility_problems(page) == []
    shot(page, f"zoo-spectator-jury-{scheme}")
    start(companion, {**FOUR, "options": {}})
    play(companion, *MIDGAME)
    expect(page.locator("#board .last")).to_contain_text("Spell Dice")
    assert accessibility_problems(page) == []
    page.close()  # one stream less: chromium allows 6 connections per host
    # Bartholomew's roll taken back: too many cards cannot follow a roll.
    companion.runner.call(lambda t: t.undo())
    host = phones.open(PHONE, scheme)
    log_in(host, companion, "host", "#host")
    host.locator("fieldset[data-action=display] button[data-space='3']").click()
    host.locator("fieldset[data-action=display] button[data-creature]").first.click()
    hand = host.locator("fieldset[data-action=swap]")
    expect(hand).to_have_count(0)  # Bartholomew displayed: the turn's action is past
    host.locator("[data-reason=hand]").click()
    expect(host.locator("#board .zp[data-player='1'] .pips .pip.on")).to_have_count(2)
    host.locator("[data-reason=hand]").click()
    # At 3 the token is not taken, but a penalty is still recorded: still offered.
    expect(host.locator("#board .zp[data-player='1'] .pips .pip.on")).to_have_count(3)
    expect(host.locator("fieldset[data-action=dark_power]")).to_have_count(1)
    expect(host.locator("#board .last")).to_contain_text("+1 Dark Power")
    assert accessibility_problems(host) == []
    shot(host, f"zoo-host-{scheme}")
    host.locator("#new-match > summary").click()  # folded during the match
    host.select_option("#game", "alakazoo")
    expect(host.locator(".zoo-setup")).to_be_visible()
    host.locator(".zoo-names summary").click()
    assert accessibility_problems(host) == []


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
    expect(first.locator("option")).to_have_text(
        ["Ann", "Bob", "Cleo", "Player 4", "the device rolls"])
    # A seat chosen to play first, then emptied: the device rolls (never a seat nobody has).
    first.select_option(label="Cleo")
    names.nth(2).fill("")
    expect(first.locator("option:checked")).to_have_text("the device rolls")
    names.nth(2).fill("Cleo")
    first.select_option(label="Bob")
    phone.locator("[name=dark_power_reset]").select_option(label="Keep")
    phone.locator(".zoo-names summary").click()
    phone.locator("[name=creature]").nth(5).fill("Snake")
    expect(setup.locator("select").nth(1).locator("option:checked")).to_have_text("Snake")
    phone.locator("[name=dice_faces]").fill("Magic, Fire, Moon")
    # Put back in the box: only creatures on no Portal board are offered (Bob has the Snake).
    boxed = phone.locator(".zoo-boxed label:visible")
    expect(boxed).to_have_text([" Griffin", " Phoenix", " Kraken"])
    boxed.filter(has_text="Kraken").locator("input").check()
    shot(phone, "zoo-host-start-form")
    phone.click("#start button[type=submit]")
    expect(phone.locator("#board .zoo .head")).to_have_text("Round 1 · Bob's turn")
    m = companion.table.snapshot.match
    assert m["players"] == ["Ann", "Bob", "Cleo"]
    assert m["options"]["portals"] == [1, 6, 3]
    assert m["options"]["first_player"] == 1 and m["options"]["dark_power_reset"] is False
    assert m["options"]["creatures"][5] == "Snake"
    assert m["options"]["dice_faces"] == ["Magic", "Fire", "Moon"]
    assert m["options"]["boxed"] == [5] and m["view"]["deck"] == [1, 2, 3, 4, 6]
    expect(phone.locator("#board .zp[data-player='1'] .zchip")).to_have_text("Snake")


def test_the_start_form_offers_each_portal_creature_once_and_the_box_by_player_count(
        companion, phone):
    """RULINGS, third round: each portal creature once; two boxed with two players,
    one with three, none with four."""
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "alakazoo")
    setup = phone.locator(".zoo-setup")
    names = phone.locator("#players input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Bob")
    picks = setup.locator("select")
    # Ann's Dragon is not offered to Bob, nor Bob's Griffin to Ann.
    expect(picks.nth(1).locator("option[value='1']")).to_be_disabled()
    expect(picks.nth(0).locator("option[value='2']")).to_be_disabled()
    picks.nth(0).select_option("3")
    expect(picks.nth(1).locator("option[value='3']")).to_be_disabled()
    expect(picks.nth(1).locator("option[value='1']")).to_be_enabled()
    phone.locator(".zoo-names summary").click()
    boxes = phone.locator(".zoo-boxed input")
    phone.locator(".zoo-boxed label:visible").filter(has_text="Dragon").locator("input").check()
    phone.locator(".zoo-boxed label:visible").filter(has_text="Phoenix").locator("input").check()
    # Two ticked with two players: the others cannot be ticked.
    expect(phone.locator(".zoo-boxed label:visible input:disabled")).to_have_count(2)
    names.nth(2).fill("Cleo")  # three players: one in the box
    expect(phone.locator(".zoo-boxed input:checked")).to_have_count(1)
    names.nth(3).fill("Dan")  # four: none
    expect(phone.locator(".zoo-boxed")).to_be_hidden()
    phone.click("#start button[type=submit]")
    expect(phone.locator("#board .zoo .head")).to_contain_text("Round 1", timeout=5000)
    m = companion.table.snapshot.match
    assert len(set(m["options"]["portals"])) == 4 and m["options"].get("boxed") in (None, [])
    assert boxes.count() == 6


TWO = {"game": "alakazoo", "players": ["Ann", "Bob"], "options": {"first_player": 0}}


def test_host_plays_a_match_to_the_end_and_the_spectator_follows(companion, browser, phone):
    start(companion, TWO)
    spectator = browser.new_context(viewport=PHONE).new_page()
    spectator.goto(url(companion))
    head = spectator.locator("#board .head")
    expect(head).to_have_text("Round 1 · Ann's turn")
    log_in(phone, companion, "host", "#host")
    actions = phone.locator("#actions")

    def display(space: int, creature: int, first: bool = True, board: bool = False) -> None:
        form = actions.locator("fieldset[data-action=display]")
        form.locator(f"button[data-space='{space}']").click()
        expect(form.locator(f"[data-space='{space}']")).to_have_attribute("aria-pressed", "true")
        who = view(companion)["current"]
        form.locator(f"button[data-creature='{creature}']").click()
        done = f"sp cr{creature}" + (" first" if first else "")
        # A full portal, or the turn's third display, takes the form away: the board shows
        # the creature.
        shown = phone.locator(f"#board .zp[data-player='{who}']") if board else form
        expect(shown.locator(f"[data-space='{space}']")).to_have_class(done)

    def end_turn(then: str | list[str]) -> None:
        """End the turn; the board's head then says ``then`` (the places once over)."""
        phone.locator("#bar [data-action=end_turn]").click()
        expect(phone.locator("#board .head" if isinstance(then, str) else
                             "#board .head li")).to_have_text(then)

    errors: list[str] = []
    phone.on("pageerror", lambda e: errors.append(str(e)))

    def creatures() -> list[int]:
        """The creatures the display form offers for the space picked."""
        buttons = actions.locator("fieldset[data-action=display] button[data-creature]")
        return [int(c) for c in buttons.evaluate_all("bs => bs.map(b => b.dataset.creature)")]

    def pick(space: int) -> None:
        actions.locator(f"fieldset[data-action=display] button[data-space='{space}']").click()

    # Round 1: the device rolls two Spell Dice for Ann (faces shown), she displays a Dragon.
    actions.locator("[data-action=roll] [data-dice='2']").click()
    expect(actions.locator(".zoo-turn")).to_contain_text("Spell Dice: ")
    faces = view(companion)["roll"]["faces"]
    expect(actions.locator(".zoo-turn")).to_have_text(
        f"Ann's turn · round 1 · Spell Dice: {' · '.join(faces)}")
    # The turn's one action is spent: no second roll, no column, no swap or trick.
    expect(actions.locator("[data-action=roll], [data-action=swap], [data-action=column]")
           ).to_have_count(0)
    expect(actions.locator("[data-reason=helper]")).to_have_count(0)
    # 1 Magic Power token and two dice pay for one display: the form goes, a note says why.
    display(1, 1, board=True)
    # Why (the bound the record allows), and what to do: the page says it from the view's
    # data in its own language (the API's refusal says how the bound is made up too).
    expect(actions.locator("[data-note=displays]")).to_have_text(
        "Ann can hold at most 1 Magic Power now and a display spends 2: no display now; end "
        "the turn")
    expect(head).to_have_text("Round 1 · Ann's turn")
    expect(spectator.locator("#board .zp[data-player='0'] .pts")).to_have_text("2")
    end_turn("Round 1 · Bob's turn")
    expect(head).to_have_text("Round 1 · Bob's turn")  # live on the spectator's phone
    # Bob's space 1: not the Dragon Ann's portal shows (each card exists once).
    pick(1)
    expect(actions.locator("fieldset[data-action=display] button[data-creature]")
           ).to_have_count(5)
    assert creatures() == [2, 3, 4, 5, 6]
    display(5, 2)
    end_turn("Round 2 · Ann's turn")
    # Round 2: a swap for a hand card offers only the cards that can be in a hand.
    swap = actions.locator("fieldset[data-action=swap]")
    swap.locator("[name=space]").select_option("1")
    expect(swap.locator("[name=card] option")).to_have_text(
        [f"for {c} from the hand" for c in ("Griffin", "Unicorn", "Phoenix", "Kraken", "Hydra")])
    # The table's own three dice (1 + 3 Magic Power), then two displays: Kraken and Hydra
    # fill the two-player deck.
    roll = actions.locator("fieldset[data-action=roll]")
    for die, face in enumerate(["Fire", "Magic", "Magic"]):
        roll.locator("[name=face]").nth(die).select_option(face)
    roll.locator("[data-table]").click()
    expect(actions.locator("fieldset[data-action=swap]")).to_have_count(0)
    expect(phone.locator("#message")).to_have_text("")
    pick(5)
    expect(actions.locator("fieldset[data-action=display] button[data-creature]")
           ).to_have_count(5)
    assert 2 not in creatures()  # Bob's Griffin is on 5
    display(5, 5, first=False)  # Bob was first on 5
    display(6, 6, board=True)
    expect(actions.locator("fieldset[data-action=display]")).to_have_count(0)
    expect(actions.locator("[data-note=displays]")).to_contain_text(
        "Ann can hold at most 0 Magic Power now")
    end_turn("Round 2 · Bob's turn")
    end_turn("Round 3 · Ann's turn")
    pick(2)
    expect(actions.locator("fieldset[data-action=display] button[data-creature]")
           ).to_have_count(4)
    assert creatures() == [1, 2, 5, 6]  # no Unicorn or Phoenix: the deck is full
    shot(phone, "zoo-host-display")
    actions.locator("fieldset[data-action=display] button[data-creature='1']").click()
    expect(actions.locator("fieldset[data-action=display]")).to_have_count(0)
    # Turns whose action the table did not record: what three dice could give is trusted.
    for rnd, shows in ((3, []), (4, [(3, 1), (4, 2)]), (5, [(7, 1)]), (6, [(8, 1), (9, 5)])):
        for i, (space, creature) in enumerate(shows):
            display(space, creature, board=i == len(shows) - 1)
        if rnd < 6:
            end_turn(f"Round {rnd} · Bob's turn")
            end_turn(f"Round {rnd + 1} · Ann's turn")
    expect(actions.locator("fieldset[data-action=display]")).to_have_count(0)
    expect(phone.locator("#board .banner")).to_have_text("Final round: Ann completed the portal")
    end_turn("Round 6 · Bob's turn")
    # No roll yet: no rune to miss. After the table's own roll, one per rune shown.
    expect(actions.locator("[data-reason=no_rune]")).to_have_count(0)
    roll = actions.locator("fieldset[data-action=roll]")
    roll.locator("[name=face]").nth(0).select_option("Fire")
    roll.locator("[data-table]").click()
    actions.locator("[data-reason=no_rune]").click()
    expect(phone.locator("#board .zp[data-player='1'] .pips .pip.on")).to_have_count(1)
    expect(actions.locator("[data-reason=no_rune]")).to_have_count(0)
    end_turn(["1st Ann 17", "2nd Bob 2"])
    expect(phone.locator("#actions fieldset, [data-action=end_turn]")).to_have_count(0)
    expect(head.locator("li.won")).to_have_text("1st Ann 17")
    # Over: the controls say so (no TypeError on a game with no current player).
    expect(actions.locator(".zoo-over")).to_contain_text("The game is over")
    assert errors == []
    shot(phone, "zoo-host-over")
    # A rematch: the form opens on Alakazoo with the match's players and options.
    phone.reload()
    expect(phone.locator("#game")).to_have_value("alakazoo")
    expect(phone.locator(".zoo-setup .zoo-player:visible")).to_have_count(2)
    for i, name in enumerate(["Ann", "Bob", "", ""]):
        expect(phone.locator("#players input").nth(i)).to_have_value(name)
    expect(phone.locator("[name=first_player] option:checked")).to_have_text("Ann")
    # What the table recorded, each action made on the current player's turn ("by").
    state = phone.request.get(url(companion, "api/state")).json()
    assert state["match"]["status"] == "finished"
    v = state["match"]["view"]
    assert [p["total"] for p in v["players"]] == [17, 2] and v["winner"] == [0]
    recorded = [{k: e[k] for k in e if k not in ("faces",)} for e in companion.table.match.events]
    shows = [{"type": "display", "space": sp, "creature": c, "by": 0}
             for sp, c in [(5, 5), (6, 6), (2, 1), (3, 1), (4, 2), (7, 1), (8, 1), (9, 5)]]
    turns = ann_end, bob_end = {"type": "end_turn", "by": 0}, {"type": "end_turn", "by": 1}
    assert recorded == [
        {"type": "roll", "by": 0, "device": True},  # the faces it rolled, below
        {"type": "display", "space": 1, "creature": 1, "by": 0}, ann_end,
        {"type": "display", "space": 5, "creature": 2, "by": 1}, bob_end,
        {"type": "roll", "by": 0, "device": False}, *shows[:2], *turns, shows[2], *turns,
        *shows[3:5], *turns, shows[5], *turns, *shows[6:], ann_end,
        {"type": "roll", "by": 1, "device": False},
        {"type": "dark_power", "reason": "no_rune", "by": 1}, bob_end,
    ], recorded
    assert companion.table.match.events[0]["faces"] == faces and len(faces) == 2
    assert companion.table.match.events[5]["faces"] == ["Fire", "Magic", "Magic"]
    spectator.context.close()


def test_a_shared_win_on_the_board_and_in_the_history(companion, phone):
    """Without the reset, two players stuck at 3 Dark Power end the game: equal totals
    share the win."""
    three = [{"type": "dark_power", "reason": "hand"}] * 3
    # First, a device roll for the first player is said before anything happens.
    start(companion, {**TWO, "options": {"first_player": "roll"}})
    first = companion.table.snapshot.match["options"]["first_roll"]
    phone.goto(url(companion))
    expect(phone.locator("#board .last")).to_have_text(
        f"{TWO['players'][first]} starts (the device rolled)")
    companion.runner.call(lambda t: t.abandon())
    start(companion, {**TWO, "options": {**TWO["options"], "dark_power_reset": False}})
    play(companion, *displays((1, 1)), *three, END, *displays((2, 2)), *three, END)
    assert view(companion)["ended"] == "stuck"
    phone.goto(url(companion))
    # Level on 2: both first, the place marked shared, both rows the winners'.
    expect(phone.locator("#board .places li.won")).to_have_text(["=1st Ann 2", "=1st Bob 2"])
    expect(phone.locator("#board .zp .chip.won")).to_have_text(["shared win", "shared win"])
    expect(phone.locator("#board .last")).to_have_text(
        "Bob ended the turn · Ann passes: 3 Dark Power · Bob passes: 3 Dark Power"
        " · everyone is at 3 Dark Power: the game ends")
    phone.goto(url(companion, "history"))
    row = phone.locator("#history li").first
    expect(row.locator(".game")).to_have_text("Alakazoo")
    expect(row.locator(".who strong")).to_have_text(["Ann", "Bob"])
    expect(row.locator(".result")).to_contain_text("2-2 · Ann: 2 in play + 0 jury")
    shot(phone, "zoo-history")


def test_the_spectator_page_loads_a_game_s_script_when_its_match_starts(companion, phone):
    """A page carries the scripts of the game on the table only; another game's come
    when a match of it starts, and the same page shows it."""
    scripts: list[str] = []
    phone.on("request", lambda r: scripts.append(r.url.rsplit("/", 1)[-1])
             if r.url.endswith(".js") else None)
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    phone.goto(url(companion))
    expect(phone.locator("#board .cc")).to_be_visible()
    # The timeline chart's script comes once, after the page (tests/e2e/test_timeline_pages.py).
    expect(phone.locator("#timeline figure")).to_be_visible()
    assert scripts == ["common.js", "center-court.js", "spectator.js", "timeline.js"]
    phone.evaluate("window.marker = 7")
    companion.runner.call(lambda t: t.abandon())
    start(companion, FOUR)
    expect(phone.locator("#board .zp")).to_have_count(4)
    assert scripts == ["common.js", "center-court.js", "spectator.js", "timeline.js",
                       "alakazoo.js"]
    assert phone.evaluate("window.marker") == 7  # the same page: no reload


@pytest.mark.parametrize("setup", [
    {"game": "center-court", "players": ["Ann", "Bob"]},
    {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
     "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}},
    {"game": "alakaslam", "players": ["Ann", "Bob"],
     "options": {"characters": ["austin", "simon"]}},
    FOUR,
], ids=lambda s: s["game"])
def test_what_a_phone_downloads_for_each_game_s_spectator_page(companion, phone, setup):
    """Counted in the browser: every response the page's load asks for (the page, its
    stylesheet, icon and scripts), not the state stream. tests/web/test_api.py keeps the
    same budget without a browser."""
    from tests.web.test_api import LIGHT

    bodies: dict[str, int] = {}

    def count(response) -> None:
        # Not the state stream, nor the timeline chart fetched on demand after the load
        # (its script and data: tests/e2e/test_timeline_pages.py checks when they come).
        if not any(part in response.url for part in ("/api/events", "/timeline.js",
                                                     "/timeline.css", "/api/timeline")):
            bodies[response.url.rsplit("/", 1)[-1]] = len(response.body())

    phone.on("response", count)
    start(companion, setup)
    phone.goto(url(companion))
    expect(phone.locator("#board > *")).not_to_have_class("empty")
    phone.wait_for_load_state("networkidle")
    scripts = {name for name in bodies if name.endswith(".js")}
    own = {f"{setup['game']}.js"}
    assert scripts == {"common.js", "spectator.js"} | own, bodies
    total = sum(bodies.values())
    print(f"{setup['game']}: {total} bytes in the browser: {bodies}")
    assert total <= LIGHT, bodies


def test_the_hosts_swaps_offer_only_what_exchanges_something(companion, phone):
    """A swap with a portal lists the space and player pairs where both show different
    creatures; a hand card, the cards that can be in a hand for the space chosen."""
    start(companion, {"game": "alakazoo", "players": ["Ann", "Bob", "Cleo"]})
    # Ann rolls a Magic face in round 2 and keeps it: the Helper spends a token kept.
    play(companion, *displays((1, 1), (5, 1)), END, *displays((5, 2)), END,
         *displays((1, 3), (5, 3)), END, magic(1), END, END, END)
    log_in(phone, companion, "host", "#host")
    swap = phone.locator("#actions fieldset[data-action=swap]")
    expect(swap.locator("[name=pair] option")).to_have_text([
        "space 1: Dragon ↔ Cleo's Unicorn", "space 5: Dragon ↔ Bob's Griffin",
        "space 5: Dragon ↔ Cleo's Unicorn"])
    swap.locator("[name=space]").select_option("5")
    # Not Ann's own Dragon, Bob's Griffin or Cleo's Unicorn; three players: five creatures.
    expect(swap.locator("[name=card] option")).to_have_text(
        ["for Phoenix from the hand", "for Kraken from the hand", "for Hydra from the hand"])
    swap.locator("[name=pair]").select_option("5/2")
    swap.locator("button", has_text="Swap (+1 Dark Power)").click()
    expect(phone.locator("#board .zp[data-player='0'] [data-space='5']")).to_have_class(
        "sp cr3 first")
    assert companion.table.match.events[-1] == {"type": "swap", "by": 0, "space": 5,
                                                "player": 2}


def test_the_host_offers_two_displays_after_the_helper_and_no_hand_trick_against_full_portals(
        companion, phone):
    """The Helper spent 1 of Ann's 6 Magic Power tokens: after two displays the form goes
    and the note says why. In Bob's final turn Ann's portal is complete: the Helper's hand
    trick has nobody to be used against, its column trick is still offered."""
    start(companion, {"game": "alakazoo", "players": ["Ann", "Bob"]})
    # Ann rolls 3, then 2 Magic Power symbols: 6 tokens, the most a player holds.
    play(companion, magic(3), END, END, magic(2), END, END)
    log_in(phone, companion, "host", "#host")
    actions = phone.locator("#actions")
    expect(actions.locator("[data-trick]")).to_have_count(2)
    actions.locator("[data-trick=column]").click()
    display = actions.locator("fieldset[data-action=display]")
    expect(display.locator("legend")).to_have_text("Display on Ann's portal (2 more this turn)")
    for space in (1, 2):
        display.locator(f"button[data-space='{space}']").click()
        display.locator("button[data-creature='1']").click()
        expect(phone.locator(f"#board .zp[data-player='0'] [data-space='{space}']")
               ).to_have_class("sp cr1 first")
    expect(display).to_have_count(0)
    expect(actions.locator("[data-note=displays]")).to_have_text(
        "Ann has displayed 2 elements this turn, the most the Magic Power pays for: each "
        "display spends 2 and a player holds at most 6; end the turn")
    # Actions not recorded: each of Ann's turns displays what 3 more tokens pay for.
    play(companion, END, END, *displays((3, 1), (4, 1)), END, END, *displays((5, 1)), END,
         END, *displays((6, 1), (7, 1)), END, END, *displays((8, 1)), END, END,
         *displays((9, 1)), END)
    expect(phone.locator("#board .head")).to_have_text("Round 8 · Bob's turn")
    expect(phone.locator("#board .banner")).to_have_text("Final round: Ann completed the portal")
    expect(actions.locator("[data-trick]")).to_have_count(1)
    expect(actions.locator("[data-trick=column]")).to_have_count(1)
    expect(actions.locator("[data-reason=helper]")).to_have_count(0)
