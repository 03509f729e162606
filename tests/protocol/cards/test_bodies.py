"""End-of-game secrets and private key deliveries: parsing, validation, and the delivery audit."""

from __future__ import annotations

import pytest

from engines.core import SeededStream, canonical_encode, decode
from protocol.cards import (
    CardProtocolError,
    SeatSecrets,
    keys_from_body,
    keys_to_body,
    secrets_from_body,
    secrets_to_body,
)
from protocol.cards.rehearsal import Rehearsal
from protocol.crypto.group import L, scalar_from

STREAM = SeededStream(b"bodies-tests")


def test_secrets_round_trip_through_msgpack_and_hide_in_repr():
    secrets = SeatSecrets.generate(2, 6, STREAM)
    again = secrets_from_body(decode(canonical_encode(secrets_to_body(secrets))), 2, 6)
    assert again == secrets
    assert sorted(secrets.permutation) == list(range(6))
    assert secrets.scalar.hex() not in repr(secrets)
    with pytest.raises(ValueError):
        SeatSecrets.generate(0, 0, STREAM)


def bad_secret_bodies() -> list:
    good = secrets_to_body(SeatSecrets.generate(1, 4, STREAM))
    return [
        None,
        {**good, "extra": 0},
        {**good, "seat": 2},
        {**good, "seat": True},
        {**good, "scalar": bytes(32)},
        {**good, "scalar": L.to_bytes(32, "little")},
        {**good, "permutation": [0, 1, 2]},
        {**good, "permutation": [0, 1, 2, 2]},
        {**good, "permutation": [0, 1, 2, 4]},
        {**good, "permutation": [0, 1, 2, True]},
        {**good, "permutation": "0123"},
        {**good, "keys": good["keys"][:3]},
        {**good, "keys": [*good["keys"][:3], b"\x00" * 32]},
        {**good, "keys": None},
    ]


@pytest.mark.parametrize("case", range(14))
def test_malformed_secret_publications_name_their_seat(case):
    with pytest.raises(CardProtocolError) as err:
        secrets_from_body(bad_secret_bodies()[case], 1, 4)
    assert err.value.seat == 1


def test_key_deliveries_round_trip_and_refuse_malformed_bodies():
    keys = {7: scalar_from(STREAM.token(64)), 3: scalar_from(STREAM.token(64))}
    assert keys_from_body(5, decode(canonical_encode(keys_to_body(keys)))) == keys
    k = keys[7]
    for bad in (None, {"keys": 1}, {"keys": [[1]]}, {"keys": [[1, k], [1, k]]}, {"keys": [[1, b"x"]]}, {"k": []}):
        with pytest.raises(CardProtocolError) as err:
            keys_from_body(5, bad)
        assert err.value.seat == 5


def test_a_false_hand_delivery_is_caught_by_the_attacker_and_named_by_the_audit():
    t = Rehearsal("room-deliver", 3)
    t.shuffle(list(range(10)), list(range(10)))
    hand = {slot: t.draw(slot, 1) for slot in (0, 1, 2)}
    ledger = t.ledgers[2]
    honest = ledger.hand_keys_for(hand, t.rings[1])
    assert ledger.check_delivery(1, honest) == hand
    false = {**honest, 1: scalar_from(STREAM.token(64))}
    for bad in (false, {**honest, 9: honest[0]}, {**honest, 0: b"junk"}, {99: honest[0]}):
        with pytest.raises(CardProtocolError) as err:
            ledger.check_delivery(1, bad)
        assert err.value.seat == 1
    secrets = t.publish_secrets()
    assert ledger.audit(secrets, [(1, honest)]) is None
    assert ledger.audit(secrets, [(1, false)])[0] == 1
    assert ledger.audit(secrets, [(1, {99: honest[0]})])[0] == 1


def test_a_seat_cannot_hand_over_keys_it_does_not_hold():
    t = Rehearsal("room-deliver", 3)
    t.shuffle(list(range(6)), list(range(6)))
    t.draw(0, 1)
    with pytest.raises(CardProtocolError) as err:
        t.ledgers[2].hand_keys_for([0], t.rings[2])
    assert err.value.seat == 2


def test_the_ledger_refuses_malformed_or_incomplete_publications():
    t = Rehearsal("room-pub", 2)
    t.shuffle([1, 2, 3], [0, 1, 2])
    t.shuffle([4], [3])
    ledger = t.ledgers[0]
    body = ledger.secrets_body(t.rings[1])
    assert len(ledger.secrets_from_body(1, body)) == 2
    for bad in (None, {"rounds": body["rounds"][:1]}, {**body, "x": 1}, {"rounds": "ab"}):
        with pytest.raises(CardProtocolError) as err:
            ledger.secrets_from_body(1, bad)
        assert err.value.seat == 1
    secrets = t.publish_secrets()
    assert ledger.audit(secrets) is None
    assert ledger.audit({0: secrets[0], 1: {0: secrets[1][0]}})[0] == 1


def test_a_key_passed_on_from_a_seat_later_declared_gone_is_not_called_false():
    """Seat 2 hands its hand to seat 1 (Hacker Attack), seat 1 takes a card; seat 0 then attacks
    seat 1, who passes that card's key on; seat 2 is declared gone and never publishes its secrets.
    The audit must not name seat 1 for the key it passed on, and must still name a false one."""
    t = Rehearsal("room-gone-deliver", 3)
    t.shuffle(list(range(10)), list(range(10)))
    hand2 = {slot: t.draw(slot, 2) for slot in (0, 1)}
    t.draw(2, 1)
    assert t.hack(target=2, attacker=1, slots=hand2) == hand2
    t.take(1, 0)  # seat 1 keeps slot 0 with seat 2's key
    passed = t.ledgers[1].hand_keys_for([0, 2], t.rings[1])
    assert t.ledgers[0].check_delivery(1, passed) == {0: hand2[0], 2: t.ledgers[1].open_own(2, t.rings[1])}
    t.declare_gone(2)
    false = {**passed, 0: scalar_from(STREAM.token(64))}
    assert t.audit(0, [(1, passed)]) is None
    assert t.audit(0, [(1, false)]) == (1, "delivered a false key for slot 0")
    t.show(1, 0, hand2[0])  # the card is shown later: the owner's key is public, checked by the show
    assert t.audit(0, [(1, passed)]) is None
    assert t.audit(0, [(1, false)]) == (1, "delivered a false key for slot 0")
