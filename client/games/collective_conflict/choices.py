"""The legal actions grouped the way a person picks them (no Qt).

A person first picks a *source* — a kind from the reserve, or one of their
units on the board — and then a *target* hex; the engine's actions for that
(source, target) pair are the *variants* offered as buttons (armed trap or a
bluff, MotherShip or Decoy, a single or a double jump, with or without a Data
Core hop).  Only the engine's legal actions are ever grouped, so nothing
illegal can be offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from engines.collective_conflict.paths import public_move_path
from engines.core import Action
from engines.core.state import IllegalAction

Hex = tuple[int, int]
#: What a person picks first: a kind from the reserve, or their unit on a hex.
Source = tuple[Literal["reserve"], str] | tuple[Literal["unit"], Hex]


def _hex(value: Sequence[int]) -> Hex:
    return (int(value[0]), int(value[1]))


def reserve_kind(action: Action, classic: bool) -> str:
    """The reserve entry a placement takes from (MotherShip and Decoy are one "command" entry)."""
    kind = action[1]
    if kind in ("mothership", "decoy") and not classic:
        return "command"
    return str(kind)


def source_of(action: Action, classic: bool = False) -> Source:
    if action[0] == "place":
        return ("reserve", reserve_kind(action, classic))
    return ("unit", _hex(action[1]))


def target_of(action: Action) -> Hex:
    verb = action[0]
    if verb == "jump":
        return _hex(action[3])
    return _hex(action[2])


def path_of(action: Action) -> list[Hex]:
    """The action's own hexes: a placement's hex, a straight leg, or a jump's two legs (no board needed)."""
    verb = action[0]
    if verb == "place":
        return [_hex(action[2])]
    if verb == "jump":
        return [_hex(action[1]), _hex(action[2]), _hex(action[3])]
    return [_hex(action[1]), _hex(action[2])]


def route_of(view: dict[str, Any] | None, action: Action) -> list[Hex]:
    """The hexes the board draws for ``action`` in ``view``: the engine's route for a unit move.

    A move, a NetCaster's cast and a jump get :func:`engines.collective_conflict.paths.public_move_path`
    (every slide, step or jumped hex); a placement or the Virus keep :func:`path_of`.  If the engine
    finds no route (a view that does not hold the move) the straight legs are drawn rather than nothing.
    """
    if view is None or action[0] not in ("move", "cast", "jump"):
        return path_of(action)
    try:
        return public_move_path(view, action)
    except (IllegalAction, KeyError, TypeError, ValueError):
        return path_of(action)


def moved_route(before: dict[str, Any], src: Hex, dst: Hex) -> list[Hex]:
    """A route for a unit seen to go from ``src`` to ``dst`` since ``before`` (the last move's arrow).

    Views say where a unit went, not how: a single move or jump is tried first, then a double jump
    through each landing of a first jump in direction order; failing all, the straight leg.
    """
    try:
        return public_move_path(before, ("move", src, dst))
    except (IllegalAction, KeyError, TypeError, ValueError):
        pass
    occupied = {(q, r) for q, r, _ in before.get("stacks", ())}
    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        mid = (src[0] + dq, src[1] + dr)
        if mid not in occupied:
            continue
        while mid in occupied:
            mid = (mid[0] + dq, mid[1] + dr)
        try:
            return public_move_path(before, ("jump", src, mid, dst))
        except (IllegalAction, KeyError, TypeError, ValueError):
            continue
    return [src, dst]


def core_of(action: Action) -> Hex | None:
    """The Data Core a Runner collects with a hop (CC-16), if any."""
    if action[0] == "move" and len(action) == 4:
        return _hex(action[3])
    return None


def variant_rank(action: Action) -> tuple[int, ...]:
    """Default first: an armed trap (CC-14's default), a plain move, a single jump, the MotherShip."""
    verb = action[0]
    if verb == "cast":
        return (0 if action[3] else 1,)
    if verb == "place":
        return (0 if action[1] != "decoy" else 1,)
    if verb == "move":
        return (0 if len(action) == 3 else 1, *(core_of(action) or ()))
    if verb == "jump":
        return (1, *_hex(action[2]))
    return (0,)


class Choices:
    """Every legal action by source and target."""

    def __init__(self, legal: list[Action], classic: bool = False) -> None:
        self.classic = classic
        self.by_source: dict[Source, dict[Hex, list[Action]]] = {}
        for action in legal:
            if action[0] not in ("place", "move", "jump", "cast", "virus"):
                continue
            targets = self.by_source.setdefault(source_of(action, classic), {})
            targets.setdefault(target_of(action), []).append(action)
        for targets in self.by_source.values():
            for options in targets.values():
                options.sort(key=variant_rank)

    def reserve_kinds(self) -> list[str]:
        return [s[1] for s in self.by_source if s[0] == "reserve"]

    def unit_sources(self) -> set[Hex]:
        return {s[1] for s in self.by_source if s[0] == "unit"}

    def targets(self, source: Source | None) -> dict[Hex, list[Action]]:
        return self.by_source.get(source, {}) if source is not None else {}

    def variants(self, source: Source | None, target: Hex) -> list[Action]:
        return list(self.targets(source).get(target, ()))
