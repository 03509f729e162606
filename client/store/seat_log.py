"""A seat's own copy of the signed log: an append-only file beside its keys, on the disk before the wire.

A relay may lose what it was given (restarted without storage, a LAN relay that died with its
host, a relay that lies), and a machine may crash between signing an entry and hearing it back.
A seat that then asked its player again would sign a second, different entry at a position it
already signed: proof of equivocation against an honest seat.  So every entry a seat signs is
appended to this file and synced to the disk *before* it is published, and every entry it takes
from the others is appended too (flushed, synced with the next entry of its own), so that one
seat can bring back the whole game on a relay that holds nothing.  On resume the seat reads this
file first (:mod:`relay.transport.room` feeds it to the session before it reads the relay) and
puts back what the relay lacks; it is never asked again for a position it signed.

The file (``seat.log`` in the kept seat's folder, mode 0600) is a header line and then records,
each ``length (4 bytes, big-endian) | BLAKE2b-128 of the body | body``, the body a msgpack pair
``[topic, entry]`` (the topic relative to the room: ``log/{seq}`` or this seat's ``notice/...``).
A record cut short at the end of the file, or whose checksum fails there, is a write that a power
cut interrupted: it is dropped and the file cut back to the last whole record.  Anything else that
does not read, or an entry that is not validly signed for this room (:func:`check`), is damage: the
file is refused with :class:`SeatLogDamaged`, and nothing in it is touched.

The seats one folder keeps (the player's and the bots this machine plays in that room) share one
file: they hold the same log, and :meth:`SeatLog.keep` writes each entry once.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from collections.abc import Sequence
from pathlib import Path

import msgpack

from client.store.private import FILE_MODE
from protocol.envelope import parse
from protocol.errors import ProtocolError
from protocol.table import Table

LOG_FILE = "seat.log"
MAGIC = b"sealed-table seat log 1\n"
_LENGTH = 4
_CHECK = 16
_HEAD = _LENGTH + _CHECK
#: A record's body at most (an entry is at most 64 KiB; its topic and framing add little).
MAX_RECORD = 1 << 20

log = logging.getLogger("client.store.seat_log")


class SeatLogDamaged(Exception):
    """The seat's own log cannot be trusted: ``str()`` says where and why; nothing in it was changed."""


def _checksum(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=_CHECK, person=b"seat log").digest()


def _frame(topic: str, data: bytes) -> bytes:
    body = msgpack.packb([topic, data], use_bin_type=True)
    return len(body).to_bytes(_LENGTH, "big") + _checksum(body) + body


def _body(raw: bytes) -> tuple[str, bytes] | None:
    """The record's (topic, entry) from its body, or None if it is not one."""
    try:
        pair = msgpack.unpackb(raw, raw=False)
    except Exception:
        return None
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], bytes)):
        return None
    return pair[0], pair[1]


