"""Collective Conflict in words: the log, the status line, kinds, hexes and reserves.

A log line is a message id with raw parameters (seats, kind names, hexes),
rendered on demand, so a language switch re-labels the whole log.  The
engine keeps no event list, so :class:`CCLogWriter` follows the game with its
own replica of the *public* state (every peer can do this: it applies the
public actions), which tells it which kind moved, which Networks collapsed and
how many Wrecks went.  The seat's own secrets (its Decoy, its trap's arming)
appear only in that seat's log, from its knowledge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from client.games.collective_conflict.paint import seat_mark
from client.games.collective_conflict.scene import TrapShape, UnitShape
from client.games.log import Applied, GameLine
from client.i18n import tr
from client.play.source import FORFEIT
from engines.collective_conflict.rules import KIND_NAMES, WRECK
from engines.collective_conflict.state import CollectiveConflictState
from engines.core import Action, Chance, Decision, Knowledge, Pending, RevealOwed
from engines.core.hexgrid import hex_id


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def network_name(names: Sequence[str], seat: int) -> str:
    """A player's name with their Network's letter, e.g. "Alex (A)"."""
    return f"{seat_name(names, seat)} ({seat_mark(seat)})"


def hex_name(h: Sequence[int]) -> str:
    """An axial hex for people: "(1, −2)" (the board is unbounded, so coordinates, not letters)."""
    q, r = int(h[0]), int(h[1])
    return f"({q}, {r})".replace("-", "−")


def kind_name(kind: str, count: int = 1) -> str:
    """A unit kind's name; ``count`` picks the plural form (for reserves)."""
    if count == 1:
        return tr(f"cc.kind.{kind}")
    return tr(f"cc.kinds.{kind}", count=count)


@dataclass(frozen=True)
class CCLine:
    """One log line: a message id, seats (named at render time), kinds (translated then) and plain values."""

    msg: str
    seats: tuple[tuple[str, int], ...] = ()
    params: tuple[tuple[str, str | int], ...] = ()
    tone: str = "plain"
    kinds: tuple[tuple[str, str], ...] = ()

    def text(self, names: Sequence[str]) -> str:
        values: dict[str, object] = {k: network_name(names, s) for k, s in self.seats}
        # A line spoken to its player ("You (A): …") keeps the Network letter, the colour-blind cue.
        values.update({f"{k}_mark": seat_mark(s) for k, s in self.seats})
        values.update({k: kind_name(v) for k, v in self.kinds})
        values.update(dict(self.params))
        return tr(self.msg, **values)

    def reworded(self, msg: str) -> Self:
        return dataclasses.replace(self, msg=msg)


#: The line's subject, as a line's ``seats``.
Who = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Before:
    """What the writer's replica held before an action: the public facts an action's lines compare."""

    active: tuple[bool, ...]
    cores: frozenset[int]
    virus: tuple[bool, ...]
    pending: Pending
    #: The pieces on the board (ids).
    on_board: tuple[int, ...]

    @classmethod
    def of(cls, state: CollectiveConflictState) -> Before:
        on_board = tuple(pid for pid, pos in enumerate(state.p_pos) if pos >= 0)
        return cls(tuple(state.active), frozenset(state.cores), tuple(state.virus), state.pending(), on_board)


