"""What each game offers the staged cheats, as its engine folder declares it (``engines/<game>/staging.py``).

The catalogue names no game: it asks each registered game which kinds of pending its engine
produces (``PENDINGS``: a chance by its :class:`~engines.core.ChanceKind`, any other pending by its
class) and which cheats needing the game's own knowledge it declares (``CHEATS``: name ->
(mechanism, what the cheater does, its settings)).  A game without such a module offers the
cheats that need nothing of a game, and no others.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.core import registry


@dataclass(frozen=True)
class Offer:
    """What one game offers: the kinds of pending it produces, its seat counts, the cheats it declares."""

    game: str
    pendings: frozenset[object]
    min_players: int
    max_players: int
    cheats: Mapping[str, tuple[str, str, Mapping[str, Any]]] = field(default_factory=dict)


def offer(game: str) -> Offer:
    """What ``game`` offers, read from its engine package's ``staging`` module (if it has one)."""
    spec = registry.get(game)
    module = f"{registry.engine_package(game)}.staging"
    declared: dict[str, Any] = {}
    if importlib.util.find_spec(module) is not None:
        declared = vars(importlib.import_module(module))
    pendings = declared.get("PENDINGS", frozenset())
    cheats = declared.get("CHEATS", {})
    if not isinstance(pendings, frozenset) or not isinstance(cheats, dict):
        raise TypeError(f"{module}: PENDINGS must be a frozenset and CHEATS a dict")
    return Offer(game, pendings, spec.min_players, spec.max_players, cheats)


def offers() -> list[Offer]:
    """What every registered game offers, by game name."""
    return [offer(game) for game in registry.names()]
