"""The host's page run with one thumb on a phone (390x844, Debian's chromium): every
control a short match needs is on the first screen or in the bar at its bottom, nothing is
offered that the rules refuse, the New match form folds away during a match and is filled
from the last one, errors are said beside the control that caused them."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.browser_support import (
    PHONE,
    accessibility_problems,
    log_in,
    play,
    require_chromium,
    shot,
    start,
)

sync_api = require_chromium()
expect = sync_api.expect

#: The smallest target a thumb hits reliably (WCAG 2.5.5), in CSS pixels.
TARGET = 44


class Thumb:
    """Taps the host's controls as a thumb would: only what is on the screen (not under
    the bar, unless in it), never scrolling; each tap waits for the controls of the
    state it made. Every scroll position seen is kept."""

    def __init__(self, page, companion):
        self.page = page
        self.companion = companion
        self.scrolls: list[float] = []

    def in_reach(self, locator) -> None:
        b = locator.bounding_box()
        assert b is not None, locator
        bar = self.page.locator("#bar").bounding_box()
        in_bar = locator.evaluate("(e) => e.closest('#bar') !== null")
        bottom = PHONE["height"] if in_bar else bar["y"]
        assert b["y"] >= 0 and b["y"] + b["height"] <= bottom + 0.5, (locator, b, bar)
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (locator, b)
        assert b["height"] >= TARGET and b["width"] >= TARGET, (locator, b)

    def tap(self, locator) -> None:
        """Tap ``locator`` (on screen already) and wait for the table's answer drawn."""
        self.in_reach(locator)
        version = self.companion.table.version
        self.scrolls.append(self.page.evaluate("scrollY"))
        locator.click()
        self.page.wait_for_function(
            "(v) => Number(document.getElementById('actions').dataset.version) > v", arg=version)
        self.scrolls.append(self.page.evaluate("scrollY"))

    def pick(self, locator) -> None:
        """A tap that changes only the page (a space, a card): no table change to wait for."""
        self.in_reach(locator)
        locator.click()


def targets_are_large(page) -> None:
    """Every control on the screen in the controls and the bar is a thumb's size."""
    sizes = page.evaluate("""() => [...document.querySelectorAll(
        '#actions button, #actions select, #bar button,'
        + '#actions label:has(> input[type=checkbox])')]
      .filter((e) => e.offsetParent !== null)
      .map((e) => { const r = e.getBoundingClientRect();
                    return [e.textContent.trim() || e.outerHTML.slice(0, 60),
                            r.width, r.height]; })""")
    small = [s for s in sizes if s[1] < TARGET or s[2] < TARGET]
    assert sizes and not small, small


def start_from_the_form(page, game: str, players: list[str], options: dict[str, str]) -> None:
    """Fill in the New match form (open while the table is empty) and tap Start."""
    expect(page.locator("#new-match")).to_have_attribute("open", "")
    page.select_option("#game", game)
    expect(page.locator("#players input").first).to_be_visible()
    page.wait_for_function("(g) => document.querySelector('#players input') && "
                           "document.getElementById('game').value === g", arg=game)
    for i, name in enumerate(players):
        page.locator("#players input").nth(i).fill(name)
    for key, label in options.items():
        page.locator(f"#options [name={key}]").select_option(label=label)
    page.click("#start button[type=submit]")


def after_start(page) -> None:
    """The form folds and the host is taken to the controls, drawn for the new match."""
    expect(page.locator("#new-match")).not_to_have_attribute("open", "")
    expect(page.locator("#start")).to_be_hidden()
    page.wait_for_function("() => scrollY === 0")
    targets_are_large(page)


