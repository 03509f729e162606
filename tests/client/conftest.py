"""Fixtures for the desktop program's tests: a private config dir, a qasync loop, a window; and a check
that no test leaves asyncio residue behind."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import qtguard  # noqa: F401  (before any Qt call: see client/qtguard.py)
from client.i18n import LANGUAGE
from relay.public import ENV_OVERRIDE as PUBLIC_RELAYS_ENV
from tests import asyncio_residue
from tests.relay.helpers import BrokerProcess, embedded, mosquitto


@pytest.fixture(autouse=True)
def no_asyncio_residue() -> Iterator[None]:
    """Fail a test that leaves asyncio residue behind (tests/asyncio_residue.py), its loop's teardown included."""
    with asyncio_residue.no_asyncio_residue():
        yield


@pytest.fixture(params=["embedded", "mosquitto"])
def any_broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BrokerProcess]:
    """A real relay in its own process: the embedded one, then Mosquitto."""
    relay = new_broker(request, request.param, tmp_path / "relay")
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def mosquitto_broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BrokerProcess]:
    """A real Mosquitto in its own process, with the shipped configuration."""
    relay = new_broker(request, "mosquitto", tmp_path / "relay")
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def another_broker(
    request: pytest.FixtureRequest, any_broker: BrokerProcess, tmp_path: Path
) -> Iterator[BrokerProcess]:
    """A second, empty relay of the same kind as ``any_broker`` (not started: the test starts it)."""
    relay = new_broker(request, any_broker.kind, tmp_path / "relay2")
    yield relay
    relay.stop()


def new_broker(request: pytest.FixtureRequest, kind: str, folder: Path) -> BrokerProcess:
    """A broker of ``kind`` ("embedded" or "mosquitto") with its files in ``folder``, not started yet."""
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "embedded":
        return embedded(folder)
    return mosquitto(request.getfixturevalue("mosquitto_path"), folder)


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Settings go to a temporary directory, every test starts in English, and the public relays the
    internet section offers are a closed local port (a test never reaches a public broker)."""
    config = tmp_path / "config"
    monkeypatch.setenv("SEALED_TABLE_CONFIG_DIR", str(config))
    monkeypatch.setenv(PUBLIC_RELAYS_ENV, "mqtts://127.0.0.1:9")
    LANGUAGE.set("en")
    yield config
    LANGUAGE.set("en")


#: How long the work a test's closed windows ended (cancelled tasks, a connection saying goodbye) may take.
WIND_DOWN_MS = 5_000


@pytest.fixture
def qloop(qapp, qtbot):  # type: ignore[no-untyped-def]
    """qasync's asyncio loop on the test's QApplication, as the program runs it.

    The loop is not closed (Qt runs it), so nothing ends what a test leaves on it as ``asyncio.run``
    does: a task still pending would run on inside the next test's waits.  So at the end (the test's
    windows are closed by then, and have cancelled their work) the loop runs until every task on it
    has ended; one that does not is asyncio residue, reported and then cancelled.
    """
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    executor = qasync.QThreadExecutor(2)  # name lookups run here; joined at the end of the test
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    yield loop
    left = _left_running(qtbot, loop)
    executor.shutdown(wait=True)
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)
    if left:
        pytest.fail("asyncio residue after the test: tasks still running\n" + "\n".join(left), pytrace=False)


def _running(loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks(loop) if not t.done()]


def _the_relays(task: asyncio.Task[object]) -> bool:
    """A task of the embedded relay itself (amqtt's, or relay.broker's): it runs until the relay stops."""
    code = getattr(task.get_coro(), "cr_code", None)
    where = code.co_filename if code is not None else ""
    return f"{os.sep}amqtt{os.sep}" in where or f"{os.sep}relay{os.sep}broker{os.sep}" in where


def _wait_until(qtbot, done) -> None:  # type: ignore[no-untyped-def]
    """Run the loop until ``done()``, for :data:`WIND_DOWN_MS` at most."""
    with contextlib.suppress(qtbot.TimeoutError):
        qtbot.waitUntil(done, timeout=WIND_DOWN_MS)


def _left_running(qtbot, loop: asyncio.AbstractEventLoop) -> list[str]:  # type: ignore[no-untyped-def]
    """The tasks still running on ``loop`` once it had :data:`WIND_DOWN_MS` to end them (then cancelled)."""
    _wait_until(qtbot, lambda: not _running(loop))
    left = _running(loop)
    names = [repr(t) for t in left]
    for task in left:
        task.cancel()
    _wait_until(qtbot, lambda: all(t.done() for t in left))
    return names


@pytest.fixture
def window(qtbot, private_config: Path):  # type: ignore[no-untyped-def]
    """The main window with instant bots and its own config directory."""
    from client.screens.window.main import MainWindow
    from client.store.settings import Settings

    win = MainWindow(settings=Settings(name="Tester", bot_delay_ms=0, players=3), config=private_config)
    qtbot.addWidget(win, before_close_func=_closing_without_asking)
    win.resize(1280, 820)
    win.show()
    yield win
    if win.game_screen is not None:
        win.game_screen.timer.stop()


@pytest.fixture
def relay(qtbot, qloop):  # type: ignore[no-untyped-def]
    from tests.client.drive import start_relay, stop_relay

    embedded = start_relay(qtbot, qloop)
    yield embedded
    # What the closed windows still say to the relay (a room closing, a last publish) is said first.
    _wait_until(qtbot, lambda: not [t for t in _running(qloop) if not _the_relays(t)])
    stop_relay(qtbot, qloop, embedded)


def _closing_without_asking(win):  # type: ignore[no-untyped-def]
    """The test is over: its window closes without asking about a game still running."""
    win.ask_before_abandoning = False
