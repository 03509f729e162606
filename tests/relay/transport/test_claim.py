"""Two seats over a real Mosquitto: a claimant keeps listening, so the claimed seat's own entry voids its claim.

In a two-seat game a win claimed after disconnection ends the game for the claimant, but it is no
result: the silent seat's own signed entry for that seq voids it.  So the claimant's transport must
not stop with its session: that entry would reach nobody still listening, the silent seat would play
on alone, claim the (then really silent) claimant gone in turn, and the two seats would end with
contradicting claims.  Here seat 1's process is frozen (SIGSTOP) for longer than
the timeout, seat 0 claims, seat 1 is thawed: seat 0 must take seat 1's entry, void its claim and
play on, and both must finish one game, fair.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

from tests.relay.helpers import finished_fair, start_table, wait_for_line

TIMEOUT_MS = 2000


def test_the_claimed_seats_own_entry_voids_the_claim_over_a_real_relay(mosquitto_relay, tmp_path: Path) -> None:
    extra = ["--timeout-ms", str(TIMEOUT_MS), "--think-ms", "20", "--claim-wait", "60"]
    table = start_table(mosquitto_relay.address, tmp_path, players=2, extra=extra)
    frozen = table.peers[1]
    try:
        wait_for_line(frozen.out, r"^\[seat 1\] wrote entry", 30)  # into the game
        frozen.proc.send_signal(signal.SIGSTOP)
        wait_for_line(table.peers[0].out, r"^\[seat 0\] Gone\(seat=1", 30)  # seat 0 claimed: its game ended
        time.sleep(0.5)
        frozen.proc.send_signal(signal.SIGCONT)
        codes = table.wait(90)
    finally:
        if frozen.proc is not None and frozen.proc.poll() is None:
            frozen.proc.send_signal(signal.SIGCONT)
        table.kill_all()
    finished_fair(table, codes)
    assert "ClaimVoided(" in table.peers[0].text(), table.peers[0].text()
