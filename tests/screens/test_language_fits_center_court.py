"""Center Court's OLED words fit their boxes in every language (issue #40), German first:
its soft keys, the titles and hints of its serve, roll and return rows, the status line
under the scoreboard and its start menu's rows, each with its widest placeholders. A
message of Center Court's OLED modules that no box here names fails the test."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from companion.games.center_court.options import COIN_FLIP, OPTIONS
from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, N_, _, speaking, translate
from companion.ui import canvas
from companion.ui.base import SOFT_KEY_CHARS

W = canvas.WIDTH
#: The status line's pixels (companion/games/center_court/oled.py LINE).
LINE = 126
#: German first: its words are the longest.
ORDER = ["de", *(lang for lang in LANGUAGES if lang != "de")]
#: The widest card, die face, volley and return of the game.
CARD, ROLL, VOLLEY, CARDS = 6, 6, 6, "1-1-1-1-1-1"

KEYS = ["Serve", "Return", "Enter", "Back"]
TITLES = [_("Serve which card?"), _("Serve {card}: die shows?", card=CARD),
          _("Return {volley} with", volley=VOLLEY)]
HINTS = [_("hold OK: own die roll"), _("no roll: 3 or 4"),
         _("{card} on the die is a fault", card=CARD), _("play {cards}", cards=CARDS)]
#: Status lines with no name, as the board draws them beside the sets (two of them, a
#: third playing) and the set's number.
STATUS = [_("DOUBLE FAULT (die {roll})", roll=ROLL), _("FAULT (die {roll}) 2nd serve", roll=ROLL)]
BESIDE_SETS = [_("MATCH TIEBREAK"), _("TIEBREAK"), _("DEUCE")]
ALONE = [_("last serve {card}", card=CARD), _("last serve {card} die {roll}", card=CARD,
                                                                         roll=ROLL)]
#: Lines that end with a name: the words before it are never cut (the name may be).
NAMED = [_("AD {name}", name=""), _("Die {roll}: in  {volley} to {name}", roll=ROLL,
                                                                       volley=VOLLEY, name=""),
         _("{volley} to {name}:", volley=VOLLEY, name=""),
         N_("{name} wins in {n} set", "{name} wins in {n} sets", 5, name="W"),
         N_("{name} wins in {n} set", "{name} wins in {n} sets", 1, name="W"),
         _("{name} wins {score}", name="W", score="7-6(7-5)")]
ROWS = [_("{option}: {choice}", option=spec.label, choice=label)
        for spec in (*OPTIONS, COIN_FLIP) for _value, label in spec.choices]
OWN = ("companion/games/center_court/oled.py", "companion/games/center_court/panel.py",
       "companion/games/center_court/options.py")


def width(text: object, font: str, lang: str) -> int:
    with speaking(lang):
        return canvas.text_width(translate(text), font)


def test_every_center_court_oled_message_has_its_box_here():
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    drawn = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id
             and any(path in OWN for path, _line in m.locations)}
    boxed = {t.msgid for t in (*TITLES, *HINTS, *STATUS, *BESIDE_SETS, *ALONE, *NAMED)}
    boxed |= set(KEYS) | {"set {number}"}
    boxed |= {label.msgid for spec in (*OPTIONS, COIN_FLIP)
              for label in (spec.label, *(c for _v, c in spec.choices))}
    assert drawn - boxed == set(), "measure these on the OLED here"


@pytest.mark.parametrize("lang", ORDER)
def test_keys_titles_and_hints_fit(lang):
    for key in KEYS:
        said = translate(_(key), lang)
        assert len(said) <= SOFT_KEY_CHARS, (lang, key, said)
        assert width(said, canvas.SMALL, lang) <= canvas.KEY_CELL - 2, (lang, key, said)
    for title in TITLES:
        assert width(title, canvas.SMALL, lang) <= W - 2, (lang, translate(title, lang))
    for hint in HINTS:
        assert width(hint, canvas.SMALL, lang) <= W, (lang, translate(hint, lang))


@pytest.mark.parametrize("lang", ORDER)
def test_the_status_line_is_never_cut_but_for_a_name(lang):
    set_ = _("set {number}", number=5)
    for text in STATUS:
        assert width(text, canvas.SMALL, lang) <= LINE, (lang, translate(text, lang))
    for text in BESIDE_SETS:
        # The sets between them are cut at the line's end as in English; the call never.
        line = "  ".join([translate(text, lang), translate(set_, lang)])
        assert width(line, canvas.SMALL, lang) <= LINE, (lang, line)
    for text in ALONE:
        line = "  ".join([translate(text, lang), translate(_("set {number}", number=1), lang)])
        assert width(line, canvas.SMALL, lang) <= LINE, (lang, line)
    for text in NAMED:
        # Room left for the name: at least three of its characters (names.MIN_WIDTH).
        room = LINE - width(text, canvas.SMALL, lang)
        assert room >= 3 * canvas.char_width(canvas.SMALL), (lang, translate(text, lang))


@pytest.mark.parametrize("lang", ORDER)
def test_the_start_menu_s_rows_are_no_wider_than_in_english(lang):
    """A row is cut at the list's edge as in English ("Final set: Match TB 10" is);
    a translation never needs more room than the English row, or fits whole."""
    for row in ROWS:
        said = width(row, canvas.BODY, lang)
        assert said <= max(W - 8, width(row, canvas.BODY, "en")), (lang, translate(row, lang))
