"""A match's summary line reads in the reader's language (issue #40): the history keeps
it as a message (companion/kept_text.py), so ``GET /api/history`` and ``companion
history`` say Alakazoo's, Wizard Dodgeball's and AlakaSLAM's words in each shipped
language, and a
row written before (its English, as it was kept) still reads as that English.

The expected words are written here as a club reads them, not read from the catalogs."""

from __future__ import annotations

import contextlib
import random
import re
import sqlite3

import pytest

from companion.store import Store
from companion.table import Table
from tests.e2e.browser_support import EACH_GAME
from tests.i18n.test_command_line import ASKED, companion
from tests.support import CATALOG

ZOO = EACH_GAME["alakazoo"]
DODGE = {**EACH_GAME["wizard-dodgeball"],
         "options": {**EACH_GAME["wizard-dodgeball"]["options"], "variant": "elimination",
                     "target": None}}
#: Alakazoo's line after a display and an end: totals, then each player's points.
ZOO_LINE = {"en": r"\d+-\d+ · Ann: \d+ in play · Bob: \d+ in play",
            "de": r"\d+-\d+ · Ann: \d+ im Spiel · Bob: \d+ im Spiel",
            "fr": r"\d+-\d+ · Ann : \d+ en jeu · Bob : \d+ en jeu",
            "es": r"\d+-\d+ · Ann: \d+ en juego · Bob: \d+ en juego",
            "pl": r"\d+-\d+ · Ann: \d+ w grze · Bob: \d+ w grze"}
#: Wizard Dodgeball's elimination line: wizards still on court, side by side.
DODGE_LINE = {"en": "5 v 5 on court", "de": "5 : 5 auf dem Feld",
              "fr": "5 c. 5 sur le terrain", "es": "5 vs 5 en pista",
              "pl": "5 na 5 na boisku"}

SLAM = EACH_GAME["alakaslam"]
#: AlakaSLAM's line after one point the receivers could not return: the score from side
#: 0's view, then how each side won its points.
SLAM_LINE = {"en": "0-1 · Cid & Dan: 1 no return", "de": "0-1 · Cid & Dan: 1 kein Rückschlag",
             "fr": "0-1 · Cid & Dan : 1 pas de retour",
             "es": "0-1 · Cid & Dan: 1 sin devolución", "pl": "0-1 · Cid & Dan: 1 brak odbicia"}


def played(host) -> None:
    """An Alakazoo match with one display, ended; a Wizard Dodgeball match (elimination)
    with one pass, ended; and an AlakaSLAM match of one point, won."""
    assert host.post("/api/match", ZOO).status_code == 200
    done = host.post("/api/action", {"type": "display", "by": 0, "space": 1, "creature": 1})
    assert done.status_code == 200, done.json
    assert host.post("/api/match/end").status_code == 200
    assert host.post("/api/match", DODGE).status_code == 200
    done = host.post("/api/action", {"type": "pass", "thrower": 21, "to": 58})
    assert done.status_code == 200, done.json
    assert host.post("/api/match/end").status_code == 200
    assert host.post("/api/match", SLAM).status_code == 200
    # To one point (EACH_GAME's): the point wins the match.
    done = host.post("/api/action", {"type": "point", "winner": 1, "reason": "no_return"})
    assert done.status_code == 200, done.json
    assert done.json["match"]["view"]["winner"] == 1


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es", "pl"])
def test_the_history_says_each_summary_line_in_the_readers_language(host, client, lang):
    played(host)
    rows = client.get("/api/history", headers={"Accept-Language": lang})
    assert rows.status_code == 200
    slam, dodge, zoo = rows.json
    assert re.fullmatch(ZOO_LINE[lang], zoo["summary"]), zoo["summary"]
    assert dodge["summary"] == DODGE_LINE[lang]
    assert slam["summary"] == SLAM_LINE[lang]
    if lang != "en":
        # Kept per language: another reader's language has its own words, and says so.
        assert "Accept-Language" in rows.headers["Vary"]
        english = client.get("/api/history", headers={"Accept-Language": "en"}).json
        assert english[2]["summary"].endswith("Bob: 0 in play")
        # A page of the history (limit) is said the same.
        page = client.get("/api/history?limit=2", headers={"Accept-Language": lang}).json
        assert [m["summary"] for m in page] == [SLAM_LINE[lang], DODGE_LINE[lang]]


def test_a_summary_written_before_reads_as_its_english(host, client, tmp_path):
    """A row an older companion wrote (plain English in the column) reads as it is."""
    played(host)
    # closing: a sqlite3 connection's with-block commits but does not close it (Python
    # 3.13 warns of a connection left to the collector).
    with contextlib.closing(sqlite3.connect(tmp_path / "companion.db")) as db, db:
        db.execute("UPDATE matches SET summary = '3 v 0 on court' WHERE game = ?",
                   ("wizard-dodgeball",))
    assert host.post("/api/match", EACH_GAME["center-court"]).status_code == 200  # a change
    rows = client.get("/api/history", headers={"Accept-Language": "de"}).json
    assert [r["summary"] for r in rows][2] == "3 v 0 on court"
    assert rows[1]["summary"] == SLAM_LINE["de"]
    assert rows[3]["summary"].endswith("Bob: 0 im Spiel")


def test_companion_history_says_the_summary_line_in_the_terminals_language(tmp_path):
    with Store(tmp_path / "companion.db") as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        table.start(DODGE)
        table.act({"type": "pass", "thrower": 21, "to": 58})
        table.abandon()
    for lang in ASKED:
        shown = companion("history", "--data", str(tmp_path), language=ASKED[lang])
        assert shown.returncode == 0, shown.stderr
        assert DODGE_LINE[lang] in shown.stdout.splitlines()[1], shown.stdout


def test_the_summary_lines_stay_said_as_the_history_is_brought_up_to_date(host, client):
    """The history brought up to date a change at a time (web/reads.py: the rows before
    copied as they are) still says every earlier match's line in the reader's language."""
    played(host)
    first = client.get("/api/history", headers={"Accept-Language": "de"}).json
    assert host.post("/api/match", EACH_GAME["center-court"]).status_code == 200  # a change
    assert host.post("/api/action", {"type": "point", "winner": 0}).status_code == 200
    again = client.get("/api/history", headers={"Accept-Language": "de"})
    assert again.json[1:] == first and again.json[1]["summary"] == SLAM_LINE["de"]
    assert "Accept-Language" in again.headers["Vary"]
    page = client.get("/api/history?limit=2", headers={"Accept-Language": "fr"}).json
    assert page[1]["summary"] == SLAM_LINE["fr"]
