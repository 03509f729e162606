"""The seats of network games kept on disk, so that a closed, crashed or killed program takes them again.

A network seat is its keys and its copy of the log: every other secret of the seat (shares,
salts, card keys, the per-game agreement key) is derived from the one per-game secret, and the
game itself is the signed log, which the seat keeps in its own ``seat.log`` beside these files
(:mod:`client.store.seat_log`) as well as on the relay.  So a seat that keeps its signing key, its
per-game secret, its peer id, the room, the relay and the genesis author it pinned can be taken
again by a new process, which reads its own log, then the relay's, and carries on.

The desktop program and the headless peer keep a seat in the same two files of one folder
(mode 0700), both mode 0600 and each written whole or not at all (:mod:`client.store.private`):

- ``seat.key`` (msgpack): the signing key, the per-game secret, and the keys of the bots this
  machine plays in the same room (a host's bot seats must come back with it);
- ``seat.json``: what a list of games shows and what taking the seat again needs in the clear —
  game, room, seat, relay address (never its password: the desktop keeps that in
  ``relay-passwords.json``, see :mod:`client.store.settings`), peer id, creator key, the genesis
  once this seat has it, the answer time, the players' names, whose turn it was and when
  something last happened, the room's other relays and the one the game moved to, and whether
  the game is over (``finished``, with the audit's ``verdict``) or the player gave the seat up
  (``left``).

Both are written before the seat's first entry goes out.  The desktop's folders are
``games/<ROOM>-<peer>/`` in the data directory (:func:`client.store.paths.data_dir`; ``games/`` is
mode 0700 too); the headless peer's is its ``--state-dir``, which it writes before its first request, while the seat is
still :data:`NOT_SEATED`, so that a peer restarted while its room fills asks again with the
same keys and peer id.  ``games/playing.json`` names the seat the desktop is at while a network
game is on the screen; it is removed when the player goes back to the lobby, the game ends or
the program closes cleanly, so finding it at start means the program did not close cleanly (a
crash, a kill, a power cut).

A damaged or foreign folder never stops the program: it is listed as a :class:`BrokenSeat`
with the reason, and nothing in it is touched.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import msgpack

from client.store.paths import data_dir
from client.store.private import private_folder, write_private

GAMES_DIR = "games"
INFO_FILE = "seat.json"
KEY_FILE = "seat.key"
PLAYING_FILE = "playing.json"
#: The layout of the files below (a newer program may add fields; an unknown version is refused).
VERSION = 1
#: The seat of a kept seat whose room has not started yet (the host has not seated it).
NOT_SEATED = -1
#: Seats a room has at most (a seat number beyond is damage).
MAX_SEATS = 16


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

    #: The room's code ("" while a joiner is not seated; a host's code from the moment it opened the room).
    room: str
    #: The seat, or :data:`NOT_SEATED`.
    seat: int
    game: str
    relay: str  # str() of the address: never a password
    peer: str
    #: Seat 0's public key, the only author of a genesis this seat accepts (b"" while not seated).
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
    #: The end-of-game audit's verdict ("fair", or what it found; "" before the end).
    verdict: str = ""
    #: The port of this machine's LAN relay while the room is on it (0: a relay elsewhere).  The desktop
    #: starts it there again when it takes the seat again; a restarted headless host does not (the game
    #: went on at the relay a surviving seat started), so it writes 0 then.
    lan_port: int = 0
    #: The room's other relays (the invitation's and the host's), tried when ``relay`` is gone.
    fallbacks: list[str] = field(default_factory=list)
    #: The relay the game moved to since the seat was taken on ``relay`` ("": it did not move); taking
    #: the seat again looks there first.
    moved_to: str = ""
    folder: Path | None = None

    @property
    def key(self) -> str:
        return f"{self.room}-{self.peer}"

    @property
    def seated(self) -> bool:
        return self.seat != NOT_SEATED

    @property
    def in_progress(self) -> bool:
        return self.seated and not self.finished and not self.left

    def public(self) -> dict[str, object]:
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
            "moved_to": self.moved_to,
        }

    def secrets(self) -> dict[str, object]:
        """The fields of ``seat.key``."""
        return {
            "version": VERSION,
            "sign": self.sign,
            "secret": self.secret,
            "bots": [
                {"seat": b.seat, "kind": b.kind, "name": b.name, "peer": b.peer, "sign": b.sign, "secret": b.secret}
                for b in self.bots
            ],
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
    return (config or data_dir()) / GAMES_DIR


def save(seat: SavedSeat, config: Path | None = None) -> SavedSeat:
    """Keep ``seat`` (secrets first, then the public facts); its folder is set on it.  Raises OSError.

    A seat with no folder yet gets ``games/<ROOM>-<peer>/`` in ``config`` (the desktop's).
    """
    folder = seat.folder or private_folder(games_dir(config)) / seat.key
    private_folder(folder)
    write_private(folder / KEY_FILE, msgpack.packb(seat.secrets(), use_bin_type=True))
    seat.folder = folder
    write_public(seat)
    return seat


def write_public(seat: SavedSeat) -> None:
    """Rewrite ``seat.json`` (whose turn, names, last activity, finished...).  Raises OSError."""
    assert seat.folder is not None
    text = json.dumps(seat.public(), ensure_ascii=False, indent=1)
    write_private(seat.folder / INFO_FILE, text.encode("utf-8"))


# -- reading ------------------------------------------------------------------------------------
def _read(path: Path, decode: Callable[[bytes], object]) -> dict[str, object]:
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


def _json(data: bytes) -> object:
    return json.loads(data.decode("utf-8"))


def _msgpack(data: bytes) -> object:
    return msgpack.unpackb(data, raw=False)


def _bytes(raw: object, name: str, size: int) -> bytes:
    if not isinstance(raw, bytes) or len(raw) != size:
        raise Unreadable("damaged", name)
    return raw


def _text(raw: object, name: str, needed: bool = True) -> str:
    """A text field: there and not empty when ``needed``, else any text (none: "")."""
    if raw is None and not needed:
        return ""
    if not isinstance(raw, str) or (needed and not raw):
        raise Unreadable("damaged", name)
    return raw


def _hex(raw: object, name: str, needed: bool = False) -> bytes:
    try:
        return bytes.fromhex(_text(raw, name, needed))
    except ValueError:  # text that is no hex
        raise Unreadable("damaged", name) from None


def _whole(raw: object, name: str, default: int = 0) -> int:
    if raw is None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise Unreadable("damaged", name)
    return raw


def _time(raw: object, name: str) -> float:
    if raw is None:
        return 0.0
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise Unreadable("damaged", name)
    return float(raw)


def _texts(raw: object) -> list[str]:
    """A list of texts (anything else in it is left out; no list: none)."""
    return [item for item in raw if isinstance(item, str)] if isinstance(raw, list) else []


def _seat_number(raw: object, name: str, lowest: int) -> int:
    """A seat number from ``lowest`` up (:data:`NOT_SEATED`, or 0 for a seat that must be taken)."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not lowest <= raw < MAX_SEATS:
        raise Unreadable("damaged", name)
    return raw


def _bot(raw: object) -> SavedBot:
    if not isinstance(raw, dict):
        raise Unreadable("damaged", "a bot")
    return SavedBot(
        _seat_number(raw.get("seat"), "a bot's seat", 0),
        _text(raw.get("kind"), "a bot's kind"),
        _text(raw.get("name"), "a bot's name", needed=False),
        _text(raw.get("peer"), "a bot's peer id"),
        _bytes(raw.get("sign"), "a bot's key", 32),
        _bytes(raw.get("secret"), "a bot's secret", 32),
    )


def load(folder: Path) -> SavedSeat:
    """The seat kept in ``folder``; :class:`Unreadable` (why, and a detail) if it cannot be."""
    info = _read(folder / INFO_FILE, _json)
    raw = _read(folder / KEY_FILE, _msgpack)
    if info.get("version") != VERSION or raw.get("version") != VERSION:
        raise Unreadable("version")
    bots = raw.get("bots") or []
    if not isinstance(bots, list):
        raise Unreadable("damaged", "the bots")
    seat = _seat_number(info.get("seat"), "seat", NOT_SEATED)
    seated = seat != NOT_SEATED  # a room, a game and its creator are known once the seat is taken
    return SavedSeat(
        room=_text(info.get("room"), "the room", seated),
        seat=seat,
        game=_text(info.get("game"), "the game", seated),
        relay=_text(info.get("relay"), "the relay"),
        peer=_text(info.get("peer"), "the peer id"),
        creator=_hex(info.get("creator"), "the host's key", seated),
        sign=_bytes(raw.get("sign"), "the signing key", 32),
        secret=_bytes(raw.get("secret"), "the per-game secret", 32),
        genesis=_hex(info.get("genesis"), "the genesis"),
        bots=[_bot(b) for b in bots],
        timeout_ms=_whole(info.get("timeout_ms"), "the answer time"),
        names=_texts(info.get("names")),
        turn=_text(info.get("turn"), "whose turn", needed=False),
        turn_seat=_whole(info.get("turn_seat"), "whose turn", -1),
        started=_time(info.get("started"), "the start"),
        last_activity=_time(info.get("last_activity"), "the last activity"),
        finished=info.get("finished") is True,
        left=info.get("left") is True,
        verdict=_text(info.get("verdict"), "the verdict", needed=False),
        lan_port=_whole(info.get("lan_port"), "the LAN relay's port"),
        fallbacks=_texts(info.get("fallbacks")),
        moved_to=_text(info.get("moved_to"), "the relay the game moved to", needed=False),
        folder=folder,
    )


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
    """The program is at ``seat``'s table now (a crash leaves this behind).  Raises OSError."""
    root = private_folder(games_dir(config))
    write_private(root / PLAYING_FILE, json.dumps({"seat": seat.key, "since": time.time()}).encode("utf-8"))


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
    except Unreadable:
        return None
    return seat if seat.in_progress else None
