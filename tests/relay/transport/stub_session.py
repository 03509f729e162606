"""A tiny real session for transport tests: seats take turns writing numbered entries to one log.

It has the shape of ``protocol.session.PeerSession`` that the transport relies on
(``relay.transport.room.SessionLike``) without any cryptography, so a transport test fails only
because of the transport: it signs no requests and its table has no seat keys, so it never asks
the other seats for an entry, nor answers them.
Entry bytes: ``b"E|{seq}|{seat}|{room}"``.  Anything else is rejected with a reason.
Its ``creator`` is a fixed stand-in host key (:data:`STUB_HOST_KEY`): the transport seals the room
on the relay with it (:mod:`relay.seal`), so a test's insider client takes the same key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The host key every stub room pins (any 32 bytes: the stub signs nothing, the seal only hashes it).
STUB_HOST_KEY = bytes(range(32))


@dataclass(frozen=True)
class Outbound:
    seq: int
    data: bytes
    topic: str


@dataclass(frozen=True)
class Rejected:
    reason: str


@dataclass(frozen=True)
class YourTurn:
    seq: int


@dataclass(frozen=True)
class Entry:
    data: bytes


@dataclass
class StubTable:
    log: list[Entry] = field(default_factory=list)
    n: int = 2  # seats (the transport subscribes each seat's notice and presence topics)
    seats: tuple[()] = ()
    game_id: bytes = b""
    relays: tuple[str, ...] = ()

    @property
    def head(self) -> int:
        return len(self.log) - 1

    def active(self) -> list[int]:
        return list(range(self.n))


class StubSession:
    """Seat ``seat`` of ``seats`` writes every entry ``seq`` with ``seq % seats == seat``, up to ``length``."""

    def __init__(
        self, room: str, seat: int | None, seats: int = 2, length: int = 30, creator: bytes = STUB_HOST_KEY
    ) -> None:
        self.room = room
        #: The pinned host key, which seals the room on the relay.
        self.creator = creator
        self.seat = seat
        self.seats = seats
        self.length = length
        self.table = StubTable(n=seats)
        self._buffer: dict[int, bytes] = {}
        self._out: list[Outbound] = []
        self._announced: set[int] = set()
        self.rejected: list[Rejected] = []

    @property
    def finished(self) -> bool:
        return len(self.table.log) >= self.length

    @property
    def done(self) -> bool:
        return self.finished

    def entry(self, seq: int, seat: int) -> bytes:
        return f"E|{seq}|{seat}|{self.room}".encode()

    def receive(self, data: bytes, now_ms: int) -> list[object]:
        try:
            tag, seq_t, seat_t, room = data.decode().split("|")
            seq, seat = int(seq_t), int(seat_t)
        except (UnicodeDecodeError, ValueError):
            r = Rejected(f"malformed entry {data[:16]!r}")
            self.rejected.append(r)
            return [r]
        if tag != "E" or room != self.room or seat != seq % self.seats or seq >= self.length:
            r = Rejected(f"entry {seq} is not valid here")
            self.rejected.append(r)
            return [r]
        if seq <= self.table.head:
            return []  # duplicate (the stub has no equivocation: entries are a function of seq)
        self._buffer[seq] = data
        while self.table.head + 1 in self._buffer:
            self.table.log.append(Entry(self._buffer.pop(self.table.head + 1)))
        return self._pump()

    def submit(self, seq: int) -> list[object]:
        assert seq == self.table.head + 1 and seq % self.seats == self.seat
        data = self.entry(seq, seq % self.seats)
        self._out.append(Outbound(seq, data, f"log/{seq}"))
        self.table.log.append(Entry(data))
        return self._pump()

    def _pump(self) -> list[object]:
        nxt = self.table.head + 1
        if self.seat is not None and not self.finished and nxt % self.seats == self.seat and nxt not in self._announced:
            self._announced.add(nxt)
            return [YourTurn(nxt)]
        return []

    def tick(self, now_ms: int) -> list[object]:
        return self._pump()

    def take_outgoing(self) -> list[Outbound]:
        out, self._out = self._out, []
        return out

    def take_notices(self) -> list[Outbound]:
        return []

    #: The stub applies its own entries at once, whatever ``publish_first`` says, and has no cards.
    publish_first = False
    unsettled = False

    def settle(self) -> list[object]:
        return self._pump()

    def open_step(self) -> bool:
        return False

    def connection_lost(self, now_ms: int) -> list[object]:
        return []

    def connected(self, now_ms: int, grace_ms: int = 0) -> list[object]:
        return []

    def sign_request(self, raw: bytes) -> bytes | None:
        return None
