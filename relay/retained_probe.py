"""Does a relay keep retained messages?  Asked once before a room is opened there.

The program keeps a room's log, notices, presence and lobby cards as retained messages: the relay's
copy is how a joiner, a late seat or a restarted one catches up at once.  A broker with retained
messages off carries a game too, live only (:mod:`relay.retain_mode`: the seats serve each other
what is missing), but Mosquitto with ``retain_available false`` disconnects a client that publishes
a retained message: the program must know before it publishes one.  So before a room or a lobby
connection is opened on a relay not known yet, the program publishes one empty retained message to
a fresh topic of its own (which stores nothing: an empty retained message only clears a topic),
sees whether the relay takes it, and remembers the answer (:func:`learn_retained`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import aiomqtt

from relay import retain_mode, topics
from relay.address import RelayAddress
from relay.mqtt import mqtt_client

#: Seconds the relay has to acknowledge the retained message.
RETAIN_PROBE_S = 4.0


async def keeps_retained(address: RelayAddress, timeout: float = RETAIN_PROBE_S) -> bool:
    """True when ``address`` acknowledges a retained publish; False when it refuses it or ends the connection.

    A relay that cannot be reached at all raises :class:`aiomqtt.MqttError` (the probe before this one says why).
    """
    topic = f"{topics.ROOT}/probe/{secrets.token_hex(8)}"
    async with mqtt_client(address, "retain", timeout=timeout, retain=True) as client:
        publishing = asyncio.ensure_future(client.publish(topic, b"", qos=1, retain=True, timeout=timeout))
        # aiomqtt leaves a publish waiting for its acknowledgement when the relay hangs up: the loss ends it.
        lost = client._disconnected  # aiomqtt's future of the connection's loss
        await asyncio.wait({publishing, lost}, return_when=asyncio.FIRST_COMPLETED)
        if not publishing.done():
            publishing.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await publishing
        kept = publishing.done() and not publishing.cancelled() and publishing.exception() is None
    retain_mode.learn(address, kept)
    return kept


async def learn_retained(address: RelayAddress, timeout: float = RETAIN_PROBE_S) -> bool:
    """Whether ``address`` keeps retained messages: known (the table, an earlier probe), or asked once now.

    A relay that cannot be asked (it went away since its probe) is taken to keep them, and asked again
    next time: a connection that follows fails for the reason it would have failed anyway.
    """
    kept = retain_mode.known(address)
    if kept is not None:
        return kept
    try:
        return await keeps_retained(address, timeout)
    except (aiomqtt.MqttError, OSError):
        return True
