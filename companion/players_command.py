# i18n: words not marked yet (issue #40)
"""``companion players``: list the table's players and ratings, rename one, merge two.

Registered by app/cli.py (:func:`register`); the logic lives here. A
rename or merge from the command line rewrites the database like the host's
request does (``POST /api/players/rename``, ``/merge``); a companion running
on that database shows it for the match on the table after its restart, so
while it runs use the host page or the API.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from companion.catalog import Catalog
from companion.games.base import name_key
from companion.ratings import table_ratings
from companion.store import Store
from companion.table import summary_of

OpenStore = Callable[..., Store]


def register(sub: argparse._SubParsersAction, open_store: OpenStore, catalog: Catalog
             ) -> None:
    """Add ``players`` and its subcommands, over the games of ``catalog``, to the command
    line's ``sub``."""
    players = sub.add_parser("players", help="list, rename or merge the table's players",
                             description="The players of the table's matches and their "
                             "ratings per game (computed from the finished matches).")
    acts = players.add_subparsers(dest="players_command", required=True, metavar="ACTION")
    listing = acts.add_parser("list", help="the players, or one game's leaderboard")
    listing.add_argument("--game", choices=list(catalog), help="that game's leaderboard")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    rename = acts.add_parser("rename", help="show a player by a new name everywhere")
    rename.add_argument("name", help="the player's name now (any case and spacing)")
    rename.add_argument("new", help="the name to show (at most 16 characters)")
    merge = acts.add_parser("merge", help="make two names one player")
    merge.add_argument("name", help="the name whose matches move")
    merge.add_argument("into", help="the player they become (and whose name stays)")
    for p in (listing, rename, merge):
        p.add_argument("--data", type=Path, help="folder of the match database")
    listing.set_defaults(handler=lambda args: _list(args, open_store, catalog))
    rename.set_defaults(handler=lambda args: _rename(args, open_store, catalog))
    merge.set_defaults(handler=lambda args: _merge(args, open_store, catalog))


def _list(args: argparse.Namespace, open_store: OpenStore, catalog: Catalog) -> int:
    with open_store(args.data, create=False) as store:
        if args.game is None:
            rows = store.players()
            if args.json:
                _print_json([{"name": p.name, "matches": p.matches, "last_played": None
                              if p.last_played is None else
                              time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(p.last_played))}
                             for p in rows])
            elif not rows:
                print("no players yet")
            else:
                print(f"{'PLAYER':16}  {'MATCHES':>7}  LAST PLAYED (UTC)")
                for p in rows:
                    when = ("" if p.last_played is None
                            else time.strftime("%Y-%m-%d %H:%M", time.gmtime(p.last_played)))
                    print(f"{p.name:16}  {p.matches:>7}  {when}")
            return 0
        board = table_ratings(store, catalog).board(args.game)
    if args.json:
        _print_json([{"place": i + 1, **r.to_json()} for i, r in enumerate(board)])
    elif not board:
        print(f"no finished {catalog.title(args.game)} match yet")
    else:
        print(f"{'#':>3}  {'PLAYER':16}  {'RATING':>7}  {'PLAYED':>6}  {'WON':>4}  FORM")
        for i, r in enumerate(board, start=1):
            rating = f"{r.ordinal:.1f}{'*' if r.provisional else ''}"
            print(f"{i:>3}  {r.name:16}  {rating:>7}  {r.matches:>6}  {r.wins:>4}  "
                  f"{''.join(r.form)}")
        print("* provisional: fewer than 5 matches")
    return 0


def _rename(args: argparse.Namespace, open_store: OpenStore, catalog: Catalog) -> int:
    with open_store(args.data, create=False) as store:
        store.rename_player(args.name, args.new, lambda stored: summary_of(stored, catalog))
        shown = store.names()
    print(f"{args.name.strip()} is now {shown[name_key(args.new)]}")
    return 0


def _merge(args: argparse.Namespace, open_store: OpenStore, catalog: Catalog) -> int:
    with open_store(args.data, create=False) as store:
        store.merge_players(args.name, args.into, lambda stored: summary_of(stored, catalog))
        shown = store.names()
    print(f"{args.name.strip()} and {shown[name_key(args.into)]} are one player: "
          f"{shown[name_key(args.into)]}")
    return 0


def _print_json(value: object) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
