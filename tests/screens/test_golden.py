"""Golden images of every screen, reached by pressing buttons on a real panel.

A frame that differs from its golden PNG fails the test and is written next
to it as ``NAME.actual.png`` to look at. After a deliberate change, refresh
the goldens with ``UPDATE_GOLDEN=1 ./test tests/screens`` and look at every
changed image before committing it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.i18n import _
from companion.inputs import Input
from companion.login_code import LoginCodes
from companion.panel import Panel
from companion.store import Store
from companion.table import Table
from companion.ui.controls import Context
from companion.ui.oled import render
from tests.support import CATALOG

GOLDEN = Path(__file__).parent / "golden"
CTX = Context(CATALOG, names=("Ann", "Bob", "Cy", "Di"), address="http://192.168.1.23:8080/")
START = {"game": "center-court", "players": ["Ann", "Bob"], "options": {"sets": 3}}


def press(panel: Panel, *buttons: str) -> None:
    for b in buttons:
        hold = b.endswith("!")
        panel.handle(Input(b.rstrip("!"), hold=hold))


def points(table: Table, *winners: int) -> None:
    for w in winners:
        table.act({"type": "point", "winner": w})


def started(table: Table, panel: Panel) -> None:
    table.start(START)


def won(*games: int) -> list[int]:
    """The points of whole games won by these players, four straight each."""
    return [w for g in games for w in [g] * 4]


def five_setter(table: Table, panel: Panel) -> None:
    """Alexander beats Alexandra 6-4 3-6 7-6(7-5) 4-6 12-10 (advantage final set)."""
    table.start({"game": "center-court", "players": ["Alexandra", "Alexander"],
                 "options": {"sets": 5, "final_set": "advantage"}})
    points(table, *won(*[0, 1] * 4, 1, 1), *won(*[0, 1] * 3, 0, 0, 0),
           *won(*[0, 1] * 6), *[0] * 5, *[1] * 7, *won(*[0, 1] * 4, 0, 0),
           *won(*[0, 1] * 10, 1, 1))


def match_tiebreak_won(table: Table, panel: Panel) -> None:
    """Ann wins 6-4 4-6 [10-8]."""
    table.start({**START, "options": {"sets": 3, "final_set": "match-tiebreak"}})
    points(table, *won(*[0, 1] * 4, 0, 0), *won(*[0, 1] * 4, 1, 1), *[0, 1] * 8, 0, 0)


SCENES: dict[str, Callable[[Table, Panel], None]] = {
    "welcome": lambda t, p: None,
    "setup": lambda t, p: press(p, "ok"),
    "setup-start": lambda t, p: press(p, "ok", *["next"] * 7),
    "board-new": started,
    "board-deuce": lambda t, p: (started(t, p), points(t, 0, 1, 0, 1, 0, 1)),
    "board-advantage": lambda t, p: (started(t, p), points(t, 0, 1, 0, 1, 0, 1, 1)),
    "board-fault": lambda t, p: (started(t, p),
                                 t.act({"type": "serve", "card": 5, "roll": 5})),
    "board-double-fault": lambda t, p: (started(t, p),
                                        t.act({"type": "serve", "card": 5, "roll": 5}),
                                        t.act({"type": "serve", "card": 2, "roll": 2})),
    "board-in-play": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 4})),
    # A good serve the die was rolled for shows the die until the first return.
    "board-served": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 5, "roll": 2})),
    "board-tiebreak": lambda t, p: (started(t, p), points(t, *([0] * 4 + [1] * 4) * 6, 0, 1, 1)),
    "board-second-set": lambda t, p: (started(t, p), points(t, *[0] * 24, 1, 1, 0)),
    "board-over": lambda t, p: (started(t, p), points(t, *[1] * 48)),
    "board-over-five-sets": five_setter,
    "board-over-match-tiebreak": match_tiebreak_won,
    "board-second-serve-in-play": lambda t, p: (started(t, p),
                                                t.act({"type": "serve", "card": 5, "roll": 5}),
                                                t.act({"type": "serve", "card": 2, "roll": 6})),
    "serve": lambda t, p: (started(t, p), press(p, "ok")),
    "serve-five": lambda t, p: (started(t, p), press(p, "ok", "next", "next")),
    # The row opens on the server's own last card.
    "serve-again": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 6, "roll": 1}),
                                 points(t, 0), press(p, "ok")),
    "roll": lambda t, p: (started(t, p), press(p, "ok", "next", "next", "ok!")),
    "return": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 6, "roll": 1}),
                            press(p, "ok", "prev", "prev")),
    "menu": lambda t, p: (started(t, p), points(t, 0), press(p, "back")),
    "confirm": lambda t, p: (started(t, p), press(p, "back", "next", "ok")),
    # Start on a new match's setup while this one is unfinished.
    "confirm-new": lambda t, p: (started(t, p), press(p, "back", "ok", "prev", "ok")),
    "history": lambda t, p: (started(t, p), points(t, *[1] * 48), t.start(START),
                             points(t, 0), press(p, "back", "next", "next", "next", "ok")),
    "history-empty": lambda t, p: press(p, "prev"),
    # Names that begin alike, and the names the panel offers out of the box.
    "board-names": lambda t, p: t.start({**START, "players": ["Alexandra", "Alexander"]}),
    "board-default-names": lambda t, p: t.start({**START, "players": ["Player 1", "Player 2"]}),
    "info": lambda t, p: press(p, "next"),
    "code": lambda t, p: press(p, "back", *["next"] * 3, "ok"),
    # The Language menu (last in the menu), the cursor on the language spoken.
    "language": lambda t, p: press(p, "back", "prev", "ok"),
    # A broker configured: its status under the address, the QR code as it was (each
    # status a message, as drivers/mqtt.py reports it: said in the OLED's language).
    "info-mqtt-connected": lambda t, p: (p.show_broker(_("connected")), press(p, "next")),
    "info-mqtt-refused": lambda t, p: (press(p, "next"),
                                       p.show_broker(_("refused: bad user or password"))),
    "info-mqtt-tls": lambda t, p: (press(p, "next"),
                                   p.show_broker(_("TLS: certificate not trusted"))),
    # Undo (hold BACK) before anything was recorded.
    "refused": lambda t, p: (started(t, p), press(p, "back!")),
    # The phone awards the point while the return screen is open on the panel.
    "changed": lambda t, p: (started(t, p), t.act({"type": "serve", "card": 4}),
                             press(p, "ok"), points(t, 0)),
}


WD_START = {"game": "wizard-dodgeball", "players": ["Owls", "Newts"],
            "options": {"rosters": [[21, 58, 12, 33, 7], [45, 30, 10, 41, 25]]}}


def wd(table: Table, panel: Panel, **options) -> None:
    table.start({**WD_START, "options": {**WD_START["options"], **options}})


def wd_play(table: Table, panel: Panel) -> None:
    """#21 freezes #45 and hits #30; #45's activation begins."""
    wd(table, panel)
    table.act({"type": "cast", "caster": 21, "spell": "freeze", "targets": [45]})
    table.act({"type": "throw", "thrower": 21, "target": 30, "range": 2,
               "target_holding_ball": False, "rolls": {"throw": [4, 5], "dodge": [2, 3]}})
    table.act({"type": "end_activation"})


