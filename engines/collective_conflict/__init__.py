"""Collective Conflict: hex units for 2–10 players with a sealed Decoy and sealed traps.

Registered as ``"collective-conflict"``; ``options={"classic": True}`` is the
base game of the classic hex tile game (CC-21), used for perft and UHP.
"""

from __future__ import annotations

from engines.collective_conflict.bots.greedy import GreedyBot, SearchBot, random_bot
from engines.collective_conflict.perft import perft_command
from engines.collective_conflict.state import CollectiveConflictState, new_state
from engines.core.registry import GameSpec, register

SPEC = GameSpec(
    name="collective-conflict",
    title="Collective Conflict",
    min_players=2,
    max_players=10,
    new_state=new_state,
    bots={"random": random_bot, "greedy": GreedyBot, "search": SearchBot},
    perft=perft_command,
    default_bot="greedy",
)
register(SPEC)

__all__ = ["SPEC", "CollectiveConflictState", "GreedyBot", "SearchBot", "new_state"]
