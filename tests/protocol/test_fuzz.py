"""Fuzzing: malformed and mutated envelopes into a live session never raise and never change it.

``SEALED_FUZZ_EXAMPLES=20000`` runs the long mode.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import canonical_encode, decode
from protocol.events import Rejected
from tests.protocol.helpers import lockstep, run_lockstep

EXAMPLES = int(os.environ.get("SEALED_FUZZ_EXAMPLES", "150"))
PEERS = lockstep("toy", 3, b"fuzz")
run_lockstep(PEERS, until_seq=20)
LIVE = PEERS[1]
SAMPLES = [e.data for e in LIVE.table.log[1:]]
SNAPSHOT = (LIVE.table.head, LIVE.state.hash(), LIVE.verdict)


def _unchanged() -> None:
    assert (LIVE.table.head, LIVE.state.hash(), LIVE.verdict) == SNAPSHOT
    assert not LIVE.finished


def _feed(data) -> None:
    events = LIVE.receive(data, 1)
    assert all(isinstance(e, Rejected) for e in events), events
    _unchanged()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SAMPLES), st.integers(0, 10_000), st.integers(1, 255))
def test_bit_flips_are_rejected(sample, where, mask):
    data = bytearray(sample)
    data[where % len(data)] ^= mask
    _feed(bytes(data))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SAMPLES), st.integers(0, 10_000), st.binary(max_size=64))
def test_truncations_and_splices_are_rejected(sample, cut, junk):
    _feed(sample[: cut % len(sample)] + junk)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=2048))
def test_random_bytes_are_rejected(data):
    _feed(data)


values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SAMPLES), st.sampled_from(["v", "room", "seq", "prev", "seat", "type", "body", "sig"]), values)
def test_re_encoded_entries_with_a_field_changed_are_rejected(sample, name, value):
    fields = dict(decode(sample))
    fields[name] = value
    try:
        data = canonical_encode(fields)
    except Exception:
        return
    _feed(data)


def test_exact_duplicates_change_nothing():
    for data in SAMPLES:
        assert LIVE.receive(data, 1) == []
    _unchanged()


def _genesis_with(options, seats_count: int = 2, game: str = "system-launch") -> tuple[bytes, list]:
    from engines.core import SeededStream
    from protocol.crypto.signing import SigningKey
    from protocol.envelope import ZERO_HASH, seal
    from protocol.session import PeerSession

    keys = [SigningKey.generate(SeededStream(b"g", str(s)).token(32)) for s in range(seats_count)]
    secrets = [SeededStream(b"g", f"s{s}").token(32) for s in range(seats_count)]
    cards = [PeerSession.seat_card("x", keys[s], secrets[s]).as_body() for s in range(seats_count)]
    body = {"game": game, "options": options, "seats": cards, "nonce": bytes(32), "timeout_ms": 1000}
    return seal(keys[0], "room", 0, ZERO_HASH, 0, "genesis", body, game=ZERO_HASH).data, [keys, secrets]


@settings(max_examples=max(20, EXAMPLES // 5), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.text(max_size=12), values, max_size=3), st.integers(1, 8), st.sampled_from(["toy", "nope"]))
def test_hostile_genesis_options_are_refused_or_accepted_cleanly(options, seats, game):
    from protocol.session import PeerSession

    data, (keys, secrets) = _genesis_with(options, seats, game)
    for watcher in (PeerSession.observe("room"), PeerSession.join("room", 0, keys[0], secrets[0])):
        events = watcher.receive(data, 0)  # must not raise
        assert watcher.table is not None or all(isinstance(e, Rejected) for e in events)
