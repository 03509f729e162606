"""Broker fixtures: the embedded relay and the real Mosquitto, each in its own process on a free port;
and a check that no relay test leaves asyncio residue behind."""

from __future__ import annotations

import gc
import logging
import os
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

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


#: What asyncio and amqtt report of work left behind: a task still pending when its loop went away
#: (and the coroutine it never started), a failure nobody retrieved, amqtt's broadcast loop torn down.
RESIDUE = (
    "Task was destroyed but it is pending",
    "Task exception was never retrieved",
    "Future exception was never retrieved",
    "Broadcast loop stopped by exception",
)


class _Residue(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if any(text.startswith(kind) for kind in RESIDUE):
            self.found.append(f"{record.name}: {text}")


@pytest.fixture(autouse=True)
def no_asyncio_residue() -> Iterator[None]:
    """Fail a test that leaves a task pending, a coroutine never awaited or an error never retrieved.

    Both are reported only when the garbage collector frees the object, so the check collects at the
    end of the test (and once before it, so that what an earlier test left is not blamed on this one).
    Only what runs in the test's own process is seen: peers and relays in child processes log theirs.
    """
    gc.collect()
    handler = _Residue()
    loggers = [logging.getLogger(name) for name in ("asyncio", "amqtt")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
            gc.collect()
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    never_awaited = [str(w.message) for w in caught if "was never awaited" in str(w.message)]
    for w in caught:
        if "was never awaited" not in str(w.message):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    if handler.found or never_awaited:
        pytest.fail("asyncio residue after the test:\n" + "\n".join(handler.found + never_awaited), pytrace=False)
