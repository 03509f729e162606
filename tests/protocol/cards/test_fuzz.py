"""Hostile bodies into every entry point: only CardProtocolError comes out, and nothing changes."""

from __future__ import annotations

import copy
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import SeededStream
from protocol.cards import CardProtocolError, keys_from_body
from protocol.cards.rehearsal import Rehearsal

EXAMPLES = int(os.environ.get("CARDS_FUZZ_EXAMPLES", "40"))

leaf = st.none() | st.booleans() | st.integers(-3, 50) | st.binary(max_size=40) | st.text(max_size=6)
junk = st.recursive(
    leaf | st.binary(min_size=32, max_size=32),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(["round", "kind", "elements", "keys", "rounds", "seat", "scalar", "permutation", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def table() -> Rehearsal:
    t = Rehearsal("room-fuzz", 3, [SeededStream(b"fuzz", f"seat/{s}") for s in range(3)])
    t.shuffle(list(range(6)), list(range(6)))
    t.draw(0, 1)
    return t


TABLE = table()


def state(ledger) -> tuple:
    deck = ledger.rounds[0]
    return copy.deepcopy(
        (len(ledger.rounds), deck.shuffles, deck.locks, deck._keys, deck._dealt, deck._shown, dict(ledger.departed))
    )


@settings(max_examples=EXAMPLES, deadline=None)
@given(seat=st.integers(-1, 4) | st.booleans(), slot=junk, body=junk, card=junk)
def test_hostile_input_raises_only_card_protocol_errors_and_changes_nothing(seat, slot, body, card):
    calls = [
        lambda ledger: ledger.accept_pass(seat, body),
        lambda ledger: ledger.accept_key(seat, slot, body),
        lambda ledger: ledger.accept_shown(seat, slot, body, card),
        lambda ledger: ledger.accept_departure(seat, body),
        lambda ledger: ledger.check_delivery(1, keys_from_body(1, body)),
        lambda ledger: ledger.secrets_from_body(seat, body),
    ]
    for call in calls:
        ledger = copy.deepcopy(TABLE.ledgers[2])
        before = state(ledger)
        try:
            call(ledger)
        except CardProtocolError:
            assert state(ledger) == before  # refused: nothing changed
        # Accepted is fine too (junk can be a valid key by chance); any other exception fails the test.


@pytest.mark.parametrize("slot", [0, 3])
def test_a_mutated_real_key_is_refused_without_a_change(slot):
    ledger = copy.deepcopy(TABLE.ledgers[0])
    key = TABLE.ledgers[1].secret_key(0, TABLE.rings[1])
    before = state(ledger)
    for i in (0, 31):
        bad = key[:i] + bytes([key[i] ^ 0x80]) + key[i + 1 :]
        assert not ledger.verify_shown(0, bad, 0)
        with pytest.raises(CardProtocolError):
            ledger.accept_shown(1, slot, bad, TABLE.ledgers[1].open_own(0, TABLE.rings[1]) + 100)
    assert state(ledger) == before
