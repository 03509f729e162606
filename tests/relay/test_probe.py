"""Mixed-up schemes get the hint that fits: which of plain MQTT, TLS, WebSocket or secure WebSocket answers there.

Real servers on local ports: a Mosquitto with all four listeners (the shipped configuration, with the test's
own CA), one whose TLS listeners ask for a client certificate, and listeners that are no MQTT broker: a web
server (plain and over TLS) and a WebSocket server that only echoes.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import websockets

from relay.address import parse_address
from relay.errors import NotARelay, NotAWebSocket, RelayError, WrongTransport
from relay.probe import probe
from tests.relay.helpers import wait_port
from tests.relay.secure_relay import (
    PASSWORD,
    USER,
    SecureRelay,
    client_certificate_mosquitto,
    make_ca,
    make_server_cert,
    secure_mosquitto,
)


@pytest.fixture
def secure(mosquitto_path: str, tmp_path: Path) -> Iterator[SecureRelay]:
    relay = secure_mosquitto(mosquitto_path, tmp_path)
    relay.broker.start()
    for port in (relay.tls_port, relay.ws_port, relay.wss_port):
        wait_port(port)
    yield relay
    relay.broker.stop()


async def _failure(address: str, ca_file: Path | None = None, **options: str) -> RelayError:
    try:
        await probe(parse_address(address, ca_file=str(ca_file) if ca_file else None, **options), timeout=3)
    except RelayError as exc:
        assert PASSWORD not in str(exc)
        return exc
    raise AssertionError(f"{address} passed the probe")


@pytest.mark.timeout(60)
def test_each_scheme_at_another_schemes_port_is_told_the_one_that_answers(secure: SecureRelay) -> None:
    login = f"{USER}:{PASSWORD}@127.0.0.1"
    ports = {"mqtt": secure.broker.port, "mqtts": secure.tls_port, "ws": secure.ws_port, "wss": secure.wss_port}
    hint = {
        "mqtt": "use mqtt://127.0.0.1:{port}",
        "mqtts": "use mqtts://127.0.0.1:{port}",
        "ws": "use ws://127.0.0.1:{port}/mqtt",
        "wss": "use wss://127.0.0.1:{port}/mqtt",
    }

    async def main() -> None:
        for scheme, port in ports.items():  # each answers as itself
            await probe(parse_address(f"{scheme}://{login}:{port}", ca_file=str(secure.ca_file)), 3)
        for asked in ports:
            for there, port in ports.items():
                if asked == there:
                    continue
                exc = await _failure(f"{asked}://{login}:{port}", secure.ca_file)
                said = f"{asked}:// to the {there} port: {exc}"
                assert isinstance(exc, WrongTransport), said
                assert hint[there].format(port=port) in str(exc), said
                for other in ports:
                    assert other == there or f"use {other}://" not in str(exc), said

    asyncio.run(main())


async def _http_answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A web server's answer to whatever comes: 404."""
    try:
        await reader.read(200)
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


@asynccontextmanager
async def _web_server(context: ssl.SSLContext | None = None) -> AsyncIterator[int]:
    server = await asyncio.start_server(_http_answer, "127.0.0.1", 0, ssl=context)
    async with server:
        yield int(server.sockets[0].getsockname()[1])


@asynccontextmanager
async def _echo_websocket() -> AsyncIterator[int]:
    async def echo(connection: websockets.ServerConnection) -> None:
        async for message in connection:
            await connection.send(message)

    async with websockets.serve(echo, "127.0.0.1", 0) as server:
        yield int(next(iter(server.sockets)).getsockname()[1])


def _server_context(tmp_path: Path) -> tuple[ssl.SSLContext, Path]:
    ca_key, ca_cert, ca_file = make_ca(tmp_path, "web-ca")
    cert, key = make_server_cert(tmp_path, ca_key, ca_cert)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context, ca_file


@pytest.mark.timeout(60)
def test_web_and_websocket_servers_are_not_taken_for_a_relay_of_another_scheme(tmp_path: Path) -> None:
    context, ca_file = _server_context(tmp_path)

    async def main() -> None:
        async with _web_server() as web, _web_server(context) as tls_web, _echo_websocket() as echo:
            plain = await _failure(f"mqtt://127.0.0.1:{web}")
            assert type(plain) is NotARelay and "a web server" in str(plain) and "use " not in str(plain), plain
            over_tls = await _failure(f"mqtts://127.0.0.1:{tls_web}", ca_file)
            assert type(over_tls) is NotARelay and "a web server" in str(over_tls), over_tls
            assert "use " not in str(over_tls), over_tls
            ws = await _failure(f"ws://127.0.0.1:{web}/mqtt")
            assert type(ws) is NotAWebSocket and "a web server" in str(ws), ws
            wss = await _failure(f"wss://127.0.0.1:{tls_web}/mqtt", ca_file)
            assert type(wss) is NotAWebSocket and "a web server" in str(wss), wss
            to_echo = await _failure(f"mqtt://127.0.0.1:{echo}")
            assert type(to_echo) is NotARelay and "use " not in str(to_echo), to_echo
            echoed = await _failure(f"ws://127.0.0.1:{echo}/mqtt")
            assert type(echoed) is NotARelay and "a WebSocket server" in str(echoed), echoed
            assert "not an MQTT broker" in str(echoed), echoed

    asyncio.run(main())


@pytest.fixture
def asks_for_a_certificate(mosquitto_path: str, tmp_path: Path) -> Iterator[SecureRelay]:
    relay = client_certificate_mosquitto(mosquitto_path, tmp_path)
    relay.broker.start()
    for port in (relay.tls_port, relay.wss_port):
        wait_port(port)
    yield relay
    relay.broker.stop()


@pytest.mark.timeout(60)
def test_a_relay_that_asks_for_a_client_certificate_says_so(asks_for_a_certificate: SecureRelay) -> None:
    from relay.errors import CertificateNeeded

    relay = asks_for_a_certificate
    assert relay.client_cert is not None and relay.client_key is not None
    mine = {"cert_file": str(relay.client_cert), "key_file": str(relay.client_key)}

    async def main() -> None:
        for address in (f"mqtts://127.0.0.1:{relay.tls_port}", f"wss://127.0.0.1:{relay.wss_port}/mqtt"):
            needed = await _failure(address, relay.ca_file)
            assert type(needed) is CertificateNeeded, f"{address}: {needed!r}"
            assert "asks for a client certificate" in str(needed), needed
            await probe(parse_address(address, ca_file=str(relay.ca_file), **mine), 3)

    asyncio.run(main())
