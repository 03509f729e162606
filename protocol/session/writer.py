"""The writer: what this seat signs, the queues it publishes from, and when its own entries are applied.

A transport publishes a seat's entry before the seat spends time applying it (publish-first),
so the writer remembers which entry of its own is queued and not applied yet, and the effect
of its own decision worked out before signing (applied without working it out again).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from protocol.crypto.framing import frame
from protocol.crypto.signing import SigningKey
from protocol.envelope import Envelope
from protocol.envelope import seal as seal_envelope
from protocol.events import Outbound
from protocol.table import OwnAction, Table

#: The tag of what a seat signs for the relay layer besides entries (``relay.transport.wants``).  Signed as
#: ``frame(REQUEST_TAG, body)``: a framed message starts with its length, an entry's signed bytes
#: with the entry tag, so no request can ever be taken for an entry or the other way round.
REQUEST_TAG = b"sealed-table relay request v1\x00"


class Writer:
    """This seat's signing key and what it queued to publish: one owner for everything signed here.

    It owns the key, the queued log entries and notices, the prompts already given for this seat's
    decisions, whether entries are published before they are applied, the one entry of this seat
    queued and not applied yet, and the prepared effect of this seat's own action.
    """

    def __init__(self, room: str, seat: int | None, key: SigningKey | None) -> None:
        self.room = room
        self.seat = seat
        self.key = key
        #: Whether every entry this seat writes by itself (keys, passes, reveals...) is only queued,
        #: like ``submit(settle=False)``, and applied at ``settle``.  A transport sets it: the
        #: other peers get an entry before its author spends time applying it and moving on.
        self.publish_first = False
        self._out: list[Outbound] = []
        self._notices: list[Outbound] = []
        self._announced: set[int] = set()
        self._unsettled: int | None = None  # seq of an entry of mine queued and not applied yet
        self._publish_only: bool | None = None  # submit's choice for its own write (None: publish_first)
        self._own: OwnAction | None = None  # my action's effect, worked out before I signed it

    # -- signing -----------------------------------------------------------------------------
    def sign(self, table: Table, seq: int, type_: str, body: dict[str, Any]) -> Envelope:
        """An entry (or notice) of this seat for ``seq``, chained to the head."""
        return self.sign_after(table, seq, table.head_digest, type_, body)

    def sign_after(self, table: Table, seq: int, prev: bytes, type_: str, body: dict[str, Any]) -> Envelope:
        """An entry (or notice) of this seat for ``seq``, chained to ``prev``."""
        assert self.key is not None and self.seat is not None
        return seal_envelope(self.key, self.room, seq, prev, self.seat, type_, body, game=table.game_id)

    def sign_request(self, raw: bytes) -> bytes | None:
        """This seat's signature over ``frame(REQUEST_TAG, raw)``; None without a key (an observer)."""
        if self.key is None:
            return None
        return self.key.sign(frame(REQUEST_TAG, bytes(raw)))

    # -- the queues --------------------------------------------------------------------------
    def queue_entry(self, env: Envelope) -> None:
        """A log entry to publish retained at ``log/{seq}``."""
        self._out.append(Outbound(env.seq, env.data, f"log/{env.seq}"))

    def queue_notice(self, env: Envelope, kind: str) -> None:
        """A notice (``kind``: vote, leave, ack) to publish retained at ``notice/{seat}/{seq}/{kind}``."""
        self._notices.append(Outbound(env.seq, env.data, f"notice/{self.seat}/{env.seq}/{kind}"))

    def queued(self) -> tuple[Outbound, ...]:
        """The log entries queued and not taken yet, in order."""
        return tuple(self._out)

    def take_outgoing(self) -> list[Outbound]:
        out, self._out = self._out, []
        return out

    def take_notices(self) -> list[Outbound]:
        out, self._notices = self._notices, []
        return out

    def announce(self, seq: int) -> bool:
        """Whether this seat's decision at ``seq`` is to be announced (once per seq)."""
        if seq in self._announced:
            return False
        self._announced.add(seq)
        return True

    # -- publish first, settle after ---------------------------------------------------------
    @contextmanager
    def choosing(self, publish_only: bool) -> Iterator[None]:
        """Within: this seat's next write is only queued (``publish_only``) or applied at once."""
        self._publish_only = publish_only
        try:
            yield
        finally:
            self._publish_only = None

    def publishes_only(self) -> bool:
        """Whether the entry being written is only queued now (and applied at settle)."""
        return self.publish_first if self._publish_only is None else self._publish_only

    def hold(self, seq: int) -> None:
        """Entry ``seq`` of mine is queued and not applied: writing stops until it is."""
        self._unsettled = seq

    def unsettled(self, head: int) -> bool:
        """Whether an entry of mine is queued and not applied at a table whose head is ``head``."""
        return self._unsettled is not None and head < self._unsettled

    # -- my own action -----------------------------------------------------------------------
    def prepare(self, own: OwnAction) -> None:
        """The effect of my action, worked out before I signed it."""
        self._own = own

    @property
    def prepared(self) -> OwnAction | None:
        return self._own

    def own_for(self, seq: int) -> OwnAction | None:
        """The prepared effect for entry ``seq``, used once (an entry at or after it makes it stale)."""
        own = self._own
        if own is not None and own.seq <= seq:
            self._own = None
        return own if own is not None and own.seq == seq else None

    def forget_from(self, seq: int) -> None:
        """The replica is rebuilt to before ``seq``: prompts from ``seq`` on, and what was pending, are void."""
        self._announced = {s for s in self._announced if s < seq}
        self._own, self._unsettled = None, None
