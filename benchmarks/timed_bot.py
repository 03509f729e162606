"""A bot wrapper for the ladders: the same choices, each decision's wall time recorded."""

from __future__ import annotations

import time
from typing import Any


class Timed:
    """Wraps a bot and records how long each of its decisions took (seconds, into ``times``)."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.times = times

    def choose(self, state: Any, knowledge: Any, legal: Any) -> Any:
        started = time.perf_counter()
        action = self.bot.choose(state, knowledge, legal)
        self.times.append(time.perf_counter() - started)
        return action
