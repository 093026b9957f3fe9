"""What every game module provides, and the checks they share.

A game is data plus pure functions (see :class:`Game`). The engine
(:mod:`companion.match`) drives every game through this one interface, so
undo, replay, the store and every output work the same for all of them.

The helpers below turn untrusted JSON (from a match file, a phone or the
serial line) into checked values, raising :class:`InvalidAction` with a
message that names the field and the expected shape.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from companion.errors import InvalidAction
from companion.games.chart import Chart, Step, scores_chart
from companion.i18n import N_, Text, _

# Names are checked and compared in companion/names.py; games import them from here.
from companion.names import MAX_NAME as MAX_NAME
from companion.names import clean_name as clean_name
from companion.names import name_key as name_key

JSON = dict[str, Any]


@dataclass(frozen=True)
class OptionSpec:
    """One option a start menu offers: its key, a short label and the choices.

    ``choices`` are ``(value, label)`` pairs; labels fit a 128-pixel screen.
    """

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(v for v, _ in self.choices)

    def label_of(self, value: Any) -> str:
        for v, label in self.choices:
            if v == value and type(v) is type(value):
                return label
        return str(value)

    def read(self, options: Mapping[str, Any]) -> Any:
        """The option's checked value in ``options`` (the default if absent)."""
        return choice(options, self.key, self.values, self.default)


@dataclass(frozen=True)
class Game:
    """One game's rules, as pure functions over a frozen state.

    A game must bring its ``id``, ``title``, ``seats`` (fewest, most players) and:

    - ``setup(players, options)``: the state before the first action, from
      prepared options. Deterministic.
    - ``legal(state)``: what may happen now, as a list of action shapes
      (``{"type": ..., field: [allowed values]}``); empty once the game is
      over. Menus, button meanings and the host page's generic controls are
      built from it, and every action it offers must be one ``resolve``
      takes (or refuses saying which free field is missing).
    - ``resolve(state, action, rng)``: check an action (an object whose values
      are untrusted JSON: the match refuses any other shape) against the rules and
      return the event to log, with every dice result filled in. The only
      place randomness enters. Raises InvalidAction or IllegalAction. A
      resolved event is an action too: resolving it again at the same state
      gives it back unchanged, rolling nothing (a restart checks every stored
      event so, companion/integrity.py; an exported match file replays so).
    - ``apply(state, event)``: the state after a resolved event. Pure and
      deterministic: replaying the log always gives the same state.
    - ``view(state)``: the JSON-ready dict every output renders. It carries the
      match's ``players`` (names, or an object per seat with its ``name``) and,
      for the generic faces and timeline, ``scores`` (else ``score`` or
      ``points``: a list with an entry per seat) and ``winner`` (None, a seat,
      or a list of seats).
    - ``winner(state)``: None while the game runs; else the winner's index,
      or a tuple of indexes for a shared win.

    What a game may leave out, and what it then gets:

    - ``options``: what a start menu offers, in menu order (none).
    - ``prepare(players, options, rng)``: check the start record and return
      the complete options (defaults filled in, device decisions such as a
      coin flip made with ``rng``), ready to store; raises InvalidAction.
      Default: the players checked against ``seats``, no option but those of
      ``options``, each read from its choices (:meth:`OptionSpec.read`).
    - ``summary(state)``: a short result or score line for the history, never
      raising, won or not. Default: the view's ``scores`` joined by ``-``.
    - ``turn(state)``: the seats whose turn it is now (lit on the seat LEDs).
      Default: nobody's (a game with no turn order).
    - ``again(options)``: the start options for a rematch from a match's
      prepared options: the same choices, device decisions to be made again.
      Default: the same options (a game with no device decision).
    - ``timeline(steps)``: the match's chart (:mod:`companion.games.chart`) from
      its log, read as steps: each event with the view after it, step 0 the
      view before the first. Pure; only views and events are read. Default:
      :func:`~companion.games.chart.scores_chart`, the view's scores by player.
    - ``extras``: static facts the host's start form needs (JSON-ready).
    - ``event_words``: the game's word for each kind of its events, by ``type``
      (``{"point": C_("event", "point")}``): what an undo took back is said with it
      (companion/undone.py). A kind it has none for is said as its type is named.
    - ``shared_wins``: a tuple ``winner`` is players level on points, each
      playing for themselves (Alakazoo), not a team (AlakaSLAM doubles).
    """

    id: str
    title: str
    seats: tuple[int, int]
    setup: Callable[[Sequence[str], Mapping[str, Any]], Any]
    legal: Callable[[Any], list[JSON]]
    resolve: Callable[[Any, Mapping[str, Any], random.Random], JSON]
    apply: Callable[[Any, Mapping[str, Any]], Any]
    view: Callable[[Any], JSON]
    winner: Callable[[Any], int | tuple[int, ...] | None]
    options: tuple[OptionSpec, ...] = ()
    # None: left out, and __post_init__ puts the default in, so every Game has each
    # face (typed as the callable its callers get; hence the ignores [assignment]).
    prepare: Callable[[Sequence[str], Mapping[str, Any], random.Random], JSON] = None  # type: ignore[assignment]
    summary: Callable[[Any], str] = None  # type: ignore[assignment]
    turn: Callable[[Any], tuple[int, ...]] = None  # type: ignore[assignment]
    again: Callable[[Mapping[str, Any]], JSON] = None  # type: ignore[assignment]
    timeline: Callable[[Sequence[Step]], Chart] = None  # type: ignore[assignment]
    extras: Mapping[str, Any] = field(default_factory=dict)
    shared_wins: bool = False
    event_words: Mapping[str, Text] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The faces left out (None) get their defaults (the class docstring).
        defaults: dict[str, Callable[..., Any]] = {
            "prepare": self._prepare, "summary": self._summary, "turn": _nobody,
            "again": dict, "timeline": scores_chart}
        for name, default in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, default)

    def _prepare(self, players: Sequence[str], options: Mapping[str, Any],
                 rng: random.Random) -> JSON:
        check_players(players, self.seats)
        checked = check_option_keys(options, [o.key for o in self.options])
        return {o.key: o.read(checked) for o in self.options}

    def _summary(self, state: Any) -> str:
        scores = self.view(state).get("scores")
        return "-".join(str(s) for s in scores) if isinstance(scores, list) else ""

    def __repr__(self) -> str:
        return f"<Game {self.id}>"  # i18n: not said


