"""The MQTT client every relay module connects with: aiomqtt, set up from a :class:`RelayAddress`."""

from __future__ import annotations

import socket
from types import TracebackType

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

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            await super().__aexit__(exc_type, exc, tb)
        finally:
            lost = self._disconnected
            if lost.done() and not lost.cancelled():
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
