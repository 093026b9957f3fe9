"""Alakazoo on the OLED in every shipped language (issue #40), German's long words
first: golden images of the game's screens in each language; every message the game's
panel and drawing make measured in the font and room of the place it is drawn with its
widest placeholders (a message of companion/games/alakazoo/{panel,oled,options}.py that no
box here names fails, so a new one is measured too); the event line keeps its words
with four 16-capital names; every refusal the rules make is read whole in the message
box."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from companion.games.alakazoo import oled
from companion.games.alakazoo.options import MAX_CREATURE, MAX_FACE
from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, _, speaking, translate
from companion.names import MIN_WIDTH, short_names
from companion.ui import canvas
from companion.ui.base import SOFT_KEY_CHARS
from tests.screens.test_language_goldens import assert_scene_in

#: German first: its words are the longest (English too, for the boxes: its goldens are
#: tests/screens/test_golden.py's).
ORDER = ["de", *(lang for lang in LANGUAGES if lang != "de")]
W = canvas.WIDTH
#: The widest values a placeholder takes on the OLED: a creature name or a face at its
#: longest, a name as the lists cut it (8 characters), the most dice and spaces.
WIDEST = {"space": 9, "creature": "W" * MAX_CREATURE, "name": "W" * 8, "held": 3, "most": 3,
          "die": 3, "dice": 3, "faces": " ".join(["W" * MAX_FACE] * 2), "round": 999,
          "spaces": "1 2 3 4 5 6 7 8 9"}
#: Where each message is drawn: (font, pixels of room). The board's right column starts
#: at the grid's side (oled.RIGHT); the jury's values at its right.
GRID_SIDE = W - oled.RIGHT
BOXES: dict[str, tuple[str, int]] = {
    # The board: the round beside the Dark Power pips (3 of them, 9 pixels each).
    "FINAL ROUND": (canvas.SMALL, W - oled.RIGHT - 3 * (oled.PIP + 2) - 4),
    "Round {round}": (canvas.SMALL, W - oled.RIGHT - 3 * (oled.PIP + 2) - 2),
    # The standings: the heading above the players' "6+8", the total at the right.
    "play+jury": (canvas.SMALL, 60 + 4 * 5 - 2), "total": (canvas.SMALL, W - 60 - 4 * 5),
    "ended: nobody could act": (canvas.SMALL, W), "Shared win": (canvas.BOLD, W),
    # The space picker, beside the grid.
    "Show on": (canvas.SMALL, GRID_SIDE), "Swap: a portal": (canvas.SMALL, GRID_SIDE),
    "Swap: hand card": (canvas.SMALL, GRID_SIDE), "Space {space}": (canvas.BOLD, GRID_SIDE),
    "empty": (canvas.SMALL, GRID_SIDE), "first: +1": (canvas.SMALL, GRID_SIDE),
    "spaces: {spaces}": (canvas.SMALL, W),
    # The jury: labels left of the values (two digits), the winner's mark under the grid.
    "In play": (canvas.SMALL, W - (oled.GRID + 14) - 12),
    "Rows": (canvas.SMALL, W - (oled.GRID + 14) - 12),
    "Columns": (canvas.SMALL, W - (oled.GRID + 14) - 12),
    "Pure": (canvas.SMALL, W - (oled.GRID + 14) - 12),
    "Total": (canvas.SMALL, W - (oled.GRID + 14) - 16),
    "WINNER": (canvas.SMALL, oled.GRID + 10), "JOINT WIN": (canvas.SMALL, oled.GRID + 10),
    # Titles: the inverted bar's small font across the screen.
    **{t: (canvas.SMALL, W - 2) for t in (
        "No space to pick", "Space {space}: first +1", "Swap {space}: {creature} for",
        "Swap {space} with", "{name}'s turn", "Dark Power {held}/{most}: why?",
        "Roll Spell Dice", "Die {die} of {dice}", "Magic Jury")},
    # List lines: the body font, less the cursor's margin and arrows.
    **{t: (canvas.BODY, W - 8) for t in (
        "No rune (dice)", "Magic Power > 6", "Hand > 4 cards", "Helper's trick",
        "Helper: hand swap", "Helper: column card", "End turn", "Dark Power +1",
        "Swap with a portal", "Swap for a card", "Take column/discard", "{creature} own +1",
        "{name}: {creature}")},
    # Hints: a small line across the screen.
    **{t: (canvas.SMALL, W) for t in (
        "hold OK: own dice", "nobody to swap with", "+1 Dark Power", "so far: {faces}")},
    # The start menu's rows: an option's label and its choice on one body line.
    "First": (canvas.BODY, 60), "3 DP pass": (canvas.BODY, 60), "Reset": (canvas.BODY, 60),
    "Keep": (canvas.BODY, 60), "Roll": (canvas.BODY, 60),
}
#: Soft keys: at most SOFT_KEY_CHARS characters, within a key's cell.
KEYS = ["More", "Show", "Roll", "End", "Jury", "Pick", "Back", "Swap"]
#: The event line's forms (measured by drawing them below) and the refusals' (read whole).
EVENT = ("companion/games/alakazoo/oled.py",)
DRAWN = ("companion/games/alakazoo/panel.py", "companion/games/alakazoo/oled.py",
         "companion/games/alakazoo/options.py")


def said(message: str, lang: str) -> str:
    return translate(_(message, **{k: v for k, v in WIDEST.items() if f"{{{k}}}" in message},
                       **({"other": WIDEST["name"]} if "{other}" in message else {})), lang)


def test_every_message_the_game_draws_has_its_box_here():
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    event_forms = {m.id for m in catalog if m.id and isinstance(m.id, str)
                   and any(path in EVENT for path, _line in m.locations)
                   and m.id.startswith(("{name", "{names", "Roll: {name}"))}
    drawn = {m.id for m in catalog if m.id and isinstance(m.id, str) and not m.context
             and any(path in DRAWN for path, _line in m.locations)
             and not m.id.startswith(("option ", "none ("))}  # options' refusals: the API's
    left = drawn - set(BOXES) - set(KEYS) - event_forms - set(oled.DARK_REASONS.values()) \
        - set(oled.SCORED.values()) - set(oled.SAID.values()) \
        - {"none", "{name} wins", "{name}: it is {current}'s turn"}  # wins: BOLD, fitted
    assert left == set(), "measure these on the OLED here"


@pytest.mark.parametrize("lang", ORDER)
def test_every_message_fits_its_box(lang):
    for message, (font, room) in BOXES.items():
        with speaking(lang):
            width = canvas.text_width(said(message, lang), font)
        assert width <= room, (lang, message, said(message, lang), width, room)
    for key in KEYS:
        text = translate(_(key), lang)
        assert len(text) <= SOFT_KEY_CHARS, (lang, key, text)
        with speaking(lang):
            assert canvas.text_width(text, canvas.SMALL) <= canvas.KEY_CELL - 2, (lang, key)


NAMES = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]
#: One of each event the board's last line says (the view's "last").
LASTS = [
    None,
    {"type": "display", "player": 0, "space": 9, "creature": 1, "scored": []},
    {"type": "display", "player": 0, "space": 9, "creature": 1,
     "scored": ["own", "first", "complete"]},
    *({"type": "dark_power", "player": 1, "reason": r, "gained": g}
      for r in oled.DARK_REASONS for g in (True, False)),
    {"type": "swap", "player": 2, "space": 9, "got": 1, "gave": 2, "other": None},
    {"type": "swap", "player": 2, "space": 9, "got": 1, "gave": 2, "other": 3},
    {"type": "roll", "player": 3, "faces": ["W" * MAX_FACE] * 3, "device": True},
    {"type": "column", "player": 0},
    {"type": "helper", "player": 0, "trick": "column", "gained": False},
    {"type": "helper", "player": 0, "trick": "hand", "gained": True},
    {"type": "helper", "player": 0, "trick": "hand", "gained": False},
    {"type": "end_turn", "player": 0, "passes": [{"player": 1, "reset": True}]},
    {"type": "end_turn", "player": 0, "passes": [{"player": q, "reset": True} for q in (1, 2, 3)]},
    {"type": "end_turn", "player": 0, "passes": []},
]


@pytest.mark.parametrize("lang", ORDER)
@pytest.mark.parametrize("first_roll", [None, 2])
def test_the_event_line_keeps_its_words_with_the_widest_names(lang, first_roll, monkeypatch):
    """Each event's shortest form fits with the names cut as short as a name is cut: the
    line never falls back to cutting the words (fit_names' last resort)."""
    cut: list[str] = []
    original = oled.fit_names

    def checked(names, *lines, width, name=canvas.SMALL):
        least = short_names(names, MIN_WIDTH * canvas.char_width(name),
                            lambda t: canvas.text_width(t, name))
        if canvas.text_width(lines[-1](least), name) > width:
            cut.append(translate(lines[-1](least)))
        return original(names, *lines, width=width, name=name)

    monkeypatch.setattr(oled, "fit_names", checked)
    creatures = ["W" * MAX_CREATURE] * 6
    for last in LASTS:
        for final in (False, True):
            view = {"players": [{"name": n} for n in NAMES], "last": last,
                    "creatures": creatures, "first_player": 2, "final_round": final,
                    "ender": 0}
            with speaking(lang):
                line = oled.event(view, {"first_roll": first_roll})
                assert canvas.text_width(line, canvas.SMALL) <= W
    assert cut == [], (lang, cut)


#: The refusals the rules make, each drawn in the message box (the panel's OK on a board
#: that pays for no display, the seat of a player whose turn it is not).
@pytest.mark.parametrize("lang", ORDER)
def test_the_rules_refusals_are_read_whole_in_the_box(lang):
    from companion.i18n import N_
    refusals = [
        _("{name}: it is {current}'s turn", name="W" * 16, current="M" * 16),
        N_("{name} can hold at most {n} Magic Power token now ({how}) and a display spends "
           "2: no display now; end the turn",
           "{name} can hold at most {n} Magic Power tokens now ({how}) and a display spends "
           "2: no display now; end the turn", 0, name="W" * 16,
           how=_("{text}, 1 on the Helper", text=_(
               "{kept} kept from earlier turns, {gain}", kept=1,
               gain=_("nothing from the Magic Helper")))),
    ]
    for refusal in refusals:
        with speaking(lang):
            pages = canvas.pages(refusal)
        words = translate(refusal, lang).split()
        assert [w for page in pages for line in page for w in line.split()] == words


#: The game's screens drawn in every language: the board in play, in the final round,
#: after a forced pass and a swap, at the end; a refusal; each action screen; the jury.
ZOO = ("board-zoo-play", "board-zoo-final", "board-zoo-forced-pass", "board-zoo-swap",
       "board-zoo-over-shared-4", "refused-zoo-fourth-display", "zoo-space", "zoo-creature",
       "zoo-more", "zoo-dp", "zoo-roll", "zoo-player", "zoo-jury-shared-4")


@pytest.mark.parametrize("scene", ZOO)
@pytest.mark.parametrize("lang", [lang for lang in ORDER if lang != "en"])
def test_alakazoo_s_screens_in_each_language(lang, scene):
    assert_scene_in(lang, scene)
