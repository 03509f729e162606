"""Silence is not cheating; no one decides alone what benefits them.

Each test stages one attack over the simulator's seeded network (or in lockstep): a seat that
declares its opponent gone on its own vote alone (two seats), the same as a free veto on a die,
a relay that holds one honest seat's entries back for a timeout, an honest seat that closes
before publishing its end-of-game secrets while the other broke a secret-dependent rule, and
a leave notice that overtakes the leaver's last entry.
"""

from __future__ import annotations

import heapq

import pytest

from protocol.envelope import parse
from protocol.events import CLAIMED, CONTESTED, DISCONNECTED, ClaimVoided
from protocol.session import PeerSession
from protocol.sim.cheats.catalogue import CHEATS, staged_label
from protocol.sim.network import TIMEOUT_MS, _Network, classify, play
from protocol.verify import verify_bytes
from tests.protocol.departures import assert_all_agree, run, setup
from tests.protocol.helpers import lockstep, replica, run_lockstep


# -- two-seat ejection ---------------------------------------------------------------------
def ejection(cheat: str, game: str, cheater: int = 1):
    """The first seeded two-seat game in which the cheater (at ``cheater``) ejects its opponent."""
    made: list[PeerSession] = []

    class Watched(CHEATS[cheat]):  # type: ignore[misc, valid-type]
        def __new__(cls, *args, **kwargs):  # seat 0 is made without __init__ (see simulate._create_as)
            made.append(super().__new__(cls))
            return made[-1]

    for index in range(16):
        made.clear()
        run_ = play(game, 2, f"eject/{cheat}/{cheater}/{index}".encode(), cheat, cheater, classes={cheater: Watched})
        if made[0].ejected is not None:
            for verdict in run_.verdicts.values():  # the simulator's label: the kind this cheat stages
                assert classify(verdict) == staged_label(cheat, cheater), verdict
            return run_, made[0], made[0].ejected
        assert run_.agreed() == "fair", run_.verdicts  # nothing staged: nothing to find
    pytest.fail(f"{cheat}: no chance to eject in 16 games")


# The dice cheater at seat 0 reveals first; the honest seat's reveal, the one it ejects, completes the die.
EJECTIONS = [
    ("two-seat-ejection", "system-launch", 1),
    ("dice-veto", "anomaly-maze", 0),
    ("dice-veto", "anomaly-maze", 1),
]


@pytest.mark.parametrize(("cheat", "game", "seat"), EJECTIONS)
def test_a_seat_that_declares_its_opponent_gone_alone_wins_nothing(cheat, game, seat):
    run_, cheater, at = ejection(cheat, game, seat)
    other = 1 - seat
    honest = run_.verdicts[other]
    # The honest seat is never named; its own entry stands where the cheater claimed it was missing.
    # The cheater would not go on: the honest seat claims it gone, and that claim is contested (the
    # cheater's voided claim and its silence since are what a seat that claimed and left leaves too).
    assert honest is not None and honest.seat is None and not honest.cheated and not honest.fair, honest
    assert honest.kind == CONTESTED and honest.seq > at
    assert f"seat {seat} had claimed seat {other} gone at entry {at}" in honest.reason, honest.reason
    assert parse(run_.log[at]).seat == other and parse(run_.log[at]).type != "gone"
    claim = cheater.table.log[at]
    assert claim.type == "gone" and claim.body["target"] == other and len(claim.body["proofs"]) == 1
    assert cheater.verdict.kind == CLAIMED and not cheater.verdict.cheated  # a claim only, never a result
    if cheat == "dice-veto" and seat == 0:  # no veto: the die the cheater disliked was rolled all the same
        table = replica(run_, at + 1)
        assert any(seq == at and action[0] == "chance" for seq, _seat, action in table.pushes if action)


