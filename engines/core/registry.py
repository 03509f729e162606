"""Games by name, so that tools, the protocol and the client never hard-code one."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import IO, Any, Protocol

from engines.core.bots import Bot
from engines.core.state import GameState


class PerftCommand(Protocol):
    """A game's ``python -m engines perft`` command: count nodes to ``depth``, print to ``out``."""

    def __call__(self, depth: int, classic: bool, out: IO[str]) -> int: ...


class UnknownName(KeyError):
    """A game or a bot that is not there; ``str()`` is the sentence (a plain ``KeyError`` would quote it)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownGame(UnknownName):
    """No game of that name."""


class UnknownBot(UnknownName):
    """The game has no bot of that name."""


@dataclass(frozen=True)
class GameSpec:
    """How to start a game and which bots can play it.

    ``new_state(players, options)`` returns the initial public state; options
    are the game's named settings (house rules), ``{}`` for the defaults.
    ``default_bot`` is the bot a seat gets when nobody names one: each game's
    own (the games share only ``random``, which is no opponent).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    new_state: Callable[[int, Mapping[str, Any]], GameState]
    bots: Mapping[str, Callable[[int, bytes], Bot]] = field(default_factory=dict)
    perft: PerftCommand | None = None
    default_bot: str = "random"

    def __post_init__(self) -> None:
        if self.bots and self.default_bot not in self.bots:
            raise ValueError(f"{self.name}: the default bot {self.default_bot!r} is not one of its bots")


_GAMES: dict[str, GameSpec] = {}

#: The games and the module that registers each when imported.  Listed here,
#: not discovered, so the set of games is explicit; each is imported only when
#: asked for, so one game's broken package never hides the others.
_GAME_MODULES = {
    "system-launch": "engines.system_launch",
    "collective-conflict": "engines.collective_conflict",
    "anomaly-maze": "engines.anomaly_maze",
}


def register(spec: GameSpec) -> None:
    _GAMES[spec.name] = spec


def get(name: str) -> GameSpec:
    """The game called ``name``; :class:`UnknownGame` (a ``KeyError``) naming the known games if none."""
    if name not in _GAMES and name in _GAME_MODULES:
        import_module(_GAME_MODULES[name])
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(f"there is no game {name!r}; the games are {', '.join(sorted(_GAME_MODULES))}") from None


def bot(spec: GameSpec, name: str) -> Callable[[int, bytes], Bot]:
    """The bot called ``name`` of ``spec``'s game; :class:`UnknownBot` (a ``KeyError``) naming its bots if none."""
    try:
        return spec.bots[name]
    except KeyError:
        raise UnknownBot(f"{spec.title} has no bot {name!r}; its bots are {', '.join(spec.bots)}") from None


def players_text(spec: GameSpec) -> str:
    """How many players the game is for, as a sentence ends: "for 2 players", "for 2–6 players"."""
    if spec.min_players == spec.max_players:
        return f"for {spec.min_players} players"
    return f"for {spec.min_players}–{spec.max_players} players"


def engine_package(name: str) -> str:
    """The package that holds the game called ``name`` (``KeyError`` if there is none)."""
    return _GAME_MODULES[name]


def names() -> list[str]:
    """Every game's name (whether or not its package has been imported yet)."""
    return sorted(_GAME_MODULES)


def parse_options(items: list[str]) -> dict[str, Any]:
    """Game options from command-line words ``NAME=VALUE`` (``VALUE`` is JSON, else a string).

    Why: self-play, benchmarks and bot-only tables sometimes need a setting the
    defaults leave off (a round limit for bots, say); the game itself validates it.
    """
    out: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise ValueError(f"a game option is NAME=VALUE, not {item!r}")
        try:
            out[name] = json.loads(raw)
        except ValueError:
            out[name] = raw
    return out
