"""Saved local games, and rebuilding them step by step for the replay viewer.

A local game file is the magic line ``SEALED-TABLE-GAME`` followed by one
msgpack map: a header (format ``local``, version 1) and the record — game,
players, options, seed, the human seat, names, every seat decision in order,
the public history and the final state hash.  The seed and the decisions are
enough to rebuild the whole game through the referee, secrets included; the
history and hash are there so that a damaged or edited file is *detected*
(the rebuild must reproduce them exactly) instead of showing a different game.
When the protocol's signed log files exist they will carry their own format
name in the same header, and the viewer will open both.

Every failure is a :class:`GameFileError` with a message id for the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from engines.core import (
    Action,
    Decision,
    GameOver,
    IllegalAction,
    Knowledge,
    Referee,
    RefereeError,
    canonical_encode,
    decode,
    get,
)

from .i18n import tr
from .local_game import FORFEIT, EventTap, LocalGame

MAGIC = b"SEALED-TABLE-GAME\n"
FORMAT = "local"
VERSION = 1
SUFFIX = ".sealed"
MAX_FILE = 8 * 1024 * 1024


class GameFileError(Exception):
    """A game file that cannot be opened; ``message()`` says why, for people."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self) -> str:
        return tr(f"file.{self.code}", **self.params)


@dataclass
class GameRecord:
    game: str
    players: int
    options: dict[str, Any]
    seed: bytes
    human: int
    names: list[str]
    bot: str
    decisions: list[tuple[int, Action]]
    history: list[tuple[int, Action]]
    final_hash: bytes

    def to_plain(self) -> dict[str, Any]:
        return {
            "header": {"format": FORMAT, "version": VERSION},
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "human": self.human,
            "names": list(self.names),
            "bot": self.bot,
            "decisions": [[s, list(a)] for s, a in self.decisions],
            "history": [[s, list(a)] for s, a in self.history],
            "final_hash": self.final_hash,
        }


def record_of(game: LocalGame) -> GameRecord:
    return GameRecord(
        game.game,
        game.players,
        dict(game.options),
        game.seed,
        game.human,
        list(game.names),
        game.bot_kind,
        list(game.decisions),
        list(game.history),
        game.state.hash(),
    )


def dumps(record: GameRecord) -> bytes:
    return MAGIC + canonical_encode(record.to_plain())


def save(game: LocalGame, path: Path) -> Path:
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(dumps(record_of(game)))
    tmp.replace(path)
    return path


def loads(data: bytes) -> GameRecord:
    """Parse and validate the shape of a file's bytes (not yet the game in it)."""
    if not data.startswith(MAGIC):
        raise GameFileError("not-a-game")
    try:
        raw = decode(data[len(MAGIC) :])
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, TypeError):
        raise GameFileError("corrupt", detail="msgpack") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("header"), dict):
        raise GameFileError("corrupt", detail="header")
    header = raw["header"]
    if header.get("format") != FORMAT:
        raise GameFileError("format", name=str(header.get("format")))
    if header.get("version") != VERSION:
        raise GameFileError("version", version=str(header.get("version")))
    try:
        record = GameRecord(
            _typed(raw, "game", str),
            _typed(raw, "players", int),
            dict(_typed(raw, "options", dict)),
            _typed(raw, "seed", bytes),
            _typed(raw, "human", int),
            [_check(n, str) for n in _typed(raw, "names", tuple)],
            _typed(raw, "bot", str),
            [_pair(p) for p in _typed(raw, "decisions", tuple)],
            [_pair(p) for p in _typed(raw, "history", tuple)],
            _typed(raw, "final_hash", bytes),
        )
    except (TypeError, ValueError) as exc:
        raise GameFileError("corrupt", detail=str(exc)) from None
    return record


def _check(value: Any, kind: type) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"expected {kind.__name__}")
    return value


def _typed(raw: dict[str, Any], key: str, kind: type) -> Any:
    if key not in raw:
        raise ValueError(f"missing {key}")
    try:
        return _check(raw[key], kind)
    except TypeError:
        raise TypeError(f"{key}: expected {kind.__name__}") from None


def _pair(p: Any) -> tuple[int, Action]:
    if not isinstance(p, tuple) or len(p) != 2 or not isinstance(p[1], tuple) or not p[1]:
        raise ValueError("bad action entry")
    return _check(p[0], int), p[1]


def load(path: Path) -> GameRecord:
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE:
            raise GameFileError("too-big")
        data = Path(path).read_bytes()
    except OSError as exc:
        raise GameFileError("unreadable", reason=exc.strerror or str(exc)) from None
    return loads(data)


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

    The audit (``protocol.savefile.verify_bytes``) runs first; its verdict is
    shown with the replay.  The frames come from an observer session fed the
    entries in order: every public change is one frame.  The full view is not
    offered: showing every hand would need the card secrets opened by the audit.
    """

    full_view = False

    def __init__(self, data: bytes) -> None:
        from protocol import savefile
        from protocol.events import Gone, Moved, SetAside
        from protocol.session import PeerSession

        try:
            saved = savefile.load(data)
            self.verdict = savefile.verify_bytes(data)
        except savefile.SaveFileError as exc:
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
    try:
        from protocol import savefile
    except ImportError:
        savefile = None  # type: ignore[assignment]  # no protocol package: no signed logs to open
    if savefile is not None and data.startswith(savefile.MAGIC):
        return SignedReplay(data)
    raise GameFileError("not-a-game")
