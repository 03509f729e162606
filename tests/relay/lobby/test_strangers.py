"""Strangers on a shared relay stage each attack on the lobby, and are defeated.

Each test runs on the embedded relay and on Mosquitto with the shipped ACL (``any_relay``); the
stranger is an ordinary MQTT client of the same relay, allowed to read and write every lobby topic,
and it holds the room's key (:mod:`relay.seal`): it read the room code and the host's fingerprint,
as a guest of the room does, or found a listed room.  So everything it writes opens for the host
and the joiners: the strongest stranger there is.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import msgpack
import pytest

from client.headless.peer import open_session, parse_args, resolve_join
from client.headless.state_dir import StateDir
from protocol.events import Rejected, Started
from protocol.session import PeerSession
from protocol.table import SeatInfo
from relay import topics
from relay.lobby.host import RoomHost
from relay.lobby.invitation import fingerprint
from relay.lobby.join import join_room
from relay.lobby.listing import list_rooms
from relay.lobby.messages import JoinRequest, LobbyCard, SeatList
from relay.mqtt import RelayClient
from tests.relay.helpers import BrokerProcess, insider_client
from tests.relay.lobby.people import Person

pytestmark = pytest.mark.timeout(40)


def stranger(address: str, host: RoomHost) -> RelayClient:
    """A client that holds the key of ``host``'s room."""
    return insider_client(address, host.code, host.host_key, "stranger")


async def until(predicate: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(what)


async def listed(address: str, code: str) -> LobbyCard | None:
    return next((c for c in await list_rooms(address, 2) if c.is_room(code)), None)


async def retained(address: str, host: RoomHost, topic: str) -> bytes:
    """The retained message of ``topic`` of ``host``'s room (b"" if none), read by a fresh client."""
    async with stranger(address, host) as client:
        await client.subscribe(topic, qos=1)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                async for m in client.messages:  # (amqtt 0.12 also sends other topics' retained messages)
                    if m.topic.value == topic:
                        return bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""
    return b""


async def stop(task: asyncio.Task[object]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def fake_genesis(room: str, cards: list[bytes], key: Person) -> bytes:
    """A genesis the stranger signs itself, giving each seat the keys of the card it read."""
    seats = [SeatInfo(**{k: v for k, v in msgpack.unpackb(c).items()}) for c in cards]
    session = PeerSession.create(room, "system-launch", {}, seats, key.key, key.secret, now_ms=0)
    return bytes(session.take_outgoing()[0].data)


def test_a_fake_genesis_does_not_capture_a_joiner_by_invitation(any_relay: BrokerProcess, tmp_path: Path) -> None:
    """The stranger reads the retained join request, writes a genesis naming the joiner's keys: refused."""
    address = any_relay.address
    h, mallory = Person("Host"), Person("Mallory")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(20))
        await until(lambda: host.notes is not None and host._client is not None, "the room is open")
        args = parse_args(["--join", host.invitation().link(), "--state-dir", str(tmp_path / "j"), "-q"])
        resolve_join(args)
        store = StateDir(args.state_dir)
        joining = asyncio.create_task(open_session(args, store, lambda _t: None))
        async with stranger(address, host) as client:  # the stranger reads the joiner's retained request
            await client.subscribe(topics.join_filter(host.code), qos=1)
            async for m in client.messages:
                if topics.last_segment(m.topic.value) == store.peer and m.payload:
                    break
            body = msgpack.unpackb(msgpack.unpackb(m.payload)["body"])
            fake = fake_genesis(host.code, [mallory.card, body["card"]], mallory)
            await client.publish(topics.log(host.code, 0), fake, qos=1, retain=True)
        cards = await gathering
        session, _ = await joining
        events = session.receive(fake, 0)
        assert session.table is None and any(isinstance(e, Rejected) and "creator" in e.reason for e in events)
        seats = [SeatInfo(**msgpack.unpackb(c)) for c in cards]
        real = PeerSession.create(host.code, "system-launch", {}, seats, h.key, h.secret, now_ms=0)
        events = session.receive(bytes(real.take_outgoing()[0].data), 0)
        assert any(isinstance(e, Started) for e in events) and session.table is not None
        await host.close()

    asyncio.run(main())


def test_an_empty_request_and_a_strangers_card_under_the_victims_id_do_not_take_its_seat(
    any_relay: BrokerProcess,
) -> None:
    address = any_relay.address
    h, victim, mallory, carol = Person("Host"), Person("Victim"), Person("Mallory", "victim"), Person("Carol")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(20))
        await until(lambda: host._client is not None, "the room is open")
        seated = await join_room(address, host.code, **victim.join_args(), host_key=host.fingerprint)
        assert seated.seat == 1
        topic = topics.join(host.code, "victim")
        original = await retained(address, host, topic)
        async with stranger(address, host) as client:
            await client.publish(topic, b"", qos=1, retain=True)  # "the victim withdrew"
            await until(lambda: host.repairs >= 1, "the host puts the victim's request back")
            # Mallory's own signed request under the victim's peer id, and an unsigned one as before.
            theirs = JoinRequest.make(
                mallory.key, host.code, host.host_key, "victim", mallory.card, None, os.urandom(16)
            )
            await client.publish(topic, theirs.message, qos=1, retain=True)
            unsigned = {"peer": "victim", "name": "Mallory", "card": mallory.card}
            await client.publish(topic, msgpack.packb(unsigned), qos=1, retain=True)
            both = ("not a signed", "another seat card")
            await until(lambda: all(any(w in n for n in host.notes) for w in both), "the host drops both")
        assert host.seats["victim"] == 1 and host.requests["victim"].card == victim.card
        for _ in range(50):  # the host's copy of the victim's signed request is the one the relay keeps
            if await retained(address, host, topic) == original:
                break
        else:
            raise AssertionError("the victim's request was not put back")
        await join_room(address, host.code, **carol.join_args(), host_key=host.host_key)
        assert await gathering == [h.card, victim.card, carol.card]
        await host.close()

    asyncio.run(main())


