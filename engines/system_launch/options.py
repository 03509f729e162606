"""Named settings of System Launch (house rules), with defaults from the rulings.

Every number the rulings fix is a setting here, so that a house rule is one
option away and tests can pin it.  Unknown names and out-of-range values are
refused with a clear message rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.system_launch.cards import DECK_SIZE


@dataclass(frozen=True, slots=True)
class Options:
    #: Cards dealt to each player at the start (rule text §3).
    starting_hand: int = 4
    #: Phase 3: more cards than this in hand are discarded down to it (rule text §4).
    hand_limit: int = 5
    #: Different Part kinds needed to win (rule text §7, SL-8).
    parts_to_win: int = 3
    #: Protection cards needed to win (rule text §7, SL-8).
    protections_to_win: int = 1
    #: Our decision (every game must end): after this many full rounds the game is a draw.
    round_limit: int = 200

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


#: The default settings by name (what the client's house-rules dialog starts from).
DEFAULTS: dict[str, int] = Options().as_dict()

#: Allowed range of each setting, inclusive.
LIMITS: dict[str, tuple[int, int]] = {
    "starting_hand": (0, 22),
    "hand_limit": (1, 44),
    "parts_to_win": (1, 4),
    "protections_to_win": (0, 3),
    "round_limit": (1, 100_000),
}


def make_options(players: int, options: Mapping[str, Any] | None) -> Options:
    """Validate ``options`` (a mapping of setting name to int) for ``players`` seats."""
    values = dict(options or {})
    for name, value in values.items():
        if name not in LIMITS:
            raise ValueError(f"unknown System Launch option {name!r}; known: {', '.join(sorted(LIMITS))}")
        low, high = LIMITS[name]
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"option {name!r} must be an integer in {low}..{high}, not {value!r}")
    result = Options(**values)
    if result.starting_hand * players > DECK_SIZE:
        raise ValueError(f"a starting hand of {result.starting_hand} for {players} players needs more than 44 cards")
    return result
