"""A full honest game of cards among four seats, each with its own replica."""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.cards import CardProtocolError
from protocol.cards.rehearsal import Rehearsal

SEATS = 4
CARDS = list(range(44))


@pytest.fixture
def table() -> Rehearsal:
    t = Rehearsal("room-rt", SEATS, [SeededStream(b"roundtrip", f"seat/{s}") for s in range(SEATS)])
    t.shuffle(CARDS, list(range(100, 144)))
    return t


def deal_hands(t: Rehearsal, per_seat: int = 4) -> dict[int, dict[int, int]]:
    hands: dict[int, dict[int, int]] = {s: {} for s in range(SEATS)}
    slot = 100
    for _ in range(per_seat):
        for seat in range(SEATS):
            hands[seat][slot] = t.draw(slot, seat)
            slot += 1
    return hands


def test_every_replica_agrees_on_every_pass(table):
    first = table.ledgers[0].rounds[0]
    assert first.phase == "ready"
    for ledger in table.ledgers[1:]:
        assert ledger.rounds[0].shuffles == first.shuffles
        assert ledger.rounds[0].locks == first.locks


def test_a_full_game_of_cards_audits_fair(table):
    hands = deal_hands(table)
    drawn = [c for hand in hands.values() for c in hand.values()]
    assert len(set(drawn)) == 16 and set(drawn) <= set(CARDS)

    # Seat 0 discards (shows) a card: every replica checks it and learns it.
    slot0, card0 = next(iter(hands[0].items()))
    table.show(0, slot0, card0)
    assert all(ledger.deck_for(slot0).shown(slot0) == card0 for ledger in table.ledgers)

    # Hacker Attack: seat 2 sees seat 1's hand through a sealed delivery, and takes one card.
    seen = table.hack(1, 2, hands[1].keys())
    assert seen == hands[1]
    taken_slot, taken_card = sorted(hands[1].items())[0]
    table.take(2, taken_slot)
    delivery = table.last_delivery
    # Later seat 2 shows (discards) the taken card with the key seat 1 handed over.
    table.show(2, taken_slot, taken_card)
    assert table.ledgers[3].deck_for(taken_slot).shown(taken_slot) == taken_card

    # Reshuffle the two discards into fresh slots and draw one from the new round.
    table.shuffle([card0, taken_card], [200, 201])
    fresh = table.draw(200, 3)
    assert fresh in (card0, taken_card)

    secrets = table.publish_secrets()
    for seat in range(SEATS):
        assert table.ledgers[seat].audit(secrets, [delivery]) is None
    truth = table.ledgers[0].cards_by_slot(secrets)
    for hand in hands.values():
        for slot, card in hand.items():
            assert truth[slot] == card
    assert truth[200] == fresh
    assert sorted(truth[s] for s in range(100, 144)) == CARDS


def test_only_the_receiver_can_open_a_drawn_slot(table):
    hands = deal_hands(table, 1)
    slot = next(iter(hands[1]))
    for seat in (0, 2, 3):
        own = table.ledgers[seat].deck_for(slot).key_for(slot, table.rings[seat].rounds[0])
        with pytest.raises(CardProtocolError):
            table.ledgers[seat].open_slot(slot, own)
        with pytest.raises(CardProtocolError):
            table.ledgers[seat].secret_key(slot, table.rings[seat])


def test_an_undrawn_slot_cannot_be_opened_or_shown(table):
    ledger = table.ledgers[0]
    key = ledger.deck_for(143).key_for(143, table.rings[0].rounds[0])
    with pytest.raises(CardProtocolError):
        ledger.open_slot(143, key)
    assert not ledger.verify_shown(143, key, 0)
    with pytest.raises(CardProtocolError) as err:
        ledger.accept_shown(0, 143, key, 0)
    assert err.value.seat == 0


def test_a_slot_whose_every_key_is_public_opens_for_everyone(table):
    ledger = table.ledgers[0]
    assert ledger.deck_for(140).public_card(140) is None
    for seat in range(SEATS):
        key = ledger.deck_for(140).key_for(140, table.rings[seat].rounds[0])
        for replica in table.ledgers:
            replica.accept_key(seat, 140, key)
    cards = {replica.deck_for(140).public_card(140) for replica in table.ledgers}
    assert len(cards) == 1 and cards.pop() in CARDS


def test_a_reshuffle_needs_fresh_slots(table):
    with pytest.raises(ValueError):
        table.ledgers[0].open_round([1, 2], [100, 300])
