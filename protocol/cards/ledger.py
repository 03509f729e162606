"""The card ledger of a whole game: the opening shuffle and every reshuffle.

An engine names card *slots* with global integers and asks for a
``SECRET_SHUFFLE`` of some public card identities into fresh slots (the
opening deck, or the discards when the deck runs out).  Each such request is
one :class:`~.deck.Deck` round; :class:`CardLedger` maps every global slot to
its round and forwards passes, keys, draws and shows to it.

:class:`KeyRing` is the *private* side a seat keeps next to the public ledger:
its :class:`SeatSecrets` per round, and the keys it was handed privately
(Hacker Attack), so it can open, show and hand over exactly the slots it holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from protocol.cards.deck import Deck, Verdict
from protocol.cards.errors import CardProtocolError
from protocol.cards.reslot import Reslot, pass_digest
from protocol.cards.seat_secrets import SeatSecrets, secrets_from_body, secrets_to_body
from protocol.crypto.entropy import Entropy
from protocol.crypto.group import is_scalar


class KeyRing:
    """One seat's private card knowledge: its secrets per round and keys handed to it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: round index -> this seat's secrets for that round.
        self.rounds: dict[int, SeatSecrets] = {}
        self.received: dict[int, bytes] = {}

    def __repr__(self) -> str:
        return f"KeyRing(seat={self.seat}, rounds={len(self.rounds)}, received={len(self.received)})"

    def new_round(self, deck: Deck, entropy: Entropy) -> SeatSecrets:
        """Draw and keep fresh secrets for ``deck`` (replacing those of an abandoned round)."""
        secrets = SeatSecrets.generate(self.seat, deck.size, entropy)
        self.rounds[deck.round] = secrets
        return secrets

    def new_reslot(self, reslot: Reslot, held_keys: Sequence[bytes], entropy: Entropy) -> SeatSecrets:
        """My secrets for moving my shown hand to fresh slots (``held_keys``: each old slot's last key)."""
        secrets = reslot.secrets_for(held_keys, entropy)
        self.rounds[reslot.round] = secrets
        return secrets

    def learn(self, slot: int, key: bytes) -> None:
        """Keep a slot's last secret key handed over privately (a checked delivery)."""
        self.received[slot] = key


