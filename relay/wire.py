"""The few bytes of MQTT and WebSocket that a probe speaks by hand: one CONNECT, one upgrade, one frame each way.

A probe must tell within seconds what answers at an address, before a client library waits for its
own timeout; these are the pieces it sends and reads (:mod:`relay.probe`, :mod:`relay.schemes`).
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct

from relay.address import DEFAULT_WS_PATH, RelayAddress

#: A DISCONNECT: the polite end of a probe that got its answer.
DISCONNECT = b"\xe0\x00"


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


def is_connack(head: bytes) -> bool:
    """Whether the first four bytes of an answer are an MQTT 3.1.1 CONNACK (whatever its return code)."""
    return len(head) >= 4 and head[0] == 0x20 and head[1] == 0x02


def upgrade_request(address: RelayAddress) -> bytes:
    """The HTTP request that asks for an MQTT WebSocket at the address's path (``/mqtt`` when it names none)."""
    key = base64.b64encode(os.urandom(16)).decode()
    host = f"[{address.host}]" if ":" in address.host else address.host
    return (
        f"GET {address.path or DEFAULT_WS_PATH} HTTP/1.1\r\nHost: {host}:{address.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: mqtt\r\n\r\n"
    ).encode()


def ws_frame(payload: bytes) -> bytes:
    """One masked binary frame (clients must mask)."""
    mask = os.urandom(4)
    n = len(payload)
    head = b"\x82" + (bytes([0x80 | n]) if n < 126 else b"\xfe" + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def read_ws_payload(reader: asyncio.StreamReader) -> bytes:
    """The payload of the next data frame from the server (unmasked, small); ConnectionError on a close frame."""
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
