"""Anomaly Maze in words: the game log, the phase, the players' states.

As for System Launch, a log line is kept as a message id with raw parameters
(seats, cell names, numbers) and rendered on demand, so a language switch
re-labels the whole log.  Events come from the engine's display list
(:attr:`engines.anomaly_maze.state.AnomalyMazeState.events`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Self

from client.games.log import Applied, Event, GameLine
from client.i18n import tr
from engines.anomaly_maze.board import name as cell_name
from engines.core import Knowledge

ROWS = "ABCDEFG"


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def line_name(axis: str, index: int) -> str:
    """A row's letter or a column's number, as the board labels them."""
    return ROWS[index] if axis == "row" else str(index + 1)


@dataclass(frozen=True)
class MazeLine:
    """One log line: a message id, seats (named at render time) and plain parameters."""

    msg: str
    seats: tuple[tuple[str, int], ...] = ()
    params: tuple[tuple[str, str | int], ...] = ()
    tone: str = "plain"

    def text(self, names: Sequence[str]) -> str:
        values: dict[str, object] = {k: seat_name(names, s) for k, s in self.seats}
        values.update(dict(self.params))
        return tr(self.msg, **values)

    def reworded(self, msg: str) -> Self:
        return dataclasses.replace(self, msg=msg)


def phase_text(view: dict[str, Any]) -> str:
    phase = "over" if view["over"] is not None else view["phase"]
    if phase == "start" and view["round"] > 0:  # between turns: the next turn opens with its anomaly
        phase = "anomaly"
    if phase in ("anomaly", "move", "combat", "over"):
        return tr(f"maze.phase.{phase}")
    return tr("maze.phase.setup")


def turn_text(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    if view["over"] is not None or view["phase"] == "setup":
        return ""
    if view["turn"] == me:
        return tr("table.turn_you")
    return tr("table.turn_of", name=seat_name(names, view["turn"]))


def mission_text(player: dict[str, Any], over: bool = False) -> str:
    """Where this player's key and chest are (missions are public in this game); nothing is coming after the end."""
    if over:
        return tr("maze.key.over")
    chest = player["chest"]
    if chest is None:
        return tr("maze.key.none")
    if player["carrying_key"]:
        return tr("maze.key.carried", chest=cell_name(chest))
    key = player["key"]
    if key is None:
        return tr("maze.key.none")
    return tr("maze.key.lying", key=cell_name(key), chest=cell_name(chest))


def status_text(player: dict[str, Any]) -> str:
    """Off the board, blocked, or blocking — empty while nothing special is going on."""
    if not player["on_board"]:
        parts = [tr("maze.off", n=player["countdown"]) if player["countdown"] else tr("maze.off.ready")]
        if player["blocked"]:
            parts.append(tr("maze.blocked", n=player["blocked"]))
        return "\n".join(parts)
    if player["blocking"]:
        return tr("maze.blocking")
    return ""


#: The line's subject, as a line's ``seats``.
Who = tuple[tuple[str, int], ...]


def _cell(e: Event) -> tuple[tuple[str, str | int], ...]:
    """The cell an event happened on (its third field), as a line's parameter."""
    return (("cell", cell_name(e[2])),)


def _moved(e: Event, who: Who) -> MazeLine:
    """A walk along its cells, or staying put (no cells)."""
    if len(e) == 2:
        return MazeLine("maze.log.stay", who)
    return MazeLine("maze.log.move", who, (("path", "–".join(cell_name(c) for c in e[2:])),))


def _rolled(e: Event, who: Who) -> MazeLine:
    """An attack die: its face, and the damage if it hit."""
    if e[3]:
        return MazeLine("maze.log.hit", who, (("face", e[2]), ("hp", e[3])), "event")
    return MazeLine("maze.log.miss", who, (("face", e[2]),))


def _eliminated(e: Event, who: Who) -> MazeLine:
    """A pawn out of the maze, by its cause; a point for the seat that scored, if one did."""
    cause, scorer = e[2], e[3]
    if cause == "combat":
        return MazeLine("maze.log.out.combat", (*who, ("scorer", scorer)), (("mp", 1),), "event")
    if cause == "pushed-off":
        if scorer in (0, 1):
            return MazeLine("maze.log.out.pushed", (*who, ("scorer", scorer)), (("mp", 1),), "event")
        return MazeLine("maze.log.out.fell", who, tone="event")
    if cause in ("mine", "spikes", "blacksaw"):
        return MazeLine(f"maze.log.out.{cause}", who, tone="event")
    return MazeLine("maze.log.out.fell", who, tone="event")


