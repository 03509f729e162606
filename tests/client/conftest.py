"""Fixtures for the desktop program's tests: a private config dir, a qasync loop, a window; and a check
that no test leaves asyncio residue behind."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import qtguard  # noqa: F401  (before any Qt call: see client/qtguard.py)
from client.i18n import LANGUAGE
from tests import asyncio_residue


@pytest.fixture(autouse=True)
def no_asyncio_residue() -> Iterator[None]:
    """Fail a test that leaves asyncio residue behind (tests/asyncio_residue.py), its loop's teardown included."""
    with asyncio_residue.no_asyncio_residue():
        yield


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Settings go to a temporary directory, and every test starts in English."""
    config = tmp_path / "config"
    monkeypatch.setenv("SEALED_TABLE_CONFIG_DIR", str(config))
    LANGUAGE.set("en")
    yield config
    LANGUAGE.set("en")


@pytest.fixture
def qloop(qapp):  # type: ignore[no-untyped-def]
    """qasync's asyncio loop on the test's QApplication, as the program runs it."""
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    executor = qasync.QThreadExecutor(2)  # name lookups run here; joined at the end of the test
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    yield loop
    executor.shutdown(wait=True)
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)


@pytest.fixture
def window(qtbot, private_config: Path):  # type: ignore[no-untyped-def]
    """The main window with instant bots and its own config directory."""
    from client.screens.main_window import MainWindow
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
    stop_relay(qtbot, qloop, embedded)


def _closing_without_asking(win):  # type: ignore[no-untyped-def]
    """The test is over: its window closes without asking about a game still running."""
    win.ask_before_abandoning = False
