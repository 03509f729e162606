"""Rebuilding a saved game step by step for the replay viewer: a local file or a network game's signed log.

A local game's frames come from its record (:mod:`client.play.local_file`) replayed through the
referee and checked against the history and hash it carries; a signed log is audited offline
first and then fed to an observer session, one frame per public change.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.play.local_file import MAGIC, MAX_FILE, GameFileError, GameRecord, load, loads
from client.play.source import FORFEIT, EventTap
from engines.core import (
    Action,
    Decision,
    GameOver,
    IllegalAction,
    Knowledge,
    Referee,
    RefereeError,
    get,
)
from protocol import verify


# -- rebuilding ----------------------------------------------------------------
@dataclass
class Frame:
    """The game just after one history entry (index -1: before the first)."""

    index: int
    seat: int | None
    action: Action | None
    state: Any
    truth: Knowledge
    human: Knowledge
    events: tuple[tuple[Any, ...], ...] = ()
    before: Any = None


class Replay:
    """Every frame of a recorded game, rebuilt through the referee and checked."""

    #: Local games hold every secret: the viewer may show every hand at the end.
    full_view = True
    verdict = None

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        try:
            self.spec = get(record.game)
        except KeyError:
            raise GameFileError("unknown-game", game=record.game) from None
        if not self.spec.min_players <= record.players <= self.spec.max_players:
            raise GameFileError("corrupt", detail="players")
        if not 0 <= record.human < record.players or len(record.names) != record.players:
            raise GameFileError("corrupt", detail="seats")
        self.frames: list[Frame] = []
        self._rebuild()

    def _snapshot(self, referee: Referee, seat: int | None, action: Action | None, before: Any = None) -> None:
        truth = Knowledge(None, dict(referee.truth.cards), dict(referee.truth.sealed))
        for k in referee.seats:
            truth.cards.update(k.cards)
            truth.sealed.update(k.sealed)
        self.frames.append(
            Frame(
                len(self.frames) - 1,
                seat,
                action,
                referee.state.clone(),
                truth,
                referee.knowledge(self.record.human).copy(),
                self._tap.new() if self.frames else (),
                before,
            )
        )

    def _rebuild(self) -> None:
        record = self.record
        try:
            state = self.spec.new_state(record.players, dict(record.options))
        except Exception:
            raise GameFileError("corrupt", detail="options") from None
        referee = Referee(state, record.seed)
        self._tap = EventTap(state)
        self._snapshot(referee, None, None)
        try:
            for seat, action in record.decisions:
                self._resolve(referee)
                if action[0] == FORFEIT:
                    referee.state.forfeit(seat)
                    self._snapshot(referee, seat, (FORFEIT,))
                    continue
                pending = referee.state.pending()
                if not isinstance(pending, Decision) or pending.seat != seat:
                    raise GameFileError("does-not-replay", step=len(referee.history))
                referee.decide(seat, action)
                self._snapshot(referee, seat, referee.history[-1][1], pending)
            self._resolve(referee)
        except (IllegalAction, RefereeError, ValueError, TypeError, KeyError, IndexError):
            raise GameFileError("does-not-replay", step=len(referee.history)) from None
        history = [(s, tuple(a)) for s, a in referee.history]
        if history != [(s, tuple(a)) for s, a in record.history] or referee.state.hash() != record.final_hash:
            raise GameFileError("does-not-replay", step=len(history))
        self.final = referee.state

    def _resolve(self, referee: Referee) -> None:
        while True:
            before = referee.state.pending()
            if not referee.resolve_table():
                return
            seat, action = referee.history[-1]
            self._snapshot(referee, seat, action, before)

    @property
    def result(self) -> GameOver | None:
        p = self.final.pending()
        return p if isinstance(p, GameOver) else None

    def __len__(self) -> int:
        return len(self.frames)


def open_replay(path: Path) -> Replay:
    return Replay(load(path))


# -- the protocol's signed logs (networked games) --------------------------------
@dataclass
class SignedRecord:
    """What the viewer needs to know of a signed log: the game and its seats."""

    game: str
    players: int
    names: list[str]
    room: str
    human: int | None = None


class SignedReplay:
    """A networked game's signed log, audited offline and rebuilt frame by frame (public view).

    The audit (``protocol.verify.verify_bytes``) runs first; its verdict is
    shown with the replay.  The frames come from an observer session fed the
    entries in order: every public change is one frame.  The full view is not
    offered: showing every hand would need the card secrets opened by the audit.
    """

    full_view = False

    def __init__(self, data: bytes) -> None:
        from protocol.events import Gone, Moved, SetAside
        from protocol.session import PeerSession

        try:
            saved = verify.load(data)
            self.verdict = verify.verify_bytes(data)
        except verify.SaveFileError as exc:
            raise GameFileError("signed-log", reason=str(exc)) from None
        observer = PeerSession.observe(saved.room)
        self.frames: list[Frame] = []
        mirror: Any = None
        tap: EventTap | None = None
        for raw in saved.entries:
            for event in observer.receive(raw, 0):
                if mirror is None and observer.state is not None:
                    table = observer.table
                    assert table is not None  # a state comes from the table
                    mirror = get(table.game).new_state(table.n, dict(table.options))
                    tap = EventTap(mirror)
                    self.record = SignedRecord(table.game, table.n, [s.name for s in table.seats], saved.room)
                    self._snap(mirror, None, None, (), None)
                if mirror is None or tap is None:
                    continue
                if isinstance(event, Moved):
                    before = mirror.pending()
                    mirror.push(event.seat, tuple(event.action))
                    self._snap(mirror, event.seat, tuple(event.action), tap.new(), before)
                elif isinstance(event, Gone) and not mirror.is_over():
                    mirror.forfeit(event.seat)
                    self._snap(mirror, event.seat, (FORFEIT,), tap.new(), None)
                elif isinstance(event, SetAside):
                    mirror.set_aside(tuple(event.slots))
        if mirror is None:
            raise GameFileError("signed-log", reason="no game in the log")
        self.final = mirror

    def _snap(self, state: Any, seat: int | None, action: Action | None, events: Any, before: Any) -> None:
        frame = Frame(
            len(self.frames) - 1, seat, action, state.clone(), Knowledge(None), Knowledge(None), events, before
        )
        self.frames.append(frame)

    @property
    def result(self) -> GameOver | None:
        p = self.final.pending()
        return p if isinstance(p, GameOver) else None

    def __len__(self) -> int:
        return len(self.frames)


def open_any(path: Path) -> Replay | SignedReplay:
    """A local game file or a signed log, by its magic; GameFileError otherwise."""
    try:
        if Path(path).stat().st_size > MAX_FILE:
            raise GameFileError("too-big")
        data = Path(path).read_bytes()
    except OSError as exc:
        raise GameFileError("unreadable", reason=exc.strerror or str(exc)) from None
    if data.startswith(MAGIC):
        return Replay(loads(data))
    if data.startswith(verify.MAGIC):
        return SignedReplay(data)
    raise GameFileError("not-a-game")
