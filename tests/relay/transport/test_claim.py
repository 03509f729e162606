"""Two seats over a real Mosquitto: a claimant keeps listening, so the claimed seat's own entry voids its claim.

In a two-seat game a win claimed after disconnection ends the game for the claimant, but it is no
result: the silent seat's own signed entry for that seq voids it.  So the claimant's transport must
not stop with its session: that entry would reach nobody still listening, the silent seat would play
on alone, claim the (then really silent) claimant gone in turn, and the two seats would end with
contradicting claims.  Here seat 1's process is frozen (SIGSTOP) for longer than
the timeout, seat 0 claims, seat 1 is thawed: seat 0 must take seat 1's entry, void its claim and
play on, and both must finish one game, fair.

And the other way round: an aborter that waits until the claimant gives up listening, then answers
and claims the claimant gone, holds no win on the relay (embedded and Mosquitto): the claim it voided
stays on the claimant's notice topic, and every later reader reads the game contested.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

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


# -- the aborter that outwaits the claim against it ------------------------------------------------------
ABORT_TIMEOUT_MS = 1500


@pytest.mark.timeout(120)
def test_an_aborter_that_outwaits_the_claim_against_it_reads_contested_from_the_relay(any_relay) -> None:
    """Two real sessions on two RoomTransports.  A goes silent owing entry n; B claims it gone; B's
    transport gives up listening (``claim_wait_s``) and stops; A, watching B's presence, publishes its
    entry n (the relay's ``log/n`` now holds it, not the claim) and claims B gone after one timeout.
    A fresh reader of the relay's retained log and notices reads contested: B's claim, kept on its own
    notice topic, stands beside the entry that voided it, and B wrote nothing since."""
    asyncio.run(_abort(any_relay.address))


async def _abort(address: str) -> None:
    import tests.protocol.toy_game  # noqa: F401  (registers "toy")
    from engines.core import RandomBot
    from protocol.events import CLAIMED, YourTurn
    from protocol.session import PeerSession
    from relay.transport.room import Backoff, Presence, RoomTransport, monotonic_ms
    from tests.protocol.helpers import seat_keys

    room, timeout = "ABORTS", ABORT_TIMEOUT_MS
    keys, secrets = seat_keys(b"relay-abort", 2)
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(2)]
    creator = keys[0].public_bytes()
    sessions = [
        PeerSession.create(room, "toy", {"rounds": 8}, cards, keys[0], secrets[0], timeout, monotonic_ms(), timeout),
        PeerSession.join(room, 1, keys[1], secrets[1], creator=creator, dev_timeout_ms=timeout),
    ]
    bots = [RandomBot(s, b"relay-abort") for s in range(2)]
    plan: dict[str, int] = {}  # "a": the aborter, "n": the entry it withholds, "released": once it wrote it
    transports: list[RoomTransport] = []

    def decide(seat: int) -> None:
        session = sessions[seat]
        if session.legal_actions():
            session.submit(bots[seat].choose(session.state, session.knowledge, session.legal_actions()), settle=False)

    def answer(seat: int) -> None:
        if "released" not in plan:
            plan["released"] = 1
            decide(seat)
            transports[seat].flush()

    def driver(seat: int):  # type: ignore[no-untyped-def]
        def drive(events: list[object]) -> None:
            for e in events:
                if isinstance(e, YourTurn) and e.seq == sessions[seat].table.head + 1:
                    if "a" not in plan and e.seq >= 8:
                        plan.update(a=seat, n=e.seq)  # the first decision past entry 8: this seat aborts here
                    if plan.get("a") != seat or e.seq != plan["n"] or "released" in plan:
                        decide(seat)
                elif isinstance(e, Presence) and e.status != "online" and e.seat != seat and plan.get("a") == seat:
                    answer(seat)  # B's program closed: A answers now

        return drive

    for seat in range(2):
        transports.append(
            RoomTransport(
                address, sessions[seat], f"p{seat}", driver(seat), tick_ms=50, backoff=Backoff(0.05, 0.5),
                linger_s=0.1, claim_wait_s=0.5,
            )
        )  # fmt: skip
    await asyncio.wait_for(asyncio.gather(*(t.run() for t in transports)), 60)
    a, n = plan["a"], plan["n"]
    b = 1 - a
    aborter, claimant = sessions[a], sessions[b]
    assert claimant.table.claim == (b, a, n, True) and claimant.verdict.kind == CLAIMED  # B stopped on its claim
    assert aborter.table.claim is not None and aborter.table.claim[:2] == (a, b)  # A claimed B gone after
    m = aborter.table.claim[2]
    # A fresh reader, afterwards, that does not linger: the game is over once it has read the log, and
    # its transport must still read the notices back before it ends.
    watcher = PeerSession(room, None, creator=creator, dev_timeout_ms=timeout)
    await asyncio.wait_for(RoomTransport(address, watcher, "watcher", tick_ms=50, linger_s=0).run(), 30)
    assert watcher.table.log[n].seat == a  # the relay's log holds A's entry n, not B's claim
    for verdict in (watcher.verdict, aborter.verdict):
        assert verdict is not None and verdict.kind == "contested", verdict
        assert verdict.seat is None and verdict.seq == m
        assert f"seat {b} had claimed seat {a} gone at entry {n}" in verdict.reason