def wd_second(table: Table, panel: Panel) -> None:
    """#30 acts after #45 hit #12, so Owls have someone to bring back on a catch."""
    wd(table, panel)
    table.act({"type": "cast", "caster": 21, "spell": "shield", "targets": [58]})
    table.act({"type": "end_activation"})
    table.act({"type": "hit", "thrower": 45, "target": 12})
    table.act({"type": "end_activation"})
    table.act({"type": "end_activation"})


WD_SCENES: dict[str, Callable[[Table, Panel], None]] = {
    "board-wd-new": wd,
    "board-wd-play": wd_play,
    "board-wd-back": lambda t, p: (wd(t, p), t.act({"type": "hit", "thrower": 21, "target": 45}),
                                   t.act({"type": "end_activation"})),
    "board-wd-advanced": lambda t, p: (wd(t, p, turn="advanced", spells=[["speed"], ["slow"]],
                                          wizards={str(j): {"magic": 2} for j in
                                                   [21, 58, 12, 33, 7, 45, 30, 10, 41, 25]})),
    "board-wd-elimination": lambda t, p: (wd(t, p, variant="elimination"),
                                          t.act({"type": "hit", "thrower": 21, "target": 45}),
                                          t.act({"type": "end_activation"})),
    "board-wd-over": lambda t, p: (wd(t, p, target=1),
                                   t.act({"type": "hit", "thrower": 21, "target": 45})),
    "board-wd-used": lambda t, p: (wd(t, p), t.act({"type": "pass", "thrower": 21, "to": 58})),
    "board-wd-advanced-used": lambda t, p: (
        wd(t, p, turn="advanced", spells=[["speed"], ["slow"]],
           wizards={str(j): {"magic": 2} for j in [21, 58, 12, 33, 7, 45, 30, 10, 41, 25]}),
        t.act({"type": "cast", "caster": 21, "spell": "speed", "targets": [21]})),
    "wd-receiver": lambda t, p: (wd(t, p), press(p, "ok", *["next"] * 4, "ok")),
    # #21's Fireball ball dropped by Butter Fingers: #58's hit asks which ball it was.
    "wd-fireball": lambda t, p: (wd(t, p),
                                 t.act({"type": "cast", "caster": 21, "spell": "fireball",
                                        "targets": [21]}),
                                 t.act({"type": "end_activation"}),
                                 t.act({"type": "cast", "caster": 45,
                                        "spell": "butter_fingers", "targets": [21]}),
                                 t.act({"type": "end_activation"}),
                                 press(p, "ok", "next", "next", "ok", "ok")),
    "board-wd-loose-fireball": lambda t, p: (wd(t, p),
                                             t.act({"type": "cast", "caster": 21,
                                                    "spell": "fireball", "targets": [21]}),
                                             t.act({"type": "end_activation"}),
                                             t.act({"type": "cast", "caster": 45,
                                                    "spell": "butter_fingers",
                                                    "targets": [21]}),
                                             t.act({"type": "end_activation"})),
    "board-wd-slow": lambda t, p: (wd(t, p), t.act({"type": "end_activation"}),
                                   t.act({"type": "cast", "caster": 45, "spell": "slow",
                                          "targets": [58]}),
                                   t.act({"type": "end_activation"})),
    "board-wd-speed-used": lambda t, p: (wd(t, p),
                                         t.act({"type": "cast", "caster": 21, "spell": "speed",
                                                "targets": [21]})),
    "wd-cards": lambda t, p: (wd_play(t, p), press(p, "prev")),
    "wd-act": lambda t, p: (wd(t, p), press(p, "ok")),
    "wd-target": lambda t, p: (wd(t, p), press(p, "ok", "ok")),
    "wd-range": lambda t, p: (wd(t, p), press(p, "ok", "ok", "next", "ok")),
    "wd-range-3": lambda t, p: (wd(t, p), press(p, "ok", "ok", "ok", "next", "next")),
    "wd-ball": lambda t, p: (wd(t, p), press(p, "ok", "ok", "ok", "ok")),
    "wd-catcher": lambda t, p: (wd_second(t, p), press(p, "ok", *["next"] * 3, "ok")),
    "wd-returning": lambda t, p: (wd_second(t, p), press(p, "ok", *["next"] * 3, "ok", "next",
                                                         "ok")),
    "wd-spell": lambda t, p: (wd(t, p), press(p, "ok", "next", "ok")),
    "wd-targets": lambda t, p: (wd(t, p), press(p, "ok", "next", "ok", "next", "ok")),
    "wd-targets-several": lambda t, p: (wd(t, p), press(p, "ok", "next", "ok", "next", "ok",
                                                        "prev", "ok", "ok", "next", "ok")),
    "wd-how": lambda t, p: (wd(t, p), press(p, "ok", "next", "ok", "next", "ok", "ok")),
    "wd-wearer": lambda t, p: (wd_second(t, p), press(p, "ok", *["next"] * 4, "ok")),
    "wd-effect": lambda t, p: (wd_second(t, p), press(p, "ok", *["next"] * 4, "ok", "ok")),
    "wd-dispel-how": lambda t, p: (wd_second(t, p), press(p, "ok", *["next"] * 4, "ok", "ok",
                                                          "ok")),
    "setup-wd": lambda t, p: press(p, "ok", "ok", *["next"] * 7),
    "wd-jersey": lambda t, p: press(p, "ok", "ok", *["next"] * 7, "ok", "next", "next"),
    "wd-jersey-units": lambda t, p: press(p, "ok", "ok", *["next"] * 7, "ok", "next", "next",
                                          "ok", "prev"),
    "setup-wd-set": lambda t, p: press(p, "ok", "ok", *["next"] * 7, "ok", "next", "next",
                                       "ok", "prev", "ok"),
}
SCENES.update(WD_SCENES)


