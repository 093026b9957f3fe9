"""AlakaSLAM on the OLED in every shipped language (issue #40), German's long words
first: the start menu's rows; every message the game's panel and drawing make, measured
in the font and room of the place it is drawn with its widest placeholders (a message of
companion/games/alakaslam/{panel,oled}.py that no box here names fails, so a new one is
measured too); the board's lines and status keep their words with 16-capital names
(the names are shortened, never the words); golden images of the game's screens in
each language, whose frames show no English words the catalog says otherwise."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.games.alakaslam import oled
from companion.games.alakaslam.options import OPTIONS
from companion.games.alakaslam.panel import CORNER_HINTS, GO, NORMAL, REASON_LABELS
from companion.i18n import C_, DOMAIN, LANGUAGES, LOCALE_DIR, N_, Text, _, speaking, translate
from companion.names import MIN_WIDTH, TEAM_JOIN, short_names
from companion.ui import canvas
from companion.ui import text as text_module
from companion.ui.base import SOFT_KEY_CHARS
from tests.screens.test_language_goldens import assert_scene_in

W = canvas.WIDTH
#: German first: its words are the longest.
ORDER = ["de", *(lang for lang in LANGUAGES if lang != "de")]
ROWS = [_("{option}: {choice}", option=spec.label, choice=label)
        for spec in OPTIONS for _value, label in spec.choices]


def width(text: object, font: str, lang: str) -> int:
    with speaking(lang):
        return canvas.text_width(translate(text), font)


def test_every_label_and_choice_is_marked():
    words = [w for spec in OPTIONS for w in (spec.label, *(c for _v, c in spec.choices))]
    assert all(isinstance(w, Text) for w in words), words


@pytest.mark.parametrize("lang", ORDER)
def test_the_start_menu_s_rows_fit_the_list(lang):
    """Each row whole within the list (the width less the cursor's margin), as in English."""
    for row in ROWS:
        said = translate(row, lang)
        assert width(row, canvas.BODY, lang) <= max(W - 8, width(row, canvas.BODY, "en")), said
        if lang != "en":
            assert said != str(row), ("still English", lang, said)


# --- every message the panel and the drawing make --------------------------------------

#: A name as wide as a list or a title shows it (8 characters; the mulligan list cuts
#: to 7), the widest character's name, the longest card rows and court cells.
NAME = "W" * 8
CHARACTER = "Josephias"
#: Where each message is drawn: (the message as drawn, font, pixels of room). The card
#: picker's text stands beside the court (oled.RIGHT); titles in the inverted bar;
#: list rows in the body font less the cursor's margin; hints across the screen.
BESIDE = W - oled.RIGHT
BOXES: list[tuple[Text, str, int]] = [
    # The card picker: its title (a Support's row after the first player's cards), the
    # verdict of the landing in bold with its cell, the hint under the ring.
    (_("{name} after {cards}", name="WWW", cards="R1 R2"), canvas.SMALL, BESIDE),
    *((Text("{result} {cell}", {"result": oled.RESULTS[r], "cell": "" if r == "bad_serve"
                                else "5,4"}), canvas.BOLD, BESIDE) for r in oled.RESULTS),
    (_("ability: 1 card"), canvas.SMALL, W),
    # The board's lines at their shortest: an obligation without "play", a point's
    # reason in its narrow words, a pair's names as short as names are cut; the
    # abilities used (more than one character's is cut with a dot, as in English).
    (_("{name}: {obligation}", name="WW.", obligation=_("{n}, no E", n=3)), canvas.SMALL, W),
    *((_("+1 {side}: {reason}", side="WW.&MM.", reason=words), canvas.SMALL, W)
      for words in oled.SHORT_REASONS.values()),
    (_("Used: {characters}", characters=CHARACTER), canvas.SMALL, W),
    (_("play {n}", n=3), canvas.SMALL, W),
    (_("play {n}, no E", n=3), canvas.SMALL, W),
    (_("play {counts}", counts=_("{some} or {last}", some=_("{n} (no E)", n=2), last="3")),
     canvas.SMALL, W),
    # Titles: the inverted bar's small font across the screen.
    *((t, canvas.SMALL, W - 2) for t in (
        _("Who serves?"), _("Who is at the ball?"), _("{name} serves from", name=NAME),
        _("{name}'s {card} binds", name=NAME, card="E2"),
        _("{name}: {character}", name=NAME, character="Laurie"),
        _("Point {side}: why?", side=NAME), _("Mulligan"), _("Ability used"),
        _("{name} copies", name=NAME))),
    # List rows: the body font, less the cursor's margin and arrows.
    *((t, canvas.BODY, W - 8) for t in (
        *REASON_LABELS.values(), *NORMAL.values(), _("Normal Support"), _("Ability: 1 card"),
        _("Point {side}", side=NAME), _("Mulligan"), _("Ability"),
        _("{name} copies", name=NAME),
        N_("{name}: {hand} > {n} card", "{name}: {hand} > {n} cards", 7, name="W" * 7,
           hand=8),
        N_("{name}: {hand} > {n} card", "{name}: {hand} > {n} cards", 1, name="W" * 7,
           hand=2),
        _("Alone: {name}", name=NAME), _("P1 partner: {name}", name=NAME))),
    # The corner picker: each corner's colour in the big font, half the width each; the
    # hint across the screen.
    *((t, canvas.BIG, W // 2 - 4) for t in (_("Red"), _("Blue"))),
    *((t, canvas.SMALL, W) for t in CORNER_HINTS.values()),
    # The ring's middle between two cards 22 pixels apart (oled._strip), its box clear
    # of theirs and of the ring's arrows.
    (GO, canvas.BODY, 3 * canvas.char_width(canvas.BODY)),
]
#: Soft keys: at most SOFT_KEY_CHARS characters, within a key's cell.
KEYS = [_("More"), _("Shot"), C_("soft key: record the serve", "Serve"), _("Add"), GO,
        C_("soft key: take the last card back", "Undo"), _("Back"), _("OK")]
#: What the board's lines say, drawn below with the widest names (their fitted forms).
DRAWN = ("companion/games/alakaslam/panel.py", "companion/games/alakaslam/oled.py")


def msgids(text: object) -> Iterator[str]:
    """The catalog ids of ``text`` and of every message in its placeholders."""
    if isinstance(text, Text):
        yield text.msgid
        for _k, value in text.params:
            yield from msgids(value)


def test_every_message_the_game_draws_has_its_box_here():
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    drawn = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog
             if m.id and any(path in DRAWN for path, _line in m.locations)}
    boxed = {i for text, _f, _r in BOXES for i in msgids(text)} | {k.msgid for k in KEYS}
    left = drawn - boxed - set(LINE_FORMS)
    assert left == set(), "measure these on the OLED here"


@pytest.mark.parametrize("lang", ORDER)
def test_every_message_fits_its_box(lang):
    for text, font, room in BOXES:
        said = translate(text, lang).strip()
        assert width(said, font, lang) <= room, (lang, text.msgid, said, room)
    for key in KEYS:
        text = translate(key, lang)
        assert len(text) <= SOFT_KEY_CHARS, (lang, key, text)
        assert width(text, canvas.SMALL, lang) <= canvas.KEY_CELL - 2, (lang, key)


# --- the board's lines with the widest names -------------------------------------------

NAMES = ["WWWWWWWWWWWWWWWA", "MMMMMMMMMMMMMMMB", "WWWWWWWWWWWWWWWC", "MMMMMMMMMMMMMMMD"]
CHARACTERS = ["josephias", "wendolyn", "sarissia", "simon"]
#: The messages of the board's lines, each drawn below at least once.
LINE_FORMS = (
    "{name}: {obligation}", "{name} as {character}",
    "Last: {who} in {cell}", "{name} mulligans: {n} card",
    "{name}: Simon, copy whom?", "Coin flip: {side} serve", "Coin flip: {side} serves",
    "{side} win", "{side} wins", "Serve · goal {target}", "Rally {rally} · goal {target}",
)
#: The status's own forms: said before they are measured (a plain str), seen by their words.
STATUS = {"Serve · goal {target}": "serve", "Rally {rally} · goal {target}": "shot"}


def a_view(players: int) -> dict[str, Any]:
    """A match of ``players`` (2: singles, 4: doubles) with the widest names: the
    fields oled.lines and oled.status read."""
    sides = [[0], [1]] if players == 2 else [[0, 1], [2, 3]]
    return {
        "players": [{"name": NAMES[p], "character": CHARACTERS[p], "acts_as": CHARACTERS[p],
                     "ability_used": False, "copy": None, "hand": 10, "mulligans": 0}
                    for p in range(players)],
        "sides": [{"players": s, "name": TEAM_JOIN.join(NAMES[p] for p in s), "score": 8}
                  for s in sides],
        "winner": None, "serving_side": 0, "hitting_side": 1, "due": "shot", "rally": 99,
        "target": 9, "court": {"cols": 5 if players == 4 else 3, "rows": 4},
        "obligations": [], "last_shot": None, "last_point": None,
    }



def views() -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(view, options): every line the board draws, singles and doubles."""
    for n in (2, 4):
        base = a_view(n)
        everyone = range(n)
        bound = [{"player": p, "cards": cards, "no_enchant": rich, "no_enchant_each": each}
                 for p, (cards, rich, each) in zip(everyone, (
                     ([2], True, [True]), ([3], False, [False]), ([2, 3], False, [True, False]),
                     ([2], False, [False])), strict=False)]
        used = [{**x, "ability_used": True, "copy": "josephias" if x["character"] == "simon"
                 else None} for x in base["players"]]
        # In a rally the last shot landed in (else the point is over).
        shot = {"side": 0, "players": list(base["sides"][0]["players"]), "from": [2, 4],
                "to": [2, 3], "result": "in"}
        yield {**base, "obligations": bound, "players": used, "last_shot": shot}, {}
        before = {**base, "due": "serve", "players": [
            {**x, "mulligans": 1, "hand": 1 if p == 0 else 10}
            for p, x in enumerate(base["players"])]}
        for reason in ("no_return", "declined", "out", "net", "bad_serve"):
            for winner in (0, 1):
                yield {**before, "last_point": {"winner": winner, "reason": reason}}, {}
        for side in (0, 1):
            yield before, {"coin_flip": side}
            yield {**base, "winner": side}, {}


@pytest.mark.parametrize("lang", ORDER)
def test_the_board_s_lines_keep_their_words_with_the_widest_names(lang, monkeypatch):
    """Each line's last form fits with the names cut as short as a name is cut: the
    line never falls back to cutting the words (fit_names' last resort); each line and
    the status within its room, in the language drawn."""
    cut: list[str] = []
    seen: set[str] = set()
    original = oled.fit_names

    def checked(names, *lines, width, name=canvas.SMALL):
        least = short_names(names, MIN_WIDTH * canvas.char_width(name),
                            lambda t: canvas.text_width(t, name))
        seen.update(msgids(lines[0](least)))
        if canvas.text_width(lines[-1](least), name) > width:
            cut.append(translate(lines[-1](least)))
        return original(names, *lines, width=width, name=name)

    monkeypatch.setattr(oled, "fit_names", checked)
    for view, options in views():
        with speaking(lang):
            for line in oled.lines(view, options):
                assert canvas.text_width(line, canvas.SMALL) <= W, (lang, translate(line))
                seen.update(msgids(line))
            status = oled.status(view)
            assert canvas.text_width(status, canvas.SMALL) <= BESIDE, (lang, status)
            seen.update(msgids(status))
            if view["winner"] is None:
                seen.update(k for k, due in STATUS.items() if due == view["due"])
    assert cut == [], (lang, cut)
    assert set(LINE_FORMS) - seen == set(), "draw these lines here"


# --- golden images ---------------------------------------------------------------------

#: The game's screens drawn in every language: the boards (a doubles rally under an
#: Enchantment with an ability used, before a serve with a mulligan and Simon's copy,
#: the coin flip, a point to the net, the end), a refusal, the card picker (an
#: obligation, a bad serve, a Support's row), every action screen and the setup rows.
SLAM = ("board-slam-doubles-rally", "board-slam-before-serve", "board-slam-coin",
        "board-slam-net", "board-slam-over", "refused-slam", "slam-cards-enchanted",
        "slam-cards-bad-serve", "slam-cards-support", "slam-corner", "slam-player",
        "slam-laurie", "slam-enchant", "slam-more", "slam-reason", "slam-who",
        "slam-copy", "setup-slam-canadian", "setup-slam-doubles")


@pytest.mark.parametrize("scene", SLAM)
@pytest.mark.parametrize("lang", [lang for lang in ORDER if lang != "en"])
def test_alakaslam_s_screens_in_each_language(lang, scene):
    assert_scene_in(lang, scene)


#: The game's messages whose English words a frame in another language must not show.
GAME = ("companion/games/alakaslam/panel.py", "companion/games/alakaslam/oled.py",
        "companion/games/alakaslam/rules.py")


def english_left(lang: str) -> set[str]:
    """The English words of the game's messages that ``lang`` says otherwise: a whole
    message without placeholders, or a part between two placeholders (four letters at
    least, so "in" or "as" of a name's line are not taken for English)."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file)
    found = set()
    for m in catalog:
        if not m.id or not any(path in GAME for path, _line in m.locations):
            continue
        english = m.id if isinstance(m.id, str) else m.id[-1]
        said = m.string if isinstance(m.string, str) else " ".join(m.string)
        for part in re.split(r"\{\w+\}", english):
            part = part.strip(" :;,.()?")
            if len(re.sub(r"[^A-Za-z]", "", part)) >= 4 and part not in said:
                found.add(part)
    return found


@pytest.mark.parametrize("lang", [lang for lang in ORDER if lang != "en"])
def test_no_english_is_left_on_the_game_s_frames(lang, monkeypatch):
    """Every text the game's screens draw in ``lang`` (the same scenes as the goldens):
    none shows English words its catalog says otherwise."""
    drawn: list[str] = []
    original = text_module.draw

    def recorded(canvas_, xy, text, style, fill=1):
        drawn.append(text)
        return original(canvas_, xy, text, style, fill)

    monkeypatch.setattr(text_module, "draw", recorded)
    for scene in SLAM:
        assert_scene_in(lang, scene)
    english = english_left(lang)
    left = sorted({(t, e) for t in drawn for e in english if e in t})
    assert left == [], (lang, left)
    assert drawn