def _blocked(e: Event, who: Who) -> MazeLine:
    """A respawn blocked for ``n`` more turns."""
    msg = f"maze.log.blocked.{e[2]}" if e[2] in (1, 2) else "maze.log.blocked.n"
    return MazeLine(msg, who, (("n", e[2]),), "event")


def _game_over(e: Event, who: Who) -> MazeLine:
    """The winner, or a draw (the event's seat field holds the winners)."""
    winners = list(e[1])
    if len(winners) == 1:
        return MazeLine("maze.log.won", (("name", winners[0]),), tone="win")
    return MazeLine("maze.log.draw", tone="win")


#: The events told in one line, from the event's fields and its seat (``who``).
ONE_LINE: dict[str, Callable[[Event, Who], MazeLine]] = {
    "rotate": lambda e, who: MazeLine("maze.log.rotate", who, (*_cell(e), ("deg", 90 * e[3]))),
    "shift": lambda e, who: MazeLine(f"maze.log.shift.{e[2]}.{e[4]}", who, (("line", line_name(e[2], e[3])),)),
    "move": _moved,
    "key-taken": lambda e, who: MazeLine("maze.log.key", who, _cell(e), "good"),
    "chest-opened": lambda e, who: MazeLine("maze.log.chest", who, (*_cell(e), ("mp", 5)), "win"),
    "medkit": lambda e, who: MazeLine("maze.log.medkit", who, (*_cell(e), ("hp", e[3])), "good"),
    "mine": lambda e, who: MazeLine("maze.log.mine", who, (*_cell(e), ("hp", e[3])), "event"),
    "spikes": lambda e, who: MazeLine("maze.log.spikes", who, (*_cell(e), ("hp", e[3])), "event"),
    "attack": lambda e, who: MazeLine("maze.log.attack", who, tone="event"),
    "die": _rolled,
    "no-attack": lambda e, who: MazeLine("maze.log.no_attack", who),
    "eliminated": _eliminated,
    "turn-missed": lambda e, who: MazeLine("maze.log.missed", who, (("n", e[2]),)),
    "respawn-blocked": _blocked,
    "blacksaw": lambda e, who: MazeLine("maze.log.blacksaw", who, tone="event"),
    "respawn": lambda e, who: MazeLine("maze.log.respawn", who, _cell(e), "good"),
    "key-placed": lambda e, who: MazeLine("maze.log.key_placed", who, _cell(e)),
    "chest-placed": lambda e, who: MazeLine("maze.log.chest_placed", who, _cell(e)),
    "item-placed": lambda e, who: MazeLine(f"maze.log.item.{e[1]}", (), _cell(e)),
    "forfeit": lambda e, who: MazeLine("maze.log.forfeit", who, tone="event"),
    "game-over": _game_over,
}


class MazeLogWriter:
    """Turns engine entries into log lines (the same for every seat: nothing is secret)."""

    def __init__(self, me: int | None, players: int) -> None:
        self.me = me
        self.players = players
        self.first_said = False

    def lines(self, entry: Applied, knowledge: Knowledge) -> list[GameLine]:
        out: list[GameLine] = []
        for event in entry.events:
            out.extend(self.event_lines(tuple(event)))
        return out

    def event_lines(self, e: Event) -> list[MazeLine]:
        kind = e[0]
        seat = e[1] if len(e) > 1 and isinstance(e[1], int) else -1
        who = (("name", seat),)
        if kind == "turn":
            return self._turn(e, who)
        told = ONE_LINE.get(kind)
        return [told(e, who)] if told is not None else []

    def _turn(self, e: Event, who: Who) -> list[MazeLine]:
        """A turn begins; the game's first turn also says who goes first."""
        lines = []
        if not self.first_said:
            self.first_said = True
            lines.append(MazeLine("maze.log.first", who))
        lines.append(MazeLine("maze.log.turn", who, (("n", e[2]),)))
        return lines
