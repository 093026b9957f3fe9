"""The command line speaks the terminal's language (issue #40), run as a person runs it:
the installed ``companion`` script with ``LANG`` or ``LANGUAGE`` set as a shell sets
them. A broken config, a salvage, the players command, the history, argparse's help and
errors, and ``companion run``'s banner, in German, French, Spanish and Polish; a
language not shipped is English with one word; and the damaged-storage notices fit the
OLED in every language.

The expected words are written here, as a club reads them, not read from the catalogs
(tests/i18n/test_catalogs.py holds the catalogs complete)."""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, _, speaking, translate
from companion.recovery import DAMAGED_BANNER
from companion.store import Store
from companion.table import Table
from companion.ui import canvas
from tests.support import CATALOG

COMPANION = str(Path(sys.executable).parent / "companion")
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 1}}
#: The variables a shell names its language with (all cleared, then one set per test).
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: How a shell asks for each language (a locale in LANG, or gettext's LANGUAGE list).
ASKED = {"de": {"LANG": "de_DE.UTF-8"}, "fr": {"LC_ALL": "fr_FR.UTF-8"},
         "es": {"LANGUAGE": "es_ES"}, "pl": {"LC_MESSAGES": "pl_PL.UTF-8"}}
#: The files whose messages the command line prints.
CLI_FILES = ("app/cli.py", "app/runtime.py", "app/terminal.py", "companion/config.py",
             "companion/recovery.py", "companion/salvage.py", "companion/integrity.py",
             "companion/players_command.py", "companion/matchfile.py", "drivers/broker.py",
             "drivers/buttons.py", "drivers/display.py", "drivers/leds.py", "drivers/mqtt.py",
             "drivers/serial_pad.py", "app/server.py", "companion/topics.py")


def env(**chosen: str) -> dict[str, str]:
    """The environment of a shell that names its language only as ``chosen`` says."""
    base = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    return {**base, **chosen}


def companion(*args: str, language: dict[str, str] | None = None,
              stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env=env(**(language or {})))


def english_left(lang: str, text: str) -> list[str]:
    """The English words of the command line's messages (a translation replaces them)
    that still show in ``text``: each message, or each piece of one between its
    placeholders that is three words or more."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file, locale=lang)
    pieces = set()
    for m in catalog:
        if not m.id or not any(path in CLI_FILES for path, _line in m.locations):
            continue
        for msgid, said in zip(m.id if isinstance(m.id, tuple) else (m.id,),
                               m.string if isinstance(m.string, tuple) else (m.string,),
                               strict=False):
            if said == msgid:
                continue
            for piece in re.split(r"\{\w+\}", msgid):
                piece = piece.strip(" :;,.()")
                if piece not in said and (len(piece.split()) >= 3
                                          or ("{" not in msgid and len(piece) > 3)):
                    pieces.add(piece)
    return sorted(p for p in pieces if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text))


def play(data: Path) -> None:
    """A Center Court match with a few points in ``data``'s database, unfinished."""
    with Store(data / "companion.db") as store:
        table = Table(store, CATALOG, rng=random.Random(3))
        table.start({**START, "options": {"sets": 1, "first_server": "coin"}})
        for card in (5, 1, 6, 2, 3):
            table.act({"type": "serve", "card": card})
            if table.match.state.rally is not None:
                table.act({"type": "point", "winner": card % 2})


REFUSED = {
    "de": "companion: {path}: [web] port: muss 1-65535 sein, nicht 70000",
    "fr": "companion : {path} : [web] port : doit être 1-65535, reçu 70000",
    "es": "companion: {path}: [web] port: debe ser 1-65535, no 70000",
    "pl": "companion: {path}: [web] port: musi być 1-65535, podano 70000",
}
UNKNOWN_KEY = {
    "de": "[table] unbekannter Schlüssel 'colour'; bekannte Schlüssel: data, language, names",
    "fr": "[table] clé inconnue 'colour' ; clés connues : data, language, names",
    "es": "[table] clave desconocida 'colour'; claves conocidas: data, language, names",
    "pl": "[table] nieznany klucz 'colour'; znane klucze: data, language, names",
}


BAD_TABLE_ID = {
    "de": "[mqtt] table: 'Tisch 3!' ist keine Tischkennung: 1-32 Zeichen aus a-z, 0-9, - "
          "und _, an jedem Ende ein Buchstabe oder eine Ziffer",
    "fr": "[mqtt] table : 'Tisch 3!' n'est pas un identifiant de table : 1-32 caractères "
          "parmi a-z, 0-9, - et _, une lettre ou un chiffre à chaque bout",
    "es": "[mqtt] table: 'Tisch 3!' no es un identificador de mesa: 1-32 caracteres de a-z, "
          "0-9, - y _, con una letra o cifra en cada extremo",
    "pl": "[mqtt] table: 'Tisch 3!' nie jest identyfikatorem stołu: 1-32 znaki z a-z, 0-9, - "
          "i _, litera lub cyfra na każdym końcu",
}


@pytest.mark.parametrize("lang", list(ASKED))
def test_a_broken_config_says_which_key_and_why_in_the_terminals_language(tmp_path, lang):
    config = tmp_path / "companion.toml"
    config.write_text("[web]\nport = 70000\n")
    result = companion("run", "--sim", "--config", str(config), "--data", str(tmp_path),
                       language=ASKED[lang])
    assert result.returncode == 2
    assert result.stderr == REFUSED[lang].format(path=config) + "\n"
    config.write_text("[table]\ncolour = 1\n")
    result = companion("run", "--sim", "--config", str(config), "--data", str(tmp_path),
                       language=ASKED[lang])
    assert result.returncode == 2 and UNKNOWN_KEY[lang] in result.stderr, result.stderr
    said = result.stderr
    # A driver's section (drivers/mqtt.py) says its refusals the same way.
    config.write_text('[mqtt]\nurl = "mqtt://broker.local"\ntable = "Tisch 3!"\n')
    result = companion("run", "--sim", "--config", str(config), "--data", str(tmp_path),
                       language=ASKED[lang])
    assert result.returncode == 2 and BAD_TABLE_ID[lang] in result.stderr, result.stderr
    assert english_left(lang, said + result.stderr) == []


SALVAGED = {
    "de": (r"Match 1 \(Center Court: Ann v Bob\): \d+ Einträge, läuft",
           "wiederhergestellte Matches: 1; verlorene bestätigte Änderungen: 0"),
    "fr": (r"match 1 \(Center Court : Ann v Bob\) : \d+ entrées, en cours",
           "matchs récupérés : 1 ; modifications confirmées perdues : 0"),
    "es": (r"partido 1 \(Center Court: Ann v Bob\): \d+ entradas, en curso",
           "partidos recuperados: 1; cambios confirmados perdidos: 0"),
    "pl": (r"mecz 1 \(Center Court: Ann v Bob\): \d+ wpis(y|ów), trwa",
           "przywrócone mecze: 1; utracone potwierdzone zmiany: 0"),
}


@pytest.mark.parametrize("lang", list(ASKED))
def test_salvage_reports_in_the_terminals_language(tmp_path, lang):
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    play(damaged)
    result = companion("salvage", str(damaged), "--data", str(tmp_path / "data"),
                       language=ASKED[lang])
    assert result.returncode == 0, result.stderr
    first, last = SALVAGED[lang]
    lines = result.stdout.splitlines()
    assert re.fullmatch(first, lines[0]), lines
    assert lines[-1] == last
    # A salvage refused: the copy is the database itself.
    shutil.copy(damaged / "companion.db", tmp_path / "data" / "companion.db")
    refused = companion("salvage", str(tmp_path / "data"), "--data", str(tmp_path / "data"),
                        language=ASKED[lang])
    assert refused.returncode == 2
    assert english_left(lang, result.stdout + refused.stderr) == []


PLAYERS = {
    "de": (r"SPIELER +MATCHES +ZULETZT GESPIELT \(UTC\)", "Ann heißt jetzt Anna",
           "noch kein beendetes Center Court-Match"),
    "fr": (r"JOUEUR +MATCHS +DERNIER MATCH \(UTC\)", "Ann s'appelle maintenant Anna",
           "aucun match de Center Court terminé pour l'instant"),
    "es": (r"JUGADOR +PARTIDOS +ÚLTIMO PARTIDO \(UTC\)", "Ann ahora se llama Anna",
           "aún no hay ningún partido de Center Court terminado"),
    "pl": (r"GRACZ +MECZE +OSTATNI MECZ \(UTC\)", "Ann nazywa się teraz Anna",
           "nie ma jeszcze zakończonego meczu Center Court"),
}


@pytest.mark.parametrize("lang", list(ASKED))
def test_the_players_command_and_the_history_speak_the_terminals_language(tmp_path, lang):
    play(tmp_path)
    header, renamed, no_board = PLAYERS[lang]
    listed = companion("players", "list", "--data", str(tmp_path), language=ASKED[lang])
    assert listed.returncode == 0, listed.stderr
    assert re.fullmatch(header, listed.stdout.splitlines()[0]), listed.stdout
    board = companion("players", "list", "--game", "center-court", "--data", str(tmp_path),
                      language=ASKED[lang])
    assert board.stdout == no_board + "\n"
    rename = companion("players", "rename", "Ann", "Anna", "--data", str(tmp_path),
                       language=ASKED[lang])
    assert rename.stdout == renamed + "\n", rename.stderr
    history = companion("history", "--data", str(tmp_path), language=ASKED[lang])
    status = {"de": "läuft", "fr": "en cours", "es": "en curso", "pl": "trwa"}[lang]
    row = history.stdout.splitlines()[1]
    assert re.search(rf"  Center Court\s+{status}\s+Anna v Bob", row), history.stdout
    help_text = companion("--help", language=ASKED[lang]).stdout
    assert english_left(lang, "\n".join((listed.stdout, board.stdout, rename.stdout,
                                         history.stdout, help_text))) == []


HELP = {"de": ("Befehle:", "diese Hilfe zeigen und beenden",
               "argument --port: muss eine Portnummer 0-65535 sein, nicht 'x'",
               "companion run: Fehler: "),
        "fr": ("commandes:", "afficher cette aide et quitter",
               "argument --port: doit être un numéro de port 0-65535, reçu 'x'",
               "companion run : erreur : "),
        "es": ("órdenes:", "mostrar esta ayuda y salir",
               "argument --port: debe ser un número de puerto 0-65535, no 'x'",
               "companion run: error: "),
        "pl": ("polecenia:", "pokaż tę pomoc i zakończ",
               "argument --port: musi być numerem portu 0-65535, podano 'x'",
               "companion run: błąd: ")}


@pytest.mark.parametrize("lang", list(ASKED))
def test_argparse_help_and_errors_in_the_terminals_language(lang):
    heading, option, refusal, error = HELP[lang]
    shown = companion("--help", language=ASKED[lang])
    assert shown.returncode == 0 and heading in shown.stdout and option in shown.stdout
    assert "show this help" not in shown.stdout
    wrong = companion("run", "--port", "x", language=ASKED[lang])
    assert wrong.returncode == 2
    assert wrong.stderr.splitlines()[-1] == error + refusal


def test_a_language_not_shipped_is_english_with_one_word(tmp_path):
    missing = tmp_path / "nowhere"
    english = (f"companion: {missing}: no such file (give the damaged companion.db, or "
               "the damaged-<time> folder holding it)\n")
    result = companion("salvage", str(missing), language={"LANG": "it_IT.UTF-8"})
    assert result.returncode == 2
    assert result.stderr == ("companion: the environment asks for it_IT, a language the "
                             "companion does not speak (en, de, fr, es, pl): it speaks "
                             "English\n" + english)
    # Nothing named (C, POSIX, nothing at all): English, without a word.
    for language in ({"LANG": "C.UTF-8"}, {"LC_ALL": "POSIX"}, {}):
        quiet = companion("salvage", str(missing), language=language)
        assert quiet.stderr == english, language
    # gettext's list of preferences: the first shipped one, before LANG.
    listed = companion("salvage", str(missing),
                       language={"LANGUAGE": "it:de", "LANG": "fr_FR.UTF-8"})
    assert listed.stderr == (f"companion: {missing}: keine solche Datei (die beschädigte "
                             "companion.db angeben, oder den Ordner damaged-<Zeit>, der "
                             "sie enthält)\n")


def run_banner(data: Path, config: Path, language: dict[str, str]) -> str:
    """What ``companion run --sim`` prints until it serves, and as it stops."""
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen([COMPANION, "run", "--sim", "--config", str(config),
                                 "--data", str(data), "--port", "0"],
                                stdout=subprocess.PIPE, stderr=errors, text=True,
                                env=env(**language))
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            proc.send_signal(signal.SIGTERM)
            out = proc.stdout.read()
            proc.wait(timeout=20)
        finally:
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        errors.seek(0)
        assert proc.returncode == 0, errors.read()
        return line + out


def test_run_speaks_the_terminals_language_else_the_tables(tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text('[table]\nlanguage = "fr"\n')
    # No language named by the environment: the table's, [table] language.
    said = run_banner(tmp_path / "a", config, {})
    lines = said.splitlines()
    assert lines[0].startswith("Table Companion tourne avec un matériel simulé ; données "
                               "dans "), said
    assert re.fullmatch(r"  Spectateurs : +http://127\.0\.0\.1:\d+/", lines[1]), said
    assert re.fullmatch(r"  PIN arbitre : +\d+ \(nouveau, gardé pour les prochains "
                        r"démarrages ; --pin en choisit un\)", lines[4]), said
    assert lines[-1] == "Table Companion arrêté."
    # The terminal names one: its own, whatever the table speaks.
    said = run_banner(tmp_path / "b", config, {"LANG": "pl_PL.UTF-8"})
    assert said.startswith("Table Companion działa na symulowanym sprzęcie; dane w ")
    assert "  Gospodarz:" in said and said.splitlines()[-1] == "Table Companion zatrzymany."
    # Each label padded to the longest in that language: the values line up.
    values = [line.index("http") for line in said.splitlines()[1:4]]
    assert len(set(values)) == 1, said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_damaged_storage_notices_fit_the_oled_read_whole(lang):
    """Shown on the OLED at start (companion/recovery.py): one box, every word whole,
    with the widest count and kept folder's name."""
    folder = "damaged-20261129T095959Z-99"
    for banner in (DAMAGED_BANNER,
                   _("Damaged data: {count} changes lost. Copy kept in {folder}",
                     count="99999", folder=folder),
                   _("Damaged data: {count} changes lost. Copy kept in {folder}",
                     count=_("an unknown number of"), folder=folder)):
        with speaking(lang):
            pages = canvas.pages(banner)
        said = translate(banner, lang)
        assert len(pages) == 1, (lang, pages)
        assert "".join(w for line in pages[0] for w in line.split()) == \
            "".join(said.split()), (lang, pages)


PORT_IN_USE = {
    "de": "companion: 127.0.0.1:{port} kann nicht bedient werden: der Port ist schon belegt "
          "(läuft ein anderer Companion?); dieses Programm beenden oder einen anderen Port "
          "wählen (--port oder [web] port)\n",
    "fr": "companion : impossible d'écouter sur 127.0.0.1:{port} : le port est déjà pris (un "
          "autre companion tourne ?) ; arrêtez ce programme ou choisissez un autre port "
          "(--port ou [web] port)\n",
    "es": "companion: no se puede servir en 127.0.0.1:{port}: el puerto ya está en uso (¿otro "
          "companion en marcha?); detén ese programa o elige otro puerto (--port o [web] "
          "port)\n",
    "pl": "companion: nie można serwować na 127.0.0.1:{port}: port jest już zajęty (działa "
          "inny companion?); zatrzymaj tamten program albo wybierz inny port (--port lub "
          "[web] port)\n",
}


@pytest.mark.parametrize("lang", list(ASKED))
def test_a_start_refused_by_the_address_speaks_the_terminals_language_else_the_tables(
        tmp_path, lang):
    """``companion run`` that cannot listen (app/server.py) says why as the banner would:
    in the terminal's language, and where the environment names none in the table's."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = companion("run", "--sim", "--data", str(tmp_path), "--port", str(port),
                           language=ASKED[lang])
        assert result.returncode == 2
        assert result.stderr == PORT_IN_USE[lang].format(port=port)
        # A service names no language: the table's own ([table] language).
        config = tmp_path / "companion.toml"
        config.write_text(f'[table]\nlanguage = "{lang}"\n')
        quiet = companion("run", "--sim", "--config", str(config), "--data", str(tmp_path),
                          "--port", str(port))
        assert quiet.returncode == 2 and quiet.stderr == result.stderr
        # A terminal that names English is answered in English, whatever the table speaks.
        english = companion("run", "--sim", "--config", str(config), "--data", str(tmp_path),
                            "--port", str(port), language={"LANG": "en_GB.UTF-8"})
        assert english.stderr.startswith(f"companion: cannot serve on 127.0.0.1:{port}: the "
                                         "port is already in use"), english.stderr
    # A host that is not this machine's, with its own words around the system's reason.
    result = companion("run", "--sim", "--data", str(tmp_path), "--port", "0", "--host",
                       "192.0.2.1", language=ASKED[lang])
    assert result.returncode == 2 and "192.0.2.1" in result.stderr
    assert english_left(lang, result.stderr) == [], result.stderr


PREFIX_REFUSED = {
    "de": "companion: --prefix 'a/+/b': darf die Platzhalter + und # nicht enthalten\n",
    "fr": "companion : --prefix 'a/+/b' : ne doit pas contenir les jokers + ou #\n",
    "es": "companion: --prefix 'a/+/b': no debe contener los comodines + o #\n",
    "pl": "companion: --prefix 'a/+/b': nie może zawierać symboli wieloznacznych + ani #\n",
}


@pytest.mark.parametrize("lang", list(ASKED))
def test_a_topic_prefix_refused_in_the_terminals_language(tmp_path, lang):
    """The hall's --prefix and a table's [mqtt] prefix are checked by one rule
    (companion/topics.py prefix_problem): its words too are the terminal's."""
    result = companion("hall", "--mqtt", "mqtt://127.0.0.1:1", "--prefix", "a/+/b",
                       "--data", str(tmp_path), language=ASKED[lang])
    assert result.returncode == 2 and result.stderr == PREFIX_REFUSED[lang], result.stderr
    config = tmp_path / "companion.toml"
    config.write_text('[mqtt]\nurl = "mqtt://broker.local"\ntable = "t1"\nprefix = ""\n')
    table = companion("run", "--sim", "--config", str(config), "--data", str(tmp_path),
                      language=ASKED[lang])
    assert table.returncode == 2 and "[mqtt] prefix" in table.stderr, table.stderr
    assert english_left(lang, result.stderr + table.stderr) == [], table.stderr
