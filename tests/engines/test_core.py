"""The shared engine core: canonical encoding, hashing, seeded chance."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core import EncodingError, SeededStream, canonical_encode, decode, derive_outcome, state_hash

plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8) | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


def test_map_order_does_not_change_the_encoding():
    assert canonical_encode({"b": 1, "a": [1, 2]}) == canonical_encode({"a": (1, 2), "b": 1})


def test_floats_and_sets_are_refused():
    with pytest.raises(EncodingError):
        canonical_encode({"x": 1.5})
    with pytest.raises(EncodingError):
        canonical_encode({1, 2})


@given(plain)
def test_encoding_round_trips_and_is_stable(value):
    data = canonical_encode(value)
    assert canonical_encode(decode(data)) == data


def test_state_hash_is_tagged_sha256():
    assert len(state_hash({"a": 1})) == 32
    assert state_hash({"a": 1}) != state_hash({"a": 2})


def test_seeded_stream_is_reproducible_and_uniform_enough():
    a = SeededStream(b"seed")
    b = SeededStream(b"seed")
    xs = [a.below(6) for _ in range(6000)]
    assert xs == [b.below(6) for _ in range(6000)]
    counts = [xs.count(i) for i in range(6)]
    assert all(850 < c < 1150 for c in counts), counts
    assert SeededStream(b"other").below(1 << 40) != SeededStream(b"seed").below(1 << 40)


def test_known_vector_pins_the_stream_across_machines():
    # If this changes, every saved game's public chance changes with it.
    assert derive_outcome(b"k", "die", 0, 6) != derive_outcome(b"k", "die", 1, 1 << 30)
    stream = SeededStream(b"sealed")
    assert [stream.below(1000) for _ in range(5)] == KNOWN


KNOWN = [518, 999, 949, 609, 42]
