"""Who may announce a room's relay on the LAN: only a seat of the game, for the address it signed.

A stranger on the LAN can announce anything with zeroconf.  The handover believes an announcement
only when a seat of the peer's own genesis signed the room, the game, the seat and the addresses;
and of the genuine ones it takes the lowest seat.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os

from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession
from relay.transport.handover import Handover, RoomRelay, genuine, parse_announcement, room_txt

ROOM = "HANDOV"


SECRETS = [os.urandom(32) for _ in range(3)]


def _game(players: int = 3) -> tuple[list[SigningKey], PeerSession]:
    keys = [SigningKey.generate() for _ in range(players)]
    cards = [PeerSession.seat_card(f"p{s}", keys[s], SECRETS[s]) for s in range(players)]
    return keys, PeerSession.create(ROOM, "system-launch", {}, cards, keys[0], SECRETS[0])


def _announce(key: SigningKey, game: bytes, seat: int, addresses: tuple[str, ...], port: int) -> RoomRelay:
    txt = room_txt(ROOM, game, seat, addresses, port, key)
    found = parse_announcement(f"seat {seat}", {"sealed-table": "1", **txt}, addresses, port)
    assert found is not None
    return found


def test_only_a_seat_of_this_game_announces_its_relay() -> None:
    keys, session = _game()
    table = session.table
    good = _announce(keys[2], table.game_id, 2, ("192.0.2.7",), 41000)
    assert genuine(good, ROOM, table)
    stranger = SigningKey.generate()
    assert not genuine(_announce(stranger, table.game_id, 2, ("192.0.2.9",), 41000), ROOM, table)
    assert not genuine(_announce(keys[1], table.game_id, 2, ("192.0.2.7",), 41000), ROOM, table)  # not seat 1's
    assert not genuine(_announce(keys[2], bytes(32), 2, ("192.0.2.7",), 41000), ROOM, table)  # another game
    assert not genuine(dataclasses.replace(good, room="OTHERR"), ROOM, table)
    # The genuine TXT copied onto a stranger's address, or port: the signature does not cover it.
    assert not genuine(dataclasses.replace(good, addresses=("192.0.2.66",)), ROOM, table)
    assert not genuine(dataclasses.replace(good, port=41001), ROOM, table)
    assert not genuine(dataclasses.replace(good, seat=1), ROOM, table)


def test_what_is_not_a_room_announcement_is_no_candidate() -> None:
    assert parse_announcement("plain relay", {"sealed-table": "1"}, ("192.0.2.1",), 1883) is None
    bad = {"sealed-table": "1", "room": ROOM, "game": "zz", "seat": "1", "sig": "00"}
    assert parse_announcement("garbage", bad, ("192.0.2.1",), 1883) is None


def test_the_handover_takes_the_lowest_genuine_seat_and_skips_dead_relays() -> None:
    keys, session = _game()
    table = session.table
    handover = Handover(session, keys[0])
    seat2 = _announce(keys[2], table.game_id, 2, ("192.0.2.2",), 41002)
    seat1 = _announce(keys[1], table.game_id, 1, ("192.0.2.1",), 41001)
    forged = _announce(SigningKey.generate(), table.game_id, 0, ("192.0.2.66",), 41000)
    handover.watch.found = {"a": seat2, "b": forged, "c": seat1}
    assert [f.seat for f in handover.candidates()] == [1, 2]
    handover.failed.add(str(seat1.address))
    assert [f.seat for f in handover.candidates()] == [2]
    asyncio.run(handover.watch.close())


class _Transport:
    """What the handover reads of a transport (presence, its own presence info) and the moves it asks for."""

    def __init__(self, peer: str) -> None:
        self.peer_id = peer
        self.presence: dict = {}
        self.presence_info: dict = {}
        self.address = "127.0.0.1:9"  # the relay that died
        self.moved: list[str] = []

    def move_to(self, address) -> None:  # type: ignore[no-untyped-def]
        self.moved.append(str(address))


def _seats_1_and_2() -> tuple[list[SigningKey], list[PeerSession]]:
    """The keys of a 3-seat game, and the sessions of its seats 1 and 2, each holding the genesis."""
    keys, creator = _game()
    genesis = bytes(creator.table.log[0].data)
    sessions = []
    for seat in (1, 2):
        session = PeerSession.join(ROOM, seat, keys[seat], SECRETS[seat], creator=keys[0].public_bytes())
        session.receive(genesis, 0)
        assert session.table is not None
        sessions.append(session)
    return keys, sessions


def test_two_seats_that_started_a_relay_at_once_end_on_the_lower_seats() -> None:
    """Real zeroconf on loopback, real embedded relays: seat 2 finds seat 1's announcement and moves there."""
    keys, sessions = _seats_1_and_2()

    async def main() -> None:
        # A linger longer than the test: the withdrawn relay must still be stopped when the game closes.
        ones = [Handover(s, keys[s.seat], interfaces=["127.0.0.1"], linger_s=60) for s in sessions]
        transports = [_Transport("p1"), _Transport("p2")]
        try:
            for handover, transport in zip(ones, transports, strict=True):
                await handover.start(transport)
            mine = [await h._start_relay(t) for h, t in zip(ones, transports, strict=True)]  # both at once
            assert all(m is not None for m in mine)
            withdrawn = ones[1].relay
            for _ in range(100):
                if transports[1].moved:
                    break
                await asyncio.sleep(0.1)
            assert transports[1].moved == [str(mine[0])], "seat 2 moves to seat 1's relay"
            assert transports[0].moved == [], "seat 1 keeps its own"
            assert ones[1].relay is None and ones[1]._advert is None, "seat 2 withdrew its relay"
            assert "hosts_relay" not in transports[1].presence_info
            assert ones[1].describe() == "seat 1's relay, found on the LAN"
        finally:
            for handover in ones:
                handover._transport = None
                await handover.close()
        assert not withdrawn.running, "the withdrawn relay is stopped when the game closes here"

    asyncio.run(main())


