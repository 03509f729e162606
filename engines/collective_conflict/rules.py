"""Unit kinds and the game's named settings (every ruling's number is an option).

The defaults follow rulings CC-1..CC-25; ``classic=True`` switches to the base
game of the classic hex tile game (CC-21) so that move generation can be
compared with established engines of that game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

MOTHERSHIP = 0
DECOY = 1
#: The public kind of a MotherShip or Decoy whose identity is sealed (CC-8).
COMMAND = 2
RUNNER = 3
CLIMBER = 4
NETCASTER = 5
JUMPER = 6
WRECK = 7

KIND_NAMES = ("mothership", "decoy", "command", "runner", "climber", "netcaster", "jumper", "wreck")
KIND_BY_NAME = {name: i for i, name in enumerate(KIND_NAMES)}
COMMAND_KINDS = (MOTHERSHIP, DECOY, COMMAND)
#: Stable order of kinds in reserves and in the list of placements.
PLACE_ORDER = (COMMAND, MOTHERSHIP, RUNNER, CLIMBER, NETCASTER, JUMPER)

#: CC-4: the reserve of every player in the full game (MotherShip and Decoy are private).
FULL_RESERVE = {"mothership": 1, "decoy": 1, "runner": 3, "climber": 2, "netcaster": 2, "jumper": 3}
#: CC-21: the classic base game (queen, ants, grasshoppers, beetles, spiders).
CLASSIC_RESERVE = {"mothership": 1, "runner": 3, "jumper": 3, "climber": 2, "netcaster": 2}


@dataclass(frozen=True)
class Settings:
    """The named settings of one game; ``Settings.make(players, options)`` validates them."""

    classic: bool = False
    #: Units per player by kind name (CC-4 / CC-21).
    reserve: tuple[tuple[str, int], ...] = tuple(FULL_RESERVE.items())
    #: CC-6: from this own move on, while no command unit was placed, only command units may be placed.
    command_by_move: int = 3
    #: CC-7: from this own move on, while the real MotherShip is off the board, only it may be placed.
    mothership_only_from: int = 10
    #: Section 3: after activation a hex touching a foreign Network needs this many own sides.
    own_sides_exception: int = 3
    #: CC-14 / CC-21: the NetCaster's exact number of steps.
    netcaster_steps: int = 4
    #: CC-15: the Jumper's optional second jump.
    jumper_double: bool = True
    #: CC-13: two steps from the top of a stack.
    climber_two_steps: bool = True
    #: CC-14: NetCaster moves leave sealed traps.
    traps: bool = True
    #: CC-17: Data Cores appear while fewer than ceil(players / divisor) lie on the board.
    data_cores: bool = True
    data_core_divisor: int = 2
    #: CC-19: Wreck removal once every active Network has a command unit on the board.
    wreck_removal: bool = True
    #: CC-22: a round limit exists only for self-play and benchmarks (``None``, the default, is no limit);
    #: reaching it is a shared draw among the active Networks.
    max_rounds: int | None = None
    #: CC-22: the same position (public state and seat to move) for this many times is a shared draw among
    #: the active Networks (``None`` turns the repetition draw off).
    repetition: int | None = 3
    #: ``None``: the first player is drawn from the shared seed (CC-2); a seat number fixes it.
    first_player: int | None = None
    #: CC-21 classic: the MotherShip may not be placed on a player's first turn ...
    classic_no_queen_first: bool = True
    #: ... and must be placed by this own move.
    classic_queen_by_move: int = 4

    @classmethod
    def make(cls, players: int, options: Mapping[str, Any]) -> Settings:  # noqa: C901 (tests/test_complexity.py)
        """Defaults for the mode, then the options on top; unknown names are refused."""
        opts = dict(options)
        classic = bool(opts.pop("classic", False))
        if classic:
            base = cls(
                classic=True,
                reserve=tuple(CLASSIC_RESERVE.items()),
                netcaster_steps=3,
                jumper_double=False,
                climber_two_steps=False,
                traps=False,
                data_cores=False,
                wreck_removal=False,
                first_player=0,
            )
            if players != 2:
                raise ValueError("classic mode is for exactly 2 players (CC-21)")
        else:
            base = cls()
        known = {f.name for f in fields(cls)} - {"classic"}
        unknown = set(opts) - known
        if unknown:
            raise ValueError(f"unknown Collective Conflict options: {', '.join(sorted(unknown))}")
        if "reserve" in opts:
            reserve = dict(opts["reserve"])
            for name, count in reserve.items():
                if name not in KIND_BY_NAME or name in ("command", "wreck") or not isinstance(count, int) or count < 0:
                    raise ValueError(f"bad reserve entry {name!r}: {count!r}")
            if not classic and (reserve.get("mothership") != 1 or reserve.get("decoy", 0) > 1):
                raise ValueError("the reserve must hold exactly one MotherShip and at most one Decoy")
            opts["reserve"] = tuple(reserve.items())
        settings = replace(base, **opts)
        if settings.first_player is not None and not 0 <= settings.first_player < players:
            raise ValueError("first_player must be a seat number")
        for name in ("command_by_move", "mothership_only_from", "netcaster_steps", "data_core_divisor"):
            if not _count(getattr(settings, name), 1):
                raise ValueError(f"{name} must be a positive integer")
        if settings.max_rounds is not None and not _count(settings.max_rounds, 1):
            raise ValueError("max_rounds must be a positive integer or None (no round limit)")
        if settings.repetition is not None and not _count(settings.repetition, 2):
            raise ValueError("repetition must be an integer of at least 2 or None (no repetition draw)")
        return settings

    def rule_moves(self) -> int:
        """The own-move count from which no rule tells one count from a higher one (the repetition key caps at it)."""
        return max(self.command_by_move, self.mothership_only_from, self.classic_queen_by_move)

    def reserve_counts(self) -> dict[int, int]:
        """The starting reserve by public kind (MotherShip and Decoy pooled as command units in the full game)."""
        out: dict[int, int] = {}
        for name, count in self.reserve:
            kind = KIND_BY_NAME[name]
            if not self.classic and kind in (MOTHERSHIP, DECOY):
                kind = COMMAND
            out[kind] = out.get(kind, 0) + count
        return {k: v for k, v in out.items() if v}

    def as_public(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = [list(item) for item in value] if f.name == "reserve" else value
        return out


def _count(value: Any, least: int) -> bool:
    """An exact integer (not a bool) of at least ``least``."""
    return type(value) is int and value >= least
