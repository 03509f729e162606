"""The session API a transport drives: joining, refusing strangers, leaving, timeouts, restarting."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from protocol.crypto.signing import SigningKey
from protocol.events import Overdue, Rejected, Started
from protocol.session import PeerSession
from tests.protocol.helpers import lockstep, run_lockstep, seat_keys


def test_a_joiner_refuses_a_genesis_without_its_keys():
    peers = lockstep("toy", 2, b"join")
    genesis = peers[0].take_outgoing()[0].data
    keys, secrets = seat_keys(b"join", 2)
    stranger = PeerSession.join(peers[0].room, 1, SigningKey.generate(bytes(32)), secrets[1])
    assert isinstance(stranger.receive(genesis, 0)[0], Rejected)
    assert stranger.table is None
    wrong_creator = PeerSession.join(peers[0].room, 1, keys[1], secrets[1], creator=bytes(32))
    assert isinstance(wrong_creator.receive(genesis, 0)[0], Rejected)
    right = PeerSession.join(peers[0].room, 1, keys[1], secrets[1], creator=keys[0].public_bytes())
    assert any(isinstance(e, Started) for e in right.receive(genesis, 0))
    other_room = PeerSession.join("elsewhere", 1, keys[1], secrets[1])
    assert other_room.receive(genesis, 0)[0].code == "wrong-room"


def test_an_observer_follows_and_audits():
    peers = lockstep("toy", 3, b"observe")
    watcher = PeerSession.observe(peers[0].room)
    run_lockstep(peers)
    for env in reversed(peers[0].table.log):  # any order
        watcher.receive(env.data, 0)
    assert watcher.finished and watcher.verdict.fair
    assert watcher.state.hash() == peers[0].state.hash()


def test_submit_refuses_what_is_not_legal_or_not_my_turn():
    peers = lockstep("toy", 2, b"submit")
    run_lockstep(peers, until_seq=12)
    exp = peers[0].table.expected()
    idle = peers[1 - exp.writer] if exp.type == "action" else peers[0]
    with pytest.raises(IllegalAction):
        idle.submit(("pass",))
    if exp.type == "action":
        with pytest.raises(IllegalAction):
            peers[exp.writer].submit(("fly",))


def test_a_seat_that_leaves_is_recorded_and_play_goes_on_fair():
    peers = lockstep("toy", 3, b"leave")
    run_lockstep(peers, until_seq=10)
    assert not peers[2].finished
    peers[2].leave()
    run_lockstep(peers)
    assert peers[0].finished and peers[1].finished
    assert peers[0].verdict.fair and peers[1].verdict.fair
    assert 2 in peers[0].table.gone and peers[0].table.gone[2][0] == "left"


def test_a_silent_seat_is_overdue_voted_gone_and_named():
    peers = lockstep("toy", 3, b"silent")
    run_lockstep(peers, until_seq=9)
    run_lockstep(peers, silent=frozenset({2}))
    waiting = peers[0].waiting_for
    assert waiting is not None and waiting[0] == 2
    timeout = peers[0].table.timeout_ms
    assert peers[0].tick(waiting[2] + timeout - 1) == []
    overdue = peers[0].tick(waiting[2] + timeout)
    assert Overdue(2, waiting[1], waiting[2]) in overdue
    peers[1].tick(waiting[2] + timeout)
    run_lockstep(peers, silent=frozenset({2}))
    gone = peers[1].table.gone.get(2)
    assert gone is not None and gone[0] == "silent"
    for peer in peers[:2]:
        assert peer.finished and peer.verdict.seat == 2 and peer.verdict.kind == "disconnected"
        assert not peer.verdict.cheated and "disconnected at entry" in peer.verdict.reason


def test_a_restarted_seat_rebuilds_itself_from_the_log():
    peers = lockstep("toy", 3, b"restart")
    run_lockstep(peers, until_seq=30)
    keys, secrets = seat_keys(b"restart", 3)
    again = PeerSession.join(peers[0].room, 1, keys[1], secrets[1])
    for env in reversed(peers[0].table.log):
        again.receive(env.data, 0)
    assert again.table.head == peers[1].table.head
    assert again.state.hash() == peers[1].state.hash()
    assert again.knowledge.cards == peers[1].knowledge.cards
    assert again.salts == peers[1].salts
    peers[1] = again
    run_lockstep(peers)
    assert all(p.finished and p.verdict.fair for p in peers)


def test_a_session_saves_its_log_and_hands_back_entries():
    from protocol.verify import verify_bytes

    peers = lockstep("toy", 2, b"save")
    run_lockstep(peers)
    assert peers[1].entry(0) == peers[0].entry(0) and peers[1].entry(10**6) is None
    assert verify_bytes(peers[1].save()).fair


@pytest.mark.parametrize("game", ["toy", "system-launch"])
@pytest.mark.parametrize(("at", "leaver"), [(3, 0), (8, 2), (11, 1), (14, 0), (20, 1)])
def test_leaving_at_any_point_keeps_the_game_fair(game, at, leaver):
    # during the seed exchange, a shuffle, a batch of deals, or play
    peers = lockstep(game, 3, f"leave/{at}".encode())
    run_lockstep(peers, until_seq=at)
    if peers[leaver].finished:
        pytest.skip("the game ended before that point")
    peers[leaver].leave()
    run_lockstep(peers)
    for seat, peer in enumerate(peers):
        if seat != leaver:
            assert peer.finished and peer.verdict.fair, peer.verdict
            assert peer.table.gone[leaver][0] == "left"


@pytest.mark.parametrize(("at", "quiet"), [(2, 1), (9, 0), (13, 2), (30, 1)])
def test_a_silent_seat_is_named_wherever_it_stops(at, quiet):
    peers = lockstep("system-launch", 3, f"quiet/{at}".encode())
    run_lockstep(peers, until_seq=at)
    others = [p for s, p in enumerate(peers) if s != quiet]
    now = 0
    for _ in range(40):
        run_lockstep(peers, silent=frozenset({quiet}))
        if all(p.finished for p in others):
            break
        now += peers[0].table.timeout_ms
        for peer in others:
            peer.tick(now)
    for peer in others:
        assert peer.finished and peer.verdict.seat == quiet and peer.verdict.kind == "disconnected"


def test_publish_first_submit_queues_the_entry_and_applies_it_only_when_settled():
    """``submit(settle=False)``: the entry is out before this replica applies it; any of settle(),
    tick() or the relay's echo of the entry applies it; the game ends the same and fair."""
    from engines.core import RandomBot

    peers = lockstep("system-launch", 3, b"publish-first")
    bots = [RandomBot(s, b"publish-first") for s in range(3)]
    settled_by = {"settle": 0, "tick": 0, "echo": 0}
    wire: list[tuple[int, bytes]] = []
    for _ in range(100_000):
        for s, peer in enumerate(peers):
            wire += [(s, out.data) for out in peer.take_outgoing() + peer.take_notices()]
        if wire:
            source, data = wire.pop(0)
            for t, other in enumerate(peers):
                if t != source:
                    other.receive(data, 0)
            continue
        movers = [
            (s, p)
            for s, p in enumerate(peers)
            if not p.finished and p.table.expected() is not None and p.table.expected().writer == s
        ]
        if not movers:
            break
        s, peer = movers[0]
        head, digest = peer.table.head, peer.state.hash()
        action = bots[s].choose(peer.state, peer.knowledge, peer.legal_actions())
        assert peer.submit(action, settle=False) == []
        sent = peer.take_outgoing()
        assert [o.seq for o in sent] == [head + 1]
        # Queued, not applied: the replica is unchanged and will not take a second decision.
        assert peer.unsettled and peer.table.head == head and peer.state.hash() == digest
        assert peer.legal_actions() == []
        with pytest.raises(IllegalAction):
            peer.submit(action)
        way = list(settled_by)[sum(settled_by.values()) % 3]
        settled_by[way] += 1
        if way == "settle":
            peer.settle()
        elif way == "tick":
            peer.tick(0)
        else:
            peer.receive(sent[0].data, 0)  # the relay hands every subscriber its own entry back
        assert not peer.unsettled and peer.table.head >= head + 1
        assert peer.table.log[head + 1].data == sent[0].data
        wire += [(s, o.data) for o in sent]
    assert all(p.finished for p in peers) and all(p.verdict.fair for p in peers)
    assert len({p.state.hash() for p in peers}) == 1
    assert min(settled_by.values()) > 0


