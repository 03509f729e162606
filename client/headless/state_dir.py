"""The headless peer's ``--state-dir``: its seat kept as the desktop program keeps one (:mod:`client.store.kept_seats`).

So there is one format for a kept seat, whichever program took it: ``seat.key`` and ``seat.json``
in the folder, written before the first request goes out (the seat is :data:`NOT_SEATED` until
the room starts) and again whenever a fact a resume needs changes (the seat, the genesis, the
relay the game moved to, the end).  A folder that holds neither file is a new seat: new keys, a
new per-game secret and a new peer id.  A folder whose files cannot be read is never written
over, and one that cannot be written stops the peer before it sends anything that needs it:
:class:`StateDirError` says why.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgpack

from client.net.seat_card import new_peer_id
from client.store import kept_seats
from client.store.kept_seats import INFO_FILE, KEY_FILE, NOT_SEATED, SavedSeat, Unreadable
from client.store.seat_log import SeatLog, SeatLogDamaged, check
from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession


class StateDirError(Exception):
    """The seat of a ``--state-dir`` cannot be read, or cannot be kept there (the message says which and why)."""


class StateDir:
    """The seat kept in one ``--state-dir``: read at start (or made afresh), written by :meth:`keep`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        #: The seat's facts and keys; change them, then :meth:`keep`.
        try:
            self.kept = _read_or_new(folder)
        except Unreadable as exc:
            raise StateDirError(f"{folder}: {_why(exc)}; nothing in it was changed") from None
        self.signing_key = SigningKey.from_private_bytes(self.kept.sign)
        self._keys_written = self.kept.folder is not None

    @property
    def peer(self) -> str:
        return self.kept.peer

    @property
    def secret(self) -> bytes:
        return self.kept.secret

    @property
    def seated(self) -> bool:
        """The room started with this seat in it: a restart resumes the seat from the relay's log."""
        return self.kept.seated

    def keep(self) -> None:
        """Write the seat's files (the keys only the first time: they never change); StateDirError if refused."""
        try:
            if self._keys_written:
                kept_seats.write_public(self.kept)
                return
            self.kept.folder = self.folder
            kept_seats.save(self.kept)
        except OSError as exc:
            raise StateDirError(f"cannot keep the seat in {self.folder}: {exc.strerror or exc}") from None
        self._keys_written = True

    def journal(self) -> SeatLog:
        """The seat's own log in the folder (:mod:`client.store.seat_log`), every entry in it checked.

        StateDirError if it does not verify (nothing in it is changed) or cannot be opened.
        """
        try:
            seat_log = SeatLog.open(self.folder)
            check(seat_log.records, self.kept.room, self.kept.creator, seat_log.path)
        except SeatLogDamaged as exc:
            raise StateDirError(f"{exc}; nothing in it was changed") from None
        except OSError as exc:
            raise StateDirError(f"cannot open the seat's log in {self.folder}: {exc.strerror or exc}") from None
        return seat_log

    def card(self, name: str) -> bytes:
        """The seat card this seat hands to a room's host."""
        info = PeerSession.seat_card(name, self.signing_key, self.secret)
        return msgpack.packb(info.as_body(), use_bin_type=True)


def _read_or_new(folder: Path) -> SavedSeat:
    """The seat kept in ``folder``, or a new one when it holds none (:class:`~kept_seats.Unreadable` otherwise)."""
    if (folder / KEY_FILE).exists() or (folder / INFO_FILE).exists():
        return kept_seats.load(folder)
    return SavedSeat(
        room="",
        seat=NOT_SEATED,
        game="",
        relay="",
        peer=new_peer_id(),
        creator=b"",
        sign=SigningKey.generate().private_bytes(),
        secret=os.urandom(32),
    )


def _why(exc: Unreadable) -> str:
    """Why a kept seat cannot be taken again, in words."""
    if exc.why == "version":
        return "it was kept by another version of the program (resume it with that one, or give a new --state-dir)"
    detail = f": {exc.detail}" if exc.detail else ""
    return f"the seat kept there cannot be read ({exc.why}{detail})"