def test_invented_requests_wait_for_the_host_and_never_fill_the_room(any_relay: BrokerProcess) -> None:
    """Two invented join requests in a 3-seat room: the host decides, and the room starts without them."""
    address = any_relay.address
    h, mallory, bob, carol = Person("Host"), Person("Mallory"), Person("Bob"), Person("Carol")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key, admit=False)
        gathering = asyncio.create_task(host.gather(20))
        await until(lambda: host._client is not None, "the room is open")
        async with stranger(address, host) as client:
            invented = {"peer": "ghost", "name": "Ghost", "card": Person("Ghost").card}
            await client.publish(topics.join(host.code, "ghost"), msgpack.packb(invented), qos=1, retain=True)
            signed = JoinRequest.make(mallory.key, host.code, host.host_key, "mal", mallory.card, None, os.urandom(16))
            await client.publish(topics.join(host.code, "mal"), signed.message, qos=1, retain=True)
            await until(lambda: "mal" in host.waiting, "the stranger's request waits for the host")
        assert list(host.seats) == ["hostpeer"] and "ghost" not in host.waiting
        assert any("join/ghost: dropped" in n for n in host.notes)
        await host.refuse("mal")
        joiners = [
            asyncio.create_task(join_room(address, host.code, **p.join_args(), host_key=host.fingerprint))
            for p in (bob, carol)
        ]
        await until(lambda: len(host.waiting) == 2, "both friends wait for the host")
        assert not gathering.done()
        for peer in list(host.waiting):
            await host.accept(peer)
        cards = await gathering
        assert sorted(cards) == sorted([h.card, bob.card, carol.card])
        assert {(await j).seat for j in joiners} == {1, 2}
        await host.close()

    asyncio.run(main())


def test_a_headless_style_host_seats_only_the_keys_it_was_given(any_relay: BrokerProcess) -> None:
    address = any_relay.address
    h, mallory, bob = Person("Host"), Person("Mallory"), Person("Bob")
    wanted = {fingerprint(bob.key.public_bytes())}

    async def main() -> None:
        host = RoomHost(
            address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key,
            admit=lambda req: fingerprint(req.sign_key) in wanted,
        )  # fmt: skip
        gathering = asyncio.create_task(host.gather(20))
        await until(lambda: host._client is not None, "the room is open")
        from relay.errors import Refused

        with pytest.raises(Refused):
            await join_room(address, host.code, **mallory.join_args(), host_key=host.fingerprint)
        assert (await join_room(address, host.code, **bob.join_args(), host_key=host.fingerprint)).seat == 1
        assert await gathering == [h.card, bob.card]
        await host.close()

    asyncio.run(main())


def test_fake_seat_lists_and_cards_do_not_send_a_waiting_joiner_off(any_relay: BrokerProcess) -> None:
    """A fake seats map, a stranger's "started" card, a replayed old list, an emptied card: all ignored or repaired."""
    address = any_relay.address
    h, guest, bob, mallory = Person("Host"), Person("Guest"), Person("Bob"), Person("Mallory")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key, auto_start=False)
        gathering = asyncio.create_task(host.gather(20))
        await until(lambda: host._client is not None, "the room is open")
        old_list = await retained(address, host, topics.seats(host.code))
        notes: list[str] = []
        updates: list[int | None] = []
        joining = asyncio.create_task(
            join_room(
                address, host.code, **guest.join_args(), host_key=host.fingerprint, until_started=True,
                on_note=notes.append, on_update=lambda _c, s: updates.append(s),
            )
        )  # fmt: skip
        await until(lambda: "guest" in host.seats and 1 in updates, "the guest is seated and knows it")
        code = host.code
        async with stranger(address, host) as client:
            await client.publish(topics.seats(code), msgpack.packb({"guest": 2}), qos=1, retain=True)
            forged = SeatList(2**40, "started", {"guest": (2, guest.card)}).encode(mallory.key, code)
            await client.publish(topics.seats(code), forged, qos=1, retain=True)
            started = LobbyCard(
                code, "system-launch", 3, 3, "Host", address, "started", host_key=mallory.key.public_bytes()
            )
            await client.publish(topics.room_card(code), started.encode(mallory.key), qos=1, retain=True)
            await client.publish(topics.seats(code), old_list, qos=1, retain=True)  # the host's own, replayed
            await until(lambda: sum("seat list dropped" in n for n in notes) >= 3, "the joiner drops the fakes")
            for _ in range(50):  # the host puts its own seat list and card back
                if (
                    await retained(address, host, topics.seats(code)),
                    await retained(address, host, topics.room_card(code)),
                ) == (
                    host._want[topics.seats(code)],
                    host._want[topics.room_card(code)],
                ):
                    break
            else:
                raise AssertionError("the host's seat list and card are not back on the relay")
            assert host.repairs >= 2 and not joining.done(), "the joiner still waits for the host's start"
            await client.publish(topics.lobby(host.door), b"", qos=1, retain=True)  # "the room is gone"
            await until(lambda: any("listing card was overwritten" in n for n in host.notes), "the host sees it")
        for _ in range(50):
            card = await listed(address, code)
            if card is not None:
                break
        assert card is not None and card.host_key == h.key.public_bytes(), "the room is listed again"
        assert not joining.done()
        await join_room(address, code, **bob.join_args(), host_key=host.fingerprint)
        assert host.start()
        await gathering
        seated = await joining
        assert seated.seat == host.seats["guest"] == 1 and seated.creator == h.key.public_bytes()
        await host.close()

    asyncio.run(main())
