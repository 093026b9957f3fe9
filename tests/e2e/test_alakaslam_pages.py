"""AlakaSLAM on the phones, in a real browser at phone size: the spectator court,
the host's start form and card picker, and the shot preview against the engine."""

from __future__ import annotations

import itertools
import json

import pytest

from companion.games.alakaslam import court
from tests.e2e.browser_support import (
    PHONE,
    PIN,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    start,
    url,
)

sync_api = require_chromium()
expect = sync_api.expect

SINGLES = {"game": "alakaslam", "players": ["Ann", "Bob"],
           "options": {"characters": ["austin", "sarissia"]}}
DOUBLES = {"game": "alakaslam", "players": ["Ann", "Bea", "Cy", "Di"],
           "options": {"characters": ["laurie", "rich", "wendolyn", "simon"]}}


def match(companion) -> dict:
    return companion.table.snapshot.match


def events(companion) -> list[dict]:
    """The match's recorded events, as the engine resolved them."""
    return list(companion.table.match.events)


def test_spectator_court_follows_the_rally_live(companion, phone):
    start(companion, SINGLES)
    phone.goto(url(companion))
    board = phone.locator("#board")
    court_svg = board.locator("svg.court")
    expect(board.locator(".head")).to_have_text("Singles · first to 3")
    expect(board.locator(".status.now")).to_have_text("Ann to serve")
    expect(court_svg.locator(".cell")).to_have_count(12)
    expect(court_svg.locator(".cell.red")).to_have_count(4)
    expect(court_svg.locator(".ball")).to_have_count(0)
    expect(board.locator(".reminders")).to_contain_text("Hands to: Ann 8, Bob 10")
    expect(board.locator("table.stats")).to_have_count(0)  # no point played yet
    shot(phone, "slam-spectator-start")
    marker = phone.evaluate("window.marker = 7")
    # A serve from the red corner that crosses to c3 r4, then Bob enchants Ann with a 2.
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "B2"]})
    expect(board.locator(".status.now")).to_have_text("Bob to hit · rally 1")
    expect(court_svg).to_have_attribute(
        "aria-label", "Court, 3 columns by 4 rows. Ball at c3 r4. "
        "Last shot by Ann: c1 r1 to c3 r4, in.")
    expect(court_svg.locator(".ball")).to_have_count(1)
    expect(court_svg.locator(".path.good .result")).to_have_text("IN")
    expect(board.locator(".reminders")).to_have_text("Draw: Ann draws 2")
    play(companion, {"type": "shot", "player": 1, "cards": ["R2", "E2"]})
    expect(board.locator(".obligations")).to_have_text(
        "Ann must play exactly 2 cards (Enchanted by Bob)")
    expect(board.locator(".status.now")).to_have_text("Ann to hit · rally 2")
    shot(phone, "slam-spectator-rally")
    # Ann's return sails out over the red edge: the point is Bob's, the path drawn off court.
    play(companion, {"type": "shot", "player": 0, "cards": ["R0", "R2"]})
    expect(board.locator(".status.last")).to_contain_text(
        "Last shot (Ann): c2 r2 → c0 r4, out")
    expect(board.locator(".status.last")).to_contain_text("Last point: Bob scores: out")
    expect(court_svg.locator(".path.bad .result")).to_have_text("OUT")
    expect(board.locator(".score tr[data-side='1'] .points")).to_have_text("1")
    expect(board.locator(".status.now")).to_have_text("Ann to serve")
    expect(board.locator(".reminders")).to_contain_text("Ann may discard up to 3")
    expect(board.locator("table.stats tbody tr").nth(2)).to_have_text("out01")  # Ann 0, Bob 1
    shot(phone, "slam-spectator-out")
    assert phone.evaluate("window.marker") == marker  # the same page: no reload


def test_spectator_board_shows_the_winner_abilities_and_copies(companion, phone):
    start(companion, {**DOUBLES, "options": {**DOUBLES["options"], "target": 1}})
    play(companion, {"type": "copy", "player": 3, "character": "rich"},
         {"type": "mulligan", "player": 2})
    phone.goto(url(companion))
    players = phone.locator("#board .players li")
    expect(players.nth(3)).to_contain_text("copies Rich")
    expect(players.nth(2)).to_contain_text("mulligans: 1")
    play(companion, {"type": "serve", "player": 0, "corner": "blue", "cards": ["R1"],
                     "support": {"player": 1, "cards": ["E2", "R1"], "enchant": 3}},
         {"type": "shot", "player": 3, "cards": ["B1", "R1"], "support": {"player": 2,
                                                                       "cards": ["B0"]}},
         {"type": "shot", "player": 0, "cards": ["R2"], "ability": True,
          "support": {"player": 1, "cards": ["B0"]}})
    expect(players.nth(0)).to_contain_text("ability used")
    play(companion, {"type": "point", "winner": 0})
    expect(phone.locator("#board .head")).to_have_text("Ann & Bea win 1-0")
    expect(phone.locator("#board .status.now")).to_have_count(0)
    expect(phone.locator("#board .score tr.winner .name")).to_have_text("Ann & Bea winner")
    # The match's stats: Laurie's ability counted, points by reason, the longest rally.
    expect(players.nth(0)).to_contain_text("abilities this match: 1")
    stats = phone.locator("#board table.stats")
    expect(stats.locator("caption")).to_have_text("Points won by reason · longest rally 3")
    expect(stats.locator("thead th")).to_have_text(["Ann & Bea", "Cy & Di"])
    expect(stats.locator("tbody th")).to_have_text(
        ["no return", "declined", "out", "net", "bad serve"])
    expect(stats.locator("tbody tr").nth(0)).to_have_text("no return10")
    shot(phone, "slam-spectator-won")


