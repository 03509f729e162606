"""Position set-up for Anomaly Maze tests.

A test position starts from a real game (every set-up chance resolved with
outcome 0: seat 0 moves first) and then places tiles, pawns and objects
directly, the way a puzzle book sets up a board.  Rules are then exercised
only through ``push`` — the same entry point the protocol uses.
"""

from __future__ import annotations

from engines.anomaly_maze import board
from engines.anomaly_maze.state import AnomalyMazeState
from engines.core import TABLE, Chance, Decision

NO_ITEMS = {"medkit_round": 99, "mine_round": 99, "spikes_round": 99}  # unless a test places them
ALL_OPEN = 15  # a crossroads: not one of the ten shapes, handy where walls do not matter


def c(text: str) -> int:
    return board.parse(text)


def fresh(options: dict | None = None) -> AnomalyMazeState:
    """A real game after its set-up, with every set-up chance at outcome 0."""
    s = AnomalyMazeState(options)
    while isinstance(s.pending(), Chance):
        s.push(TABLE, ("chance", 0))
    assert s.pending() == Decision(0, "anomaly")
    return s


def position(
    *,
    tiles: int | dict[str, int] = ALL_OPEN,
    pawns: tuple[str | None, str | None] = ("G1", "A7"),
    keys: tuple[str | None, str | None] = (None, None),
    chests: tuple[str | None, str | None] = (None, None),
    items: dict[str, str] | None = None,
    phase: str = "anomaly",
    turn: int = 0,
    options: dict | None = None,
    base: int = ALL_OPEN,
) -> AnomalyMazeState:
    """A state with the given board; ``tiles`` is one mask for every ordinary
    cell, or a dict of cell names to masks over a board of ``base`` tiles."""
    s = fresh({**NO_ITEMS, **(options or {})})
    for cell in board.ORDINARY:
        s.tiles[cell] = tiles if isinstance(tiles, int) else base
    if isinstance(tiles, dict):
        for name, mask in tiles.items():
            s.tiles[c(name)] = mask
    s.pos = [None if p is None else c(p) for p in pawns]
    s.key = [None if k is None else c(k) for k in keys]
    s.chest = [None if k is None else c(k) for k in chests]
    s.items = {"medkit": None, "mine": None, "spikes": None}
    for item, where in (items or {}).items():
        s.items[item] = c(where)
    s.turn = turn
    s.first = 0
    s.phase = phase
    s.dice_left = s.opts["dice_per_turn"]
    s.queue.clear()
    return s


def advance_to(s: AnomalyMazeState, seat: int, phase: str, chance: int = 0) -> None:
    """Resolve chances and let ``seat`` stay/decline until it is ``seat``'s ``phase``."""
    for _ in range(200):
        p = s.pending()
        if isinstance(p, Decision) and p.seat == seat and p.what == phase:
            return
        if isinstance(p, Chance):
            s.push(TABLE, ("chance", chance))
        elif isinstance(p, Decision):
            s.push(p.seat, {"anomaly": ("rotate", c("D4"), 2), "move": ("move",), "combat": ("no-attack",)}[p.what])
        else:
            raise AssertionError(f"game ended while waiting for seat {seat} {phase}: {p}")
    raise AssertionError("never reached")
