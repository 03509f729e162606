"""The order a peer tries the room's relays in (relay/transport/failover.py): the same for every peer."""

from __future__ import annotations

import os

import pytest

from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession
from relay.errors import RelayError
from relay.transport.failover import FailoverTransport


def _session(relays: tuple[str, ...]) -> PeerSession:
    keys = [SigningKey.generate() for _ in range(2)]
    secrets = [os.urandom(32) for _ in range(2)]
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(2)]
    return PeerSession.create("RINGRM", "system-launch", {}, cards, keys[0], secrets[0], relays=relays)


def test_the_given_relay_then_the_invitations_fallbacks_then_the_genesiss_relays_each_once() -> None:
    session = _session(("b.example:1883", "c.example:1883", "mqtts://d.example:8883"))
    transport = FailoverTransport(["a.example:1883", "user:pw@b.example:1883", "not an address"], session, "p1")
    assert [str(r) for r in transport.ring] == ["a.example:1883", "mqtt://user@b.example:1883"]  # its login kept
    transport._take_genesis_relays()
    ring = [str(r) for r in transport.ring]
    assert ring == ["a.example:1883", "mqtt://user@b.example:1883", "c.example:1883", "mqtts://d.example:8883"]
    transport.move_next()
    assert transport._pending is transport.ring[1]
    assert str(transport.move_to("e.example:1883")) == "e.example:1883" and str(transport.ring[-1]) == "e.example:1883"


def test_no_relay_at_all_is_a_clear_error() -> None:
    with pytest.raises(RelayError):
        FailoverTransport([], _session(()), "p1")
    with pytest.raises(RelayError):
        FailoverTransport(["a.example:1883"], _session(()), "p1").move_to("no such thing:x")


@pytest.mark.parametrize(
    ("fallback", "said"),
    [("bad addr", "fallback relay: relay address 'bad addr'"), ("héllo.example:1883", "cannot be named in the game")],
)
def test_a_host_given_a_bad_fallback_says_so_before_opening_a_room(tmp_path, capsys, fallback, said) -> None:  # type: ignore[no-untyped-def]
    from client.headless import peer

    argv = ["--relay", "127.0.0.1:1", "--create", "system-launch", "--accept-all", "--state-dir", str(tmp_path)]
    assert peer.main([*argv, "--fallback-relay", fallback]) == 2
    assert said in capsys.readouterr().err
