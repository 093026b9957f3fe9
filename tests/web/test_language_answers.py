"""Python-made words inside per-request JSON, said in the request's language (web/i18n.py
``said``), over the real HTTP server: a timeline's title, labels, marks and summary, the
host's start form's options, a player's rating chart; and the answers web/reads.py keeps,
one per language (a German and an English phone asking the same timeline each get their
own words, and each its own ETag and 304)."""

from __future__ import annotations

import gzip
import http.client
import json
import re
import socket
from dataclasses import replace

import pytest
from werkzeug.test import EnvironBuilder

from companion.catalog import load
from companion.games.base import OptionSpec
from companion.i18n import Text, _, translate
from tests.support import CATALOG
from tests.web.conftest import PIN
from web.app import create_app
from web.i18n import said
from web.reads import BUSY, refusal

#: The test-only game's start record: its timeline is the generic one (companion/games/
#: chart.py scores_chart), whose words are marked.
FIRST_TO = {"game": "first-to", "players": ["ŁUKASZ ŻÓŁTOWSKI", "Σοφία"],
            "options": {"target": 3}}
#: Each language's words of that chart, as its catalog says them.
CHART = {
    "en": ("Score", "change", "score", "ŁUKASZ ŻÓŁTOWSKI wins",
           "Score: ŁUKASZ ŻÓŁTOWSKI 3, Σοφία 0."),
    "de": ("Spielstand", "Zug", "Punkte", "ŁUKASZ ŻÓŁTOWSKI gewinnt",
           "Spielstand: ŁUKASZ ŻÓŁTOWSKI 3, Σοφία 0."),
    "fr": ("Score", "coup", "points", "ŁUKASZ ŻÓŁTOWSKI gagne",
           "Score : ŁUKASZ ŻÓŁTOWSKI 3, Σοφία 0."),
    "es": ("Marcador", "jugada", "puntos", "ŁUKASZ ŻÓŁTOWSKI gana",
           "Marcador: ŁUKASZ ŻÓŁTOWSKI 3, Σοφία 0."),
    "pl": ("Wynik", "ruch", "punkty", "ŁUKASZ ŻÓŁTOWSKI wygrywa",
           "Wynik: ŁUKASZ ŻÓŁTOWSKI 3, Σοφία 0."),
}


