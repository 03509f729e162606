"""The MQTT client's log: its notes about publications in flight stay out of a program's output, nothing else does.

aiomqtt warns "There are N pending publish calls." once more than ten QoS 1 publications wait for the
broker; a seat keeps up to 16 in flight by design, and one that puts a log back keeps many more.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from relay import topics
from relay.address import parse_address
from relay.mqtt import CLIENT_LOG, PublishBacklog, mqtt_client, quiet_publish_backlog
from tests.relay.helpers import BrokerProcess


async def _many_in_flight(address: str) -> None:
    async with mqtt_client(parse_address(address), "test") as client:
        await asyncio.gather(*(client.publish(f"{topics.ROOT}/room/TEST/log/{i}", b"x", qos=1) for i in range(30)))


@pytest.mark.timeout(30)
def test_the_backlog_notes_are_filtered_and_every_other_warning_stays(
    any_relay: BrokerProcess, caplog: pytest.LogCaptureFixture
) -> None:
    for installed in [f for f in CLIENT_LOG.filters if isinstance(f, PublishBacklog)]:
        CLIENT_LOG.removeFilter(installed)  # a program in this process may have installed it already
    with caplog.at_level(logging.WARNING, logger=CLIENT_LOG.name):
        asyncio.run(_many_in_flight(any_relay.address))
    noted = [r.getMessage() for r in caplog.records if r.name == CLIENT_LOG.name]
    assert any("pending publish calls" in m for m in noted), "the scenario: aiomqtt notes its backlog"
    caplog.clear()
    quiet_publish_backlog()  # what the programs do first
    quiet_publish_backlog()  # once is enough: a second call adds nothing
    assert sum(isinstance(f, PublishBacklog) for f in CLIENT_LOG.filters) == 1
    with caplog.at_level(logging.WARNING, logger=CLIENT_LOG.name):
        asyncio.run(_many_in_flight(any_relay.address))
        CLIENT_LOG.warning("the relay went away")
    assert [r.getMessage() for r in caplog.records if r.name == CLIENT_LOG.name] == ["the relay went away"]
