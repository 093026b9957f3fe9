"""What every game in a catalog must do on a table, checked by playing it to the end.

In the spirit of OpenSpiel's tests of every registered game: a match of the
game, started from its setup screen's sample (its fewest players, its
defaults), is played to the end with actions drawn from what ``legal``
offers (a shape, one value of each of its lists, and for ``targets`` a set of
the wizards listed, as docs/api.md says a shape is sent back), sent through the
host's API of a real web app over a real table and store, and by random
presses on the panel (its board and the game's own screens, or the generic
Play list of a game without a panel), with undo and redo (from the phone, and
holding BACK on the panel) at random points. Nothing here knows a game: a new
game is checked by its catalog line alone.

After every change, every output must answer for the table as it is now:

- the panel's screen builds and its OLED frame draws something;
- the game's ``card`` (the hall's and MQTT's) names every side; its
  ``summary`` is a line of text; the retained MQTT summary is JSON with that
  card; the serial pad's ``STATE`` line carries the state;
- every refusal is a 409 (against the rules, or nothing to undo or redo) with
  a message, and changes nothing; a 400 only for a field the offered shape
  leaves to the client to fill ("missing field '<name>'", the Game contract);
- no press on the panel fails (the panel would log it and show a fault).

The costlier checks (the spectators' and the host's pages rendered on the
server with the state they carry, the browser tests drawing them; the
``timeline``; every stored event resolving to
itself, as a restart checks them; a restart from the database giving the
same state; the match file exported over HTTP replaying to the same view) run
after every undo and redo, every :data:`DEEP_EVERY`-th change and at the end,
where any action, an undo of nothing or a redo of nothing must be refused with
409. Each check that fails raises
:class:`Unconforming` naming the game, the step and what went wrong.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import matchfile
from companion.catalog import Catalog
from companion.headline import headline
from companion.inputs import Input
from companion.integrity import replay_stored
from companion.panel import FAULT, Panel
from companion.store import Store
from companion.table import Table, TableRunner
from companion.timeline import timeline
from companion.topics import TableInfo, summary_payload
from companion.ui import canvas
from companion.ui.base import PANEL_SCREENS
from companion.ui.controls import Context, build, default_draft
from companion.ui.oled import render
from drivers.serial_pad import state_lines
from tests.panel_support import press
from tests.support import NoDice
from web.app import create_app
from web.services import Services

PIN = "2468"
#: The heavier checks run at least this often (changes), besides undo, redo and the end.
DEEP_EVERY = 25
#: A match not over after this many changes fails: a game whose random play never
#: ends is one whose ``legal`` offers no way to the end.
MAX_CHANGES = 3000
#: Refusals in a row (of shapes whose free fields legal leaves to the client) allowed.
MAX_REFUSALS = 400
#: The chance of an undo, of a redo (when there is one) and of the panel's undo.
UNDO, REDO, PANEL_UNDO = 0.08, 0.5, 0.03
#: The chance of a turn on the panel instead of the phone, and its most presses.
PANEL_TURN, PANEL_PRESSES = 0.15, 12
#: Where a walk on the panel does not go: the panel's own screens (the board aside),
#: which leave the match (menu, a new match's setup, history...), and the commands that
#: start or end one.
AWAY = frozenset(PANEL_SCREENS) - {"board"}
ENDS = frozenset({"start", "abandon"})


def drawn(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """An action ``legal`` offers, at random: a shape, one value of each of its lists, and
    for a ``targets`` list any set of the wizards it lists from ``min_targets`` (0 when
    absent) to ``max_targets`` (all when absent), in the order listed."""
    shape = rng.choice(legal)
    action: dict[str, Any] = {}
    for key, value in shape.items():
        if not isinstance(value, list):
            action[key] = value
        elif key == "targets":
            high = min(shape.get("max_targets", len(value)), len(value))
            chosen = rng.sample(range(len(value)), rng.randint(shape.get("min_targets", 0), high))
            action[key] = [value[i] for i in sorted(chosen)]
        elif not value:
            raise Unconforming(f"legal offers no value for {key!r}: {shape}")
        else:
            action[key] = rng.choice(value)
    return action


class Unconforming(AssertionError):
    """A game in the catalog that an output, the store or the API cannot carry."""


@dataclass
class Played:
    """What a conformance run went through: the changes made and refused."""

    changes: int = 0
    refused: int = 0
    undos: int = 0
    redos: int = 0
    #: Changes made by presses on the panel.
    panel: int = 0


class _Run:
    """One game on one table: the store, the runner, the web app, the panel."""

    def __init__(self, catalog: Catalog, game_id: str, rng: random.Random,
                 folder: Path) -> None:
        self.catalog, self.game_id, self.rng = catalog, game_id, rng
        self.path = folder / "companion.db"
        self.store = Store(self.path)
        self.runner = TableRunner(Table(self.store, catalog, rng=random.Random(rng.random())))
        self.ctx = Context(catalog, names=("Ann", "Bob", "Cy", "Dee"),
                           address="http://10.0.0.2:8080/")
        self.app = create_app(Services(runner=self.runner, pin=PIN, secret_key=b"k" * 32))
        self.client = self.app.test_client()
        answer = self.client.post("/api/login", json={"pin": PIN})
        self.csrf = answer.json["csrf"]
        self.panel: Panel = self.runner.call(lambda table: Panel(table, self.ctx))
        self.step = 0
        #: The actions the table took, in order.
        self.played: list[dict[str, Any]] = []

    def close(self) -> None:
        self.app.extensions["companion.broker"].close()
        self.runner.close()
        self.store.close()

    @property
    def table(self) -> Table:
        return self.runner.table

    def fail(self, what: str) -> Unconforming:
        return Unconforming(f"{self.game_id}, change {self.step}: {what}")

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json={} if body is None else body,
                                headers={"X-CSRF-Token": self.csrf})

    # --- changes -----------------------------------------------------------------------

    def change(self, path: str, body: Any = None) -> bool:
        """POST a change; True when taken. A refusal must be a 400 or 409 with a message,
        and change nothing."""
        before = self.table.snapshot
        answer = self.post(path, body)
        if answer.status_code == 200:
            if answer.json["version"] <= before.version:
                raise self.fail(f"POST {path} {body} answered 200 and changed nothing")
            return True
        error = (answer.json or {}).get("error")
        free = answer.status_code == 400 and isinstance(error, str) and isinstance(body, dict) \
            and (missing := re.match(r"missing field '(\w+)'", error)) is not None \
            and missing[1] not in body
        if not (answer.status_code == 409 or free) or not isinstance(error, str) or not error:
            raise self.fail(f"POST {path} {json.dumps(body)} answered {answer.status_code} "
                            f"{answer.get_data(as_text=True)[:300]}: a refusal is a 409 "
                            "with a message (a 400 only for a field the offer leaves out)")
        if self.table.snapshot != before:
            raise self.fail(f"POST {path} was refused ({error}) and changed the table")
        return False

    def refused(self, path: str, body: Any = None) -> None:
        """A change that must be refused with 409 and a message."""
        before = self.table.snapshot
        answer = self.post(path, body)
        error = (answer.json or {}).get("error")
        if answer.status_code != 409 or not isinstance(error, str) or not error:
            raise self.fail(f"POST {path} {json.dumps(body)} answered {answer.status_code} "
                            f"{answer.get_data(as_text=True)[:300]}; it must be refused "
                            "(409, with a message)")
        if self.table.snapshot != before:
            raise self.fail(f"POST {path} was refused and changed the table")

    def panel_turn(self, rng: random.Random) -> bool:
        """Up to :data:`PANEL_PRESSES` random presses on the panel, among what its screen
        binds, staying on the board and the game's own screens; True once one changed
        the table. No press may fail."""
        before = self.table.snapshot.version
        for _ in range(PANEL_PRESSES):
            keys = [inp for inp, binding in self.panel.state.screen.keys.items()
                    if binding.outcome.ui.screen not in AWAY
                    and (binding.outcome.command or ("",))[0] not in ENDS]
            if not keys:
                break
            inp = rng.choice(keys)
            self.runner.call(lambda table, pressed=inp: self.panel.handle(pressed))
            if self.panel.state.ui.message == FAULT:
                raise self.fail(f"the panel failed on {inp} (see the log)")
            if self.table.snapshot.version != before:
                return True
        # Back to the board for the phone's turn (a screen left open closes on a change).
        self.runner.call(lambda table: self.panel.handle(Input("back")))
        return False

    # --- outputs -----------------------------------------------------------------------

    def outputs(self) -> None:
        """Every output answers for the table as it is now."""
        snapshot = self.table.snapshot
        state = snapshot.to_json()
        match = snapshot.match
        assert match is not None
        try:
            build(self.panel.state.ui, state, self.ctx)
            frame = render(self.panel.state, self.ctx)
        except Exception as err:
            raise self.fail(f"the panel or its OLED frame failed: {err!r}") from err
        if frame.size != (canvas.WIDTH, canvas.HEIGHT) or frame.getbbox() is None:
            raise self.fail("the OLED frame is blank")
        if self.panel.state.snapshot.version != snapshot.version:
            raise self.fail("the panel did not follow the change")
        try:
            card = headline(state, self.catalog)
            summary = self.table.match.game.summary(self.table.match.state)
            payload = json.loads(summary_payload(state, TableInfo("t1", "Table 1"),
                                                 self.catalog))
        except Exception as err:
            raise self.fail(f"the card, the summary or the MQTT summary failed: {err!r}") \
                from err
        if card["game"] != self.game_id or len(card["sides"]) < 1 \
                or not all(side["name"] for side in card["sides"]):
            raise self.fail(f"the card names no side: {card}")
        if not isinstance(summary, str):
            raise self.fail(f"summary() gave {summary!r}, not a line of text")
        if payload["score"] != card["score"] or payload["version"] != snapshot.version:
            raise self.fail("the MQTT summary is not the card of the state")
        word, version, body = state_lines(snapshot).split(b"\n")[0].split(b" ", 2)
        if word != b"STATE" or int(version) != snapshot.version \
                or json.loads(body)["match"] != json.loads(snapshot.json_text)["match"]:
            raise self.fail("the serial STATE line does not carry the state")

    def deep(self) -> None:
        """The pages render with the state; the timeline answers; every stored event
        resolves to itself; a restart from the database and the exported match file
        show the same."""
        snapshot = self.table.snapshot
        for page in ("/", "/host"):
            answer = self.client.get(page)
            if answer.status_code != 200 or f'"version":{snapshot.version}' not in \
                    answer.get_data(as_text=True):
                raise self.fail(f"GET {page} answered {answer.status_code} without the state")
        try:
            replay_stored(self.store.current(), self.catalog)
            with Store(self.path) as again:
                resumed = Table(again, self.catalog, rng=NoDice()).snapshot
        except Exception as err:
            raise self.fail(f"what is stored does not replay through the rules: {err}") \
                from err
        # (An undo's words are news of the change, not state: a restart has none.)
        if (resumed.version, resumed.epoch, resumed.match) != \
                (snapshot.version, snapshot.epoch, snapshot.match):
            raise self.fail("a restart from the database shows another state")
        match = self.table.match
        try:
            chart = timeline(match)
        except Exception as err:
            raise self.fail(f"timeline() failed: {err!r}") from err
        if chart["events"] != len(match.events) or not isinstance(chart.get("series"), list):
            raise self.fail(f"the timeline does not chart the log: {chart}")
        self.exported()

    def exported(self) -> None:
        """The match file exported over HTTP replays to the view the table shows."""
        match = self.table.snapshot.match
        assert match is not None
        answer = self.client.get(f"/api/matches/{match['id']}/export")
        if answer.status_code != 200:
            raise self.fail(f"GET export answered {answer.status_code}")
        try:
            replayed = matchfile.replay(answer.get_data(as_text=True).splitlines(), NoDice(),
                                        self.catalog)
        except Exception as err:
            raise self.fail(f"the exported match file does not replay: {err}") from err
        if replayed.view() != match["view"]:
            raise self.fail("the exported match file replays to another view")

    def ended(self) -> None:
        """At the end: legal offers nothing, and nothing more is taken (409)."""
        match = self.table.snapshot.match
        assert match is not None
        if match["legal"]:
            raise self.fail(f"legal still offers {match['legal']} once the match is over")
        for action in self.played[-3:]:
            self.refused("/api/action", action)
        if not match["can_redo"]:
            self.refused("/api/redo")


def conform(catalog: Catalog, game_id: str, rng: random.Random, folder: Path) -> Played:
    """Play a match of ``game_id`` to the end with actions drawn by ``rng`` from what
    ``legal`` offers, undo and redo at random, every output checked at every change (the
    module's docstring); Unconforming at the first that fails. ``folder`` holds its
    database."""
    run = _Run(catalog, game_id, rng, folder)
    played = Played()
    try:
        record = default_draft(game_id, run.ctx).record()
        if not run.change("/api/match", record):
            raise run.fail(f"its sample start {record} is refused")
        run.outputs()
        run.deep()
        refusals = 0
        while run.table.snapshot.match["status"] == "active":
            if played.changes >= MAX_CHANGES:
                raise run.fail(f"not over after {MAX_CHANGES} changes")
            match = run.table.snapshot.match
            roll = rng.random()
            if match["can_undo"] and roll < UNDO:
                run.change("/api/undo")
                played.undos += 1
                deep = True
                if match["can_redo"] or rng.random() < REDO:
                    run.outputs()
                    run.change("/api/redo")
                    played.redos += 1
            elif roll < UNDO + PANEL_TURN:
                events = len(run.table.match.events)
                if not run.panel_turn(rng):
                    continue
                played.panel += 1
                deep = len(run.table.match.events) <= events  # an undo (or a redo's twin)
            elif match["can_undo"] and roll < UNDO + PANEL_TURN + PANEL_UNDO:
                if run.panel.state.ui.notice:
                    # A notice on the board ("Changed from a phone") is taken away by the
                    # first press, as the panel's rule is; a player holds BACK again.
                    run.runner.call(lambda table: press(run.panel, "back!"))
                run.runner.call(lambda table: press(run.panel, "back!"))  # hold BACK: undo
                if run.panel.state.ui.message is None or not \
                        run.panel.state.ui.message.startswith("Undone"):
                    raise run.fail(f"holding BACK did not undo: {run.panel.state.ui}")
                played.undos += 1
                deep = True
            else:
                if not match["legal"]:
                    raise run.fail("legal offers nothing to play in an unfinished match")
                action = drawn(match["legal"], rng)
                if not run.change("/api/action", action):
                    played.refused += 1
                    refusals += 1
                    if refusals > MAX_REFUSALS:
                        raise run.fail(f"{MAX_REFUSALS} actions legal offered were refused "
                                       "in a row")
                    continue
                run.played.append(action)
                refusals = 0
                deep = False
            played.changes += 1
            run.step = played.changes
            run.outputs()
            if deep or played.changes % DEEP_EVERY == 0:
                run.deep()
        run.deep()
        run.ended()
        return played
    finally:
        run.close()


__all__ = ["Played", "Unconforming", "conform"]
