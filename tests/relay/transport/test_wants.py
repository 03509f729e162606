"""``want`` requests are signed by the asking seat, bound to the room and the game, rate-limited; the
answer is the entry itself.  The requests of someone who holds the room's key but no seat's (unsigned,
forged, replayed, for another game or room, on another seat's topic) make no peer publish anything."""

from __future__ import annotations

import asyncio
import os

import msgpack
import pytest

from protocol.crypto.framing import frame
from protocol.crypto.signing import SigningKey
from protocol.session import REQUEST_TAG
from relay import topics
from relay.transport import wants
from relay.transport.room import WANT_BURST, Restored
from tests.relay.helpers import BrokerProcess, insider_client
from tests.relay.real_game import real_game


def asked(reports: list[object]) -> list[str]:
    return [r.topic for r in reports if isinstance(r, Restored) and r.reason.startswith("asked for")]


@pytest.mark.timeout(120)
def test_only_a_seats_signed_request_for_this_game_is_answered(any_relay: BrokerProcess) -> None:
    async def main() -> None:
        room = "WANTSA"
        game = real_game(any_relay.address, room)
        runs = [asyncio.ensure_future(t.run()) for t in game.transports]
        try:
            await game.stalled()
            answerers = [game.transports[0], game.transports[2]]
            table = game.sessions[0].table
            assert table is not None
            gid, seat1 = table.game_id, game.keys[1]
            stranger = SigningKey.generate(os.urandom(32))

            def signed(key: SigningKey, raw: bytes) -> bytes:
                return wants.encode(raw, key.sign(frame(REQUEST_TAG, raw)))

            n = 10**12  # request numbers (the transport's own start from the clock in ms, far above)
            strangers = [
                (topics.want(room, 1), msgpack.packb({"seq": 1})),  # an unsigned request
                (f"{topics.ROOT}/room/{room}/want/stranger", msgpack.packb({"seq": 1})),  # not even read
                (topics.want(room, 1), signed(stranger, wants.body(room, gid, 1, 1, n + 1))),  # forged for seat 1
                (topics.want(room, 1), signed(seat1, wants.body(room, bytes(range(32)), 1, 1, n + 2))),  # other game
                (topics.want(room, 1), signed(seat1, wants.body("OTHERR", gid, 1, 1, n + 3))),  # other room
                (topics.want(room, 2), signed(seat1, wants.body(room, gid, 1, 1, n + 4))),  # on seat 2's topic
                (topics.want(room, 1), b"\x00" * 300),  # too long
            ]
            # The sender holds the room's key (a guest who read the code), so every request opens and is read.
            host_key = game.keys[0].public_bytes()
            async with insider_client(any_relay.address, room, host_key, "stranger") as c:
                for topic, payload in strangers:
                    await c.publish(topic, payload, qos=1)
                await asyncio.sleep(1.0)
                assert all(asked(t.reports) == [] for t in answerers), [t.reports for t in answerers]
                reasons = " | ".join(note for t in answerers for note in t.want_notes)
                for why in ("not a signed request", "not signed by seat 1", "another game", "another room"):
                    assert why in reasons, reasons
                assert "in the name of seat 1" in reasons and "bytes (at most" in reasons, reasons

                # Seat 1 asks for entry 2 (its transport signs the request): both others put the entry back.
                async with insider_client(any_relay.address, room, host_key, "reader") as r:
                    await r.subscribe(topics.log(room, 2), qos=1)
                    got: list[bytes] = []

                    async def read() -> None:
                        async for m in r.messages:
                            got.append(bytes(m.payload))  # type: ignore[arg-type]

                    reading = asyncio.ensure_future(read())
                    request = game.transports[1]._want_request(2)
                    assert request is not None and request[0] == 1
                    await c.publish(topics.want(room, 1), request[1], qos=0)
                    for _ in range(100):
                        if all(asked(t.reports) for t in answerers) and len(got) >= 2:
                            break
                        await asyncio.sleep(0.05)
                    # The same request again (a stranger replays it), then a burst of fresh ones.
                    await c.publish(topics.want(room, 1), request[1], qos=0)
                    burst = [game.transports[1]._want_request(3) for _ in range(WANT_BURST + 4)]
                    for b in burst:
                        assert b is not None
                        await c.publish(topics.want(room, 1), b[1], qos=0)
                    await asyncio.sleep(1.0)
                    reading.cancel()
            for t in answerers:
                assert topics.log(room, 2) in asked(t.reports)
            assert got and set(got) == {bytes(table.log[2].data)}, "the answer is the entry itself"
            assert len(got) >= 2  # the retained copy, then at least one answer
            reasons = " | ".join(note for t in answerers for note in t.want_notes)
            assert "replayed" in reasons and "asks too often" in reasons, reasons
            await game.finish_fair(runs)
        finally:
            await game.stop(runs)

    asyncio.run(main())
