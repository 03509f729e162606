"""A seat's private side: everything derived from its one per-game secret, and what it knows.

A restarted peer with the same secret rebuilds itself from the log alone, so nothing here is
random: dice shares, salts, card secrets, the agreement key and synthetic nonces all come from
the 32-byte ``secret`` through labelled streams.  What the seat learns (its cards, its sealed
values) is kept here too, because only this seat may hold it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engines.core import Knowledge, SeededStream, decode
from protocol.cards import CardProtocolError, KeyRing, Reslot, keys_from_body
from protocol.crypto.private import AgreementKey, SealError, delivery_context, delivery_key, open_sealed, seal
from protocol.envelope import Envelope
from protocol.errors import Misconduct
from protocol.table import Table


def agreement_key(secret: bytes) -> AgreementKey:
    """The per-game X25519 key, derived from the seat's per-game secret."""
    return AgreementKey.generate(SeededStream(secret, "agreement-key").token(32))


class OwnSecrets:
    """The seat's secrets and knowledge: one owner for what must never leave the seat unasked.

    It owns the per-game secret and the agreement key, the card keys (:class:`KeyRing`), the
    salts and values of what the seat sealed, its :class:`Knowledge`, and the cards dealt to it
    that it has not opened yet.  An observer has one too, empty (no secret, no key).
    """

    def __init__(self, room: str, seat: int | None, secret: bytes | None) -> None:
        self.room = room
        self.seat = seat
        self._secret = secret or b""
        #: This seat's agreement key (None for an observer): it opens what was sealed to this seat.
        self.box = agreement_key(secret) if secret else None
        self.knowledge = Knowledge(seat if seat is not None else -1)
        self.ring = KeyRing(seat if seat is not None else -1)
        #: sealed-value id -> (salt, value), for every value this seat sealed.
        self.salts: dict[int, tuple[bytes, Any]] = {}
        #: Slots dealt to this seat whose key from another seat did not open them (the audit names who).
        self.unopened: set[int] = set()
        #: Slots dealt to this seat not opened yet (see :meth:`open_step`).
        self._to_open: list[int] = []

    # -- what comes from the secret ------------------------------------------------------------
    def stream(self, label: str) -> SeededStream:
        """The seat's deterministic stream for ``label`` (the same after a restart)."""
        return SeededStream(self._secret, label)

    def share(self, label: str) -> bytes:
        """This seat's share of the joint randomness of round ``label``."""
        return self.stream(f"share/{label}").token(32)

    def seal_to(self, table: Table, target: int, seq: int, plain: bytes, size: int | None = None) -> bytes:
        """``plain`` sealed from this seat to ``target`` for entry ``seq`` (padded to ``size``)."""
        assert self.box is not None and self.seat is not None
        context = delivery_context(self.room, self.seat, target, seq)
        # Synthetic nonce: a function of the secret, the context and the plaintext, so a restarted
        # peer that seals something else at the same seq can never reuse a nonce under one key.
        digest = hashlib.sha256(b"sealed-table/nonce\x00" + self._secret + context + plain).digest()
        try:
            return seal(self.box, table.seats[target].box, context, plain, lambda n: digest[:n], size)
        except SealError as exc:  # the genesis refuses such keys; if one got in, it is the key holder's doing
            raise Misconduct(target, f"its agreement key cannot be sealed to ({exc})", seq=0) from None

    def open_from(self, table: Table, source: int, context: bytes, sealed: bytes) -> bytes:
        """What ``source`` sealed to this seat in ``context``; ``SealError`` if it does not open."""
        assert self.box is not None
        return open_sealed(self.box, table.seats[source].box, context, sealed)

    def delivery_keys(self, table: Table) -> dict[int, bytes]:
        """The delivery key of each box this seat sent: they open what it sent, and nothing it received."""
        assert self.box is not None and self.seat is not None
        return {
            seq: delivery_key(self.box, delivery_context(self.room, source, target, seq)).private_bytes()
            for seq, source, target, _box in table.deliveries
            if source == self.seat
        }

    # -- cards dealt to this seat --------------------------------------------------------------
    def dealt(self, slot: int) -> None:
        """A card was dealt to this seat: it is opened when asked for, or by :meth:`open_step`."""
        self._to_open.append(slot)

    @property
    def to_open(self) -> tuple[int, ...]:
        """The slots dealt to this seat that wait to be opened."""
        return tuple(self._to_open)

    def open_step(self, table: Table) -> bool:
        """Open one card dealt to this seat, if one waits; whether more wait."""
        if self._to_open:
            self._open_next(table)
        return bool(self._to_open)

    def open_all(self, table: Table | None) -> None:
        """Open every card dealt to this seat (before its knowledge is read or its keys go public)."""
        while self._to_open:
            assert table is not None  # a card is dealt only at a table
            self._open_next(table)

    def _open_next(self, table: Table) -> None:
        slot = self._to_open.pop(0)
        try:
            self.knowledge.cards[slot] = table.ledger.open_own(slot, self.ring)
        except CardProtocolError:
            self.unopened.add(slot)  # a false key: the audit names who published it

    # -- what the table tells the private side -------------------------------------------------
    def round_opened(self, deck: Any, attempt: int) -> None:
        if self.seat is not None and self.seat in deck.participants:
            self.ring.new_round(deck, self.stream(f"deck/{attempt}"))

    def delivered(self, table: Table, env: Envelope, source: int, target: int) -> None:
        """A private delivery was applied: follow my hand if I sent it, take the keys if it was to me."""
        if source == self.seat:
            self._follow_my_hand(table, env.seq)
        if target != self.seat or self.box is None:
            return
        try:
            context = delivery_context(self.room, source, target, env.seq)
            plain = self.open_from(table, source, context, env.body["box"])
            keys = keys_from_body(source, decode(plain))
            cards = table.ledger.check_delivery(source, keys)
        except (SealError, CardProtocolError, ValueError, TypeError):
            return  # a false delivery: the audit opens it with the sender's key and names the sender
        for slot, key in keys.items():
            self.ring.learn(slot, key)
        self.knowledge.cards.update(cards)

    def _follow_my_hand(self, table: Table, seq: int) -> None:
        """My shown hand moved to fresh slots (SL-10): I know where each of my cards went.

        A peer rebuilt from the log (its own delivery read back, not written now) derives the
        same secrets again from its per-game secret, as it does for its shuffle rounds.
        """
        reslot = table.ledger.rounds[-1]
        if not isinstance(reslot, Reslot):
            return
        secrets = self.ring.rounds.get(reslot.round)
        if secrets is None:
            held = [table.ledger.secret_key(slot, self.ring) for slot in reslot.old_slots]
            secrets = self.ring.new_reslot(reslot, held, self.stream(f"reslot/{seq}"))
        self.open_all(table)
        for m, slot in enumerate(reslot.slots):
            old = reslot.old_slots[secrets.permutation[m]]
            if old in self.knowledge.cards:
                self.knowledge.cards[slot] = self.knowledge.cards[old]

    def entry_applied(self, table: Table, env: Envelope) -> None:
        """An action was applied: the cards it showed, and (my own) the sealed values its memo holds."""
        if env.type != "action":
            return
        for slot in env.body["keys"]:
            card = table.ledger.deck_for(slot).shown(slot)
            if card is not None:
                self.knowledge.cards[slot] = card
        if env.seat == self.seat and env.body["memo"] and not set(env.body["commits"]) <= set(self.salts):
            self._read_memo(env)

    def _read_memo(self, env: Envelope) -> None:
        """My own sealed values, back from the memo I sealed to myself (a peer rebuilt from the log)."""
        assert self.box is not None  # my own entry: I sit, so I hold an agreement key
        try:
            context = delivery_context(self.room, env.seat, env.seat, env.seq)
            plain = open_sealed(self.box, self.box.public_bytes(), context, env.body["memo"])
            for secret, (salt, value) in decode(plain).items():
                self.salts[secret] = (salt, value)
                self.knowledge.sealed[secret] = value
        except (SealError, ValueError, TypeError):
            pass