class CCLogWriter:
    """Turns applied actions into log lines for seat ``me`` (None: a spectator)."""

    def __init__(self, me: int | None, players: int) -> None:
        self.me = me
        self.players = players
        self.state: CollectiveConflictState | None = CollectiveConflictState(players, {})
        #: The seat whose turn decision was applied last: the engine skips a seat with no legal
        #: action silently (CC-5), so a skip shows as the next turn going past that seat.
        self.last_mover: int | None = None

    def lines(self, entry: Applied, knowledge: Knowledge) -> list[GameLine]:
        seat, applied = entry.seat, entry.action
        if seat is None or applied is None:
            return []
        action = tuple(applied)
        state = self.state
        if state is None:
            return _generic(seat, action)
        before = Before.of(state)
        try:
            out: list[GameLine] = list(self._describe(state, seat, action, knowledge))
            if action[0] == FORFEIT:
                state.forfeit(seat)
            else:
                state.apply(seat, action)
        except Exception:  # a replica that cannot follow (unknown options, odd input) falls back to plain lines
            self.state = None
            return _generic(seat, action)
        out.extend(_changes(before, state))
        out.extend(self._turn_flow(before, state, seat, action))
        return out

    def _turn_flow(self, before: Before, state: CollectiveConflictState, seat: int, action: Action) -> list[CCLine]:
        """The seats the turn went past, and a reveal the table now waits for."""
        out = []
        pending = state.pending()
        took_turn = isinstance(before.pending, Decision) and before.pending.seat == seat and action[0] != FORFEIT
        if took_turn:
            self.last_mover = seat
        same_turn = isinstance(before.pending, Decision) and before.pending == pending and not took_turn
        if isinstance(pending, Decision) and not same_turn:
            out.extend(self._skipped(state, pending.seat))
        if isinstance(pending, RevealOwed):
            what = "cc.log.owes_command" if pending.what == "command-unit" else "cc.log.owes_trap"
            where = state.secrets[pending.secret][2] if pending.what == "trap" else _piece_hex(state, pending.secret)
            out.append(CCLine(what, (("name", pending.seat),), (("hex", hex_name(where)),), "event"))
        return out

    def _skipped(self, state: CollectiveConflictState, to_move: int) -> list[CCLine]:
        """A line for every active seat that the turn went past on its way to ``to_move``."""
        if self.last_mover is None:
            return []
        n = self.players
        out = []
        for k in range(1, n + 1):
            seat = (self.last_mover + k) % n
            if seat == to_move:
                break
            if state.active[seat]:
                msg = "cc.log.skipped_you" if seat == self.me else "cc.log.skipped"
                out.append(CCLine(msg, (("name", seat),), tone="event"))
        return out

    def _describe(
        self, state: CollectiveConflictState, seat: int, action: Action, knowledge: Knowledge
    ) -> list[CCLine]:
        """The lines for ``action`` itself, read from the state before it is applied."""
        verb = action[0]
        who = (("name", seat),)
        mine = seat == self.me and seat >= 0
        if verb == FORFEIT:
            return [CCLine("cc.log.left", who, tone="event")]
        if verb == "place":
            return [_placed(action, who, knowledge if mine else None)]
        if verb in ("move", "jump", "cast"):
            return _moved(state, action, who, knowledge if mine else None)
        if verb == "virus":
            return [_infected(state, action, who)]
        if verb == "reveal":
            return [_revealed(state, seat, action, who)]
        return []


def _generic(seat: int, action: Action) -> list[GameLine]:
    """The plain line of an action the writer's replica could not follow."""
    return [CCLine("cc.log.generic", (("name", seat),), (("action", repr(action)[:60]),))] if seat >= 0 else []


def _changes(before: Before, state: CollectiveConflictState) -> list[CCLine]:
    """What an action changed on the table: the first player drawn, Cores, viruses, collapses, Wrecks gone."""
    out = []
    if isinstance(before.pending, Chance) and before.pending.what == "first-player" and state.first is not None:
        out.append(CCLine("cc.log.first", (("name", state.first),)))
    for h in sorted(state.cores - before.cores):
        out.append(CCLine("cc.log.core", params=(("hex", hex_name(_qr(h))),)))
    for s, (was, now) in enumerate(zip(before.virus, state.virus, strict=True)):
        if now and not was:
            out.append(CCLine("cc.log.virus_gained", (("name", s),), tone="good"))
    for s, (was, now) in enumerate(zip(before.active, state.active, strict=True)):
        if was and not now:
            out.append(CCLine("cc.log.collapsed", (("name", s),), tone="event"))
    removed = sum(1 for pid in before.on_board if state.p_pos[pid] < 0 and state.p_kind[pid] == WRECK)
    if removed > 0:
        out.append(CCLine("cc.log.wrecks_removed", params=(("n", removed),), tone="event"))
    return out


def _placed(action: Action, who: Who, own: Knowledge | None) -> CCLine:
    """A unit placed from the reserve; its own player (``own``: their knowledge) reads which command unit."""
    kind = action[1]
    if kind == "command" and own is not None and len(action) > 3 and action[3] in own.sealed:
        return CCLine(
            "cc.log.place_own", who, (("hex", hex_name(action[2])),), "private", (("kind", own.sealed[action[3]]),)
        )
    return CCLine("cc.log.place", who, (("hex", hex_name(action[2])),), kinds=(("kind", kind),))


def _moved(state: CollectiveConflictState, action: Action, who: Who, own: Knowledge | None) -> list[CCLine]:
    """A move, a double jump or a Netcaster's cast; a Core taken on the way; a trap left behind.

    Only the trap's own player (``own``: their knowledge) reads whether it is armed.
    """
    verb, src = action[0], action[1]
    dst = action[3] if verb == "jump" else action[2]
    kind = _top_kind(state, src)
    params = (("src", hex_name(src)), ("dst", hex_name(dst)))
    who_kind = (("kind", kind),)
    if verb == "jump":
        out = [CCLine("cc.log.jump2", who, (*params, ("mid", hex_name(action[2]))), kinds=who_kind)]
    else:
        out = [CCLine("cc.log.move", who, params, kinds=who_kind)]
    if verb == "move" and len(action) == 4:
        out.append(CCLine("cc.log.core_hop", who, (("hex", hex_name(action[3])),), "good"))
    if verb == "cast":
        out.append(CCLine("cc.log.trap_left", who, (("hex", hex_name(src)),)))
        if own is not None and action[3] in own.sealed:
            msg = "cc.log.trap_own_armed" if own.sealed[action[3]] else "cc.log.trap_own_bluff"
            out.append(CCLine(msg, who, tone="private"))
    return out


