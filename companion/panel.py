"""The button panel's brain: inputs in, table commands out, frames to draw.

A :class:`Panel` lives on the table's writer thread (inputs reach it through
:class:`~companion.table.TableRunner`). For each input it asks
:mod:`companion.ui.controls` what the input means, runs the table command if
there is one, and publishes a :class:`PanelState` (the Ui plus the table
snapshot) to its outputs, the OLED first among them. A refused command
leaves the table as it was and shows why on the screen.

The panel's own commands and the table's changes from elsewhere (the host
phone, whose requests run on the same writer thread) are told apart: after
a change from elsewhere, a screen whose premise no longer holds closes back
to the board with a notice, a list reloads, and a press that was made before
the change (see :meth:`Panel.handle`'s ``seen``) is not acted on. The serial
pad's and the simulator's presses are the panel's own: they come through
:meth:`Panel.handle` like the buttons.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

from companion.errors import CompanionError, StoreUnavailable
from companion.i18n import ENGLISH, LANGUAGES, _, message, speaking, translate
from companion.inputs import Input
from companion.login_code import LoginCodes
from companion.names import MIN_WIDTH, short_names
from companion.offers import Offers, played_offers
from companion.store import MatchSummary
from companion.subscribers import Subscribers
from companion.table import Snapshot, Table
from companion.ui import controls
from companion.ui.base import ShownOffer
from companion.ui.controls import Context, Ctx, Screen, Ui
from companion.undone import undone_words

HISTORY_ROWS = 20
#: How many recent matches the setup screen takes player names from.
RECENT_MATCHES = 10
#: Characters each name keeps in a history row, so the score still shows.
HISTORY_NAME_CHARS = 6
#: Table methods a control may call, with the command's arguments.
TABLE_COMMANDS = frozenset({"act", "start", "undo", "redo", "abandon"})
#: What the panel says when a phone logged in with the code it showed.
CODE_TAKEN = _("Phone logged in as host")
#: What the panel says after its own undo or redo (until the next press), with what it
#: took back or put back ("Undone: point to Ann", companion/undone.py), names shortened.
UNDONE = {"undo": _("Undone"), "redo": _("Redone")}
#: The same with what it took back or put back.
UNDONE_WHAT: dict[str, Callable[[str], str]] = {
    "undo": lambda what: _("Undone: {what}", what=what),
    "redo": lambda what: _("Redone: {what}", what=what)}
#: The longest notice the board's one-line strip holds (companion/screens/canvas.py,
#: strip; a test holds the two equal): a longer "Undone: …" would cover the score.
NOTICE_CHARS = 24
#: What the OLED says when handling a press failed on a fault of the companion's own.
FAULT = _("Press failed: see log")
#: The notice when the hall's offer on the board was withdrawn or replaced.
OFFER_CHANGED = _("Hall's offer changed")
#: The notice when the hall withdrew the game played here (moved to another table).
HALL_MOVED = _("Hall moved this match")
#: How long a message that ends on its own stays (see :meth:`Panel.expire`).
MESSAGE_SECONDS = 4.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PanelState:
    """What the panel shows: its Ui over a table snapshot, and the built screen."""

    ui: Ui
    snapshot: Snapshot
    screen: Screen
    #: The language the OLED speaks (companion/i18n.py): the frame says the screen's
    #: words in it (companion/ui/oled.py).
    language: str = ENGLISH


class Panel:
    """Runs the controls against a table. Not thread-safe: the writer thread owns it."""

    def __init__(self, table: Table, ctx: Ctx | None = None,
                 clock: Callable[[], float] = time.monotonic, *,
                 codes: LoginCodes | None = None, offers: Offers | None = None,
                 on_language: Callable[[str], None] | None = None) -> None:
        """``codes``: where the Host login screen draws its one-time codes (None: no
        phone pages are served, so the menu has no such entry); ``offers``: the hall's
        offer of the next match, shown on the board when no match is in play (call
        :meth:`show_offer` when it changes). ``ctx`` (None: the defaults) plays the
        table's games: ValueError for a context with another catalog. ``on_language``
        is called with the language chosen on the Language menu (to keep it)."""
        if ctx is not None and ctx.catalog != table.catalog:
            raise ValueError("the panel's context has another catalog than its table")
        self.table = table
        self.offers = offers
        #: The hall's last withdrawal notice shown (a new one is said once).
        self._told: str | None = None
        self._clock = clock
        #: When the message on the screen appeared (the clock's time; None: none).
        self._since: float | None = None
        self.ctx: Ctx = ctx or Context(table.catalog)
        self._on_language = on_language
        if offers is not None:
            with self._speaking():
                self.ctx = replace(self.ctx, offer=shown(offers))
        self.codes = codes
        #: How many changes from elsewhere the panel has seen. An input source
        #: reads it when a press happens and hands it to :meth:`handle`.
        self.epoch = 0
        self._own = False  # True while the panel's own command runs
        self._recent_for: object = object()  # the match the recent names were read at
        self._read_recent(table.snapshot)
        self._read_played(table.snapshot)
        self._ui = Ui()
        self._subscribers: Subscribers[PanelState] = Subscribers()
        self.state = self._build()
        table.subscribe(self._table_changed)
        table.on_trouble(self._trouble)

    def notify(self, message: str) -> PanelState:
        """Show ``message`` over the current screen until the next input, and publish.

        For news from outside the controls, such as damaged storage found at start.
        """
        self._ui = replace(self._ui, message=message, lasting=True, page=0)
        return self._publish()

    def _trouble(self, err: StoreUnavailable) -> None:
        """A change from elsewhere (a phone) was refused for want of storage: say so here
        too. The panel's own refusals are shown by :meth:`handle`."""
        if not self._own:
            self.notify(err.screen)

    def expire(self) -> float | None:
        """End the message on the screen if it has been there :data:`MESSAGE_SECONDS`
        and may end on its own (not a :meth:`notify` message, nor one with pages still
        to read), and publish.

        Returns the seconds until the message on the screen may end (call again
        then), or None when there is none that ends on its own. For a clock.
        """
        ui = self._ui
        with self._speaking():
            unread = ui.message is not None and controls.more_to_read(ui)
        if ui.message is None or ui.lasting or self._since is None or unread:
            # A long message waits on its page until a press shows the next one.
            return None
        left = self._since + MESSAGE_SECONDS - self._clock()
        if left > 0:
            return left
        self._ui = replace(ui, message=None, notice=False)
        self._publish()
        return None

    def show_broker(self, status: str | None) -> PanelState:
        """The MQTT broker's connection status changed (None: no broker): the info
        screen shows it. Publishes if the screen changed."""
        self.ctx = replace(self.ctx, broker=status)
        return self._publish()

    def show_offer(self) -> PanelState:
        """The hall's offer changed (companion/offers.py): the board shows the new one.

        A board that showed the old one is put under a notice, and a press made
        before now is not acted on (:attr:`epoch`): a press only ever starts the
        offer its player saw. Publishes if the screen changed.
        """
        with self._speaking():
            offer = shown(self.offers) if self.offers is not None else None
        told = self.offers.notice if self.offers is not None else None
        before = self.state.screen.offer
        self.ctx = replace(self.ctx, offer=offer)
        if told is not None and told != self._told:
            # The hall moved the game played here: said until the next press (the host
            # page has the whole reason).
            self.epoch += 1
            self._ui = self._stamped(replace(self._ui, message=HALL_MOVED, notice=True,
                                             page=0))
        elif before is not None and offer != before:
            self.epoch += 1
            self._ui = self._stamped(replace(self._ui, message=OFFER_CHANGED, notice=True,
                                             page=0))
        self._told = told
        return self._publish()

    def handle(self, inp: Input, seen: int | None = None) -> PanelState:
        """Act on one input and publish the result.

        ``seen`` is :attr:`epoch` as it was when the press happened (None:
        not known, as in tests that press in step). A press made before a
        change from elsewhere was meant for a screen that is not there any
        more: it only brings up the notice that the table changed.
        """
        before = self._ui
        self._since = None  # a message after this press is new, whatever its words
        if seen is not None and seen < self.epoch:
            # Under a notice already (the hall's offer changed): that one says it.
            self._ui = before if before.notice else controls.notice(before)
            return self._publish()
        try:
            return self._handle(inp, before)
        except Exception:
            # A fault of the companion's own (a bug in a screen or a command), not a
            # refusal: name the input in the log, say so on the OLED, and go on from
            # the board, which the table's state alone builds.
            log.exception("the panel failed on %s (screen %r)", inp, before.screen)
            self._ui = self._stamped(Ui(message=FAULT))
            return self._publish()

    def _handle(self, inp: Input, before: Ui) -> PanelState:
        # self.state is rebuilt on every table change and every input, so its
        # screen already holds what each button means now.
        binding = self.state.screen.keys.get(inp)
        outcome = binding.outcome if binding else controls.Outcome(replace(before, message=None))
        try:
            ui = self._run(outcome.command, outcome.ui)
        except StoreUnavailable as err:
            # Until the next press, like news from outside: the storage stays at fault
            # (the log has the whole message).
            ui = replace(before, message=err.screen, lasting=True, page=0)
        except CompanionError as err:
            # Its words as made (companion/i18n.py): said in the OLED's language.
            ui = replace(before, message=message(err), page=0)
        self._ui = self._stamped(ui)
        return self._publish()

    def code_taken(self) -> PanelState:
        """A phone logged in with the code on screen: say so, back to the board."""
        if self._ui.code is not None:
            self._ui = self._stamped(Ui(message=CODE_TAKEN))
        return self._publish()

    def _run(self, command: controls.Command | None, ui: Ui) -> Ui:
        if command is None:
            return ui
        kind, *args = command
        if kind == "history":
            return self._history(ui)
        if kind == "login-code":
            if self.codes is None:
                raise CompanionError(_("phone pages are not served: no login code"))
            return replace(ui, code=self.codes.issue())
        if kind == "offer":
            if self.offers is None:
                raise CompanionError(_("no offers are read: no broker"))
            self._own = True
            try:
                self.offers.start(self.table, *args)
            finally:
                self._own = False
            return ui
        if kind == "language":
            (chosen,) = args
            return self._language(chosen, ui)
        if kind not in TABLE_COMMANDS:
            raise ValueError(f"unknown panel command {kind!r}")
        # The table publishes on this thread before it returns: _table_changed
        # must know the change is the panel's own (no notice), and leave the
        # publishing to handle, so the new screen is published once.
        self._own = True
        try:
            getattr(self.table, kind)(*args)
        finally:
            self._own = False
        # An undo often changes one small mark on the board: say it happened, and what.
        if kind in UNDONE and ui.message is None:
            return replace(ui, message=self._undone(kind), page=0)
        return ui

    def _undone(self, kind: str) -> str:
        """"Undone: point to Ann" or "Redone: serve by Ann" (what the table told,
        Snapshot.undone and .redone, in the game's words: companion/undone.py) in the
        notice strip: the names in them shortened as the board shortens names (told
        apart) until the line fits; the bare word only when even the shortest names leave
        it too long."""
        snapshot = self.table.snapshot
        told = snapshot.undone if kind == "undo" else snapshot.redone
        match = self.table.match
        if told is None or match is None:
            return UNDONE[kind]
        kinds = match.game.event_words
        whom = str(told.get("to", told.get("by", "")))
        players = (snapshot.match or {}).get("players") or []
        names = sorted({n for n in players if isinstance(n, str) and n and n in whom},
                       key=len, reverse=True)
        said = UNDONE_WHAT[kind](undone_words(told, kinds))
        width = max((len(n) for n in names), default=0)
        with self._speaking():
            while len(translate(said)) > NOTICE_CHARS and width > MIN_WIDTH:
                width -= 1
                shorter = dict(zip(names, short_names(names, width), strict=True))

                def shortened(name: str, shorter: dict[str, str] = shorter) -> str:
                    for whole, short in shorter.items():
                        name = name.replace(whole, short)
                    return name
                said = UNDONE_WHAT[kind](undone_words(told, kinds, shortened))
            return said if len(translate(said)) <= NOTICE_CHARS else UNDONE[kind]

    def _language(self, language: str, ui: Ui) -> Ui:
        """Speak ``language`` on the OLED from now on (the Language menu's choice), and
        have it kept (``on_language``)."""
        if language not in LANGUAGES:
            raise ValueError(f"not a shipped language: {language!r}")
        self.ctx = replace(self.ctx, language=language)
        if self.offers is not None:
            with self._speaking():  # the offer's lines are measured in the new words
                self.ctx = replace(self.ctx, offer=shown(self.offers))
        if self._on_language is not None:
            self._on_language(language)
        return ui

    def _speaking(self) -> AbstractContextManager[None]:
        """Within it, the panel's words are measured in the OLED's language."""
        return speaking(self.ctx.language)

    def _history(self, ui: Ui) -> Ui:
        """``ui`` with the history rows (re)loaded, the cursor kept on the same match."""
        rows = tuple((s.id, history_line(s)) for s in self.table.history(HISTORY_ROWS))
        ids = [match_id for match_id, _line in rows]
        shown = ui.rows[ui.cursor][0] if ui.cursor < len(ui.rows) else None
        cursor = ids.index(shown) if shown in ids else min(ui.cursor, max(0, len(rows) - 1))
        return replace(ui, rows=rows, cursor=cursor)

    def _stamped(self, ui: Ui) -> Ui:
        """``ui`` with the premise of its screen on the table as it is now."""
        return replace(ui, premise=controls.premise(ui, self.table.snapshot.to_json(),
                                                    self.table.catalog))

    def subscribe(self, subscriber: Callable[[PanelState], None]) -> Callable[[], None]:
        """Call ``subscriber(state)`` after every change (on the writer thread)."""
        return self._subscribers.add(subscriber)

    def _table_changed(self, snapshot: Snapshot) -> None:
        self._read_recent(snapshot)
        self._read_played(snapshot)
        if self._own:
            return
        # A change from elsewhere: the open screen keeps only what it stood on.
        self.epoch += 1
        ui = self._ui
        if ui.message is not None and not ui.lasting and not ui.notice:
            # What the message was about (an undo, a refusal) is no longer the latest
            # news: it must not cover the board from now on. The notice of a change
            # from elsewhere stays its time: this is more of the same news.
            ui = replace(ui, message=None)
        state = snapshot.to_json()
        if controls.premise(ui, state, self.table.catalog) != ui.premise:
            ui = controls.notice(Ui())
        elif (command := controls.reload(ui, state, self.table.catalog)) is not None:
            ui = self._run(command, ui)
        if snapshot.undone is not None and ui.screen == "board" and ui.message is None:
            # An undo from a phone, said on the board as the panel's own is (and ending
            # the same way: its time, or the next change).
            ui = replace(ui, message=self._undone("undo"), page=0)
        self._ui = self._stamped(ui)
        self._publish()

    def _read_played(self, snapshot: Snapshot) -> None:
        """The hall's offers this table has finished a match of: never shown to start
        again (the store refuses a second start of any, companion/offers.py)."""
        played = frozenset(played_offers(snapshot.results))
        if played != self.ctx.played:
            self.ctx = replace(self.ctx, played=played)

    def _read_recent(self, snapshot: Snapshot) -> None:
        """Offer the players of recent matches; read again when another match is on the table."""
        match_id = None if snapshot.match is None else snapshot.match["id"]
        if match_id == self._recent_for:
            return
        self._recent_for = match_id
        recent = (name for s in self.table.history(RECENT_MATCHES) for name in s.players)
        self.ctx = replace(self.ctx, recent=tuple(dict.fromkeys(recent)))

    def _build(self) -> PanelState:
        snapshot = self.table.snapshot
        with self._speaking():
            screen = controls.build(self._ui, snapshot.to_json(), self.ctx)
        return PanelState(self._ui, snapshot, screen, self.ctx.language)

    def _publish(self) -> PanelState:
        if self.codes is not None and self._ui.code is None:
            self.codes.void()  # a code works only while its screen shows it
        if self._ui.message is None:
            self._since = None
        elif self._since is None or self._ui.message != self.state.ui.message:
            self._since = self._clock()  # a message appeared: its time starts now
        state = self._build()
        if state == self.state:
            return state
        self.state = state
        self._subscribers.notify(state)
        return state


def shown(offers: Offers) -> ShownOffer | None:
    """The hall's usable offer as the board shows it, or None."""
    offer = offers.current
    return None if offer is None else (offer.id, controls.offer_lines(
        offer.players, offer.event, offer.sides))


def history_line(summary: MatchSummary) -> str:
    """One history row for a small screen: ``"Ann v Bob* 4-6 3-6"``, the winner marked.

    Only the summary's score shows: what follows its first ``" · "`` (AlakaSLAM's
    stats: ``"3-1 · Ann: 2 out · longest rally 6"``) is for the phone pages.
    """
    short = short_names(summary.players, HISTORY_NAME_CHARS)
    names = [f"{n}*" if i in summary.winners else n for i, n in enumerate(short)]
    status = {"abandoned": _("(ended)"), "active": _("(live)")}.get(summary.status, "")
    score = summary.summary.split(" · ")[0]
    return " ".join(part for part in (" v ".join(names), score, status) if part)
