"""Broker fixtures: the embedded relay and the real Mosquitto, each in its own process on a free port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from relay_helpers import BrokerProcess, embedded, mosquitto


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
