"""The transport over the embedded relay (in-process), with a stand-in session: delivery, read-back, healing."""

from __future__ import annotations

import asyncio
import contextlib
import os
import struct

import pytest

from relay import topics
from relay.mqtt import RelayClient
from relay.transport.room import Connected, RoomTransport
from tests.relay.helpers import BrokerProcess, free_port, insider_client, make_peer, raw_client, relay, room_seal
from tests.relay.transport.stub_session import Entry, StubSession, YourTurn


def connect_with_will(client_id: str, topic: str, message: bytes) -> bytes:
    """A raw MQTT 3.1.1 CONNECT with a retained QoS 1 will (clean session, keepalive 60 s)."""

    def s(b: bytes) -> bytes:
        return struct.pack("!H", len(b)) + b

    body = b"\x00\x04MQTT\x04" + bytes([0x02 | 0x04 | 0x08 | 0x20]) + struct.pack("!H", 60)
    body += s(client_id.encode()) + s(topic.encode()) + s(message)
    length, rest = b"", len(body)  # the remaining length: 7 bits a byte, lowest first (a sealed will is > 127)
    while True:
        rest, digit = divmod(rest, 128)
        length += bytes([digit | (0x80 if rest else 0)])
        if not rest:
            break
    return b"\x10" + length + body


async def read_retained(address: str, room: str, count: int = 64) -> dict[int, bytes]:
    """The room's retained log ``0..count-1``, read by someone who holds the room's key (the relay sees
    only ciphertext; a sealed log is read by exact topics, never ``log/+``)."""
    got: dict[int, bytes] = {}
    async with insider_client(address, room, kind="reader") as c:
        await c.subscribe([(topics.log(room, seq), 1) for seq in range(count)])

        async def collect() -> None:
            async for m in c.messages:
                seq = topics.parse_log_seq(m.topic.value)
                if seq is not None:
                    got[seq] = bytes(m.payload)  # type: ignore[arg-type]

        with pytest.raises(TimeoutError):
            await asyncio.wait_for(collect(), 0.8)
    return got


@pytest.mark.timeout(60)
def test_two_peers_exchange_every_entry_and_a_late_observer_reads_it_back() -> None:
    async def main() -> None:
        r = await relay()
        try:
            a, b = StubSession("ROOMAA", 0, length=40), StubSession("ROOMAA", 1, length=40)
            await asyncio.wait_for(
                asyncio.gather(make_peer(r.address, a, "a").run(), make_peer(r.address, b, "b").run()), 30
            )
            assert [e.data for e in a.table.log] == [e.data for e in b.table.log]
            assert len(a.table.log) == 40
            # A late observer (no seat) reads the whole game back from the relay's retained log.
            late = StubSession("ROOMAA", None, length=40)
            await asyncio.wait_for(make_peer(r.address, late, "late").run(), 20)
            assert [e.data for e in late.table.log] == [e.data for e in a.table.log]
            assert not (a.rejected or b.rejected or late.rejected)
        finally:
            await r.stop()

    asyncio.run(main())


