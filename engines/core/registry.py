"""Games by name, so that tools, the protocol and the client never hard-code one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .bots import Bot
from .state import GameState


@dataclass(frozen=True)
class GameSpec:
    """How to start a game and which bots can play it.

    ``new_state(players, options)`` returns the initial public state; options
    are the game's named settings (house rules), ``{}`` for the defaults.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    new_state: Callable[[int, Mapping[str, Any]], GameState]
    bots: Mapping[str, Callable[[int, bytes], Bot]] = field(default_factory=dict)
    perft: Callable[..., Any] | None = None


_GAMES: dict[str, GameSpec] = {}

#: Modules that register a game when imported.  Listed here, not discovered,
#: so that the set of games is explicit and import order is deterministic.
_GAME_MODULES = (
    "engines.system_launch",
    "engines.collective_conflict",
    "engines.anomaly_maze",
)


def register(spec: GameSpec) -> None:
    _GAMES[spec.name] = spec


def _load_all() -> None:
    for module in _GAME_MODULES:
        try:
            import_module(module)
        except ModuleNotFoundError as exc:  # a game not built yet
            if exc.name != module:
                raise


def get(name: str) -> GameSpec:
    """The game called ``name``; ``KeyError`` with the known names if none."""
    _load_all()
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(_GAMES))}") from None


def names() -> list[str]:
    _load_all()
    return sorted(_GAMES)
