"""Anomaly Maze in words: the game log, the phase, the players' states.

As for System Launch, a log line is kept as a message id with raw parameters
(seats, cell names, numbers) and rendered on demand, so a language switch
re-labels the whole log.  Events come from the engine's display list
(:attr:`engines.anomaly_maze.state.AnomalyMazeState.events`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
    params: tuple[tuple[str, Any], ...] = ()
    tone: str = "plain"

    def text(self, names: Sequence[str]) -> str:
        values: dict[str, Any] = {k: seat_name(names, s) for k, s in self.seats}
        values.update(dict(self.params))
        return tr(self.msg, **values)


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


class MazeLogWriter:
    """Turns engine entries into log lines (the same for every seat: nothing is secret)."""

    def __init__(self, me: int | None, players: int) -> None:
        self.me = me
        self.players = players
        self.first_said = False

    def lines(self, entry: Any, knowledge: Knowledge) -> list[MazeLine]:
        out: list[MazeLine] = []
        for event in entry.events:
            out.extend(self.event_lines(tuple(event)))
        return out

    def event_lines(self, e: tuple[Any, ...]) -> list[MazeLine]:  # noqa: C901 (tests/test_complexity.py)
        kind = e[0]
        seat = e[1] if len(e) > 1 and isinstance(e[1], int) else -1
        who = (("name", seat),)
        if kind == "turn":
            lines = []
            if not self.first_said:
                self.first_said = True
                lines.append(MazeLine("maze.log.first", who))
            lines.append(MazeLine("maze.log.turn", who, (("n", e[2]),)))
            return lines
        if kind == "rotate":
            return [MazeLine("maze.log.rotate", who, (("cell", cell_name(e[2])), ("deg", 90 * e[3])))]
        if kind == "shift":
            return [MazeLine(f"maze.log.shift.{e[2]}.{e[4]}", who, (("line", line_name(e[2], e[3])),))]
        if kind == "move":
            if len(e) == 2:
                return [MazeLine("maze.log.stay", who)]
            return [MazeLine("maze.log.move", who, (("path", "–".join(cell_name(c) for c in e[2:])),))]
        if kind == "key-taken":
            return [MazeLine("maze.log.key", who, (("cell", cell_name(e[2])),), "good")]
        if kind == "chest-opened":
            return [MazeLine("maze.log.chest", who, (("cell", cell_name(e[2])), ("mp", 5)), "win")]
        if kind == "medkit":
            return [MazeLine("maze.log.medkit", who, (("cell", cell_name(e[2])), ("hp", e[3])), "good")]
        if kind in ("mine", "spikes"):
            return [MazeLine(f"maze.log.{kind}", who, (("cell", cell_name(e[2])), ("hp", e[3])), "event")]
        if kind == "attack":
            return [MazeLine("maze.log.attack", who, tone="event")]
        if kind == "die":
            if e[3]:
                return [MazeLine("maze.log.hit", who, (("face", e[2]), ("hp", e[3])), "event")]
            return [MazeLine("maze.log.miss", who, (("face", e[2]),))]
        if kind == "no-attack":
            return [MazeLine("maze.log.no_attack", who)]
        if kind == "eliminated":
            return [self._eliminated(seat, e[2], e[3])]
        if kind == "turn-missed":
            return [MazeLine("maze.log.missed", who, (("n", e[2]),))]
        if kind == "respawn-blocked":
            msg = f"maze.log.blocked.{e[2]}" if e[2] in (1, 2) else "maze.log.blocked.n"
            return [MazeLine(msg, who, (("n", e[2]),), "event")]
        if kind == "blacksaw":
            return [MazeLine("maze.log.blacksaw", who, tone="event")]
        if kind == "respawn":
            return [MazeLine("maze.log.respawn", who, (("cell", cell_name(e[2])),), "good")]
        if kind == "key-placed":
            return [MazeLine("maze.log.key_placed", who, (("cell", cell_name(e[2])),))]
        if kind == "chest-placed":
            return [MazeLine("maze.log.chest_placed", who, (("cell", cell_name(e[2])),))]
        if kind == "item-placed":
            return [MazeLine(f"maze.log.item.{e[1]}", (), (("cell", cell_name(e[2])),))]
        if kind == "forfeit":
            return [MazeLine("maze.log.forfeit", who, tone="event")]
        if kind == "game-over":
            winners = list(e[1])
            if len(winners) == 1:
                return [MazeLine("maze.log.won", (("name", winners[0]),), tone="win")]
            return [MazeLine("maze.log.draw", tone="win")]
        return []

    @staticmethod
    def _eliminated(seat: int, cause: str, scorer: int) -> MazeLine:
        who = (("name", seat),)
        if cause == "combat":
            return MazeLine("maze.log.out.combat", (*who, ("scorer", scorer)), (("mp", 1),), "event")
        if cause == "pushed-off":
            if scorer in (0, 1):
                return MazeLine("maze.log.out.pushed", (*who, ("scorer", scorer)), (("mp", 1),), "event")
            return MazeLine("maze.log.out.fell", who, tone="event")
        if cause in ("mine", "spikes", "blacksaw"):
            return MazeLine(f"maze.log.out.{cause}", who, tone="event")
        return MazeLine("maze.log.out.fell", who, tone="event")
