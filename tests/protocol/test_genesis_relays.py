"""The genesis names the room's relays (the room's relay, then its fallbacks), checked like every other field.

A genesis without ``relays`` (a room without fallbacks, and every saved game older than the field)
stays valid and keeps its hash;
one with them carries them to every seat; one with a malformed list is refused by every joiner.
"""

from __future__ import annotations

import pytest

from engines.core import canonical_encode
from protocol.envelope import GENESIS_GAME, ZERO_HASH, _signed_bytes, _unsigned
from protocol.events import Rejected
from protocol.session import PeerSession
from protocol.verify import dump, verify_bytes
from tests.protocol.helpers import run_lockstep, seat_keys

GAME = "system-launch"


def _room(relays: tuple[str, ...] | list[str] = ()) -> list[PeerSession]:
    keys, secrets = seat_keys(b"genesis-relays", 3)
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(3)]
    peers = [PeerSession.create("relays-room", GAME, {}, cards, keys[0], secrets[0], relays=relays)]
    peers += [PeerSession.join("relays-room", s, keys[s], secrets[s], creator=keys[0].public_bytes()) for s in (1, 2)]
    return peers


def test_a_genesis_without_relays_has_no_such_field_and_audits_fair() -> None:
    peers = _room()
    assert "relays" not in peers[0].table.log[0].body
    assert peers[0].table.relays == ()
    run_lockstep(peers)
    assert peers[1].table.relays == ()
    assert verify_bytes(dump(peers[0].room, [bytes(e.data) for e in peers[0].table.log])).fair


def test_the_relays_of_the_genesis_reach_every_seat_and_the_audit_is_fair() -> None:
    relays = ("relay.example:1883", "mqtts://backup.example:8883", "wss://third.example/mqtt")
    peers = _room(relays)
    run_lockstep(peers)
    assert all(p.table.relays == relays for p in peers)
    assert peers[2].finished
    assert verify_bytes(dump(peers[0].room, [bytes(e.data) for e in peers[0].table.log])).fair


@pytest.mark.parametrize(
    ("relays", "why"),
    [
        ((), "array of 1"),
        (("user:secret@relay.example:1883",), "never a login"),
        (("relay one:1883",), "relay address"),
        (("a:1", "a:1"), "twice"),
        (tuple(f"r{i}:1883" for i in range(9)), "array of 1..8"),
        (("x" * 201,), "1..200"),
        ((1883,), "text"),
    ],
)
def test_a_genesis_with_a_malformed_relay_list_is_refused_by_every_joiner(relays: tuple, why: str) -> None:
    keys, secrets = seat_keys(b"genesis-relays", 3)
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]).as_body() for s in range(3)]
    body = {"game": GAME, "options": {}, "seats": cards, "nonce": bytes(32), "timeout_ms": 120_000, "relays": relays}
    # Signed by the real host key, as a host with another program would write it (seal() refuses it).
    fields = ("bad-relays", GENESIS_GAME, 0, ZERO_HASH, 0, "genesis", body)
    data = canonical_encode({**_unsigned(*fields), "sig": keys[0].sign(_signed_bytes(*fields))})
    joiner = PeerSession.join("bad-relays", 1, keys[1], secrets[1])
    events = joiner.receive(data, 0)
    assert joiner.table is None
    reasons = [e.reason for e in events if isinstance(e, Rejected)]
    assert reasons and "relays" in reasons[0] and why in reasons[0], events


def test_the_host_cannot_write_a_malformed_relay_list_either() -> None:
    with pytest.raises(ValueError, match="relays"):
        _room(["has space:1883"])
