"""A connection ends, and ``run()`` returns, even when one of its tasks swallows a cancellation.

Under Python 3.11 ``asyncio.wait_for`` (inside aiomqtt's publish and subscribe, and the transport's
own waits) loses a cancellation that arrives as its wait ends.  The task that follows the log goes
on while the game is not over; cancelled once as its connection ended, it could follow a silent
connection for ever, and ``run()`` never returned.  The follower here swallows the first
cancellation on purpose, as that race does.
"""

from __future__ import annotations

import asyncio

import aiomqtt
import pytest

from relay.transport.room import RoomTransport
from tests.relay.helpers import make_peer, relay
from tests.relay.transport.stub_session import StubSession


@pytest.mark.timeout(60)
def test_a_stopped_transport_returns_though_its_follower_swallows_one_cancellation() -> None:
    swallowed: list[bool] = []

    async def stubborn_follow(self: RoomTransport, client: aiomqtt.Client, step: int) -> None:
        try:
            await RoomTransport._follow(self, client, step)
        except asyncio.CancelledError:
            swallowed.append(True)  # as wait_for in 3.11 may do: carry on following
            await RoomTransport._follow(self, client, step)

    async def main() -> None:
        r = await relay()
        try:
            a, b = StubSession("ROOMSC", 0, length=400), StubSession("ROOMSC", 1, length=400)
            ta, tb = make_peer(r.address, a, "a", 0.02), make_peer(r.address, b, "b", 0.02)
            ta._follow = stubborn_follow.__get__(ta)  # type: ignore[method-assign]
            running = asyncio.ensure_future(ta.run()), asyncio.ensure_future(tb.run())
            while a.table.head < 10:
                await asyncio.sleep(0.02)
            ta.stop()
            tb.stop()
            done, _ = await asyncio.wait(running, timeout=5)  # well before a stalled read step (3 s + 10 s) ends it
            assert swallowed == [True]
            assert len(done) == 2, "a stopped transport's run() returned"
            for task in done:
                task.result()
        finally:
            await r.stop()

    asyncio.run(main())
