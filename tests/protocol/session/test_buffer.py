"""The receive buffer: its bounds hold, the chain decides among entries ahead, and wire bytes are screened."""

from __future__ import annotations

import pytest

import protocol.session.buffer as buffer_module
from protocol.envelope import parse, peek
from protocol.errors import Code, Misconduct, ProtocolError
from protocol.session.buffer import MAX_AHEAD, MAX_FORKS, ReceiveBuffer
from protocol.table import Table
from tests.protocol.helpers import finished_log, seat_keys
from tests.protocol.session.parts import entry, table_of


def test_entries_before_the_genesis_are_bounded_by_count_and_size(monkeypatch):
    table, keys = table_of()
    monkeypatch.setattr(buffer_module, "MAX_EARLY", 3)
    buffer = ReceiveBuffer()
    early = [entry(table, keys[1], seq, 1) for seq in (3, 1, 2)]
    for env in early:
        buffer.keep_early(env)
    buffer.keep_early(early[0])  # a copy of one kept counts once
    with pytest.raises(ProtocolError) as refused:
        buffer.keep_early(entry(table, keys[1], 4, 1))
    assert refused.value.code == Code.NO_GENESIS
    assert [e.seq for e in buffer.take_early()] == [1, 2, 3]  # by seq, whatever the order they came in
    assert buffer.take_early() == []

    monkeypatch.setattr(buffer_module, "MAX_EARLY_BYTES", len(early[0].data) + len(early[1].data) - 1)
    buffer.keep_early(early[0])
    with pytest.raises(ProtocolError):
        buffer.keep_early(early[1])


def test_two_entries_of_one_seat_on_one_chain_are_an_equivocation_on_other_chains_a_fork():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    first = entry(table, keys[1], 1, 1)
    assert buffer.keep(table.head, first) is None
    assert buffer.keep(table.head, first) is None  # the same entry again
    twin = entry(table, keys[1], 1, 1, body={"keys": {}, "hash": bytes([1]) * 32})
    assert buffer.keep(table.head, twin) is first
    for n in range(MAX_FORKS - 1):  # MAX_FORKS of one seat for one seq, the first included
        assert buffer.keep(table.head, entry(table, keys[1], 1, 1, prev=bytes([n + 1]) * 32)) is None
    with pytest.raises(ProtocolError) as refused:
        buffer.keep(table.head, entry(table, keys[1], 1, 1, prev=bytes([99]) * 32))
    assert refused.value.code == Code.SEQUENCE
    with pytest.raises(ProtocolError):
        buffer.keep(table.head, entry(table, keys[1], table.head + MAX_AHEAD + 1, 1))


def test_candidates_come_chained_first_then_the_writers_own_then_others():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    stray = entry(table, keys[1], 1, 1, prev=bytes(32))
    vote = entry(table, keys[2], 1, 2, "vote", {"target": 1})
    gone = entry(
        table, keys[2], 1, 2, "gone", {"target": 1, "reason": "silent", "proofs": [vote.data], "hash": bytes(32)}
    )
    other = entry(table, keys[0], 1, 0)
    own = entry(table, keys[1], 1, 1)
    for env in (stray, gone, other, own):
        buffer.keep(table.head, env)
    assert buffer.candidates(1, table.head_digest, 1) == [own, other, gone, stray]
    assert buffer.has(1) and not buffer.has(2) and not buffer.has_beyond(1)
    buffer.keep(table.head, entry(table, keys[1], 5, 1))
    assert buffer.has_beyond(1) and not buffer.has_beyond(5)
    buffer.pop(1)
    assert buffer.waiting(1) == []


def test_an_entry_that_does_not_chain_gets_one_timeout_from_when_it_was_first_seen():
    buffer = ReceiveBuffer()
    assert buffer.chain_wait(4, now=100, timeout_ms=50)
    assert buffer.chain_wait(4, now=149, timeout_ms=50)
    assert not buffer.chain_wait(4, now=150, timeout_ms=50)


