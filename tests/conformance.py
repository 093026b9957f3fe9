"""What every game in a catalog must do on a table, checked by playing it to the end.

In the spirit of OpenSpiel's tests of every registered game: a match of the
game, started from its setup screen's sample (its fewest players, its
defaults), is played to the end with actions drawn from what ``legal``
offers (spelt out as the host page's generic controls do), sent through the
host's API of a real web app over a real table and store, with undo and redo
(from the phone, and holding BACK on the panel) at random points. Nothing
here knows a game: a new game is checked by its catalog line alone.

After every change, every output must answer for the table as it is now:

- the panel's screen builds and its OLED frame draws something;
- the game's ``card`` (the hall's and MQTT's) names every side; its
  ``summary`` is a line of text; the retained MQTT summary is JSON with that
  card; the serial pad's ``STATE`` line carries the state;
- every refusal is a 400 (malformed) or 409 (against the rules, or nothing
  to undo or redo) with a message, and changes nothing.

The costlier checks (the spectators' and the host's pages rendered on the
server with the state they carry, the browser tests drawing them; the
``timeline``; every stored event resolving to
itself, as a restart checks them; a restart from the database giving the
same state) run after every undo and redo, every :data:`DEEP_EVERY`-th
change and at the end, where the match file exported over HTTP must also
replay to the same view, and any action, an undo of nothing or a redo of
nothing must be refused with 409. Each check that fails raises
:class:`Unconforming` naming the game, the step and what went wrong.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import matchfile
from companion.catalog import Catalog
from companion.headline import headline
from companion.integrity import replay_stored
from companion.panel import Panel
from companion.store import Store
from companion.table import Table, TableRunner
from companion.timeline import timeline
from companion.topics import TableInfo, summary_payload
from companion.ui import canvas
from companion.ui.controls import Context, build, default_draft, offers
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


class Unconforming(AssertionError):
    """A game in the catalog that an output, the store or the API cannot carry."""


@dataclass
class Played:
    """What a conformance run went through: the changes made and refused."""

    changes: int = 0
    refused: int = 0
    undos: int = 0
    redos: int = 0


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
        if answer.status_code not in (400, 409) or not isinstance(error, str) or not error:
            raise self.fail(f"POST {path} {json.dumps(body)} answered {answer.status_code} "
                            f"{answer.get_data(as_text=True)[:300]}: a refusal is a 400 or "
                            "409 with a message")
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
        """The timeline answers; every stored event resolves to itself; a restart from the
        database shows the same."""
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

    def ended(self) -> None:
        """At the end: the exported match file replays to the same view, and nothing more
        is taken (409)."""
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
            elif match["can_undo"] and roll < UNDO + PANEL_UNDO:
                run.runner.call(lambda table: press(run.panel, "back!"))  # hold BACK: undo
                if run.panel.state.ui.message is None or not \
                        run.panel.state.ui.message.startswith("Undone"):
                    raise run.fail(f"holding BACK did not undo: {run.panel.state.ui}")
                played.undos += 1
                deep = True
            else:
                choices = offers(match["legal"])
                if not choices:
                    raise run.fail(f"legal offers nothing to play: {match['legal']}")
                action = rng.choice(choices)
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
