"""The interface every bot implements.

A bot is given exactly what its seat's person would see: the public state and
that seat's own :class:`~.state.Knowledge`.  The public state holds no secrets
by construction, so a bot cannot peek even by accident; the referee never hands
it anything else.
"""

from __future__ import annotations

from typing import Protocol

from engines.core.seeded import SeededStream
from engines.core.state import Action, GameState, Knowledge


class Bot(Protocol):
    seat: int

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        """Pick one of ``legal`` (never empty) for the pending decision."""
        ...


class RandomBot:
    """Uniformly random among the legal actions, from its own seeded stream."""

    def __init__(self, seat: int, seed: bytes) -> None:
        self.seat = seat
        self.rng = SeededStream(seed, f"random-bot/{seat}")

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        return legal[self.rng.below(len(legal))]