def test_a_cut_branch_takes_what_is_chained_to_it_with_it():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    claim = entry(table, keys[2], 1, 2)
    child = entry(table, keys[0], 2, 0, prev=claim.digest)
    grandchild = entry(table, keys[1], 3, 1, prev=child.digest)
    elsewhere = entry(table, keys[0], 2, 0, prev=bytes([5]) * 32)
    for env in (child, grandchild, elsewhere):
        buffer.keep(table.head, env)
    buffer.cut_branch(claim.digest)
    assert buffer.waiting(2) == [elsewhere] and not buffer.has(3)
    assert buffer.on_dead_branch(entry(table, keys[1], 4, 1, prev=grandchild.digest))
    assert not buffer.on_dead_branch(elsewhere)


def test_restarting_keeps_one_entry_at_the_seq_and_what_waits_after_it():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    for seq in (1, 2, 3):
        buffer.keep(table.head, entry(table, keys[1], seq, 1))
    instead = entry(table, keys[2], 2, 2)
    buffer.restart_at(2, instead)
    assert not buffer.has(1) and buffer.waiting(2) == [instead] and buffer.has(3)


def test_screening_decides_from_the_wire_bytes_alone():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    genesis = table.log[0]
    assert buffer.screen(table, None, peek(genesis.data), genesis.data) is None  # the very entry applied
    signed = entry(table, keys[1], 1, 1)
    assert buffer.screen(table, None, peek(signed.data), signed.data) is True
    assert buffer.screen(None, None, peek(signed.data), signed.data) is False  # no key known yet
    forged = entry(table, keys[2], 1, 1)  # seat 2 signs in seat 1's name, where an entry of this game goes
    assert buffer.screen(table, None, peek(forged.data), forged.data) == 2
    again = entry(table, keys[2], 1, 1, body={"keys": {}, "hash": bytes([3]) * 32})
    with pytest.raises(ProtocolError) as refused:  # the forger is looked for once per seq
        buffer.screen(table, None, peek(again.data), again.data)
    assert refused.value.code == Code.BAD_SIGNATURE


def test_an_entry_ahead_refused_for_its_signature_is_judged_when_the_table_gets_there(monkeypatch):
    log = [parse(data) for data in finished_log("toy", 3, b"suspects")]
    keys = seat_keys(b"suspects", 3)[0]
    table = Table(log[0])
    monkeypatch.setattr(buffer_module, "MAX_SUSPECTS", 1)
    buffer = ReceiveBuffer()
    named = (log[2].seat + 1) % 3
    forger = next(s for s in range(3) if s != named)
    suspect = entry(table, keys[forger], 2, named, prev=log[1].digest)  # where entry 2 of this game goes
    beyond = entry(table, keys[forger], 3, named, prev=log[2].digest)
    for env in (suspect, beyond):
        with pytest.raises(ProtocolError):
            buffer.screen(table, None, peek(env.data), env.data)  # ahead of the head: refused, and kept (once)
    table.apply(log[1])
    found = buffer.judge_suspect(table, 2)
    assert found is not None and found.seat == forger and found.data == suspect.data
    assert buffer.judge_suspect(table, 2) is None  # judged once
    table.apply(log[2])
    assert buffer.judge_suspect(table, 3) is None  # beyond MAX_SUSPECTS: never kept


def test_a_suspect_the_table_passed_is_forgotten():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    ahead = entry(table, keys[2], 2, 1)
    with pytest.raises(ProtocolError):
        buffer.screen(table, None, peek(ahead.data), ahead.data)
    buffer.forget_suspects(2)
    assert buffer.judge_suspect(table, 2) is None


def test_a_forger_found_while_authenticating_is_named_at_its_entry():
    table, keys = table_of()
    with pytest.raises(Misconduct) as caught:
        ReceiveBuffer().authenticate(table, entry(table, keys[2], 1, 1))
    assert (caught.value.seat, caught.value.seq) == (2, 1)


def test_authentication_names_the_game_and_the_seat():
    table, keys = table_of()
    buffer = ReceiveBuffer()
    buffer.authenticate(table, entry(table, keys[1], 1, 1))
    stranger = entry(table, keys[1], 1, 7)
    with pytest.raises(ProtocolError) as refused:
        buffer.authenticate(table, stranger)
    assert refused.value.code == Code.UNKNOWN_SEAT