def test_host_starts_canadian_doubles_with_characters_and_sides(companion, phone):
    log_in(phone, companion, "host", "#host")
    phone.select_option("#game", "alakaslam")
    names = phone.locator("#players input")
    setup = phone.locator(".slam-setup")
    expect(setup.locator(".format")).to_contain_text("2 players: singles")
    for i, name in enumerate(["Ann", "Bea", "Cy"]):
        names.nth(i).fill(name)
    expect(setup.locator(".format")).to_contain_text("3 players: Canadian doubles")
    rows = setup.locator(".slam-player")
    expect(rows.nth(3)).to_be_hidden()
    # The contract's Canadian default: the first player alone.
    assert [rows.nth(i).locator("[name=side]").input_value() for i in range(3)] == ["0", "1", "1"]
    # Two players with one character: refused by the table, said on the page.
    rows.nth(1).locator("[name=character]").select_option("austin")
    phone.click("#start button[type=submit]")
    expect(phone.locator("#message")).to_contain_text("different character")
    assert companion.table.snapshot.match is None
    rows.nth(1).locator("[name=character]").select_option("josephias")
    rows.nth(2).locator("[name=character]").select_option("simon")
    # Bea plays alone against Ann and Cy.
    expect(setup.locator(".sides")).to_have_text("Side 1: Ann · Side 2: Bea & Cy")
    rows.nth(0).locator("[name=side]").select_option("1")
    rows.nth(1).locator("[name=side]").select_option("0")
    expect(setup.locator(".sides")).to_have_text("Side 1: Bea · Side 2: Ann & Cy")
    phone.locator("#options select[name=first_server]").select_option(label="Side 2")
    phone.locator("#options select[name=target]").select_option(label="5 points")
    shot(phone, "slam-host-start-form")
    phone.click("#start button[type=submit]")
    expect(phone.locator("#board .head")).to_have_text("Canadian doubles · first to 5")
    m = match(companion)
    assert m["players"] == ["Ann", "Bea", "Cy"]
    assert {k: m["options"][k] for k in ("characters", "teams", "first_server", "target")} == {
        "characters": ["austin", "josephias", "simon"], "teams": [1, 0, 1],
        "first_server": 1, "target": 5}


def test_host_card_picker_previews_then_sends_the_exact_serve(companion, phone):
    start(companion, DOUBLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    expect(serve.locator(".send")).to_be_disabled()
    expect(serve.locator(".positions")).to_have_text(
        "Stand: Ann c1 r1, Bea c3 r2; receiver c4 r4, partner c2 r3")
    serve.locator("button", has_text="Bea").click()       # Bea serves, Ann supports
    serve.locator("button", has_text="Blue").click()
    expect(serve.locator(".positions")).to_have_text(
        "Stand: Bea c4 r1, Ann c2 r2; receiver c1 r4, partner c3 r3")
    bea = serve.locator(".picker[data-player='1']")
    ann = serve.locator(".picker[data-player='0']")
    bea.locator("[data-card=R1]").click()
    bea.locator("[data-card=E2]").click()
    expect(serve.locator(".landing")).to_have_text("Lands c3 r2: bad serve — point to Cy & Di")
    # Doubles: no Enchant-1; Bea is not Austin: no straight Hit-2.
    expect(bea.locator("[data-card=E1]")).to_have_count(0)
    expect(bea.locator("[data-card=S2]")).to_have_count(0)
    # The Enchantment needs its target: two opponents could be meant.
    ann.locator("[data-card=R2]").click()
    expect(serve.locator(".landing")).to_have_text("Lands c2 r4: in")
    expect(serve.locator(".preview .path.good")).to_have_count(1)
    expect(serve.locator(".send")).to_be_disabled()
    bea.locator("button", has_text="Di").click()
    # A card taken back, another added.
    ann.locator(".cardrow button", has_text="R2").click()
    ann.locator("[data-card=R1]").click()
    ann.locator("[data-card=B0]").click()
    expect(ann.locator(".cardrow button")).to_have_text(["R1 ×", "B0 ×"])
    expect(serve.locator(".landing")).to_have_text("Lands c3 r3: in")
    shot(phone, "slam-host-serve-preview")
    version = companion.table.version
    serve.locator(".send").click()
    expect(phone.locator("fieldset[data-action=shot]")).to_be_visible()
    assert companion.table.version == version + 1
    assert events(companion)[-1] == {
        "type": "serve", "player": 1, "corner": "blue", "cards": ["R1", "E2"], "enchant": 3,
        "support": {"player": 0, "cards": ["R1", "B0"]}}
    assert match(companion)["view"]["ball"] == [3, 3]
    shot(phone, "slam-host-shot")


def test_host_shot_obeys_enchantments(companion, phone):
    start(companion, SINGLES)
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "E2", "B2"]})
    log_in(phone, companion, "host", "#host")
    hit = phone.locator("fieldset[data-action=shot]")
    expect(hit.locator(".duty")).to_have_text("Bob must play exactly 2 cards (Enchanted by Ann)")
    # Sarissia, not Austin: no straight Hit-2; singles: the Enchantment needs no target.
    expect(hit.locator("[data-card=S2]")).to_have_count(0)
    hit.locator("[data-card=R3]").click()
    # One card under Enchant-2: the preview says the table would refuse it, and why.
    expect(hit.locator(".landing")).to_have_text(
        "Refused: Bob is under Enchant-2: play exactly 2 cards")
    expect(hit.locator(".send")).to_be_disabled()
    hit.locator("[data-card=R1]").click()
    expect(hit.locator(".landing")).to_have_text("Lands c1 r0: out — point to Ann")
    expect(hit.locator(".preview .path.bad .result")).to_have_text("OUT")
    hit.locator(".send").click()
    expect(phone.locator("#board .status.last")).to_contain_text("Last point: Ann scores: out")
    assert events(companion)[-1] == {"type": "shot", "player": 1,
                                              "cards": ["R3", "R1"], "ability": False}


