"""Does a relay keep retained messages?  Asked once before a room is opened there.

The program keeps a room's log, notices, presence and lobby cards as retained messages: the relay's
copy *is* how a joiner, a late seat or a restarted one catches up.  A broker with retained messages
off cannot carry a game (yet: docs/relay-operators.md, "Retained messages off"), and Mosquitto with
``retain_available false`` even disconnects a client that publishes one.  So before a room is opened
on a relay the program publishes one empty retained message to a fresh topic of its own (which
stores nothing: an empty retained message only clears a topic) and sees whether the relay takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import aiomqtt

from relay import topics
from relay.address import RelayAddress
from relay.mqtt import mqtt_client

#: Seconds the relay has to acknowledge the retained message.
RETAIN_PROBE_S = 4.0


async def keeps_retained(address: RelayAddress, timeout: float = RETAIN_PROBE_S) -> bool:
    """True when ``address`` acknowledges a retained publish; False when it refuses it or ends the connection.

    A relay that cannot be reached at all raises :class:`aiomqtt.MqttError` (the probe before this one says why).
    """
    topic = f"{topics.ROOT}/probe/{secrets.token_hex(8)}"
    async with mqtt_client(address, "retain", timeout=timeout) as client:
        publishing = asyncio.ensure_future(client.publish(topic, b"", qos=1, retain=True, timeout=timeout))
        # aiomqtt leaves a publish waiting for its acknowledgement when the relay hangs up: the loss ends it.
        lost = client._disconnected  # aiomqtt's future of the connection's loss
        await asyncio.wait({publishing, lost}, return_when=asyncio.FIRST_COMPLETED)
        if not publishing.done():
            publishing.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await publishing
        return publishing.done() and not publishing.cancelled() and publishing.exception() is None
