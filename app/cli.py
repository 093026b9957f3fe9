# i18n: words not marked yet (issue #40)
"""The ``companion`` command line (see docs/api.md for the contract).

Exit codes: 0 success, 2 for a refused request (bad file, bad match id,
illegal line), with the reason on stderr.

A composition root: it builds the catalog of games (companion/catalog.py) and
hands it to each command (``args.catalog``), ``run`` and ``hall`` among them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from companion import __version__, matchfile, players_command
from companion.catalog import Catalog, build
from companion.config import valid_host
from companion.data_folder import DB_NAME, default_data_dir
from companion.errors import CompanionError
from companion.names import TEAM_JOIN
from companion.rulings import ruling_words
from companion.salvage import salvage
from companion.standings import standing
from companion.store import ACTIVE, FINISHED, Store
from companion.teams import label
from companion.topics import DEFAULT_PREFIX


def open_store(data: Path | None, *, create: bool = True,
               catalog: Catalog | None = None) -> Store:
    """The store in ``data`` (or the default folder), reading the games of ``catalog``.

    Without ``create`` (commands that only read) a missing database is a
    StoreError naming the folder, and no folder or file is made.
    """
    return Store((data or default_data_dir()) / DB_NAME, create=create, catalog=catalog)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser(build()).parse_args(argv)
    try:
        return args.handler(args)
    except CompanionError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `companion export 3 | head`
        return 0


def _parser(catalog: Catalog) -> argparse.ArgumentParser:
    """The command line over the games of ``catalog`` (every handler finds it in
    ``args.catalog``)."""
    parser = argparse.ArgumentParser(
        prog="companion", description="Table Companion: scores and bookkeeping beside a game."
    )
    parser.set_defaults(catalog=catalog)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="run the companion on the table hardware (or --sim)")
    run.add_argument("--sim", action="store_true", help="simulated hardware")
    run.add_argument("--config", type=Path, help="TOML configuration file")
    run.add_argument("--data", type=Path, help="folder of the match database")
    run.add_argument("--host", type=_host, help="address to serve on")
    run.add_argument("--port", type=_port, help="port to serve on (0: any free one)")
    run.add_argument("--pin", help="host PIN (else config or $COMPANION_PIN, else the one "
                     "kept in the data folder)")
    run.add_argument("--new-pin", action="store_true",
                     help="make a new host PIN (and log every host out), unless one is chosen")
    run.set_defaults(handler=_run)

    hall = sub.add_parser("hall", help="serve one page of every table on an MQTT broker",
                          description="The hall board: every table that publishes to the "
                          "broker, live on one page. The broker password comes from "
                          "$COMPANION_MQTT_PASSWORD.")
    hall.add_argument("--mqtt", required=True, metavar="URL",
                      help="the broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    hall.add_argument("--host", type=_host, default="0.0.0.0",
                      help="address to serve on (default 0.0.0.0: every address)")
    hall.add_argument("--port", type=_port, default=8081,
                      help="port to serve on (default 8081; 0: any free one)")
    hall.add_argument("--prefix", default=DEFAULT_PREFIX,
                      help=f"the tables' topic prefix (default {DEFAULT_PREFIX})")
    hall.add_argument("--ca-file", type=Path, metavar="FILE",
                      help="CA certificate of an mqtts:// broker (default: the system's CAs)")
    hall.add_argument("--user", metavar="NAME", help="broker user name")
    hall.add_argument("--data", type=Path, help="folder of the club leaderboard's file "
                      "(hall.db; default: the companion's data folder)")
    hall.add_argument("--director-pin", metavar="PIN",
                      help="the club night director's PIN, 4-12 digits (else "
                           "$COMPANION_DIRECTOR_PIN, else the one kept in --data, else a "
                           "new one, kept there and printed)")
    hall.add_argument("--language", metavar="LANG",
                      help="the hall's pages' language: en, de, fr, es or pl (a browser "
                           "may choose another on the page; default: each browser's)")
    hall.set_defaults(handler=_hall)

    replay = sub.add_parser("replay", help="replay a match file and print its final view")
    replay.add_argument("file", help="match file (JSON lines), or - for standard input")
    replay.add_argument("--seed", type=int, help="seed for dice the file leaves unrolled")
    replay.set_defaults(handler=_replay)

    history = sub.add_parser("history", help="list stored matches, newest first")
    history.add_argument("--data", type=Path, help="folder of the match database")
    history.add_argument("--json", action="store_true", help="print JSON instead of a table")
    history.set_defaults(handler=_history)

    export = sub.add_parser("export", help="print a stored match as a match file")
    export.add_argument("id", type=int, help="match id (see `companion history`)")
    export.add_argument("--data", type=Path, help="folder of the match database")
    export.set_defaults(handler=_export)

    imp = sub.add_parser("import", help="check a match file and add it to the history")
    imp.add_argument("file", help="match file (JSON lines), or - for standard input")
    imp.add_argument("--data", type=Path, help="folder of the match database")
    imp.add_argument("--seed", type=int, help="seed for dice the file leaves unrolled")
    imp.set_defaults(handler=_import)

    rescue = sub.add_parser(
        "salvage", help="bring back the matches a damaged database's journal holds",
        description="Read the damaged database COPY (the file kept in a damaged-<time> "
        "folder, or that folder) page by page, replay each match its journal holds "
        "through the rules, and add those not in the match database yet. Stop the "
        "companion first. COPY is only read.")
    rescue.add_argument("copy", type=Path, metavar="COPY",
                        help="the damaged companion.db (or the damaged-<time> folder)")
    rescue.add_argument("--data", type=Path, help="folder of the match database to add to")
    rescue.set_defaults(handler=_salvage)

    players_command.register(sub, open_store, catalog)
    return parser


def _host(text: str) -> str:
    if not valid_host(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IP address or host name (0.0.0.0 serves on every address)")
    return text


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number 0-65535, got {text!r}")
    return port


def _run(args: argparse.Namespace) -> int:
    # The composition root lives outside the core, which never imports
    # drivers or I/O libraries; only `run` needs them, so load them here.
    from app.runtime import run

    return run(args)


def _hall(args: argparse.Namespace) -> int:
    # Like `run`: the network and the web server are loaded only for this command.
    from hall.run import run

    return run(args)


def _read_file(path: str, seed: int | None, catalog: Catalog) -> matchfile.MatchFile:
    try:
        if path == "-":
            return matchfile.read(sys.stdin, random.Random(seed), catalog)
        with open(path, encoding="utf-8") as lines:
            return matchfile.read(lines, random.Random(seed), catalog)
    except (OSError, UnicodeDecodeError) as err:
        raise CompanionError(f"cannot read {path}: {err}") from None


def _replay(args: argparse.Namespace) -> int:
    match = _read_file(args.file, args.seed, args.catalog).match
    json.dump(match.view(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _history(args: argparse.Namespace) -> int:
    folder = args.data or default_data_dir()
    if (args.data is None and not os.environ.get("COMPANION_DATA")
            and not (folder / DB_NAME).exists()):
        # Nobody named a folder: on a machine that never played, the default
        # one is simply empty. A folder someone named but missing is an
        # error (a typo must not look like an empty history).
        rows = []
    else:
        with open_store(args.data, create=False, catalog=args.catalog) as store:
            rows = store.history()
    if args.json:
        json.dump([r.to_json() for r in rows], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not rows:
        print("no matches yet")
        return 0
    print(f"{'ID':>4}  {'STARTED (UTC)':16}  {'GAME':16}  {'STATUS':9}  PLAYERS / RESULT")
    for r in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.started_at))
        result = label(r.players, r.teams)
        won = [r.players[p] for p in r.winners]
        game = args.catalog.kit(r.game)
        if len(won) > 1 and game is not None and game.game.shared_wins:
            result += f": {' and '.join(won)} share the win"
        elif won:
            result += f": {TEAM_JOIN.join(won)} won"
        if r.summary:
            result += f" {r.summary}"
        if r.ruling is not None:
            result += f" ({ruling_words(r.ruling)})"
        title = args.catalog.title(r.game)
        print(f"{r.id:>4}  {started:16}  {title:16}  {r.status:9}  {result}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with open_store(args.data, create=False) as store:
        stored = store.load(args.id)
    sys.stdout.write(matchfile.export(stored, args.catalog))
    return 0


def _import(args: argparse.Namespace) -> int:
    file = _read_file(args.file, args.seed, args.catalog)
    match = file.match
    winner = match.game.winner(match.state)
    with open_store(args.data) as store:
        stored_as = matchfile.already_stored(store, file, args.catalog)
        if stored_as is not None:
            raise CompanionError(f"this match is already stored as match {stored_as} "
                                 "(same start, actions and dice); nothing was imported")
        match_id = store.import_match(
            match.start.to_json(), list(match.events),
            status=ACTIVE if winner is None else FINISHED,
            winner=winner, summary=match.game.summary(match.state), started_at=file.started,
            standing=None if winner is None else standing(args.catalog.kit(match.start.game),
                                                          match.view()),
        )
    state = "finished" if winner is not None else "unfinished: the table resumes it"
    print(f"imported as match {match_id} ({state})")
    return 0


def _salvage(args: argparse.Namespace) -> int:
    copy = args.copy / DB_NAME if args.copy.is_dir() else args.copy
    if not copy.is_file():
        raise CompanionError(f"{copy}: no such file (give the damaged companion.db, or the "
                             "damaged-<time> folder holding it)")
    live = (args.data or default_data_dir()) / DB_NAME
    if live.exists() and copy.resolve() == live.resolve():
        raise CompanionError(f"{copy} is the match database itself: give the damaged copy "
                             "the companion moved aside (damaged-<time>/companion.db)")
    with open_store(args.data) as store:
        report = salvage(copy, store, args.catalog)
    for line in report.lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
