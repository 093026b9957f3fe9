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
from companion.i18n import C_, N_, _, translate
from companion.names import MAX_NAME
from companion.ratings import PROVISIONAL, table_ratings
from companion.store import Store
from companion.table import summary_of

OpenStore = Callable[..., Store]


def register(sub: argparse._SubParsersAction, open_store: OpenStore, catalog: Catalog
             ) -> None:
    """Add ``players`` and its subcommands, over the games of ``catalog``, to the command
    line's ``sub``."""
    t = translate
    players = sub.add_parser("players", help=t(_("list, rename or merge the table's players")),
                             description=t(_("The players of the table's matches and their "
                                             "ratings per game (computed from the finished "
                                             "matches).")))
    acts = players.add_subparsers(dest="players_command", required=True, metavar="ACTION",
                                  title=t(_("actions")))
    listing = acts.add_parser("list", help=t(_("the players, or one game's leaderboard")))
    listing.add_argument("--game", choices=list(catalog), help=t(_("that game's leaderboard")))
    listing.add_argument("--json", action="store_true",
                         help=t(_("print JSON instead of a table")))
    rename = acts.add_parser("rename", help=t(_("show a player by a new name everywhere")))
    rename.add_argument("name", help=t(_("the player's name now (any case and spacing)")))
    rename.add_argument("new", help=t(N_("the name to show (at most {n} character)",
                                         "the name to show (at most {n} characters)",
                                         MAX_NAME)))
    merge = acts.add_parser("merge", help=t(_("make two names one player")))
    merge.add_argument("name", help=t(_("the name whose matches move")))
    merge.add_argument("into", help=t(_("the player they become (and whose name stays)")))
    for p in (listing, rename, merge):
        p.add_argument("--data", type=Path, help=t(_("folder of the match database")))
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
                print(translate(_("no players yet")))
            else:
                player, matches, last = (translate(h) for h in (
                    C_("column", "PLAYER"), C_("column", "MATCHES"),
                    _("LAST PLAYED (UTC)")))
                wide, count = max(16, len(player)), max(7, len(matches))
                print(f"{player:{wide}}  {matches:>{count}}  {last}")
                for p in rows:
                    when = ("" if p.last_played is None
                            else time.strftime("%Y-%m-%d %H:%M", time.gmtime(p.last_played)))
                    print(f"{p.name:{wide}}  {p.matches:>{count}}  {when}")
            return 0
        board = table_ratings(store, catalog).board(args.game)
    if args.json:
        _print_json([{"place": i + 1, **r.to_json()} for i, r in enumerate(board)])
    elif not board:
        print(translate(_("no finished {game} match yet", game=catalog.title(args.game))))
    else:
        player, rating_head, played, won, form = (translate(h) for h in (
            C_("column", "PLAYER"), C_("column", "RATING"), C_("column", "PLAYED"),
            C_("column", "WON"), C_("column", "FORM")))
        w = [max(16, len(player)), max(7, len(rating_head)), max(6, len(played)),
             max(4, len(won))]
        print(f"{'#':>3}  {player:{w[0]}}  {rating_head:>{w[1]}}  {played:>{w[2]}}  "
              f"{won:>{w[3]}}  {form}")
        for i, r in enumerate(board, start=1):
            rating = f"{r.ordinal:.1f}{'*' if r.provisional else ''}"
            print(f"{i:>3}  {r.name:{w[0]}}  {rating:>{w[1]}}  {r.matches:>{w[2]}}  "
                  f"{r.wins:>{w[3]}}  {''.join(r.form)}")
        print(translate(N_("* provisional: fewer than {n} match",
                           "* provisional: fewer than {n} matches", PROVISIONAL)))
    return 0


def _rename(args: argparse.Namespace, open_store: OpenStore, catalog: Catalog) -> int:
    with open_store(args.data, create=False) as store:
        store.rename_player(args.name, args.new, lambda stored: summary_of(stored, catalog))
        shown = store.names()
    print(translate(_("{name} is now {new}", name=args.name.strip(),
                      new=shown[name_key(args.new)])))
    return 0


def _merge(args: argparse.Namespace, open_store: OpenStore, catalog: Catalog) -> int:
    with open_store(args.data, create=False) as store:
        store.merge_players(args.name, args.into, lambda stored: summary_of(stored, catalog))
        shown = store.names()
    print(translate(_("{name} and {into} are one player: {into}", name=args.name.strip(),
                      into=shown[name_key(args.into)])))
    return 0


def _print_json(value: object) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
