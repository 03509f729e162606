"""Check, within a few seconds, that an address is an MQTT broker — before a client trusts it.

aiomqtt's own errors for a wrong port, a TLS port, a web server or a missing login are slow
(a connect that waits for its timeout) or cryptic ("code 5").  A probe that sends one MQTT
3.1.1 CONNECT — over TCP, TLS, WebSocket or secure WebSocket, with the address's login —
and expects a CONNACK turns every failure into one sentence:

- the name does not resolve / nobody answers (refused, or no answer in time);
- the certificate is not trusted; the port speaks TLS (use mqtts://) or does not;
- this is a web server, not an MQTT WebSocket endpoint;
- the relay needs a login / wrong password;
- something answers, but not as an MQTT broker.

The password goes into the CONNECT packet only; no message here ever shows it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import ssl
import struct

from relay.address import RelayAddress, client_id, parse_address
from relay.errors import (
    LoginNeeded,
    NameNotFound,
    NotARelay,
    NotAWebSocket,
    NotTrusted,
    RelayError,
    RelayTimedOut,
    RelayUnreachable,
    WrongLogin,
    WrongTransport,
)

DEFAULT_PORT = 1883

__all__ = ["DEFAULT_PORT", "parse_address", "probe"]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        n, digit = divmod(n, 128)
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string(value: str) -> bytes:
    data = value.encode()
    return struct.pack("!H", len(data)) + data


def connect_packet(identifier: str, username: str | None = None, password: str | None = None) -> bytes:
    """An MQTT 3.1.1 CONNECT (clean session, keepalive 10 s), with the login if there is one."""
    flags = 0x02
    payload = _string(identifier)
    if username is not None:
        flags |= 0x80
        payload += _string(username)
        if password is not None:
            flags |= 0x40
            payload += _string(password)
    body = b"\x00\x04MQTT" + bytes([4, flags]) + struct.pack("!H", 10) + payload
    return b"\x10" + _varint(len(body)) + body


async def probe(address: RelayAddress | str, timeout: float = 4.0) -> None:
    """Return if the relay answers an MQTT CONNECT with a CONNACK; raise a clear :class:`RelayError` if not."""
    address = parse_address(address)
    where = str(address)
    context = address.ssl_context()
    reader, writer = await _open(address, context, timeout)
    try:
        try:
            if address.websocket:
                await _websocket_upgrade(address, reader, writer, timeout)
            packet = connect_packet(client_id("probe"), address.username, address.password)
            writer.write(_ws_frame(packet) if address.websocket else packet)
            await writer.drain()
            answer = _read_ws_payload(reader) if address.websocket else reader.readexactly(4)
            head = await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            if not address.tls and not address.websocket and await _speaks_tls(address, timeout):
                raise WrongTransport(_tls_hint(address)) from None
            raise NotARelay(f"{where} accepted a connection but did not answer as an MQTT broker") from None
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            if not address.tls and not address.websocket and await _speaks_tls(address, timeout):
                raise WrongTransport(_tls_hint(address)) from None
            raise NotARelay(f"{where} closed the connection: it is not an MQTT broker") from None
        if not address.tls and head[:1] == b"\x15":  # a TLS alert: we spoke plain MQTT to a TLS port
            raise WrongTransport(_tls_hint(address))
        _check_connack(address, head)
        writer.write(_ws_frame(b"\xe0\x00") if address.websocket else b"\xe0\x00")  # DISCONNECT
        with contextlib.suppress(OSError):
            await writer.drain()
    except OSError as exc:
        raise NotARelay(f"{where} broke the connection ({exc.strerror or exc}): it is not an MQTT broker") from None
    finally:
        writer.close()
        with contextlib.suppress(OSError, ssl.SSLError):
            await writer.wait_closed()


async def _open(
    address: RelayAddress, context: ssl.SSLContext | None, timeout: float
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    where = str(address)
    try:
        return await asyncio.wait_for(
            asyncio.open_connection(
                address.host, address.port, ssl=context, server_hostname=address.host if context else None
            ),
            timeout,
        )
    except TimeoutError:
        raise RelayTimedOut(
            f"relay {where}: nobody answers within {timeout:g} s (wrong address, or a firewall)"
        ) from None
    except socket.gaierror:
        raise NameNotFound(f"the name {address.host!r} does not resolve (check the spelling)") from None
    except ConnectionRefusedError:
        raise RelayUnreachable(
            f"relay {where}: nobody answers (it refused the connection: nothing listens on port {address.port})"
        ) from None
    except ssl.SSLCertVerificationError as exc:
        raise NotTrusted(
            f"the certificate of {where} is not trusted ({exc.verify_message or exc.reason}); "
            "give the relay's CA file if it uses its own"
        ) from None
    except ssl.SSLError:
        raise WrongTransport(
            f"{where} does not speak TLS on port {address.port} (try {_plain_scheme(address)} or the relay's TLS port)"
        ) from None
    except (ConnectionError, asyncio.IncompleteReadError):
        if context is not None:
            raise WrongTransport(
                f"{where} does not speak TLS on port {address.port}: it closed the connection during the handshake"
                f" (try {_plain_scheme(address)} or the relay's TLS port)"
            ) from None
        raise RelayUnreachable(f"cannot reach relay {where}: the connection was reset") from None
    except OSError as exc:
        raise RelayUnreachable(f"cannot reach relay {where}: {exc.strerror or exc}") from None


def _plain_scheme(address: RelayAddress) -> str:
    return "ws://" if address.websocket else "mqtt://"


def _tls_hint(address: RelayAddress) -> str:
    return f"{address} speaks TLS on port {address.port}: use mqtts://{address.hostport}"


async def _speaks_tls(address: RelayAddress, timeout: float) -> bool:
    """Whether the port completes (or fails only on the certificate of) a TLS handshake."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(address.host, address.port, ssl=context), min(timeout, 3.0)
        )
    except (OSError, TimeoutError, ssl.SSLError):
        return False
    writer.close()
    with contextlib.suppress(OSError, ssl.SSLError):
        await writer.wait_closed()
    return True