def test_host_sends_laurie_s_shot_ability_with_one_card(companion, phone):
    start(companion, DOUBLES)
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
                     "support": {"player": 1, "cards": ["B2"]}},
         {"type": "shot", "player": 2, "cards": ["R2"], "support": {"player": 3,
                                                                  "cards": ["B0"]}})
    log_in(phone, companion, "host", "#host")
    hit = phone.locator("fieldset[data-action=shot]")
    ann = hit.locator(".picker[data-player='0']")
    ann.locator("[data-card=R2]").click()
    ann.locator("[data-card=R1]").click()
    ann.get_by_label("Laurie's ability").check()
    # Draw 3, play 1: the row keeps its first card and takes no more.
    expect(ann.locator(".cardrow button")).to_have_text(["R2 ×"])
    expect(ann.locator("[data-card=R1]")).to_be_disabled()
    hit.locator(".picker[data-player='1'] [data-card=B0]").click()
    expect(hit.locator(".landing")).to_have_text("Lands c3 r4: in")
    hit.locator(".send").click()
    expect(phone.locator("#board .players li").nth(0)).to_contain_text("ability used")
    assert events(companion)[-1] == {"type": "shot", "player": 0, "cards": ["R2"],
                                     "support": {"player": 1, "cards": ["B0"]},
                                     "ability": True}
    # Once per point: no toggle for the rest of it.
    expect(phone.locator("fieldset[data-action=shot] input[type=checkbox]")).to_have_count(0)


def test_host_point_mulligan_copy_and_ability_controls(companion, phone):
    start(companion, {"game": "alakaslam", "players": ["Ann", "Bob"],
                      "options": {"characters": ["toots", "simon"]}})
    log_in(phone, companion, "host", "#host")
    phone.locator("fieldset[data-action=mulligan] button", has_text="Bob").click()
    expect(phone.locator("fieldset[data-action=mulligan] button", has_text="Bob")).to_have_text(
        "Bob 7→6")
    copy = phone.locator("fieldset[data-action=copy]")
    copy.locator("select").select_option("toots")
    copy.locator("button").click()
    expect(phone.locator("#board .players li").nth(1)).to_contain_text("copies Toots")
    ability = phone.locator("fieldset[data-action=ability]")
    # Toots's ability waits for its side's turn: only Ann's, who serves, is offered.
    expect(ability.locator("button")).to_have_text(["Ann's ability (Toots)"])
    ability.locator("button").nth(0).click()
    expect(ability.locator("button")).to_have_count(0)
    # One tap for a point (no return).
    phone.locator("fieldset[data-action=point] button", has_text="Point Bob").click()
    expect(phone.locator("#board .score tr[data-side='1'] .points")).to_have_text("1")
    recorded = events(companion)
    assert [e["type"] for e in recorded] == ["mulligan", "copy", "ability", "point"]
    assert recorded[-1] == {"type": "point", "winner": 1, "reason": "no_return"}
    shot(phone, "slam-host-point")


