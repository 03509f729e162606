"""SL-10: a Hacker Attack take is hidden from a third seat that once saw the hand.

Over the simulator (every peer a real session, every card move a proven re-slotting): in this
seeded 4-seat game seat 0 receives seat 2's hand in its own Hacker Attack, and later seat 1
attacks seat 2 and takes a card.  Were the take to name a slot whose key seat 0 had been
handed, seat 0 would know the card (and its client would draw it face up).  So the hand moves to
fresh, re-keyed slots as it is shown, and the slot taken was never delivered to seat 0.
"""

from __future__ import annotations

from functools import lru_cache

from engines.core import decode
from protocol.cards import keys_from_body
from protocol.crypto.private import delivery_context, open_with_delivery_key
from protocol.envelope import parse
from protocol.session import PeerSession
from protocol.sim.network import play

SEED = b"sl10/1"


class Curious(PeerSession):
    """An honest seat that, when it takes, takes a card another seat was shown (if it can name one).

    It follows the public log: the slots of each hand shown to a seat other than itself.  Before
    SL-10 those slots stayed the target's, so the taken card was one a third seat knew.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown_to_others: dict[int, set[int]] = {}

    def delivered(self, table, env, source, target) -> None:
        super().delivered(table, env, source, target)
        if target != self.seat:
            self.shown_to_others.setdefault(source, set()).update(table.state.hands[source])

    def submit(self, action, **kwargs):
        if action and action[0] in ("take", "take-none") and self.table is not None:
            target = self.table.state.target
            seen = [("take", s) for s in self.table.state.hands[target] if s in self.shown_to_others.get(target, ())]
            if seen:
                action = seen[0]
        return super().submit(action, **kwargs)


@lru_cache(maxsize=1)
def curious_game():
    """One seeded game for both tests (a 4-seat game with proofs takes seconds)."""
    return play("system-launch", 4, SEED, cheater=0, classes={1: Curious, 2: Curious, 3: Curious})


def test_the_slot_taken_was_never_shown_to_a_third_seat():
    run = curious_game()
    assert run.agreed() == "fair"
    observer = PeerSession.observe(parse(run.log[0]).room)
    for data in run.log:
        observer.receive(data, 0)
    table = observer.table
    assert table is not None
    delivered: list[tuple[int, int, int, set[int]]] = []  # seq, source, recipient, slots whose keys it got
    for seq, source, target, box in table.deliveries:
        key = table.published[source]["deliveries"][seq]  # the one key the source published for this box
        context = delivery_context(table.room, source, target, seq)
        plain = open_with_delivery_key(key, table.seats[source].box, table.seats[target].box, context, box)
        delivered.append((seq, source, target, set(keys_from_body(source, decode(plain)))))
    checked = 0
    for seq, attacker, action in table.pushes:
        if action is None or action[0] != "take":
            continue
        source = max((d for d in delivered if d[0] < seq), key=lambda d: d[0])[1]
        for _, src, third, slots in (d for d in delivered if d[0] < seq):
            if src == source and third not in (attacker, source):
                assert action[1] not in slots, (seq, attacker, source, third)
                checked += 1
    assert checked > 0  # the seed gives the situation (a third seat had seen the target's hand)


def test_a_target_rebuilt_from_the_log_still_knows_its_moved_hand():
    """A restarted peer reads its own re-slotting back and derives the same secrets again."""
    from engines.core import SeededStream
    from protocol.crypto.signing import SigningKey

    run = curious_game()
    room = parse(run.log[0]).room
    key = SigningKey.generate(SeededStream(SEED, "sign/2").token(32))
    secret = SeededStream(SEED, "secret/2").token(32)
    rebuilt = PeerSession.join(room, 2, key, secret)
    for data in run.log:
        rebuilt.receive(data, 0)
    table = rebuilt.table
    assert table is not None and rebuilt.verdict is not None and rebuilt.verdict.fair
    moved = [r for r in table.ledger.rounds if getattr(r, "source", None) == 2]
    assert moved, "seat 2's hand was shown in this game"
    for reslot in moved:
        assert reslot.round in rebuilt.ring.rounds
        for slot in reslot.slots:
            if reslot.missing_owner(slot) == 2 and slot not in rebuilt.ring.received:
                assert table.ledger.open_own(slot, rebuilt.ring) == table.ledger.cards_by_slot(table.card_secrets)[slot]
