"""The lobby's reads from a relay: a checked connection, and the retained messages of a few topics.

The host, the joiner and the listing all begin the same way: check that the address is an MQTT
broker (a clear error within seconds, :func:`relay.probe.probe`), connect, and read what the relay
retains for the room before acting on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

import aiomqtt

from relay import topics
from relay.address import RelayAddress, parse_address
from relay.lobby.inbox import Inbox
from relay.mqtt import mqtt_client
from relay.probe import probe
from relay.transport.room import QUIET_S


def lobby_client(address: RelayAddress) -> aiomqtt.Client:
    """A client for the lobby's short connections (its identifier: 23 letters and digits at most)."""
    return mqtt_client(address, "lobby", keepalive=10, timeout=10)


async def checked_address(relay: str | RelayAddress, timeout: float) -> RelayAddress:
    """``relay`` parsed, once it answered as an MQTT broker (a :class:`relay.errors.RelayError` if not)."""
    address = parse_address(relay)
    await probe(address, timeout)
    return address


def payload_of(message: aiomqtt.Message) -> bytes:
    """A message's payload as bytes (what aiomqtt decoded otherwise is nobody's lobby message: empty)."""
    return bytes(message.payload) if isinstance(message.payload, bytes | bytearray) else b""


async def read_retained(
    client: aiomqtt.Client, filters: list[str], peer: str, timeout: float, qos: int = 1
) -> dict[str, bytes]:
    """Subscribe and collect retained messages until our own marker is back and the relay is quiet.

    The marker is retained and its filter is the last of one SUBSCRIBE, so Mosquitto and amqtt send
    it after the retained messages of the other filters; Aedes may send it first and the rest
    right after, so the read ends only once nothing more came for a moment.  ``timeout`` bounds it all.
    ``qos`` is the subscription's for ``filters`` (the marker's is always 1).
    """
    marker_topic = topics.sync("lobby", peer)
    marker = os.urandom(8)
    await client.publish(marker_topic, marker, qos=1, retain=True)
    await client.subscribe([*((f, qos) for f in filters), (marker_topic, 1)])
    got: dict[str, bytes] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    marker_back = False
    inbox = Inbox(client)
    try:
        while True:
            left = deadline - loop.time()
            wait = min(QUIET_S, left) if marker_back else left
            if wait <= 0:
                break
            m = await inbox.next(wait)
            if m is None:
                break  # quiet after the marker (or no marker within the timeout)
            payload = payload_of(m)
            if m.topic.value == marker_topic:
                marker_back = marker_back or payload == marker
                continue
            got[m.topic.value] = payload
    finally:
        inbox.close()
        with contextlib.suppress(aiomqtt.MqttError):
            await client.publish(marker_topic, b"", qos=1, retain=True)
    return got