def test_the_host_page_preview_lands_where_the_engine_does(companion, phone):
    """The host page's shot calculator (alakaslam-host.js) against court.py, in the real
    browser: every row of 1 to 3 cards from every start cell of both court sizes, for
    both sides, as a shot and as a serve from either corner."""
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    rows = [list(r) for n in (1, 2, 3) for r in itertools.product(court.CARDS, repeat=n)]
    cells = {cols: [[c, r] for c in range(1, cols + 1) for r in range(1, court.ROWS + 1)]
             for cols in (3, 4)}
    got = phone.evaluate("""([rows, cells]) => {
        const S = TC.slam, shots = [], serves = [];
        for (const cols of [3, 4]) for (const side of [0, 1]) for (const cards of rows) {
          for (const start of cells[cols]) {
            const end = S.land(start, cards, side);
            shots.push([...end, S.judge(end, side, cols)]);
          }
          for (const corner of ["red", "blue"]) {
            const start = S.serveStart(side, corner, cols);
            const end = S.land(start, cards, side);
            serves.push([...start, ...end, S.judgeServe(start, end, side, cols)]);
          }
        }
        // One string: Playwright carries a big nested array value by value, which
        // took about 40 s here; a JSON text crosses in well under a second.
        return JSON.stringify({shots, serves});
    }""", [rows, {str(k): v for k, v in cells.items()}])
    got = json.loads(got)
    shots, serves = [], []
    for cols in (3, 4):
        for side in (0, 1):
            for cards in rows:
                for start_cell in cells[cols]:
                    end = court.land(tuple(start_cell), cards, side)
                    shots.append([*end, court.judge(end, side, cols)])
                for corner in ("red", "blue"):
                    first = court.serve_start(side, corner, cols)
                    end = court.land(first, cards, side)
                    serves.append([*first, *end, court.judge_serve(first, end, side, cols)])
    assert len(rows) == 12 + 12 ** 2 + 12 ** 3
    assert got["shots"] == shots
    assert got["serves"] == serves
    # Every result occurs: the comparison is not of trivial cases.
    assert {s[-1] for s in shots} == {"in", "out", "net"}
    assert {s[-1] for s in serves} == {"in", "bad_serve"}


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_alakaslam_pages_pass_axe(companion, phones, scheme):
    """axe-core's checks (contrast, names, headings, ...) on the spectator board in a
    rally, the host's shot form with cards, an Enchantment's target and Laurie's
    toggle, and the start form, in both colour schemes."""
    start(companion, DOUBLES)
    play(companion, {"type": "copy", "player": 3, "character": "rich"},
         {"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
          "support": {"player": 1, "cards": ["E2", "B1"], "enchant": 2}},
         {"type": "shot", "player": 2, "cards": ["R2", "B0"],
          "support": {"player": 3, "cards": ["E3"], "enchant": 0}})
    spectator = phones.open(PHONE, scheme)
    spectator.goto(url(companion))
    expect(spectator.locator("#board .obligations li")).to_have_count(1)
    assert accessibility_problems(spectator) == []
    spectator.close()  # one stream less: chromium allows 6 connections per host
    host = phones.open(PHONE, scheme)
    host.goto(url(companion, "host"))
    host.fill("#pin", PIN)
    host.click("#login button")
    hit = host.locator("fieldset[data-action=shot]")
    hit.locator(".picker[data-player='0'] [data-card=E3]").click()
    hit.locator(".picker[data-player='1'] [data-card=B2]").click()
    expect(hit.locator("input[type=checkbox]")).to_have_count(1)  # Laurie's ability
    # Under Enchant-3 with one card: the refusal's colours are checked too.
    expect(hit.locator(".landing")).to_contain_text("Refused: Ann is under Enchant-3")
    assert accessibility_problems(host) == []
    host.locator("#new-match > summary").click()  # folded during the match
    host.select_option("#game", "alakaslam")
    expect(host.locator(".slam-setup")).to_be_visible()
    assert accessibility_problems(host) == []


CANADIAN = {"game": "alakaslam", "players": ["Ann", "Bea", "Cy"],
            "options": {"characters": ["austin", "josephias", "simon"]}}


def engine_refusal(companion, action: dict) -> str:
    """What the table says when it refuses ``action`` (nothing is applied)."""
    version = companion.table.version
    with pytest.raises(Exception) as refused:
        play(companion, action)
    assert companion.table.version == version
    return str(refused.value)