class _Presence:
    def __init__(self, **info) -> None:  # type: ignore[no-untyped-def]
        self.info = info
        self.status = "online"


def test_the_next_seat_waits_for_the_first_seats_relay_though_it_noticed_the_loss_first() -> None:
    """The seats notice a dead relay at different moments (nearly a second apart on a loaded machine),
    and the first seat's relay takes a while to start and be announced.  The second seat's turn comes
    late enough for both: it joins the first seat's relay instead of starting its own."""
    keys, sessions = _seats_1_and_2()

    async def main() -> None:
        ones = [Handover(s, keys[s.seat], interfaces=["127.0.0.1"], linger_s=0.5) for s in sessions]
        transports = [_Transport("p1"), _Transport("p2")]
        for transport in transports:  # seat 0 ran the dead relay: seat 1 goes first, seat 2 next
            transport.presence = {"p0": _Presence(seat=0, hosts_relay=True)}
        started: list[int] = []
        second_start = ones[1]._start_relay

        async def second_starts(transport):  # type: ignore[no-untyped-def]
            started.append(2)
            return await second_start(transport)

        ones[1]._start_relay = second_starts  # type: ignore[method-assign]
        try:
            for handover, transport in zip(ones, transports, strict=True):
                await handover.start(transport)
            second = asyncio.ensure_future(ones[1].next_relay(transports[1]))  # seat 2 noticed first,
            await asyncio.sleep(2.0)  # seat 1 two seconds later
            first = await ones[0].next_relay(transports[0])
            assert ones[0].describe() == "the relay this seat started on the LAN"
            assert str(await second) == str(first), "seat 2 goes to seat 1's relay"
            assert started == [], "seat 2 started no relay of its own"
            assert ones[1].describe() == "seat 1's relay, found on the LAN"
        finally:
            for handover in ones:
                handover._transport = None
                await handover.close()

    asyncio.run(main())


def test_a_relay_that_never_brings_the_genesis_is_left_for_the_next_announcement(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A seat restarted before it ever read the genesis cannot check a signature: it tries the lowest
    seat's announcement, and when no genesis comes from there, the next one."""
    from relay.broker.embedded import EmbeddedRelay, RelayConfig
    from relay.transport import handover as handover_mod

    monkeypatch.setattr(handover_mod, "WITHHELD_S", 0.5)
    keys, creator = _game()
    game = creator.table.game_id
    session = PeerSession.join(ROOM, 2, keys[2], SECRETS[2], creator=keys[0].public_bytes())  # no genesis yet

    async def main() -> None:
        relays = [EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False)) for _ in range(2)]
        for relay in relays:
            await relay.start()
        withholding = _announce(SigningKey.generate(), game, 0, ("127.0.0.1",), relays[0].port)  # a stranger's
        honest = _announce(keys[1], game, 1, ("127.0.0.1",), relays[1].port)
        handover = Handover(session, keys[2], interfaces=["127.0.0.1"])
        transport = _Transport("p2")
        try:
            await handover.start(transport)
            handover.watch.found = {"stranger": withholding, "seat 1": honest}
            assert [f.seat for f in handover.candidates()] == [0, 1]  # nothing to tell them apart by, yet
            first = await handover.next_relay(transport)
            assert str(first) == str(withholding.address)
            for _ in range(50):
                if transport.moved:
                    break
                await asyncio.sleep(0.1)
            assert transport.moved == [str(honest.address)]
            assert str(withholding.address) in handover.failed
        finally:
            handover._transport = None
            await handover.close()
            for relay in relays:
                await relay.stop()

    asyncio.run(main())
