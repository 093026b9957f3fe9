"""The OLED's message box never drops a word: every refusal the rules give, with the
widest names, fits the box or pages on, and a press shows the rest.

The refusals are collected by driving each game's rules into them: matches played
with 16-capital names, and at every step the actions the rules offer mutated into
ones they refuse (a field from another shape, out of range, missing, another type).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.errors import CompanionError
from companion.i18n import DOMAIN, LANGUAGES, words
from companion.inputs import Input
from companion.match import Match, StartRecord
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui import canvas
from companion.ui.controls import Context
from companion.ui.oled import render
from tests.screens.test_golden import GOLDEN, assert_golden
from tests.support import CATALOG

#: The widest names a phone accepts: 16 capitals (W is the widest letter).
WIDE = [f"{'W' * 15}{c}" for c in "ABCD"]
ROSTERS = [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]
STARTS = {
    "center-court": {"game": "center-court", "players": WIDE[:2], "options": {"sets": 1}},
    "wizard-dodgeball": {"game": "wizard-dodgeball", "players": WIDE[:2],
                         "options": {"rosters": ROSTERS,
                                     "dice": {"d6": [1, 1, 2, 2, 3, 3]},
                                     "wizards": {str(j): {"name": f"{'W' * 31}{j % 10}"}
                                                 for j in ROSTERS[0] + ROSTERS[1]}}},
    "wizard-dodgeball-advanced": {"game": "wizard-dodgeball", "players": WIDE[:2],
                                  "options": {"rosters": ROSTERS, "turn": "advanced",
                                              "variant": "elimination"}},
    "alakaslam": {"game": "alakaslam", "players": WIDE,
                  "options": {"characters": ["toots", "laurie", "wendolyn", "sarissia"]}},
    "alakaslam-canadian": {"game": "alakaslam", "players": WIDE[:3],
                           "options": {"characters": ["rich", "josephias", "simon"]}},
    "alakazoo": {"game": "alakazoo", "players": WIDE, "options": {}},
}
#: Values that are no one's: off the ends of every range a field takes.
STRAYS = (-1, 0, 4, 7, 99, "x", None, [], {})


def mutations(match: Match, rng: random.Random, types: set[str]) -> Iterator[dict]:
    """Actions near what ``match`` offers now: each offered shape with one field taken
    from another shape's values, from :data:`STRAYS`, or left out, and each shape as
    another type (of ``types``, those offered so far in the match)."""
    shapes = match.game.legal(match.state)
    pool: dict[str, list] = {}
    for shape in shapes:
        for key, value in shape.items():
            pool.setdefault(key, []).extend(value if isinstance(value, list) else [value])
    types.update(s["type"] for s in shapes)
    for shape in shapes:
        base = {k: (rng.choice(v) if isinstance(v, list) and v else v)
                for k, v in shape.items()}
        for key in base:
            if key == "type":
                continue
            for value in rng.sample(pool[key], k=min(4, len(pool[key]))) + list(STRAYS):
                yield {**base, key: value}
            yield {k: v for k, v in base.items() if k != key}
        for kind in sorted(types):
            yield {**base, "type": kind}


def refusals(start: dict, seed: int, steps: int = 40) -> set[str]:
    """The messages the rules refused with over a match played at random from ``seed``."""
    rng = random.Random(seed)
    match = Match(StartRecord.create(start, rng, CATALOG), CATALOG)
    said: set[str] = set()
    types: set[str] = set()
    for _ in range(steps):
        shapes = match.game.legal(match.state)
        if not shapes:
            break
        for action in mutations(match, rng, types):
            try:
                match.resolve(action, rng)
            except CompanionError as err:
                said.add(str(err))
        shape = rng.choice(shapes)
        action = {k: (rng.choice(v) if isinstance(v, list) and v else v)
                  for k, v in shape.items()}
        try:
            match.push(*match.resolve(action, rng))
        except CompanionError:
            continue
    return said


def every_refusal() -> dict[str, set[str]]:
    return {game: set().union(*(refusals(start, seed) for seed in range(4)))
            for game, start in STARTS.items()}


REFUSALS = every_refusal()


@pytest.mark.parametrize("game", STARTS)
def test_every_refusal_fits_the_box_or_pages_with_nothing_lost(game):
    said = REFUSALS[game]
    assert len(said) >= 20  # the rules were driven into many refusals, not a few
    for message in said:
        pages = canvas.pages(message)
        assert all(len(page) <= canvas.BOX_LINES for page in pages)
        lines = [line for page in pages for line in page]
        assert all(canvas.text_width(line, canvas.SMALL) <= canvas.BOX_TEXT for line in lines)
        # Every character but the spaces the lines break at, in order.
        assert "".join(lines).replace(" ", "") == message.replace(" ", ""), message
        assert len(pages) == 1 or all(len(page) == canvas.BOX_LINES - 1 for page in pages[:-1])


def longest() -> list[tuple[str, str]]:
    """Each game's refusal that takes the most lines (the first of them, sorted)."""
    out = []
    for game, said in REFUSALS.items():
        most = max(len(canvas.wrap(m, canvas.BOX_TEXT)) for m in said)
        out.append((game, min(m for m in said if len(canvas.wrap(m, canvas.BOX_TEXT)) == most)))
    return out