def nothing_left_to_offer(page) -> None:
    """A won match: no game control anywhere, Undo still there, the form open again."""
    expect(page.locator("#actions button, #actions fieldset")).to_have_count(0)
    expect(page.locator("#quick button, #quick select, #quick input")).to_have_count(0)
    # The quick actions' row says how it ended instead (the bar keeps its height).
    expect(page.locator("#quick .over")).to_have_text(re.compile(r" won$|^Over$"))
    expect(page.locator("#bar")).not_to_contain_text("End")
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#end")).to_be_hidden()
    expect(page.locator("#new-match")).to_have_attribute("open", "")


def begin(page, companion, game: str, players: list[str], options: dict[str, str]) -> Thumb:
    """Log in on an empty table, start the match from the form: the thumb that runs it."""
    log_in(page, companion, "host", "#host")
    thumb = Thumb(page, companion)
    start_from_the_form(page, game, players, options)
    after_start(page)
    return thumb


def won(page, thumb: Thumb, name: str) -> None:
    """The match is won: nothing left to offer, and the page never scrolled while the
    match was run (one screen of controls)."""
    nothing_left_to_offer(page)
    assert thumb.scrolls and max(thumb.scrolls) == 0, thumb.scrolls
    shot(page, f"host-thumb-{name}-won")


def test_the_host_runs_a_center_court_match_with_one_thumb(companion, phone):
    thumb = begin(phone, companion, "center-court", ["Ann", "Bob"], {"sets": "Best of 1"})
    expect(phone.locator("#bar")).to_contain_text("Point Ann")
    thumb.tap(phone.locator("#actions button", has_text="Serve 4"))
    expect(phone.locator("#actions")).to_contain_text("Return 4")
    thumb.tap(phone.locator("#bar button", has_text="Point Ann"))
    shot(phone, "host-thumb-cc")
    for _ in range(23):
        thumb.tap(phone.locator("#bar button", has_text="Point Ann"))
    expect(phone.locator("#board .head")).to_have_text("Ann wins 6-0")
    won(phone, thumb, "cc")


def test_the_host_runs_a_dodgeball_match_with_one_thumb(companion, phone):
    thumb = begin(phone, companion, "wizard-dodgeball", ["Owls", "Newts"], {"target": "3 points"})
    shot(phone, "host-thumb-dodgeball")
    while companion.table.snapshot.match["status"] == "active":
        thumb.tap(phone.locator("fieldset[data-action=throw] button", has_text="Hit (we rolled)"))
        if companion.table.snapshot.match["status"] == "active":
            thumb.tap(phone.locator("#bar button", has_text="activation"))
    assert [s["score"] for s in companion.table.snapshot.match["view"]["sides"]] == [3, 2]
    # Won: no End activation (the rules refuse it), no throw.
    won(phone, thumb, "dodgeball")


def test_the_host_runs_an_alakaslam_match_with_one_thumb(companion, phone):
    thumb = begin(phone, companion, "alakaslam", ["Ann", "Bob"], {"target": "2 points"})
    serve = phone.locator("fieldset[data-action=serve]")
    thumb.pick(serve.locator("[data-card=B2]"))
    expect(serve.locator(".landing")).to_contain_text("Lands")
    # Where it lands is read on the screen, above the Serve button kept over the bar.
    landing = serve.locator(".landing").bounding_box()
    assert landing["y"] >= 0 and landing["y"] + landing["height"] <= \
        serve.locator("button.send").bounding_box()["y"], landing
    shot(phone, "host-thumb-slam")
    thumb.tap(serve.locator("button.send"))  # the Serve button, kept above the bar
    thumb.tap(phone.locator("fieldset[data-action=point] button", has_text="Point Ann"))
    serve = phone.locator("fieldset[data-action=serve]")
    thumb.pick(serve.locator("[data-card=R0]"))
    expect(serve.locator(".landing")).to_contain_text("point to")
    thumb.tap(serve.locator("button.send"))  # Bob's bad serve: Ann's second point
    view = companion.table.snapshot.match["view"]
    assert view["winner"] == 0 and [s["score"] for s in view["sides"]] == [2, 0]
    won(phone, thumb, "slam")


