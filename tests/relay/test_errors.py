"""Bad input gets a clear message within seconds — never a hang, never a traceback.

pytest-timeout bounds every test here, so a hang fails instead of waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from relay.address import RelayAddress
from relay.errors import NotARelay, RelayError, RelayUnreachable, RoomFull, RoomNotFound
from relay.lobby.host import RoomHost
from relay.lobby.invitation import new_code, normalize_code
from relay.lobby.join import join_room, peek_room
from relay.lobby.listing import list_rooms
from relay.probe import parse_address
from relay.transport.room import check_relay
from tests.relay.helpers import ROOT, BrokerProcess, env, free_port
from tests.relay.lobby.people import Person


async def _server(handler) -> tuple[asyncio.AbstractServer, int]:  # type: ignore[no-untyped-def]
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


@pytest.mark.timeout(15)
def test_wrong_port_is_refused_clearly() -> None:
    port = free_port()  # nothing listens there
    with pytest.raises(RelayUnreachable, match=f"refused the connection.*port {port}"):
        asyncio.run(check_relay(f"127.0.0.1:{port}"))


@pytest.mark.timeout(15)
def test_an_http_server_is_not_a_relay() -> None:
    async def main() -> None:
        async def http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read(100)
            writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            writer.close()

        server, port = await _server(http)
        async with server:
            with pytest.raises(NotARelay, match="not an MQTT broker"):
                await check_relay(f"127.0.0.1:{port}")

    asyncio.run(main())


@pytest.mark.timeout(15)
def test_a_silent_server_is_not_a_relay() -> None:
    async def main() -> None:
        async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                await reader.read()

        server, port = await _server(silent)
        async with server:
            with pytest.raises(NotARelay, match="did not answer as an MQTT broker"):
                await check_relay(f"127.0.0.1:{port}", timeout=1.0)

    asyncio.run(main())


def test_addresses_and_codes_are_checked() -> None:
    assert parse_address("relay.example.org") == RelayAddress("relay.example.org", 1883)
    assert parse_address("10.0.0.2:1884") == RelayAddress("10.0.0.2", 1884)
    assert parse_address("[::1]:1885") == RelayAddress("::1", 1885)
    with pytest.raises(RelayError, match="not a port"):
        parse_address("host:http")
    with pytest.raises(RelayError, match="not a port"):
        parse_address("host:70000")
    code = new_code()
    assert normalize_code(code.lower()[:3] + "-" + code[3:]) == code
    with pytest.raises(RoomNotFound, match="not a room code"):
        normalize_code("HELLO0")


@pytest.mark.timeout(20)
def test_unknown_room_and_full_room(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address

    async def main() -> None:
        with pytest.raises(RoomNotFound, match="there is no room"):
            await join_room(address, new_code(), **Person("Nobody").join_args())
        h, joiner, late = Person("Host"), Person("Joiner"), Person("Late", "latecomer")
        host = RoomHost(address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(15))
        while True:  # the room is listed once the host has published its card
            rooms = await list_rooms(address, 2)
            if any(r.is_room(host.code) for r in rooms):
                break
        seated = await join_room(address, host.code, **joiner.join_args())
        assert seated.seat == 1 and seated.lobby.game == "system-launch"
        assert await gathering == [h.card, joiner.card]
        # Who has the invitation (the host's fingerprint) reads the sealed room: it is full.
        with pytest.raises(RoomFull, match="is full"):
            await join_room(address, host.code, **late.join_args(), host_key=host.fingerprint)
        # A seat holder asking again (a restarted peer, which pinned the host) gets its seat back.
        assert (await join_room(address, host.code, **joiner.join_args(), host_key=seated.host_key)).seat == 1
        # With the code only, a full room is nowhere: it left the listing, and the room itself is sealed.
        with pytest.raises(RoomNotFound, match=r"there is no room .* listed"):
            await join_room(address, host.code, **late.join_args())
        assert not any(r.is_room(host.code) for r in await list_rooms(address, 2))  # full rooms are not listed
        await host.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_restarted_host_keeps_its_room_and_seats(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address

    async def main() -> None:
        h, early, late, intruder = Person("Host"), Person("Early"), Person("Late"), Person("X", "intruder")
        first = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(first.gather(15))
        while not any(r.is_room(first.code) for r in await list_rooms(address, 2)):
            pass
        assert (await join_room(address, first.code, **early.join_args())).seat == 1
        gathering.cancel()  # the host is killed before the room is full
        with contextlib.suppress(asyncio.CancelledError):
            await gathering
        again = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key, code=first.code)
        gathering = asyncio.create_task(again.gather(15))
        assert (await join_room(address, first.code, **late.join_args())).seat == 2
        assert await gathering == [h.card, early.card, late.card]
        # Another host under the same code opens a room of its own: sealed under its key, it is
        # another room on the relay, and the first one's guests never see it.
        squatter = RoomHost(
            address, "system-launch", 3, "intruder", "X", intruder.card, key=intruder.key, code=first.code
        )
        squatting = asyncio.create_task(squatter.gather(15))
        await asyncio.wait_for(squatter.opened.wait(), 10)
        assert (await peek_room(address, first.code, again.fingerprint)).host_key == h.key.public_bytes()
        squatting.cancel()
        await asyncio.gather(squatting, return_exceptions=True)
        await squatter.close()
        await again.close()

    asyncio.run(main())


def run_cli(args: list[str], timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env(), cwd=ROOT)


@pytest.mark.timeout(30)
def test_headless_wrong_port_and_unknown_room_are_messages_not_tracebacks(
    embedded_relay: BrokerProcess, tmp_path: Path
) -> None:
    port = free_port()
    done = run_cli(
        [
            "-m",
            "client.headless",
            "--relay",
            f"127.0.0.1:{port}",
            "--join",
            "ACDEFG",
            "--state-dir",
            str(tmp_path / "a"),
        ]
    )
    assert done.returncode == 2
    assert "error: relay 127.0.0.1:" in done.stderr and "Traceback" not in done.stderr + done.stdout
    done = run_cli(
        [
            "-m",
            "client.headless",
            "--relay",
            embedded_relay.address,
            "--join",
            "ACDEFG",
            "--state-dir",
            str(tmp_path / "b"),
        ]
    )
    assert done.returncode == 2
    assert "error: there is no room ACDEFG" in done.stderr and "Traceback" not in done.stderr + done.stdout


@pytest.mark.timeout(30)
def test_relay_cli_reports_a_busy_port(embedded_relay: BrokerProcess) -> None:
    done = run_cli(["-m", "relay", "--host", "127.0.0.1", "--port", str(embedded_relay.port), "--no-announce"])
    assert done.returncode == 1
    assert "cannot start the relay" in done.stderr and "Traceback" not in done.stderr
