"""Rematch messages on a real broker: only the right seat's signature counts, ours stay in place.

Three seats of one finished game talk on the finished room's rematch topics while a stranger
writes there too: forged answers, an answer about another game, garbage over a seat's answer,
an older answer replayed after a change of mind, a room announced by the wrong seat.  Every
channel, including one that subscribes late, ends up believing only what the seats signed.  The
stranger holds the finished room's key (:mod:`relay.seal`: the room and seat 1's key, which every
seat of the game knows), so all it writes opens for the channels.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from protocol.crypto.signing import SigningKey
from relay.lobby.messages import seal
from relay.lobby.rematch import RematchChannel, topic
from tests.relay.helpers import BrokerProcess, insider_client

ROOM = "REMATCH"
GAME = b"\x07" * 32


async def _until(check: Callable[[], bool], timeout: float = 8.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "the expected state never came"
        await asyncio.sleep(0.02)


def test_only_what_the_seats_signed_counts_and_stays(mosquitto_relay: BrokerProcess) -> None:
    keys = [SigningKey.generate(bytes([i + 81]) * 32) for i in range(3)]
    seat_keys = [k.public_bytes() for k in keys]
    stranger = SigningKey.generate(b"\x99" * 32)
    nxt = [SigningKey.generate(bytes([i + 91]) * 32).public_bytes() for i in range(3)]

    def channel() -> RematchChannel:
        return RematchChannel(mosquitto_relay.address, ROOM, GAME, seat_keys)

    async def main() -> None:
        a, b = channel(), channel()
        runs = [asyncio.ensure_future(ch.run()) for ch in (a, b)]
        await asyncio.wait_for(asyncio.gather(a.delivered.wait(), b.delivered.wait()), 10)  # both subscribed
        async with insider_client(mosquitto_relay.address, ROOM, seat_keys[0], "strangerX") as evil:
            # Forged: seat 3's answer signed by a stranger; an answer by seat 3's key about another game.
            body = {"kind": "rematch", "room": ROOM, "host": seat_keys[0], "game": GAME, "v": 1, "seat": 2}
            await evil.publish(topic(ROOM, "2"), seal(stranger, {**body, "accept": True, "key": nxt[2]}), retain=True)
            other = {**body, "game": b"\x08" * 32, "accept": True, "key": nxt[2]}
            await evil.publish(topic(ROOM, "2"), seal(keys[2], other), retain=True)
            # Seat 3's own answer after them (messages of one sender arrive in order): then the forgeries are read.
            await evil.publish(topic(ROOM, "2"), seal(keys[2], {**body, "v": 2, "accept": False, "key": nxt[2]}))
            b.answer(keys[1], 1, True, nxt[1])
            await _until(lambda: 1 in a.answers and a.answers[1].accept and a.answers[1].key == nxt[1])
            await _until(lambda: 2 in a.answers and 2 in b.answers)
            assert (a.answers[2].accept, a.answers[2].version) == (False, 2), "nothing forged about seat 3 counts"
            assert any("not signed by seat 3" in n for n in a.notes) and any("another game" in n for n in a.notes)

            # Garbage over Bob's answer: Bob's channel puts his answer back, a late channel reads it.
            await evil.publish(topic(ROOM, "1"), b"garbage", retain=True)
            late = channel()
            runs.append(asyncio.ensure_future(late.run()))
            await _until(lambda: 1 in late.answers and late.answers[1].accept)

            # A change of mind wins over the older answer replayed by the stranger.
            old_yes = seal(keys[1], {**body, "seat": 1, "v": 5, "accept": True, "key": nxt[1]})
            b.answer(keys[1], 1, False, nxt[1])
            await _until(lambda: a.answers[1].accept is False and late.answers[1].accept is False)
            await evil.publish(topic(ROOM, "1"), old_yes, retain=True)
            await evil.publish(topic(ROOM, "2"), seal(keys[2], {**body, "v": 3, "accept": True, "key": nxt[2]}))
            await _until(lambda: a.answers[2].version == 3 and late.answers[2].version == 3)
            assert a.answers[1].accept is False and late.answers[1].accept is False

            # The new room counts only when seat 1's key (the genesis writer's) announces it.
            fake = {"kind": "rematch-room", "room": ROOM, "host": seat_keys[0], "game": GAME, "v": 9}
            await evil.publish(topic(ROOM, "room"), seal(keys[1], {**fake, "code": "FAKE", "host_key": nxt[1]}))
            a.announce(keys[0], "NEWROOM", nxt[0])
            await _until(lambda: b.new_room is not None and late.new_room is not None)
            assert (b.new_room.code, b.new_room.host_key) == ("NEWROOM", nxt[0])
            assert any("not signed by seat 1" in n for n in b.notes)
        for ch in (a, b, late):
            ch.stop()
        await asyncio.wait_for(asyncio.gather(*runs), 10)

    asyncio.run(main())
