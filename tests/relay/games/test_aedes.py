"""A whole game on Aedes, a second broker implementation (Node): it sends a subscriber its own
non-retained marker before the retained messages, so nothing may rely on that order."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from relay import topics
from relay.transport.room import Connected
from tests.relay.helpers import BrokerProcess, finished_fair, insider_client, make_peer, start_table
from tests.relay.transport.stub_session import StubSession


@pytest.mark.timeout(120)
def test_a_whole_game_on_aedes(aedes_relay: BrokerProcess, tmp_path: Path) -> None:
    table = start_table(aedes_relay.address, tmp_path, players=3)
    try:
        codes = table.wait(90)
    finally:
        table.kill_all()
    finished_fair(table, codes)
    logs = {(tmp_path / f"peer{i}" / "game.sealed").read_bytes() for i in range(3)}
    assert len(logs) == 1


@pytest.mark.timeout(60)
def test_the_read_back_on_aedes_is_whole_when_the_transport_says_connected(aedes_relay: BrokerProcess) -> None:
    """300 retained entries: every one is applied before the driver hears Connected (and may act)."""

    async def main() -> None:
        async with insider_client(aedes_relay.address, "AEDESX", kind="writer") as c:  # sealed, as a seat writes
            for seq in range(300):
                await c.publish(topics.log("AEDESX", seq), f"E|{seq}|{seq % 2}|AEDESX".encode(), qos=1, retain=True)
        late = StubSession("AEDESX", None, length=300)
        heads: list[int] = []
        transport = make_peer(aedes_relay.address, late, "late")
        inner = transport.driver

        def driver(events: list[object]) -> None:
            heads.extend(late.table.head for e in events if isinstance(e, Connected))
            inner(events)

        transport.driver = driver
        await asyncio.wait_for(transport.run(), 30)
        assert heads == [299]

    asyncio.run(main())
