"""Anomaly Maze: a shifting 7×7 labyrinth for two, with dice combat and an AI opponent.

Registers the game as ``"anomaly-maze"`` with the bots ``random``, ``easy``,
``normal`` and ``hard`` (the AI, "Gracz SI", of :mod:`.bots.maze`).  Modules:
:mod:`.board` (geometry), :mod:`.options` (named settings), :mod:`.state`
(the rules and the action vocabulary), :mod:`.staging` (what the protocol's cheat
catalogue may stage in this game), :mod:`.bots.maze` (the AI).
"""

from __future__ import annotations

from engines.anomaly_maze.bots.maze import MazeBot
from engines.anomaly_maze.state import AnomalyMazeState, new_state
from engines.core import GameSpec, RandomBot, register

SPEC = GameSpec(
    name="anomaly-maze",
    title="Anomaly Maze",
    min_players=2,
    max_players=2,
    new_state=new_state,
    bots={
        "random": RandomBot,
        "easy": lambda seat, seed: MazeBot(seat, seed, "easy"),
        "normal": lambda seat, seed: MazeBot(seat, seed, "normal"),
        "hard": lambda seat, seed: MazeBot(seat, seed, "hard"),
    },
    default_bot="normal",
)
register(SPEC)

__all__ = ["SPEC", "AnomalyMazeState", "MazeBot", "new_state"]
