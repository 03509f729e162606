"""The relays themselves: the embedded amqtt broker and the shipped Mosquitto configuration."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import aiomqtt
import pytest

from relay.broker.discovery import browse
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.probe import connect_packet
from tests.relay.helpers import ROOT, BrokerProcess, env, free_port, wait_port


async def collect(client: aiomqtt.Client, seconds: float) -> dict[str, bytes]:
    got: dict[str, bytes] = {}

    async def run() -> None:
        async for m in client.messages:
            got[m.topic.value] = bytes(m.payload)  # type: ignore[arg-type]

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(run(), seconds)
    return got


async def confined_and_retained(host: str, port: int, transport: str = "tcp") -> None:
    """Publishing outside sealed/v2/ is refused; retained messages inside are kept for later subscribers."""
    ident = "t-" + os.urandom(3).hex()
    async with aiomqtt.Client(host, port, identifier=ident, transport=transport) as c:
        await c.publish("sealed/v2/room/TEST/log/0", b"entry", qos=1, retain=True)
        await c.publish("elsewhere/x", b"nope", qos=1, retain=True)
    async with aiomqtt.Client(host, port, identifier=ident + "b", transport=transport) as c:
        await c.subscribe("sealed/v2/#", qos=1)
        await c.subscribe("elsewhere/#", qos=1)
        got = await collect(c, 0.8)
    assert got.get("sealed/v2/room/TEST/log/0") == b"entry"
    assert "elsewhere/x" not in got


@pytest.mark.timeout(30)
def test_embedded_relay_confines_topics_and_retains() -> None:
    async def main() -> None:
        async with EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, ws_port=0, advertise=False)) as r:
            await confined_and_retained("127.0.0.1", r.port)
            assert r.ws_port
            await confined_and_retained("127.0.0.1", r.ws_port, "websockets")
            assert r.retained_count() == 1

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_embedded_relay_closes_a_client_that_sends_too_much() -> None:
    async def main() -> None:
        async with EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False, max_payload=1000)) as r:
            async with aiomqtt.Client("127.0.0.1", r.port, identifier="watch") as watcher:
                await watcher.subscribe("sealed/v2/#", qos=1)
                with contextlib.suppress(aiomqtt.MqttError):  # the relay drops the sender
                    async with aiomqtt.Client("127.0.0.1", r.port, identifier="big", timeout=3) as c:
                        await c.publish("sealed/v2/room/TEST/log/1", b"x" * 5000, qos=1, retain=True)
                got = await collect(watcher, 0.8)
            assert "sealed/v2/room/TEST/log/1" not in got
            assert r.retained_count() == 0

    asyncio.run(main())


async def closed_by_relay(reader: asyncio.StreamReader) -> bool:
    """True once the relay has closed this connection (end of stream, or a reset)."""
    try:
        while await reader.read(1024):
            pass
    except ConnectionError:
        pass
    return True


@pytest.mark.timeout(30)
def test_a_client_that_connects_while_the_relay_stops_is_not_left_on_it() -> None:
    """A peer reconnecting at once may reach a relay that is stopping: it is refused or cut off,
    never kept in a session nobody ends (its keepalive answered, its entries going nowhere)."""

    async def main() -> None:
        r = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False))
        await r.start()
        assert r._broker is not None
        sessions_ended, go_on = asyncio.Event(), asyncio.Event()
        broadcast_end = r._broker._shutdown_broadcast_loop  # amqtt's shutdown: after the sessions, before the listeners

        async def held() -> None:
            sessions_ended.set()
            await go_on.wait()
            await broadcast_end()

        r._broker._shutdown_broadcast_loop = held  # type: ignore[method-assign]  # the moment to connect in
        stopping = asyncio.ensure_future(r.stop())
        await sessions_ended.wait()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", r.port)
        except ConnectionRefusedError:
            go_on.set()
            await stopping
            return  # not listening any more: nobody is left on it
        writer.write(connect_packet("late"))
        await writer.drain()
        go_on.set()
        await stopping
        assert await asyncio.wait_for(closed_by_relay(reader), 5)
        writer.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_connection_in_its_handshake_when_the_relay_stops_is_closed() -> None:
    async def main() -> None:
        r = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False))
        await r.start()
        reader, writer = await asyncio.open_connection("127.0.0.1", r.port)  # no CONNECT yet
        await asyncio.sleep(0.2)
        await r.stop()
        assert await asyncio.wait_for(closed_by_relay(reader), 5)
        writer.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_lan_discovery_finds_the_relay_on_loopback() -> None:
    async def main() -> None:
        cfg = RelayConfig(host="127.0.0.1", port=0, name="Test relay 42", zeroconf_interfaces=["127.0.0.1"])
        async with EmbeddedRelay(cfg) as r:
            found = await browse(1.5, interfaces=["127.0.0.1"])
        mine = [f for f in found if f.port == r.port]
        assert mine, found
        assert mine[0].host == "127.0.0.1" and mine[0].protocol == "1"
        assert mine[0].txt["sealed-table"] == "1" and mine[0].name.startswith("Test relay 42")

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_relay_cli_starts_and_stops_cleanly_on_sigint(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "relay.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "relay", "--host", "127.0.0.1", "--port", str(port), "--no-announce"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env(),
            cwd=ROOT,
        )
    try:
        wait_port(port)
        asyncio.run(confined_and_retained("127.0.0.1", port))
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text()
    assert f"listening on 127.0.0.1:{port}" in text
    assert "client connected" in text and "refused publish on 'elsewhere/x'" in text
    assert "relay stopped" in text and "Traceback" not in text


@pytest.mark.timeout(30)
def test_mosquitto_configuration_confines_and_keeps_games_across_restarts(mosquitto_relay: BrokerProcess) -> None:
    asyncio.run(confined_and_retained("127.0.0.1", mosquitto_relay.port))
    mosquitto_relay.stop(signal.SIGTERM)
    mosquitto_relay.start()

    async def after() -> None:
        async with aiomqtt.Client("127.0.0.1", mosquitto_relay.port, identifier="after") as c:
            await c.subscribe("sealed/v2/#", qos=1)
            got = await collect(c, 0.8)
        assert got.get("sealed/v2/room/TEST/log/0") == b"entry"

    asyncio.run(after())
