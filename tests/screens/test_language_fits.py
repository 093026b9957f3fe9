"""Every OLED word in every language fits its box at 128x64 (issue #40): each message
the panel's own screens draw (companion/ui, companion/panel.py and the storage notices)
is measured in the font and the room of the place it is drawn, with its widest
placeholders; a message of those modules that no box here names fails the test, so a
new one is measured too. Games' own OLED words (companion/games/*/oled.py, panel.py)
are not marked yet: README "Languages" says so."""

from __future__ import annotations

import pytest
import segno
from babel.messages.pofile import read_po

from companion.i18n import C_, DOMAIN, LANGUAGES, LOCALE_DIR, Text, _, speaking, translate
from companion.panel import NOTICE_CHARS
from companion.ui import canvas
from companion.ui.base import SOFT_KEY_CHARS
from companion.ui.controls import offer_lines

W = canvas.WIDTH
#: Soft-key labels: at most SOFT_KEY_CHARS characters, within a key's cell.
KEYS = ["Hist", "New", "Start", "Info", "Again", "Menu", "Up", "Down", "Back", "OK", "More",
        "End", "Keep", "Change", "Play"]
#: Titles: the inverted bar's small font, the screen's width.
TITLES = ["Menu", "Play", "History", "Phone page", "Host login", "New match",
          "End this match?", "End this match first?", "Language"]
#: Menu and list lines: the body font, the width less the cursor's margin and arrows.
ITEMS = ["New match", "Rematch", "Undo", "Redo", "End match", "History", "Phone page",
         "Host login", "Language", "No matches yet", "Start", "(ended)", "(live)"]
#: Lines of the small font across the screen.
LINES = ["Nothing to play now", "It stays in the history", "Type it on the phone",
         "not served", "OK: set up a match", "OK to start", "Phone pages are",
         "not being served"]
#: Notices: one page of the message box at most (most also one strip over a board).
NOTICES = ["Changed from a phone", "Hall's offer changed", "Hall moved this match",
           "Phone logged in as host", "Press failed: see log", "Undone", "Redone",
           "Not saved: database file gone. See the log",
           "Not saved: data folder is read-only. See the log",
           "Not saved: the disk is full. See the log"]
#: Refusals: read whole, a page at a time (companion/ui/canvas.py pages).
REFUSALS = ["no match is running: start one first", "no offers are read: no broker",
            "phone pages are not served: no login code",
            "nothing to redo: no action was undone since the last one",
            "nothing to undo: no action has been recorded in this match",
            "this match is over and kept in the history; start a new one",
            "a match is still unfinished: finish or end it before starting another",
            "this match is unfinished and another one is in progress: finish or end that one first",
            "there is no player {name} at this table"]
#: Messages with placeholders, each measured below with its widest values.
FILLED = ["Game: {game}", "Players: {count}", "Point {name}", "Next: {players}",
          "R{round} · {event}", "{page}/{pages} more", "Undone: {what}", "Redone: {what}",
          "Scan to watch:", "Scan to", "watch:", "{option}: {choice}",
          # The broker's status: tests/screens/test_broker_status_fits.py.
          "MQTT: {status}"]
#: The modules whose messages the OLED draws (the catalog's locations). The store's and
#: the match's other messages (a start record's shape, the storage's full account) go to
#: a phone and the log: the OLED draws the store's short notices (NOTICES) and the
#: table's refusals, listed here.
OLED = ("companion/ui/", "companion/panel.py", "companion/table.py")
ALL = {*KEYS, *TITLES, *ITEMS, *LINES, *NOTICES, *REFUSALS, *FILLED}
SHOWN = [lang for lang in LANGUAGES]


def width(text: str, font: str, lang: str) -> int:
    with speaking(lang):
        return canvas.text_width(text, font)


def test_every_oled_message_has_its_box_here():
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    drawn = {m.id for m in catalog if m.id and not m.context
             and any(path.startswith(OLED) for path, _line in m.locations)}
    assert drawn - ALL == set(), "measure these on the OLED here"


@pytest.mark.parametrize("lang", SHOWN)
def test_soft_keys_fit_their_cells(lang):
    for key in KEYS:
        said = translate(_(key), lang)
        assert len(said) <= SOFT_KEY_CHARS, (lang, key, said)
        assert width(said, canvas.SMALL, lang) <= canvas.KEY_CELL - 2, (lang, key, said)


@pytest.mark.parametrize("lang", SHOWN)
def test_titles_items_and_lines_are_never_cut(lang):
    for texts, font, room in ((TITLES, canvas.SMALL, W - 2), (ITEMS, canvas.BODY, W - 8),
                              (LINES, canvas.SMALL, W)):
        for text in texts:
            said = translate(_(text), lang)
            assert width(said, font, lang) <= room, (lang, text, said)


@pytest.mark.parametrize("lang", SHOWN)
def test_notices_fit_one_box_and_refusals_are_read_whole(lang):
    for text in NOTICES:
        with speaking(lang):
            pages = canvas.pages(_(text))
        assert len(pages) == 1, (lang, text, pages)
    for text in REFUSALS:
        message = _(text, name=repr("W" * 16)) if "{name}" in text else _(text)
        with speaking(lang):
            pages = canvas.pages(message)
        words = translate(message, lang).split()
        assert [w for page in pages for line in page for w in line.split()] == words
        assert len(pages) <= 2, (lang, text, pages)
    for bare in ("Undone", "Redone"):  # the fallback when the words cannot fit the strip
        assert len(translate(_(bare), lang)) <= NOTICE_CHARS


@pytest.mark.parametrize("lang", SHOWN)
def test_messages_with_their_widest_placeholders(lang):
    # A game's title is cut at the line's end as in English ("Game: Wizard Dodgeb."); the
    # words before it never.
    assert width(_("Game: {game}", game="WWWW"), canvas.BODY, lang) <= W - 8, lang
    assert width(_("Players: {count}", count=4), canvas.BODY, lang) <= W - 8
    # A name is cut at the line's end as every name is; the words before it never.
    assert width(_("Point {name}", name="WWW"), canvas.BODY, lang) <= W - 8
    assert width(_("{page}/{pages} more", page=9, pages=9), canvas.SMALL, lang) <= W - 2
    assert width(_("R{round} · {event}", round=10000, event="W"), canvas.SMALL, lang) <= W
    # The hall's offer: four 16-capital names, each line within the screen.
    names = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]
    event = {"round": 12, "name": "Tuesday Swiss"}
    with speaking(lang):
        for players, sides in ((names[:2], ()), (names, (0, 0, 1, 1)), (names, ())):
            lines = offer_lines(players, event, sides)
            assert all(canvas.text_width(line, canvas.SMALL) <= W for line in lines), lines
            assert any(isinstance(line, Text) for line in lines)
    # The info screen: beside the QR code of a LAN address.
    qr = segno.make("http://192.168.1.23:8080/", error="l", micro=False)
    size = qr.symbol_size(border=1)[0]
    room = W - size * max(1, (canvas.KEYS_TOP - 1) // size) - 3
    for text in ("Scan to", "watch:", "Scan to watch:"):
        assert width(_(text), canvas.SMALL, lang) <= room, (lang, text)


def test_a_context_s_words_are_their_own():
    assert translate(C_("nav", "History"), "fr") == "Parties"
    assert translate(_("History"), "fr") == "Historique"
