"""Moving a shown hand to fresh slots (SL-10) on the card ledger: proven, openable, audited."""

from __future__ import annotations

import pytest

from engines.core import SeededStream, canonical_encode, decode
from protocol.cards import CardProtocolError
from protocol.cards.rehearsal import Rehearsal
from protocol.crypto.group import card_element, mul

SEATS, N = 3, 10


def dealt() -> tuple[Rehearsal, list[int], dict[int, int]]:
    table = Rehearsal("room-reslot", SEATS)
    table.shuffle(list(range(N)), list(range(N)))
    hand = [0, 1, 2]
    cards = {slot: table.draw(slot, 1) for slot in hand}
    return table, hand, cards


def reslot(table: Rehearsal, hand: list[int], fresh: list[int], tamper=None):
    """Seat 1 moves its hand; every replica accepts the (msgpack round-tripped) pass."""
    ledger, ring = table.ledgers[1], table.rings[1]
    preview = ledger.preview_reslot(1, hand, fresh)
    held = [ledger.secret_key(slot, ring) for slot in hand]
    secrets = ring.new_reslot(preview, held, SeededStream(b"reslot", "seat/1"))
    body = decode(canonical_encode(ledger.make_reslot_pass(preview, secrets)))
    if tamper is not None:
        tamper(body, secrets)
    for seat in range(SEATS):
        table.ledgers[seat].accept_reslot(1, hand, fresh, body)
    return secrets


def test_a_moved_hand_opens_for_its_holder_and_the_attacker_and_audits_fair():
    table, hand, cards = dealt()
    fresh = [100, 101, 102]
    secrets = reslot(table, hand, fresh)
    ledger = table.ledgers[1]
    moved = {slot: ledger.open_own(slot, table.rings[1]) for slot in fresh}
    assert sorted(moved.values()) == sorted(cards.values())
    keys = {slot: secrets.keys[m] for m, slot in enumerate(fresh)}
    assert table.ledgers[0].check_delivery(1, keys) == moved  # the attacker opens them with the delivered keys
    table.rings[0].learn(101, keys[101])
    table.show(0, 101, moved[101])  # the attacker took slot 101 and shows it later
    assert table.audit(0, deliveries=[(1, keys)]) is None
    truth = table.ledgers[2].cards_by_slot(table.publish_secrets())
    assert all(truth[slot] == moved[slot] for slot in fresh)


def test_a_card_swapped_in_while_moving_the_hand_is_refused_naming_the_target():
    table, hand, cards = dealt()
    stranger = next(c for c in range(N) if c not in cards.values())

    def swap(body, secrets):
        body["elements"] = [mul(card_element("room-reslot", stranger), secrets.keys[0]), *body["elements"][1:]]

    with pytest.raises(CardProtocolError) as err:
        reslot(table, hand, [100, 101, 102], swap)
    assert err.value.seat == 1 and "re-slotting" in err.value.reason
    assert all(len(ledger.rounds) == 1 for ledger in table.ledgers)  # nothing changed


@pytest.mark.parametrize("fresh", [[5, 101, 102], [100, 100, 102], [100, 101]])
def test_fresh_slots_must_be_new_distinct_and_as_many(fresh):
    table, hand, _ = dealt()
    with pytest.raises(CardProtocolError):
        table.ledgers[2].accept_reslot(1, hand, fresh, {"elements": [], "proof": {}})


def test_a_moved_slot_is_never_dealt_and_takes_no_draw_key():
    table, hand, _ = dealt()
    reslot(table, hand, [100, 101, 102])
    deck = table.ledgers[2].deck_for(100)
    with pytest.raises(CardProtocolError):
        deck.deal(100, 2)
    with pytest.raises(CardProtocolError):
        table.ledgers[2].accept_key(0, 100, bytes(31) + b"\x01")