def test_host_picker_offers_one_enchantment_a_row(companion, phone):
    start(companion, DOUBLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    ann = serve.locator(".picker[data-player='0']")
    expect(ann.locator(".deck button")).to_have_text(
        ["R0", "R1", "R2", "R3", "B0", "B1", "B2", "B3", "E2", "E3"])  # doubles: no E1
    ann.locator("[data-card=E2]").click()
    # The row holds an Enchantment: no other is offered (the table refuses two).
    expect(ann.locator(".deck [data-card^=E]")).to_have_count(0)
    expect(ann.locator(".deck button")).to_have_count(8)
    # Bea's row is her own: both of hers are still offered.
    expect(serve.locator(".picker[data-player='1'] .deck [data-card^=E]")).to_have_count(2)
    shot(phone, "slam-host-one-enchantment")
    ann.locator(".cardrow button", has_text="E2").click()
    expect(ann.locator(".deck [data-card^=E]")).to_have_text(["E2", "E3"])


def test_host_picker_in_canadian_doubles_offers_enchant_1(companion, phone):
    start(companion, CANADIAN)
    log_in(phone, companion, "host", "#host")
    expect(phone.locator(".picker[data-player='0'] .deck [data-card^=E]")).to_have_text(
        ["E1", "E2", "E3"])


def test_host_preview_says_a_row_breaking_an_enchantment_is_refused(companion, phone):
    start(companion, DOUBLES)
    # Bea (Rich) enchants Cy with her Enchant-2: exactly 2 cards, no Enchantment.
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
                     "support": {"player": 1, "cards": ["E2", "B1"], "enchant": 2}})
    log_in(phone, companion, "host", "#host")
    hit = phone.locator("fieldset[data-action=shot]")
    cy = hit.locator(".picker[data-player='2']")
    di = hit.locator(".picker[data-player='3']")
    di.locator("[data-card=B0]").click()
    cy.locator("[data-card=R1]").click()
    words = engine_refusal(companion, {"type": "shot", "player": 2, "cards": ["R1", "E3"],
                                       "enchant": 0,
                                       "support": {"player": 3, "cards": ["B0"]}})
    assert words == "Cy is under Rich's Enchant-2: play exactly 2 cards, no Enchantment"
    expect(hit.locator(".landing")).to_have_text(f"Refused: {words}")  # one card: refused too
    expect(hit.locator(".send")).to_be_disabled()
    cy.locator("[data-card=E3]").click()
    hit.locator("button", has_text="Ann").last.click()  # whom Cy's Enchantment binds
    expect(hit.locator(".landing")).to_have_text(f"Refused: {words}")
    expect(hit.locator(".landing")).to_have_class("landing refused")
    expect(hit.locator(".preview .path")).to_have_count(0)  # it lands nowhere: not recorded
    expect(hit.locator(".send")).to_be_disabled()
    shot(phone, "slam-host-refused-preview")
    cy.locator(".cardrow button", has_text="E3").click()
    cy.locator("[data-card=B0]").click()
    expect(hit.locator(".landing")).to_contain_text("Lands")
    expect(hit.locator(".send")).to_be_enabled()
    hit.locator(".send").click()
    expect(phone.locator("#board .status.now")).to_contain_text("Ann & Bea to hit")
    assert events(companion)[-1]["cards"] == ["R1", "B0"]


def test_host_preview_lets_laurie_s_ability_ignore_the_enchantment(companion, phone):
    start(companion, DOUBLES)
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
                     "support": {"player": 1, "cards": ["B2"]}},
         {"type": "shot", "player": 2, "cards": ["R2"],
          "support": {"player": 3, "cards": ["B0", "E2"], "enchant": 0}})
    log_in(phone, companion, "host", "#host")
    hit = phone.locator("fieldset[data-action=shot]")
    ann = hit.locator(".picker[data-player='0']")
    ann.locator("[data-card=R2]").click()
    hit.locator(".picker[data-player='1'] [data-card=B0]").click()
    expect(hit.locator(".landing")).to_have_text(
        "Refused: Ann is under Enchant-2: play exactly 2 cards")
    expect(hit.locator(".send")).to_be_disabled()
    ann.get_by_label("Laurie's ability").check()
    expect(hit.locator(".landing")).to_have_text("Lands c3 r4: in")
    hit.locator(".send").click()
    expect(phone.locator("#board .players li").nth(0)).to_contain_text("ability used")


def test_host_preview_lets_a_canadian_single_obey_either_enchantment(companion, phone):
    start(companion, CANADIAN)
    # Ann plays alone; Bea and Cy bind her with an Enchant-2 and an Enchant-3.
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]},
         {"type": "shot", "player": 1, "cards": ["E2", "R1"],
          "support": {"player": 2, "cards": ["E3"]}})
    log_in(phone, companion, "host", "#host")
    hit = phone.locator("fieldset[data-action=shot]")
    expect(hit.locator(".duty")).to_have_text(
        "Ann must play exactly 2 or 3 cards (Enchanted by Bea and Cy)")
    words = engine_refusal(companion, {"type": "shot", "player": 0, "cards": ["B0"]})
    hit.locator("[data-card=B0]").click()
    expect(hit.locator(".landing")).to_have_text(f"Refused: {words}")
    assert words == "Ann is under Enchant-2 and Enchant-3: play exactly 2 or 3 cards"
    hit.locator("[data-card=B0]").click()
    expect(hit.locator(".landing")).to_contain_text("Lands")
    hit.locator("[data-card=B1]").click()
    expect(hit.locator(".landing")).to_contain_text("Lands")
    expect(hit.locator(".send")).to_be_enabled()


