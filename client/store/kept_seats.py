"""The seats of network games this user plays, kept on disk so that a closed or crashed program resumes them.

A network seat is nothing but its keys: every other secret of the seat (shares, salts, card
keys, the per-game agreement key) is derived from the one per-game secret, and the game itself
is the signed log the relay retains.  So a seat that keeps its signing key, its per-game secret,
its peer id, the room, the relay and the genesis author it pinned can be taken again by a new
process, which reads the log back and carries on (``protocol.session``; the headless peer does
the same with its ``--state-dir``).

Each seat has a folder ``games/<ROOM>-<peer>/`` in the config directory (mode 0700, like
``games/`` itself) with two files, both mode 0600:

- ``seat.key`` (msgpack): the signing key, the per-game secret, and the keys of the bots this
  machine plays in the same room (a host's bot seats must come back with it);
- ``seat.json``: what the lobby lists and what a resume needs in the clear — game, room, seat,
  relay address (never its password: that stays in ``relay-passwords.json``, see
  :mod:`client.store.settings`), peer id, creator key, the genesis when this machine wrote it, the
  answer time, the players' names, whose turn it was and when something last happened, and
  whether the game is over (``finished``) or the player gave the seat up (``left``).

Both are written before the seat's first entry goes out.  ``games/playing.json`` names the
seat the program is at while a network game is on the screen; it is removed when the player
goes back to the lobby, the game ends or the program closes cleanly, so finding it at start
means the program did not close cleanly (a crash, a kill, a power cut).

A damaged or foreign folder never stops the program: it is listed as a :class:`BrokenSeat`
with the reason, and nothing in it is touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from client.store.settings import config_dir

GAMES_DIR = "games"
INFO_FILE = "seat.json"
KEY_FILE = "seat.key"
PLAYING_FILE = "playing.json"
#: The layout of the files below (a newer program may add fields; an unknown version is refused).
VERSION = 1


@dataclass
class SavedBot:
    """A bot seat this machine plays in the room (its own keys, its own peer id)."""

    seat: int
    kind: str
    name: str
    peer: str
    sign: bytes  # the bot's private signing key (32 bytes)
    secret: bytes


@dataclass
class SavedSeat:
    """One seat of a network game, as kept on disk."""

    room: str
    seat: int
    game: str
    relay: str  # str() of the address: never a password
    peer: str
    creator: bytes
    sign: bytes  # this seat's private signing key
    secret: bytes
    genesis: bytes = b""
    bots: list[SavedBot] = field(default_factory=list)
    timeout_ms: int = 0
    names: list[str] = field(default_factory=list)
    turn: str = ""
    #: The seat the game waits for (-1: nobody, or not known).
    turn_seat: int = -1
    started: float = 0.0
    last_activity: float = 0.0
    finished: bool = False
    left: bool = False
    verdict: str = ""
    #: The port of this machine's LAN relay when the room was on it (0: a relay elsewhere).
    lan_port: int = 0
    #: The room's fallback relays (the invitation's and the host's), tried when ``relay`` is gone.
    fallbacks: list[str] = field(default_factory=list)
    folder: Path | None = None

    @property
    def key(self) -> str:
        return f"{self.room}-{self.peer}"

    @property
    def in_progress(self) -> bool:
        return not self.finished and not self.left

    def public(self) -> dict[str, Any]:
        """The fields of ``seat.json``."""
        return {
            "version": VERSION,
            "room": self.room,
            "seat": self.seat,
            "game": self.game,
            "relay": self.relay,
            "peer": self.peer,
            "creator": self.creator.hex(),
            "genesis": self.genesis.hex(),
            "timeout_ms": self.timeout_ms,
            "names": list(self.names),
            "turn": self.turn,
            "turn_seat": self.turn_seat,
            "started": self.started,
            "last_activity": self.last_activity,
            "finished": self.finished,
            "left": self.left,
            "verdict": self.verdict,
            "lan_port": self.lan_port,
            "fallbacks": list(self.fallbacks),
        }


@dataclass(frozen=True)
class BrokenSeat:
    """A folder under ``games/`` that cannot be read as a seat, and why (shown in the list, never a crash).

    ``why`` is ``missing`` (a file or field is not there), ``damaged``, ``version`` (another version of
    the program wrote it) or ``unreadable`` (the system refused: ``detail`` says what it said).
    """

    folder: Path
    why: str
    detail: str = ""


class Unreadable(ValueError):
    """A kept seat that cannot be read: ``why`` (see :class:`BrokenSeat`) and a ``detail``."""

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(f"{why}: {detail}" if detail else why)
        self.why = why
        self.detail = detail


def games_dir(config: Path | None = None) -> Path:
    return (config or config_dir()) / GAMES_DIR


def _private_dir(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o700)


def _write_private(path: Path, data: bytes) -> None:
    """``data`` to ``path`` atomically, readable by its owner only from the first byte on, and on the disk."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        if hasattr(os, "fchmod"):
            os.fchmod(out.fileno(), 0o600)
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def save(seat: SavedSeat, config: Path | None = None) -> SavedSeat:
    """Keep ``seat`` (secrets first, then the public facts); its folder is set on it.  Raises OSError."""
    root = games_dir(config)
    _private_dir(root)
    folder = seat.folder or root / seat.key
    _private_dir(folder)
    secrets = {
        "version": VERSION,
        "sign": seat.sign,
        "secret": seat.secret,
        "bots": [
            {"seat": b.seat, "kind": b.kind, "name": b.name, "peer": b.peer, "sign": b.sign, "secret": b.secret}
            for b in seat.bots
        ],
    }
    _write_private(folder / KEY_FILE, msgpack.packb(secrets, use_bin_type=True))
    seat.folder = folder
    write_public(seat)
    return seat