SLAM_PLAYERS = {2: ["Ann", "Bob"], 3: ["Ann", "Bob", "Cy"], 4: ["Ann", "Bob", "Cy", "Di"]}
SLAM_CHARACTERS = {2: ["austin", "laurie"], 3: ["rich", "josephias", "simon"],
                   4: ["toots", "laurie", "wendolyn", "sarissia"]}
#: Ann serves from the red corner with B2: in at (2,3).
SERVE = {"type": "serve", "player": 0, "corner": "red", "cards": ["B2"]}


def slam(table: Table, panel: Panel, players: int = 2, **options) -> None:
    table.start({"game": "alakaslam", "players": SLAM_PLAYERS[players],
                 "options": {"characters": SLAM_CHARACTERS[players], **options}})


def slam_rally(table: Table, panel: Panel) -> None:
    """Ann's serve is in; Bob returns R2 with an Enchant-2 on her: she must play 2."""
    slam(table, panel)
    table.act(SERVE)
    table.act({"type": "shot", "player": 1, "cards": ["R2", "E2"]})


def slam_doubles_rally(table: Table, panel: Panel) -> None:
    """Doubles: Ann (Toots) used her ability; Ann and Bob serve, Cy must play 3."""
    slam(table, panel, 4)
    table.act({"type": "ability", "player": 0})
    table.act({"type": "serve", "player": 0, "corner": "red", "cards": ["B1"],
               "support": {"player": 1, "cards": ["B1", "E3"], "enchant": 2}})