def test_the_host_runs_an_alakazoo_match_with_one_thumb(companion, phone):
    thumb = begin(phone, companion, "alakazoo", ["Ann", "Bob"], {"first_player": "Ann"})
    display = phone.locator("fieldset[data-action=display]")

    def put(space: int, creature: int) -> None:
        thumb.pick(display.locator(f"button[data-space='{space}']"))
        thumb.tap(display.locator(f"button[data-creature='{creature}']"))

    # What the Magic Power allows a turn (actions not recorded: 3 tokens a turn, 2 a
    # display): two, one, two, ...; Bob passes his turns meanwhile.
    for batch in ([(1, 1), (2, 1)], [(3, 1)], [(4, 2), (5, 3)], [(6, 4)], [(7, 1), (8, 1)]):
        for space, creature in batch:
            put(space, creature)
        for _ in range(2):
            thumb.tap(phone.locator("#bar [data-action=end_turn]"))
        expect(phone.locator("#board .head")).to_contain_text("Ann's turn")
    shot(phone, "host-thumb-zoo")
    put(9, 3)  # a Unicorn: Unicorn and Phoenix fill the two-player deck
    thumb.tap(phone.locator("#bar [data-action=end_turn]"))
    put(1, 2)
    thumb.tap(phone.locator("#bar [data-action=end_turn]"))
    expect(phone.locator("#board .places li.won")).to_contain_text("1st Ann")
    won(phone, thumb, "zoo")


def test_the_new_match_form_folds_during_a_match_and_is_filled_from_the_last(companion,
                                                                            phone):
    log_in(phone, companion, "host", "#host")
    start_from_the_form(phone, "center-court", ["Ann", "Bob"],
                        {"sets": "Best of 1", "no_ad": "No-ad"})
    expect(phone.locator("#new-match")).not_to_have_attribute("open", "")
    expect(phone.locator("#start")).to_be_hidden()
    expect(phone.locator("#new-match > summary")).to_be_visible()
    shot(phone, "host-thumb-folded")
    # The match ends without a result (a confirmed abandon): the table is empty, and the
    # form opens filled from the match that was.
    phone.once("dialog", lambda d: d.accept())
    phone.locator("#new-match > summary").click()
    phone.click("#end")
    expect(phone.locator("#board")).to_contain_text("No match")
    expect(phone.locator("#new-match")).to_have_attribute("open", "")
    expect(phone.locator("#game")).to_have_value("center-court")
    expect(phone.locator("#players input").nth(0)).to_have_value("Ann")
    expect(phone.locator("#players input").nth(1)).to_have_value("Bob")
    expect(phone.locator("#options [name=sets] option:checked")).to_have_text("Best of 1")
    expect(phone.locator("#options [name=no_ad] option:checked")).to_have_text("No-ad")
    # A match of another game, started and won on the panel: the form folds, then opens
    # on that game with its players once it is won.
    start(companion, {"game": "alakazoo", "players": ["Cleo", "Dan"],
                      "options": {"first_player": 1, "portals": [2, 3],
                                  "dark_power_reset": False}})
    expect(phone.locator("#new-match")).not_to_have_attribute("open", "")
    three = [{"type": "dark_power", "reason": "hand"}] * 3
    shown = [{"type": "display", "space": 1, "creature": c} for c in (1, 4)]
    play(companion, shown[0], *three, {"type": "end_turn"}, shown[1], *three,
         {"type": "end_turn"})
    assert companion.table.snapshot.match["status"] == "finished"
    expect(phone.locator("#new-match")).to_have_attribute("open", "")
    expect(phone.locator("#game")).to_have_value("alakazoo")
    expect(phone.locator("#players input").nth(0)).to_have_value("Cleo")
    expect(phone.locator("#players input").nth(1)).to_have_value("Dan")
    expect(phone.locator("[name=first_player] option:checked")).to_have_text("Dan")
    expect(phone.locator(".zoo-setup select").nth(0)).to_have_value("2")
    shot(phone, "host-thumb-refilled")


