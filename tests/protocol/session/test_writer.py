"""The writer: the queues and their topics, prompts once, publish-first, the prepared own action used once."""

from __future__ import annotations

from protocol.crypto.framing import frame
from protocol.crypto.signing import verify
from protocol.session.writer import REQUEST_TAG, Writer
from protocol.table import OwnAction
from tests.protocol.session.parts import table_of


def test_entries_and_notices_wait_in_their_queues_with_their_topics():
    table, keys = table_of()
    writer = Writer(table.room, 1, keys[1])
    env = writer.sign(table, 1, "keys", {"keys": {}, "hash": bytes(32)})
    assert env.prev == table.head_digest and env.seat == 1 and env.signed_by(keys[1].public_bytes())
    writer.queue_entry(env)
    vote = writer.sign_after(table, 2, env.digest, "vote", {"target": 1})
    writer.queue_notice(vote, "ack")
    assert [o.topic for o in writer.queued()] == ["log/1"]
    assert [o.topic for o in writer.take_outgoing()] == ["log/1"] and writer.take_outgoing() == []
    assert [o.topic for o in writer.take_notices()] == ["notice/1/2/ack"]


def test_a_decision_is_announced_once_per_seq():
    writer = Writer("room", 0, None)
    assert writer.announce(3) and not writer.announce(3)
    writer.forget_from(3)
    assert writer.announce(3)


def test_publish_first_unless_the_submitter_chose_for_its_own_write():
    writer = Writer("room", 0, None)
    assert not writer.publishes_only()
    writer.publish_first = True
    assert writer.publishes_only()
    with writer.choosing(publish_only=False):
        assert not writer.publishes_only()
    assert writer.publishes_only()
    writer.hold(5)
    assert writer.unsettled(4) and not writer.unsettled(5)


def test_the_prepared_action_is_used_by_its_own_entry_once_and_made_stale_by_a_later_one():
    table, _keys = table_of()
    own = OwnAction(4, 0, ("pass",), table.state, bytes(32), {})
    writer = Writer("room", 0, None)
    writer.prepare(own)
    assert writer.own_for(3) is None and writer.prepared is own
    assert writer.own_for(4) is own and writer.own_for(4) is None
    writer.prepare(own)
    assert writer.own_for(5) is None and writer.prepared is None


def test_a_request_is_signed_under_its_own_tag_and_never_by_an_observer():
    _table, keys = table_of()
    assert Writer("room", None, None).sign_request(b"x") is None
    sig = Writer("room", 0, keys[0]).sign_request(b"body")
    assert sig is not None and verify(keys[0].public_bytes(), frame(REQUEST_TAG, b"body"), sig)
