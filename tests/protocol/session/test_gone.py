"""A seat declared gone is a forfeit: the others set its locked cards aside and play to the end.

Every game here runs in the protocol simulator's seeded network
(delays, duplicates, reordering, simulated clocks and timeouts).  One seat goes
silent — the catalogue's ``withhold`` cheat, or a seat that simply vanishes (no
entries, no votes, nothing received) — during the opening deal, when it owes
keys for a draw mid-game, or when it owes its own decision.  The others vote it
gone, the undrawn cards its keys locked are set aside (during the opening, the
opening is dealt again without it instead: SL-11), and the game is played
to its end: every honest peer reaches the same final state, and the verdict
still names the silent seat for withholding.
"""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.session import PeerSession
from protocol.sim.cheats.catalogue import Withhold
from protocol.sim.network import TIMEOUT_MS
from tests.protocol.departures import (
    POINTS,
    Point,
    assert_all_agree,
    assert_forfeit_played_out,
    play_with,
    run,
    setup,
    vanishing,
)


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("point", sorted(POINTS))
def test_a_vanished_seat_forfeits_and_the_others_finish(players, point):
    silent = players - 1 if point == "own-decision" else 1
    seed = f"vanish/{players}/{point}".encode()
    peers = play_with(players, seed, silent, vanishing(POINTS[point]))
    assert peers[silent].vanished, "the game never reached the point where the seat goes silent"
    assert_forfeit_played_out(peers, silent)
    assert bool(peers[0].table.state.opening) == (point == "opening-deal")  # SL-11: a re-deal, only then


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_withhold_cheat_is_named_and_the_game_still_ends(players):
    silent = 2
    peers = play_with(players, f"withhold/{players}".encode(), silent, Withhold, bot="random")
    assert peers[silent].staged
    assert_forfeit_played_out(peers, silent)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_after_the_set_aside_the_discards_are_reshuffled_without_the_gone_seat(players):
    late: Point = lambda t, e: e.type == "keys" and t.state.round >= 4  # noqa: E731
    peers = play_with(players, f"late/{players}".encode(), 1, vanishing(late), bot="random")
    assert peers[1].vanished
    assert_forfeit_played_out(peers, 1)
    table = peers[0].table
    at = table.set_asides[0][0]
    # SL-3: the next draw reshuffled the Discard rows, among the remaining seats only.
    emptied = table.ledger.deck_for(table.set_asides[0][1][0]).round
    later = [deck for deck in table.ledger.rounds if deck.round > emptied]
    assert later, "no reshuffle followed the set-aside"
    assert all(1 not in deck.participants for deck in later)
    assert any(e.seq > at and e.type == "shuffle" for e in table.log)


@pytest.mark.parametrize(("players", "seed", "silent"), [(3, b"deliver/3/1", 1), (4, b"deliver/4/1", 2)])
def test_a_hacker_attack_target_that_vanishes_instead_of_delivering(players, seed, silent):
    peers = play_with(players, seed, silent, vanishing(lambda t, e: e.type == "deliver"), bot="random")
    assert peers[silent].vanished
    assert_forfeit_played_out(peers, silent)
    gone_at = peers[0].table.gone[silent][1]
    assert peers[0].table.log[gone_at - 1].type == "action"  # the attack, then the gone record


def test_seat_zero_vanishing_is_recorded_by_the_next_seat():
    peers = play_with(4, b"vanish/seat0", 0, vanishing(POINTS["keys-mid-game"]))
    assert peers[0].vanished
    assert_forfeit_played_out(peers, 0)
    gone_entry = next(e for e in peers[1].table.log if e.type == "gone")
    assert gone_entry.seat == 1


def test_the_offline_verifier_replays_a_game_with_cards_set_aside():
    from protocol.verify import verify_bytes

    peers = play_with(4, b"vanish/verify", 2, vanishing(POINTS["keys-mid-game"]))
    assert_forfeit_played_out(peers, 2)
    verdict = verify_bytes(peers[0].save())
    assert verdict == peers[0].verdict