@pytest.mark.parametrize("claim_first", [True, False])
def test_an_observer_takes_the_claimed_seats_entry_whichever_comes_first(claim_first):
    run_, cheater, at = ejection("two-seat-ejection", "system-launch")
    claim = cheater.table.log[at].data
    watcher = PeerSession.observe(parse(run_.log[0]).room)
    events = []
    for seq, data in enumerate(run_.log):
        if seq == at and claim_first:
            events += watcher.receive(claim, 0)
        events += watcher.receive(data, 0)
        if seq == at and not claim_first:
            events += watcher.receive(claim, 0)
    assert any(isinstance(e, ClaimVoided) and (e.seat, e.seq, e.claimant) == (0, at, 1) for e in events)
    assert watcher.table.log[at].data == run_.log[at]
    assert watcher.verdict == run_.verdicts[0]
    assert verify_bytes(run_.honest_save) == run_.verdicts[0]


# -- a relay (or an outage) must not choose who forfeits ----------------------------------------------
class Holding(_Network):
    """The relay: while ``holding``, what seat ``held`` publishes is kept back from everyone."""

    holding = False
    held = 1
    kept: list[tuple[int, bytes]]

    def publish(self, sender: int, data: bytes) -> None:
        if not (self.holding and sender == self.held):
            return super().publish(sender, data)
        self.kept += [(target, data) for target in range(len(self.peers)) if target != sender]

    def release(self) -> None:
        self.holding = False
        for target, data in self.kept:
            self.counter += 1
            self.queue.append((self.now + 1, self.counter, target, data))
        self.kept = []
        self.queue.sort()


class Driven(Holding):
    """... and each peer's driver stops it as the relay transport does, once the session is ``done``.

    A stopped peer hears nothing more: what the network brings it is lost.  (Before ``done``, a
    transport stopped as soon as its session was finished, a claimant's too.)
    """

    def step(self) -> bool:
        if self.queue and _stopped(self.peers[self.queue[0][2]]):
            heapq.heappop(self.queue)
            return True
        return super().step()


def _stopped(peer: PeerSession) -> bool:
    return bool(getattr(peer, "done", peer.finished))


def holding_seat_one_for_a_timeout(players: int, seed: bytes, network: type[Holding]):
    """Play to mid-game, then the relay holds seat 1's entries back while a timeout passes (not released)."""
    peers, net = setup(players, seed, 1, PeerSession)
    net.__class__ = network
    net.kept = []
    while net.step():
        exp = peers[0].table.expected()
        if peers[0].table.head >= 12 and exp is not None and exp.writer == 1:
            break
    net.holding = True
    while net.step():
        pass
    net.now += TIMEOUT_MS
    for s, peer in enumerate(peers):
        net.handle(s, peer.tick(net.now))
    return peers, net


def held_back(players: int, seed: bytes, network: type[Holding] = Holding):
    """Play to mid-game, then the relay holds seat 1's entries back for one timeout, then releases them."""
    peers, net = holding_seat_one_for_a_timeout(players, seed, network)
    assert net.kept, "seat 1 wrote nothing while held back"
    net.release()
    while net.step():  # every peer may have finished on a claim: the released entries still arrive
        pass
    run(peers, net, list(range(players)))
    return peers


def test_a_relay_holding_one_seat_back_for_a_timeout_makes_nobody_forfeit_with_two_seats():
    peers = held_back(2, b"held/2")
    assert_all_agree(peers)
    for peer in peers:
        assert not peer.table.gone and peer.verdict is not None and peer.verdict.fair, peer.verdict


def test_a_claimant_listens_until_its_claim_is_voided_so_two_claims_never_contradict():
    # Seat 1 is held back for a timeout: seat 0 claims the win alone, which ends the game for it.  Its
    # driver must not stop there: seat 1's own entry for that seq, released, voids the claim.  Had seat 0
    # stopped listening, seat 1 would have played on alone, claimed seat 0 gone in turn, and each seat
    # would hold a win claimed against the other.
    peers = held_back(2, b"held/2", Driven)
    assert_all_agree(peers)
    for peer in peers:
        assert not peer.table.gone and peer.table.claim is None and peer.verdict.fair, peer.verdict
        assert peer.done and not peer.listening


def test_a_finished_claimant_is_listening_not_done():
    peers, net = holding_seat_one_for_a_timeout(2, b"claim-listens", Driven)
    while net.step():
        pass
    claimant = peers[0]
    assert claimant.finished and claimant.table.claim is not None and claimant.table.claim[0] == 0
    assert claimant.listening and not claimant.done  # finished, but its driver must keep it connected