def write_public(seat: SavedSeat) -> None:
    """Rewrite ``seat.json`` (whose turn, names, last activity, finished...).  Raises OSError."""
    assert seat.folder is not None
    text = json.dumps(seat.public(), ensure_ascii=False, indent=1)
    _write_private(seat.folder / INFO_FILE, text.encode("utf-8"))


def _bytes(raw: Any, name: str, size: int | None = None) -> bytes:
    if not isinstance(raw, bytes) or (size is not None and len(raw) != size):
        raise Unreadable("damaged", name)
    return raw


def _text(raw: Any, name: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise Unreadable("damaged", name)
    return raw


def _read(path: Path, decode: Any) -> dict[str, Any]:
    """One of the seat's files, decoded to a map; :class:`Unreadable` naming the file otherwise."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise Unreadable("missing", path.name) from None
    except OSError as exc:
        raise Unreadable("unreadable", f"{path.name}: {exc.strerror or exc}") from None
    try:
        value = decode(data)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        raise Unreadable("damaged", path.name) from None
    if not isinstance(value, dict):
        raise Unreadable("damaged", path.name)
    return value


def load(folder: Path) -> SavedSeat:
    """The seat kept in ``folder``; :class:`Unreadable` (why, and a detail) if it cannot be."""
    info = _read(folder / INFO_FILE, lambda data: json.loads(data.decode("utf-8")))
    raw = _read(folder / KEY_FILE, lambda data: msgpack.unpackb(data, raw=False))
    if info.get("version") != VERSION or raw.get("version") != VERSION:
        raise Unreadable("version")
    try:
        bots = [
            SavedBot(
                int(b["seat"]),
                _text(b["kind"], "a bot's kind"),
                str(b["name"]),
                _text(b["peer"], "a bot's peer id"),
                _bytes(b["sign"], "a bot's key", 32),
                _bytes(b["secret"], "a bot's secret", 32),
            )
            for b in raw.get("bots") or []
        ]
        seat = info.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 16:
            raise Unreadable("damaged", "seat")
        names = info.get("names") or []
        return SavedSeat(
            room=_text(info.get("room"), "the room"),
            seat=seat,
            game=_text(info.get("game"), "the game"),
            relay=_text(info.get("relay"), "the relay"),
            peer=_text(info.get("peer"), "the peer id"),
            creator=bytes.fromhex(_text(info.get("creator"), "the host's key")),
            sign=_bytes(raw.get("sign"), "the signing key", 32),
            secret=_bytes(raw.get("secret"), "the per-game secret", 32),
            genesis=bytes.fromhex(str(info.get("genesis") or "")),
            bots=bots,
            timeout_ms=int(info.get("timeout_ms") or 0),
            names=[str(n) for n in names] if isinstance(names, list) else [],
            turn=str(info.get("turn") or ""),
            turn_seat=int(info.get("turn_seat", -1)),
            started=float(info.get("started") or 0.0),
            last_activity=float(info.get("last_activity") or 0.0),
            finished=bool(info.get("finished")),
            left=bool(info.get("left")),
            verdict=str(info.get("verdict") or ""),
            lan_port=int(info.get("lan_port") or 0),
            fallbacks=[str(f) for f in info.get("fallbacks") or [] if isinstance(f, str)],
            folder=folder,
        )
    except (KeyError, TypeError) as exc:
        raise Unreadable("damaged", str(exc)) from None
    except ValueError as exc:  # a number or hex text that is none
        raise Unreadable("damaged", type(exc).__name__) from None


def load_all(config: Path | None = None) -> list[SavedSeat | BrokenSeat]:
    """Every kept seat (newest activity first), and every folder that cannot be read, with the reason."""
    root = games_dir(config)
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []
    seats: list[SavedSeat] = []
    broken: list[BrokenSeat] = []
    for folder in folders:
        try:
            seats.append(load(folder))
        except Unreadable as exc:
            broken.append(BrokenSeat(folder, exc.why, exc.detail))
    seats.sort(key=lambda s: s.last_activity or s.started, reverse=True)
    return [*seats, *broken]


def in_progress(config: Path | None = None) -> list[SavedSeat | BrokenSeat]:
    """What the lobby's "Games in progress" lists: unfinished seats not given up, and unreadable folders."""
    return [s for s in load_all(config) if isinstance(s, BrokenSeat) or s.in_progress]


# -- the crash marker -------------------------------------------------------------------------
def mark_playing(seat: SavedSeat, config: Path | None = None) -> None:
    """The program is at ``seat``'s table now (a crash leaves this behind)."""
    root = games_dir(config)
    _private_dir(root)
    _write_private(root / PLAYING_FILE, json.dumps({"seat": seat.key, "since": time.time()}).encode("utf-8"))


def clear_playing(config: Path | None = None) -> None:
    """The program left the table properly (lobby, end of the game, a clean close)."""
    with contextlib.suppress(OSError):
        (games_dir(config) / PLAYING_FILE).unlink()


def crashed_in(config: Path | None = None) -> SavedSeat | None:
    """The unfinished seat the program was at when it last stopped without closing properly, if any."""
    root = games_dir(config)
    try:
        marker = json.loads((root / PLAYING_FILE).read_text(encoding="utf-8"))
        name = str(marker["seat"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    try:
        seat = load(root / name)
    except ValueError:
        return None
    return seat if seat.in_progress else None
