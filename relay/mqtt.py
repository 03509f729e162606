"""The MQTT client every relay module connects with: aiomqtt, set up from a :class:`RelayAddress`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from types import TracebackType
from typing import Any, Self

import aiomqtt
import paho.mqtt.client as paho

from relay.address import DEFAULT_WS_PATH, RelayAddress, client_id
from relay.pacing import Pacer
from relay.retain_mode import retains
from relay.seal import RoomSeal

#: Where the MQTT clients of this project log (aiomqtt's own lines and paho's beneath them).
CLIENT_LOG = logging.getLogger("relay.mqtt")

#: Without it, Nagle's algorithm holds our PUBACKs and entries behind the broker's delayed ACKs:
#: 40 ms per entry instead of well under one.
NODELAY = (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class RelayClient(aiomqtt.Client):
    """An ``aiomqtt.Client`` that takes the news of a lost connection with it when it closes.

    aiomqtt keeps an unexpected disconnection as the exception of a future that only a read of
    ``messages`` takes; a client closed without reading after its relay went away (a short
    lobby connection, a publisher) would leave it unretrieved, and asyncio logs "Future
    exception was never retrieved" when the client is freed.  The loss has already been told by
    whatever call failed on it, so closing takes it here.
    """

    def __init__(self, *args: Any, seal: RoomSeal | None = None, retain: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The room this connection speaks for, sealed (None: only the public listings, unsealed).
        self.seal = seal
        #: False on a relay that keeps no retained messages (:mod:`relay.retain_mode`): live only.
        self.retains = retain
        #: Messages that did not open under the seal (another room's, a stranger's garbage): noise.
        self.unopened = 0
        #: What this client's publishes wait for: under a public broker's rate limit (:mod:`relay.pacing`).
        self.pacer = Pacer()

    # -- the room seal: callers name logical topics; the wire carries sealed ones ----------------
    async def publish(  # type: ignore[override]  # aiomqtt's extra positional arguments are not used here
        self, topic: str, payload: bytes | None = None, qos: int = 0, retain: bool = False, **kwargs: Any
    ) -> None:
        """Publish, sealed, once the pacer lets it go: every publish of the program passes here.

        On a relay that keeps no retained messages the retain flag is never sent (such a relay may
        disconnect its sender), and an empty retained message, which would only clear a stored copy,
        is not sent at all: there is none to clear.
        """
        if retain and not self.retains:
            if not payload:
                return
            retain = False
        if self.seal is not None:
            payload = self.seal.seal(topic, bytes(payload or b""))
            topic = self.seal.topic(topic)
        await self.pacer.wait()
        await super().publish(topic, payload, qos, retain, **kwargs)

    async def subscribe(  # type: ignore[override]  # aiomqtt's extra positional arguments are not used here
        self, topic: str | list[tuple[str, int]], qos: int = 0, **kwargs: Any
    ) -> tuple[int, ...] | list[paho.ReasonCode]:
        seal = self.seal
        if seal is not None:
            if isinstance(topic, str):
                topic = seal.topic_filter(topic)
            else:
                topic = [(seal.topic_filter(t), q) for t, q in topic]
        return await super().subscribe(topic, qos, **kwargs)

    async def unsubscribe(  # type: ignore[override]  # aiomqtt's extra positional arguments are not used here
        self, topic: str | list[str], **kwargs: Any
    ) -> None:
        seal = self.seal
        if seal is not None:
            topic = seal.topic_filter(topic) if isinstance(topic, str) else [seal.topic_filter(t) for t in topic]
        await super().unsubscribe(topic, **kwargs)

    def _on_message(self, client: paho.Client, userdata: Any, message: paho.MQTTMessage) -> None:
        """Only messages that open under the room's seal reach the reader, under their logical topics.

        What does not open is counted (:attr:`unopened`) and dropped, except on a topic this seal named,
        where it reads as the topic emptied: the transport and the host then put their own copy back.
        """
        if self.seal is None:
            super()._on_message(client, userdata, message)
            return
        opened = self.seal.open(message.topic, bytes(message.payload))
        if opened is None:
            self.unopened += 1
            logical = self.seal.logical(message.topic)
            if logical is None:
                return  # another room's, or a stranger's: noise, as a topic outside the room would be
            # A topic of ours holds what is not ours (someone who sees the wire wrote over it): for the
            # room, nothing is there any more, which is what the reader must hear to put its own back.
            # It is no more than anyone can do with an empty payload; the bytes themselves reach nobody.
            opened = (logical, b"")
        m = aiomqtt.Message(opened[0], opened[1], message.qos, message.retain, message.mid, None)
        try:
            self._queue.put_nowait(m)
        except asyncio.QueueFull:
            self._logger.warning("Message queue is full. Discarding message.")

    async def __aenter__(self) -> Self:
        """Connect; a caller cancelled meanwhile leaves the connection to be made, and it is closed then.

        aiomqtt connects in a thread and waits for the relay's answer: a cancellation stops only the
        wait, and the connection made behind it would stay open with nobody to close it (its loss
        never taken).
        """
        entering = asyncio.ensure_future(super().__aenter__())
        try:
            return await asyncio.shield(entering)
        except asyncio.CancelledError:
            closing = asyncio.ensure_future(self._close_once_entered(entering))
            _CLOSING.add(closing)
            closing.add_done_callback(_CLOSING.discard)
            raise

    async def _close_once_entered(self, entering: asyncio.Future[Self]) -> None:
        with contextlib.suppress(Exception):
            await entering
            await self.__aexit__(None, None, None)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            await super().__aexit__(exc_type, exc, tb)
        finally:
            # A close cut short (cancelled while it waited for the relay's goodbye) learns of the
            # loss only afterwards: it is taken then.
            self._disconnected.add_done_callback(_take_loss)


#: Connections being closed once made (their callers were cancelled while they connected).
_CLOSING: set[asyncio.Future[None]] = set()


def _take_loss(lost: asyncio.Future[None]) -> None:
    if not lost.cancelled():
        lost.exception()


class PublishBacklog(logging.Filter):
    """Drops aiomqtt's "There are N pending publish calls." and lets every other line through.

    aiomqtt warns once more than ten publications wait for the broker's acknowledgement; a transport
    keeps up to 16 entries in flight by design, and a seat that puts a whole log back on a relay
    keeps many more.  It is no news to a player, and their terminal is no place for it.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.startswith("There are %d pending publish calls"))