def slam_canadian_serve(table: Table, panel: Panel) -> None:
    """Canadian: Bob and Cy serve (Cy is Simon, copying Rich); the picker on Bob's row."""
    slam(table, panel, 3, first_server=1)
    table.act({"type": "copy", "player": 2, "character": "rich"})


SLAM_SCENES: dict[str, Callable[[Table, Panel], None]] = {
    "board-slam-singles": slam,
    "board-slam-canadian": lambda t, p: slam(t, p, 3),
    "board-slam-doubles": lambda t, p: slam(t, p, 4),
    "board-slam-coin": lambda t, p: slam(t, p, first_server="coin"),
    "board-slam-rally": slam_rally,
    "board-slam-doubles-rally": slam_doubles_rally,
    "board-slam-laurie": lambda t, p: (slam(t, p), t.act(SERVE),
                                       t.act({"type": "shot", "player": 1, "cards": ["R2"],
                                              "ability": True})),
    "board-slam-net": lambda t, p: (slam(t, p), t.act(SERVE),
                                    t.act({"type": "shot", "player": 1, "cards": ["R0"]})),
    "board-slam-before-serve": lambda t, p: (slam_canadian_serve(t, p),
                                             t.act({"type": "mulligan", "player": 0})),
    "board-slam-over": lambda t, p: (slam(t, p, target=1), t.act(SERVE),
                                     t.act({"type": "shot", "player": 1, "cards": ["B3"]})),
    # The longest reason with the names the panel gives by default: all fits.
    "board-slam-long-names": lambda t, p: (
        t.start({"game": "alakaslam", "players": ["Player 3", "Player 4"],
                 "options": {"characters": ["austin", "rich"]}}),
        t.act({"type": "mulligan", "player": 1}),
        t.act({"type": "serve", "player": 0, "corner": "blue", "cards": ["R1"]}),
        t.act({"type": "mulligan", "player": 0})),
    "refused-slam": lambda t, p: (slam_rally(t, p), press(p, "ok", "prev", "ok", "ok")),
    # A long refusal is raised to be read whole: Rich's Enchant-2 on a long name.
    "refused-slam-long": lambda t, p: (
        t.start({"game": "alakaslam", "players": ["Player 3", "Player 4"],
                 "options": {"characters": ["austin", "rich"]}}),
        t.act(SERVE), t.act({"type": "shot", "player": 1, "cards": ["R2", "E2"]}),
        press(p, "ok", "prev", "ok", "ok")),
    "setup-slam": lambda t, p: press(p, "ok", "ok", "ok"),
    "setup-slam-characters": lambda t, p: press(p, "ok", "ok", "ok", *["next"] * 6),
    "setup-slam-canadian": lambda t, p: press(p, "ok", "ok", "ok", "next", "ok",
                                              *["next"] * 9),
    # Ann's partner changed from Bob to Cy.
    "setup-slam-doubles": lambda t, p: press(p, "ok", "ok", "ok", "next", "ok", "ok",
                                             *["next"] * 11, "ok"),
    "slam-corner": lambda t, p: (slam(t, p), press(p, "ok")),
    "slam-cards": lambda t, p: (slam(t, p), press(p, "ok", "ok")),
    "slam-cards-in": lambda t, p: (slam(t, p), press(p, "ok", "ok", "next", "next")),
    "slam-cards-bad-serve": lambda t, p: (slam(t, p), press(p, "ok", "ok", "prev", "ok",
                                                            "next", "next")),
    # Bob (Laurie) plays a normal shot: B3 goes out, R0 stays on his half.
    "slam-cards-out": lambda t, p: (slam(t, p), t.act(SERVE), press(p, "ok", "ok", "next",
                                                                     "next", "next")),
    "slam-cards-net": lambda t, p: (slam(t, p), t.act(SERVE), press(p, "ok", "ok",
                                                                     *["prev"] * 4)),
    "slam-cards-enchanted": lambda t, p: (slam_rally(t, p), press(p, "ok", "next", "ok")),
    "slam-cards-support": lambda t, p: (slam_canadian_serve(t, p),
                                        press(p, "ok", "ok", "ok", "prev", "ok", "ok", "next")),
    "slam-player": lambda t, p: (slam_canadian_serve(t, p), press(p, "ok")),
    # Cy (under Enchant-3) plays R1 B1 E2, Di supports with R0: whom does the E2 bind?
    "slam-enchant": lambda t, p: (slam_doubles_rally(t, p),
                                  press(p, "ok", "ok", "prev", "ok", "next", "ok",
                                        *["next"] * 5, "ok", "ok", *["prev"] * 4, "ok", "ok")),
    "slam-laurie": lambda t, p: (slam(t, p), t.act(SERVE), press(p, "ok")),
    # Doubles: Ann (Toots) serves B1; Bob (Laurie), her Support, may use her ability.
    "slam-laurie-support": lambda t, p: (slam(t, p, 4), press(p, "ok", "ok", "ok", "next",
                                                                "ok", "ok")),
    # The ball in play: a point only for Ann, who hit last.
    "slam-more-rally": lambda t, p: (slam(t, p), t.act(SERVE), press(p, "prev")),
    # Before the serve a bad serve is the receivers' point: Bob's reasons include it.
    "slam-reason-receivers": lambda t, p: (slam(t, p), press(p, "prev", "next", "ok")),
    "slam-more": lambda t, p: (slam_canadian_serve(t, p), press(p, "prev")),
    "slam-reason": lambda t, p: (slam(t, p), press(p, "prev", "ok")),
    "slam-who": lambda t, p: (slam(t, p), press(p, "prev", "next", "next", "ok")),
    "slam-who-ability": lambda t, p: (slam(t, p, 4), press(p, "prev", *["next"] * 3, "ok")),
    "slam-copy": lambda t, p: (slam(t, p, 3), press(p, "prev", "prev", "ok")),
}
SCENES.update(SLAM_SCENES)


