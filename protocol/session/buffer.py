"""The receive buffer: what came in and is not applied yet, its bounds, and the checks of wire bytes.

Anyone may publish anything on a room's topics, so what a session keeps before applying it is
bounded, and what the wire bytes alone decide is decided before anything is decoded.  The buffer
owns the entries kept for later (those before the genesis, those ahead of the head, those refused
for their signature while ahead, the branches of a voided claim) and the screening that decides
which seat may have written an entry; the session decides when an entry is applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from protocol.envelope import Envelope, Header, parse, peek
from protocol.errors import Code, Misconduct, ProtocolError
from protocol.schema import NOTICE_TYPES
from protocol.table import Table

#: How far ahead of the head an entry may be and still be kept for later.
MAX_AHEAD = 4096
#: Entries kept while the genesis is not known yet, by count and by their total size: they are
#: unauthenticated (no key is known to check them with), so anyone may send them.  An honest
#: peer that joins late reads a whole retained log, the genesis maybe among the last; the
#: longest honest logs seen are well under a tenth of this.  Beyond it, entries are refused
#: (``NO_GENESIS``) and read again from the relay once the genesis is in.
MAX_EARLY = 4096
MAX_EARLY_BYTES = 8 * 1024 * 1024
#: Entries one seat may have waiting for one seq on different chains (none is an equivocation
#: until two share a ``prev``): enough for a fork in flight, too few to fill memory.
MAX_FORKS = 4
#: Entries ahead of the head refused for their signature, kept (the first per seq) to see once the table
#: gets there whether a seat signed them in another seat's name.
MAX_SUSPECTS = 64


class Forgery(NamedTuple):
    """A seat that signed an entry in another seat's name: the seat, why, and the entry (the evidence)."""

    seat: int
    reason: str
    data: bytes


def forged(seq: int, seat: int) -> str:
    """The reason a forger is named for, the same wherever it is caught."""
    return f"forged signature: signed entry {seq} in the name of seat {seat}"


