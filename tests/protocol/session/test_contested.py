"""An aborter cannot hold the win by outwaiting the other seat's claim (the two-seat rule, contested claims).

The attack (docs/protocol.md, "Leaving and silence"): seat A owes entry n and goes silent; seat B
claims it gone and listens; B's program closes; A publishes its entry n (the relay's copy of the
claim on ``log/n`` is overwritten, and the entry voids the claim wherever it is read) and, B being
silent now, claims B gone at B's next slot m.  The claim B published on its own notice topic keeps
the voided claim beside the entry that voided it, so every reader of the record sees two silences
it cannot tell apart: contested, a win for nobody.  Where B came back and wrote an entry after n, A's
later claim is an ordinary claim.
"""

from __future__ import annotations

from protocol.events import CLAIMED, ClaimVoided, Verdict
from protocol.verify import verify_bytes
from tests.protocol.contest import Room, aborted


def assert_contested(verdict: Verdict | None, a: int, b: int, n: int, m: int) -> None:
    assert verdict is not None and verdict.kind == "contested", verdict
    assert not verdict.fair and not verdict.cheated and verdict.seat is None and verdict.seq == m
    for words in (f"seat {a}", f"seat {b}", f"entry {n}", f"entry {m}"):
        assert words in verdict.reason, (words, verdict.reason)


def test_an_aborter_that_outwaits_the_claim_against_it_wins_nothing_for_any_reader():
    room, a, b, n, m = aborted()
    aborter = room.peers[a]
    assert_contested(aborter.verdict, a, b, n, m)  # its own session
    assert_contested(room.watcher.verdict, a, b, n, m)  # an observer that heard it all live
    reader = room.fresh()  # a reader of the relay's retained log and notices, afterwards
    assert_contested(reader.verdict, a, b, n, m)
    for saved in (aborter.save(), room.watcher.save(), reader.save()):
        assert_contested(verify_bytes(saved), a, b, n, m)
    assert aborter.verdict == room.watcher.verdict == reader.verdict == verify_bytes(reader.save())
    # B's own program stopped on its claim: its record does not hold A's entry n, and says so (claimed).
    assert room.peers[b].verdict is not None and room.peers[b].verdict.kind == CLAIMED
    assert room.peers[b].verdict.seat == a


def test_the_claimed_seat_back_voids_the_contested_claim_and_play_goes_on():
    room, a, b, n, m = aborted(b"abort-back")
    back = room.fresh(b)  # B's program starts again and reads the relay's record back
    assert back.table.claim is None and not back.finished  # A's claim against it is refused: it owes m
    assert back.table.head == m - 1
    room.peers[b] = back
    room.stopped.discard(b)
    room.run()
    assert any(isinstance(e, ClaimVoided) and (e.seat, e.seq, e.claimant) == (b, m, a) for e in room.events[a])
    for peer in (*room.peers, room.watcher):
        assert peer.finished and peer.table.claim is None and peer.verdict is not None and peer.verdict.fair
        assert peer.table.log[m].seat == b and peer.table.log[n].seat == a
    assert room.peers[a].log_entries() == room.peers[b].log_entries() == room.watcher.log_entries()


def test_a_claimed_seat_that_came_back_and_wrote_on_is_claimed_as_usual_when_it_falls_silent():
    room = Room(b"honest-claim")
    room.run(until=room.owes_action)
    exp = room.peers[0].table.expected()
    assert exp is not None
    a, n = exp.writer, exp.seq
    b = 1 - a
    room.held.add(a)
    room.wait_out(b)  # B claims A gone at n and listens
    assert room.peers[b].table.claim == (b, a, n, True)
    room.held.discard(a)  # A's late entry n voids the claim while B listens; B plays on

    def b_wrote_on() -> bool:
        log = room.peers[a].table.log
        return any(e.seat == b for e in log[n + 1 :]) and room.owes_action(b, after=n)

    room.run(until=b_wrote_on)
    assert any(isinstance(e, ClaimVoided) and (e.seat, e.seq, e.claimant) == (a, n, b) for e in room.events[b])
    room.held.add(b)  # now B falls silent, after it wrote an entry past n
    m = room.peers[a].table.expected().seq
    room.wait_out(a)
    assert room.peers[a].table.claim == (a, b, m, True)
    for verdict in (
        room.peers[a].verdict,
        room.watcher.verdict,
        room.fresh().verdict,
        verify_bytes(room.peers[a].save()),
    ):
        assert verdict is not None and verdict.kind == CLAIMED and verdict.seat == b and verdict.seq == m, verdict