ZOO_PLAYERS = ["Ann", "Bob", "Cleo", "Di"]


def zoo(table: Table, panel: Panel, players: int = 2, **options) -> None:
    table.start({"game": "alakazoo", "players": ZOO_PLAYERS[:players], "options": options})


def zoo_act(table: Table, *actions: dict) -> None:
    for action in actions:
        table.act(action)


def show(space: int, creature: int) -> dict:
    return {"type": "display", "space": space, "creature": creature}


END_TURN = {"type": "end_turn"}


def zoo_play(table: Table, panel: Panel) -> None:
    """Four players in round 2: Cleo (Unicorn) has rolled, others hold points and Dark Power."""
    zoo(table, panel, 4)
    zoo_act(table, {"type": "roll", "dice": 3}, show(5, 1), show(1, 2), END_TURN,
            {"type": "dark_power", "reason": "hand"}, show(5, 2), END_TURN,
            show(3, 3), show(9, 3), {"type": "dark_power", "reason": "hand"}, END_TURN,
            {"type": "dark_power", "reason": "hand"},
            {"type": "dark_power", "reason": "hand"}, END_TURN,
            show(2, 1), END_TURN, END_TURN, {"type": "roll", "dice": 2})


def three(creature: int, row: int) -> list[dict]:
    """A column, then displays of ``creature`` on row ``row`` (0-2) of the portal: one
    turn's most, paid by 6 Magic Power (see :func:`charge`)."""
    return [{"type": "column"}, *(show(s, creature) for s in range(3 * row + 1, 3 * row + 4))]


