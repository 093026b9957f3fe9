"""Players' names: what a name may be, when two names are one player, and short forms
for a small screen that stay told apart.

A name is kept as typed in Unicode's composed form (NFC), its runs of spaces made
one; two names are one player when they match as Unicode text is matched without
regard to case (:func:`name_key`: "Zoë" typed with a composed or a combining
diaeresis, "ÖZIL" and "özil"). Every input of a name (a start from the host page,
the API or a match file, a rename, the config, a hall's offer or night) checks it
with :func:`clean_name` or :func:`name_problem`, and every comparison goes through
:func:`name_key`.

Cutting every name to its first few letters turns "Player 1" and "Player 2"
into the same "Playe.", and "Alexandra" and "Alexander" into "Alexan.".
:func:`short_names` shortens all the names shown together at once, so that
what tells them apart survives the cut.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from companion.errors import InvalidAction
from companion.i18n import Text, _

#: The longest player or side name accepted (in characters, composed); it must fit
#: the OLED, where names are shortened by their drawn width.
MAX_NAME = 16
#: The last code point the OLED's fonts draw letters of (companion/ui/text.py: GNU
#: Unifont covers the Basic Multilingual Plane; a test holds every letter and digit
#: up to here drawn).
DRAWN_UP_TO = 0xFFFF
#: How the players of one side are joined wherever they are named together: the
#: history's "Ann & Cy v Bob & Dee", a game's board and messages ("Ann & Cy serve").
TEAM_JOIN = " & "

def fold(text: str) -> str:
    """``text`` as compared without regard to case or to how its accents were typed
    (Unicode's canonical caseless match, composed): for names and searches alike."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())


def name_key(name: str) -> str:
    """What tells players apart: ``"Ann"``, ``"ann"`` and ``" ANN "`` are one player,
    and so are ``"Zoë"`` typed two ways."""
    return fold(" ".join(name.split()))


def name_problem(name: object) -> Text | None:
    """Why ``name`` cannot be a player's name (None: it can), in words for the person
    who typed it. A name is a string of 1-:data:`MAX_NAME` printable characters (as
    composed) with a letter or a digit the OLED draws: a name of emoji alone would
    show as nothing but replacement marks."""
    if not isinstance(name, str) or not name.strip():
        return _("a name must be a non-empty string")
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if len(name) > MAX_NAME or not name.isprintable():
        return _("a name must be printable and at most {most} characters", most=MAX_NAME)
    if not any(unicodedata.category(c)[0] in "LN" and ord(c) <= DRAWN_UP_TO for c in name):
        return _("a name needs a letter or a digit: the table's screen cannot draw {name}",
                 name=repr(name))
    return None


#: What a refused name is called by default (``clean_name``'s ``what``).
THE_NAME = _("the name")


def clean_name(name: object, what: str = THE_NAME) -> str:
    """A player's name as kept: composed (NFC), runs of spaces made one, the ends
    stripped; or InvalidAction saying what is wrong (``what`` names the field in it)."""
    problem = name_problem(name)
    if problem is not None:
        raise InvalidAction(_("{what}: {problem}", what=what, problem=problem))
    assert isinstance(name, str)
    return unicodedata.normalize("NFC", " ".join(name.split()))


#: The narrowest width every set of names can be told apart in (``"A.1"``).
MIN_WIDTH = 3


def short_names(names: Sequence[str], width: int,
                measure: Callable[[str], int] = len) -> list[str]:
    """Each of ``names`` in at most ``width``, in the same order: ``width`` in the units
    of ``measure`` (characters by default; a screen passes the drawn width in pixels of
    its font, so a name in wide characters is shortened more).

    Contract: distinct names get distinct forms, equal names equal forms, and
    a name that fits is kept as it is. Longer names lose their spaces if
    that makes them all fit (``"Player1"``, ``"Player2"``: one style for the
    names shown together). Otherwise each is tried cut with a dot
    (``"Alexan."``), then with more and more of its end kept after the dot
    (``"Alex.a"`` and ``"Alex.r"`` for Alexandra and Alexander), taking the
    first form no other name offers or holds; failing all that, numbered
    (``"Alex.1"``). Raises ValueError for a width under :data:`MIN_WIDTH`
    characters (the caller of a pixel measure gives at least that many of its
    font's characters).
    """
    if measure is len and width < MIN_WIDTH:
        raise ValueError(f"width must be at least {MIN_WIDTH} characters, not {width}")

    def fits(text: str) -> bool:
        return measure(text) <= width

    unique = list(dict.fromkeys(names))
    forms = {n: n for n in unique if fits(n)}
    long = [n for n in unique if n not in forms]
    # Without their spaces, if that fits them all: "Player1", "Player2" (one
    # style for the names shown together, never "TeamRed" beside "Team B.").
    compact = ["".join(n.split()) for n in long]
    if all(c and fits(c) for c in compact) and len({*compact, *forms.values()}) == \
            len(compact) + len(forms):
        forms.update(zip(long, compact, strict=True))
    taken = set(forms.values())
    tries = {n: list(dict.fromkeys(_candidates(n, fits))) for n in unique if n not in forms}
    level = 0
    while any(level < len(c) for c in tries.values()):
        # Every unresolved name offers its next form; a form offered by one
        # name only, and not taken, is that name's.
        offered = {n: c[level] for n, c in tries.items() if n not in forms and level < len(c)}
        counts = Counter(offered.values())
        for n, form in offered.items():
            if counts[form] == 1 and form not in taken:
                forms[n] = form
                taken.add(form)
        level += 1
    for n in unique:
        for number in _numbered(fits):
            if n in forms:
                break
            form = f"{_head(n, f'.{number}', fits).rstrip()}.{number}"
            if form not in taken:
                forms[n] = form
                taken.add(form)
        # Narrower than the caller promised (MIN_WIDTH): cut, even if not told apart.
        forms.setdefault(n, f"{_head(n, '.', fits)}.")
    return [forms[n] for n in names]


def _head(name: str, tail: str, fits: Callable[[str], bool]) -> str:
    """The longest beginning of ``name`` that fits with ``tail`` after it."""
    for end in range(len(name), 0, -1):
        if fits(name[:end] + tail):
            return name[:end]
    return ""


def _candidates(name: str, fits: Callable[[str], bool]) -> Iterator[str]:
    for tail in range(len(name) - 1):
        end = name[len(name) - tail:] if tail else ""
        if not fits("." + end):
            return
        head = _head(name, f".{end}", fits).rstrip()
        if head:
            yield f"{head}.{end.lstrip()}"


def _numbered(fits: Callable[[str], bool]) -> Iterator[str]:
    number = 1
    while fits(f".{number}"):
        yield str(number)
        number += 1
