"""Relays people actually run: Mosquitto behind TLS, over WebSocket, with logins — games and clear failures."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from relay.address import parse_address
from relay.errors import LoginNeeded, NotTrusted, WrongLogin, WrongTransport
from relay.probe import probe
from tests.relay.helpers import finished_fair, start_table, wait_port
from tests.relay.secure_relay import PASSWORD, USER, SecureRelay, secure_mosquitto


@pytest.fixture
def secure(mosquitto_path: str, tmp_path: Path) -> Iterator[SecureRelay]:
    relay = secure_mosquitto(mosquitto_path, tmp_path)
    relay.broker.start()
    wait_port(relay.tls_port)
    wait_port(relay.ws_port)
    yield relay
    relay.broker.stop()


@pytest.mark.timeout(120)
def test_a_game_over_tls_websocket_and_login(secure: SecureRelay, tmp_path: Path) -> None:
    """Three headless peers, one per listener: TLS (own CA), WebSocket, plain MQTT with a password file."""
    password_file = tmp_path / "password"
    password_file.write_text(PASSWORD + "\n")
    table = start_table(
        f"mqtts://{USER}:{PASSWORD}@localhost:{secure.tls_port}",
        tmp_path,
        players=3,
        extra_for={0: ["--ca-file", str(secure.ca_file)], 2: ["--password-file", str(password_file)]},
        relay_for={1: secure.ws, 2: f"mqtt://{USER}@127.0.0.1:{secure.broker.port}"},
    )
    try:
        codes = table.wait(90)
    finally:
        table.kill_all()
    finished_fair(table, codes)
    for peer in table.peers:  # the password is never printed
        assert PASSWORD not in peer.text()
    assert PASSWORD not in secure.broker.log.read_text(errors="replace")


@pytest.mark.timeout(30)
def test_each_failure_has_its_sentence(secure: SecureRelay) -> None:
    port, tls, ws = secure.broker.port, secure.tls_port, secure.ws_port

    async def failure(address: str, **options: str) -> Exception:
        try:
            await probe(parse_address(address, **options), timeout=3)
        except Exception as exc:
            assert PASSWORD not in str(exc)
            return exc
        raise AssertionError(f"{address} passed the probe")

    async def main() -> None:
        await probe(parse_address(secure.tls, ca_file=str(secure.ca_file)), 3)
        await probe(secure.ws, 3)
        await probe(secure.plain, 3)
        wrong_ca = await failure(secure.tls, ca_file=str(secure.wrong_ca_file))
        assert (
            isinstance(wrong_ca, NotTrusted) and "the certificate" in str(wrong_ca) and "not trusted" in str(wrong_ca)
        )
        system_store = await failure(secure.tls)  # our own CA is not in the system's trust store
        assert isinstance(system_store, NotTrusted)
        wrong = await failure(f"mqtt://{USER}:wrong-password@127.0.0.1:{port}")
        assert isinstance(wrong, WrongLogin) and "wrong password" in str(wrong)
        anonymous = await failure(f"127.0.0.1:{port}")
        assert isinstance(anonymous, LoginNeeded) and "needs a login" in str(anonymous)
        ws_anonymous = await failure(f"ws://127.0.0.1:{ws}")
        assert isinstance(ws_anonymous, LoginNeeded)
        plain_to_tls = await failure(f"mqtt://{USER}:{PASSWORD}@127.0.0.1:{tls}")
        assert isinstance(plain_to_tls, WrongTransport) and f"use mqtts://127.0.0.1:{tls}" in str(plain_to_tls)
        tls_to_plain = await failure(f"mqtts://{USER}:{PASSWORD}@127.0.0.1:{port}", ca_file=str(secure.ca_file))
        assert isinstance(tls_to_plain, WrongTransport) and "does not speak TLS" in str(tls_to_plain)

    asyncio.run(main())
