"""Collective Conflict and Anomaly Maze run over the same protocol (sealed values, reveals, dice).

The card cheats need a card game; every other cheat is staged here too.  Skipped for a game
that is not registered (its engine is built elsewhere).
"""

from __future__ import annotations

import pytest

from engines.core import registry
from protocol.sim.network import play

GENERIC = [
    "forged-signature",
    "out-of-turn",
    "illegal-action",
    "replayed-entry",
    "equivocation",
    "broken-chain",
    "false-state-hash",
    "false-reveal",
    "withhold",
    "tampered-saved-game",
]


def need(game: str) -> None:
    if game not in registry.names():
        pytest.skip(f"{game} is not registered")


@pytest.mark.parametrize(("game", "players"), [("collective-conflict", 2), ("anomaly-maze", 2)])
def test_honest_games_of_the_other_engines_are_fair(game, players):
    need(game)
    # Collective Conflict has no round limit (CC-22): this random bot game gets one, so that it ends soon
    options = {"max_rounds": 80} if game == "collective-conflict" else None
    assert play(game, players, b"other/honest", options=options).agreed() == "fair"


@pytest.mark.parametrize("cheat", GENERIC)
def test_generic_cheats_are_caught_in_anomaly_maze(cheat):
    need("anomaly-maze")
    run = play("anomaly-maze", 2, f"other/{cheat}".encode(), cheat, 1)
    assert run.agreed() == f"{cheat} by seat 1", run.verdicts
