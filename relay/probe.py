"""Check, within a few seconds, that an address is an MQTT broker — before a client trusts it.

aiomqtt's own errors for a wrong port or a web server on the MQTT port are either slow
(a connect that waits for its timeout) or cryptic.  A probe that sends one MQTT 3.1.1
CONNECT and expects a CONNACK tells the three cases apart with a clear message.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import struct

from .errors import NotARelay, RelayError, RelayUnreachable

DEFAULT_PORT = 1883


def parse_address(text: str) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` → (host, port)."""
    text = text.strip()
    if text.startswith("mqtt://"):
        text = text[len("mqtt://") :]
    if not text:
        raise RelayError("no relay address given")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.lstrip(":")
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, ""
    if not port_text:
        return host, DEFAULT_PORT
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise RelayError(f"{port_text!r} is not a port number (1-65535) in relay address {text!r}")
    return host, int(port_text)


def _connect_packet(client_id: str) -> bytes:
    cid = client_id.encode()
    variable = b"\x00\x04MQTT" + bytes([4, 0x02]) + struct.pack("!H", 10)  # 3.1.1, clean session, keepalive 10 s
    payload = struct.pack("!H", len(cid)) + cid
    body = variable + payload
    return bytes([0x10, len(body)]) + body


async def probe(host: str, port: int, timeout: float = 4.0) -> None:
    """Return if ``host:port`` answers an MQTT CONNECT with a CONNACK; raise a clear :class:`RelayError` if not."""
    where = f"{host}:{port}"
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except TimeoutError:
        raise RelayUnreachable(
            f"no answer from relay {where} within {timeout:g} s (wrong address, or a firewall)"
        ) from None
    except socket.gaierror:
        raise RelayUnreachable(f"relay address {host!r} cannot be found (check the spelling)") from None
    except ConnectionRefusedError:
        raise RelayUnreachable(f"relay {where} refused the connection (nothing listens on port {port})") from None
    except OSError as exc:
        raise RelayUnreachable(f"cannot reach relay {where}: {exc.strerror or exc}") from None
    try:
        writer.write(_connect_packet("st-probe-" + os.urandom(4).hex()))
        await writer.drain()
        try:
            head = await asyncio.wait_for(reader.readexactly(4), timeout)
        except TimeoutError:
            raise NotARelay(f"{where} accepted a connection but did not answer as an MQTT broker") from None
        except (asyncio.IncompleteReadError, ConnectionError):
            raise NotARelay(f"{where} closed the connection: it is not an MQTT broker") from None
        if head[0] != 0x20 or head[1] != 0x02:
            raise NotARelay(f"{where} is not an MQTT broker (it answered {head!r})")
        if head[3] != 0:
            raise RelayError(f"relay {where} refused us (MQTT return code {head[3]}: it may need a login)")
        writer.write(b"\xe0\x00")  # DISCONNECT
        with contextlib.suppress(OSError):
            await writer.drain()
    except OSError as exc:
        raise NotARelay(f"{where} broke the connection ({exc.strerror or exc}): it is not an MQTT broker") from None
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
