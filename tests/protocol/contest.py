"""Two seats moved by hand, with a live observer and the relay's retained copies: the stage of claims.

The relay keeps one message per topic (the last one published wins, whoever published it), so a
seat that publishes its own entry on ``log/{seq}`` overwrites the other seat's claim there.  A seat
whose program is closed (``stopped``) publishes and hears nothing; a seat that is ``held`` hears
everything and decides nothing (its automatic entries still go out).
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core import RandomBot
from protocol.envelope import parse
from protocol.session import PeerSession
from tests.protocol.helpers import lockstep, seat_keys

#: Past every timeout a genesis may fix (the sessions here use the default, two minutes).
LATER = 10 * 60_000


class Room:
    """Seats 0 and 1 of a toy game, a live observer, and the relay's retained copy of every topic."""

    def __init__(self, seed: bytes, rounds: int = 8) -> None:
        self.seed = seed
        self.peers = lockstep("toy", 2, seed, {"rounds": rounds})
        self.room = self.peers[0].room
        self.creator = self.peers[0].signing_key.public_bytes()
        self.watcher = PeerSession.observe(self.room, creator=self.creator)
        self.relay: dict[str, bytes] = {}
        self.stopped: set[int] = set()
        self.held: set[int] = set()
        self.bots = [RandomBot(s, seed) for s in range(2)]
        self.now = 0
        self.events: list[list[object]] = [[], []]

    # -- moving --------------------------------------------------------------------------------
    def flush(self, seat: int) -> bool:
        """Publish what ``seat`` wrote: retained on the relay, heard by everyone who is here."""
        peer = self.peers[seat]
        outs = peer.take_outgoing() + peer.take_notices()
        for out in outs:
            self.relay[out.topic] = out.data
            for other, listener in self.listeners(seat):
                events = listener.receive(out.data, self.now)
                if other is not None:
                    self.events[other] += events
        return bool(outs)

    def listeners(self, seat: int) -> list[tuple[int | None, PeerSession]]:
        seats: list[tuple[int | None, PeerSession]] = [
            (s, p) for s, p in enumerate(self.peers) if s != seat and s not in self.stopped
        ]
        return [*seats, (None, self.watcher)]

    def run(self, until: Callable[[], bool] = lambda: False) -> None:
        """Deliver; when nothing is in flight, ``until()`` ends it, else a seat that is here decides."""
        for _ in range(10_000):
            if any([self.flush(s) for s in range(2) if s not in self.stopped]):
                continue
            if until() or not self._decide():
                return

    def _decide(self) -> bool:
        for seat, peer in enumerate(self.peers):
            if seat in self.stopped or seat in self.held or peer.finished or peer.table is None:
                continue
            exp = peer.table.expected()
            if exp is not None and exp.writer == seat and exp.type == "action" and peer.legal_actions():
                self.events[seat] += peer.submit(
                    self.bots[seat].choose(peer.state, peer.knowledge, peer.legal_actions())
                )
                return True
        return False

    def wait_out(self, seat: int) -> None:
        """A timeout passes on ``seat``'s clock (it votes the silent seat gone, and claims)."""
        self.now += LATER
        self.events[seat] += self.peers[seat].tick(self.now)
        self.flush(seat)

    # -- reading -------------------------------------------------------------------------------
    def owes_action(self, seat: int | None = None, after: int = 10) -> bool:
        """Both seats at one head past ``after``, and the next entry a decision (of ``seat``, if given)."""
        heads = {p.table.head for p in self.peers}
        exp = self.peers[0].table.expected()
        return (
            len(heads) == 1
            and heads.pop() >= after
            and exp is not None
            and exp.type == "action"
            and (seat is None or exp.writer == seat)
        )

    def owes(self, reader: int, writer: int) -> bool:
        """Whether ``reader``'s replica waits for an entry of ``writer``."""
        exp = self.peers[reader].table.expected()
        return exp is not None and exp.writer == writer

    def record(self) -> list[bytes]:
        """What a reader gets from the relay: the log by seq, then the notices (as a read-back hands it over)."""
        logs = sorted((int(t.split("/")[1]), d) for t, d in self.relay.items() if t.startswith("log/"))
        return [d for _, d in logs] + [d for t, d in sorted(self.relay.items()) if t.startswith("notice/")]

    def fresh(self, seat: int | None = None) -> PeerSession:
        """A session that reads the relay's record afresh: an observer, or ``seat``'s restarted program."""
        if seat is None:
            session = PeerSession.observe(self.room, creator=self.creator)
        else:
            keys, secrets = seat_keys(self.seed, 2)
            session = PeerSession.join(self.room, seat, keys[seat], secrets[seat], creator=self.creator)
        for data in self.record():
            session.receive(data, self.now)
        return session


def aborted(seed: bytes = b"abort") -> tuple[Room, int, int, int, int]:
    """The attack: A goes silent owing entry n, B claims it and its program closes, A publishes entry n
    and, B being silent now, claims B gone at B's next slot m.  (room, A, B, n, m)."""
    room = Room(seed)
    room.run(until=room.owes_action)
    exp = room.peers[0].table.expected()
    assert exp is not None
    a, n = exp.writer, exp.seq
    b = 1 - a
    room.held.add(a)  # A dislikes what it owes: silent
    room.wait_out(b)  # B claims A gone at n, on its own vote alone
    claimant = room.peers[b]
    assert claimant.table.claim == (b, a, n, True) and claimant.listening, claimant.table.claim
    room.stopped.add(b)  # B's program closes
    room.held.discard(a)  # A saw B go: it publishes its entry n
    room.run(until=lambda: room.owes(a, b))
    assert parse(room.relay[f"log/{n}"]).seat == a  # the relay's copy of B's claim is overwritten
    exp = room.peers[a].table.expected()
    assert exp is not None and exp.writer == b
    m = exp.seq
    room.wait_out(a)  # B is silent now: A claims B gone at m
    assert room.peers[a].table.claim == (a, b, m, True), room.peers[a].table.claim
    return room, a, b, n, m
