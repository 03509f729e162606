"""Every publish of a client is paced under a public broker's rate: a burst goes at once, then the pace holds,
as the broker counts it (the emulation's proxy of tests/relay/public_emulation.py); a restore is paced, not dropped."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from relay import topics
from relay.mqtt import mqtt_client
from relay.pacing import MAX_PER_WINDOW, Pacer
from relay.public import PUBLIC_BROKERS
from relay.seal import RoomSeal
from relay.transport.room import RoomTransport
from tests.relay.any_game import assert_fair, play_whole_game
from tests.relay.public_emulation import Emulation, emulate

ROW = PUBLIC_BROKERS[0]


def test_a_pacer_refuses_a_window_that_lets_nothing_through() -> None:
    with pytest.raises(ValueError):
        Pacer(0, 1.0)
    with pytest.raises(ValueError):
        Pacer(5, 0)


async def _burst(binary: str, tmp: Path, n: int) -> None:
    async with emulate(binary, ROW, tmp) as emulation:
        got: list[str] = []
        async with mqtt_client(emulation.address, "reader") as reader:
            await reader.subscribe("sealed/v2/room/PACED/log/+", qos=1)

            async def read() -> None:
                async for message in reader.messages:
                    got.append(message.topic.value)
                    if len(got) == n:
                        return

            reading = asyncio.ensure_future(read())
            async with mqtt_client(emulation.address, "writer") as writer:
                await asyncio.gather(*(writer.publish(f"sealed/v2/room/PACED/log/{i}", b"x", qos=1) for i in range(n)))
            await asyncio.wait_for(reading, 20)
        counts = emulation.counts
    assert sorted(got) == sorted(f"sealed/v2/room/PACED/log/{i}" for i in range(n)), "every publish arrived"
    assert counts.broken == []
    assert MAX_PER_WINDOW <= counts.busiest_second <= ROW.max_publish_rate, "the burst went at once, then the pace held"


@pytest.mark.timeout(60)
def test_a_burst_of_publishes_stays_under_the_brokers_rate_and_all_arrive(mosquitto_path: str, tmp_path: Path) -> None:
    asyncio.run(_burst(mosquitto_path, tmp_path, 3 * MAX_PER_WINDOW))


async def _restore(binary: str, tmp: Path) -> None:
    async with emulate(binary, ROW, tmp / "first") as first:
        sessions = await play_whole_game(first.address, "system-launch", seed=b"restore")
    assert_fair(sessions)
    session = sessions[0]
    assert session.table is not None
    entries = len(session.table.log)
    assert entries > MAX_PER_WINDOW, "the scenario: a log longer than one burst"
    async with emulate(binary, ROW, tmp / "second") as second:
        # The seat's program on an empty relay (the game moved, or the relay lost everything): it puts the log back.
        transport = RoomTransport(second.address, session, "p0", tick_ms=50)
        running = asyncio.ensure_future(transport.run())
        try:
            async with asyncio.timeout(30):
                while second.counts.retained < entries:
                    await asyncio.sleep(0.1)
        finally:
            transport.stop()
            await asyncio.gather(running, return_exceptions=True)
        back = await _read_back(second, transport.seal, session.room, entries)
        counts = second.counts
    assert back == entries, "the whole log is on the relay"
    assert counts.broken == [], counts.broken
    assert counts.busiest_second <= ROW.max_publish_rate
    assert counts.retained >= entries


async def _read_back(emulation: Emulation, seal: RoomSeal, room: str, entries: int) -> int:
    """How many of the log's topics hold a retained entry on the relay (each exact topic read once)."""
    got: set[str] = set()
    async with mqtt_client(emulation.address, "check", seal=seal) as reader:
        for seq in range(entries):
            await reader.subscribe(topics.log(room, seq), qos=0)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                async for message in reader.messages:
                    got.add(message.topic.value)
                    if len(got) == entries:
                        break
    return len(got)


@pytest.mark.timeout(90)
def test_a_restore_of_a_whole_log_is_paced_and_complete(mosquitto_path: str, tmp_path: Path) -> None:
    asyncio.run(_restore(mosquitto_path, tmp_path))
