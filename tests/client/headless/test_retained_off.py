"""The headless host and its guest play a whole game on a public broker that keeps no retained messages.

The broker is the public brokers' emulation with ``retain_available false`` (Mosquitto disconnects a
client that publishes a retained message): the host opens its room and prints its invitation once its
own seat list came back live, the guest joins by the link, and the game ends fair for both
(relay/retain_mode.py: both programs learn it by asking, and play live only).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from relay.public import PUBLIC_BROKERS, RETAIN_OFF
from tests.relay.helpers import Peer, Table, finished_fair, wait_for_line
from tests.relay.public_emulation import emulate

OFF = replace(PUBLIC_BROKERS[0], retain=RETAIN_OFF)


async def _headless_game(binary: str, tmp: Path) -> None:
    async with emulate(binary, OFF, tmp / "broker") as emulation:
        relay, ca = str(emulation.address), str(emulation.ca_file)
        host_args = ["--relay", relay, "--ca-file", ca, "--create", "anomaly-maze", "--players", "2", "--accept-all"]
        host = Peer(
            0, [*host_args, "--option", "round_limit=12", "--state-dir", str(tmp / "host")], tmp, tmp / "host.out"
        )
        peers = [host.start()]
        try:
            link = (await asyncio.to_thread(wait_for_line, host.out, r"^invitation (sealed\S+)$", 30)).group(1)
            guest = ["--join", link, "--ca-file", ca, "--state-dir", str(tmp / "guest")]
            peers.append(Peer(1, guest, tmp / "guest", tmp / "guest.out").start())
            codes = [await asyncio.to_thread(p.wait, 60) for p in peers]
        finally:
            for p in peers:
                p.kill()
        finished_fair(Table(peers), codes)
        assert emulation.counts.broken == [], emulation.counts.broken


@pytest.mark.timeout(120)
def test_a_headless_host_and_guest_play_whole_on_a_broker_that_keeps_no_retained_messages(
    mosquitto_path: str, tmp_path: Path
) -> None:
    asyncio.run(_headless_game(mosquitto_path, tmp_path))
