"""The relay's listing is bounded: anyone may store cards under ``lobby/+``, valid and self-signed
or not, and one listing keeps at most ``MAX_LISTED`` of them and ``MAX_LISTED_BYTES`` while it reads,
the newest rooms first (a card that claims a time still to come is ranked as the oldest)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

import aiomqtt
import msgpack
import pytest

from protocol.crypto.signing import SigningKey
from relay import topics
from relay.lobby import listing
from relay.lobby.door import ListedRoom
from relay.lobby.listing import list_rooms
from relay.lobby.messages import seal
from tests.relay.helpers import BrokerProcess

pytestmark = pytest.mark.timeout(180)


def card(key: SigningKey, door: str, created: int, address: str, pad: int = 0) -> bytes:
    """An open listed room's card signed by the key it names; ``pad`` bytes of padding in a field nobody reads."""
    listed = ListedRoom(door, "system-launch", 2, 1, "Stranger", key.public_bytes(), bytes(32), created=created)
    signed = listed.encode(key)
    if not pad:
        return signed
    body = msgpack.unpackb(msgpack.unpackb(signed, raw=False)["body"], raw=False)
    return seal(key, {**body, "pad": os.urandom(pad)})


async def store(address: str, messages: dict[str, bytes]) -> None:
    """Retained, by a stranger: every message is kept by the relay when this returns.

    An acknowledgement says the relay has a message, not that it keeps it retained yet (amqtt
    stores it a moment later): the last one, read back on a subscription of its own, says all are.
    """
    host, port = address.rsplit(":", 1)
    async with aiomqtt.Client(host, int(port), identifier="stranger" + os.urandom(4).hex()) as client:
        for topic, payload in messages.items():
            await client.publish(topic, payload, qos=1, retain=True)
        last, payload = list(messages.items())[-1]
        async with asyncio.timeout(30):
            while True:
                async with aiomqtt.Client(host, int(port), identifier="reader" + os.urandom(4).hex()) as reader:
                    await reader.subscribe(last, qos=1)
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(0.5):
                            async for m in reader.messages:
                                if m.payload == payload:
                                    return


def test_a_listing_keeps_at_most_its_bound_of_cards_and_the_newest(any_relay: BrokerProcess) -> None:
    address = any_relay.address
    key = SigningKey.generate()
    now = int(time.time())
    total = listing.MAX_LISTED + 60
    codes = [f"L{i:05d}" for i in range(total)]
    # Created one second apart, in an order the relay does not keep (it sends topics in its own order).
    created = {code: now - 10_000 + (i * 7919) % total for i, code in enumerate(codes)}
    messages = {topics.lobby(code): card(key, code, created[code], address) for code in codes}
    messages |= {topics.lobby(f"G{i:05d}"): b"garbage-" + os.urandom(64) for i in range(300)}
    messages[topics.lobby("FUTURE")] = card(key, "FUTURE", now + 10**6, address)  # "the newest room of all"

    async def main() -> list[ListedRoom]:
        await store(address, messages)
        return await list_rooms(address, 20)

    rooms = asyncio.run(main())
    newest = sorted(codes, key=lambda c: created[c])[-listing.MAX_LISTED :]
    assert len(rooms) == listing.MAX_LISTED, len(rooms)
    assert {r.door for r in rooms} == set(newest), "the newest rooms, not the first the relay sent"
    assert [r.door for r in rooms] == newest, "oldest first, as always"


def test_a_listing_keeps_at_most_its_bound_of_bytes(any_relay: BrokerProcess) -> None:
    address = any_relay.address
    key = SigningKey.generate()
    now = int(time.time())
    codes = [f"P{i:05d}" for i in range(100)]
    # Valid cards padded to 14 KB each (a lobby message may be 16 KiB): 1.4 MB in all, more than the bound.
    messages = {topics.lobby(c): card(key, c, now - 1000 + i, address, pad=14_000) for i, c in enumerate(codes)}
    costs = [len(t) + len(p) for t, p in messages.items()]
    assert sum(costs) > listing.MAX_LISTED_BYTES

    async def main() -> list[ListedRoom]:
        await store(address, messages)
        return await list_rooms(address, 20)

    rooms = asyncio.run(main())
    fit = (listing.MAX_LISTED_BYTES // max(costs), listing.MAX_LISTED_BYTES // min(costs))
    assert fit[0] <= len(rooms) <= fit[1], (len(rooms), fit)
    assert [r.door for r in rooms] == codes[-len(rooms) :], "the newest that fit"