def ask(port: int, method: str, path: str, body: object = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request over a connection of its own: status, headers (lower-case names),
    body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


class Host:
    """The host over real HTTP: its session cookie and CSRF token."""

    def __init__(self, port: int) -> None:
        self.port = port
        status, headers, body = ask(port, "POST", "/api/login", {"pin": PIN})
        assert status == 200
        self.cookie = headers["set-cookie"].split(";")[0]
        self.csrf = json.loads(body)["csrf"]

    def post(self, path: str, body: object = None, lang: str = "en"
             ) -> tuple[int, dict[str, str], bytes]:
        return ask(self.port, "POST", path, {} if body is None else body,
                   {"Cookie": self.cookie, "X-CSRF-Token": self.csrf,
                    "Accept-Language": lang})


@pytest.fixture
def won(server, first_to_game) -> Host:
    """A First to 3 match won by its first player, over the real server."""
    host = Host(server.port)
    assert host.post("/api/match", FIRST_TO)[0] == 200
    for _point in range(3):
        assert host.post("/api/action", {"type": "point", "seat": 0})[0] == 200
    return host


@pytest.mark.parametrize("lang", sorted(CHART))
def test_a_timeline_is_said_in_the_asker_s_language(server, won, lang):
    title, x_label, y_label, mark, summary = CHART[lang]
    for path in ("/api/timeline", "/api/matches/1/timeline"):
        status, headers, body = ask(server.port, "GET", path, headers={"Accept-Language": lang})
        assert status == 200, body
        chart = json.loads(body)
        assert (chart["title"], chart["x_label"], chart["y_label"]) == (title, x_label,
                                                                         y_label)
        assert [m["label"] for m in chart["marks"]] == [mark]
        assert chart["summary"] == summary
        # Data stays data: ids, colours and the players' names are never translated.
        assert chart["game"] == "first-to" and chart["players"] == FIRST_TO["players"]
        assert [m["kind"] for m in chart["marks"]] == ["win"]
        assert "Accept-Language" in headers["vary"]


def test_a_german_and_an_english_phone_each_keep_their_own_timeline(server, won):
    """The kept answer is one per language: neither phone gets the other's words, each
    ETag is of its own bytes, and each phone's ETag gives it 304 (and not the other's)."""
    path = "/api/matches/1/timeline"
    answers = {}
    for _round in range(2):  # asked twice each, in turn: the second from what is kept
        for lang in ("de", "en"):
            status, headers, body = ask(server.port, "GET", path,
                                        headers={"Accept-Language": lang})
            assert status == 200
            assert json.loads(body)["title"] == CHART[lang][0]
            assert answers.setdefault(lang, (headers["etag"], body)) == (headers["etag"],
                                                                         body)
    assert answers["de"][0] != answers["en"][0]
    for lang, other in (("de", "en"), ("en", "de")):
        status, _headers, body = ask(server.port, "GET", path, headers={
            "Accept-Language": lang, "If-None-Match": answers[lang][0]})
        assert (status, body) == (304, b"")
        # A phone that changed its language on the page sends the ETag of its old words.
        status, headers, body = ask(server.port, "GET", path, headers={
            "Accept-Language": lang, "If-None-Match": answers[other][0]})
        assert status == 200 and json.loads(body)["title"] == CHART[lang][0]
    # The page's choice (the cookie) and ?lang choose the words as the browser's header does.
    status, _headers, body = ask(server.port, "GET", path,
                                 headers={"Cookie": "lang=pl", "Accept-Language": "de"})
    assert json.loads(body)["title"] == CHART["pl"][0]
    status, _headers, body = ask(server.port, "GET", path + "?lang=es")
    assert json.loads(body)["title"] == CHART["es"][0]


def test_gzip_answers_are_kept_per_language_too(server, won):
    for lang in ("de", "fr"):
        status, headers, body = ask(server.port, "GET", "/api/matches/1/timeline", headers={
            "Accept-Language": lang, "Accept-Encoding": "gzip"})
        assert status == 200
        data = gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body
        assert json.loads(data)["title"] == CHART[lang][0]


#: The test-only game's option, labelled here with words its catalog holds (the four
#: games mark their own options in their folders).
TARGET = OptionSpec("target", _("Score"), ((3, _("rating")), (5, _("score"))), 3)


@pytest.fixture
def catalog():
    """The tables' games and the test-only game, its option's words marked."""
    kit = load("tests.first_to")
    return CATALOG.plus(replace(kit, game=replace(kit.game, options=(TARGET,))))


@pytest.mark.parametrize("lang", sorted(CHART))
def test_the_start_form_s_options_are_said_in_the_asker_s_language(server, lang):
    """``GET /api/games``: an option's label and its choices' labels come in the request's
    language; its key, values and default, and the game's id, are data."""
    status, _headers, body = ask(server.port, "GET", "/api/games",
                                 headers={"Accept-Language": lang})
    assert status == 200
    (option,) = {g["id"]: g for g in json.loads(body)}["first-to"]["options"]
    assert option == {"key": "target", "default": 3,
                      "label": {"en": "Score", "de": "Spielstand", "fr": "Score",
                                "es": "Marcador", "pl": "Wynik"}[lang],
                      "choices": [{"value": 3, "label": translate(_("rating"), lang)},
                                  {"value": 5, "label": translate(_("score"), lang)}]}
    assert option["choices"][0]["label"] == {"en": "rating", "de": "Wertung", "fr": "cote",
                                             "es": "valoración", "pl": "ranking"}[lang]


def test_said_walks_a_json_value_and_leaves_data_alone():
    value = {"title": _("Score"), "n": 3, "ok": True, "none": None, "name": "Σοφία",
             "list": [_("rating"), ("x", _("score"))], _("match"): 1}
    assert said(value, "en") is value  # English: the value itself, not walked
    german = said(value, "de")
    assert german == {"title": "Spielstand", "n": 3, "ok": True, "none": None,
                      "name": "Σοφία", "list": ["Wertung", ["x", "Punkte"]], "Match": 1}
    assert not any(isinstance(v, Text) for v in german.values())


#: Refusals of the API in each language, their placeholders filled (the catalogs' words).
WRONG_PIN = {"en": "wrong PIN", "de": "falsche PIN", "fr": "PIN erroné",
             "es": "PIN incorrecto", "pl": "błędny PIN"}
BAD_LIMIT = {"en": "limit must be a whole number 1-500",
             "de": "limit muss eine ganze Zahl von 1 bis 500 sein",
             "fr": "limit doit être un nombre entier de 1 à 500",
             "es": "limit debe ser un número entero de 1 a 500",
             "pl": "limit musi być liczbą całkowitą od 1 do 500"}
NO_MATCH = {"en": "there is no match 77", "de": "es gibt kein Match 77",
            "fr": "il n'y a pas de match 77", "es": "no hay ningún partido 77",
            "pl": "nie ma meczu 77"}
#: The lockout's refusal ends with the way in no wait holds up: a message inside a message,
#: said in the same language.
LOCKED = {"en": ("too many wrong PINs from this address: try again in 30 s, or log in with "
                 "the one-time code: on the table, Menu > Host login"),
          "de": ("zu viele falsche PINs von dieser Adresse: versuche es in 30 s noch einmal, "
                 "oder melde dich mit dem Einmalcode an: am Tisch Menü > Leitung anmelden"),
          "fr": ("trop de PIN erronés depuis cette adresse : réessayez dans 30 s, ou "
                 "connectez-vous avec le code à usage unique : sur la table, Menu > "
                 "Connexion arbitre"),
          "es": ("demasiados PIN erróneos desde esta dirección: vuelve a intentarlo en 30 s, "
                 "o entra con el código de un solo uso: en la mesa, Menú > Entrar de árbitro"),
          "pl": ("za dużo błędnych PIN-ów z tego adresu: spróbuj ponownie za 30 s, albo "
                 "zaloguj się kodem jednorazowym: na stole Menu > Logowanie gospodarza")}


@pytest.mark.parametrize("lang", sorted(WRONG_PIN))
def test_the_api_s_refusals_are_said_in_the_asker_s_language(server, lang):
    said_in = {"Accept-Language": lang}
    status, _h, body = ask(server.port, "POST", "/api/login", {"pin": "0000"}, said_in)
    assert (status, json.loads(body)) == (401, {"error": WRONG_PIN[lang]})
    status, _h, body = ask(server.port, "GET", "/api/history?limit=0", headers=said_in)
    assert (status, json.loads(body)) == (400, {"error": BAD_LIMIT[lang]})
    status, _h, body = ask(server.port, "GET", "/api/matches/77/timeline", headers=said_in)
    assert (status, json.loads(body)) == (404, {"error": NO_MATCH[lang]})
    status, _h, body = ask(server.port, "POST", "/api/undo", {}, said_in)  # no session
    assert status == 403 and json.loads(body)["error"] == translate(
        _("only the host can do that: log in with the PIN"), lang)


@pytest.mark.parametrize("lang", sorted(LOCKED))
def test_the_lockout_is_said_with_its_way_around_in_the_same_language(server, lang):
    for _guess in range(5):
        status, _h, body = ask(server.port, "POST", "/api/login", {"pin": "0000"},
                               {"Accept-Language": lang})
    assert (status, json.loads(body)) == (429, {"error": LOCKED[lang]})


def test_a_refusal_of_the_read_gate_is_said_in_the_asker_s_language():
    """The gate answers before Flask sees the request (web/reads.py ReadGate): its
    language is read from the request's own headers, cookie and address."""
    for headers, query, words in (
            ({"Accept-Language": "pl"}, None, "stół odpowiada teraz innym"),
            ({"Cookie": "lang=fr"}, None, "la table répond à d'autres lecteurs"),
            ({}, "lang=es", "la mesa está ocupada respondiendo"),
            ({"Accept-Language": "ja"}, None, "the table is busy answering other readers")):
        environ = EnvironBuilder("/api/history", headers=headers,
                                 query_string=query).get_environ()
        answer = refusal(environ, 503, BUSY, 1)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
        assert json.loads(answer.get_data())["error"].startswith(words)


#: The store's and the rules' own refusals of a host's change, each language's words
#: with the names and values filled.
TAKEN = {"en": "Bob is another player: to make them one, merge Ann into Bob",
         "de": "Bob ist ein anderer Spieler: um beide zu einem zu machen, führe Ann mit Bob "
               "zusammen",
         "fr": "Bob est un autre joueur : pour n'en faire qu'un, fusionnez Ann dans Bob",
         "es": "Bob es otro jugador: para que sean uno, fusiona Ann con Bob",
         "pl": "Bob to inny gracz: aby zrobić z nich jednego, scal Ann z Bob"}
SAME_NAMES = {"en": "player names must differ from each other",
              "de": "die Namen der Spieler müssen sich unterscheiden",
              "fr": "les noms des joueurs doivent être différents",
              "es": "los nombres de los jugadores deben ser distintos",
              "pl": "imiona graczy muszą się różnić"}

UNKNOWN_OPTION = {"en": "unknown option 'lives'; this game knows: ",
                  "de": "unbekannte Option 'lives'; dieses Spiel kennt: ",
                  "fr": "option inconnue 'lives' ; ce jeu connaît : ",
                  "es": "opción desconocida 'lives'; este juego conoce: ",
                  "pl": "nieznana opcja 'lives'; ta gra zna: "}
KNOWN = "coin_flip, final_set, first_server, no_ad, sets"  # Center Court's option keys


@pytest.mark.parametrize("lang", sorted(TAKEN))
def test_a_host_s_change_is_refused_in_the_host_s_language(server, lang):
    host = Host(server.port)
    status, _h, body = host.post("/api/match", {"game": "center-court",
                                                "players": ["Łukasz", "ŁUKASZ"]}, lang)
    assert (status, json.loads(body)["error"]) == (400, SAME_NAMES[lang])
    status, _h, body = host.post("/api/match", {"game": "center-court",
                                                "players": ["Ann", "Bob"],
                                                "options": {"lives": 3}}, lang)
    assert (status, json.loads(body)["error"]) == (400, UNKNOWN_OPTION[lang] + KNOWN)
    assert host.post("/api/match", {"game": "center-court", "players": ["Ann", "Bob"]},
                     lang)[0] == 200
    status, _h, body = host.post("/api/players/rename", {"name": "Ann", "to": "bob"}, lang)
    assert (status, json.loads(body)["error"]) == (409, TAKEN[lang])


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_the_start_s_notice_is_said_on_the_page_in_the_page_s_language(services, lang):
    """A notice the companion started with (a damaged database, companion/recovery.py)
    is a message: each page says it in its own language, placeholders filled."""
    notice = _("Damaged data: {count} changes lost. Copy kept in {folder}", count=3,
               folder="damaged-Łukasz")
    app = create_app(replace(services, notice=notice))
    try:
        page = app.test_client().get(f"/?lang={lang}").get_data(as_text=True)
    finally:
        app.extensions["companion.broker"].close()
    said_here = translate(notice, lang)
    assert said_here in page and "damaged-Łukasz" in said_here
    assert (said_here == str(notice)) == (lang == "en")


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_server_s_own_refusals_are_said_in_the_asker_s_language(server, lang):
    """The server refuses a body too large from the headers alone (before Flask): its
    words too follow the request's Accept-Language."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /api/action HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 999999999\r\n"
                     + f"Accept-Language: {lang}\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            piece = sock.recv(4096)
            if not piece:
                break
            answer += piece
    head, _sep, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    most = re.search(r"\d+", json.loads(body)["error"])
    assert most is not None
    expected = translate(_("request body too large: send at most {most} bytes",
                           most=int(most.group())), lang)
    assert json.loads(body) == {"error": expected}
    assert (expected == translate(_("request body too large: send at most {most} bytes",
                                    most=int(most.group())), "en")) == (lang == "en")
