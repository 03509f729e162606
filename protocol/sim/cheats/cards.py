"""Staged attacks on the card scheme: duplicates made without a repeated element, and a false
re-slotting.

``duplicated-card`` (in :mod:`.generic`) repeats an element, which the pass check sees at
once.  These are the careful versions, which no check but a pass's proof sees before the end
of the game:

* ``tagged-duplicate-card``: in its shuffle pass the cheater writes one element as a known
  multiple of another (``Y[j] = Y[i] * t``); the relation survives the later passes (they
  all multiply by one scalar), so in its lock pass it finds the pair and locks the second
  with ``t^-1`` removed: both slots open to one card, the card the cheater knows and can
  track all game (as the first shuffler it even knows which card it is).
* ``copied-lock``: in its lock pass the cheater locks one slot as a copy of another
  (``W[b] = Z[a] * s^-1 * k[b]``).  The first locker gets two slots that open to one card
  (one card gone from the game); a later locker gets a slot that opens to no card.
* ``false-reslot``: as the source of a private delivery that moves its shown hand to fresh
  slots, it swaps one card for another on the way.

Both pass cheats are staged in every game with a shuffled deck; the shuffle proof (respectively
the lock proof) refuses the pass on arrival, naming the cheater at that entry.  The false
re-slotting is staged in the games with private deliveries; its proof fails too.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engines.core import ChanceKind, PrivateDelivery
from protocol.cards.deck import LOCK, SHUFFLE, Deck
from protocol.crypto.group import card_element, invert, mul, scalar_from, scalar_mul
from protocol.envelope import Envelope
from protocol.sim.cheats.base import OnWrite
from protocol.table import Expect


class TaggedDuplicateCard(OnWrite):
    """Tags a pair in its shuffle pass and closes the trap in its lock pass."""

    kind = "tagged-duplicate-card"
    text = "writes one shuffled element as a known multiple of another, then locks both slots to one card"
    needs = ChanceKind.SECRET_SHUFFLE
    stages = "false-shuffle-pass"
    types = ("shuffle", "lock")
    tag: bytes | None = None
    tagged = False

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        passed = dict(body["passed"])
        elements = list(passed["elements"])
        if passed["kind"] == SHUFFLE and not self.tagged:
            self.tagged = True
            self.tag = scalar_from(hashlib.sha512(b"tag" + self.secret).digest())
            elements[1] = mul(elements[0], self.tag)  # Y[1] = Y[0] * t: distinct, valid, and related
            self.staged = True
            return self._with_elements(exp, type_, body, elements)
        if passed["kind"] == LOCK and self.tag is not None:
            deck = self.my_table.ledger.rounds[-1]
            assert isinstance(deck, Deck)  # a pass is written for a dealt deck, never a re-slotting
            secrets = self.ring.rounds[deck.round]
            current = deck.current()
            index = {element: j for j, element in enumerate(current)}
            pair = next(
                ((a, index[mul(z, self.tag)]) for a, z in enumerate(current) if mul(z, self.tag) in index), None
            )
            if pair is None:
                return None
            _, b = pair
            # Slot b holds (card of a) * t: take t off too, and b opens to a's card.
            factor = scalar_mul(scalar_mul(invert(secrets.scalar), invert(self.tag)), secrets.keys[b])
            elements[b] = mul(current[b], factor)
            self.tag = None
            return self._with_elements(exp, type_, body, elements)
        return None

    def _write(self, exp: Expect, type_: str, body: dict[str, Any]) -> None:
        # Unlike the other OnWrite cheats this one tampers twice (its shuffle, then its lock).
        if type_ in self.types and (not self.tagged or self.tag is not None):
            changed = self._tamper(exp, type_, dict(body))
            if changed is not None:
                self._emit(changed)
                self._take_entry(changed)
                self._drain()
                return
        super(OnWrite, self)._write(exp, type_, body)


class CopiedLock(OnWrite):
    """Locks slot 1 as a copy of slot 0 (the same card under its own key for slot 1)."""

    kind = "copied-lock"
    text = "locks one slot as a copy of another in its lock pass (two slots, one card)"
    needs = ChanceKind.SECRET_SHUFFLE
    stages = "false-lock-pass"
    types = ("lock",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        passed = dict(body["passed"])
        if passed["kind"] != LOCK:
            return None
        deck = self.my_table.ledger.rounds[-1]
        assert isinstance(deck, Deck)  # a pass is written for a dealt deck, never a re-slotting
        secrets = self.ring.rounds[deck.round]
        elements = list(passed["elements"])
        elements[1] = mul(deck.current()[0], scalar_mul(invert(secrets.scalar), secrets.keys[1]))
        return self._with_elements(exp, type_, body, elements)


class FalseReslot(OnWrite):
    """Swaps a card of its shown hand for another (a card it would rather hold) as the hand moves (SL-10)."""

    kind = "false-reslot"
    text = "as the source of a private delivery to fresh slots, moves its shown hand with one card swapped"
    needs = PrivateDelivery
    types = ("deliver",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        passed = body.get("passed")
        if not isinstance(passed, dict):
            return None
        pending = self.my_table.state.pending()
        assert isinstance(pending, PrivateDelivery)  # a ``deliver`` entry answers a private delivery
        reslot = self.my_table.ledger.preview_reslot(self.my_seat, pending.slots, pending.fresh)
        secrets = self.ring.rounds[reslot.round]
        elements = list(passed["elements"])
        deck = self.my_table.ledger.rounds[0]
        assert isinstance(deck, Deck)  # the first round of a game's cards is its shuffled deck
        wanted = next(c for c in deck.cards if card_element(self.room, c) not in {*reslot.inputs})
        elements[0] = mul(card_element(self.room, wanted), secrets.keys[0])  # opens, with its key, to `wanted`
        return self._with_elements(exp, type_, body, elements)


CARDS: tuple[type[OnWrite], ...] = (TaggedDuplicateCard, CopiedLock, FalseReslot)
