"""Plain-English text for Anomaly Maze's actions and events, an oracle for the engine's tests.

Every action and event a game produces must have a line here, so that a new kind the engine
starts to emit is noticed; the words name a move the way a player reads it ("shift row D east",
"move G1–G2–F2").  The program's own words are the client's (``client/games/anomaly_maze/present.py``).
"""

from __future__ import annotations

from typing import Any

from engines.anomaly_maze.board import name

_DIRECTIONS = {("row", 1): "east", ("row", -1): "west", ("col", 1): "south", ("col", -1): "north"}
_PLAYER = ("Player 1", "Player 2")


def line_name(axis: str, index: int) -> str:
    return f"row {'ABCDEFG'[index]}" if axis == "row" else f"column {index + 1}"


def describe_action(action: tuple[Any, ...], start: int | None = None) -> str:
    """``("shift", "row", 3, 1)`` → ``"shift row D east"``; ``start`` names a move's first cell."""
    verb = action[0]
    if verb == "rotate":
        return f"rotate {name(action[1])} by {90 * action[2]}°"
    if verb == "shift":
        return f"shift {line_name(action[1], action[2])} {_DIRECTIONS[(action[1], action[3])]}"
    if verb == "move":
        if len(action) == 1:
            return "stay"
        cells = ([name(start)] if start is not None else []) + [name(c) for c in action[1:]]
        return "move " + "–".join(cells)
    if verb == "attack":
        return "attack"
    if verb == "no-attack":
        return "don't attack"
    if verb == "chance":
        return f"chance {action[1]}"
    return " ".join(str(x) for x in action)


def describe_event(event: tuple[Any, ...] | list[Any]) -> str:
    """One line for an event of :attr:`AnomalyMazeState.events`."""
    kind, *rest = event
    who = _PLAYER[rest[0]] if rest and isinstance(rest[0], int) and rest[0] in (0, 1) else ""
    match kind:
        case "turn":
            return f"{who}'s turn (round {rest[1]})"
        case "rotate":
            return f"{who} rotates {name(rest[1])} by {90 * rest[2]}°"
        case "shift":
            return f"{who} shifts {line_name(rest[1], rest[2])} {_DIRECTIONS[(rest[1], rest[3])]}"
        case "move":
            return f"{who} stays" if len(rest) == 1 else f"{who} moves to {name(rest[-1])}"
        case "key-taken":
            return f"{who} picks up the key on {name(rest[1])}"
        case "chest-opened":
            return f"{who} opens the chest on {name(rest[1])}: +5 MP"
        case "medkit":
            return f"{who} uses the medkit: +{rest[2]} HP"
        case "mine" | "spikes":
            return f"{who} hits the {kind} on {name(rest[1])}: −{rest[2]} HP"
        case "attack":
            return f"{who} attacks"
        case "die":
            return f"{who} rolls {rest[1]}: " + (f"−{rest[2]} HP" if rest[2] else "miss")
        case "no-attack":
            return f"{who} does not attack"
        case "eliminated":
            by = f", +1 MP for {_PLAYER[rest[2]]}" if rest[2] in (0, 1) else ""
            return f"{who} is eliminated ({rest[1]}){by}"
        case "turn-missed":
            return f"{who} misses a turn ({rest[1]} more to wait)"
        case "respawn-blocked":
            return f"{who}'s Respawn is blocked ({rest[1]}/3)"
        case "blacksaw":
            return f"BlackSaw clears {who}'s Respawn: {_PLAYER[rest[1]]} is eliminated"
        case "respawn":
            return f"Respawn: {who} is back on {name(rest[1])}"
        case "key-placed" | "chest-placed":
            return f"a new {kind.split('-')[0]} for {who} on {name(rest[1])}"
        case "item-placed":
            return f"the {rest[0]} appears on {name(rest[1])}"
        case "forfeit":
            return f"{who} forfeits"
        case "game-over":
            winners = rest[0]
            return f"{_PLAYER[winners[0]]} wins ({rest[1]})" if len(winners) == 1 else f"draw ({rest[1]})"
    return " ".join(str(x) for x in event)
