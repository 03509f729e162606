"""A host's gathering ends even when its message reader swallows a cancellation.

Under Python 3.11, ``asyncio.wait_for`` (inside aiomqtt's QoS 1 publish) loses a cancellation that
arrives as the publish is confirmed; the room's reader publishes while it handles a message, so
the reader cancelled at the start could go on reading for ever, and the room never started (seen
in the desktop program: every seat taken, Start clicked, no game).  The reader here swallows the
first cancellation on purpose, as that race does.
"""

from __future__ import annotations

import asyncio

import pytest

from relay.lobby.host import RoomHost
from relay.lobby.join import peek_room
from tests.relay.helpers import BrokerProcess
from tests.relay.lobby.people import Person


@pytest.mark.timeout(30)
def test_the_room_starts_though_its_reader_swallows_one_cancellation(embedded_relay: BrokerProcess) -> None:
    h = Person("Host")
    swallowed: list[bool] = []
    reading: list[bool] = []

    class Stubborn(RoomHost):
        async def _collect(self, client):  # type: ignore[no-untyped-def]
            reading.append(True)
            try:
                await super()._collect(client)
            except asyncio.CancelledError:
                swallowed.append(True)  # as wait_for in 3.11 may do: carry on reading
            await asyncio.Event().wait()

    async def main() -> list[bytes]:
        host = Stubborn(
            embedded_relay.address, "system-launch", 1, "hostpeer", "Host", h.card, key=h.key, auto_start=False
        )
        gathering = asyncio.ensure_future(host.gather(60))
        while not reading:  # the host says "start" once the room is open and read
            await asyncio.sleep(0.05)
        assert host.start()
        return await asyncio.wait_for(gathering, 5)

    cards = asyncio.run(main())
    assert cards == [h.card] and swallowed == [True]


@pytest.mark.timeout(30)
def test_a_host_cancelled_while_it_publishes_its_seat_list_is_cancelled(mosquitto_relay: BrokerProcess) -> None:
    """The caller's cancellation lands in the publish of the seat list (a peek returns once the card is
    there, which is when the host publishes the list after it): the gathering ends cancelled, not by
    its own timeout."""
    address = mosquitto_relay.address
    h = Person("Host")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(4))
        await peek_room(address, host.code, h.key.public_bytes())
        gathering.cancel()
        await asyncio.gather(gathering, return_exceptions=True)
        assert gathering.cancelled(), gathering.exception()
        await host.close()

    asyncio.run(main())
