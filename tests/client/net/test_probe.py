"""The desktop program's probe of a relay: a relay that asks for a client certificate says so, in words."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.i18n import LANGUAGE
from client.net.address import parse_relay_address
from client.net.errors import NetError
from client.net.probe import probe_relay
from tests.relay.helpers import wait_port
from tests.relay.secure_relay import SecureRelay, client_certificate_mosquitto


@pytest.fixture
def asks_for_a_certificate(mosquitto_path: str, tmp_path: Path) -> Iterator[SecureRelay]:
    relay = client_certificate_mosquitto(mosquitto_path, tmp_path)
    relay.broker.start()
    wait_port(relay.tls_port)
    yield relay
    relay.broker.stop()


@pytest.mark.timeout(30)
def test_a_relay_that_asks_for_a_client_certificate_is_told_in_every_language(
    asks_for_a_certificate: SecureRelay,
) -> None:
    relay = asks_for_a_certificate
    address = parse_relay_address(f"mqtts://127.0.0.1:{relay.tls_port}").with_options(ca_file=str(relay.ca_file))
    with pytest.raises(NetError) as err:
        asyncio.run(probe_relay(address, timeout=3))
    assert err.value.code == "certificate-needed"
    said = {}
    for language in ("en", "pl", "ru"):
        LANGUAGE.set(language)
        said[language] = err.value.message()
        assert str(address) in said[language], said
    LANGUAGE.set("en")
    assert "client certificate" in said["en"] and len(set(said.values())) == 3, said
    assert relay.client_cert is not None and relay.client_key is not None
    mine = address.with_options(cert_file=str(relay.client_cert), key_file=str(relay.client_key))
    asyncio.run(probe_relay(mine, timeout=3))
