"""A joiner's first look at a room: a card not there yet is waited for a few seconds; what it says is checked
before a seat is asked for."""

from __future__ import annotations

import asyncio

import pytest

from relay import topics
from relay.errors import RelayError, RoomNotFound
from relay.lobby.host import RoomHost
from relay.lobby.join import join_room, peek_room
from relay.lobby.messages import LobbyCard
from relay.mqtt import RelayClient
from tests.relay.helpers import BrokerProcess, raw_client, room_seal
from tests.relay.lobby.people import Person


async def _read_done(address: str, code: str, host_key: bytes, subscribed: asyncio.Event, done: asyncio.Event) -> None:
    """Set ``done`` once a lobby read of what the relay retains has ended (its marker cleared): a read of
    the public listing (a joiner with the code only looks there first) or of the sealed room, whose
    marker topic (the reader's own) stands alone on the wire: watched there as the room's first empty
    payload (the host is not there yet, so nothing else in the room is deleted)."""
    room_level = room_seal(code, host_key).topic(topics.room_card(code)).rsplit("/", 2)[0]
    async with raw_client(address, "watch") as listing, raw_client(address, "watch") as room:
        await listing.subscribe(f"{topics.LOBBY_ROOT}+/+", qos=1)  # a listing read's marker: lobby/{peer}/marker
        await room.subscribe(f"{room_level}/+/+", qos=1)
        subscribed.set()

        async def cleared(client: RelayClient) -> None:
            async for message in client.messages:
                if message.payload == b"":
                    return

        readers = [asyncio.ensure_future(cleared(c)) for c in (listing, room)]
        await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
        done.set()
        for r in readers:
            r.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("look", ["join", "peek"])
def test_a_guest_started_before_the_room_card_waits_for_it(any_relay: BrokerProcess, look: str) -> None:
    """The guest has read the relay and found no card; the host's card comes after: the guest finds the room."""
    address = any_relay.address

    async def main() -> None:
        h, guest = Person("Host"), Person("Guest")
        host = RoomHost(address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key)
        subscribed, read = asyncio.Event(), asyncio.Event()
        watch = asyncio.create_task(_read_done(address, host.code, h.key.public_bytes(), subscribed, read))
        await subscribed.wait()
        if look == "join":
            asking = asyncio.create_task(join_room(address, host.code, **guest.join_args(), timeout=20))
        else:
            asking = asyncio.create_task(peek_room(address, host.code, h.key.public_bytes()))
        read_back = asyncio.create_task(read.wait())
        await asyncio.wait({read_back, asking}, return_when=asyncio.FIRST_COMPLETED)
        read_back.cancel()
        assert not asking.done() or asking.exception() is None, asking.exception()
        gathering = asyncio.create_task(host.gather(20))  # the card only now
        got = await asking
        if look == "join":
            assert got.seat == 1 and await gathering == [h.card, guest.card]
        else:
            assert isinstance(got, LobbyCard) and got.code == host.code
            gathering.cancel()
            await asyncio.gather(gathering, return_exceptions=True)
        await watch
        await host.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_no_room_is_said_once_the_card_did_not_come(embedded_relay: BrokerProcess) -> None:
    from relay.lobby.join import CARD_WAIT

    async def main() -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(RoomNotFound, match="there is no room"):
            await join_room(embedded_relay.address, "ACDEFG", **Person("Nobody").join_args())
        assert loop.time() - started >= CARD_WAIT

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_joiner_checks_the_card_before_it_asks_for_a_seat(embedded_relay: BrokerProcess) -> None:
    """``check`` sees the host's card first; what it raises stops the joiner before any request is sent."""
    address = embedded_relay.address

    async def main() -> None:
        h, guest = Person("Host"), Person("Guest")
        host = RoomHost(address, "anomaly-maze", 2, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(20))
        await host.opened.wait()
        seen: list[str] = []

        def check(card: LobbyCard) -> None:
            seen.append(card.game)
            raise RelayError("no bot for this game")

        with pytest.raises(RelayError, match="no bot for this game"):
            await join_room(address, host.code, **guest.join_args(), timeout=20, check=check)
        assert seen == ["anomaly-maze"]
        assert host.waiting == {} and list(host.seats) == ["hostpeer"]
        gathering.cancel()
        await asyncio.gather(gathering, return_exceptions=True)
        await host.close()

    asyncio.run(main())