def charge(table: Table, row: int, rollers: int = 1) -> None:
    """Two rounds in which the first ``rollers`` players (the current one first) roll
    Magic Power symbols up to the 6 tokens three displays spend (from the 1 they start
    with on row 0, from 0 after three displays), the others ending their turns."""
    players = len(table.snapshot.match["players"])
    for n in (3, 2) if row == 0 else (3, 3):
        roll = {"type": "roll", "faces": ["Magic"] * n}
        zoo_act(table, *[roll, END_TURN] * rollers, *[END_TURN] * (players - rollers))


def zoo_final(table: Table, panel: Panel, players: int = 4) -> None:
    """Ann completes her portal with Unicorns (first on every space), three a turn while the
    others pass their turns: the final round."""
    zoo(table, panel, players)
    for row in range(3):
        charge(table, row)
        zoo_act(table, *three(3, row), *[END_TURN] * (players if row < 2 else 1))


def zoo_shared(table: Table, panel: Panel, players: int = 2) -> None:
    """Ann 10 + 6 and Bob 9 + 7 (a pure portal of his Griffins): 16 each, a shared win."""
    zoo(table, panel, players)
    for row in range(3):
        charge(table, row, rollers=2)
        zoo_act(table, *three(3, row), END_TURN, *three(2, row), END_TURN,
                *[END_TURN] * (players - 2 if row < 2 else 0))
    # The final round: Cleo and Di show other creatures (each card once).
    for cards in ((show(1, 5), show(2, 6)), (show(1, 6), show(2, 5)))[:players - 2]:
        zoo_act(table, *cards, END_TURN)


def zoo_swaps(table: Table, panel: Panel) -> None:
    """Ann, Bob and Cleo have each shown an element on space 5; Ann's turn again."""
    zoo(table, panel, 3)
    zoo_act(table, show(5, 1), END_TURN, show(5, 2), END_TURN, show(5, 6), END_TURN)


def zoo_won(table: Table, panel: Panel) -> None:
    """Ann fills her portal with her own Dragons; Bob plays the final round."""
    zoo(table, panel)
    for row in range(3):
        charge(table, row)
        zoo_act(table, *three(1, row), *[END_TURN] * (2 if row < 2 else 1))
    zoo_act(table, show(1, 3), show(5, 2), show(9, 4), END_TURN)


ZOO_SCENES: dict[str, Callable[[Table, Panel], None]] = {
    "setup-zoo": lambda t, p: press(p, "ok", "ok", "ok", "ok"),
    "setup-zoo-portals": lambda t, p: press(p, "ok", "ok", "ok", "ok", "next", "ok", "ok",
                                            *["next"] * 8, "ok"),
    "board-zoo-new": zoo,
    "board-zoo-new-4": lambda t, p: zoo(t, p, 4, first_player="roll"),
    "board-zoo-play": zoo_play,
    "board-zoo-final": zoo_final,
    # Ann took 3 Dark Power; round the table her turn is passed at once.
    "board-zoo-forced-pass": lambda t, p: (
        zoo(t, p, 4), zoo_act(t, *[{"type": "dark_power", "reason": "hand"}] * 3,
                              END_TURN, END_TURN, END_TURN, END_TURN)),
    "board-zoo-swap": lambda t, p: (zoo_swaps(t, p),
                                    zoo_act(t, {"type": "swap", "space": 5, "player": 2})),
    "board-zoo-over": zoo_won,
    "board-zoo-over-shared-4": lambda t, p: zoo_shared(t, p, 4),
    "refused-zoo-seat": lambda t, p: (zoo(t, p, 4), press(p, "seat3")),
    # Three displays, the most in a turn: OK says so instead of opening a fourth.
    "refused-zoo-fourth-display": lambda t, p: (zoo(t, p), charge(t, 0),
                                                zoo_act(t, *three(1, 0)), press(p, "ok")),
    # The names the panel offers out of the box, a creature named at full length, a
    # completing display's three reasons: every line still fits.
    "board-zoo-long-names": lambda t, p: (
        t.start({"game": "alakazoo", "players": ["Player 1", "Player 2", "Player 3",
                                                  "Player 4"],
                 "options": {"creatures": ["Basilisk", "Griffin", "Unicorn", "Phoenix",
                                           "Kraken", "Bunyip"], "first_player": 2}}),
        charge(t, 0), zoo_act(t, *three(3, 0), *[END_TURN] * 4), charge(t, 1),
        zoo_act(t, *three(3, 1), *[END_TURN] * 4), charge(t, 2), zoo_act(t, *three(3, 2))),
    "zoo-space": lambda t, p: (zoo_play(t, p), press(p, "ok")),
    "zoo-space-next": lambda t, p: (zoo_play(t, p), press(p, "ok", "next", "next")),
    "zoo-creature": lambda t, p: (zoo_play(t, p), press(p, "ok", "ok")),
    "zoo-more": lambda t, p: (zoo_swaps(t, p), press(p, "prev")),
    "zoo-dp": lambda t, p: (zoo_swaps(t, p), press(p, "prev", "next", "next", "ok")),
    "zoo-roll": lambda t, p: (zoo(t, p), press(p, "next")),
    "zoo-faces": lambda t, p: (zoo(t, p), press(p, "next", "ok!", "next", "ok", "next")),
    "zoo-space-swap": lambda t, p: (zoo_swaps(t, p), press(p, "prev", *["next"] * 3, "ok")),
    "zoo-player": lambda t, p: (zoo_swaps(t, p), press(p, "prev", *["next"] * 3, "ok", "ok")),
    "zoo-creature-swap": lambda t, p: (zoo_swaps(t, p), press(p, "prev", *["next"] * 4, "ok",
                                                               "ok")),
    "zoo-jury": lambda t, p: (zoo_won(t, p), press(p, "prev")),
    "zoo-jury-other": lambda t, p: (zoo_won(t, p), press(p, "prev", "next")),
    "zoo-jury-shared-4": lambda t, p: (zoo_shared(t, p, 4), press(p, "prev", "next")),
    "zoo-jury-4-last": lambda t, p: (zoo_shared(t, p, 4), press(p, "prev", "prev")),
}
SCENES.update(ZOO_SCENES)