def panel_with(game: str) -> tuple[Table, Panel, Store]:
    store = Store(":memory:")
    table = Table(store, CATALOG, rng=random.Random(0))
    table.start(STARTS[game])
    return table, Panel(table, Context(CATALOG, names=tuple(WIDE))), store


LONGEST = longest()


@pytest.mark.parametrize(("game", "message"), LONGEST, ids=[game for game, _ in LONGEST])
def test_the_longest_refusals_page_on_the_board(game, message):
    """Golden images of each page of each game's longest refusal with the widest names;
    a press shows the next page, up to the last."""
    (GOLDEN / "refusals").mkdir(exist_ok=True)
    _table, panel, store = panel_with(game)
    with store:
        panel.notify(message)
        pages = canvas.pages(message)
        for page in range(len(pages)):
            assert panel.state.ui.page == page
            assert_golden(render(panel.state, panel.ctx),
                          f"refusals/{game}-{page + 1}of{len(pages)}")
            panel.handle(Input("ok"))
        assert panel.state.ui.message is None  # the last page's press dismissed it


def test_a_press_on_a_page_with_more_to_come_turns_it_and_does_nothing_else():
    """Under the first page of a long message a press meant for the board (PREV: a
    point) shows the next page and awards nothing; every button says "More" until the
    last page, whose press acts as on any message."""
    table, panel, store = panel_with("center-court")
    with store:
        long = max((m for s in REFUSALS.values() for m in s),
                   key=lambda m: len(canvas.wrap(m, canvas.BOX_TEXT)))
        count = len(canvas.pages(long))
        assert count >= 3
        panel.notify(long)
        version = table.snapshot.version
        for page in range(count - 1):
            assert {panel.state.screen.label(b) for b in ("prev", "next", "ok", "back")} \
                == {"More"}
            panel.handle(Input("prev"))
            assert panel.state.ui.page == page + 1 and table.snapshot.version == version
        assert panel.state.screen.label("prev") != "More"
        panel.handle(Input("prev"))  # the last page: the press is the board's again
        assert panel.state.ui.message is None and table.snapshot.version == version + 1


def test_a_short_refusal_is_one_box_as_before():
    assert canvas.pages("Bob serves now, not Ann") == [("Bob serves now, not Ann",)]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_line_of_a_box_starts_with_a_closing_mark_set_apart(lang):
    # French sets a space before ":" ";" "!" "?": the box must not start a line with
    # the mark (seen in the French AlakaSLAM refusal "... Enchant-2 / : jouez ...").
    said = [m for m in words(lang, DOMAIN).values() if " :" in m or " ?" in m or " !" in m]
    if lang == "fr":
        assert len(said) > 50  # French's marks are there to be tested
    for message in said:
        # The box's line and narrower ones, down to where a word with its mark is wider
        # than the line and is broken inside (never before its mark).
        for width in range(60, canvas.BOX_TEXT + 1, 3):
            lines = canvas.wrap(message, width)
            assert not any(line[0] in canvas.CLOSING for line in lines), (message, lines)
            assert "".join(lines).replace(" ", "") == message.replace(" ", ""), message


def test_an_opening_mark_stays_with_its_word():
    lines = canvas.wrap("Il a dit « bonjour » puis « au revoir », et « à demain » enfin",
                        canvas.BOX_TEXT)
    assert not any(line.endswith("«") or line.startswith("»") for line in lines), lines