def test_host_picker_says_when_the_table_moved_on_and_keeps_picks_otherwise(companion, phone):
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    serve.locator("[data-card=B1]").click()
    serve.locator("[data-card=B2]").click()
    # A mulligan from the panel: the same serve is due, the picks stay.
    play(companion, {"type": "mulligan", "player": 1})
    expect(phone.locator("fieldset[data-action=mulligan] button")).to_have_text(
        ["Ann 8→7", "Bob 9→8"])
    expect(serve.locator(".cardrow button")).to_have_text(["B1 ×", "B2 ×"])
    expect(serve.locator(".moved")).to_have_count(0)
    # The panel serves instead: the picks are for a turn that is gone, and the page says so.
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "B2"]})
    hit = phone.locator("fieldset[data-action=shot]")
    expect(hit.locator(".moved")).to_have_text(
        "The table moved on (a shot or a point was recorded elsewhere): pick again")
    expect(hit.locator(".cardrow button")).to_have_count(0)
    shot(phone, "slam-host-moved-on")
    hit.locator("[data-card=R2]").click()
    expect(hit.locator(".moved")).to_have_count(0)
    hit.locator("[data-card=E2]").click()
    hit.locator(".send").click()
    # The host's own tap moved the table on: nothing to say.
    expect(phone.locator("fieldset[data-action=shot] legend")).to_have_text("Ann hit · rally 2")
    expect(phone.locator(".moved")).to_have_count(0)


def test_host_refusal_stays_with_its_table_and_clears_when_the_table_moves_on(companion, phone):
    start(companion, DOUBLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    ann = serve.locator(".picker[data-player='0']")
    bea = serve.locator(".picker[data-player='1']")
    # Both of Ann & Bea's Enchantments on Cy: the page never offers it (Bea's can only
    # bind Di), so the request is rewritten on its way for the rules to refuse it.
    ann.locator("[data-card=B1]").click()
    ann.locator("[data-card=E2]").click()
    ann.locator("button", has_text="Cy").click()
    bea.locator("[data-card=B1]").click()
    bea.locator("[data-card=E3]").click()

    def both_on_cy(route):
        body = json.loads(route.request.post_data)
        body["support"]["enchant"] = 2
        route.continue_(post_data=json.dumps(body))

    phone.route("**/api/action", both_on_cy)
    serve.locator(".send").click()
    message = phone.locator("#message")
    expect(message).to_contain_text("two teammates cannot enchant the same opponent")
    # The panel plays on: the refusal was about a table that is gone.
    play(companion, {"type": "point", "winner": 1})
    expect(phone.locator("#board .score tr[data-side='1'] .points")).to_have_text("1")
    expect(message).to_have_text("")


def test_host_stale_tap_is_said_in_plain_words_and_kept_until_the_next_change(companion, phone):
    start(companion, {**SINGLES, "options": {**SINGLES["options"], "target": 2}})
    # The page hears nothing live: the panel's point below is unseen when the host taps.
    phone.route("**/api/events*", lambda route: route.abort())
    log_in(phone, companion, "host", "#host")
    play(companion, {"type": "point", "winner": 1})
    score = phone.locator("#board .score tr[data-side='1'] .points")
    expect(score).to_have_text("0")
    phone.locator("fieldset[data-action=point] button", has_text="Point Bob").click()
    message = phone.locator("#message")
    expect(message).to_have_text("Someone else changed the table just before your tap: "
                                 "nothing was recorded. Here is the table now.")
    expect(score).to_have_text("1")  # the table as it is now, the reason beside it
    expect(message).to_contain_text("Someone else changed the table")
    assert match(companion)["view"]["sides"][1]["score"] == 1  # the tap was not applied
    shot(phone, "slam-host-stale-tap")
    # The page hears the table again, and the panel plays on: the message has had its day.
    phone.unroute("**/api/events*")
    play(companion, {"type": "point", "winner": 1})
    expect(phone.locator("#board .head")).to_have_text("Bob wins 2-0", timeout=10000)
    expect(message).to_have_text("")


def test_spectator_court_leaves_a_shot_that_did_not_decide_the_point_unjudged(companion, phone):
    start(companion, SINGLES)
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "B2"]},
         {"type": "point", "winner": 0})  # Bob did not return Ann's serve: it decided the point
    phone.goto(url(companion))
    board = phone.locator("#board")
    court_svg = board.locator("svg.court")
    expect(court_svg.locator(".path.faded .result")).to_have_text("IN")
    expect(board.locator(".status.last")).to_contain_text("Last shot (Ann): c1 r1 → c3 r4, in")
    # The next point is awarded with no shot at all: no earlier point's shot is drawn.
    play(companion, {"type": "point", "winner": 1, "reason": "out"})
    expect(board.locator(".status.last")).to_have_text("Last point: Bob scores: out")
    expect(court_svg.locator(".path")).to_have_count(0)
    expect(court_svg).to_have_attribute("aria-label",
                                        "Court, 3 columns by 4 rows. No ball in play.")
    # Ann serves in, then a button gives her the point as out (Bob's return, not entered,
    # went out): her serve is drawn unjudged.
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B1", "B2"]},
         {"type": "point", "winner": 0, "reason": "out"})
    expect(board.locator(".status.last")).to_have_text("Last point: Ann scores: out")
    expect(court_svg.locator(".path.faded")).to_have_count(1)  # where it went, faded...
    expect(court_svg.locator(".path .result")).to_have_count(0)  # ...and no result beside it
    expect(court_svg).to_have_attribute(
        "aria-label", "Court, 3 columns by 4 rows. No ball in play. "
        "Shot before the point was awarded by Ann: c1 r1 to c3 r4.")
    shot(phone, "slam-spectator-point-without-shot")