def _check_connack(address: RelayAddress, head: bytes) -> None:
    where = str(address)
    if len(head) < 4 or head[0] != 0x20 or head[1] != 0x02:
        raise NotARelay(f"{where} is not an MQTT broker (it answered {head[:8]!r})")
    code = head[3]
    if code == 0:
        return
    if code in (4, 5):
        if address.password is None:
            user = address.username or "user"
            raise LoginNeeded(
                f"the relay {where} needs a login (write the address as "
                f"{address.scheme}://{user}:password@{address.hostport}{address.path})"
            )
        raise WrongLogin(f"wrong password (or user name {address.username!r}) for the relay {where}")
    if code == 2:
        raise RelayError(f"relay {where} refused our client identifier (MQTT return code 2)")
    raise RelayError(f"relay {where} refused us (MQTT return code {code})")


# -- the smallest WebSocket client that can carry one CONNECT -----------------------------------
async def _websocket_upgrade(
    address: RelayAddress, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, timeout: float
) -> None:
    where = str(address)
    key = base64.b64encode(os.urandom(16)).decode()
    host = f"[{address.host}]" if ":" in address.host else address.host
    request = (
        f"GET {address.path or '/mqtt'} HTTP/1.1\r\nHost: {host}:{address.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: mqtt\r\n\r\n"
    )
    writer.write(request.encode())
    await writer.drain()
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError) as exc:
        data = exc.partial if isinstance(exc, asyncio.IncompleteReadError) else b""
        if data.startswith(b"HTTP/"):
            raise NotAWebSocket(f"{where} is a web server, not an MQTT WebSocket endpoint") from None
        raise NotARelay(f"{where} closed the connection: it is not a WebSocket server (try mqtt://)") from None
    except TimeoutError:
        raise NotARelay(f"{where} accepted a connection but did not answer as a WebSocket server") from None
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    if not status_line.startswith("HTTP/"):
        raise NotARelay(f"{where} is not a WebSocket server (it answered {status_line[:40]!r})")
    parts = status_line.split(" ", 2)
    status = parts[1] if len(parts) > 1 else "?"
    if status != "101":
        raise NotAWebSocket(
            f"{where} is a web server, not an MQTT WebSocket endpoint (HTTP {status} for {address.path or '/mqtt'})"
        )


def _ws_frame(payload: bytes) -> bytes:
    """One masked binary frame (clients must mask)."""
    mask = os.urandom(4)
    n = len(payload)
    head = b"\x82" + (bytes([0x80 | n]) if n < 126 else b"\xfe" + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def _read_ws_payload(reader: asyncio.StreamReader) -> bytes:
    """The payload of the next data frame from the server (unmasked, small)."""
    while True:
        b0, b1 = await reader.readexactly(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", await reader.readexactly(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", await reader.readexactly(8))
        mask = await reader.readexactly(4) if b1 & 0x80 else b""
        data = await reader.readexactly(min(n, 1 << 16))
        if mask:
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        opcode = b0 & 0x0F
        if opcode == 8:
            raise ConnectionError("the WebSocket was closed")
        if opcode in (0, 1, 2):
            return data