def test_with_more_seats_a_seat_held_back_from_everyone_is_disconnected_never_a_cheater():
    peers = held_back(3, b"held/3")
    for peer in peers[0], peers[2]:
        assert peer.table.gone.get(1, ("", 0))[0] == "silent"
        assert peer.verdict.kind == DISCONNECTED and peer.verdict.seat == 1 and not peer.verdict.cheated
    assert peers[1].verdict.kind == DISCONNECTED and not peers[1].verdict.cheated


def test_a_replica_that_knows_the_chain_went_on_does_not_vote():
    # The relay loses one entry on its way to seat 0; the others go on, and seat 0 holds their later
    # entries.  Seat 0 is behind, the author of the missing entry is not silent: it casts no vote.
    peers = lockstep("toy", 3, b"behind")
    run_lockstep(peers, until_seq=12)
    deaf, lost = peers[0], []
    hear = deaf.receive

    def receive(data: bytes, now_ms: int) -> list:
        env = parse(data)
        if not lost and env.seat == 1 and not env.is_notice and env.seq > deaf.table.head:
            lost.append(data)
            return []
        return hear(data, now_ms)

    deaf.receive = receive  # type: ignore[method-assign]
    run_lockstep(peers)
    start = deaf.table.head
    assert lost and deaf._behind() and peers[2].table.head > start + 1
    timeout = deaf.table.timeout_ms
    assert deaf.tick(10 * timeout) == [] and not deaf.take_notices()  # the wait starts again ...
    assert deaf.tick(11 * timeout - 1) == [] and not deaf.take_notices()
    hear(lost[0], 0)  # ... and the relay delivers it after all: seat 0 catches up, nobody was voted
    assert deaf.table.head > start + 1


def _waiting_through_an_outage() -> tuple[PeerSession, tuple[int, int, int], int]:
    """Two seats, both silent at entry 12: the seat that waits, what it waits for, and the timeout."""
    peers = lockstep("toy", 2, b"outage")
    run_lockstep(peers, until_seq=12)
    run_lockstep(peers, silent=frozenset({0, 1}))
    waiting = peers[0].waiting_for or peers[1].waiting_for
    assert waiting is not None
    watcher = peers[1 - waiting[0]]
    return watcher, waiting, watcher.table.timeout_ms


def test_no_vote_while_cut_off_from_the_relay_and_a_grace_period_after_reconnecting():
    watcher, waiting, timeout = _waiting_through_an_outage()
    watcher.connection_lost(waiting[2] + 1)
    assert watcher.tick(waiting[2] + 10 * timeout) == [] and not watcher.take_notices()
    watcher.connected(waiting[2] + 10 * timeout)
    assert watcher.tick(waiting[2] + 11 * timeout - 1) == [] and not watcher.take_notices()
    assert watcher.tick(waiting[2] + 11 * timeout)  # a full timeout after reconnecting: overdue


def test_the_grace_after_reconnecting_covers_the_others_reconnection_pause():
    # The same outage cut both seats off; this one is back first, the other still sleeps out a
    # reconnection pause longer than the whole timeout (a short game timeout): no vote before it ends.
    watcher, waiting, timeout = _waiting_through_an_outage()
    pause = 3 * timeout
    back = waiting[2] + 10 * timeout
    watcher.connection_lost(waiting[2] + 1)
    watcher.connected(back, grace_ms=pause)
    assert watcher.tick(back + timeout) == [] and not watcher.take_notices()
    assert watcher.tick(back + pause + timeout - 1) == [] and not watcher.take_notices()
    assert watcher.tick(back + pause + timeout)  # the pause and a full timeout after it: overdue


# -- the audit replays with the knowledge there is ---------------------------------------------
class ClosesAtTheEnd(PeerSession):
    """An honest seat that closes its program when the game is over, before publishing its secrets."""

    def _pump(self) -> None:
        exp = self.table.expected() if self.table is not None and not self.finished else None
        if exp is not None and exp.type == "secrets" and exp.writer == self.seat:
            return
        super()._pump()

    def tick(self, now_ms: int) -> list:
        return [] if self.closed else super().tick(now_ms)

    @property
    def closed(self) -> bool:
        return self.table is not None and self.table.phase == "secrets"

    @property
    def waiting_for(self):  # its program is closed: the simulator waits no more for it
        return None if self.closed else super().waiting_for


