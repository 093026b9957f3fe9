"""Properties of the club night's bookkeeping (hall/night.py), whatever happens in what
order: the tables' results (again and again, from moved offers too), the director's
entries, corrections and moves. Each result counts once; the live standings equal the
standings recomputed from the kept results; the database reopened (as after a crash)
gives exactly the same event and the same offers to publish."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.director.model import Player, Result
from hall.director.standings import effective, standings
from hall.night import Night, Refusal
from tests.hall.night_support import PREFIX, Outbox, finished, results_message
from tests.support import CATALOG

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]

#: One step: what happens, and a number choosing to what.
steps = st.lists(st.tuples(st.sampled_from(["table", "again", "enter", "correct", "move",
                                            "next"]), st.integers(0, 50)),
                 min_size=1, max_size=25).map(lambda plan: [("next", 0), *plan])


def still() -> float:
    """The nights' clock: an offer's ``sent_at`` is the hall's time when it is (re)sent
    (docs/api.md), so with a moving clock the reopened night's offers differ from the
    first ones whenever a second ends between the two reads."""
    return 1764050000.0


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_results_count_once_and_the_night_resumes_exactly(plan):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        outbox = Outbox()
        night = Night(folder, PREFIX, outbox, clock=still, catalog=CATALOG)
        try:
            eid = night.create({"name": "Prop", "game": "center-court", "format": "swiss",
                                "rounds": 3, "players": PLAYERS,
                                "tables": ["t1", "t2"]})["id"]
            sent: list[tuple[str, bytes]] = []  # every results message a table sent
            for what, n in plan:
                state = night.state(eid)
                games = [g for g in state["pairings"] if not g["bye"]]
                game = games[n % len(games)] if games else None
                body = {"version": state["version"]}
                try:
                    if what == "next":
                        night.start_round(eid, body)
                    elif what == "table" and game and game["offer"]:
                        # The table plays the offer it was sent (even one done already:
                        # a second match of the same offer, which must not count).
                        offer = next(json.loads(p) for _, p in outbox.sent
                                     if p and json.loads(p).get("offer") == game["offer"])
                        message = results_message(game["table"],
                                                  [finished(offer, n % 3 or None, n + 1)])
                        sent.append((game["table"], message))
                        night.results(game["table"], message)
                    elif what == "again" and sent:
                        night.results(*sent[n % len(sent)])
                    elif what == "enter" and game:
                        night.enter_result(eid, game["id"], {**body, "ranks": [1, 2]})
                    elif what == "correct" and game and game["result"]:
                        night.enter_result(eid, game["id"], {**body, "ranks": [1, 1],
                                                             "reason": f"fix {n}"})
                    elif what == "move" and game:
                        night.move(eid, game["id"], {**body, "table": ["t1", "t2", "t3",
                                                                       None][n % 4]})
                except Refusal:
                    pass  # refused: nothing changed (checked below with everything else)
            state = night.state(eid)
            kept = _kept(folder, eid)
            # Each game has one result that counts, and the standings are those results'.
            counted = effective(kept)
            assert len({r.key for r in counted}) == len(counted)
            again = standings([Player(p["name"], p["rating"], p["start_points"])
                               for p in state["players"]], kept)
            assert [s.to_json() for s in again] == state["standings"]
            for g in state["pairings"]:
                assert (g["status"] == "done") == (g["result"] is not None), g
            # At most one live offer per table, and each one is a game without a result.
            live = {t: o for t, o in outbox.offers().items() if o and "offer" in o}
            for table, offer in live.items():
                holder = [g for g in state["pairings"] if g["offer"] == offer["offer"]]
                assert len(holder) == 1 and holder[0]["table"] == table
                assert holder[0]["status"] in ("offered", "playing")
            # Reopened as after a crash: the same event, the same offers.
            pending = night.pending()
            reopened = Night(folder, PREFIX, Outbox(), clock=still, catalog=CATALOG)
            try:
                assert reopened.state(eid) == state
                assert sorted(reopened.pending()) == sorted(pending)
            finally:
                reopened.close()
        finally:
            night.close()


def _kept(folder: Path, eid: str) -> list[Result]:
    """The result that counts for each game of ``eid`` as the database holds them: each
    game's newest applied revision (none when that one is an undo at the table)."""
    import sqlite3

    db = sqlite3.connect(folder / "hall.db")
    try:
        latest: dict[str, dict | None] = {}
        for pairing, result in db.execute(
                "SELECT pairing, result FROM event_results WHERE event = ? AND"
                " state = 'applied' ORDER BY seq", (eid,)):
            latest[pairing] = json.loads(result)
        return [Result.from_json(r) for r in latest.values() if r is not None]
    finally:
        db.close()
