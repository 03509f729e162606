"""What Collective Conflict offers the staged cheats of the trust layer's simulator.

The simulator (``python -m protocol simulate --cheat``) stages each cheat by the protocol mechanism
it attacks, in every game whose engine offers that mechanism.  This module says what this game
offers, in the engine's own terms: the kinds of pending it produces, and the cheats that need this
game's knowledge, each an instance of a mechanism of the catalogue: which sealed value a seat opens
as which, which decisions a secret-dependent rule (CC-7) forbids, and how a cheating seat steers its
own legal play toward its chance (crowding its own command unit until it must be revealed).
Nothing here changes play; the steering only picks among legal actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import Action, ChanceKind, Decision, GameState, Knowledge, RevealOwed

#: The kinds of pending this engine produces: a chance by its kind, any other pending by its class.
PENDINGS = frozenset({Decision, RevealOwed, ChanceKind.PUBLIC_SEEDED})

_IDENTITIES = ("mothership", "decoy")

#: How a cheater narrows its legal actions: ``steer(state, seat, knowledge, legal)`` -> the preferred ones.
Steering = Callable[[GameState, int, Knowledge, list[Action]], list[Action]]


def _neighbours(q: int, r: int) -> set[tuple[int, int]]:
    return {(q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1), (q + 1, r - 1), (q - 1, r + 1)}


def _hexes(action: Action) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(from, to) of an action: placements have no source."""
    verb = action[0]
    if verb == "place":
        return None, tuple(action[2])
    if verb == "jump":
        return tuple(action[1]), tuple(action[3])
    if verb in ("move", "cast"):
        return tuple(action[1]), tuple(action[2])
    return None, None


def _identity_first(legal: list[Action], first: str) -> list[Action]:
    """Place the command unit sealed as ``first`` before the other one."""
    other = next(name for name in _IDENTITIES if name != first)
    if any(a[0] == "place" and a[1] == first for a in legal):
        return [a for a in legal if not (a[0] == "place" and a[1] == other)]
    return legal


def _unit_hex(state: GameState, knowledge: Knowledge, identity: str) -> tuple[int, int] | None:
    """Where the seat's command unit sealed as ``identity`` stands (from the public view)."""
    view = state.public()
    sids = {sid for sid, value in knowledge.sealed.items() if value == identity}
    pieces = {pid for pid, sid in view.get("command_units", ()) if sid in sids}
    for q, r, stack in view.get("stacks", ()):
        if any(unit[0] in pieces for unit in stack):
            return (q, r)
    return None


def _crowding(state: GameState, knowledge: Knowledge, legal: list[Action], identity: str) -> list[Action]:
    """The actions that put one more unit next to the seat's own command unit ``identity`` (none: no preference)."""
    target = _unit_hex(state, knowledge, identity)
    if target is None:
        return []
    ring = _neighbours(*target)
    occupied = {(q, r): len(stack) for q, r, stack in state.public().get("stacks", ())}

    def gain(action: Action) -> int:
        src, dst = _hexes(action)
        if src == target:
            return -2
        score = 1 if dst in ring and dst not in occupied else 0
        if src in ring and occupied.get(src, 0) == 1:
            score -= 1
        return score

    scored = [(gain(a), a) for a in legal]
    best = max(score for score, _ in scored)
    return [a for score, a in scored if score == best] if best > 0 else []


def steer(first: str = "decoy", surround: bool = False, cast: bool | None = None, hold_back: str = "") -> Steering:
    """A steering: place ``first`` first; with ``surround`` crowd it with the seat's own units; cast traps
    sealed as ``cast`` when it can (None: no preference); never place ``hold_back`` ("": place any)."""

    def chosen(state: GameState, seat: int, knowledge: Knowledge, legal: list[Action]) -> list[Action]:
        picked = _identity_first(legal, first)
        if cast is not None:
            casts = [a for a in picked if a[0] == "cast" and a[3] is cast]
            picked = casts or [a for a in picked if a[0] != "cast"] or picked
        if surround:
            picked = _crowding(state, knowledge, picked, first) or picked
        if hold_back:
            picked = [a for a in picked if not (a[0] == "place" and a[1] == hold_back)] or picked
        return picked

    return chosen


def _ordinary_placement(action: Action) -> bool:
    """A placement of a unit that is no command unit: CC-7 forbids it while the MotherShip is off the board."""
    return bool(action[0] == "place" and action[1] not in _IDENTITIES)


#: The cheats that need this game's knowledge: name -> (mechanism, what the cheater does, its settings).
CHEATS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "decoy-as-mothership": (
        "false-opening",
        "reveals its surrounded Decoy as the MotherShip",
        {"what": "command-unit", "sealed": "decoy", "claim": "mothership", "steer": steer("decoy", surround=True)},
    ),
    "mothership-as-decoy": (
        "false-opening",
        "reveals its surrounded MotherShip as the Decoy",
        {"what": "command-unit", "sealed": "mothership", "claim": "decoy", "steer": steer("mothership", surround=True)},
    ),
    "tenth-move-breach": (
        "secret-rule-breach",
        "places another unit from its tenth own move on while its MotherShip is off the board (CC-7)",
        {"among": _ordinary_placement, "steer": steer("decoy", hold_back="mothership")},
    ),
    "hidden-tenth-move-breach": (
        "hidden-secret-rule-breach",
        "breaks CC-7 as above and opens its Decoy as the MotherShip in its end-of-game secrets",
        {
            "among": _ordinary_placement,
            "steer": steer("decoy", hold_back="mothership"),
            "final": {"decoy": "mothership"},
        },
    ),
    "trap-claimed-armed": (
        "false-opening",
        "claims a trap it sealed unarmed was armed (a foreign unit hit it)",
        {"what": "trap", "sealed": False, "claim": True, "steer": steer(cast=False)},
    ),
    "trap-claimed-unarmed": (
        "false-opening",
        "claims a trap it sealed armed was unarmed (hides how it plays)",
        {"what": "trap", "sealed": True, "claim": False, "steer": steer(cast=True)},
    ),
    "refused-reveal": (
        "withheld-reveal",
        "stops answering when it owes a reveal (until declared gone)",
        {"steer": steer("decoy", surround=True)},
    ),
}