def test_the_phone_court_faces_the_way_the_oled_does(companion, phone):
    """Side 0's baseline (row 1) at the top, as on the OLED and in the score rows."""
    start(companion, SINGLES)
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})  # (2, 4)
    phone.goto(url(companion))
    court_svg = phone.locator("#board svg.court")
    expect(court_svg.locator(".ball")).to_have_count(1)
    names = court_svg.locator(".sidename")
    tops = [float(names.nth(i).get_attribute("y")) for i in range(2)]
    assert [names.nth(i).text_content() for i in range(2)] == ["Ann", "Bob"]
    assert tops[0] < tops[1]
    net = float(court_svg.locator(".net").get_attribute("y1"))
    start_y = float(court_svg.locator(".path .from").get_attribute("cy"))
    ball_y = float(court_svg.locator(".ball").get_attribute("cy"))
    assert start_y < net < ball_y  # from Ann's baseline at the top over the net to row 4


def test_a_pair_of_the_longest_names_is_written_a_name_a_line_beside_the_court(companion,
                                                                                  phone):
    """Two 16-capital names of a side were squeezed into one line the court's width:
    unreadable at 320 px. Each name now has a line of its own, readable (not squeezed),
    in the margin beyond its end of the court."""
    long = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]
    start(companion, {**DOUBLES, "players": long})
    phone.set_viewport_size({"width": 320, "height": 640})
    phone.goto(url(companion))
    court_svg = phone.locator("#board svg.court")
    names = court_svg.locator(".sidename")
    # (the pair's " &" goes where it would squeeze the line: two lines read as a pair)
    expect(names).to_have_text(["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB",
                                "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"])
    court = court_svg.locator("rect.lines").bounding_box()
    svg = court_svg.bounding_box()
    for i in range(4):
        assert names.nth(i).get_attribute("textLength") is None  # not squeezed
        box = names.nth(i).bounding_box()
        assert svg["x"] <= box["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"]
        if i < 2:  # the first side's names above the court, the other's below it
            assert svg["y"] <= box["y"] and box["y"] + box["height"] <= court["y"] + 1
        else:
            assert court["y"] + court["height"] - 1 <= box["y"]
            assert box["y"] + box["height"] <= svg["y"] + svg["height"]
    shot(phone, "slam-spectator-long-pairs-320")


# --- second-round rulings on the host page ---------------------------------------------


def test_host_point_form_offers_only_the_points_the_record_allows(companion, phone):
    start(companion, SINGLES)
    log_in(phone, companion, "host", "#host")
    form = phone.locator("fieldset[data-action=point]")
    expect(form.locator("button")).to_have_text(["Point Ann", "Point Bob"])
    # Before the serve a bad serve is the receivers' point: Ann, who serves, cannot have it.
    form.locator("select").select_option("bad_serve")
    expect(form.locator("button", has_text="Point Ann")).to_be_disabled()
    expect(form.locator("button", has_text="Point Bob")).to_be_enabled()
    expect(form.locator(".hint")).to_have_text("A bad serve is the receivers' point (Bob)")
    shot(phone, "slam-host-point-bad-serve")
    # Once the serve is recorded, the point is the side's that hit last, never a bad serve.
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    expect(form.locator("button")).to_have_text(["Point Ann"])
    expect(form.locator("option")).to_have_text(["no return", "declined", "out", "net"])
    expect(form.locator(".hint")).to_have_text("Ann hit last: the point is theirs")
    form.locator("select").select_option("out")
    form.locator("button").click()
    expect(phone.locator("#board .score tr[data-side='0'] .points")).to_have_text("1")
    assert events(companion)[-1] == {"type": "point", "winner": 0, "reason": "out"}


