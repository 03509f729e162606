"""A seat's secrets: the same secret derives the same of everything, and what is sealed opens for its target only."""

from __future__ import annotations

import pytest

from protocol.crypto.private import SealError, delivery_context
from protocol.session.secrets import OwnSecrets, agreement_key
from tests.protocol.helpers import seat_keys
from tests.protocol.session.parts import table_of


def test_a_restarted_seat_derives_the_same_shares_keys_and_streams():
    secret = seat_keys(b"parts", 3)[1][1]
    one, again = OwnSecrets("room", 1, secret), OwnSecrets("room", 1, secret)
    assert one.share("seed") == again.share("seed") != one.share("chance/1")
    assert one.stream("salt/3/1").token(32) == again.stream("salt/3/1").token(32)
    assert one.box is not None and again.box is not None
    assert one.box.public_bytes() == again.box.public_bytes() == agreement_key(secret).public_bytes()
    assert OwnSecrets("room", None, None).box is None  # an observer holds no key


def test_what_a_seat_seals_to_another_opens_for_that_seat_alone():
    table, _keys = table_of()
    secrets = seat_keys(b"parts", 3)[1]
    sender, target, third = (OwnSecrets(table.room, s, secrets[s]) for s in range(3))
    sealed = sender.seal_to(table, 1, 9, b"hand")
    assert sealed == sender.seal_to(table, 1, 9, b"hand")  # a synthetic nonce: the same input, the same box
    assert target.open_from(table, 0, delivery_context(table.room, 0, 1, 9), sealed) == b"hand"
    with pytest.raises(SealError):
        third.open_from(table, 0, delivery_context(table.room, 0, 1, 9), sealed)
    assert set(sender.delivery_keys(table)) == set()  # no delivery sent at this table yet


def test_dealt_cards_wait_to_be_opened():
    secrets = OwnSecrets("room", 0, seat_keys(b"parts", 1)[1][0])
    assert secrets.to_open == ()
    secrets.open_all(None)  # nothing dealt: nothing to open, no table needed