# The peers reconnect within a backoff of 0.05 s, so one of them reaches the relay while it stops:
# it must be refused or cut off there (relay/broker/embedded.py), not kept on the stopped relay.
@pytest.mark.timeout(120)
def test_relay_restart_without_storage_loses_nothing() -> None:
    """The embedded relay keeps nothing across a restart: the peers put every entry back."""

    async def main() -> None:
        port = free_port()
        r = await relay(port)
        a, b = StubSession("ROOMBB", 0, length=60), StubSession("ROOMBB", 1, length=60)
        ta, tb = make_peer(r.address, a, "a", 0.02), make_peer(r.address, b, "b", 0.02)
        events: list[object] = []
        inner = ta.driver
        ta.driver = lambda evs: (events.extend(evs), inner(evs))  # type: ignore[func-returns-value]
        game = asyncio.gather(ta.run(), tb.run())
        while a.table.head < 15:
            await asyncio.sleep(0.02)
        await r.stop()
        assert not a.finished
        await asyncio.sleep(0.3)
        r = await relay(port)
        try:
            await asyncio.wait_for(game, 75)
            assert ta.connections >= 2 and tb.connections >= 2
            assert sum(isinstance(e, Connected) for e in events) >= 2
            got = await read_retained(r.address, "ROOMBB")
            assert [got[i] for i in range(60)] == [e.data for e in a.table.log]
            assert any(rep.reason == "missing" for rep in ta.reports + tb.reports)
        finally:
            await r.stop()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_garbage_over_a_retained_entry_is_reported_and_healed() -> None:
    async def main() -> None:
        r = await relay()
        try:
            a, b = StubSession("ROOMCC", 0, length=50), StubSession("ROOMCC", 1, length=50)
            ta, tb = make_peer(r.address, a, "a", 0.03), make_peer(r.address, b, "b", 0.03)
            game = asyncio.gather(ta.run(), tb.run())
            while a.table.head < 10:
                await asyncio.sleep(0.02)
            # The vandal holds the room's key (a seat that read the code): its garbage opens and reaches the sessions.
            async with insider_client(r.address, "ROOMCC", kind="vandal") as v:
                for seq in (2, 5, 7):
                    await v.publish(topics.log("ROOMCC", seq), b"garbage!", qos=1, retain=True)
                await v.publish(topics.log("ROOMCC", 3), b"", qos=1, retain=True)  # delete it
            await asyncio.wait_for(game, 30)
            got = await read_retained(r.address, "ROOMCC")
            assert [got.get(i) for i in range(50)] == [e.data for e in a.table.log]
            assert a.rejected and b.rejected  # the garbage reached the sessions and was refused
            healed = {rep.topic for rep in ta.reports + tb.reports if getattr(rep, "topic", None)}
            assert {topics.log("ROOMCC", s) for s in (2, 3, 5, 7)} <= healed
        finally:
            await r.stop()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_presence_is_retained_with_a_last_will() -> None:
    """Each seat's presence is retained at presence/{seat}; a seat that vanishes without a word is "gone"."""

    async def main() -> None:
        r = await relay()
        try:
            # Three seats; seat 2 writes nothing in this 2-entry game and vanishes.
            a = StubSession("ROOMDD", 0, seats=3, length=2)
            b = StubSession("ROOMDD", 1, seats=3, length=2)
            seen: list[object] = []
            tb = make_peer(r.address, b, "bee")
            inner = tb.driver
            tb.driver = lambda evs: (seen.extend(evs), inner(evs))  # type: ignore[func-returns-value]
            await asyncio.wait_for(asyncio.gather(make_peer(r.address, a, "ay").run(), tb.run()), 20)
            host, port = r.address.split(":")
            # Someone of the room who vanishes without a word: the broker publishes its will (sealed, as a seat's is).
            seal, presence = room_seal("ROOMDD"), topics.presence("ROOMDD", 2)
            will = seal.seal(presence, b"\x81\xa6status\xa4gone")
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(connect_with_will("ghost", seal.topic(presence), will))
            assert (await reader.readexactly(4))[:2] == b"\x20\x02"  # CONNACK
            writer.transport.abort()  # no DISCONNECT: the will goes out
            await asyncio.sleep(2.5)
            late = StubSession("ROOMDD", None, seats=3, length=2)
            tl = make_peer(r.address, late, "late")
            await asyncio.wait_for(tl.run(), 10)
            statuses = {seat: tl.presence[seat].status for seat in tl.presence}
            assert statuses == {0: "done", 1: "done", 2: "gone"}
            assert tl.presence[0].peer == "ay" and tl.presence[1].peer == "bee"
        finally:
            await r.stop()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_entries_are_published_without_waiting_for_each_others_confirmation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst of entries goes out pipelined (several unconfirmed at once, never more than the window)
    and every one of them still ends up retained on the relay."""
    from relay.transport import room as transport_module

    flying = {"now": 0, "most": 0}
    publish = RelayClient.publish  # the room's logical topics: aiomqtt's beneath it sees only sealed ones

    async def counted(self, topic, *args, **kwargs):  # type: ignore[no-untyped-def]
        if "/log/" not in topic:
            return await publish(self, topic, *args, **kwargs)
        flying["now"] += 1
        flying["most"] = max(flying["most"], flying["now"])
        try:
            return await publish(self, topic, *args, **kwargs)
        finally:
            flying["now"] -= 1

    monkeypatch.setattr(RelayClient, "publish", counted)

    async def main() -> None:
        r = await relay()
        try:
            solo = StubSession("ROOMPL", 0, seats=1, length=60)  # one seat writes every entry at once
            await asyncio.wait_for(make_peer(r.address, solo, "solo").run(), 30)
            got = await read_retained(r.address, "ROOMPL")
            assert got == {seq: solo.entry(seq, 0) for seq in range(60)}
        finally:
            await r.stop()

    asyncio.run(main())
    assert 1 < flying["most"] <= transport_module.MAX_IN_FLIGHT


@pytest.mark.timeout(60)
def test_an_entry_already_applied_is_not_handed_to_the_session_again() -> None:
    """The relay echoes every entry to its author too: an echo of what the session already holds
    (byte for byte) is not checked again; everything else still is."""

    class Counting(StubSession):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.handed: list[bytes] = []

        def receive(self, data: bytes, now_ms: int) -> list[object]:
            self.handed.append(data)
            return super().receive(data, now_ms)

    async def main() -> None:
        r = await relay()
        try:
            a, b = Counting("ROOMEC", 0, length=30), Counting("ROOMEC", 1, length=30)
            await asyncio.wait_for(
                asyncio.gather(make_peer(r.address, a, "a").run(), make_peer(r.address, b, "b").run()), 30
            )
            for me, other, seat in ((a, b, 0), (b, a, 1)):
                mine = {me.entry(seq, seat) for seq in range(seat, 30, 2)}
                assert not mine & set(me.handed)  # its own entries, echoed back, were not handed over
                assert {me.entry(seq, 1 - seat) for seq in range(1 - seat, 30, 2)} <= set(me.handed)
                assert [e.data for e in me.table.log] == [other.table.log[i].data for i in range(30)]
        finally:
            await r.stop()

    asyncio.run(main())


@pytest.mark.timeout(90)
def test_real_sessions_publish_first_and_never_check_their_own_entries_again(any_relay: BrokerProcess) -> None:
    """Two real PeerSessions over the relay: every entry a seat writes goes out before it is applied
    (``publish_first``), the seat applies it without parsing it back, and the game ends fair."""
    from engines.core import SeededStream, registry
    from protocol.crypto.signing import SigningKey
    from protocol.events import YourTurn as SessionTurn
    from protocol.session import PeerSession

    keys = [SigningKey.generate(SeededStream(b"pf", f"k{s}").token(32)) for s in range(2)]
    secrets = [SeededStream(b"pf", f"s{s}").token(32) for s in range(2)]
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(2)]

    class Watched(PeerSession):
        own_checked = 0

        def receive(self, data: bytes, now_ms: int) -> list:  # type: ignore[override]
            if self.table is not None and any(o == data for o in self.written):
                Watched.own_checked += 1
            return super().receive(data, now_ms)

        def take_outgoing(self):  # type: ignore[no-untyped-def]
            out = super().take_outgoing()
            self.written.extend(o.data for o in out)
            return out

    async def main() -> None:
        address = any_relay.address
        from relay.transport.room import monotonic_ms

        a = Watched.create("ROOMPF", "system-launch", {}, cards, keys[0], secrets[0], now_ms=monotonic_ms())
        b = Watched.join("ROOMPF", 1, keys[1], secrets[1], keys[0].public_bytes())
        a.written, b.written = [], []
        spec = registry.get("system-launch")

        def driver(session: PeerSession, seat: int):  # type: ignore[no-untyped-def]
            def drive(events: list[object]) -> None:
                for e in events:
                    if isinstance(e, SessionTurn) and session.legal_actions():
                        bot = spec.bots["greedy"](seat, secrets[seat] + e.seq.to_bytes(8, "big"))
                        session.submit(
                            bot.choose(session.state, session.knowledge, session.legal_actions()), settle=False
                        )

            return drive

        ta = RoomTransport(address, a, "pa", driver(a, 0), tick_ms=50)
        tb = RoomTransport(address, b, "pb", driver(b, 1), tick_ms=50)
        assert a.publish_first and b.publish_first
        await asyncio.wait_for(asyncio.gather(ta.run(), tb.run()), 60)
        assert a.finished and b.finished and a.verdict.fair and b.verdict.fair
        assert a.state.hash() == b.state.hash() and a.log_entries() == b.log_entries()
        assert len(a.written) > 10 and Watched.own_checked == 0

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_wire_vandal_without_the_key_is_noise_and_what_it_overwrites_is_put_back() -> None:
    """Someone without the room's key who sees the wire (the relay, or anyone subscribed to
    ``sealed/v2/#``) overwrites every retained message of the room with ciphertext-sized garbage:
    none of it reaches a session, each transport counts it as noise, and every entry is put back."""

    async def main() -> None:
        r = await relay()
        try:
            a, b = StubSession("ROOMWV", 0, length=50), StubSession("ROOMWV", 1, length=50)
            ta, tb = make_peer(r.address, a, "a", 0.03), make_peer(r.address, b, "b", 0.03)
            game = asyncio.gather(ta.run(), tb.run())
            while a.table.head < 10:
                await asyncio.sleep(0.02)
            async with raw_client(r.address, "vandal") as v:
                await v.subscribe(f"{topics.ROOT}/#", qos=1)
                wire: set[str] = set()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.5):
                        async for m in v.messages:
                            if m.retain:
                                wire.add(m.topic.value)
                assert len(wire) >= 10 and not any("ROOMWV" in t for t in wire), wire
                for t in sorted(wire):
                    await v.publish(t, os.urandom(512), qos=1, retain=True)  # a bucket's size, not ours
            await asyncio.wait_for(game, 30)
            got = await read_retained(r.address, "ROOMWV")
            assert [got.get(i) for i in range(50)] == [e.data for e in a.table.log]
            assert not (a.rejected or b.rejected), "the vandal's bytes never reached a session"
            assert ta.noise > 0 and tb.noise > 0
            assert any(rep.reason == "empty" for rep in ta.reports + tb.reports), "what it overwrote was put back"
        finally:
            await r.stop()

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_an_entry_written_is_handed_to_the_client_in_the_same_loop_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """``flush`` after a decision starts the entry's publication at once, not after the writer task wakes
    (three loop turns in which anything else ready, a card being opened, would go first)."""
    called: list[str] = []
    publish = RelayClient.publish  # the room's logical topics (aiomqtt's beneath it sees sealed ones)

    def noted(self, topic, *args, **kwargs):  # type: ignore[no-untyped-def]
        called.append(topic)
        return publish(self, topic, *args, **kwargs)

    monkeypatch.setattr(RelayClient, "publish", noted)
    at_once: list[bool] = []

    async def main() -> None:
        r = await relay()
        try:
            solo = StubSession("ROOMNW", 0, seats=1, length=12)
            transport: RoomTransport

            def drive(events: list[object]) -> None:
                for e in events:
                    if isinstance(e, YourTurn):
                        asyncio.get_running_loop().call_soon(write, e.seq)  # a decision taken later

            def write(seq: int) -> None:
                drive(solo.submit(seq))
                transport.flush()
                at_once.append(topics.log("ROOMNW", seq) in called)

            transport = RoomTransport(r.address, solo, "solo", drive, tick_ms=50, probe_timeout=5, linger_s=0.05)
            await asyncio.wait_for(transport.run(), 30)
            assert await read_retained(r.address, "ROOMNW") == {seq: solo.entry(seq, 0) for seq in range(12)}
        finally:
            await r.stop()

    asyncio.run(main())
    assert len(at_once) == 12 and all(at_once)


def test_idle_work_waits_for_a_quiet_room_and_then_goes_on_step_by_step() -> None:
    """The session's idle work (opening dealt cards) does not run in the loop turns right after an entry:
    an entry on its way from the socket to the reader would wait behind it.  Once the room is quiet
    it runs, one step at a time, to the end."""
    from relay.transport import room as transport_module

    class Opening(StubSession):
        def __init__(self) -> None:
            super().__init__("ROOMID", 0, seats=1, length=5)
            self.closed = 3

        def open_step(self) -> bool:
            self.closed -= 1
            return self.closed > 0

    async def main() -> None:
        session = Opening()
        transport = RoomTransport("127.0.0.1:1", session, "idle")  # never connects: only the loop matters
        transport._emit([])  # an entry was handled: idle work is due
        for _ in range(50):
            await asyncio.sleep(0)
        assert session.closed == 3  # not in the loop turns right after it
        await asyncio.sleep(transport_module.IDLE_AFTER_S * 3 + 0.05)
        assert session.closed == 0  # the room stayed quiet: every step ran

    asyncio.run(main())


def test_the_follower_is_woken_only_when_an_entry_gives_it_work() -> None:
    """While playing, an entry wakes the window follower only when the next log window or the notices
    ahead are due, the seats' topics are not watched yet, or the game is over (its own timeout does
    the rest), not for every entry on the path of the next one."""
    from relay.transport import room as transport_module

    session = StubSession("ROOMFW", 0, seats=2, length=200)
    transport = RoomTransport("127.0.0.1:1", session, "follow")  # never connects: only the bookkeeping
    assert transport._follower_due()  # nothing subscribed yet
    transport._watching, transport._window_end, transport._notice_end = True, 63, 16
    session.table.log += [Entry(session.entry(seq, seq % 2)) for seq in range(4)]
    assert session.table.head == 3
    assert not transport._follower_due()  # mid-window: the entry is no work for it
    transport._notice_end = 3 + transport_module.NOTICE_AHEAD // 2 - 1
    assert transport._follower_due()  # the notices ahead are due
    transport._notice_end = 64
    while session.table.head + transport_module.WINDOW // 2 <= transport._window_end:
        session.table.log.append(Entry(b"E"))
    assert transport._follower_due()  # the next window is due
    transport._window_end = 200
    assert not transport._follower_due()
    session.length = session.table.head + 1
    assert transport._follower_due()  # the game is over: the follower ends
