"""Departures: timeouts a genesis may fix, votes cast once, the silence clock, the two-seat claim, escrow shares."""

from __future__ import annotations

from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS
from protocol.session.buffer import MAX_AHEAD
from protocol.session.departures import Departures, claim_takes, is_claim_against, timeout_problem
from tests.protocol.session.parts import entry, table_of


def test_a_genesis_timeout_is_the_hosts_choice_within_the_range_or_the_one_dev_value():
    assert timeout_problem(MIN_TIMEOUT_MS) is None and timeout_problem(MAX_TIMEOUT_MS) is None
    assert "outside" in (timeout_problem(MIN_TIMEOUT_MS - 1) or "")
    assert timeout_problem(5, dev_timeout_ms=5) is None and timeout_problem(6, dev_timeout_ms=5) is not None


def test_a_vote_is_cast_once_and_with_two_seats_never_holds_an_entry_back():
    d = Departures()
    assert d.cast(4, 1) and not d.cast(4, 1) and d.has_voted(4, 1)
    assert d.vote_stands(4, 1, two_seats=False)
    assert not d.vote_stands(4, 1, two_seats=True) and not d.has_voted(4, 1)
    d.cast(5, 2)
    d.drop_vote(5, 2)
    assert not d.has_voted(5, 2)


def test_the_silence_clock_restarts_once_per_seq_when_behind_and_reports_once():
    d = Departures()
    d.restart_wait(100)
    assert not d.silent_too_long(149, 50) and d.silent_too_long(150, 50)
    assert d.catch_up(7, 300) and d.since == 300
    assert not d.catch_up(7, 900) and d.since == 300  # once per seq: a far entry cannot hold votes off for ever
    d.wait_from(200)
    assert d.since == 300  # the wait never moves back
    assert d.first_overdue(7) and not d.first_overdue(7)


def test_rebuilding_before_a_seq_forgets_my_votes_and_reports_from_there():
    d = Departures()
    for seq in (3, 6):
        d.cast(seq, 1)
        d.first_overdue(seq)
    d.forget_from(5)
    assert d.has_voted(3, 1) and not d.has_voted(6, 1)
    assert not d.first_overdue(3) and d.first_overdue(6)


def test_votes_are_kept_only_ahead_of_the_head_and_within_reach():
    table, keys = table_of()
    d = Departures()
    near = entry(table, keys[2], 1, 2, "vote", {"target": 1})
    far = entry(table, keys[2], MAX_AHEAD + 1, 2, "vote", {"target": 1})
    assert d.take_vote(table, near, 0) is None and d.take_vote(table, far, 0) is None
    assert d.votes_beyond(0) and not d.votes_beyond(1)
    assert d.vote_chained(1, {table.head_digest}, {2}) and not d.vote_chained(1, {table.head_digest}, {0})


def test_a_gone_record_needs_every_other_remaining_seats_vote_on_the_head():
    table, keys = table_of()
    exp = table.expected()
    assert exp is not None
    d = Departures()
    others = [s for s in table.active() if s != exp.writer]
    d.take_vote(table, entry(table, keys[others[0]], exp.seq, others[0], "vote", {"target": exp.writer}), None)
    assert d.gone_body(table, exp) is None
    d.take_vote(table, entry(table, keys[others[1]], exp.seq, others[1], "vote", {"target": exp.writer}), None)
    body = d.gone_body(table, exp)
    assert body is not None and body["reason"] == "silent" and len(body["proofs"]) == 2


def test_a_claim_is_a_silent_gone_backed_by_its_writers_vote_alone_with_two_seats():
    table, keys = table_of(players=2)
    vote = entry(table, keys[0], 1, 0, "vote", {"target": 1})
    claim = entry(
        table, keys[0], 1, 0, "gone", {"target": 1, "reason": "silent", "proofs": [vote.data], "hash": bytes(32)}
    )
    assert is_claim_against(table, claim, 1) and not is_claim_against(table, claim, 0)
    assert not is_claim_against(None, claim, 1)
    three, keys3 = table_of(players=3)
    vote3 = entry(three, keys3[0], 1, 0, "vote", {"target": 1})
    body = {"target": 1, "reason": "silent", "proofs": [vote3.data], "hash": bytes(32)}
    assert not is_claim_against(three, entry(three, keys3[0], 1, 0, "gone", body), 1)  # three seats: no claim
    assert not claim_takes(table, claim)  # no claim ended this game


def test_a_game_ended_by_a_claim_still_takes_what_may_void_or_contest_it():
    from protocol.envelope import parse
    from tests.protocol.contest import aborted

    room, a, b, n, m = aborted(b"claim-takes")
    table = room.peers[a].table  # ended by A's claim that B was gone at m
    earlier = parse(room.relay[f"notice/{b}/{n}/claim"])  # B's claim against A at n: it may contest
    assert claim_takes(table, earlier) and is_claim_against(table, earlier, a)  # two seats when n was due
    assert table.active() == [a] and sorted(table.active_at(n)) == [0, 1]
    assert not claim_takes(table, table.log[n])  # A's own entry n: nothing of the claim's
    later = entry(table, room.peers[b].signing_key, m + 1, b, prev=table.log[m - 1].digest)
    assert claim_takes(table, later)  # what follows B's own entry m, should it come first, waits for it
    vote = parse(room.relay[f"notice/{b}/{n}/vote"])
    assert not claim_takes(table, vote)  # notices are no part of it