def quiet_publish_backlog() -> None:
    """Keep the MQTT clients' notes about publications in flight out of this program's log (once is enough).

    The programs call it (the headless peer, the desktop program): the filter is on the clients'
    logger only, so every other warning of theirs, and of everything else, is still shown.
    """
    if not any(isinstance(f, PublishBacklog) for f in CLIENT_LOG.filters):
        CLIENT_LOG.addFilter(PublishBacklog())


def mqtt_client(
    address: RelayAddress,
    kind: str = "",
    *,
    keepalive: int = 60,
    timeout: float | None = None,
    will: aiomqtt.Will | None = None,
    seal: RoomSeal | None = None,
    retain: bool | None = None,
) -> RelayClient:
    """A client for ``address``: the right transport, TLS context, login and client id (``kind`` tags it).

    MQTT 3.1.1, clean session.  With ``seal`` it speaks for one room: its callers publish, subscribe
    and read the room's logical topics (:mod:`relay.topics`) and plain payloads, while the relay sees
    only sealed ones (:mod:`relay.seal`), its last will included.  On a relay known to keep no
    retained messages (:mod:`relay.retain_mode`) nothing is published retained, the will neither
    (``retain``: True or False instead of what is known; the retained probe asks with True).
    """
    retain = retains(address) if retain is None else retain
    if will is not None and not retain:
        will = aiomqtt.Will(will.topic, will.payload, will.qos, False)
    if seal is not None and will is not None:
        payload = will.payload if isinstance(will.payload, bytes) else str(will.payload or "").encode()
        will = aiomqtt.Will(seal.topic(will.topic), seal.seal(will.topic, payload), will.qos, will.retain)
    return RelayClient(
        address.host,
        address.port,
        identifier=client_id(kind),
        protocol=aiomqtt.ProtocolVersion.V311,
        clean_session=True,
        socket_options=[NODELAY],
        username=address.username,
        password=address.password,
        tls_context=address.ssl_context(),
        transport="websockets" if address.websocket else "tcp",
        websocket_path=(address.path or DEFAULT_WS_PATH) if address.websocket else None,
        keepalive=keepalive,
        timeout=timeout,
        will=will,
        logger=CLIENT_LOG,
        seal=seal,
        retain=retain,
    )


def live_only(client: aiomqtt.Client) -> bool:
    """Whether ``client``'s relay keeps no retained messages: what it should read comes only live."""
    return isinstance(client, RelayClient) and not client.retains
