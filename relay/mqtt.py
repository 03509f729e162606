"""The MQTT client every relay module connects with: aiomqtt, set up from a :class:`RelayAddress`."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from types import TracebackType
from typing import Self

import aiomqtt

from relay.address import DEFAULT_WS_PATH, RelayAddress, client_id

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


def mqtt_client(
    address: RelayAddress,
    kind: str = "",
    *,
    keepalive: int = 60,
    timeout: float | None = None,
    will: aiomqtt.Will | None = None,
) -> RelayClient:
    """A client for ``address``: the right transport, TLS context, login and client id (``kind`` tags it).

    MQTT 3.1.1, clean session.
    """
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
    )
