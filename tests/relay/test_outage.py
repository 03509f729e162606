"""An outage chooses nobody's forfeit (issue 11, attack 6): a real Mosquitto, down longer than the timeout.

Two headless peers play System Launch with a short timeout (2.5 s).  The broker is stopped for
longer than that and started again.  While a peer cannot reach the relay its clock for timeouts
stands still, and after it reconnects it waits a full timeout before it may vote: the seat to
move publishes its entry in that time.  Nobody forfeits, nobody is named, the game ends fair.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

from relay_helpers import mosquitto, start_table, wait_for_line
from test_games import finished_fair

TIMEOUT_MS = 2500


def test_a_relay_outage_longer_than_the_timeout_makes_nobody_forfeit(mosquitto_path: str, tmp_path: Path) -> None:
    broker = mosquitto(mosquitto_path, tmp_path).start()
    table = start_table(
        broker.address, tmp_path, players=2, extra=["--timeout-ms", str(TIMEOUT_MS), "--think-ms", "80"]
    )
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
