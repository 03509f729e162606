"""Broker fixtures: the embedded relay and the real Mosquitto, each in its own process on a free port;
and a check that no relay test leaves asyncio residue behind."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import asyncio_residue
from tests.relay.helpers import BrokerProcess, embedded, free_port, mosquitto

AEDES = Path(__file__).resolve().parent / "games" / "aedes"


@pytest.fixture
def embedded_relay(tmp_path: Path) -> Iterator[BrokerProcess]:
    broker = embedded(tmp_path).start()
    yield broker
    broker.stop()


@pytest.fixture
def mosquitto_relay(mosquitto_path: str, tmp_path: Path) -> Iterator[BrokerProcess]:
    broker = mosquitto(mosquitto_path, tmp_path).start()
    yield broker
    broker.stop()


@pytest.fixture(params=["embedded", "mosquitto"])
def any_relay(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BrokerProcess]:
    if request.param == "embedded":
        broker = embedded(tmp_path)
    else:
        broker = mosquitto(request.getfixturevalue("mosquitto_path"), tmp_path)
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def aedes_relay(tmp_path: Path) -> Iterator[BrokerProcess]:
    """Aedes (Node), a broker that is neither Mosquitto nor amqtt; scripts/test.sh installs it."""
    node = shutil.which("node")
    if node is None or not (AEDES / "node_modules" / "aedes").is_dir():
        if os.environ.get("CI"):
            pytest.fail("CI must have Aedes (scripts/test.sh installs it with npm into tests/relay/games/aedes)")
        pytest.skip("Aedes is not installed (npm ci --prefix tests/relay/games/aedes)")
    port = free_port()
    broker = BrokerProcess([node, str(AEDES / "server.mjs"), str(port)], port, tmp_path / "aedes.log", "aedes")
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture(autouse=True)
def no_asyncio_residue() -> Iterator[None]:
    """Fail a relay test that leaves asyncio residue behind (tests/asyncio_residue.py)."""
    with asyncio_residue.no_asyncio_residue():
        yield
