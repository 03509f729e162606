"""Properties: every honest round audits fair; a seat's permutation leaves no mark on the bodies' shape."""

from __future__ import annotations

import os
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import SeededStream, canonical_encode
from protocol.cards import Deck, SeatSecrets
from protocol.cards.rehearsal import Rehearsal

#: More cases with CARDS_PROPERTY_EXAMPLES=500 (a long run); the default keeps the suite quick.
EXAMPLES = int(os.environ.get("CARDS_PROPERTY_EXAMPLES", "30"))


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    seats=st.integers(2, 5),
    cards=st.integers(1, 10),
    seed=st.binary(min_size=1, max_size=8),
    data=st.data(),
)
def test_a_random_honest_round_always_audits_fair(seats, cards, seed, data):
    identities = data.draw(st.lists(st.integers(0, 500), min_size=cards, max_size=cards, unique=True))
    slots = list(range(1000, 1000 + cards))
    t = Rehearsal("room-prop", seats, [SeededStream(seed, f"seat/{s}") for s in range(seats)])
    t.shuffle(identities, slots)
    opened = {}
    for slot in data.draw(st.permutations(slots)):
        seat = data.draw(st.integers(0, seats - 1))
        opened[slot] = t.draw(slot, seat)
        if data.draw(st.booleans()):
            t.show(seat, slot, opened[slot])
    secrets = t.publish_secrets()
    assert t.ledgers[seats - 1].audit(secrets) is None
    truth = t.ledgers[0].cards_by_slot(secrets)
    assert truth == opened
    assert sorted(truth.values()) == sorted(identities)


def test_two_rounds_differing_only_in_one_seat_s_permutation_look_alike_in_shape():
    seats, n = 4, 12
    secrets = {s: SeatSecrets.generate(s, n, SeededStream(b"secrecy", f"seat/{s}")) for s in range(seats)}
    other = list(secrets[2].permutation)
    other.reverse()
    twin = {**secrets, 2: replace(secrets[2], permutation=tuple(other))}

    def bodies(by_seat):
        deck = Deck("room-secrecy", seats, list(range(n)), list(range(n)))
        out = []
        for maker, accept in (
            ("make_shuffle_pass", deck.accept_shuffle_pass),
            ("make_lock_pass", deck.accept_lock_pass),
        ):
            for s in range(seats):
                body = getattr(deck, maker)(by_seat[s])
                accept(s, body)
                out.append(body)
        return out

    a, b = bodies(secrets), bodies(twin)
    assert a[0] == b[0] and a[1] == b[1]  # the passes before seat 2 are the same
    assert a[2] != b[2] and a[-1] != b[-1]  # seat 2's pass and the final locks differ
    for x, y in zip(a, b, strict=True):
        assert x.keys() == y.keys() and x["round"] == y["round"] and x["kind"] == y["kind"]
        assert len(canonical_encode(x)) == len(canonical_encode(y))
        assert [len(e) for e in x["elements"]] == [len(e) for e in y["elements"]]
    assert sorted(a[2]["elements"]) == sorted(b[2]["elements"])  # the same set, only reordered
