"""Words of the core said outside a page: Home Assistant's sensor names in the table's
language (companion/topics.py discovery), and a damaged write-ahead log's account with
each language's plural forms (companion/wal.py)."""

from __future__ import annotations

import json

import pytest

from companion.i18n import N_, _, translate
from companion.topics import DEFAULT_PREFIX, TableInfo, Topics, discovery

SENSORS = {"en": ["Game", "Status", "Players", "Score", "Turn"],
           "de": ["Spiel", "Status", "Spieler", "Spielstand", "Am Zug"],
           "fr": ["Jeu", "État", "Joueurs", "Score", "Tour"],
           "es": ["Juego", "Estado", "Jugadores", "Marcador", "Turno"],
           "pl": ["Gra", "Stan", "Gracze", "Wynik", "Tura"]}


@pytest.mark.parametrize("lang", sorted(SENSORS))
def test_home_assistant_s_sensors_are_named_in_the_table_s_language(lang):
    configs = discovery(TableInfo("t1", "Table 1", None), Topics(DEFAULT_PREFIX, "t1"),
                        language=lang)
    names = [json.loads(payload)["name"] for _topic, payload in configs]
    assert names == SENSORS[lang]
    # The ids Home Assistant keys its entities by do not change with the language.
    assert [json.loads(p)["unique_id"] for _t, p in configs] == [
        f"table_companion_t1_{k}" for k in ("game", "status", "players", "score", "turn")]


@pytest.mark.parametrize(("lost", "words"), [
    (1, "przepadłoby: 1 zatwierdzona transakcja"),
    (3, "przepadłoby: 3 zatwierdzone transakcje"),
    (5, "przepadłoby: 5 zatwierdzonych transakcji"),
    (22, "przepadłoby: 22 zatwierdzone transakcje"),
    (12, "przepadłoby: 12 zatwierdzonych transakcji"),
])
def test_a_damaged_log_s_account_takes_polish_plural_forms(lost, words):
    reason = _("{where} fails its checksum, and {transactions} from it on would be "
               "silently dropped (SQLite keeps only {frames} before it)",
               where=_("frame {number} of {count}", number=4, count=9),
               transactions=N_("{n} committed transaction", "{n} committed transactions",
                               lost),
               frames=N_("the {n} frame", "the {n} frames", 3))
    said = translate(reason, "pl")
    assert words in said and said.startswith("ramka 4 z 9") and "3 ramki" in said
