"""Local game files: the record of a game played on this machine, written and read back.

A local game file is the magic line ``SEALED-TABLE-GAME`` followed by one
msgpack map: a header (format ``local``, version 1) and the record — game,
players, options, seed, the human seat, names, every seat decision in order,
the public history and the final state hash.  The seed and the decisions are
enough to rebuild the whole game through the referee, secrets included; the
history and hash are there so that a damaged or edited file is *detected*
(the rebuild must reproduce them exactly) instead of showing a different game.
A networked game's file is the protocol's signed log instead
(:mod:`protocol.logfile`); the replay viewer opens both (:mod:`client.play.replays`).

Every failure is a :class:`GameFileError` with a message id for the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from client.i18n import tr
from client.play.local import LocalGame
from engines.core import (
    Action,
    canonical_encode,
    decode,
)

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