def read_records(path: Path) -> tuple[list[tuple[str, bytes]], int]:
    """The records of the file at ``path`` and where the last whole one ends.

    A missing file holds none.  A record cut short, or failing its checksum, as the very last
    thing in the file is a torn write: the records before it are returned, with the offset to
    cut the file back to.  Raises :class:`SeatLogDamaged` for anything else, OSError if unreadable.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return [], 0
    if not raw:
        return [], 0
    if not raw.startswith(MAGIC):
        if MAGIC.startswith(raw):  # the header itself was torn: nothing was ever kept
            return [], 0
        raise SeatLogDamaged(f"{path} is not a seat log (its first bytes are not {MAGIC!r})")
    records: list[tuple[str, bytes]] = []
    at = len(MAGIC)
    while at < len(raw):
        found = _record_at(raw, at, f"{path}: record {len(records) + 1} at byte {at}")
        if found is None:
            break  # a torn last write
        record, at = found
        records.append(record)
    return records, at


def _record_at(raw: bytes, at: int, where: str) -> tuple[tuple[str, bytes], int] | None:
    """The record at ``at`` and where it ends; None if it is a torn last write; SeatLogDamaged if damaged."""
    if len(raw) - at < _HEAD:
        return None  # its head is cut short
    length = int.from_bytes(raw[at : at + _LENGTH], "big")
    end = at + _HEAD + length
    if length > MAX_RECORD:
        raise SeatLogDamaged(f"{where} claims {length} bytes")
    if end > len(raw):
        return None  # its body is cut short
    body = raw[at + _HEAD : end]
    if _checksum(body) != raw[at + _LENGTH : at + _HEAD]:
        if end == len(raw):
            return None  # the last record did not reach the disk whole
        raise SeatLogDamaged(f"{where} is damaged (checksum)")
    record = _body(body)
    if record is None:
        raise SeatLogDamaged(f"{where} is not a topic and an entry")
    return record, end


def check(records: Sequence[tuple[str, bytes]], room: str, creator: bytes, path: Path) -> None:
    """Raise :class:`SeatLogDamaged` unless every record is an entry of this room's game, validly signed.

    The genesis (``log/0``) is signed by ``creator`` (the key the seat pinned); every other record
    is signed by the seat of the genesis it names, for the same room and game.  The seats of one
    folder write in the order they play, so the genesis need not come first.  Whether an entry is
    *legal* is the session's to judge, as for any entry from the relay.
    """
    if not records:
        return
    first = next((data for topic, data in records if topic == "log/0"), None)
    if first is None:
        raise SeatLogDamaged(f"{path}: it holds no genesis")
    table = _genesis(first, room, creator, path)
    keys = [bytes(info.sign) for info in table.seats]
    for number, (topic, data) in enumerate(records, start=1):
        if data == first:
            continue
        try:
            env = parse(data)
        except ProtocolError as exc:
            raise SeatLogDamaged(f"{path}: record {number} ({topic}) is not an entry ({exc})") from None
        if env.room != room or env.game != table.game_id or not 0 <= env.seat < len(keys):
            raise SeatLogDamaged(f"{path}: record {number} ({topic}) is not an entry of this game")
        if not env.signed_by(keys[env.seat]):
            raise SeatLogDamaged(f"{path}: record {number} ({topic}) is not signed by seat {env.seat}'s key")


def _genesis(data: bytes, room: str, creator: bytes, path: Path) -> Table:
    """The table the kept genesis opens (its seats' keys), or SeatLogDamaged."""
    try:
        genesis = parse(data)
    except ProtocolError as exc:
        raise SeatLogDamaged(f"{path}: its genesis is not an entry ({exc})") from None
    if genesis.type != "genesis" or genesis.room != room or (creator and not genesis.signed_by(creator)):
        raise SeatLogDamaged(f"{path}: its genesis is not room {room}'s, signed by its host")
    try:
        return Table(genesis)
    except ProtocolError as exc:
        raise SeatLogDamaged(f"{path}: its genesis does not verify ({exc})") from None


class SeatLog:
    """The open seat log of one kept seat's folder (see the module): what it holds, and appending to it."""

    def __init__(self, path: Path, records: list[tuple[str, bytes]]) -> None:
        self.path = path
        #: Every record, in the order written (the ones read at opening first).
        self.records = records
        self._known = {data for _, data in records}
        self._fd: int | None = None
        #: Where the last whole record ends, while a torn write after it is still to be cut off.
        self._cut: int | None = None
        #: Bytes of a torn last write dropped when the file was opened (0: none).
        self.torn = 0

    @classmethod
    def open(cls, folder: Path) -> SeatLog:
        """The seat log of ``folder`` (the one already open in this program, if any).

        Raises :class:`SeatLogDamaged` (nothing changed) or OSError.
        """
        path = (folder / LOG_FILE).resolve()
        kept = _OPEN.get(path)
        if kept is not None:
            return kept
        records, end = read_records(path)
        seat_log = cls(path, records)
        size = path.stat().st_size if path.exists() else 0
        if end < size:
            seat_log.torn, seat_log._cut = size - end, end
            log.warning("%s: dropped a torn last write of %d bytes", path, seat_log.torn)
        _OPEN[path] = seat_log
        return seat_log

    def keep(self, topic: str, data: bytes, *, sync: bool) -> None:
        """Append ``data`` (once: an entry already kept is not written again); on the disk if ``sync``.

        Raises OSError: the caller must then not publish what it could not keep.
        """
        if data in self._known:
            if sync and self._fd is not None:
                os.fsync(self._fd)
            return
        fd = self._open_for_append()
        frame = _frame(topic, data)
        written = os.write(fd, frame)
        while written < len(frame):
            written += os.write(fd, frame[written:])
        if sync:
            os.fsync(fd)
        self._known.add(data)
        self.records.append((topic, data))

    def close(self) -> None:
        """Sync and close the file: it opens again on the next :meth:`keep`, and the next :meth:`open` reads it."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.fsync(fd)
            os.close(fd)
        _OPEN.pop(self.path, None)

    def _open_for_append(self) -> int:
        """The file open for appending: every write goes to its end, whole, whoever else appends to it."""
        if self._fd is not None:
            return self._fd
        flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        fd = os.open(self.path, flags, FILE_MODE)
        try:
            if os.fstat(fd).st_size < len(MAGIC):  # new, or its header torn: nothing was kept yet
                os.ftruncate(fd, 0)
                os.write(fd, MAGIC)
                self._cut = None
            if self._cut is not None:
                os.ftruncate(fd, self._cut)  # a torn last write: cut back to the last whole record
                self._cut = None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return fd


#: The seat logs open in this program, by path: a folder's seats share one.
_OPEN: dict[Path, SeatLog] = {}
