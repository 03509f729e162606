"""An in-memory table where one process plays every seat's part of the card protocol.

Each seat gets its *own* :class:`CardLedger` replica and :class:`KeyRing`, and
every public body is "broadcast" by having every replica accept it, exactly as
peers on the relay would (pass bodies go through msgpack on the way).  Tests
and the benchmark use it; a real peer drives the same calls from its session.

An optional ``clock`` (e.g. ``time.process_time``) charges each seat's own
work — making its passes and keys, and checking everything it receives on its
replica — to ``cpu[seat]``, which is what "CPU per peer" means.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from engines.core import SeededStream, canonical_encode, decode
from protocol.cards.deck import Verdict
from protocol.cards.ledger import CardLedger, KeyRing, keys_from_body, keys_to_body
from protocol.cards.seat_secrets import SeatSecrets
from protocol.crypto.entropy import Entropy
from protocol.crypto.private import AgreementKey, delivery_context, open_sealed, seal


class Rehearsal:
    """Every seat of one game, each with its own replica, keys and entropy."""

    def __init__(
        self,
        room: str,
        seats: int,
        entropy: Sequence[Entropy] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.room = room
        self.seats = seats
        self.entropy = list(entropy) if entropy is not None else [SeededStream(room, f"seat/{s}") for s in range(seats)]
        self.ledgers = [CardLedger(room, seats) for _ in range(seats)]
        self.rings = [KeyRing(s) for s in range(seats)]
        self.agreement = [AgreementKey.generate(self.entropy[s].token(32)) for s in range(seats)]
        self.clock = clock
        self.cpu = [0.0] * seats
        self.sequence = 0
        self.last_delivery: tuple[int, dict[int, bytes]] = (-1, {})
        #: Seats that left (their hands face down until :meth:`open_left`).
        self.left: list[int] = []

    @contextmanager
    def _charge(self, seat: int) -> Iterator[None]:
        start = self.clock() if self.clock else 0.0
        try:
            yield
        finally:
            if self.clock:
                self.cpu[seat] += self.clock() - start

    def _broadcast(self, accept: Callable[[CardLedger], None]) -> None:
        for seat in self.active():
            with self._charge(seat):
                accept(self.ledgers[seat])

    # -- a shuffle round ---------------------------------------------------------
    def shuffle(self, cards: Sequence[int], slots: Sequence[int]) -> None:
        """One full round: every replica opens it, then each seat's shuffle pass, then each lock pass."""
        for seat in self.active():
            with self._charge(seat):
                deck = self.ledgers[seat].open_round(cards, slots)
                self.rings[seat].new_round(deck, self.entropy[seat])
        for maker in ("make_shuffle_pass", "make_lock_pass"):
            for seat in self.ledgers[self.active()[0]].rounds[-1].participants:
                with self._charge(seat):
                    last = self.ledgers[seat].rounds[-1]
                    wire = canonical_encode(getattr(last, maker)(self.rings[seat].rounds[last.round]))

                def accept_pass(ledger: CardLedger, seat: int = seat, wire: bytes = wire) -> None:
                    ledger.accept_pass(seat, decode(wire))

                self._broadcast(accept_pass)

    def active(self) -> list[int]:
        """Seats still at the table."""
        return [seat for seat in range(self.seats) if seat not in self.ledgers[seat].departed]

    # -- draws, shows and private deliveries ---------------------------------------
    def draw(self, slot: int, seat: int) -> int:
        """Deal ``slot`` to ``seat``: the others publish their keys; ``seat`` opens it."""
        self._broadcast(lambda ledger: ledger.deal(slot, seat))
        for other in self.active():
            if other == seat or other in self.ledgers[seat].deck_for(slot).published_keys(slot):
                continue
            with self._charge(other):
                key = self.ledgers[other].deck_for(slot).key_for(slot, self.rings[other].rounds[self.round_of(slot)])

            def accept_key(ledger: CardLedger, other: int = other, key: bytes = key) -> None:
                ledger.accept_key(other, slot, key)

            self._broadcast(accept_key)
        with self._charge(seat):
            return self.ledgers[seat].open_own(slot, self.rings[seat])

    def show(self, seat: int, slot: int, card: int) -> None:
        """``seat`` shows ``slot`` as ``card``; every replica checks it."""
        with self._charge(seat):
            key = self.ledgers[seat].secret_key(slot, self.rings[seat])
        self._broadcast(lambda ledger: ledger.accept_shown(seat, slot, key, card))

    def hack(self, target: int, attacker: int, slots: Iterable[int]) -> dict[int, int]:
        """Hacker Attack: ``target`` seals its hand keys to ``attacker``, who checks and reads them."""
        self.sequence += 1
        context = delivery_context(self.room, target, attacker, self.sequence)
        with self._charge(target):
            keys = self.ledgers[target].hand_keys_for(slots, self.rings[target])
            sealed = seal(
                self.agreement[target],
                self.agreement[attacker].public_bytes(),
                context,
                canonical_encode(keys_to_body(keys)),
                self.entropy[target].token,
            )
        with self._charge(attacker):
            body = decode(open_sealed(self.agreement[attacker], self.agreement[target].public_bytes(), context, sealed))
            delivered = keys_from_body(target, body)
            cards = self.ledgers[attacker].check_delivery(target, delivered)
            self.last_delivery = (target, delivered)
        return cards

    def take(self, attacker: int, slot: int) -> None:
        """The attacker keeps the delivered key of the slot it took."""
        self.rings[attacker].learn(slot, self.last_delivery[1][slot])

    # -- leaving -------------------------------------------------------------------
    def leave(self, seat: int) -> None:
        """``seat`` leaves, publishing the keys still needed from it; every other replica checks them."""
        wire = canonical_encode(self.ledgers[seat].departure_body(self.rings[seat]))
        for other in self.active():
            if other != seat:
                with self._charge(other):
                    self.ledgers[other].accept_departure(seat, decode(wire))
        self.ledgers[seat].departed[seat] = {}  # the leaver's own replica stops here
        self.left.append(seat)

    def open_left(self, seat: int) -> None:
        """At the end, a leaver's held-back secrets open (in a game: from its escrow); every replica checks them."""
        wire = canonical_encode(self.ledgers[seat].secrets_body(self.rings[seat]))
        for other in self.active():
            with self._charge(other):
                self.ledgers[other].accept_late_secrets(seat, decode(wire))

    def declare_gone(self, seat: int) -> None:
        """Everyone else declares ``seat`` gone (its keys are lost)."""
        for other in self.active():
            if other != seat:
                self.ledgers[other].declare_gone(seat)
        self.ledgers[seat].departed[seat] = None

    # -- the end ---------------------------------------------------------------------
    def publish_secrets(self) -> dict[int, dict[int, SeatSecrets]]:
        """The end-of-game publication of every seat still at the table, parsed back as every peer would."""
        reader = self.ledgers[self.active()[0]]
        out = {}
        for seat in self.active():
            wire = canonical_encode(self.ledgers[seat].secrets_body(self.rings[seat]))
            out[seat] = reader.secrets_from_body(seat, decode(wire))
        return out

    def audit(self, seat: int = 0, deliveries: Iterable[tuple[int, Mapping[int, bytes]]] = ()) -> Verdict:
        """The audit as run on ``seat``'s replica."""
        secrets = self.publish_secrets()
        with self._charge(seat):
            return self.ledgers[seat].audit(secrets, deliveries)

    def round_of(self, slot: int) -> int:
        return self.ledgers[self.active()[0]].deck_for(slot).round