def announced_beside(page, selector: str) -> None:
    """The message is right after ``selector``, on the screen, announced."""
    message = page.locator(f"{selector} + #message")
    expect(message).not_to_be_empty()
    expect(message).to_have_attribute("aria-live", "assertive")
    expect(message).to_have_attribute("role", "alert")
    # The page scrolls it into view on the frame after it is said: wait for that frame.
    expect(message).to_be_in_viewport(ratio=1)
    b = message.bounding_box()
    assert b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"], b


def test_errors_are_said_beside_the_control_that_caused_them(companion, phone):
    log_in(phone, companion, "host", "#host")
    # A Start the table refuses, at the bottom of a long form: said beside Start, in view.
    start_from_the_form(phone, "wizard-dodgeball", ["Owls", "Owls"], {})
    announced_beside(phone, "#start button[type=submit]")
    expect(phone.locator("#message")).to_contain_text("must differ")
    shot(phone, "host-thumb-start-error")
    phone.locator("#players input").nth(1).fill("Newts")
    phone.click("#start button[type=submit]")
    expect(phone.locator("#new-match")).not_to_have_attribute("open", "")
    expect(phone.locator("#message")).to_be_empty()
    # A cast the rules refuse (no target: the page offers no roll before a tick, so the
    # request is stripped of its target on its way): said under the cast form.
    cast = phone.locator("fieldset[data-action=cast]")
    rolls = cast.locator("button", has_text="Device rolls")
    expect(rolls).to_be_disabled()
    cast.locator("select").select_option(label="Freeze")
    cast.locator("input[type=checkbox]").first.check()

    def without_targets(route):
        body = json.loads(route.request.post_data)
        body["targets"] = []
        route.continue_(post_data=json.dumps(body))

    phone.route("**/api/action", without_targets)
    rolls.click()
    announced_beside(phone, "fieldset[data-action=cast]")
    expect(phone.locator("#message")).to_contain_text("needs at least one target")
    assert companion.table.match.events == ()
    shot(phone, "host-thumb-refusal")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_host_page_passes_axe_for_every_game(companion, phones, scheme):
    """No axe finding on the host's controls and bar of each game, with the form folded,
    and with the form open (the table empty)."""
    page = phones.open(PHONE, scheme)
    log_in(page, companion, "host", "#host")
    assert accessibility_problems(page) == []
    for setup in ({"game": "center-court", "players": ["Ann", "Bob"]},
                  {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
                   "options": {"rosters": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]}},
                  {"game": "alakaslam", "players": ["Ann", "Bob"],
                   "options": {"characters": ["austin", "sarissia"]}},
                  {"game": "alakazoo", "players": ["Ann", "Bob"]}):
        start(companion, setup)
        expect(page.locator("#new-match")).not_to_have_attribute("open", "")
        expect(page.locator("#actions button").first).to_be_visible()
        assert accessibility_problems(page) == [], setup["game"]
        shot(page, f"host-thumb-{setup['game']}-{scheme}")
        companion.runner.call(lambda t: t.abandon())
        expect(page.locator("#new-match")).to_have_attribute("open", "")
    assert accessibility_problems(page) == []


def test_a_stale_tap_in_the_bar_is_said_in_the_bar(companion, phone):
    """The bar's refusal is said in the bar, on the screen: here a point tapped on a table
    the panel has moved on from (the page gets no stream, so it cannot know)."""
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    phone.route("**/api/events*", lambda route: route.abort())
    log_in(phone, companion, "host", "#host")
    play(companion, {"type": "point", "winner": 1})
    phone.locator("#bar button", has_text="Point Ann").click()
    message = phone.locator("#bar > #message")
    expect(message).to_contain_text("Someone else changed the table")
    expect(message).to_have_attribute("aria-live", "assertive")
    expect(message).to_be_in_viewport(ratio=1)
    b = message.bounding_box()
    assert b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"], b
    expect(phone.locator(".points").nth(1)).to_have_text("15")  # resynced: Bob's point
    assert companion.table.snapshot.match["view"]["points"] == ["0", "15"]
    shot(phone, "host-thumb-bar-refusal")


