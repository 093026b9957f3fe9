"""Every OLED word of Wizard Dodgeball fits its box at 128x64 in every language (issue
#40), German first: each message its board and menus draw (the game's oled.py and
panel.py, the reminders of state.py, the plays of events.py and the option labels of its
setup) is measured in the font and the room of the place it is drawn, with its widest
placeholders (two-digit jerseys, eight-letter side names as the lists shorten them, the
longest spell names). A message of the game's OLED modules that no box here names fails
the test, so a new one is measured too."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from companion.games.wizard_dodgeball import TITLES
from companion.games.wizard_dodgeball.options import OPTIONS
from companion.i18n import C_, DOMAIN, LOCALE_DIR, N_, Text, _, speaking, translate
from companion.ui import canvas
from companion.ui.base import SOFT_KEY_CHARS

W = canvas.WIDTH
#: German first: its words are the longest.
LANGS = ["de", "en", "fr", "es", "pl"]
LONGEST_SPELL = max(TITLES.values(), key=len)
SIDE = "WWWWWWWW"  # a side's name as a list line keeps it (panel.NAME_CHARS)

KEYS = [_("Cards"), _("End"), _("Act"), _("Roll"), _("Pick"), _("Next"), _("Untick"),
        _("Full"), _("Tick"), _("Set"), _("OK"), _("Back")]
#: Titles: the inverted bar's small font, the screen's width.
TITLES_ = [_("#{j} acts", j=99), _("#{j} throws at", j=99), _("#{j} hit who?", j=99),
           _("#{j} threw which?", j=99), _("Zones away?"), _("Does #{j} hold one?", j=99),
           _("Who caught #{j}'s?", j=99), _("Who comes back?"), _("#{j} passes to", j=99),
           _("#{j} casts", j=99), _("{spell} on?", spell=LONGEST_SPELL),
           _("{spell} on {on}", spell="Freeze", on="#99 #99"),
           _("Dispel on whom?"), _("Which effect on #{j}?", j=99),
           _("Dispel {code} on #{j}", code="STK", j=99), _("Cards"),
           _("S{side} wizard {slot} jersey", side=2, slot=5)]
#: Menu lines: the body font, the width less the cursor's margin and arrows.
ITEMS = [_("Throw (roll)"), C_("menu", "Cast"), C_("menu", "Hit"), C_("menu", "Catch"),
         C_("menu", "Pass"), _("End activation"), _("The Fireball"), _("Another ball"),
         _("{side} Fireball", side=SIDE), _("No ball"), _("Holds a ball"), _("Nobody"),
         _("No wizard (a ball)"), _("Several wizards"), _("Done ({count})", count=5),
         _("Device rolls"), _("It took effect"), _("All resisted"), _("Cast (no wizard)"),
         _("It worked"), _("It failed"), _("S{side} {code} #{j} {n} left", side=2,
                                          code="STK", j=99, n=10),
         _("S{side} ready:", side=2), _("S{side} ready: none", side=2),
         _("S{side} wizard {slot}: #{j}", side=2, slot=5, j=99)]
#: Lines of the small font across the screen: hints, the board's status line, its plays.
LINES = [_("both dice + white"), _("both throw dice"), _("the right die only"),
         _("taken: S{side} wizard {slot}", side=2, slot=5), _("PREV/NEXT: -/+{step}", step=10),
         _("off the court: End"), _("frozen: no actions"), _("back: no move this time"),
         N_("back: {n} action, no move", "back: {n} actions, no move", 1),
         N_("back: {n} action, no move", "back: {n} actions, no move", 2),
         _("Speed: +1 throw or cast"), _("Slow: throw or cast"), _("Fireball ball loose"),
         _("both Fireballs loose"),
         _("Act {n}  round {round}", n=99, round=10),
         N_("Act {act}  round {round}  {n} action", "Act {act}  round {round}  {n} actions",
            3, act=99, round=10),
         _("Act {n}  {left}", n=99, left=_("left: {kinds}", kinds=C_("left", "throw or cast"))),
         _("Act {n}  {left}", n=99, left=_("left: {kinds}", kinds=C_("left", "throw"))),
         _("Act {n}  {left}", n=99, left=_("left: {kinds}", kinds=C_("left", "cast"))),
         _("Act {n}  {left}", n=99, left=_("left: {kinds}", kinds=Text(
             "{a}, {b}", {"a": C_("left", "throw"), "b": C_("left", "cast")}))),
         _("Act {n}  {left}", n=99, left=_("left: {kinds} +{more}", kinds=Text(
             "{a}, {b}", {"a": C_("left", "throw"), "b": C_("left", "cast")}), more=1)),
         _("Act {n}  {left}", n=99, left=N_("{n} action left", "{n} actions left", 2)),
         _("Act {n}  {left}", n=99, left=_("no action left")),
         _("Act {n}  {left}", n=99, left=_("throw, cast done")),
         _("no move; {left}", left=N_("{n} action left", "{n} actions left", 1)),
         _("#{thrower} hit #{target}: out", thrower=99, target=99),
         _("#{thrower} hit #{target}: shield", thrower=99, target=99),
         _("#{thrower} hit #{target} ({score}): out", thrower=99, target=99, score="12v11"),
         _("#{thrower} hit #{target} ({score}): shield", thrower=99, target=99,
           score="12v11"),
         _("#{target} dodged #{thrower} ({score})", thrower=99, target=99, score="12v11"),
         _("#{catcher} caught #{thrower}", catcher=99, thrower=99),
         _("#{catcher} caught #{thrower}, #{returning} back", catcher=99, thrower=99,
           returning=99),
         _("#{thrower} passed to #{to}", thrower=99, to=99),
         _("#{thrower} passed to #{to} (Fireball)", thrower=99, to=99),
         _("{jerseys} off: skipped", jerseys="#99")]
#: The recharging cards: half the screen each side.
HALF = [_("{code}#{j} in {n}", code="STK", j=99, n=10), _("all ready"), _("+{n} more", n=9)]
#: Shown on the board's line as English shows them (a spell's long name is cut there as it
#: is in English): measured only for being said, with every placeholder filled.
CUT = ["#{caster} Dispel {effect} on #{target}", "#{caster} dispelled {effect} on #{target}",
       "#{caster} {spell} on {on}", "#{caster} {spell} on {on}, {shields}",
       "#{caster} {spell} {total}: {news}", "#{caster} {spell}: {news}", "#{j} shield",
       "{head}: {shields}", "on {on}", "rebound, {news}", "resisted", "worked", "no effect",
       "#{target} dodged #{thrower} ({score}) triples", "{name} wins"]
#: The option rows of the setup screen: "label: choice", the body font.
OPTION_ROWS = [Text("{option}: {choice}", {"option": spec.label, "choice": label})
               for spec in OPTIONS for _value, label in spec.choices]
OLED = ("companion/games/wizard_dodgeball/oled.py", "companion/games/wizard_dodgeball/panel.py",
        "companion/games/wizard_dodgeball/options.py")


def ids(text: object) -> set[str]:
    """The catalog messages ``text`` is made of (its own and its placeholders')."""
    if not isinstance(text, Text):
        return set()
    return {text.msgid} | {i for _key, value in text.params for i in ids(value)}


def width(text: str, font: str, lang: str) -> int:
    with speaking(lang):
        return canvas.text_width(text, font)


def test_every_oled_message_of_the_game_has_its_box_here():
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    measured = set(CUT) | {i for t in [*KEYS, *TITLES_, *ITEMS, *LINES, *HALF, *OPTION_ROWS]
                           for i in ids(t)}
    drawn = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id
             and any(path in OLED for path, _line in m.locations)}
    # options.py's refusals are said on the message box, which pages them (never cut).
    drawn = {d for d in drawn if not d.startswith(("option ", "{shape}", "jersey #", "spell_list",
                                                   "with spell_list", "bought spells",
                                                   "the {side} spells"))}
    assert drawn - measured == set(), "measure these on the OLED here"


@pytest.mark.parametrize("lang", LANGS)
def test_soft_keys_fit_their_cells(lang):
    for key in KEYS:
        said = translate(key, lang)
        assert len(said) <= SOFT_KEY_CHARS, (lang, key, said)
        assert width(said, canvas.SMALL, lang) <= canvas.KEY_CELL - 2, (lang, key, said)


@pytest.mark.parametrize("lang", LANGS)
def test_titles_items_and_lines_are_never_cut(lang):
    for texts, font, room in ((TITLES_, canvas.SMALL, W - 2), (ITEMS, canvas.BODY, W - 8),
                              (OPTION_ROWS, canvas.BODY, W - 8), (LINES, canvas.SMALL, W),
                              (HALF, canvas.SMALL, W // 2 - 3)):
        for text in texts:
            # The board's status line cuts a long activation count in English too: no
            # language cuts more than English does.
            most = max(room, width(text, font, "en"))
            assert width(text, font, lang) <= most, (lang, translate(text, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_the_winner_s_line_keeps_its_word(lang):
    """The board's bold first line: a name shortened to leave room for "wins"."""
    assert width(_("{name} wins", name=""), canvas.BOLD, lang) <= 90 - 3 * 8
