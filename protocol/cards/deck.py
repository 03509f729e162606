"""One shuffle round of the mental-poker ledger: passes, locks, keys, opening.

The round turns a list of public card identities into as many *slots* whose
contents nobody knows (see ``docs/protocol-cards.md`` for the whole scheme):

1. Start: ``X0[j] = card_element(room, cards[j])`` — public.
2. Shuffle passes, seat 0 first: ``Y[j] = X[perm[j]] * s`` (one secret scalar
   ``s`` per seat, one secret permutation).
3. Lock passes, seat 0 first: ``W[j] = Z[j] * s^-1 * k[j]`` — each seat takes
   its pass scalar off again and puts a separate key on every slot.  After the
   last lock, slot ``j`` holds ``P_c * prod_i k_i[j]``.
4. Draw slot ``j`` to seat ``p``: every other seat publishes ``k_i[j]``; ``p``
   strips them and its own key and finds ``P_c``, hence ``c``.  Show: the
   missing key is published and everyone checks the claimed card.
5. End: every seat publishes ``s``, the permutation and every ``k``; the audit
   recomputes each pass and names the first seat whose pass does not follow.

This class is the *public* replica every peer keeps: it holds only what is on
the log.  Secrets come in as :class:`SeatSecrets` arguments to ``make_*`` and
``key_for``; nothing here stores them.  ``make_*`` never mutates (the author
accepts its own body like everyone else's); every ``accept_*`` validates fully
and raises :class:`CardProtocolError` naming the culprit before changing
anything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engines.core import canonical_encode
from protocol.cards.errors import CardProtocolError
from protocol.cards.proofs import context as proof_context
from protocol.cards.proofs import prove_lock, prove_shuffle, verify_lock, verify_shuffle
from protocol.cards.seat_secrets import SeatSecrets
from protocol.cards.shown import check_shown
from protocol.crypto.group import (
    ELEMENT_BYTES,
    GroupError,
    card_element,
    invert,
    is_scalar,
    mul,
    scalar_mul,
    scalar_product,
)

SHUFFLE = "shuffle"
LOCK = "lock"
PASS_FIELDS = frozenset({"round", "kind", "elements", "proof"})
#: A round never holds more cards than this; bigger bodies are refused before any work.
MAX_CARDS = 1024
#: How many verify_shown verdicts a deck keeps (a memo, cleared when full; a game needs one per show).
SHOW_MEMO = 512

Verdict = tuple[int, str] | None


class Deck:
    """The public replica of one shuffle round (``round_index`` within its ledger)."""

    def __init__(
        self,
        room: str,
        seats: int,
        cards: Sequence[int],
        slots: Sequence[int],
        round_index: int = 0,
        participants: Sequence[int] | None = None,
    ) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
            raise ValueError("a deck needs at least one seat")
        participants = tuple(range(seats)) if participants is None else tuple(participants)
        if (
            not participants
            or len(set(participants)) != len(participants)
            or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < seats for p in participants)
        ):
            raise ValueError("the participants must be distinct seats of the table")
        cards, slots = tuple(cards), tuple(slots)
        if not cards or len(cards) != len(slots) or len(cards) > MAX_CARDS:
            raise ValueError("a deck needs as many slots as cards (1..1024)")
        if len(set(cards)) != len(cards) or len(set(slots)) != len(slots):
            raise ValueError("cards and slots must be distinct")
        self.room = room
        self.seats = seats
        #: The seats that take part in this round, in pass order (all but those who left).
        self.participants = participants
        self.cards = cards
        self.slots = slots
        self.round = round_index
        self.initial: tuple[bytes, ...] = tuple(card_element(room, c) for c in cards)
        if len(set(self.initial)) != len(self.initial):  # pragma: no cover - a SHA-256 collision
            raise ValueError("two cards share a group element")
        self._card_of: dict[bytes, int] = dict(zip(self.initial, cards, strict=True))
        self._element_of: dict[int, bytes] = dict(zip(cards, self.initial, strict=True))
        #: Verdicts of verify_shown, keyed by all its inputs (locked element, card element, keys in
        #: order): checking a show (verify, then accept) asks the same question twice.
        self._shows: dict[tuple[bytes, ...], bool] = {}
        self._position: dict[int, int] = {slot: j for j, slot in enumerate(slots)}
        self.shuffles: list[tuple[bytes, ...]] = []
        self.locks: list[tuple[bytes, ...]] = []
        #: position -> owner seat -> (key, publishing seat), in publication order.
        self._keys: dict[int, dict[int, tuple[bytes, int]]] = {}
        self._key_order: list[tuple[int, int]] = []
        #: position -> seat the slot was dealt to (whose key stays secret).
        self._dealt: dict[int, int] = {}
        #: position -> (showing seat, claimed card), once verified.
        self._shown: dict[int, tuple[int, int]] = {}
        #: card -> position where this replica saw it open (shows, its own draws, deliveries):
        #: one card in two slots is a dispute, raised at the first duplicate.
        self._identities: dict[int, int] = {}
        #: Digests of the passes this replica made itself (see :meth:`_remember_own`).
        self._own_passes: set[bytes] = set()

    # -- where the round stands ------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def phase(self) -> str:
        """``"shuffle"``, ``"lock"`` or ``"ready"`` (all locks on: slots can be drawn)."""
        if len(self.shuffles) < len(self.participants):
            return SHUFFLE
        if len(self.locks) < len(self.participants):
            return LOCK
        return "ready"

    @property
    def next_seat(self) -> int | None:
        """The seat whose pass is due, or ``None`` once the round is ready."""
        if self.phase == SHUFFLE:
            return self.participants[len(self.shuffles)]
        if self.phase == LOCK:
            return self.participants[len(self.locks)]
        return None

    def current(self) -> tuple[bytes, ...]:
        """The elements after the latest accepted pass (the input of the next one)."""
        if self.locks:
            return self.locks[-1]
        if self.shuffles:
            return self.shuffles[-1]
        return self.initial

    def position(self, slot: int) -> int:
        if isinstance(slot, bool) or not isinstance(slot, int) or slot not in self._position:
            raise CardProtocolError(None, f"slot {slot!r} is not in round {self.round}")
        return self._position[slot]

    def _position_by(self, seat: int, slot: int) -> int:
        """The position of a slot named in ``seat``'s message (an unknown slot is that seat's error)."""
        try:
            return self.position(slot)
        except CardProtocolError as exc:
            raise CardProtocolError(seat, exc.reason) from None

    def locked(self, slot: int) -> bytes:
        """The final, fully locked element of ``slot``."""
        self._need_ready()
        return self.locks[-1][self.position(slot)]

    def dealt_to(self, slot: int) -> int | None:
        return self._dealt.get(self.position(slot))

    def published_keys(self, slot: int) -> dict[int, bytes]:
        """Owner seat -> published key for ``slot``."""
        return {owner: key for owner, (key, _) in self._keys.get(self.position(slot), {}).items()}

    def missing_owner(self, slot: int) -> int | None:
        """The one seat whose key for ``slot`` is still secret (``None`` if not exactly one)."""
        missing = [s for s in self.participants if s not in self._keys.get(self.position(slot), {})]
        return missing[0] if len(missing) == 1 else None

    def shown(self, slot: int) -> int | None:
        """The card a verified show put on the table for ``slot``, if any."""
        entry = self._shown.get(self.position(slot))
        return entry[1] if entry else None

    # -- passes ----------------------------------------------------------------
    def make_shuffle_pass(self, secrets: SeatSecrets) -> dict[str, Any]:
        """My shuffle pass: permute the current elements, multiply each by my scalar, prove it."""
        self._need_turn(SHUFFLE, secrets)
        current = self.current()
        elements = [mul(current[secrets.permutation[j]], secrets.scalar) for j in range(self.size)]
        ctx = self._proof_context(SHUFFLE, secrets.seat)
        proof = prove_shuffle(ctx, current, elements, secrets.permutation, secrets.scalar, secrets.keys)
        body = {"round": self.round, "kind": SHUFFLE, "elements": elements, "proof": proof}
        self._remember_own(body)
        return body

    def make_lock_pass(self, secrets: SeatSecrets) -> dict[str, Any]:
        """My lock pass: take my pass scalar off every slot, put slot ``j``'s key on, prove I know each factor."""
        self._need_turn(LOCK, secrets)
        current = self.current()
        unshuffle = invert(secrets.scalar)
        factors = [scalar_mul(unshuffle, secrets.keys[j]) for j in range(self.size)]
        elements = [mul(current[j], factors[j]) for j in range(self.size)]
        ctx = self._proof_context(LOCK, secrets.seat)
        multipliers = [int.from_bytes(f, "little") for f in factors]
        proof = prove_lock(ctx, current, elements, multipliers, [secrets.scalar, *secrets.keys])
        body = {"round": self.round, "kind": LOCK, "elements": elements, "proof": proof}
        self._remember_own(body)
        return body

    def _proof_context(self, kind: str, seat: int) -> bytes:
        """What a pass's proof is bound to: room, round, kind, pass index, seat, size, participants."""
        index = len(self.shuffles) if kind == SHUFFLE else len(self.locks)
        return proof_context(self.room, self.round, kind, index, seat, self.size) + bytes(self.participants)

    def _remember_own(self, body: Mapping[str, Any]) -> None:
        """A pass this replica made itself is not proven to itself again (it computed every element)."""
        self._own_passes.add(_pass_digest(body))

    def accept_shuffle_pass(self, seat: int, body: object) -> None:
        self.shuffles.append(self._checked_pass(seat, body, SHUFFLE))

    def accept_lock_pass(self, seat: int, body: object) -> None:
        self.locks.append(self._checked_pass(seat, body, LOCK))

    def accept_pass(self, seat: int, body: object) -> None:
        """Either pass, by its ``kind`` field."""
        kind = body.get("kind") if isinstance(body, Mapping) else None
        if kind == LOCK:
            self.accept_lock_pass(seat, body)
        else:
            self.accept_shuffle_pass(seat, body)

    def _checked_pass(self, seat: int, body: object, kind: str) -> tuple[bytes, ...]:  # noqa: C901 (tests/test_complexity.py)
        """Everything about a pass, checked at once, naming ``seat`` on failure.

        A pass with a repeated element is a duplicated card (in a shuffle pass
        one scalar multiplies distinct elements into distinct ones) or a
        duplicated lock.  Then the proof: a shuffle pass must be its input
        permuted under one secret scalar (no card substituted, tagged or
        duplicated), a lock pass each input times a factor its author knows (no
        slot copied into another).  Proof checking multiplies every element, and
        libsodium refuses any that is not a point of the prime-order group, so
        that is the validity check as well.
        """
        if self.phase != kind or seat != self.next_seat:
            raise CardProtocolError(seat, f"a {kind} pass by seat {seat} is out of turn in round {self.round}")
        if not isinstance(body, Mapping) or set(body.keys()) != PASS_FIELDS:
            raise CardProtocolError(seat, "a pass must have exactly the fields round, kind, elements, proof")
        if body["round"] != self.round or isinstance(body["round"], bool) or body["kind"] != kind:
            raise CardProtocolError(seat, f"the pass is not a {kind} pass of round {self.round}")
        elements = body["elements"]
        if not isinstance(elements, (list, tuple)) or len(elements) != self.size:
            raise CardProtocolError(seat, f"a pass must hold exactly {self.size} elements")
        for j, element in enumerate(elements):
            if not isinstance(element, bytes) or len(element) != ELEMENT_BYTES:
                raise CardProtocolError(seat, f"element {j} of the {kind} pass is not a valid group element")
        if len(set(elements)) != len(elements):
            raise CardProtocolError(seat, f"the {kind} pass repeats an element (a duplicated card)")
        elements = tuple(elements)
        if _pass_digest(body) in self._own_passes:
            return elements
        ctx = self._proof_context(kind, seat)
        if kind == SHUFFLE:
            if not verify_shuffle(ctx, self.current(), elements, body["proof"]):
                raise CardProtocolError(
                    seat,
                    f"the shuffle pass of round {self.round} is not its input permuted under one scalar "
                    "(its proof fails: a substituted, tagged or duplicated card, or an invalid element)",
                )
        elif not verify_lock(ctx, self.current(), elements, body["proof"]):
            raise CardProtocolError(
                seat,
                f"the lock pass of round {self.round} does not lock each slot of its input "
                "(its proof fails: a copied slot or an invalid element)",
            )
        return elements

    # -- keys, draws and shows -------------------------------------------------
    def key_for(self, slot: int, secrets: SeatSecrets) -> bytes:
        """My lock key for ``slot`` (to publish when another seat draws it, or when I show it)."""
        self._need_secrets(secrets)
        return secrets.keys[self.position(slot)]

    def deal(self, slot: int, seat: int) -> None:
        """Record that ``slot`` goes to ``seat`` (so only ``seat``'s key stays secret)."""
        self._need_ready()
        j = self.position(slot)
        if not self._is_seat(seat):
            raise CardProtocolError(None, f"seat {seat!r} takes no part in round {self.round}")
        if j in self._dealt:
            raise CardProtocolError(None, f"slot {slot} was already dealt")
        if seat in self._keys.get(j, {}):
            raise CardProtocolError(None, f"seat {seat}'s key for slot {slot} is already public")
        self._dealt[j] = seat

    def accept_key(self, seat: int, slot: int, key: object) -> None:
        """Store ``seat``'s own published key for ``slot`` (a draw by someone else).

        Checked at once: the round is locked, the key is a canonical non-zero
        scalar, the seat is not the one the slot was dealt to (its key is only
        published through a verified show), and it does not contradict a key
        the seat published before.  Whether the key is *true* shows when the
        receiver opens the slot, and is proven in the audit.
        """
        self._need_ready(seat)
        if not self._is_seat(seat):
            raise CardProtocolError(None, f"seat {seat!r} takes no part in round {self.round}")
        j = self._position_by(seat, slot)
        if not is_scalar(key):
            raise CardProtocolError(seat, f"the key for slot {slot} is not a canonical non-zero scalar")
        if self._dealt.get(j) == seat:
            raise CardProtocolError(seat, f"slot {slot} is in seat {seat}'s hand: its key is published by showing")
        self._store_key(j, seat, key, seat)

    def _store_key(self, j: int, owner: int, key: bytes, publisher: int) -> None:
        known = self._keys.get(j, {}).get(owner)
        if known is not None:
            if known[0] != key:
                raise CardProtocolError(publisher, f"a second, different key for slot {self.slots[j]}")
            return
        self._keys.setdefault(j, {})[owner] = (key, publisher)
        self._key_order.append((j, owner))

    def _strip(self, slot: int, extra: bytes | None) -> bytes:
        """The slot's element with every published key (and ``extra``) taken off."""
        j = self.position(slot)
        keys = [key for key, _ in self._keys.get(j, {}).values()]
        if extra is not None:
            keys.append(extra)
        element = self.locks[-1][j]
        if not keys:
            return element
        return mul(element, invert(scalar_product(keys)))

    def unlocked(self, slot: int) -> bytes:
        """The slot's element with every published key taken off (one secret key left on it)."""
        self._need_ready()
        return self._strip(slot, None)

    def card_elements(self) -> dict[bytes, int]:
        """Card element -> card, for the cards of this round."""
        return dict(self._card_of)

    def open_slot(self, slot: int, own_key: bytes) -> int:
        """The card in ``slot`` for the one seat holding its last secret key.

        Raises :class:`CardProtocolError` (seat ``None``) if the slot does not
        open to a card of this round: some published key, lock or pass was
        false, which the audit attributes.
        """
        self._need_ready()
        if self.missing_owner(slot) is None:
            raise CardProtocolError(None, f"slot {slot} needs every key but one published before it opens")
        if not is_scalar(own_key):
            raise CardProtocolError(None, "the opening key is not a canonical non-zero scalar")
        card = self._card_of.get(self._strip(slot, own_key))
        if card is None:
            raise CardProtocolError(
                None, f"slot {slot} does not open to a card of round {self.round}: a key, lock or pass is false"
            )
        self._note_identity(self.position(slot), card)
        return card

    def _check_identity(self, j: int, card: int) -> None:
        """A dispute if ``card`` already opened in another slot of this round (a false pass or lock)."""
        seen = self._identities.get(card)
        if seen is not None and seen != j:
            raise CardProtocolError(
                None,
                f"dispute: card {card} opens in slots {self.slots[seen]} and {self.slots[j]} of round {self.round} "
                "(a pass or lock is false)",
            )

    def _note_identity(self, j: int, card: int) -> None:
        self._check_identity(j, card)
        self._identities[card] = j

    def verify_shown(self, slot: int, owner_key: object, claimed_card: object) -> bool:
        """Whether ``owner_key`` (the slot's last secret key) opens ``slot`` to ``claimed_card``.

        Checked forwards: the claimed card's element under every key of the slot must be
        the slot's locked element.  In a group of prime order that is the same statement
        as "the locked element with the keys taken off is the card" (what :meth:`open_slot`
        computes), with one multiplication and no inversion: a show is checked by every
        peer on the path of every action, so it is kept short.  The key of a show is public
        (it travels in the signed entry), so the verdict is kept: accepting the show asks
        the very same question right after.
        """
        try:
            self._need_ready()
            if self.missing_owner(slot) is None or not is_scalar(owner_key):
                return False
            base = self._element_of.get(claimed_card)  # type: ignore[call-overload]  # an untrusted claim: not a card is None
            if base is None:
                return False
            j = self.position(slot)
            keys = [key for key, _ in self._keys.get(j, {}).values()]
            keys.append(owner_key)
            target = self.locks[-1][j]
            question = (target, base, *keys)
            verdict = self._shows.get(question)
            if verdict is None:
                verdict = mul(base, scalar_product(keys)) == target
                if len(self._shows) >= SHOW_MEMO:
                    self._shows.clear()
                self._shows[question] = verdict
            return verdict
        except (CardProtocolError, GroupError, TypeError):
            return False

    def accept_shown(
        self, seat: int, slot: int, owner_key: object, claimed_card: object, verified: bool = False
    ) -> None:
        """``seat`` shows ``slot`` as ``claimed_card`` by publishing its last secret key.

        A key that does not open the slot to the claimed card is a false show
        (a card not held, or a false key), attributed to ``seat`` at once.
        ``verified``: only for the seat's own show, whose card it opened with this
        key when the card was dealt (the key is still checked to be a scalar).
        """
        self._need_ready(seat)
        j = self._position_by(seat, slot)
        if j in self._shown:
            raise CardProtocolError(seat, f"slot {slot} was already shown")
        owner = self.missing_owner(slot)
        if owner is None:
            raise CardProtocolError(seat, f"slot {slot} cannot be shown: it was not drawn (keys are missing)")
        check_shown(self, self._element_of, seat, slot, owner_key, claimed_card, verified)
        self._check_identity(j, claimed_card)  # type: ignore[arg-type]  # checked above: an int card
        self._store_key(j, owner, owner_key, seat)  # type: ignore[arg-type]  # checked above: a scalar key
        self._shown[j] = (seat, claimed_card)  # type: ignore[assignment]  # checked above: an int card
        self._identities[claimed_card] = j  # type: ignore[index]  # checked above: an int card

    def public_card(self, slot: int) -> int | None:
        """The card of a slot whose every key is public (``None`` while any is secret)."""
        self._need_ready()
        if len(self._keys.get(self.position(slot), {})) < len(self.participants):
            return None
        return self._card_of.get(self._strip(slot, None))

    # -- the end-of-game audit -------------------------------------------------
    def audit(self, secrets_by_seat: Mapping[int, SeatSecrets], gone: Collection[int] = ()) -> Verdict:  # noqa: C901 (tests/test_complexity.py)
        """``None`` if every pass, lock and published key follows the published secrets.

        Otherwise ``(seat, reason)`` for the first seat, in the order the round
        was built (shuffle passes, lock passes, then keys in publication
        order), whose messages do not follow from its secrets.  Seats in
        ``gone`` (declared gone, so they never published) are skipped: each
        pass is checked against its public input, so everyone else is still
        checked; the session names the gone seat for withholding.
        """
        checked: dict[int, SeatSecrets] = {}
        for seat in self.participants:  # pass order: a fault in an earlier pass is named first
            secrets = secrets_by_seat.get(seat)
            if secrets is None:
                if seat in gone:
                    continue
                return seat, f"did not publish its card secrets for round {self.round}"
            if not self._well_formed(seat, secrets):
                return seat, f"published malformed card secrets for round {self.round}"
            index = self.participants.index(seat)
            if index < len(self.shuffles) and (j := self._bad_shuffle(index, secrets)) is not None:
                return seat, (
                    f"shuffle pass of round {self.round} does not follow its secrets at position {j} "
                    "(a substituted or duplicated card, or false secrets)"
                )
            checked[seat] = secrets
        for index in range(len(self.locks)):
            seat = self.participants[index]
            if seat in checked and (j := self._bad_lock(index, checked[seat])) is not None:
                return seat, (
                    f"lock pass of round {self.round} does not follow its secrets at position {j} "
                    "(a wrong inverse or a wrong key)"
                )
        for j, owner in self._key_order:
            key, publisher = self._keys[j][owner]
            if owner in checked and key != checked[owner].keys[j]:
                return publisher, f"published a false key for slot {self.slots[j]} (seat {owner}'s lock)"
        if self.phase == "ready" and len(checked) == len(self.participants):
            truth = self.cards_by_slot(checked)
            for j, (shower, claimed) in self._shown.items():
                if truth[self.slots[j]] != claimed:
                    return shower, f"showed slot {self.slots[j]} as card {claimed}, but it holds another card"
        return None

    def check_seat(self, seat: int, secrets: SeatSecrets) -> str | None:
        """Check one seat's secrets against its own passes and published keys (a seat leaving mid-game)."""
        if seat not in self.participants:
            return f"seat {seat} takes no part in round {self.round}"
        if not self._well_formed(seat, secrets):
            return f"malformed card secrets for round {self.round}"
        index = self.participants.index(seat)
        if index < len(self.shuffles) and (j := self._bad_shuffle(index, secrets)) is not None:
            return f"its shuffle pass of round {self.round} does not follow its secrets at position {j}"
        if index < len(self.locks) and (j := self._bad_lock(index, secrets)) is not None:
            return f"its lock pass of round {self.round} does not follow its secrets at position {j}"
        for j, keys in self._keys.items():
            if seat in keys and keys[seat][0] != secrets.keys[j]:
                return f"a key published for slot {self.slots[j]} does not follow its secrets"
        return None

    def publish_all(self, seat: int, secrets: SeatSecrets) -> None:
        """Make every key of a departing seat public (after :meth:`check_seat` passed)."""
        for j in range(self.size):
            if seat not in self._keys.get(j, {}):
                self._store_key(j, seat, secrets.keys[j], seat)

    def cards_by_slot(
        self, secrets_by_seat: Mapping[int, SeatSecrets], known: Mapping[int, int] | None = None
    ) -> dict[int, int]:
        """Slot -> card, from the published permutations (meaningful once the audit is fair)."""
        # Position j after the passes holds card perm_first[...perm_last[j]].
        index = list(range(self.size))
        for pass_index in reversed(range(len(self.shuffles))):
            perm = secrets_by_seat[self.participants[pass_index]].permutation
            index = [perm[i] for i in index]
        return {self.slots[j]: self.cards[index[j]] for j in range(self.size)}

    def audit_delivered_key(self, slot: int, key: bytes, secrets_by_seat: Mapping[int, SeatSecrets]) -> bool:
        """Whether a privately delivered key is the true last-secret key of ``slot``.

        Checked against the secrets of the seat the slot was dealt to.  That seat may have
        been declared gone, its secrets never published, while a key it handed over in a
        Hacker Attack was passed on by the attacker.  Then the key is true when it is the
        one a checked show published for the slot, or, not shown, when it opens the slot to
        a card of this round with every other key, as no false key can (that would take a
        discrete logarithm between two cards' elements).
        """
        j = self.position(slot)
        owner = self._dealt.get(j)
        if owner is None:
            return False
        if owner in secrets_by_seat:
            return key == secrets_by_seat[owner].keys[j]
        shown = self._keys.get(j, {}).get(owner)
        if shown is not None:
            return key == shown[0]
        try:
            self.open_slot(slot, key)
        except CardProtocolError:
            return False
        return True

    def _well_formed(self, seat: int, secrets: SeatSecrets) -> bool:
        return (
            secrets.seat == seat
            and secrets.size == self.size
            and is_scalar(secrets.scalar)
            and sorted(secrets.permutation) == list(range(self.size))
            and len(secrets.keys) == self.size
            and all(is_scalar(k) for k in secrets.keys)
        )

    def _pass_input(self, index: int, kind: str) -> tuple[bytes, ...]:
        if kind == SHUFFLE:
            return self.shuffles[index - 1] if index else self.initial
        return self.locks[index - 1] if index else self.shuffles[-1]

    def _bad_shuffle(self, index: int, secrets: SeatSecrets) -> int | None:
        """The first position where shuffle pass ``index`` does not follow ``secrets``."""
        source, output = self._pass_input(index, SHUFFLE), self.shuffles[index]
        for j in range(self.size):
            if mul(source[secrets.permutation[j]], secrets.scalar) != output[j]:
                return j
        return None

    def _bad_lock(self, index: int, secrets: SeatSecrets) -> int | None:
        """The first position where lock pass ``index`` does not follow ``secrets``."""
        source, output = self._pass_input(index, LOCK), self.locks[index]
        unshuffle = invert(secrets.scalar)
        for j in range(self.size):
            if mul(source[j], scalar_mul(unshuffle, secrets.keys[j])) != output[j]:
                return j
        return None

    # -- helpers ----------------------------------------------------------------
    def _is_seat(self, seat: object) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and seat in self.participants

    def _need_ready(self, seat: int | None = None) -> None:
        if self.phase != "ready":
            raise CardProtocolError(seat, f"round {self.round} is not fully locked yet")

    def _need_turn(self, kind: str, secrets: SeatSecrets) -> None:
        self._need_secrets(secrets)
        if self.phase != kind or secrets.seat != self.next_seat:
            raise CardProtocolError(secrets.seat, f"it is not seat {secrets.seat}'s {kind} pass")

    def _need_secrets(self, secrets: SeatSecrets) -> None:
        if secrets.size != self.size or len(secrets.keys) != self.size:
            raise CardProtocolError(secrets.seat, "these secrets are for a round of another size")


def _pass_digest(body: Mapping[str, Any]) -> bytes:
    """A digest of a pass body (kind, round, elements, proof) to recognise one's own pass."""
    return hashlib.sha256(canonical_encode(dict(body))).digest()
