"""The read-back no flood can hide: bounded pieces of the log, rooms kept apart, a corrupted topic healed."""

from __future__ import annotations

import asyncio
import contextlib
import os

import pytest

from relay import topics
from relay.transport.room import Backoff, Restored, RoomTransport
from tests.relay.helpers import BrokerProcess, insider_client, make_peer, raw_client, relay, room_seal
from tests.relay.transport.stub_session import StubSession, YourTurn


def restarted_peer(address: str, session: StubSession) -> RoomTransport:
    """A peer whose driver, like a real seat's, acts only on a turn that is still current: the
    turns announced while the log was read back are long past when the read-back ends."""
    transport: RoomTransport

    def drive(events: list[object]) -> None:
        for e in events:
            if isinstance(e, YourTurn) and e.seq == session.table.head + 1:
                drive(session.submit(e.seq))
                transport.flush()

    transport = RoomTransport(address, session, "a", drive, tick_ms=50, backoff=Backoff(0.05, 0.5))
    return transport


async def flood(address: str, room: str, count: int, base: int) -> None:
    """Someone with the room's key stores ``count`` retained garbage messages in ``room``: log and notice
    topics far ahead (sealed, so they open for the room's peers)."""
    async with insider_client(address, room, kind="flood") as c:
        for i in range(count):
            topic = topics.log(room, base + i) if i % 5 else f"{topics.ROOT}/room/{room}/notice/7/{base + i}/vote"
            await c.publish(topic, b"garbage-" + os.urandom(24), qos=1, retain=True)
        await c.publish(topics.log(room, base + count), b"last garbage", qos=1, retain=True)


@pytest.mark.timeout(90)
def test_a_flood_of_retained_garbage_before_and_after_the_game_hides_nothing(mosquitto_relay: BrokerProcess) -> None:
    """1,500 garbage messages before the game and 1,500 after (Mosquitto queues at most 1,000 per client)."""

    address = mosquitto_relay.address

    async def main() -> None:
        room = "FLOODA"
        count = 1500  # Mosquitto (the shipped configuration) queues at most 1,000 messages per client
        await flood(mosquitto_relay.address, room, count, 100_000)
        a, b = StubSession(room, 0, length=120), StubSession(room, 1, length=120)
        await asyncio.wait_for(asyncio.gather(make_peer(address, a, "a").run(), make_peer(address, b, "b").run()), 40)
        assert a.table.head == b.table.head == 119
        await flood(mosquitto_relay.address, room, count, 200_000)
        late = StubSession(room, None, length=120)
        await asyncio.wait_for(make_peer(mosquitto_relay.address, late, "late").run(), 30)
        assert [e.data for e in late.table.log] == [e.data for e in a.table.log]
        assert not late.rejected  # far-ahead garbage is never even delivered

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_two_rooms_on_the_embedded_relay_see_nothing_of_each_other() -> None:
    async def main() -> None:
        r = await relay()
        try:
            sessions = {room: [StubSession(room, s, length=60) for s in (0, 1)] for room in ("ROOMXA", "ROOMXB")}
            peers = [
                make_peer(r.address, s, f"{s.room.lower()}{s.seat}", 0.005) for ss in sessions.values() for s in ss
            ]
            await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers)), 40)
            for p in peers:
                assert not [x for x in p.reports if isinstance(x, Restored)], p.reports
            for ss in sessions.values():
                assert all(not s.rejected and s.table.head == 59 for s in ss)
            # A client of one room gets no retained message of the other, whoever else subscribed what.
            async with insider_client(r.address, "ROOMXB", kind="onlyb") as c:
                await c.subscribe(topics.log(room="ROOMXB", seq=3), qos=1)
                got: list[str] = []

                async def collect() -> None:
                    async for m in c.messages:
                        got.append(m.topic.value)

                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(collect(), 0.5)
            assert got == [topics.log("ROOMXB", 3)]
            # On the wire, every retained message of either room opens under its own room's seal only.
            seals = {room: room_seal(room) for room in sessions}
            async with raw_client(r.address, "wire") as w:
                await w.subscribe(f"{topics.ROOT}/#", qos=1)
                wire: list[tuple[str, bytes]] = []

                async def everything() -> None:
                    async for m in w.messages:
                        wire.append((m.topic.value, bytes(m.payload)))  # type: ignore[arg-type]

                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(everything(), 0.8)
            assert len(wire) >= 2 * 60
            for topic, payload in wire:
                opens = {room for room, seal in seals.items() if seal.open(topic, payload) is not None}
                assert len(opens) == 1 and not any(room in topic for room in seals), (topic, opens)
        finally:
            await r.stop()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_topic_kept_corrupted_while_a_seat_restarts() -> None:
    """A stranger overwrites log/4 again and again; seat 0 restarts and still rebuilds and finishes."""

    async def main() -> None:
        r = await relay()
        stop = asyncio.Event()

        async def corrupt() -> None:
            async with insider_client(r.address, "ROOMCC", kind="vandal") as c:  # it holds the room's key
                while not stop.is_set():
                    await c.publish(topics.log("ROOMCC", 4), b"garbage " + os.urandom(8), qos=1, retain=True)
                    await asyncio.sleep(0.05)

        try:
            a, b = StubSession("ROOMCC", 0, length=40), StubSession("ROOMCC", 1, length=40)
            ta, tb = make_peer(r.address, a, "a", 0.03), make_peer(r.address, b, "b", 0.03)
            first, second = asyncio.ensure_future(ta.run()), asyncio.ensure_future(tb.run())
            while a.table.head < 10:
                await asyncio.sleep(0.02)
            ta.stop()
            await first
            vandal = asyncio.ensure_future(corrupt())
            await asyncio.sleep(8 * 0.05 * 5)  # long past 5 restores per topic: restores are rate-limited, never capped
            again = StubSession("ROOMCC", 0, length=40)
            await asyncio.wait_for(asyncio.gather(restarted_peer(r.address, again).run(), second), 40)
            assert again.table.head == b.table.head == 39
            assert [e.data for e in again.table.log] == [e.data for e in b.table.log]
            assert sum(isinstance(x, Restored) and x.topic.endswith("/log/4") for x in tb.reports) > 5
            stop.set()
            await vandal
        finally:
            stop.set()
            await r.stop()

    asyncio.run(main())
