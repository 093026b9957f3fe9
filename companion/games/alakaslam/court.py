"""The court and the shot calculator: where a shot's cards put the ball.

A cell is ``(col, row)``: col 1 is the red edge, col ``cols`` the blue edge;
row 1 is side 0's baseline, row ``ROWS`` side 1's. The net lies between rows
2 and 3, so side 0 owns rows 1-2 and side 1 rows 3-4. Each Hit card moves
the ball one column toward the edge of its colour (none for a straight
``S2``) and its value in rows toward the opponent's baseline; Enchantments
do not move it. Only the landing of all the shot's cards together is
judged: off the court is ``out`` (even when also short of the net), still
on the hitter's half is ``net``, otherwise ``in``.
"""

from __future__ import annotations

ROWS = 4
#: The last row of side 0's half; the net lies just beyond it.
NET = 2
HITS = tuple(f"{c}{v}" for c in "RB" for v in range(4))
ENCHANTS = ("E1", "E2", "E3")
STRAIGHT = "S2"
CARDS = (*HITS, *ENCHANTS, STRAIGHT)

Cell = tuple[int, int]


def columns(players: int) -> int:
    """3 columns for singles, 4 when a side has two players."""
    return 3 if players == 2 else 4


def enchant_value(card: str) -> int | None:
    """N for an Enchant-N card, else None."""
    return int(card[1]) if card in ENCHANTS else None


def move(card: str, side: int) -> tuple[int, int]:
    """How far one card moves the ball hit by ``side``: (columns, rows)."""
    if card in ENCHANTS:
        return 0, 0
    forward = 1 if side == 0 else -1
    if card == STRAIGHT:
        return 0, 2 * forward
    return (-1 if card[0] == "R" else 1), int(card[1]) * forward


def land(start: Cell, cards: list[str], side: int) -> Cell:
    """Where the ball ends after ``cards`` (in order) hit by ``side`` from ``start``."""
    col, row = start
    for card in cards:
        dc, dr = move(card, side)
        col, row = col + dc, row + dr
    return col, row


def on_court(cell: Cell, cols: int) -> bool:
    return 1 <= cell[0] <= cols and 1 <= cell[1] <= ROWS


def half(row: int) -> int:
    """The side that owns a row of the court."""
    return 0 if row <= NET else 1


def judge(cell: Cell, side: int, cols: int) -> str:
    """``in``, ``out`` or ``net`` for a shot by ``side`` landing on ``cell``."""
    if not on_court(cell, cols):
        return "out"
    return "net" if half(cell[1]) == side else "in"


def serve_start(side: int, corner: str, cols: int) -> Cell:
    """The server's back corner: the baseline at the red or blue edge."""
    return (1 if corner == "red" else cols), (1 if side == 0 else ROWS)


def judge_serve(start: Cell, cell: Cell, side: int, cols: int) -> str:
    """``in`` or ``bad_serve``: a serve must land in, in a column other than its own."""
    if judge(cell, side, cols) != "in" or cell[0] == start[0]:
        return "bad_serve"
    return "in"


def serve_positions(side: int, corner: str, cols: int, server_pair: bool,
                    receiver_pair: bool) -> dict[str, Cell | None]:
    """Where everyone starts for a serve from ``corner`` (a reminder; players move pieces).

    The server stands in the back corner, the receiver diagonally opposite;
    a server's teammate starts 1 row forward and 2 columns to the other side,
    and a receiving teammate mirrors that.
    """
    server = serve_start(side, corner, cols)
    receiver = (cols + 1 - server[0], ROWS + 1 - server[1])
    inward = 1 if server[0] == 1 else -1
    forward = 1 if side == 0 else -1
    return {
        "server": server,
        "server_mate": (server[0] + 2 * inward, server[1] + forward) if server_pair else None,
        "receiver": receiver,
        "receiver_mate": ((receiver[0] - 2 * inward, receiver[1] - forward)
                          if receiver_pair else None),
    }
