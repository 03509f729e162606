"""No wildcard in a room: notices, presence and requests are read on exact per-seat topics, so a flood
of retained garbage on the topics a wildcard would match reaches nobody and hides nothing, on the
embedded relay and on Mosquitto (whose per-client queue of 1,000 a wildcard's flood overflows)."""

from __future__ import annotations

import asyncio
import os

import pytest

from relay import topics
from tests.relay.helpers import BrokerProcess, insider_client, make_peer
from tests.relay.transport.stub_session import Outbound, StubSession

ROOT = topics.ROOT


class NoticingStub(StubSession):
    """A stub seat that also writes one notice (about entry ``notice_seq``) and keeps the notices it reads."""

    def __init__(self, *args: object, notice_seq: int = -1, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.notice_seq = notice_seq
        self.notices: list[bytes] = []
        self._notes: list[Outbound] = []

    def submit(self, seq: int) -> list[object]:
        if seq == self.notice_seq:
            data = f"N|{seq}|{self.seat}|{self.room}".encode()
            self._notes.append(Outbound(seq, data, f"notice/{self.seat}/{seq}/vote"))
        return super().submit(seq)

    def take_notices(self) -> list[Outbound]:
        out, self._notes = self._notes, []
        return out

    def receive(self, data: bytes, now_ms: int) -> list[object]:
        if data.startswith(b"N|"):
            if data not in self.notices:
                self.notices.append(data)
            return []
        return super().receive(data, now_ms)


async def flood(address: str, room: str, count: int) -> None:
    """Retained garbage wherever a room wildcard reaches: other seats' notices, odd notice kinds, presence
    and requests of invented peers.  Sealed by someone who holds the room's key, so each one opens for
    whoever subscribed its topic (a wildcard of the room would bring them all)."""
    base = f"{ROOT}/room/{room}"
    async with insider_client(address, room, kind="flood") as c:
        for i in range(count):
            where = (
                f"{base}/presence/x{i}",
                f"{base}/notice/{7 + i % 40}/{i % 60}/vote",
                f"{base}/notice/{i % 2}/{i % 60}/junk{i}",
                f"{base}/want/x{i}",
            )[i % 4]
            await c.publish(where, b"garbage-" + os.urandom(16), qos=1, retain=True)


@pytest.mark.timeout(120)
def test_a_flood_on_notice_presence_and_want_topics_hides_nothing(any_relay: BrokerProcess) -> None:
    address, room, length = any_relay.address, "FLOODN", 60

    async def main() -> None:
        await flood(address, room, 1500)  # Mosquitto queues at most 1,000 messages per client
        a = NoticingStub(room, 0, length=length, notice_seq=length - 4)
        b = NoticingStub(room, 1, length=length)
        ta, tb = make_peer(address, a, "a"), make_peer(address, b, "b")
        await asyncio.wait_for(asyncio.gather(ta.run(), tb.run()), 60)
        assert a.table.head == b.table.head == length - 1
        late = NoticingStub(room, None, length=length)
        tl = make_peer(address, late, "late")
        await asyncio.wait_for(tl.run(), 30)
        assert [e.data for e in late.table.log] == [e.data for e in a.table.log]
        # The real notice and both seats' presence got through; not one garbage message was delivered.
        assert late.notices == [f"N|{length - 4}|0|{room}".encode()]
        assert {s: p.status for s, p in tl.presence.items()} == {0: "done", 1: "done"}
        assert not late.rejected and not a.rejected and not b.rejected
        assert all(t.wants_dropped == 0 for t in (ta, tb, tl))

    asyncio.run(main())