def test_host_sends_laurie_s_ability_on_the_serve_as_the_support(companion, phone):
    start(companion, DOUBLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    serve.locator("button", has_text="Bea").click()  # Bea serves, Ann (Laurie) supports
    serve.locator("button", has_text="Blue").click()
    serve.locator(".picker[data-player='1'] [data-card=R1]").click()
    ann = serve.locator(".picker[data-player='0']")
    expect(serve.locator("input[type=checkbox]")).to_have_count(1)  # Ann's only
    ann.get_by_label("Laurie's ability").check()
    ann.locator("[data-card=R2]").click()
    expect(ann.locator("[data-card=R1]")).to_be_disabled()  # one card fills her row
    expect(serve.locator(".landing")).to_have_text("Lands c2 r4: in")
    serve.locator(".send").click()
    expect(phone.locator("#board .players li").nth(0)).to_contain_text("ability used")
    assert events(companion)[-1] == {"type": "serve", "player": 1, "corner": "blue",
                                     "cards": ["R1"],
                                     "support": {"player": 0, "cards": ["R2"],
                                                 "ability": True}}
    assert match(companion)["view"]["stats"]["abilities"] == [1, 0, 0, 0]


def test_host_offers_simon_s_copy_only_until_he_uses_the_copied_ability(companion, phone):
    start(companion, {"game": "alakaslam", "players": ["Ann", "Bob"],
                      "options": {"characters": ["simon", "toots"]}})
    log_in(phone, companion, "host", "#host")
    copy = phone.locator("fieldset[data-action=copy]")
    copy.locator("select").select_option("toots")
    copy.locator("button").click()
    expect(phone.locator("#board .players li").nth(0)).to_contain_text("copies Toots")
    expect(copy).to_have_count(1)  # before its use he may still change his mind
    phone.locator("fieldset[data-action=ability] button",
                  has_text="Ann's ability (Toots)").click()
    expect(phone.locator("#board .players li").nth(0)).to_contain_text("ability used")
    expect(copy).to_have_count(0)
    # A copy sent anyway (another client) is refused with the reason, nothing applied.
    version = companion.table.version
    answer = phone.evaluate("""async () => {
      const r = await fetch('/api/action', {method: 'POST', headers: {'Content-Type':
        'application/json', 'X-CSRF-Token': TC.csrf}, body: JSON.stringify({type: 'copy',
        player: 0, character: 'toots'})});
      return [r.status, await r.json()];
    }""")
    assert answer[0] == 409 and answer[1]["error"] == (
        "Ann has used Toots's ability this point: no new copy until the next point")
    assert companion.table.version == version


def test_host_offers_the_support_only_the_opponent_the_player_at_the_ball_left(companion,
                                                                               phone):
    start(companion, DOUBLES)
    log_in(phone, companion, "host", "#host")
    serve = phone.locator("fieldset[data-action=serve]")
    ann = serve.locator(".picker[data-player='0']")
    bea = serve.locator(".picker[data-player='1']")
    ann.locator("[data-card=B1]").click()
    ann.locator("[data-card=E2]").click()
    bea.locator("[data-card=B1]").click()
    bea.locator("[data-card=E3]").click()
    expect(ann.locator("[data-key^=enchant-]")).to_have_text(["Cy", "Di"])
    ann.locator("button", has_text="Cy").click()
    # Two teammates never bind the same opponent: Bea's can only be Di, chosen for her.
    expect(bea.locator("[data-key^=enchant-]")).to_have_text(["Di"])
    expect(bea.locator("[data-key=enchant-1-3]")).to_have_attribute("aria-pressed", "true")
    ann.locator("button", has_text="Di").click()
    expect(bea.locator("[data-key^=enchant-]")).to_have_text(["Cy"])
    serve.locator(".send").click()
    expect(phone.locator("fieldset[data-action=shot]")).to_be_visible()
    assert events(companion)[-1] == {
        "type": "serve", "player": 0, "corner": "red", "cards": ["B1", "E2"], "enchant": 3,
        "support": {"player": 1, "cards": ["B1", "E3"], "enchant": 2}}


def test_host_offers_josephias_s_ability_only_in_his_sides_draw_phase(companion, phone):
    start(companion, {"game": "alakaslam", "players": ["Ann", "Bob", "Cid"],
                      "options": {"characters": ["austin", "josephias", "rich"]}})
    log_in(phone, companion, "host", "#host")
    expect(phone.locator("fieldset[data-action=serve]")).to_be_visible()
    ability = phone.locator("fieldset[data-action=ability]")
    expect(ability).to_have_count(0)  # before the serve: no draw phase
    play(companion, {"type": "serve", "player": 0, "corner": "red", "cards": ["B3"]})
    expect(phone.locator("fieldset[data-action=shot]")).to_be_visible()
    expect(ability).to_have_count(0)  # Bob & Cid to hit: not yet their draw
    play(companion, {"type": "shot", "player": 1, "cards": ["R2"],
                     "support": {"player": 2, "cards": ["B0"]}})
    expect(ability.locator("button")).to_have_text(["Bob's ability (Josephias)"])
    ability.locator("button").click()
    expect(ability).to_have_count(0)
    assert events(companion)[-1] == {"type": "ability", "player": 1}
