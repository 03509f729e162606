"""A listed room behind its door: the listing shows what the host chose and no code; strangers knock.

Over a real relay, with an eavesdropper subscribed to everything: a stranger picks the room from the
listing, knocks, waits for the host, is let in or turned away, and what crossed the relay names
neither the room's code nor the stranger; a guest who knows the code finds the listed room by it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

import aiomqtt
import pytest

from relay import topics
from relay.errors import Refused, RelayError
from relay.lobby.door import DOOR_LETTERS, ListedRoom, door_of, make_knock, open_knock
from relay.lobby.host import RoomHost
from relay.lobby.invitation import LISTED_CODE_LENGTH
from relay.lobby.join import join_room
from relay.lobby.listing import list_rooms
from relay.lobby.messages import Dropped
from relay.seal import BUCKETS
from tests.relay.helpers import BrokerProcess
from tests.relay.lobby.people import Person

pytestmark = pytest.mark.timeout(60)


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(what)


async def _listed(address: str, host: RoomHost) -> ListedRoom:
    for _ in range(200):
        found = [room for room in await list_rooms(address, 2) if room.door == host.door]
        if found:
            return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError("the room never showed in the listing")


async def _eavesdrop(address: str, heard: list[tuple[str, bytes]], ready: asyncio.Event) -> None:
    host, port = address.rsplit(":", 1)
    async with aiomqtt.Client(host, int(port), identifier="ear" + os.urandom(3).hex()) as client:
        await client.subscribe(f"{topics.ROOT}/#", qos=1)
        ready.set()
        async for m in client.messages:
            heard.append((m.topic.value, bytes(m.payload) if isinstance(m.payload, bytes) else b""))


def test_a_stranger_knocks_waits_for_the_host_and_the_relay_learns_no_code_and_no_name(
    embedded_relay: BrokerProcess,
) -> None:
    address = embedded_relay.address
    h, ann, bob = Person("Hostessa Widoczna"), Person("Annabel Nieznana", "ann"), Person("Bartholomew Obcy", "bob")

    async def main() -> None:
        heard: list[tuple[str, bytes]] = []
        ready = asyncio.Event()
        ear = asyncio.create_task(_eavesdrop(address, heard, ready))
        await ready.wait()
        host = RoomHost(address, "system-launch", 3, "hostpeer", h.name, h.card, key=h.key, admit=False, listed=True)
        gathering = asyncio.create_task(host.gather(30))
        assert len(host.code) == LISTED_CODE_LENGTH and len(host.door) == DOOR_LETTERS
        listed = await _listed(address, host)
        assert (listed.host, listed.game, listed.seats_total, listed.seats_taken) == (h.name, "system-launch", 3, 1)
        assert listed.is_room(host.code) and listed.fingerprint == host.fingerprint

        asking = asyncio.create_task(join_room(address, listed, **ann.join_args(), timeout=20))
        refused = asyncio.create_task(join_room(address, listed, **bob.join_args(), timeout=20))
        await _until(lambda: {"ann", "bob"} <= set(host.waiting), "both knocks wait")
        assert host.waiting["ann"].name == ann.name and not asking.done()
        await host.refuse("bob")
        with pytest.raises(Refused):
            await refused
        assert await host.accept("ann") == 1
        seated = await asking
        assert seated.seat == 1 and seated.lobby.code == host.code and seated.host_key == h.key.public_bytes()
        await gathering_cancelled(gathering, host)
        ear.cancel()

        secrets = [host.code, host.code.lower(), ann.name, bob.name, host.token]
        for topic, payload in heard:
            assert len(topic.split("/")) <= 7, topic
            for secret in secrets:
                assert secret not in topic and secret.encode() not in payload, (secret, topic)
            if "/knock/" in topic or "/answer/" in topic:
                assert not payload or len(payload) in BUCKETS, (topic, len(payload))  # knocks and answers
        assert any("/knock/" in t for t, _ in heard) and any("/answer/" in t for t, _ in heard)

    asyncio.run(main())


async def gathering_cancelled(gathering: asyncio.Task[list[bytes]], host: RoomHost) -> None:
    gathering.cancel()
    await asyncio.gather(gathering, return_exceptions=True)
    await host.close()


def test_a_guest_who_knows_a_listed_rooms_code_finds_it_by_the_code_alone(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address
    h, ann = Person("Host"), Person("Ann")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key, listed=True)
        gathering = asyncio.create_task(host.gather(30))
        await _listed(address, host)
        seated = await join_room(address, host.code, **ann.join_args(), timeout=20)
        assert seated.seat == 1 and seated.host_key == h.key.public_bytes()
        assert await gathering == [h.card, ann.card]
        await host.close()

    asyncio.run(main())


def test_a_listed_room_needs_a_long_code_and_a_knock_for_another_door_is_not_read() -> None:
    h = Person("Host")
    with pytest.raises(RelayError, match="24 letters"):
        RoomHost("127.0.0.1:1", "system-launch", 2, "hostpeer", "Host", h.card, key=h.key, code="ACDEFG", listed=True)
    host = RoomHost("127.0.0.1:1", "system-launch", 2, "hostpeer", "Host", h.card, key=h.key, listed=True)
    other = ListedRoom(door_of("X" * 24, h.key.public_bytes()), "system-launch", 2, 1, "Host", h.key.public_bytes(),
                       host.listing().knock)  # fmt: skip
    ann = Person("Ann")
    knock = make_knock(other, ann.key, "ann", ann.card, None, os.urandom(16))
    with pytest.raises(Dropped):
        open_knock(host._door_key, host.door, host.host_key, knock.payload, "ann")