def test_a_tap_on_controls_drawn_for_an_older_state_is_refused_while_new_ones_load(
        companion, phone):
    """A match of another game starts while the host's page shows the old one's
    controls; until its scripts arrive the old controls stay, and a tap on them carries
    the state they were drawn for: refused, nothing applied to the new match."""
    # A finished match (one set won 6-0): the next starts in its place with no empty
    # table between the two, which the page would draw (no controls) before the new game.
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"],
                      "options": {"sets": 1, "first_server": 0}})
    play(companion, *[{"type": "point", "winner": 0}] * 24)
    assert companion.runner.call(lambda t: t.match.is_over)
    log_in(phone, companion, "host", "#host")
    expect(phone.locator("#undo")).to_be_enabled()
    held = []
    # The new game's scripts are held back: the page keeps the old controls meanwhile.
    phone.route("**/static/alakazoo*.js", lambda route: held.append(route))
    def another_match(table) -> None:
        table.start({"game": "alakazoo", "players": ["Cy", "Di"]})
        table.act({"type": "display", "space": 5, "creature": 1})

    with phone.expect_request("**/static/alakazoo*.js"):  # the new state has arrived
        companion.runner.call(another_match)
    expect(phone.locator("#undo")).to_be_enabled()  # still Center Court's controls
    phone.locator("#undo").click()  # drawn for Center Court: the table has moved on since
    expect(phone.locator("#message")).not_to_be_empty()
    view = companion.table.snapshot.match["view"]
    assert view["players"][0]["portal"][4] == 1  # the display stands
    for route in held:
        route.continue_()


#: The visible text of each name in the bar, and whether it fits its button unclipped.
BAR_NAMES = """() => [...document.querySelectorAll('#bar .who')].map((s) => [s.textContent,
  s.scrollWidth <= s.clientWidth, s.closest('button').title])"""


@pytest.mark.parametrize("names", [
    ["WWWWWWWWWWWWWWWA", "WWWWWWWWWWWWWWWB"],  # alike but for the last letter
    ["WWWWWWAWWWWWWWWW", "WWWWWWBWWWWWWWWW"],  # alike but for one letter in the middle
], ids=["end", "middle"])
def test_names_cut_in_the_bar_never_look_alike(companion, phone, names):
    """Two names cut to one line in the bar that would show the same start each show
    what tells them apart, at 320 and 390 px and after the phone turns; a tap on the
    second scores the second player's point."""
    start(companion, {"game": "center-court", "players": names})
    phone.set_viewport_size({"width": 320, "height": 640})
    log_in(phone, companion, "host", "#host")
    for viewport in ({"width": 320, "height": 640}, PHONE, {"width": 640, "height": 320},
                     {"width": 320, "height": 640}):
        phone.set_viewport_size(viewport)
        phone.wait_for_function(f"""() => {{
            const shown = ({BAR_NAMES})();
            return shown.length === 2 && shown[0][0] !== shown[1][0]
              && shown.every(([text, fits]) => fits && text.length > 2);
        }}""")
        shown = phone.evaluate(BAR_NAMES)
        assert [title for _, _, title in shown] == [f"Point {n}" for n in names]
        if viewport["width"] == 320:
            cut = [text for (text, _, _), name in zip(shown, names, strict=True) if text != name]
            assert len(cut) == 2 and all("…" in text for text in cut), shown
    shot(phone, f"host-bar-alike-names-{names[0][6]}")
    Thumb(phone, companion).tap(phone.get_by_role("button", name=f"Point {names[1]}"))
    assert companion.table.snapshot.match["view"]["points"] == ["0", "15"]
