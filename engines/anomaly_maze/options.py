"""Named settings of Anomaly Maze, defaulting to the rulings (AM-7..AM-11, AM-14).

Every number of the rules is a setting so that a house rule is one option
away and tests can pin it.  Options are part of the public state (and so of
its hash): two peers with different house rules desync at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The three board objects, in the fixed order used everywhere.
ITEMS = ("medkit", "mine", "spikes")

DEFAULTS: dict[str, Any] = {
    "max_hp": 10,  # AM-8
    "medkit_heal": 3,  # AM-8, capped at max_hp
    "mine_damage": 2,  # AM-8
    "spikes_damage": 5,  # AM-8
    "medkit_round": 2,  # AM-8: on the board from this round on
    "mine_round": 3,
    "spikes_round": 4,
    "win_mp": 15,  # AM-11
    "chest_mp": 5,  # AM-6
    "kill_mp": 1,  # AM-9
    "dice_per_turn": 2,  # AM-7
    "combat_table": (0, 0, 1, 1, 2, 3),  # AM-7: HP lost for die faces 1..6
    "countdown": 2,  # AM-9: turns missed after elimination
    "blacksaw_attempt": 3,  # AM-10: the attempt on which BlackSaw clears the Respawn
    "max_steps": 3,  # AM-5
    # AM-14: 0 = no round limit (every game with a person).  Self-play and benchmarks may set one so
    # that bot games end for sure: after that many rounds the game is a draw, whatever the MP.
    "round_limit": 0,
}


#: Settings for which 0 means something (none lost, none scored, no limit).
_MAY_BE_ZERO = frozenset({"countdown", "kill_mp", "medkit_heal", "mine_damage", "spikes_damage", "round_limit"})


def resolve(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``options``; ValueError naming a bad setting."""
    out = dict(DEFAULTS)
    for key, value in (options or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown Anomaly Maze option {key!r}; known: {', '.join(sorted(DEFAULTS))}")
        out[key] = value
    table = out["combat_table"]
    if (
        not isinstance(table, (list, tuple))
        or len(table) != 6
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in table)
    ):
        raise ValueError("combat_table must be six non-negative integers (HP lost for faces 1..6)")
    out["combat_table"] = tuple(table)
    for key, value in out.items():
        if key == "combat_table":
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"option {key!r} must be an integer, not {value!r}")
        low = 0 if key in _MAY_BE_ZERO else 1
        if value < low:
            raise ValueError(f"option {key!r} must be at least {low}, not {value}")
    return out