def test_an_observer_rebuilds_the_same_state_from_the_log():
    peers = play_with(3, b"vanish/observer", 1, vanishing(POINTS["own-decision"]))
    assert_forfeit_played_out(peers, 1)
    watcher = PeerSession.observe(peers[0].room)
    for data in reversed(peers[0].log_entries()):
        watcher.receive(data, 0)
    assert watcher.table.head == peers[0].table.head
    assert watcher.state.hash() == peers[0].state.hash()
    assert watcher.table.set_asides == peers[0].table.set_asides


# -- the vote race: a late entry against votes that may never complete -----------------------------


def stalling(point: Point) -> type[PeerSession]:
    """An honest seat that stalls at ``point`` until the test releases it (its entry then comes late)."""

    class Late(PeerSession):
        stalled = False
        released = False

        def _pump(self) -> None:
            table = self.table
            exp = table.expected() if table is not None and not self.finished else None
            if not self.released and exp is not None and exp.writer == self.seat and point(table, exp):
                self.stalled = True
                return
            super()._pump()

        def release(self) -> list:
            self.released = True
            self._pump()
            return self.take_events()

    return Late


def race(
    players: int, seed: bytes, late: int, voters: list[int], point: str = "own-decision", observers: int = 0
) -> list[PeerSession]:
    """``voters`` vote ``late`` gone; then its entry goes out, and the seeded network races the two.

    The other seats have not timed out yet, so the late entry reaches them before they vote.
    """
    peers, net = setup(players, seed, late, stalling(POINTS[point]), observers=observers)
    while net.step():
        pass
    assert peers[late].stalled and not net.queue
    net.now += TIMEOUT_MS
    for s in voters:
        net.handle(s, peers[s].tick(net.now))
    net.handle(late, peers[late].release())  # the late entry is in flight with the votes
    run(peers, net, list(range(len(peers))))
    return peers


RACES = [
    # (players, late seat, voters before the late entry arrives)
    (3, 1, [2]),
    (3, 2, [0]),
    (4, 1, [0, 3]),
    (4, 3, [1]),
    (4, 2, [0, 1]),
    (6, 4, [0, 2, 3]),
]


@pytest.mark.parametrize(("players", "late", "voters"), RACES)
def test_a_late_entry_that_some_seats_took_wins_over_votes_that_cannot_complete(players, late, voters):
    peers = race(players, f"race/{players}/{late}".encode(), late, voters)
    assert_all_agree(peers)
    for peer in peers:
        assert not peer.table.gone
        assert peer.verdict is not None and peer.verdict.fair, peer.verdict


@pytest.mark.parametrize("players", [3, 4, 6])
def test_when_every_other_seat_voted_first_the_seat_is_gone_and_its_late_entry_refused(players):
    late = players - 1
    peers = race(players, f"race/all/{players}".encode(), late, [s for s in range(players) if s != late])
    assert_forfeit_played_out(peers, late)
    own = peers[late].verdict
    assert own is not None and not own.fair and own.seat == late and "declared gone" in own.reason


@pytest.mark.parametrize("index", range(8))
def test_seeded_races_resolve_the_same_way_for_every_seat_and_observer(index):
    pick = SeededStream(f"races/{index}".encode(), "pick")
    players = (3, 4, 6)[index % 3]
    late = pick.below(players)
    others = [s for s in range(players) if s != late]
    voters = [s for s in others if pick.below(2)]
    point = ("own-decision", "keys-mid-game")[pick.below(2)]
    peers = race(players, f"races/{index}".encode(), late, voters, point, observers=1)
    seats, watcher = peers[:players], peers[players]
    if voters == others:  # every vote was in before the late entry: it is refused, the seat is gone
        assert_forfeit_played_out(seats, late)
        assert watcher.table.gone == seats[others[0]].table.gone and watcher.verdict == seats[others[0]].verdict
        assert_all_agree([p for s, p in enumerate(peers) if s != late])
    else:  # some seat took the late entry without voting: the votes cannot complete, the entry stands
        assert_all_agree(peers)
        assert all(p.verdict.fair and not p.table.gone for p in peers)
