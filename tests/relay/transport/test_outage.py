"""An outage chooses nobody's forfeit: a real Mosquitto, down longer than the timeout.

Two headless peers play System Launch with a short timeout (2 s).  The broker is stopped for
longer than that and started again.  While a peer cannot reach the relay its clock for timeouts
stands still, and after it reconnects it waits a full timeout before it may vote: the seat to
move publishes its entry in that time.  Nobody forfeits, nobody is named, the game ends fair.
(A claim made too early would also be voided by the claimed seat's own entry; with three seats the
votes of the two others would be a consensus: the clock is what protects them, shown directly by
the second test, a peer cut off by a proxy.)
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from tests.relay.helpers import finished_fair, mosquitto, start_table, wait_for_line

TIMEOUT_MS = 2000


def test_a_relay_outage_longer_than_the_timeout_makes_nobody_forfeit(mosquitto_path: str, tmp_path: Path) -> None:
    broker = mosquitto(mosquitto_path, tmp_path).start()
    extra = ["--timeout-ms", str(TIMEOUT_MS), "--think-ms", "20"]
    table = start_table(broker.address, tmp_path, players=2, extra=extra)
    try:
        wait_for_line(table.peers[1].out, r"^\[seat 1\] wrote entry", 30)  # into the game
        broker.stop(signal.SIGTERM)  # Mosquitto writes its database on the way down
        time.sleep(2 * TIMEOUT_MS / 1000)  # down for twice the timeout
        broker.start()
        codes = table.wait(90)
    finally:
        table.kill_all()
        broker.stop()
    finished_fair(table, codes)
    outputs = "\n\n".join(p.text() for p in table.peers)
    assert "Gone(" not in outputs and "CheatDetected" not in outputs, outputs
    assert all("reconnected" in p.text() or "Disconnected" in p.text() for p in table.peers), outputs


@pytest.mark.timeout(60)
def test_the_transport_stops_the_sessions_clock_while_cut_off_and_restarts_it_after_the_read_back() -> None:
    import asyncio

    from tests.relay.helpers import TcpProxy, make_peer, relay
    from tests.relay.transport.stub_session import StubSession

    class Clocked(StubSession):
        """Records what the transport tells it about the relay, and what it had read by then."""

        calls: list[tuple[str, int]]

        def connection_lost(self, now_ms: int) -> list:
            self.calls.append(("lost", self.table.head))
            return []

        def connected(self, now_ms: int, grace_ms: int = 0) -> list:
            self.calls.append(("connected", self.table.head))
            return []

    async def main() -> None:
        r = await relay()
        proxy = TcpProxy(r.port)
        try:
            a, b = Clocked("ROOMCL", 0, length=24), Clocked("ROOMCL", 1, length=24)
            a.calls, b.calls = [], []
            ta, tb = make_peer(proxy.address, a, "a", 0.02), make_peer(r.address, b, "b", 0.02)
            game = asyncio.gather(ta.run(), tb.run())
            while a.table.head < 10:
                await asyncio.sleep(0.02)
            proxy.cut()  # peer a cannot reach the relay; b plays on as far as it can
            while not any(call[0] == "lost" for call in a.calls):
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.5)
            assert a.calls[-1][0] == "lost"  # no "connected" while cut off: its clock stands still
            written = b.table.head  # all that b could write meanwhile
            proxy.restore()
            await asyncio.wait_for(game, 30)
            kinds = [kind for kind, _ in a.calls]
            first_lost, again = kinds.index("lost"), kinds.index("connected", kinds.index("lost"))
            assert kinds[0] == "connected" and set(kinds[first_lost:again]) == {"lost"}, a.calls
            # Told after the read-back: what b wrote while a was cut off was already applied.
            assert a.calls[again][1] >= written, (a.calls, written)
        finally:
            proxy.close()
            await r.stop()

    asyncio.run(main())
