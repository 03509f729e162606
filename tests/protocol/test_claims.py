"""The record of two-seat claims: what counts as a claim the log voided, and which later claim it contests.

(That an entry of the claimed seat after its voided claim leaves a later claim ordinary is staged
with sessions in tests/protocol/session/test_contested.py.)
"""

from __future__ import annotations

from protocol.claims import VoidedClaim, claim_problem, contest, voided, voided_problem
from protocol.envelope import parse, seal
from tests.protocol.contest import aborted
from tests.protocol.helpers import seat_keys


def staged():
    """The aborter's replica after the attack, B's claim at n (as the relay kept it), and the seats and seqs."""
    room, a, b, n, m = aborted(b"claims-unit")
    return room, room.peers[a].table, parse(room.relay[f"notice/{b}/{n}/claim"]), a, b, n, m


def test_the_outwaited_claim_is_voided_by_the_aborters_entry_and_contests_the_aborters_claim():
    room, table, claim, a, b, n, m = staged()
    assert claim_problem(table, claim) is None and voided(table, claim) and voided_problem(table, claim) is None
    record = [VoidedClaim(b, a, n, claim)]
    assert contest(table, record, a, b, m) == record[0]
    assert contest(table, record, b, a, m) is None  # it contests only a claim against its own claimant
    assert contest(table, record, a, b, n) is None  # and only a later one
    own = room.peers[b].table  # B's own record ends with the claim itself: nothing there voids it
    assert claim_problem(own, claim) is None and not voided(own, claim)
    assert "does not hold" in (voided_problem(own, claim) or "")


def test_what_is_no_claim():
    room, table, claim, a, b, n, _ = staged()
    keys = seat_keys(room.seed, 2)[0]

    def signed(key, seat, prev=claim.prev, **body):  # type: ignore[no-untyped-def]
        return seal(key, room.room, n, prev, seat, "gone", {**claim.body, **body}, game=table.game_id)

    assert "not signed by seat" in (claim_problem(table, signed(keys[a], b)) or "")
    vote = seal(keys[a], room.room, n, claim.prev, a, "vote", {"target": a}, game=table.game_id)
    assert "vote" in (claim_problem(table, signed(keys[b], b, proofs=[vote.data])) or "")
    assert claim_problem(table, signed(keys[b], b, reason="left")) == "it is no silent departure"
    elsewhere = signed(keys[b], b, prev=bytes(32))  # its vote was cast after the real entry n - 1, not this one
    assert claim_problem(table, elsewhere) is not None and not voided(table, elsewhere)
    assert "not the two seats" in (claim_problem(table, signed(keys[b], b, target=b)) or "")
