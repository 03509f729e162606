"""System Launch: the card game of secret hands, registered as ``"system-launch"``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.bots import RandomBot
from engines.core.registry import GameSpec, register
from engines.system_launch.bots.greedy import GreedyBot
from engines.system_launch.bots.memory import MemoryBot
from engines.system_launch.cards import CARD_KIND, KIND_NAMES, card_name
from engines.system_launch.options import DEFAULTS, LIMITS, Options, make_options
from engines.system_launch.state import SystemLaunchState, describe


def new_state(players: int, options: Mapping[str, Any] | None = None) -> SystemLaunchState:
    return SystemLaunchState(players, options)


SPEC = GameSpec(
    name="system-launch",
    title="System Launch",
    min_players=2,
    max_players=6,
    new_state=new_state,
    bots={"random": RandomBot, "greedy": GreedyBot, "memory": MemoryBot},
    default_bot="greedy",
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
    "SystemLaunchState",
    "card_name",
    "describe",
    "make_options",
    "new_state",
]
