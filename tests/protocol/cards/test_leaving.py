"""Seats that leave (publishing the keys still needed from them) or are declared gone (taking their keys with them)."""

from __future__ import annotations

import pytest

from engines.core import SeededStream, canonical_encode, decode
from protocol.cards import CardProtocolError, secrets_to_body
from protocol.cards.rehearsal import Rehearsal
from protocol.crypto.group import scalar_from

SEATS = 4


def table_with_hands(per_seat: int = 2) -> tuple[Rehearsal, dict[int, dict[int, int]]]:
    t = Rehearsal("room-leave", SEATS, [SeededStream(b"leaving", f"seat/{s}") for s in range(SEATS)])
    t.shuffle(list(range(20)), list(range(20)))
    hands: dict[int, dict[int, int]] = {s: {} for s in range(SEATS)}
    slot = 0
    for _ in range(per_seat):
        for seat in range(SEATS):
            hands[seat][slot] = t.draw(slot, seat)
            slot += 1
    return t, hands


def test_after_a_seat_leaves_the_others_play_on_with_their_secrets_intact():
    t, hands = table_with_hands()
    t.leave(2)
    ledger = t.ledgers[0]
    assert set(ledger.departed) == {2}
    # Every hand stays private, the leaver's too (set aside face down: SL section 7).
    for slot in hands[2]:
        assert ledger.deck_for(slot).public_card(slot) is None
    assert ledger.withheld() == {2}
    for seat in (0, 1, 3):
        for slot, card in hands[seat].items():
            assert ledger.deck_for(slot).public_card(slot) is None
            assert t.ledgers[seat].open_own(slot, t.rings[seat]) == card
    # Draws go on among three seats; a non-receiver still cannot open the slot.
    card = t.draw(10, 1)
    own = ledger.deck_for(10).key_for(10, t.rings[0].rounds[0])
    with pytest.raises(CardProtocolError):
        ledger.open_slot(10, own)
    # A reshuffle is among the three who stayed.
    t.show(1, 10, card)
    t.shuffle([card], [100])
    assert ledger.deck_for(100).participants == (0, 1, 3)
    assert t.draw(100, 3) == card
    secrets = t.publish_secrets()
    assert set(secrets) == {0, 1, 3}
    assert ledger.audit(secrets) is None  # the leaver's held-back secrets are skipped, the rest checked
    t.open_left(2)  # at the end they open: the audit checks the leaver's passes and keys too
    assert ledger.withheld() == set()
    assert ledger.audit(secrets) is None
    every = ledger.cards_by_slot(secrets)
    assert every[10] == card and all(every[slot] == c for slot, c in hands[2].items())


def test_a_leaver_publishing_false_keys_or_secrets_is_named_and_nothing_changes():
    t, hands = table_with_hands()
    ledger = t.ledgers[0]
    body = decode(canonical_encode(ledger.departure_body(t.rings[2])))
    assert {slot for slot, _ in body["keys"]} == set(range(8, 20))  # the undrawn deck only
    false = scalar_from(SeededStream(b"false").token(64))
    before = {slot: ledger.deck_for(slot).published_keys(slot) for slot in range(20)}
    for bad in (
        {"keys": [*body["keys"], [0, false]]},  # slot 0 went to seat 0: seat 2 published its key then
        {"keys": body["keys"][1:]},  # a key of the undrawn deck missing: a later draw would block
        {"rounds": []},
    ):
        with pytest.raises(CardProtocolError) as err:
            ledger.accept_departure(2, bad)
        assert err.value.seat == 2
        assert ledger.departed == {}
        assert {slot: ledger.deck_for(slot).published_keys(slot) for slot in range(20)} == before
    with pytest.raises(CardProtocolError):
        ledger.accept_departure(9, body)
    own = min(hands[2])  # a key of its own hand (dealt after it signed its notice) is not stored
    ledger.accept_departure(2, {"keys": [*body["keys"], [own, t.ledgers[2].secret_key(own, t.rings[2])]]})
    assert ledger.deck_for(own).public_card(own) is None
    with pytest.raises(CardProtocolError):
        ledger.accept_departure(2, body)
    # At the end, its secrets must follow every key it published, on leaving too.
    full = decode(canonical_encode(ledger.secrets_body(t.rings[2])))
    keys = list(full["rounds"][0]["keys"])
    keys[19] = false
    with pytest.raises(CardProtocolError) as err:
        ledger.accept_late_secrets(2, {"rounds": [{**full["rounds"][0], "keys": keys}]})
    assert err.value.seat == 2 and ledger.withheld() == {2}
    ledger.accept_late_secrets(2, full)
    assert ledger.withheld() == set()


def test_a_gone_seat_blocks_what_it_never_unlocked_and_the_audit_still_checks_the_rest():
    t, hands = table_with_hands()
    t.declare_gone(3)
    ledger = t.ledgers[0]
    assert ledger.gone() == {3}
    assert ledger.blocked(19)  # never drawn: seat 3's key is lost
    assert all(ledger.blocked(slot) for slot in hands[3])  # in the gone seat's hand
    assert not any(ledger.blocked(slot) for slot in hands[0])
    for slot, card in hands[1].items():
        t.show(1, slot, card)
    t.shuffle(list(hands[1].values()), [50, 51])
    assert ledger.deck_for(50).participants == (0, 1, 2)
    t.draw(50, 0)
    secrets = t.publish_secrets()
    assert set(secrets) == {0, 1, 2}
    assert ledger.audit(secrets) is None
    # A cheater among those who stayed is still named though seat 3 never published.
    ledger.accept_key(2, 19, scalar_from(SeededStream(b"lie").token(64)))
    assert ledger.audit(secrets)[0] == 2


def test_a_seat_that_never_published_is_named_unless_declared_gone():
    t, _ = table_with_hands(1)
    secrets = t.publish_secrets()
    del secrets[1]
    assert t.ledgers[0].audit(secrets) == (1, "did not publish its card secrets")


def test_an_unfinished_round_is_abandoned_and_run_again_without_the_leaver():
    t, _ = table_with_hands(1)
    ledger = t.ledgers[0]
    deck = ledger.open_round([1, 2, 3], [60, 61, 62])
    t.rings[0].new_round(deck, t.entropy[0])
    ledger.accept_pass(0, deck.make_shuffle_pass(t.rings[0].rounds[deck.round]))
    with pytest.raises(CardProtocolError):
        ledger.accept_departure(1, {"rounds": [secrets_to_body(t.rings[1].rounds[0])]})
    assert ledger.abandon_round() is deck
    with pytest.raises(ValueError):
        ledger.abandon_round()  # the remaining last round is complete
    ledger.declare_gone(1)
    again = ledger.open_round([1, 2, 3], [60, 61, 62])
    assert again.round == deck.round and again.participants == (0, 2, 3)
    with pytest.raises(CardProtocolError):
        ledger.declare_gone(1)
    with pytest.raises(CardProtocolError):
        ledger.declare_gone(7)