def test_with_publish_first_every_entry_a_seat_writes_by_itself_waits_for_settle():
    """``publish_first``: keys, passes and the like are queued and applied at settle() (or when an
    entry arrives), so they can be sent before their author spends time on them; the game is the same."""
    from engines.core import RandomBot

    peers = lockstep("system-launch", 3, b"publish-first-auto")
    for p in peers:
        p.publish_first = True
    bots = [RandomBot(s, b"auto") for s in range(3)]
    held_back = 0
    for _ in range(100_000):
        moved = False
        for s, peer in enumerate(peers):
            out = peer.take_outgoing() + peer.take_notices()
            if peer.unsettled:
                # Queued, not applied: what was sent is not in this replica's log yet.
                assert max(o.seq for o in out if o.topic.startswith("log/")) == peer.table.head + 1
                held_back += 1
            for o in out:
                for t, other in enumerate(peers):
                    if t != s:
                        other.receive(o.data, 0)
                moved = True
            if peer.unsettled:
                peer.settle()
                moved = True
        if moved:
            continue
        for s, peer in enumerate(peers):
            if not peer.finished and peer.legal_actions():
                peer.submit(bots[s].choose(peer.state, peer.knowledge, peer.legal_actions()))
                moved = True
                break
        if not moved:
            break
    assert all(p.finished and p.verdict.fair for p in peers)
    assert len({p.state.hash() for p in peers}) == 1
    assert held_back > 20  # shuffle and lock passes, deal keys and secrets all waited for settle()


def test_dealt_cards_wait_to_be_opened_but_are_all_known_when_asked_or_when_the_keys_go_public():
    """A seat's dealt cards are opened lazily (on reading ``knowledge``, or by ``open_step``), yet
    none is lost: not by a seat that leaves without ever looking, nor at the end of the game."""
    peers = lockstep("system-launch", 3, b"lazy-open")
    waiting: list[PeerSession] = []
    for seq in range(1, 80):
        run_lockstep(peers, until_seq=seq)
        waiting = [p for p in peers if p._secrets.to_open and not p.finished]
        if waiting:
            break
    assert waiting  # cards of the opening deal not opened yet by someone
    quiet = waiting[0]
    dealt = set(quiet._secrets.to_open) | set(quiet._secrets.knowledge.cards)
    more = quiet.open_step()
    assert len(quiet._secrets.knowledge.cards) >= 1 and more == bool(quiet._secrets.to_open)
    quiet.leave()  # never read its knowledge: its secrets go public, so it opens the rest first
    assert not quiet._secrets.to_open and not quiet.unopened and dealt <= set(quiet._secrets.knowledge.cards)
    run_lockstep(peers)
    for p in peers:
        if p is not quiet:
            assert p.finished and p.verdict.fair
            assert not p._secrets.to_open and not p.unopened  # every dealt card opened, none by a false key
