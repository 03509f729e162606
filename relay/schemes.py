"""Which of plain MQTT, MQTT over TLS, over WebSocket and over secure WebSocket answers at a host and port.

An address with the wrong scheme for its port meets a server that answers in another tongue: a TLS
server's alert to plain bytes, a web server's ``HTTP/1.1 400`` to a CONNECT, a broker that hangs up
on an HTTP request.  What was heard does not say which scheme would have worked, so the probe asks
the port once in each of the others, all at once, and names the one that answers with a CONNACK.

These tries carry no login and check no certificate: they only learn how the port speaks, and a
password goes to a relay only over the scheme its owner wrote (and a certificate that checks out).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl

from relay.address import DEFAULT_WS_PATH, RelayAddress, client_id
from relay.wire import DISCONNECT, connect_packet, is_connack, read_ws_payload, upgrade_request, ws_frame

#: Every scheme, in the order one is named when more than one answers at a port.
SCHEMES = ("mqtt", "mqtts", "ws", "wss")

#: How each scheme is said in a hint.
SAID = {
    "mqtt": "plain MQTT",
    "mqtts": "MQTT over TLS",
    "ws": "MQTT over WebSocket",
    "wss": "MQTT over secure WebSocket",
}


def address_in(address: RelayAddress, scheme: str) -> str:
    """``address``'s host and port written with ``scheme`` (a WebSocket one with the path), without a login."""
    path = (address.path or DEFAULT_WS_PATH) if scheme in ("ws", "wss") else ""
    return f"{scheme}://{address.hostport}{path}"


def _look_only() -> ssl.SSLContext:
    """A TLS context that completes any handshake: to learn whether the port speaks TLS, never to trust it."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


async def _answers(address: RelayAddress, scheme: str, timeout: float) -> bool:
    """Whether an anonymous CONNECT over ``scheme`` at the address's host and port brings a CONNACK back."""
    tls = scheme in ("mqtts", "wss")
    websocket = scheme in ("ws", "wss")
    try:
        async with asyncio.timeout(timeout):
            context, name = (_look_only(), address.host) if tls else (None, None)
            reader, writer = await asyncio.open_connection(
                address.host, address.port, ssl=context, server_hostname=name
            )
            try:
                packet = connect_packet(client_id("probe"))
                if websocket:
                    writer.write(upgrade_request(address))
                    head = await reader.readuntil(b"\r\n\r\n")
                    if head.split(b" ", 2)[1:2] != [b"101"]:
                        return False
                    writer.write(ws_frame(packet))
                    answer = await read_ws_payload(reader)
                else:
                    writer.write(packet)
                    answer = await reader.readexactly(4)
                if not is_connack(answer):
                    return False
                writer.write(ws_frame(DISCONNECT) if websocket else DISCONNECT)
                with contextlib.suppress(OSError):
                    await writer.drain()
                return True
            finally:
                writer.close()
                with contextlib.suppress(OSError, ssl.SSLError, TimeoutError):
                    await writer.wait_closed()
    except (OSError, TimeoutError, EOFError, ValueError, asyncio.LimitOverrunError, asyncio.IncompleteReadError):
        return False


async def answering_scheme(address: RelayAddress, timeout: float, among: tuple[str, ...] = SCHEMES) -> str | None:
    """The first scheme of ``among`` (other than the address's own) that MQTT answers in at its port; None if none."""
    tried = [s for s in among if s != address.scheme]
    answers = await asyncio.gather(*(_answers(address, s, timeout) for s in tried))
    return next((s for s, yes in zip(tried, answers, strict=True) if yes), None)
