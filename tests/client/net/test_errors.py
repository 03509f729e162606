"""Relay errors reach the player as sentences, within seconds, without freezing the window."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from client.net.address import RelayAddress, parse_relay_address, parse_room_code
from client.net.errors import NetError
from client.net.joining import join_online
from client.net.probe import probe_relay
from relay.lobby.invitation import fingerprint


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    ("text", "host", "port"),
    [
        ("relay.example.org", "relay.example.org", 1883),
        ("relay.example.org:8883", "relay.example.org", 8883),
        ("mqtt://10.0.0.5:1884/", "10.0.0.5", 1884),
        ("[::1]:1885", "::1", 1885),
        ("  localhost  ", "localhost", 1883),
    ],
)
def test_relay_addresses_parse(text, host, port):
    assert parse_relay_address(text) == RelayAddress(host, port)


@pytest.mark.parametrize("text", ["", "host:port", "host:0", "host:70000", "a b:1883", "[::1", "x/y:1"])
def test_bad_relay_addresses_are_refused_in_words(text):
    with pytest.raises(NetError) as err:
        parse_relay_address(text)
    assert err.value.code == "bad-address"
    assert "host:port" in err.value.message()


def test_room_codes():
    assert parse_room_code(" kxprta ") == "KXPRTA"
    for bad in ("", "AB", "TOO-LONG-CODE-X", "ÄBCDEF"):
        with pytest.raises(NetError):
            parse_room_code(bad)


def test_probe_of_a_closed_port_says_unreachable():
    port = closed_port()
    with pytest.raises(NetError) as err:
        asyncio.run(probe_relay(RelayAddress("127.0.0.1", port), timeout=3))
    assert err.value.code == "unreachable"
    assert f"127.0.0.1:{port}" in err.value.message()


async def _not_mqtt_server() -> tuple[asyncio.AbstractServer, int]:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(64)
        writer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_probe_of_something_else_says_not_a_relay():
    async def run() -> NetError:
        server, port = await _not_mqtt_server()
        async with server:
            try:
                await probe_relay(RelayAddress("127.0.0.1", port), timeout=3)
            except NetError as exc:
                return exc
        raise AssertionError("a web server passed for a relay")

    assert asyncio.run(run()).code == "not-a-relay"


def test_wrong_relay_address_shows_its_message_in_the_lobby(qtbot, window, qloop):
    lobby = window.lobby
    port = closed_port()
    lobby.online.relay.setCurrentText(f"127.0.0.1:{port}")
    lobby.online.room.setText("KXPRTA")
    qtbot.mouseClick(lobby.online.join, Qt.MouseButton.LeftButton)
    expected = NetError("unreachable", address=f"127.0.0.1:{port}").message()
    qtbot.waitUntil(lambda: lobby.online.status.text() == expected, timeout=8_000)
    assert lobby.online.status.property("error") == "true"
    # The window stayed usable meanwhile, and the failed relay is not remembered.
    assert window.settings.relays == []

    lobby.online.relay.setCurrentText("no such:address")
    qtbot.mouseClick(lobby.online.join, Qt.MouseButton.LeftButton)
    assert lobby.online.status.text() == NetError("bad-address", address="no such:address").message()


def test_not_a_relay_shows_its_message_in_the_lobby(qtbot, window, qloop):
    lobby = window.lobby
    holder: dict[str, object] = {}

    async def start() -> None:
        holder["server"], holder["port"] = await _not_mqtt_server()

    task = qloop.create_task(start())
    qtbot.waitUntil(task.done, timeout=5_000)
    lobby.online.relay.setCurrentText(f"127.0.0.1:{holder['port']}")
    lobby.online.room.setText("ABCDEF")
    qtbot.mouseClick(lobby.online.join, Qt.MouseButton.LeftButton)
    expected = NetError("not-a-relay", address=f"127.0.0.1:{holder['port']}").message()
    qtbot.waitUntil(lambda: lobby.online.status.text() == expected, timeout=8_000)
    holder["server"].close()  # type: ignore[attr-defined]


def test_a_real_broker_passes_the_probe(mosquitto_path: str, tmp_path: Path):
    port = closed_port()
    conf = tmp_path / "m.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n")
    proc = subprocess.Popen([mosquitto_path, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 5
        while True:
            try:
                asyncio.run(probe_relay(RelayAddress("127.0.0.1", port), timeout=2))
                break
            except NetError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        # Joining goes further than the probe: the room must exist.  A code alone finds only a listed room.
        with pytest.raises(NetError) as err:
            asyncio.run(join_online(f"127.0.0.1:{port}", "KXPRTA", "Tester", identity_dir=tmp_path))
        assert err.value.code == "room-not-listed"
        assert "KXPRTA" in err.value.message() and "invitation" in err.value.message()
        with pytest.raises(NetError) as err:  # with its host key, the room is looked for where it would be
            fp = fingerprint(bytes(32))
            asyncio.run(join_online(f"127.0.0.1:{port}", "KXPRTA", "Tester", identity_dir=tmp_path, fingerprint=fp))
        assert err.value.code == "room-unknown"
        assert "KXPRTA" in err.value.message()
    finally:
        proc.terminate()
        proc.wait(5)