def _infected(state: CollectiveConflictState, action: Action, who: Who) -> CCLine:
    """A virus sent onto a unit, whose owner is the line's target."""
    stack = state.stacks.get(hex_id(*action[2]))
    # CC-24: the target may lie under a Climber; ``level`` then names it (0: the bottom).
    piece = (stack[action[3]] if len(action) == 4 else stack[-1]) if stack else None
    owner = state.p_owner[piece] if piece is not None else -1
    kind = KIND_NAMES[state.p_kind[piece]] if piece is not None else "runner"
    msg = "cc.log.virus_covered" if len(action) == 4 else "cc.log.virus"
    return CCLine(msg, (*who, ("target", owner)), (("hex", hex_name(action[2])),), "event", (("kind", kind),))


def _revealed(state: CollectiveConflictState, seat: int, action: Action, who: Who) -> CCLine:
    """A secret opened: a trap's arming, or a command unit's identity."""
    sid, value = action[1], action[2]
    what = state.secrets.get(sid, [seat, "?", [0, 0], None])[1]
    if what == "trap":
        msg = "cc.log.trap_armed" if value is True else "cc.log.trap_bluff"
        return CCLine(msg, who, tone="event" if value is True else "plain")
    if value == "mothership":
        return CCLine("cc.log.reveal_mothership", who, tone="event")
    return CCLine("cc.log.reveal_decoy", who, tone="event")


def _piece_hex(state: CollectiveConflictState, sid: int) -> Sequence[int]:
    """Where the piece holding secret ``sid`` stands (where it was placed, if it left the board)."""
    for pid, s in state.piece_sid.items():
        if s == sid and state.p_pos[pid] >= 0:
            return _qr(state.p_pos[pid])
    hex_placed: list[int] = state.secrets[sid][2]
    return hex_placed


def _top_kind(state: CollectiveConflictState, h: Sequence[int]) -> str:
    stack = state.stacks.get(hex_id(int(h[0]), int(h[1])))
    return KIND_NAMES[state.p_kind[stack[-1]]] if stack else "command"


def _qr(h: int) -> tuple[int, int]:
    from engines.core.hexgrid import hex_qr

    return hex_qr(h)


def reserve_text(reserve: dict[str, int], mine: bool) -> str:
    """ "2 command units, 3 Runners, …" — the same public counts for everyone (CC-8)."""
    parts = [tr(f"cc.kinds.{kind}", count=n) for kind, n in ordered_reserve(reserve)]
    return ", ".join(parts) if parts else tr("cc.reserve.empty")


ORDER = ("command", "mothership", "decoy", "runner", "climber", "netcaster", "jumper")


def ordered_reserve(reserve: dict[str, int]) -> list[tuple[str, int]]:
    return [(k, reserve[k]) for k in ORDER if reserve.get(k)]


def turn_text(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    pending = view["pending"]
    if pending[0] == "over":
        return tr("cc.over")
    if pending[0] == "reveal":
        if pending[1] == me:
            return tr("cc.reveal_you")
        return tr("cc.reveal_of", name=network_name(names, pending[1]))
    if pending[0] == "chance":
        return tr("cc.chance")
    if view["current"] == me:
        return tr("table.turn_you")
    return tr("table.turn_of", name=network_name(names, view["current"]))


def hover_text(
    h: tuple[int, int], units: Sequence[UnitShape], traps: Sequence[TrapShape], cores: Sequence[tuple[int, int]]
) -> str:
    """What a hex holds, for its tooltip: its coordinates, then its stack from the top down.

    The log speaks in coordinates and a Climber hides what it stands on, so hovering a hex says
    both.  Only what this seat may know: its own command units by identity, its own traps' arming.
    """
    lines = [hex_name(h)]
    for unit in sorted((u for u in units if u.hex == h), key=lambda u: -u.layer):
        kind = tr("cc.hover.yours", kind=kind_name(unit.identity)) if unit.identity else kind_name(unit.kind)
        if unit.owner >= 0:
            lines.append(tr("cc.hover.unit", kind=kind, mark=seat_mark(unit.owner)))
        else:
            lines.append(kind)
    if h in cores:
        lines.append(tr("cc.hover.core"))
    for trap in traps:
        if trap.hex == h:
            state = {True: "armed", False: "bluff", None: "unknown"}[trap.armed]
            lines.append(tr(f"cc.hover.trap_{state}", mark=seat_mark(trap.owner)))
    return "\n".join(lines)