#: A notice over each game's board: a short strip over the status line, the score
#: left in sight (an undo on the panel, a phone's change, a fault of the panel's).
NOTICE_SCENES: dict[str, Callable[[Table, Panel], None]] = {
    "notice-undone": lambda t, p: (started(t, p), points(t, 0, 1), press(p, "back!")),
    "notice-undone-wd": lambda t, p: (wd_play(t, p), press(p, "back!")),
    "notice-undone-slam": lambda t, p: (slam_rally(t, p), press(p, "back!")),
    "notice-undone-zoo": lambda t, p: (zoo_play(t, p), press(p, "back!")),
    "notice-changed-zoo": lambda t, p: (zoo_play(t, p), press(p, "ok"),
                                        t.act({"type": "end_turn"})),
}
SCENES.update(NOTICE_SCENES)


def frame(scene: str) -> Image.Image:
    with Store(":memory:") as store:
        table = Table(store, CATALOG, rng=random.Random(0))
        panel = Panel(table, CTX, codes=LoginCodes(draw=lambda: "K7QM3XPA"))
        SCENES[scene](table, panel)
        return render(panel.state, panel.ctx)


@pytest.mark.parametrize("scene", SCENES)
def test_screen_matches_its_golden_image(scene):
    assert_golden(frame(scene), scene)


def assert_golden(image: Image.Image, scene: str) -> None:
    """``image`` is the scene's golden image, pixel for pixel (UPDATE_GOLDEN=1 writes it)."""
    assert image.size == (128, 64) and image.mode == "1"
    path = GOLDEN / f"{scene}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        image.save(path)
    assert path.exists(), f"no golden image for {scene}: run UPDATE_GOLDEN=1 ./test tests/screens"
    with Image.open(path) as stored:
        golden = stored.convert("L")
    diff = ImageChops.difference(image.convert("L"), golden).getbbox()
    if diff is not None:
        image.save(GOLDEN / f"{scene}.actual.png")
    assert diff is None, f"{scene} differs from its golden image in {diff}"


def test_every_screen_has_a_scene():
    """Each screen of the panel has a golden image; the generic panel's (for a game that
    brings no panel of its own) have theirs in tests/screens/test_generic_faces.py."""
    from companion.ui.controls import SCREENS

    own = {*SCREENS, *(name for kit in CATALOG.kits.values() for name in kit.screens)}
    shown = {s for s in own if any(n == s or n.startswith(f"{s}-") for n in SCENES)}
    assert own == shown
