"""The MQTT client's log: its notes about publications in flight stay out of a program's output, nothing else does.

aiomqtt warns "There are N pending publish calls." once more than ten QoS 1 publications wait for the
broker; a seat keeps up to 16 in flight by design, and one that puts a log back keeps many more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

import aiomqtt
import pytest

from protocol.envelope import MAX_ENTRY_BYTES
from relay import topics
from relay.address import parse_address
from relay.fingerprint import fingerprint
from relay.mqtt import CLIENT_LOG, PublishBacklog, mqtt_client, quiet_publish_backlog
from relay.seal import BUCKETS, RoomSeal
from tests.relay.helpers import BrokerProcess, TcpProxy


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


# -- sealed rooms over a real broker (relay/seal.py through relay/mqtt.py) ------------------------------


async def _drain(client: aiomqtt.Client, seconds: float) -> list[aiomqtt.Message]:
    got: list[aiomqtt.Message] = []
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            async for m in client.messages:
                got.append(m)
    return got


@pytest.mark.timeout(30)
def test_two_sealed_clients_of_a_room_exchange_and_the_relay_sees_only_ciphertext(any_relay: BrokerProcess) -> None:
    """Two clients of one room publish and read its logical topics; an unsealed client subscribed to
    everything sees opaque topics and bucket-sized ciphertext; a client of another room hears nothing,
    and what a relay would send it anyway does not open (counted as noise)."""
    address, code, host = parse_address(any_relay.address), "SEALMQ", bytes(range(32))
    big = os.urandom(MAX_ENTRY_BYTES)  # the largest entry there is: the largest bucket, through the broker

    async def main() -> None:
        async with (
            mqtt_client(address, "raw") as raw,
            mqtt_client(address, "b", seal=RoomSeal.for_host_key(code, host)) as b,
            mqtt_client(address, "o", seal=RoomSeal.for_host_key("SEALMR", host)) as other,
        ):
            await raw.subscribe(f"{topics.ROOT}/#", qos=1)
            await b.subscribe([(topics.log(code, seq), 1) for seq in range(3)])
            await other.subscribe(
                [(topics.log(code, seq), 1) for seq in range(3)]
            )  # the same logical topics, another room's keys
            await aiomqtt.Client.subscribe(other, f"{topics.ROOT}/#", qos=1)  # and the whole wire, past its seal
            async with mqtt_client(address, "a", seal=RoomSeal.for_host_key(code, host)) as a:
                await a.publish(topics.log(code, 0), b"entry zero", qos=1, retain=True)
                await a.publish(topics.log(code, 1), big, qos=1, retain=True)
                await a.publish(topics.log(code, 2), b"live only", qos=1)
            heard = {m.topic.value: bytes(m.payload) for m in await _drain(b, 1.0)}  # type: ignore[arg-type]
            assert heard == {
                topics.log(code, 0): b"entry zero",
                topics.log(code, 1): big,
                topics.log(code, 2): b"live only",
            }
            wire = await _drain(raw, 0.3)
            assert len(wire) == 3
            for m in wire:
                payload = bytes(m.payload)  # type: ignore[arg-type]
                assert code not in m.topic.value and "/log/" not in m.topic.value
                assert len(payload) in BUCKETS and b"entry zero" not in payload and big[:64] not in payload
            assert sorted(len(bytes(m.payload)) for m in wire) == [BUCKETS[0], BUCKETS[0], BUCKETS[-1]]  # type: ignore[arg-type]
            assert await _drain(other, 0.3) == [] and other.unopened >= 3
            # A late reader of the room reads the retained entries back, opened.
            async with mqtt_client(address, "late", seal=RoomSeal(code, fingerprint(host))) as late:
                await late.subscribe([(topics.log(code, seq), 1) for seq in range(3)])
                back = {m.topic.value: bytes(m.payload) for m in await _drain(late, 1.0)}  # type: ignore[arg-type]
            assert back == {topics.log(code, 0): b"entry zero", topics.log(code, 1): big}

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_sealed_clients_last_will_is_sealed(any_relay: BrokerProcess) -> None:
    """The will the broker publishes for a seat that vanished is on the wire topic, sealed: the relay
    learns neither the seat nor "gone", a holder of the key reads it."""
    code, host = "SEALWL", bytes(range(32))
    seal = RoomSeal.for_host_key(code, host)
    presence = topics.presence(code, 1)
    proxy = TcpProxy(any_relay.port)

    async def main() -> None:
        address = parse_address(any_relay.address)
        async with (
            mqtt_client(address, "raw") as raw,
            mqtt_client(address, "r", seal=RoomSeal.for_host_key(code, host)) as reader,
        ):
            await raw.subscribe(f"{topics.ROOT}/#", qos=1)
            await reader.subscribe(presence, qos=1)
            will = aiomqtt.Will(presence, b"\x81\xa6status\xa4gone", qos=1, retain=True)
            ghost = mqtt_client(parse_address(proxy.address), "ghost", keepalive=5, will=will, seal=seal)
            with contextlib.suppress(aiomqtt.MqttError):
                async with ghost:
                    proxy.cut()  # no DISCONNECT: the broker publishes the will
                    await asyncio.sleep(0.5)
            opened = await _drain(reader, 3.0)
            assert [(m.topic.value, bytes(m.payload)) for m in opened] == [(presence, b"\x81\xa6status\xa4gone")]  # type: ignore[arg-type]
            wire = [(m.topic.value, bytes(m.payload)) for m in await _drain(raw, 0.3)]  # type: ignore[arg-type]
            assert [t for t, _ in wire] == [seal.topic(presence)]
            assert len(wire[0][1]) in BUCKETS and b"gone" not in wire[0][1] and code not in wire[0][0]

    try:
        asyncio.run(main())
    finally:
        proxy.close()