def _nobody(state: Any) -> tuple[int, ...]:
    return ()


def with_item(values: tuple, index: int, value: Any) -> tuple:
    """``values`` with the item at ``index`` replaced (states are frozen tuples)."""
    return (*values[:index], value, *values[index + 1:])


def again_with(options: Mapping[str, Any], logged: str, key: str, ask: Any) -> JSON:
    """Rematch options from prepared ``options``: the same choices, and a device
    decision logged under ``logged`` (a coin flip, a roll) made again by setting
    ``key`` back to ``ask``. Nothing logged is None or False (0 is a logged side)."""
    out = {k: v for k, v in options.items() if k != logged}
    done = options.get(logged)
    if done is not None and done is not False:
        out[key] = ask
    return out


def check_players(players: object, seats: tuple[int, int]) -> tuple[str, ...]:
    """The player names, stripped, or InvalidAction saying what is wrong."""
    low, high = seats
    if not isinstance(players, list | tuple) or not low <= len(players) <= high:
        raise InvalidAction(
            N_("'players' must be a list of exactly {n} name",
               "'players' must be a list of exactly {n} names", low) if low == high else
            _("'players' must be a list of {low} to {high} names", low=low, high=high))
    names = [clean_name(name, _("player {number}", number=i + 1))
             for i, name in enumerate(players)]
    if len(set(name_key(n) for n in names)) != len(names):
        raise InvalidAction(_("player names must differ from each other"))
    return tuple(names)


