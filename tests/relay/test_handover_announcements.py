"""Who may announce a room's relay on the LAN (issue 13): only a seat of the game, for the address it signed.

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
from relay.handover import Handover, RoomRelay, genuine, parse_announcement, room_txt

ROOM = "HANDOV"


def _game(players: int = 3) -> tuple[list[SigningKey], PeerSession]:
    keys = [SigningKey.generate() for _ in range(players)]
    secrets = [os.urandom(32) for _ in range(players)]
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(players)]
    return keys, PeerSession.create(ROOM, "system-launch", {}, cards, keys[0], secrets[0])


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