class CardLedger:
    """The public replica of every card round of one game (identical on every peer)."""

    def __init__(self, room: str, seats: int) -> None:
        if not isinstance(seats, int) or seats < 1:
            raise ValueError("a ledger needs at least one seat")
        self.room = room
        self.seats = seats
        self.rounds: list[Deck | Reslot] = []
        self._own_reslots: set[bytes] = set()
        self._round_of: dict[int, int] = {}
        #: Seats that left: with their published secrets (round -> secrets), or declared gone (``None``).
        self.departed: dict[int, dict[int, SeatSecrets] | None] = {}

    # -- rounds -----------------------------------------------------------------
    def open_round(self, cards: Sequence[int], slots: Sequence[int]) -> Deck:
        """Start the next shuffle round (the engine's ``Chance(SECRET_SHUFFLE, cards, slots)``)."""
        reused = [s for s in slots if s in self._round_of]
        if reused:
            raise ValueError(f"slots {reused[:3]} were used in an earlier round; a reshuffle needs fresh slots")
        participants = [seat for seat in range(self.seats) if seat not in self.departed]
        deck = Deck(self.room, self.seats, cards, slots, len(self.rounds), participants)
        self.rounds.append(deck)
        for slot in deck.slots:
            self._round_of[slot] = deck.round
        return deck

    def abandon_round(self) -> Deck | Reslot:
        """Drop the last round if it never finished locking (a seat left during it).

        Nothing of it was drawn, so nothing is lost; the engine's shuffle is
        then run again as a new round (same cards and slots) without that seat.
        """
        if not self.rounds or self.rounds[-1].phase == "ready":
            raise ValueError("only an unfinished last round can be abandoned")
        deck = self.rounds.pop()
        for slot in deck.slots:
            del self._round_of[slot]
        return deck

    # -- moving a shown hand to fresh slots (SL-10) ----------------------------------------
    def preview_reslot(self, source: int, old_slots: Sequence[int], fresh: Sequence[int]) -> Reslot:
        """The re-slotting of ``source``'s shown hand into ``fresh`` slots, not yet on the ledger.

        Each old slot must have exactly one key still secret (the one the source holds);
        its input is the slot's element with every published key taken off.
        """
        reused = [s for s in fresh if s in self._round_of]
        if reused or len(set(fresh)) != len(fresh) or len(fresh) != len(old_slots) or not fresh:
            raise CardProtocolError(None, f"fresh slots {list(fresh)[:3]} are not new or do not match the hand")
        inputs, universe = [], {}
        for slot in old_slots:
            deck = self.deck_for(slot)
            if deck.missing_owner(slot) is None:
                raise CardProtocolError(None, f"slot {slot} has no key still secret: it cannot move")
            inputs.append(deck.unlocked(slot) if isinstance(deck, Deck) else deck.locked(slot))
            universe.update(deck.card_elements())
        return Reslot(self.room, self.seats, source, old_slots, fresh, inputs, universe, len(self.rounds))

    def make_reslot_pass(self, reslot: Reslot, secrets: SeatSecrets) -> dict[str, Any]:
        """The source's pass (remembered, so its own replica does not prove it to itself again)."""
        body = reslot.make_pass(secrets)
        self._own_reslots.add(pass_digest(body))
        return body

    def accept_reslot(self, source: int, old_slots: Sequence[int], fresh: Sequence[int], body: object) -> Reslot:
        """Check the source's pass and put the fresh slots on the ledger (nothing changes if it fails)."""
        try:
            reslot = self.preview_reslot(source, old_slots, fresh)
        except CardProtocolError as exc:
            raise CardProtocolError(source, exc.reason) from None
        reslot.accept_pass(source, body, self._own_reslots)
        self.rounds.append(reslot)
        for slot in reslot.slots:
            self._round_of[slot] = reslot.round
        return reslot

    def deck_for(self, slot: int) -> Deck | Reslot:
        index = self._round_of.get(slot) if isinstance(slot, int) and not isinstance(slot, bool) else None
        if index is None:
            raise CardProtocolError(None, f"slot {slot!r} belongs to no round")
        return self.rounds[index]

    def accept_pass(self, seat: int, body: object) -> None:
        """A shuffle or lock pass, routed to its round by the body's ``round`` field."""
        index = body.get("round") if isinstance(body, Mapping) else None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.rounds):
            raise CardProtocolError(seat, "the pass names no open round")
        self.rounds[index].accept_pass(seat, body)

    # -- draws, shows, deliveries -------------------------------------------------
    def deal(self, slot: int, seat: int) -> None:
        self.deck_for(slot).deal(slot, seat)

    def accept_key(self, seat: int, slot: int, key: object) -> None:
        self._deck_named(seat, slot).accept_key(seat, slot, key)

    def missing_owner(self, slot: int) -> int | None:
        return self.deck_for(slot).missing_owner(slot)

    def open_slot(self, slot: int, key: bytes) -> int:
        return self.deck_for(slot).open_slot(slot, key)

    def verify_shown(self, slot: int, key: object, claimed_card: object) -> bool:
        try:
            return self.deck_for(slot).verify_shown(slot, key, claimed_card)
        except CardProtocolError:
            return False

    def accept_shown(self, seat: int, slot: int, key: object, claimed_card: object, verified: bool = False) -> None:
        self._deck_named(seat, slot).accept_shown(seat, slot, key, claimed_card, verified)

    def _deck_named(self, seat: int, slot: int) -> Deck | Reslot:
        """The round of a slot named in ``seat``'s message (an unknown slot is that seat's error)."""
        try:
            return self.deck_for(slot)
        except CardProtocolError as exc:
            raise CardProtocolError(seat, exc.reason) from None

    def secret_key(self, slot: int, ring: KeyRing) -> bytes:
        """The last secret key of ``slot`` as ``ring``'s seat holds it (own lock key or one handed over)."""
        deck = self.deck_for(slot)
        owner = deck.missing_owner(slot)
        if owner is None:
            raise CardProtocolError(ring.seat, f"slot {slot} is not held by anyone")
        if owner == ring.seat:
            if deck.round not in ring.rounds:
                raise CardProtocolError(ring.seat, f"no secrets for round {deck.round}")
            return deck.key_for(slot, ring.rounds[deck.round])
        if slot in ring.received:
            return ring.received[slot]
        raise CardProtocolError(ring.seat, f"seat {ring.seat} holds no key for slot {slot}")

    def open_own(self, slot: int, ring: KeyRing) -> int:
        """The card in a slot ``ring``'s seat holds."""
        return self.open_slot(slot, self.secret_key(slot, ring))

    def hand_keys_for(self, slots: Iterable[int], ring: KeyRing) -> dict[int, bytes]:
        """What a Hacker Attack target hands the attacker: the last secret key of each hand slot."""
        return {slot: self.secret_key(slot, ring) for slot in sorted(slots)}

    def check_delivery(self, source: int, keys: Mapping[int, object]) -> dict[int, int]:
        """The recipient's check of delivered keys: slot -> card, or an error naming ``source``.

        The recipient knows every other key of those slots (published at the
        draws), so each delivered key must open its slot to a card.
        """
        cards: dict[int, int] = {}
        if any(isinstance(slot, bool) or not isinstance(slot, int) for slot in keys):
            raise CardProtocolError(source, "delivered keys must be keyed by slot numbers")
        for slot, key in sorted(keys.items()):
            try:
                deck = self.deck_for(slot)
                if not is_scalar(key) or deck.missing_owner(slot) is None:
                    raise CardProtocolError(source, f"no valid key delivered for slot {slot!r}")
                cards[slot] = deck.open_slot(slot, key)
            except CardProtocolError as exc:
                raise CardProtocolError(source, f"delivered keys are false: {exc.reason}") from None
        return cards

    # -- leaving ------------------------------------------------------------------
    def departure_body(self, ring: KeyRing, dealing: Iterable[int] = ()) -> dict[str, Any]:
        """What a leaver publishes on leaving: the lock keys the table still needs from it, no more.

        That is its key of every slot still to be dealt (the undrawn deck; ``dealing``: slots
        being dealt to the leaver itself right now, whose key it keeps).  Each such slot stays
        locked by every other seat, so the keys open nothing.  Everything else (its scalars,
        permutations, the keys of the slots it drew, its re-slotting secrets) would open its
        hand, and, after a Hacker Attack took a card from it, the card now in the attacker's
        hand: a third seat that once saw the hand would read the take.  Those stay with the
        leaver's hand, face down, until the end of the game (the session escrows them).
        """
        keys = {}
        for deck, slot in self._owed_by(ring.seat, frozenset(dealing)):
            keys[slot] = deck.key_for(slot, ring.rounds[deck.round])
        return keys_to_body(keys)

    def _owed_by(self, seat: int, dealing: frozenset[int]) -> list[tuple[Deck, int]]:
        """(round, slot) of every slot still to be dealt whose key ``seat`` has not published."""
        return [
            (deck, slot)
            for deck in self.rounds
            if isinstance(deck, Deck) and seat in deck.participants and deck.phase == "ready"
            for slot in deck.slots
            if deck.dealt_to(slot) is None and slot not in dealing and seat not in deck.published_keys(slot)
        ]

    def accept_departure(self, seat: int, body: object, dealing: Iterable[int] = ()) -> None:
        """A seat leaves, publishing the keys the table needs (:meth:`departure_body`); play goes on.

        Checked at once: every key is a valid scalar for a slot still to be dealt, no key
        contradicts one the seat published before, and none is missing (a later draw would
        block).  Whether each key is *true* shows at the draw (the slot opens) and in the
        audit, once the leaver's secrets open at the end (:meth:`accept_late_secrets`).  Its
        hand stays face down: nothing published opens it.  An unfinished round must be
        abandoned first (:meth:`abandon_round`).
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise CardProtocolError(None, f"seat {seat!r} is not at the table")
        if seat in self.departed:
            raise CardProtocolError(seat, "this seat has already left")
        if any(deck.phase != "ready" for deck in self.rounds):
            raise CardProtocolError(None, "abandon the unfinished round before a seat leaves")
        keys = keys_from_body(seat, body)
        owed = {slot: deck for deck, slot in self._owed_by(seat, frozenset(dealing))}
        for slot in sorted(set(keys) - set(owed)):
            # Dealt since the notice was signed: to the leaver (its key is not stored: the card stays
            # face down), or to another seat with the key the leaver had already published.
            deck = self._deck_named(seat, slot)
            mine = isinstance(deck, Deck) and seat in deck.participants and deck.dealt_to(slot) == seat
            if not mine and deck.published_keys(slot).get(seat) != keys[slot]:
                raise CardProtocolError(seat, f"left with a key for slot {slot}, which is not one still to be dealt")
        missing = sorted(set(owed) - set(keys))
        if missing:
            raise CardProtocolError(seat, f"left without its key for slot {missing[0]}, still to be dealt")
        for slot, key in sorted(keys.items()):  # undealt, not yet published: accept_key cannot refuse now
            if slot in owed:
                owed[slot].accept_key(seat, slot, key)
        self.departed[seat] = {}

    def accept_late_secrets(self, seat: int, body: object) -> dict[int, SeatSecrets]:
        """A departed seat's full card secrets, opened at the end of the game: checked, then kept.

        Checked like a publication at the end, and against every key it published (at its
        draws and on leaving): a false one names it.
        """
        if self.departed.get(seat) != {}:
            raise CardProtocolError(None, f"seat {seat} did not leave with its secrets held back")
        by_round = self.secrets_from_body(seat, body)
        for round_index, secrets in by_round.items():
            reason = self.rounds[round_index].check_seat(seat, secrets)
            if reason is not None:
                raise CardProtocolError(seat, reason)
        self.departed[seat] = by_round
        return by_round

    def withheld(self) -> frozenset[int]:
        """Seats gone without their secrets: declared gone, or left with them not (yet) opened."""
        return frozenset(seat for seat, secrets in self.departed.items() if not secrets)

    def declare_gone(self, seat: int) -> None:
        """Every other seat declared ``seat`` gone: its keys are lost with it.

        Slots it had not unlocked can never be opened (see :meth:`blocked`);
        later rounds are shuffled without it.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise CardProtocolError(None, f"seat {seat!r} is not at the table")
        if seat in self.departed:
            raise CardProtocolError(seat, "this seat has already left")
        self.departed[seat] = None

    def gone(self) -> frozenset[int]:
        """Seats declared gone (their secrets will never be published)."""
        return frozenset(seat for seat, secrets in self.departed.items() if secrets is None)

    def blocked(self, slot: int) -> bool:
        """Whether ``slot`` can never be opened again: a gone seat's key for it was never published."""
        deck = self.deck_for(slot)
        published = deck.published_keys(slot)
        return any(seat in self.gone() and seat not in published for seat in deck.participants)

    # -- the end of the game ----------------------------------------------------
    def participation(self, seat: int) -> list[Deck | Reslot]:
        """The rounds ``seat`` takes part in."""
        return [deck for deck in self.rounds if seat in deck.participants]

    def secrets_body(self, ring: KeyRing) -> dict[str, Any]:
        """A seat's publication (end of game, or leaving): its secrets for every round it took part in."""
        decks = self.participation(ring.seat)
        missing = [deck.round for deck in decks if deck.round not in ring.rounds]
        if missing:
            raise CardProtocolError(ring.seat, f"no secrets for round {missing[0]}")
        return {"rounds": [secrets_to_body(ring.rounds[deck.round]) for deck in decks]}

    def secrets_from_body(self, seat: int, body: object) -> dict[int, SeatSecrets]:
        """Parse a seat's publication into round -> secrets; :class:`CardProtocolError` names the seat."""
        if not isinstance(body, Mapping) or set(body.keys()) != {"rounds"}:
            raise CardProtocolError(seat, "card secrets must have exactly the field rounds")
        rounds = body["rounds"]
        decks = self.participation(seat)
        if not isinstance(rounds, (list, tuple)) or len(rounds) != len(decks):
            raise CardProtocolError(seat, f"card secrets must cover all {len(decks)} rounds it took part in")
        return {deck.round: secrets_from_body(item, seat, deck.size) for item, deck in zip(rounds, decks, strict=True)}

    def _by_seat(
        self, deck: Deck | Reslot, secrets_by_seat: Mapping[int, Mapping[int, SeatSecrets]]
    ) -> dict[int, SeatSecrets]:
        out: dict[int, SeatSecrets] = {}
        for seat in deck.participants:
            rounds = secrets_by_seat.get(seat)
            if rounds is None:
                rounds = self.departed.get(seat)
            if rounds is not None and deck.round in rounds:
                out[seat] = rounds[deck.round]
        return out

    def audit(
        self,
        secrets_by_seat: Mapping[int, Mapping[int, SeatSecrets]],
        deliveries: Iterable[tuple[int, Mapping[int, bytes]]] = (),
    ) -> Verdict:
        """Re-check every round, then every private delivery: ``None`` or ``(seat, reason)``.

        ``secrets_by_seat`` maps each seat to its round -> secrets (as parsed by
        :meth:`secrets_from_body`); seats that left with their secrets opened need
        not be repeated, and seats gone without them (declared gone, or left with
        their escrow never opened) are skipped: every pass of theirs was proven on
        arrival, and every other seat is still checked.  ``deliveries`` are (source, {slot: key})
        as decrypted at the end with the revealed agreement keys; a delivered
        key that is not the slot's true last secret key names the source.
        """
        gone = self.withheld() - set(secrets_by_seat)
        for seat in range(self.seats):
            if seat in gone or seat in secrets_by_seat or self.departed.get(seat):
                continue
            if self.participation(seat):
                return seat, "did not publish its card secrets"
        for deck in self.rounds:
            by_seat = self._by_seat(deck, secrets_by_seat)
            verdict = deck.audit(by_seat, gone)
            if verdict is not None:
                return verdict
        for source, keys in deliveries:
            for slot, key in sorted(keys.items()):
                try:
                    deck = self.deck_for(slot)
                except CardProtocolError:
                    return source, f"delivered a key for slot {slot!r}, which belongs to no round"
                if not deck.audit_delivered_key(slot, key, self._by_seat(deck, secrets_by_seat)):
                    return source, f"delivered a false key for slot {slot}"
        return None

    def cards_by_slot(self, secrets_by_seat: Mapping[int, Mapping[int, SeatSecrets]]) -> dict[int, int]:
        """Every slot's card (full knowledge for the audit's replay of the game)."""
        out: dict[int, int] = {}
        for deck in self.rounds:  # in order: a re-slotting reads the cards of the slots it moved
            out.update(deck.cards_by_slot(self._by_seat(deck, secrets_by_seat), out))
        return out


def keys_to_body(keys: Mapping[int, bytes]) -> dict[str, Any]:
    """A private delivery's plaintext body: ``{"keys": [[slot, key], ...]}`` sorted by slot."""
    return {"keys": [[slot, key] for slot, key in sorted(keys.items())]}


def keys_from_body(source: int, body: object) -> dict[int, bytes]:
    """Parse a delivery body; malformed input names ``source``."""
    if not isinstance(body, Mapping) or set(body.keys()) != {"keys"} or not isinstance(body["keys"], (list, tuple)):
        raise CardProtocolError(source, "a key delivery must have exactly the field keys (a list)")
    out: dict[int, bytes] = {}
    for item in body["keys"]:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise CardProtocolError(source, "each delivered key is a [slot, key] pair")
        slot, key = item
        if isinstance(slot, bool) or not isinstance(slot, int) or slot in out or not is_scalar(key):
            raise CardProtocolError(source, "a delivered [slot, key] pair is malformed or repeated")
        out[slot] = key
    return out
