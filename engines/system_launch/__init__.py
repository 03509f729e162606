"""System Launch: the card game of secret hands (issue 2), registered as ``"system-launch"``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.bots import RandomBot
from engines.core.registry import GameSpec, register

from .bots import GreedyBot
from .cards import CARD_KIND, KIND_NAMES, card_name
from .memory import MemoryBot
from .options import DEFAULTS, LIMITS, Options, make_options
from .state import SystemLaunch, describe


def new_state(players: int, options: Mapping[str, Any] | None = None) -> SystemLaunch:
    return SystemLaunch(players, options)


SPEC = GameSpec(
    name="system-launch",
    title="System Launch",
    min_players=2,
    max_players=6,
    new_state=new_state,
    bots={"random": RandomBot, "greedy": GreedyBot, "memory": MemoryBot},
)
register(SPEC)

__all__ = [
    "CARD_KIND",
    "DEFAULTS",
    "KIND_NAMES",
    "LIMITS",
    "SPEC",
    "GreedyBot",
    "MemoryBot",
    "Options",
    "SystemLaunch",
    "card_name",
    "describe",
    "make_options",
    "new_state",
]
