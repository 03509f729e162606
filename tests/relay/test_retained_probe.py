"""A relay with retained messages off is noticed before a room is opened on it: Mosquitto's
``retain_available false`` disconnects the client that publishes one (the emulation of a public broker)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from relay.public import PUBLIC_BROKERS, RETAIN_CAPPED, RETAIN_OFF
from relay.retained_probe import keeps_retained
from tests.relay.public_emulation import emulate


async def _keeps(binary: str, tmp: Path, retain: str) -> tuple[bool, int]:
    async with emulate(binary, replace(PUBLIC_BROKERS[0], retain=retain), tmp) as emulation:
        kept = await keeps_retained(emulation.address)
        return kept, emulation.counts.retained


@pytest.mark.timeout(30)
@pytest.mark.parametrize("retain", [RETAIN_CAPPED, RETAIN_OFF])
def test_a_relay_that_keeps_no_retained_messages_is_told_apart(
    mosquitto_path: str, tmp_path: Path, retain: str
) -> None:
    kept, published = asyncio.run(_keeps(mosquitto_path, tmp_path, retain))
    assert kept == (retain != RETAIN_OFF)
    assert published == 1, "one empty retained message to a topic of its own, which stores nothing"
