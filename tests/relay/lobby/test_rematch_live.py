"""Rematch on a public broker that keeps no retained messages: a seat that comes later still hears the others.

Nothing is stored there (the public brokers' emulation with ``retain_available false``), so each
channel says its answer again while it runs (relay/lobby/rematch.py ``LIVE_REPEAT_S``): a channel
that starts after another seat answered hears that answer, and the new room, live.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from protocol.crypto.signing import SigningKey
from relay.lobby.rematch import RematchChannel
from relay.public import PUBLIC_BROKERS, RETAIN_OFF
from tests.relay.public_emulation import emulate

ROOM, GAME = "REMATCH", b"\x07" * 32
OFF = replace(PUBLIC_BROKERS[0], retain=RETAIN_OFF)


async def _until(check: Callable[[], bool], timeout: float = 8.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


async def _late_channel(binary: str, tmp: Path) -> None:
    keys = [SigningKey.generate(bytes([i + 81]) * 32) for i in range(2)]
    seat_keys = [k.public_bytes() for k in keys]
    nxt = [SigningKey.generate(bytes([i + 91]) * 32).public_bytes() for i in range(2)]
    async with emulate(binary, OFF, tmp) as emulation:
        first = RematchChannel(emulation.address, ROOM, GAME, seat_keys)
        first.answer(keys[0], 0, True, nxt[0])
        runs = [asyncio.ensure_future(first.run())]
        try:
            await asyncio.wait_for(first.delivered.wait(), 10)  # said, with nobody else listening yet
            late = RematchChannel(emulation.address, ROOM, GAME, seat_keys)
            runs.append(asyncio.ensure_future(late.run()))
            await _until(lambda: 0 in late.answers and late.answers[0].accept)
            late.answer(keys[1], 1, True, nxt[1])
            await _until(lambda: 1 in first.answers and first.answers[1].key == nxt[1])
            first.announce(keys[0], "NEWROOM", nxt[0])
            await _until(lambda: late.new_room is not None and late.new_room.code == "NEWROOM")
        finally:
            for channel in (first, *([late] if len(runs) > 1 else [])):
                channel.stop()
            await asyncio.gather(*runs, return_exceptions=True)
        assert emulation.counts.broken == []


@pytest.mark.timeout(60)
def test_a_channel_that_comes_later_hears_the_answers_without_retained_messages(
    mosquitto_path: str, tmp_path: Path
) -> None:
    asyncio.run(_late_channel(mosquitto_path, tmp_path))
