"""A connection that stays up but passes nothing on (the broker holds back what it owes the client, or
the client stopped taking it) is replaced: the peer reads the log back on a new one and plays on."""

from __future__ import annotations

import asyncio

import pytest

from relay.transport import room as transport_module
from tests.relay.helpers import make_peer, relay
from tests.relay.transport.stub_session import StubSession


@pytest.mark.timeout(60)
def test_a_connection_that_passes_nothing_on_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport_module, "REFETCH_S", 0.5)
    monkeypatch.setattr(transport_module, "SYNC_TIMEOUT_S", 1.0)

    async def main() -> None:
        r = await relay()
        try:
            a, b = StubSession("ROOMDF", 0, length=40), StubSession("ROOMDF", 1, length=40)
            ta, tb = make_peer(r.address, a, "a", 0.02), make_peer(r.address, b, "b", 0.02)
            game = asyncio.gather(ta.run(), tb.run())
            while a.table.head < 10:
                await asyncio.sleep(0.02)
            deaf = ta._client
            assert deaf is not None
            deaf._client.on_message = lambda *_: None  # paho still acknowledges; nothing reaches the transport
            await asyncio.wait_for(game, 30)
            assert ta.connections >= 2 and ta._client is not deaf
            assert [e.data for e in a.table.log] == [e.data for e in b.table.log]
        finally:
            await r.stop()

    asyncio.run(main())
