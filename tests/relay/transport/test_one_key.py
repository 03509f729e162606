"""Each entry is checked against the one seat that may write it, before anything of it is decoded:
a flood of well-formed fakes on a room's log topics costs one signature check each (and a bounded
few more per log position, once), is never parsed, and never stops the loop.  The forger holds the
room's key (it read the room code and the host's fingerprint, as any guest does), so its fakes open
and reach the sessions: the strongest forger there is."""

from __future__ import annotations

import asyncio
import os

import pytest

import protocol.envelope as envelope_module
import protocol.session.peer as session_module
from protocol.crypto.signing import SigningKey
from protocol.envelope import seal as seal_envelope
from protocol.session import PeerSession
from relay import topics
from tests.relay.helpers import BrokerProcess, insider_client
from tests.relay.real_game import real_game

FAKE_BODY = {"action": ["pass"], "commits": {}, "keys": {}, "memo": b"", "hash": bytes(32)}
FAKES_PER_TOPIC = 80


@pytest.mark.timeout(120)
def test_a_flood_of_fakes_costs_one_signature_check_each_and_no_parsing(
    any_relay: BrokerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_sigs: set[bytes] = set()
    fake_data: set[bytes] = set()
    counts = {"verify": 0, "parse": 0, "delivered": 0}
    verify, parse, receive = envelope_module.verify, session_module.parse, PeerSession.receive

    def counted_verify(public: bytes, message: bytes, sig: bytes) -> bool:
        counts["verify"] += sig in fake_sigs
        return verify(public, message, sig)

    def counted_parse(data: bytes):  # type: ignore[no-untyped-def]
        counts["parse"] += data in fake_data
        return parse(data)

    def counted_receive(self: PeerSession, data: bytes, now_ms: int) -> list:  # type: ignore[type-arg]
        counts["delivered"] += data in fake_data
        return receive(self, data, now_ms)

    monkeypatch.setattr(envelope_module, "verify", counted_verify)
    monkeypatch.setattr(session_module, "parse", counted_parse)
    monkeypatch.setattr(PeerSession, "receive", counted_receive)

    async def main() -> None:
        room = "ONEKEY"
        game = real_game(any_relay.address, room)
        runs = [asyncio.ensure_future(t.run()) for t in game.transports]
        most = 0
        watching = True

        async def sentinel() -> None:
            """How many fakes the sessions took between two turns of the loop, at most."""
            nonlocal most
            last = counts["delivered"]
            while watching:
                await asyncio.sleep(0)
                most, last = max(most, counts["delivered"] - last), counts["delivered"]

        try:
            head = await game.stalled()
            table = game.sessions[0].table
            assert table is not None
            stranger = SigningKey.generate(os.urandom(32))
            watch = asyncio.ensure_future(sentinel())
            seqs = (head + 1, head + 2, head + 3)
            async with insider_client(any_relay.address, room, game.keys[0].public_bytes(), "forger") as c:
                for i in range(FAKES_PER_TOPIC):
                    for seq in seqs:
                        # Well-formed, for this room and game, chained to the head, in seat 1's name.
                        body = {**FAKE_BODY, "memo": i.to_bytes(4, "big")}
                        prev, gid = table.head_digest, table.game_id
                        fake = seal_envelope(stranger, room, seq, prev, 1, "action", body, game=gid)
                        fake_sigs.add(fake.sig)
                        fake_data.add(fake.data)
                        await c.publish(topics.log(room, seq), fake.data, qos=1, retain=True)
            for _ in range(200):
                if counts["delivered"] >= len(game.sessions) * len(fake_data) * 0.9:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            watching = False
            await watch
            delivered = counts["delivered"]
            assert delivered >= len(fake_data)  # the fakes did reach the sessions
            seats = len(game.sessions)
            # One check per fake, plus at most seats - 1 once per log position (looking for a forger).
            assert counts["verify"] <= delivered + (seats - 1) * len(seqs) * seats, counts
            assert counts["parse"] == 0, counts  # refused before any decoding
            assert most <= 64, most  # the loop turned between small batches
            assert all(s.verdict is None for s in game.sessions)  # a stranger's fakes name no seat
            await game.finish_fair(runs)
            logs = {tuple(bytes(e.data) for e in s.table.log) for s in game.sessions if s.table is not None}
            assert len(logs) == 1
        finally:
            watching = False
            await game.stop(runs)

    asyncio.run(main())


@pytest.mark.timeout(120)
def test_an_entry_copied_onto_another_positions_topic_is_ignored_there(
    embedded_relay: BrokerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stranger copies a real, validly signed entry onto the topic of a later position.  The read-back
    # fetches positions by their topics: the copy is nobody's entry there, and no session sees it.
    delivered: list[bytes] = []
    receive = PeerSession.receive

    def counted_receive(self: PeerSession, data: bytes, now_ms: int) -> list:  # type: ignore[type-arg]
        delivered.append(bytes(data))
        return receive(self, data, now_ms)

    monkeypatch.setattr(PeerSession, "receive", counted_receive)

    async def main() -> None:
        room = "COPIED"
        game = real_game(embedded_relay.address, room)
        runs = [asyncio.ensure_future(t.run()) for t in game.transports]
        try:
            head = await game.stalled()
            table = game.sessions[0].table
            assert table is not None
            copied = bytes(table.log[2].data)
            delivered.clear()
            # The copier holds the room's key: its copy opens, on the later position's topic.
            async with insider_client(embedded_relay.address, room, game.keys[0].public_bytes(), "copier") as c:
                await c.publish(topics.log(room, head + 1), copied, qos=1, retain=True)
            topic = topics.log(room, head + 1)
            for _ in range(200):
                if all(any(r.topic == topic for r in t.reports) for t in game.transports):
                    break
                await asyncio.sleep(0.05)
            for t in game.transports:
                why = f"ignored: entry 2 on the topic of entry {head + 1}"
                assert any(r.topic == topic and r.reason == why for r in t.reports), t.reports
            assert copied not in delivered
            await game.finish_fair(runs)
        finally:
            await game.stop(runs)

    asyncio.run(main())
