"""Short forms of names for a small screen that stay told apart.

Cutting every name to its first few letters turns "Player 1" and "Player 2"
into the same "Playe.", and "Alexandra" and "Alexander" into "Alexan.".
:func:`short_names` shortens all the names shown together at once, so that
what tells them apart survives the cut.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

#: The narrowest width every set of names can be told apart in (``"A.1"``).
MIN_WIDTH = 3


def short_names(names: Sequence[str], width: int) -> list[str]:
    """Each of ``names`` in at most ``width`` characters, in the same order.

    Contract: distinct names get distinct forms, equal names equal forms, and
    a name that fits is kept as it is. Longer names lose their spaces if
    that makes them all fit (``"Player1"``, ``"Player2"``: one style for the
    names shown together). Otherwise each is tried cut with a dot
    (``"Alexan."``), then with more and more of its end kept after the dot
    (``"Alex.a"`` and ``"Alex.r"`` for Alexandra and Alexander), taking the
    first form no other name offers or holds; failing all that, numbered
    (``"Alex.1"``). Raises ValueError for a width under :data:`MIN_WIDTH`.
    """
    if width < MIN_WIDTH:
        raise ValueError(f"width must be at least {MIN_WIDTH} characters, not {width}")
    unique = list(dict.fromkeys(names))
    forms = {n: n for n in unique if len(n) <= width}
    long = [n for n in unique if n not in forms]
    # Without their spaces, if that fits them all: "Player1", "Player2" (one
    # style for the names shown together, never "TeamRed" beside "Team B.").
    compact = ["".join(n.split()) for n in long]
    if all(0 < len(c) <= width for c in compact) and len({*compact, *forms.values()}) == \
            len(compact) + len(forms):
        forms.update(zip(long, compact, strict=True))
    taken = set(forms.values())
    tries = {n: list(dict.fromkeys(_candidates(n, width))) for n in unique if n not in forms}
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
    numbers = _numbered(width)
    for n in unique:
        while n not in forms:
            number = next(numbers)
            form = f"{n[: width - 1 - len(number)].rstrip()}.{number}"
            if form not in taken:
                forms[n] = form
                taken.add(form)
    return [forms[n] for n in names]


def _candidates(name: str, width: int) -> Iterator[str]:
    for tail in range(width - 1):
        head = name[: width - 1 - tail].rstrip()
        end = name[len(name) - tail:].lstrip() if tail else ""
        if head:
            yield f"{head}.{end}"


def _numbered(width: int) -> Iterator[str]:
    number = 1
    while len(str(number)) <= width - 1:
        yield str(number)
        number += 1
