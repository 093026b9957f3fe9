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
from functools import reduce
from pathlib import Path
from typing import Any, NoReturn

from app.terminal import refused, say, terminal, unshipped_word
from companion import __version__, matchfile, players_command
from companion.catalog import Catalog, build
from companion.config import valid_host
from companion.data_folder import DB_NAME, default_data_dir
from companion.errors import CompanionError
from companion.i18n import C_, LANGUAGES, Text, _, speaking, translate
from companion.names import TEAM_JOIN
from companion.rulings import ruling_words
from companion.salvage import STATUS_WORDS, salvage
from companion.standings import standing
from companion.store import ACTIVE, FINISHED, MatchSummary, Store
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
    """Run the command line in the terminal's language (app/terminal.py); returns the
    exit code."""
    term = terminal()
    if term.unshipped:
        print(unshipped_word(term), file=sys.stderr)
    with speaking(term.language):
        args = _parser(build()).parse_args(argv)
        args.terminal = term
        try:
            return args.handler(args)
        except CompanionError as err:
            return refused(err)
        except BrokenPipeError:  # e.g. `companion export 3 | head`
            return 0


class Parser(argparse.ArgumentParser):
    """argparse's parser, its own words said in the language spoken (documented API only):
    its help option is added here (``add_help=False``), every argument goes in one group
    titled in that language (``add_argument_group``, so argparse's English headings stay
    empty and unshown), and :meth:`error` says ``error`` in it. What argparse itself
    writes into an error (``the following arguments are required``, ``invalid choice``)
    and the word ``usage:`` are argparse's own English: it offers no documented way in."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._words = self.add_argument_group(translate(_("arguments")))
        self._words.add_argument("-h", "--help", action="help",
                                 help=translate(_("show this help and exit")))

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if "help" in kwargs and isinstance(kwargs["help"], Text):
            kwargs["help"] = translate(kwargs["help"])
        return self._words.add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, translate(_("{prog}: error: {message}", prog=self.prog,
                                 message=message)) + "\n")


def _parser(catalog: Catalog) -> argparse.ArgumentParser:
    """The command line over the games of ``catalog`` (every handler finds it in
    ``args.catalog``), its help in the language spoken."""
    t = translate
    parser = Parser(
        prog="companion",
        description=t(_("Table Companion: scores and bookkeeping beside a game.")))
    parser.set_defaults(catalog=catalog)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help=_("show the version and exit"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                title=t(_("commands")))
    data_help = _("folder of the match database")

    run = sub.add_parser("run", help=t(_("run the companion on the table hardware "
                                         "(or --sim)")))
    run.add_argument("--sim", action="store_true", help=_("simulated hardware"))
    run.add_argument("--config", type=Path, help=_("TOML configuration file"))
    run.add_argument("--data", type=Path, help=data_help)
    run.add_argument("--host", type=_host, help=_("address to serve on"))
    run.add_argument("--port", type=_port, help=_("port to serve on (0: any free one)"))
    run.add_argument("--pin", help=_("host PIN (else config or $COMPANION_PIN, else the "
                                     "one kept in the data folder)"))
    run.add_argument("--new-pin", action="store_true",
                     help=_("make a new host PIN (and log every host out), unless one is "
                            "chosen"))
    run.set_defaults(handler=_run)

    hall = sub.add_parser("hall", help=t(_("serve one page of every table on an MQTT "
                                           "broker")),
                          description=t(_("The hall board: every table that publishes to "
                                          "the broker, live on one page. The broker "
                                          "password comes from $COMPANION_MQTT_PASSWORD.")))
    hall.add_argument("--mqtt", required=True, metavar="URL",
                      help=_("the broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"))
    hall.add_argument("--host", type=_host, default="0.0.0.0",
                      help=_("address to serve on (default 0.0.0.0: every address)"))
    hall.add_argument("--port", type=_port, default=8081,
                      help=_("port to serve on (default 8081; 0: any free one)"))
    hall.add_argument("--prefix", default=DEFAULT_PREFIX,
                      help=_("the tables' topic prefix (default {prefix})",
                             prefix=DEFAULT_PREFIX))
    hall.add_argument("--ca-file", type=Path, metavar="FILE",
                      help=_("CA certificate of an mqtts:// broker (default: the "
                             "system's CAs)"))
    hall.add_argument("--user", metavar="NAME", help=_("broker user name"))
    hall.add_argument("--data", type=Path,
                      help=_("folder of the club leaderboard's file (hall.db; default: "
                             "the companion's data folder)"))
    hall.add_argument("--director-pin", metavar="PIN",
                      help=_("the club night director's PIN, 4-12 digits (else "
                             "$COMPANION_DIRECTOR_PIN, else the one kept in --data, else "
                             "a new one, kept there and printed)"))
    hall.add_argument("--language", metavar="LANG",
                      help=_("the hall's pages' language: {languages} (a browser may "
                             "choose another on the page; default: each browser's)",
                             languages=", ".join(LANGUAGES)))
    hall.set_defaults(handler=_hall)

    file_help = _("match file (JSON lines), or - for standard input")
    seed_help = _("seed for dice the file leaves unrolled")
    replay = sub.add_parser("replay", help=t(_("replay a match file and print its final "
                                               "view")))
    replay.add_argument("file", help=file_help)
    replay.add_argument("--seed", type=int, help=seed_help)
    replay.set_defaults(handler=_replay)

    history = sub.add_parser("history", help=t(_("list stored matches, newest first")))
    history.add_argument("--data", type=Path, help=data_help)
    history.add_argument("--json", action="store_true",
                         help=_("print JSON instead of a table"))
    history.set_defaults(handler=_history)

    export = sub.add_parser("export", help=t(_("print a stored match as a match file")))
    export.add_argument("id", type=int, help=_("match id (see `companion history`)"))
    export.add_argument("--data", type=Path, help=data_help)
    export.set_defaults(handler=_export)

    imp = sub.add_parser("import", help=t(_("check a match file and add it to the "
                                            "history")))
    imp.add_argument("file", help=file_help)
    imp.add_argument("--data", type=Path, help=data_help)
    imp.add_argument("--seed", type=int, help=seed_help)
    imp.set_defaults(handler=_import)

    rescue = sub.add_parser(
        "salvage", help=t(_("bring back the matches a damaged database's journal holds")),
        description=t(_("Read the damaged database COPY (the file kept in a "
                        "damaged-<time> folder, or that folder) page by page, replay each "
                        "match its journal holds through the rules, and add those not in "
                        "the match database yet. Stop the companion first. COPY is only "
                        "read.")))
    rescue.add_argument("copy", type=Path, metavar="COPY",
                        help=_("the damaged companion.db (or the damaged-<time> folder)"))
    rescue.add_argument("--data", type=Path,
                        help=_("folder of the match database to add to"))
    rescue.set_defaults(handler=_salvage)

    players_command.register(sub, open_store, catalog)
    return parser


def _host(text: str) -> str:
    if not valid_host(text):
        raise argparse.ArgumentTypeError(translate(_(
            "{value} is not an IP address or host name (0.0.0.0 serves on every address)",
            value=repr(text))))
    return text


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(translate(_(
            "must be a port number 0-65535, got {value}", value=repr(text))))
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
        raise CompanionError(_("cannot read {path}: {reason}", path=path,
                               reason=_os_reason(err))) from None


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
        say(_("no matches yet"))
        return 0
    # Each column as wide as its heading in the language spoken, or its widest value.
    heads = [translate(h) for h in (C_("column", "ID"), _("STARTED (UTC)"),
                                    C_("column", "GAME"), C_("column", "STATUS"),
                                    _("PLAYERS / RESULT"))]
    statuses = {s: translate(w) for s, w in STATUS_WORDS.items()}
    widths = [max(4, len(heads[0])), max(16, len(heads[1])), max(16, len(heads[2])),
              max(9, len(heads[3]), *map(len, statuses.values()))]
    print(f"{heads[0]:>{widths[0]}}  {heads[1]:{widths[1]}}  {heads[2]:{widths[2]}}  "
          f"{heads[3]:{widths[3]}}  {heads[4]}")
    for r in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.started_at))
        result = translate(_result(r, args.catalog))
        title = args.catalog.title(r.game)
        status = statuses.get(r.status, r.status)
        print(f"{r.id:>{widths[0]}}  {started:{widths[1]}}  {title:{widths[2]}}  "
              f"{status:{widths[3]}}  {result}")
    return 0


def _result(r: MatchSummary, catalog: Catalog) -> str:
    """A history row's players and result, ``Ann v Bob: Ann won 6-4 (ruling)``: a marked
    message (:func:`translate` says it)."""
    result: str = label(r.players, r.teams)
    won = [r.players[p] for p in r.winners]
    game = catalog.kit(r.game)
    if len(won) > 1 and game is not None and game.game.shared_wins:
        names = reduce(lambda first, second: _("{first} and {second}", first=first,
                                                second=second), won)
        result = _("{players}: {names} share the win", players=result, names=names)
    elif won:
        result = _("{players}: {names} won", players=result, names=TEAM_JOIN.join(won))
    if r.summary:
        result = _("{result} {summary}", result=result, summary=r.summary)
    if r.ruling is not None:
        result = _("{result} ({ruling})", result=result, ruling=ruling_words(r.ruling))
    return result


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
            raise CompanionError(_("this match is already stored as match {id} (same "
                                   "start, actions and dice); nothing was imported",
                                   id=stored_as))
        match_id = store.import_match(
            match.start.to_json(), list(match.events),
            status=ACTIVE if winner is None else FINISHED,
            winner=winner, summary=match.game.summary(match.state), started_at=file.started,
            standing=None if winner is None else standing(args.catalog.kit(match.start.game),
                                                          match.view()),
        )
    if winner is not None:
        say(_("imported as match {id} (finished)", id=match_id))
    else:
        say(_("imported as match {id} (unfinished: the table resumes it)", id=match_id))
    return 0


def _salvage(args: argparse.Namespace) -> int:
    copy = args.copy / DB_NAME if args.copy.is_dir() else args.copy
    if not copy.is_file():
        raise CompanionError(_("{path}: no such file (give the damaged companion.db, or "
                               "the damaged-<time> folder holding it)", path=copy))
    live = (args.data or default_data_dir()) / DB_NAME
    if live.exists() and copy.resolve() == live.resolve():
        raise CompanionError(_("{path} is the match database itself: give the damaged "
                               "copy the companion moved aside "
                               "(damaged-<time>/companion.db)", path=copy))
    with open_store(args.data) as store:
        report = salvage(copy, store, args.catalog)
    for line in report.lines():
        say(line)
    return 0


def _os_reason(err: Exception) -> str:
    """What an OSError or a decoding error says (the system's words: ``strerror``)."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err)


if __name__ == "__main__":
    sys.exit(main())
