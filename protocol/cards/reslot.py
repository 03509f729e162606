"""Moving a shown hand to fresh slots (System Launch SL-10): a take tells a third seat nothing.

A Hacker Attack target hands the attacker the last secret key of every slot in its hand.  A
third seat that once received the same hand in its own attack knows every key of those slots
too, so if the taken card kept its slot it would see exactly which card moved.  Instead, as
the hand is shown, the target (the *source*) moves it to fresh slots: for each old slot ``j``
it takes the public element with every published key off, ``D[j] = P_c * x[j]`` (``x[j]`` the
one key still secret, which the source holds), and publishes ``G[m] = D[pi[m]] * s`` with a
secret permutation ``pi`` and scalar ``s``, with the same shuffle proof as a shuffle pass
(:mod:`.proofs`).  Fresh slot ``m`` then has one key, ``x[pi[m]] * s``, known to the source and
delivered to the attacker.  The third seat knows every ``D[j]`` but not ``s``: under DDH it
cannot link any ``G[m]`` to a ``D[j]``, so the take (of one fresh slot) shows it only that one
card changed hands.  The proof makes every fresh slot hold exactly one of the old cards.

A :class:`Reslot` is a round of the ledger like a :class:`~.deck.Deck` (same queries: keys,
opening, shows, audit), with the source as its only participant and one key layer.  Its
secrets are a :class:`SeatSecrets` (``scalar = s``, ``permutation = pi``, ``keys`` the fresh
slots' keys), published at the end like every round's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engines.core import canonical_encode
from protocol.cards.errors import CardProtocolError
from protocol.cards.proofs import context as proof_context
from protocol.cards.proofs import prove_shuffle, verify_shuffle
from protocol.cards.seat_secrets import SeatSecrets
from protocol.cards.shown import check_shown
from protocol.crypto.entropy import Entropy
from protocol.crypto.group import ELEMENT_BYTES, GroupError, invert, is_scalar, mul, scalar_mul

RESLOT = "reslot"
RESLOT_FIELDS = frozenset({"elements", "proof"})

Verdict = tuple[int, str] | None


class Reslot:
    """The public replica of one re-slotting: ``old_slots`` of ``source``'s hand into ``slots``."""

    def __init__(
        self,
        room: str,
        seats: int,
        source: int,
        old_slots: Sequence[int],
        slots: Sequence[int],
        inputs: Sequence[bytes],
        card_of: Mapping[bytes, int],
        round_index: int,
    ) -> None:
        if not slots or len(slots) != len(old_slots) or len(inputs) != len(slots) or len(set(slots)) != len(slots):
            raise ValueError("a re-slotting needs as many distinct fresh slots as old ones")
        self.room = room
        self.seats = seats
        self.source = source
        self.participants = (source,)
        self.old_slots = tuple(old_slots)
        self.slots = tuple(slots)
        self.inputs = tuple(inputs)
        self.round = round_index
        self._card_of = dict(card_of)
        self._element_of = {card: element for element, card in self._card_of.items()}
        self._position = {slot: m for m, slot in enumerate(self.slots)}
        self.elements: tuple[bytes, ...] = ()
        self._keys: dict[int, tuple[bytes, int]] = {}  # position -> (the source's key, publisher)
        self._key_order: list[int] = []
        self._shown: dict[int, tuple[int, int]] = {}
        self._identities: dict[int, int] = {}

    # -- where it stands ---------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.slots)

    @property
    def phase(self) -> str:
        return "ready" if self.elements else RESLOT

    @property
    def next_seat(self) -> int | None:
        return None if self.elements else self.source

    def position(self, slot: int) -> int:
        if isinstance(slot, bool) or not isinstance(slot, int) or slot not in self._position:
            raise CardProtocolError(None, f"slot {slot!r} is not in round {self.round}")
        return self._position[slot]

    def locked(self, slot: int) -> bytes:
        self._need_ready()
        return self.elements[self.position(slot)]

    def dealt_to(self, slot: int) -> int | None:
        """Never dealt: the slot is in a hand from the start (the source's, or the attacker's after a take)."""
        self.position(slot)
        return self.source

    def published_keys(self, slot: int) -> dict[int, bytes]:
        entry = self._keys.get(self.position(slot))
        return {self.source: entry[0]} if entry else {}

    def missing_owner(self, slot: int) -> int | None:
        return None if self.position(slot) in self._keys else self.source

    def shown(self, slot: int) -> int | None:
        entry = self._shown.get(self.position(slot))
        return entry[1] if entry else None

    def card_elements(self) -> dict[bytes, int]:
        """Card element -> card, for every card these slots may hold."""
        return dict(self._card_of)

    def key_for(self, slot: int, secrets: SeatSecrets) -> bytes:
        if secrets.size != self.size:
            raise CardProtocolError(secrets.seat, "these secrets are for a round of another size")
        return secrets.keys[self.position(slot)]

    # -- the pass ----------------------------------------------------------------------
    def secrets_for(self, held_keys: Sequence[bytes], entropy: Entropy) -> SeatSecrets:
        """The source's secrets: a fresh permutation and scalar; ``held_keys[j]`` is old slot j's last key."""
        fresh = SeatSecrets.generate(self.source, self.size, entropy)
        keys = tuple(scalar_mul(held_keys[fresh.permutation[m]], fresh.scalar) for m in range(self.size))
        return SeatSecrets(self.source, fresh.scalar, fresh.permutation, keys)

    def make_pass(self, secrets: SeatSecrets) -> dict[str, Any]:
        """The source's pass: the unlocked old elements permuted, times its scalar, with the shuffle proof."""
        elements = [mul(self.inputs[secrets.permutation[m]], secrets.scalar) for m in range(self.size)]
        proof = prove_shuffle(self._context(), self.inputs, elements, secrets.permutation, secrets.scalar, secrets.keys)
        return {"elements": elements, "proof": proof}

    def accept_pass(self, seat: int, body: object, own: Collection[bytes] = ()) -> None:
        """Check and keep the source's pass; ``own``: digests of passes this replica made itself."""
        if seat != self.source or self.elements:
            raise CardProtocolError(seat, f"a re-slotting pass by seat {seat} is out of turn in round {self.round}")
        if not isinstance(body, Mapping) or set(body.keys()) != RESLOT_FIELDS:
            raise CardProtocolError(seat, "a re-slotting pass must have exactly the fields elements, proof")
        elements = body["elements"]
        if (
            not isinstance(elements, (list, tuple))
            or len(elements) != self.size
            or not all(isinstance(e, bytes) and len(e) == ELEMENT_BYTES for e in elements)
            or len(set(elements)) != len(elements)
        ):
            raise CardProtocolError(seat, f"a re-slotting pass must hold {self.size} distinct elements")
        if pass_digest(body) not in own and not verify_shuffle(self._context(), self.inputs, elements, body["proof"]):
            raise CardProtocolError(
                seat,
                f"the re-slotting pass of round {self.round} is not the shown hand permuted under one scalar "
                "(its proof fails)",
            )
        self.elements = tuple(elements)

    def _context(self) -> bytes:
        return proof_context(self.room, self.round, RESLOT, 0, self.source, self.size) + b"".join(
            slot.to_bytes(8, "big", signed=True) for slot in (*self.old_slots, *self.slots)
        )

    # -- keys, opening, shows ----------------------------------------------------------------
    def deal(self, slot: int, seat: int) -> None:
        raise CardProtocolError(None, f"slot {slot} was moved into a hand; it is never dealt")

    def accept_key(self, seat: int, slot: int, key: object) -> None:
        raise CardProtocolError(seat, f"slot {slot} has one key, published only by showing it")

    def _strip(self, slot: int, extra: bytes | None) -> bytes:
        j = self.position(slot)
        key = self._keys[j][0] if j in self._keys else extra
        element = self.elements[j]
        return element if key is None else mul(element, invert(key))

    def open_slot(self, slot: int, own_key: bytes) -> int:
        self._need_ready()
        if self.missing_owner(slot) is None or not is_scalar(own_key):
            raise CardProtocolError(None, f"slot {slot} cannot be opened with that key")
        card = self._card_of.get(self._strip(slot, own_key))
        if card is None:
            raise CardProtocolError(None, f"slot {slot} does not open to a card of round {self.round}: a key is false")
        self._note_identity(self.position(slot), card)
        return card

    def verify_shown(self, slot: int, owner_key: object, claimed_card: object) -> bool:
        try:
            self._need_ready()
            base = self._element_of.get(claimed_card)  # type: ignore[call-overload]  # an untrusted claim: not a card is None
            if self.missing_owner(slot) is None or not is_scalar(owner_key) or base is None:
                return False
            return mul(base, owner_key) == self.elements[self.position(slot)]
        except (CardProtocolError, GroupError, TypeError):
            return False

    def accept_shown(
        self, seat: int, slot: int, owner_key: object, claimed_card: object, verified: bool = False
    ) -> None:
        self._need_ready(seat)
        try:
            j = self.position(slot)
        except CardProtocolError as exc:
            raise CardProtocolError(seat, exc.reason) from None
        if j in self._shown:
            raise CardProtocolError(seat, f"slot {slot} was already shown")
        check_shown(self, self._element_of, seat, slot, owner_key, claimed_card, verified)
        self._check_identity(j, claimed_card)  # type: ignore[arg-type]  # checked above: an int card
        self._store_key(j, owner_key, seat)  # type: ignore[arg-type]  # checked above: a scalar key
        self._shown[j] = (seat, claimed_card)  # type: ignore[assignment]  # checked above: an int card
        self._identities[claimed_card] = j  # type: ignore[index]  # checked above: an int card

    def public_card(self, slot: int) -> int | None:
        self._need_ready()
        if self.position(slot) not in self._keys:
            return None
        return self._card_of.get(self._strip(slot, None))

    def _store_key(self, j: int, key: bytes, publisher: int) -> None:
        known = self._keys.get(j)
        if known is not None:
            if known[0] != key:
                raise CardProtocolError(publisher, f"a second, different key for slot {self.slots[j]}")
            return
        self._keys[j] = (key, publisher)
        self._key_order.append(j)

    def _check_identity(self, j: int, card: int) -> None:
        seen = self._identities.get(card)
        if seen is not None and seen != j:
            raise CardProtocolError(
                None,
                f"dispute: card {card} opens in slots {self.slots[seen]} and {self.slots[j]} of round {self.round}",
            )

    def _note_identity(self, j: int, card: int) -> None:
        self._check_identity(j, card)
        self._identities[card] = j

    # -- leaving and the audit -------------------------------------------------------------
    def _well_formed(self, seat: int, secrets: SeatSecrets) -> bool:
        return (
            secrets.seat == seat
            and secrets.size == self.size
            and is_scalar(secrets.scalar)
            and sorted(secrets.permutation) == list(range(self.size))
            and all(is_scalar(k) for k in secrets.keys)
        )

    def check_seat(self, seat: int, secrets: SeatSecrets) -> str | None:
        """The source's secrets against its pass and every key published for these slots."""
        if seat != self.source:
            return f"seat {seat} takes no part in round {self.round}"
        if not self._well_formed(seat, secrets):
            return f"malformed card secrets for round {self.round}"
        if self.elements:
            for m in range(self.size):
                if mul(self.inputs[secrets.permutation[m]], secrets.scalar) != self.elements[m]:
                    return f"its re-slotting pass of round {self.round} does not follow its secrets at position {m}"
                if self._card_of.get(mul(self.elements[m], invert(secrets.keys[m]))) is None:
                    return f"its key for slot {self.slots[m]} of round {self.round} does not open it to a card"
        for j, (key, _) in self._keys.items():
            if key != secrets.keys[j]:
                return f"a key published for slot {self.slots[j]} does not follow its secrets"
        return None

    def publish_all(self, seat: int, secrets: SeatSecrets) -> None:
        for j in range(self.size):
            if j not in self._keys:
                self._store_key(j, secrets.keys[j], seat)

    def audit(self, secrets_by_seat: Mapping[int, SeatSecrets], gone: Collection[int] = ()) -> Verdict:
        secrets = secrets_by_seat.get(self.source)
        if secrets is None:
            if self.source in gone:
                return None
            return self.source, f"did not publish its card secrets for round {self.round}"
        reason = self.check_seat(self.source, secrets)
        if reason is None:
            return None
        if "key published" in reason:
            j = next(j for j, (key, _) in self._keys.items() if key != secrets.keys[j])
            return self._keys[j][1], f"published a false key for slot {self.slots[j]} (seat {self.source}'s lock)"
        return self.source, reason

    def cards_by_slot(self, secrets_by_seat: Mapping[int, SeatSecrets], known: Mapping[int, int]) -> dict[int, int]:
        """Fresh slot -> card, from the old slots' cards (``known``) and the source's permutation."""
        perm = secrets_by_seat[self.source].permutation
        return {self.slots[m]: known[self.old_slots[perm[m]]] for m in range(self.size)}

    def audit_delivered_key(self, slot: int, key: bytes, secrets_by_seat: Mapping[int, SeatSecrets]) -> bool:
        """A delivered key is true when it is the source's key (or, the source gone, it opens the slot)."""
        j = self.position(slot)
        if self.source in secrets_by_seat:
            return key == secrets_by_seat[self.source].keys[j]
        if j in self._keys:
            return key == self._keys[j][0]
        try:
            return self._card_of.get(mul(self.elements[j], invert(key))) is not None
        except GroupError:
            return False

    def _need_ready(self, seat: int | None = None) -> None:
        if not self.elements:
            raise CardProtocolError(seat, f"round {self.round} is not re-slotted yet")


def pass_digest(body: Mapping[str, Any]) -> bytes:
    return hashlib.sha256(canonical_encode(dict(body))).digest()


__all__ = ["RESLOT", "Reslot", "pass_digest"]
