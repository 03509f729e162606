"""The lobby's reads from a relay: a checked connection, and the retained messages of a few topics.

The host, the joiner and the listing all begin the same way: check that the address is an MQTT
broker (a clear error within seconds, :func:`relay.probe.probe`), connect, and read what the relay
retains for the room before acting on it.

Anyone may store retained messages on a relay, as many as it lets them.  A read of exact topics
brings one message each; a read of a wildcard (the listing's ``lobby/+``) brings whatever strangers
stored there.  So a read keeps at most a :class:`Bound` of messages and bytes while it reads: what
the caller's ``rank`` refuses is never kept, and beyond the bound a message is kept only in the
place of a lower-ranked one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass

import aiomqtt

from relay import topics
from relay.address import RelayAddress, parse_address
from relay.lobby.inbox import Inbox
from relay.mqtt import mqtt_client
from relay.probe import probe
from relay.seal import BUCKETS, RoomSeal
from relay.transport.room import QUIET_S


@dataclass(frozen=True)
class Bound:
    """At most ``messages`` retained messages, and ``size`` bytes of their topics and payloads, kept by one read."""

    messages: int
    size: int


#: A read of a few exact topics (one retained message each, a lobby message at most 16 KiB): a bound all the same.
EXACT = Bound(64, 1 << 20)

#: ``rank(topic, payload)``: higher ranks are kept first once the bound is reached (a tie keeps the
#: one that came first); None: the message is not kept at all, and costs no place.
Rank = Callable[[str, bytes], tuple[int, ...] | None]


class _Kept:
    """The messages of one read, within a :class:`Bound`: a topic's latest message, if its rank lets it stay."""

    def __init__(self, bound: Bound, rank: Rank | None) -> None:
        self.bound = bound
        self.rank = rank
        #: topic -> (rank, arrival, payload)
        self.items: dict[str, tuple[tuple[int, ...], int, bytes]] = {}
        self.size = 0
        self.arrivals = 0

    def take(self, topic: str, payload: bytes) -> None:
        self._drop(topic)  # the relay sends a topic's newest message last: the earlier one is no more
        rank = self.rank(topic, payload) if self.rank is not None else ()
        if rank is None:
            return
        cost = len(topic) + len(payload)
        if cost > self.bound.size:
            return
        self.arrivals += 1
        while self.items and (len(self.items) >= self.bound.messages or self.size + cost > self.bound.size):
            # The lowest rank goes, the latest of equals first; a newcomer no better than it stays out.
            lowest = min(self.items, key=lambda t: (self.items[t][0], -self.items[t][1]))
            if self.items[lowest][0] >= rank:
                return
            self._drop(lowest)
        if len(self.items) >= self.bound.messages:
            return  # a bound of no messages
        self.items[topic] = (rank, self.arrivals, payload)
        self.size += cost

    def _drop(self, topic: str) -> None:
        old = self.items.pop(topic, None)
        if old is not None:
            self.size -= len(topic) + len(old[2])

    def payloads(self) -> dict[str, bytes]:
        return {topic: payload for topic, (_, _, payload) in self.items.items()}


def lobby_client(address: RelayAddress, seal: RoomSeal | None = None) -> aiomqtt.Client:
    """A client for the lobby's short connections (its identifier: 23 letters and digits at most).

    ``seal``: the room it speaks for (None: only the public listings).
    """
    return mqtt_client(address, "lobby", keepalive=10, timeout=10, seal=seal)


async def checked_address(relay: str | RelayAddress, timeout: float) -> RelayAddress:
    """``relay`` parsed, once it answered as an MQTT broker (a :class:`relay.errors.RelayError` if not)."""
    address = parse_address(relay)
    await probe(address, timeout)
    return address


def payload_of(message: aiomqtt.Message) -> bytes:
    """A message's payload as bytes (what aiomqtt decoded otherwise is nobody's lobby message: empty)."""
    return bytes(message.payload) if isinstance(message.payload, bytes | bytearray) else b""


async def read_retained(
    client: aiomqtt.Client,
    filters: list[str],
    peer: str,
    timeout: float,
    qos: int = 1,
    *,
    bound: Bound = EXACT,
    rank: Rank | None = None,
    public: bool = False,
) -> dict[str, bytes]:
    """Subscribe and collect retained messages until our own marker is back and the relay is quiet.

    The marker is retained and its filter is the last of one SUBSCRIBE, so Mosquitto and amqtt send
    it after the retained messages of the other filters; Aedes may send it first and the rest
    right after, so the read ends only once nothing more came for a moment.  ``timeout`` bounds it all.
    ``qos`` is the subscription's for ``filters`` (the marker's is always 1).  Only topics of
    ``filters`` are kept, within ``bound`` and by ``rank`` (see :data:`Rank`), as they arrive.
    A ``public`` read (the listing's, unsealed) puts its marker beside the listing, where it names nothing.
    """
    marker_topic = topics.listing_marker(peer) if public else topics.sync("lobby", peer)
    marker = os.urandom(BUCKETS[0] if public else 8)  # in the open, one of the seal's sizes too
    await client.publish(marker_topic, marker, qos=1, retain=True)
    await client.subscribe([*((f, qos) for f in filters), (marker_topic, 1)])
    kept = _Kept(bound, rank)
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
            if any(m.topic.matches(f) for f in filters):  # a relay may send other topics' retained messages too
                kept.take(m.topic.value, payload)
    finally:
        inbox.close()
        with contextlib.suppress(aiomqtt.MqttError):
            await client.publish(marker_topic, b"", qos=1, retain=True)
    return kept.payloads()