class ReceiveBuffer:
    """The entries and notices' entries not applied yet, with their bounds, and the screening of wire bytes.

    It owns: the entries that came before the genesis (``MAX_EARLY``, ``MAX_EARLY_BYTES``), the
    entries ahead of the head by seq (``MAX_AHEAD``; per seat and seq at most ``MAX_FORKS`` on
    other chains), the first entry ahead per seq refused for its signature (``MAX_SUSPECTS``),
    when each seq's candidates were first seen not chaining to the head, which seqs were searched
    for a forger already, and the dead branch of a voided claim.  Why one owner: every one of
    these is memory a stranger can try to fill, and each bound is checked where it is filled.
    """

    def __init__(self) -> None:
        self._early: dict[bytes, Envelope] = {}
        self._early_bytes = 0
        self._ahead: dict[int, dict[bytes, Envelope]] = {}
        #: seq -> the first entry ahead refused for its signature (judged when the table gets there).
        self._suspects: dict[int, bytes] = {}
        #: seqs whose fakes were tried against every seat's key once.
        self._forgery_checked: set[int] = set()
        #: seq -> when a candidate that does not chain to the head was first seen there.
        self._held: dict[int, int] = {}
        #: Digests of entries on a dead branch: a two-seat claim voided by its target's own entry, and
        #: what was chained to it.  Entries chained to one of them are dropped, never judged.
        self._dead: set[bytes] = set()

    # -- before the genesis ------------------------------------------------------------------
    def keep_early(self, env: Envelope) -> None:
        """Keep an entry that came before the genesis; ``NO_GENESIS`` once the bounds are reached."""
        if env.data in self._early:
            return
        if len(self._early) >= MAX_EARLY or self._early_bytes + len(env.data) > MAX_EARLY_BYTES:
            raise ProtocolError(Code.NO_GENESIS, "too many entries before the genesis")
        self._early[env.data] = env
        self._early_bytes += len(env.data)

    def take_early(self) -> list[Envelope]:
        """The entries kept before the genesis, by seq, and none kept any more."""
        early, self._early, self._early_bytes = self._early, {}, 0
        return sorted(early.values(), key=lambda e: e.seq)

    # -- screening ---------------------------------------------------------------------------
    def screen(self, table: Table | None, creator: bytes | None, head: Header, data: bytes) -> bool | int | None:
        """What the wire bytes alone decide, before any decoding: None for an exact copy of an applied
        entry, True once the one seat that may have written it (the seat it names) signed it, False while
        no key is known (before the genesis), a seat's number if that seat forged it; raises otherwise."""
        if table is None:
            if head.type == "genesis" and creator is not None and not head.signed_by(creator):
                raise ProtocolError(Code.GENESIS, "the genesis is not signed by the expected creator")
            return False
        return self._screen_entry(table, head, data)

    def _screen_entry(self, table: Table, head: Header, data: bytes) -> bool | int | None:
        if head.type == "genesis":
            if data != table.log[0].data:
                raise ProtocolError(Code.WRONG_GAME, "the genesis of another game in this room")
            return None
        if head.game != table.game_id:
            raise ProtocolError(Code.WRONG_GAME, f"entry {head.seq} was signed for another game in this room")
        if head.seat >= table.n:
            raise ProtocolError(Code.UNKNOWN_SEAT, f"seat {head.seat} is not at this table")
        if not head.is_notice and head.seq <= table.head and table.log[head.seq].data == data:
            return None
        if head.signed_by(table.seats[head.seat].sign):
            return True
        forger = self.forger(table, head)
        if forger is not None:
            return forger
        self._suspect(table, head.seq, data)
        raise ProtocolError(Code.BAD_SIGNATURE, f"entry {head.seq} is not signed by seat {head.seat}")

    def _suspect(self, table: Table, seq: int, data: bytes) -> None:
        if seq > table.head + 1 and seq not in self._suspects and len(self._suspects) < MAX_SUSPECTS:
            self._suspects[seq] = data  # judged once the table gets there (see judge_suspect)

    def forger(self, table: Table, item: Header | Envelope) -> int | None:
        """The seat that signed ``item`` in another seat's name, looked for only where it would matter.

        An entry signed by another seat than the one it names is refused by the one check of the seat
        it names; a seat that did that is named only when the entry sits where an entry of this game
        does (chained to our head, or where an applied entry is; one that came early is kept and looked
        at when the table gets there) and only once per seq.  So a stranger's flood of well-formed fakes
        costs one signature check each, and at most ``seats - 1`` more per entry of the whole game.
        """
        if item.type in NOTICE_TYPES or not 0 < item.seq <= table.head + 1:
            return None
        if item.prev != (table.head_digest if item.seq == table.head + 1 else table.log[item.seq].prev):
            return None  # not chained where an entry of this game at that seq is
        if item.seq in self._forgery_checked:
            return None
        self._forgery_checked.add(item.seq)
        return next(
            (seat for seat, info in enumerate(table.seats) if seat != item.seat and item.signed_by(info.sign)), None
        )

    def authenticate(self, table: Table, env: Envelope, verified: bool = False) -> None:
        """Game, seat, and (unless :meth:`screen` did it already) the signature of the seat it names."""
        if env.game != table.game_id:
            raise ProtocolError(Code.WRONG_GAME, f"entry {env.seq} was signed for another game in this room")
        if env.seat >= table.n:
            raise ProtocolError(Code.UNKNOWN_SEAT, f"seat {env.seat} is not at this table")
        if verified or env.signed_by(table.seats[env.seat].sign):
            return
        forger = self.forger(table, env)
        if forger is not None:
            raise Misconduct(forger, forged(env.seq, env.seat), seq=env.seq)
        raise ProtocolError(Code.BAD_SIGNATURE, f"entry {env.seq} is not signed by seat {env.seat}")

    def judge_suspect(self, table: Table, seq: int) -> Forgery | None:
        """An entry refused for its signature while it was ahead of us, now that it is the next one:
        the seat that signed it in another seat's name, if one did (the suspect is forgotten either way)."""
        data = self._suspects.pop(seq, None)
        if data is None:
            return None
        head = peek(data)
        forger = self.forger(table, head) if head is not None else None
        if forger is None or head is None:
            return None
        try:
            parse(data)
        except ProtocolError:
            return None  # signed, but no entry: refused at its arrival already
        return Forgery(forger, forged(seq, head.seat), data)

    def forget_suspects(self, head: int) -> None:
        """Suspects for seqs the table has passed: the entry there was settled otherwise."""
        for old in [s for s in self._suspects if s <= head]:
            del self._suspects[old]

    # -- entries ahead -------------------------------------------------------------------------
    def on_dead_branch(self, env: Envelope) -> bool:
        """Whether ``env`` is built on a voided claim (it joins that dead branch)."""
        if env.prev not in self._dead:
            return False
        self._dead.add(env.digest)
        return True

    def keep(self, head: int, env: Envelope) -> Envelope | None:
        """Keep an entry ahead of the head ``head``; the entry it equivocates with, if its seat signed one.

        Two entries of one seat for one seq are an equivocation only on the same chain (the
        same ``prev``); on other chains the chain decides which one is applied.
        """
        if env.seq > head + MAX_AHEAD:
            raise ProtocolError(Code.SEQUENCE, f"entry {env.seq} is too far ahead of {head}")
        bucket = self._ahead.setdefault(env.seq, {})
        if env.data in bucket:
            return None
        mine = 0
        for other in bucket.values():
            if other.seat == env.seat:
                if other.prev == env.prev:
                    return other
                mine += 1
        if mine >= MAX_FORKS:
            raise ProtocolError(Code.SEQUENCE, f"seat {env.seat} sent too many entries {env.seq} on other chains")
        bucket[env.data] = env  # another seat's, or chained to another entry: the chain decides
        return None

    def has(self, seq: int) -> bool:
        """Whether an entry for ``seq`` waits."""
        return bool(self._ahead.get(seq))

    def has_beyond(self, seq: int) -> bool:
        """Whether an entry for a seq after ``seq`` waits (the chain went on past it somewhere)."""
        return any(later > seq for later in self._ahead)

    def waiting(self, seq: int) -> list[Envelope]:
        """The entries waiting for ``seq``, in the order they came."""
        return list(self._ahead.get(seq, {}).values())

    def candidates(self, seq: int, head_digest: bytes, writer: int) -> list[Envelope]:
        """The entries waiting for ``seq``, best first: chained to the head, not a ``gone``, by its writer."""
        return sorted(
            self._ahead.get(seq, {}).values(),
            key=lambda e: (e.prev != head_digest, e.type == "gone", e.seat != writer, e.data),
        )

    def chain_wait(self, seq: int, now: int, timeout_ms: int) -> bool:
        """Whether a candidate for ``seq`` that does not chain to the head still gets time.

        It may chain to another version of the previous entry (an equivocation still in
        flight): it is held for one timeout before it is called a broken chain.
        """
        held = self._held.setdefault(seq, now)
        return now - held < timeout_ms

    def remove(self, env: Envelope) -> None:
        """Drop one waiting entry (a claim refused before it is judged)."""
        bucket = self._ahead.get(env.seq, {})
        bucket.pop(env.data, None)
        if not bucket:
            self._ahead.pop(env.seq, None)

    def pop(self, seq: int) -> None:
        """Forget every entry waiting for ``seq`` (one of them is applied, the others judged)."""
        self._ahead.pop(seq, None)

    def chained(self, seq: int, tips: set[bytes], seats: set[int]) -> bool:
        """Whether one of ``seats`` wrote a waiting entry for ``seq`` chained to one of ``tips``."""
        return any(e.prev in tips and e.seat in seats for e in self._ahead.get(seq, {}).values())

    def successors(self, seq: int, tips: set[bytes]) -> set[bytes]:
        """The digests of the waiting entries for ``seq`` chained to one of ``tips``."""
        return {e.digest for e in self._ahead.get(seq, {}).values() if e.prev in tips}

    # -- dead branches and rewinding -----------------------------------------------------------
    def cut_branch(self, digest: bytes) -> None:
        """The entry ``digest`` is void: it and every waiting entry chained to it are dropped."""
        self._dead.add(digest)
        for seq in sorted(self._ahead):
            bucket = self._ahead[seq]
            for data, e in list(bucket.items()):
                if e.prev in self._dead:
                    self._dead.add(e.digest)
                    del bucket[data]
            if not bucket:
                del self._ahead[seq]

    def mark_dead(self, digests: Iterable[bytes]) -> None:
        """Entries applied on a branch that is now void: whatever is chained to them is dropped."""
        self._dead.update(digests)

    def restart_at(self, seq: int, env: Envelope) -> None:
        """The replica goes back to before ``seq``: ``env`` waits there, with what waits after it."""
        self._ahead = {s: b for s, b in self._ahead.items() if s > seq}
        self._ahead[seq] = {env.data: env}