def check_option_keys(options: object, known: Collection[str]) -> Mapping[str, Any]:
    """``options`` as a mapping, refusing keys the game does not know."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidAction(_("'options' must be an object"))
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidAction(_("unknown option {option}; this game knows: {known}",
                              option=repr(unknown[0]), known=", ".join(sorted(known))))
    return options


def choice(mapping: Mapping[str, Any], key: str, allowed: Sequence[Any], default: Any,
           what: str = "option") -> Any:
    """``mapping[key]`` if it is one of ``allowed`` (``default`` if absent)."""
    if key not in mapping:
        return default
    value = mapping[key]
    if not is_one_of(value, allowed):
        shown = ", ".join(json_text(a) for a in allowed)
        raise InvalidAction(_("{what} {key} must be one of {allowed}; got {value}",
                              what=said_what(what), key=repr(key), allowed=shown,
                              value=json_text(value)))
    return value


#: What :func:`choice` and :func:`integer` call the value they refuse, in words.
WHAT: Mapping[str, Text] = {"option": _("option"), "field": _("field")}


def said_what(what: str) -> str:
    """``what`` (a refusal's name for a value: "option", "field") as words to say."""
    return WHAT.get(what, what)


def is_one_of(value: object, allowed: Iterable[Any]) -> bool:
    """Whether the untrusted JSON ``value`` is one of ``allowed`` (a tuple, a list, or a
    dict's keys), of the same type as well: ``true`` is not ``1`` and ``1.0`` is not ``1``.

    Any JSON value may be asked, a list or an object included (never one of a
    game's names or numbers): the type is compared first, so the value is neither
    hashed (``[] in {...}`` raises TypeError) nor compared with what it cannot be.
    Check a value with this before using it as a key, a set member or a number.
    """
    return any(type(value) is type(a) and value == a for a in allowed)


@overload
def integer(mapping: Mapping[str, Any], key: str, low: int, high: int,
            what: str = ..., *, required: Literal[True] = ...) -> int: ...
@overload
def integer(mapping: Mapping[str, Any], key: str, low: int, high: int,
            what: str = ..., *, required: bool) -> int | None: ...
def integer(mapping: Mapping[str, Any], key: str, low: int, high: int,
            what: str = "field", *, required: bool = True) -> int | None:
    """``mapping[key]`` as an int in ``low..high``; None if absent and optional."""
    if key not in mapping or (mapping[key] is None and not required):
        if required:
            raise InvalidAction(_("missing {what} {key} (a whole number {low}-{high})",
                                  what=said_what(what), key=repr(key), low=low, high=high))
        return None
    value = mapping[key]
    if type(value) is not int or not low <= value <= high:
        raise InvalidAction(_("{what} {key} must be a whole number {low}-{high}; got {value}",
                              what=said_what(what), key=repr(key), low=low, high=high,
                              value=json_text(value)))
    return value


def action_type(action: object, known: Collection[str]) -> str:
    """The action's ``type``, or InvalidAction listing the known types."""
    if not isinstance(action, Mapping):
        raise InvalidAction(_("an action must be a JSON object with a 'type'"))
    kind = action.get("type")
    if not isinstance(kind, str) or not is_one_of(kind, known):
        raise InvalidAction(_("unknown action type {type}; expected one of: {known}",
                              type=json_text(kind), known=", ".join(known)))
    return kind


def check_fields(action: Mapping[str, Any], allowed: Collection[str]) -> None:
    """Refuse fields an action type does not have, so typos do not pass silently."""
    extra = sorted(set(action) - set(allowed) - {"type"})
    if extra:
        fields = ", ".join(sorted(allowed))
        raise InvalidAction(
            _("action {type} has no field {field}; its fields: {fields}",
              type=repr(action.get("type")), field=repr(extra[0]), fields=fields) if fields
            else _("action {type} has no field {field}; it has none",
                   type=repr(action.get("type")), field=repr(extra[0])))


#: How much of a value a message quotes (a refusal names what was sent, not a page).
SHOWN_CHARS = 60


def json_text(value: Any) -> str:
    """``value`` as the JSON it came as (``true``, ``null``, ``"x"``, ``[1, 2]``), cut
    to :data:`SHOWN_CHARS`: a message quotes what was sent, never a Python repr (a
    refused value can be any size); a lone surrogate is shown as its escape."""
    if isinstance(value, str):
        text = f'"{value}"'
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):  # not from JSON: say what it is
            text = type(value).__name__
    if len(text) > SHOWN_CHARS:
        text = text[:SHOWN_CHARS - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True)
class Card:
    """A game's reading of its view for a hall card: a score line, the headings of
    each side's cells, and a row per side: ``(name, cells, seats, won)``, the seats
    being those whose turn lights the side."""

    score: str
    columns: list[str]
    sides: Sequence[tuple[str, list[str], Sequence[int], bool]]


def won(winner: Any, side: int) -> bool:
    """Whether ``side`` is (one of) the winner(s): ``winner`` is None, an index or a list."""
    if isinstance(winner, list | tuple):
        return side in winner
    return winner == side


def name_text(value: Any) -> str:
    """``value`` if it is a string (a name), else TypeError (a card reads untrusted JSON)."""
    if not isinstance(value, str):
        raise TypeError(f"a name must be a string, not {value!r}")  # i18n: not said
    return value