@pytest.mark.parametrize("players", [2, 3])
def test_a_breach_is_named_when_an_honest_seat_closes_before_its_secrets(players):
    made: list[PeerSession] = []
    for index in range(16):
        made.clear()

        class Watched(CHEATS["tenth-move-breach"]):  # type: ignore[misc, valid-type]
            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, **kwargs)
                made.append(self)

        seed = f"breach-closes/{players}/{index}".encode()
        play(
            "collective-conflict",
            players,
            seed,
            "tenth-move-breach",
            1,
            options={"max_rounds": 80},  # the round limit these games were played with before CC-22
            classes={1: Watched, 0: ClosesAtTheEnd},
        )
        if made[0].staged:
            break
    else:
        pytest.fail("the breach was never staged")
    cheater = made[0]
    assert cheater.finished and 0 in cheater.table.gone  # seat 0 never published its secrets
    verdict = verify_bytes(cheater.save())  # anyone's copy of the log: the breacher's own, here
    assert verdict.cheated and verdict.seat == 1, verdict
    assert verdict.reason.startswith("illegal action with full knowledge: tenth-move rule (CC-7)")
    assert verdict.seq < cheater.table.gone[0][1]


# -- a leave races the leaver's last entry ------------------------------------------------------
@pytest.mark.parametrize("publish_first", [False, True])
def test_a_leave_notice_that_overtakes_the_leavers_last_entry_waits_for_it(publish_first):
    peers = lockstep("toy", 3, b"leave-race")
    run_lockstep(peers, until_seq=14)
    for _ in range(200):  # play on until seat 1 decides
        exp = peers[1].table.expected()
        if exp is not None and exp.writer == 1 and exp.type == "action":
            break
        run_lockstep(peers, until_seq=peers[0].table.head + 1)
    else:
        pytest.fail("seat 1 never had to decide")
    leaver = peers[1]
    leaver.publish_first = publish_first
    leaver.submit(leaver.legal_actions()[0], settle=not publish_first)
    last = leaver.take_outgoing()
    leaver.leave()
    notice = leaver.take_notices()
    assert len(last) == 1 and len(notice) == 1 and parse(notice[0].data).seq > last[0].seq
    for other in peers[0], peers[2]:  # the notice first, then the entry
        other.receive(notice[0].data, 0)
    run_lockstep(peers, silent=frozenset({1}))
    for other in peers[0], peers[2]:
        other.receive(last[0].data, 0)
    run_lockstep(peers, silent=frozenset({1}))
    for peer in peers[0], peers[2]:
        assert peer.finished and peer.verdict.fair, peer.verdict
        assert peer.table.log[last[0].seq].data == last[0].data
        assert peer.table.gone[1][0] == "left" and peer.table.gone[1][1] > last[0].seq
    assert peers[0].table.head_digest == peers[2].table.head_digest


def test_a_leave_recorded_before_the_notice_takes_effect_names_its_writer():
    from protocol.envelope import seal

    peers = lockstep("toy", 3, b"leave-early")
    run_lockstep(peers, until_seq=14)
    for _ in range(200):
        exp = peers[1].table.expected()
        if exp is not None and exp.writer == 1 and exp.type == "action":
            break
        run_lockstep(peers, until_seq=peers[0].table.head + 1)
    leaver, writer, judge = peers[1], peers[0], peers[2]
    leaver.submit(leaver.legal_actions()[0])
    last = leaver.take_outgoing()[0]
    leaver.leave()
    notice = leaver.take_notices()[0]
    table = writer.table
    probe = table.state.clone()
    probe.forfeit(1)  # the state hash a gone(left) at this seq would carry
    body = {"target": 1, "reason": "left", "proofs": [notice.data], "hash": probe.hash()}
    early = seal(writer.signing_key, writer.room, last.seq, table.head_digest, 0, "gone", body, game=table.game_id)
    events = judge.receive(early.data, 0)
    assert judge.verdict is not None and judge.verdict.cheated and judge.verdict.seat == 0, events
    assert "before its notice" in judge.verdict.reason
