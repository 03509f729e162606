"""Seat picking in a room: wished-for seats, taken seats, seats the host plays locally, start, cancel.

Every test runs against the real embedded relay (its own process, a free port).
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from relay.errors import NoSuchSeat, RoomClosed, SeatTaken
from relay.lobby.host import RoomHost
from relay.lobby.join import join_room, peek_room
from relay.lobby.listing import list_rooms
from relay.lobby.messages import LobbyCard
from tests.relay.helpers import BrokerProcess
from tests.relay.lobby.people import Person


async def _listed(address: str, code: str) -> LobbyCard:
    """Wait until the room's card is on the relay's listing, and return it."""
    for _ in range(100):
        for card in await list_rooms(address, 2):
            if card.is_room(code):
                return card
        await asyncio.sleep(0.05)
    raise AssertionError(f"room {code} never listed")


async def _until(predicate, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(what)


@pytest.mark.timeout(30)
def test_a_wished_seat_is_given_and_a_taken_one_refused(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address

    async def main() -> None:
        changes: list[LobbyCard] = []
        h, carol, dave, bob, erin = (Person(n) for n in ("Host", "Carol", "Dave", "Bob", "Erin"))
        host = RoomHost(address, "system-launch", 4, "hostpeer", "Host", h.card, key=h.key, on_change=changes.append)
        gathering = asyncio.create_task(host.gather(20))
        await _listed(address, host.code)
        seated = await join_room(address, host.code, **carol.join_args(), seat=2)
        assert seated.seat == 2, "the seat asked for, not the next in order"
        assert seated.host_key == h.key.public_bytes() and seated.creator == h.key.public_bytes()
        with pytest.raises(SeatTaken, match="seat 3"):
            await join_room(address, host.code, **dave.join_args(), seat=2)
        with pytest.raises(SeatTaken, match="seat 1"):  # seat 0 writes the genesis: the host's machine keeps it
            await join_room(address, host.code, **dave.join_args(), seat=0)
        with pytest.raises(NoSuchSeat, match="no seat 5") as missing:
            await join_room(address, host.code, **dave.join_args(), seat=4)
        assert missing.value.seats_total == 4
        seated = await join_room(address, host.code, **bob.join_args())
        assert seated.seat == 1, "without a wish: the lowest free seat"
        listed = await _listed(address, host.code)
        assert listed.seats_taken == 3 and not hasattr(listed, "names"), "the listing names nobody seated"
        card = await peek_room(address, host.code, host.fingerprint)
        assert card.names == ("Host", "Bob", "Carol", ""), "the sealed room card does, for its guests"
        assert (await join_room(address, host.code, **erin.join_args())).seat == 3
        assert await gathering == [h.card, bob.card, carol.card, erin.card]
        assert changes[-1].status == "started"
        await host.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_local_seats_wait_for_start_and_the_host_may_move(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address

    async def main() -> None:
        h, bot0, bot1, guest = (Person(n) for n in ("Host", "Greedy bot", "Random bot", "Guest"))
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(20))
        await _listed(address, host.code)
        await host.take_seat(1)
        with pytest.raises(SeatTaken):
            await host.take_seat(1)
        await host.seat_local(0, "bot0", "Greedy bot", bot0.card)
        updates: list[tuple[LobbyCard, int | None]] = []
        joining = asyncio.create_task(
            join_room(
                address,
                host.code,
                **guest.join_args(),
                until_started=True,
                on_update=lambda c, s: updates.append((c, s)),
            )
        )
        await _until(lambda: host.full(), "the guest is seated")
        assert host.seats["guest"] == 2 and not gathering.done()
        assert not joining.done(), "the joiner waits for the start"
        await host.free_local(0)
        assert not host.start(), "seat 0 is free: no start"
        await host.seat_local(0, "bot1", "Random bot", bot1.card)
        assert host.start()
        assert await gathering == [bot1.card, h.card, guest.card]
        seated = await joining
        assert seated.seat == 2 and seated.lobby.status == "started"
        assert seated.creator == bot1.key.public_bytes(), "the genesis' author is seat 0: the host's bot"
        assert any(c.names == ("Greedy bot", "Host", "Guest") and s == 2 for c, s in updates), [
            (c.names, c.version, s) for c, s in updates
        ]
        await host.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_cancel_closes_the_room_and_frees_seats(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address

    async def main() -> None:
        h, quitter_, stayer = Person("Host"), Person("Quitter", "quit"), Person("Stayer", "stay")
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(20))
        await _listed(address, host.code)
        # A joiner who gives up frees its seat.
        quitter = asyncio.create_task(join_room(address, host.code, **quitter_.join_args(), until_started=True))
        await _until(lambda: "quit" in host.seats, "the quitter is seated")
        quitter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await quitter
        await _until(lambda: "quit" not in host.seats, "the quitter's seat is free again")
        # A waiting joiner hears that the host closed the room.
        waiting = asyncio.create_task(join_room(address, host.code, **stayer.join_args(), until_started=True))
        await _until(lambda: "stay" in host.seats, "the stayer is seated")
        gathering.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gathering
        await host.close()
        with pytest.raises(RoomClosed):
            await waiting
        assert not any(card.is_room(host.code) for card in await list_rooms(address, 2))

    asyncio.run(main())
