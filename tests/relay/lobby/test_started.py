"""A room counts as started only once the relay has passed its "started" seat list on.

A PUBACK says the relay has a message, not that it handed it to its subscribers: the embedded relay
(amqtt 0.12) acknowledges a publication as it reads it and passes it on later, and drops what it has
not passed on yet when its sender disconnects.  A host that went on (closed its lobby connection) at
the acknowledgement of "started" could leave a seated joiner waiting for a start that never came.
The relay here lags behind its acknowledgements on purpose, as a busy machine makes it do.
"""

from __future__ import annotations

import asyncio

import pytest

from relay.broker import embedded
from relay.lobby.host import RoomHost
from relay.lobby.join import join_room
from tests.relay.helpers import relay
from tests.relay.lobby.people import Person

#: How long the relay takes to pass each publication on after acknowledging it.
LAG_S = 0.05


@pytest.mark.timeout(60)
def test_a_joiner_hears_the_start_though_the_relay_lags_behind_its_acknowledgements(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deliver = embedded._LimitedBroker._handle_message_delivery

    async def lagging(self, session, handler, wait_deliver):  # type: ignore[no-untyped-def]
        await asyncio.sleep(LAG_S)
        return await deliver(self, session, handler, wait_deliver)

    monkeypatch.setattr(embedded._LimitedBroker, "_handle_message_delivery", lagging)
    h, guest = Person("Host"), Person("Guest")

    async def main() -> None:
        lagged = await relay()
        try:
            host = RoomHost(lagged.address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key)
            gathering = asyncio.create_task(host.gather(20))
            await host.opened.wait()
            seated = await join_room(lagged.address, host.code, **guest.join_args(), timeout=10, until_started=True)
            assert seated.seat == 1
            assert await gathering == [h.card, guest.card]
            await host.close()
        finally:
            await lagged.stop()

    asyncio.run(main())
