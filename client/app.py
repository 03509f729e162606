"""``run_app()``: the desktop program on Qt's event loop with asyncio through qasync.

One QApplication, one asyncio loop (qasync's ``QEventLoop``, which *is* Qt's
event loop), one main window.  Network coroutines started by the lobby run on
that loop between paint and input events, so the window never freezes.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from client import qtguard  # noqa: F401  (first: guards against a PySide6 crash on CPython 3.11)
from client.store.paths import adopt_earlier_folder

APP_NAME = "sealed-table"
ORG_NAME = "Sealed Table"


def make_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once), named so QStandardPaths finds our config directory."""
    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        QCoreApplication.setApplicationName(APP_NAME)
        QCoreApplication.setOrganizationName(ORG_NAME)
        app = QApplication(argv if argv is not None else sys.argv)
        app.setStyle("Fusion")
    return app  # type: ignore[return-value]  # instance() is typed QCoreApplication; ours is the QApplication above


def run_app(argv: list[str] | None = None, config: Path | None = None) -> int:
    """Open the main window and run until it is closed; the exit code."""
    import qasync

    from client.net.logs import quiet_relay_logs
    from client.screens.window.main import MainWindow

    if config is None:
        adopt_earlier_folder()
    quiet_relay_logs()
    app = make_application(argv)
    # A selector loop on every platform: paho-mqtt (under aiomqtt) waits on its socket with add_reader,
    # which Windows' default proactor loop (qasync's QEventLoop there) does not have.
    loop = qasync.QSelectorEventLoop(app)
    asyncio.set_event_loop(loop)
    closed = asyncio.Event()
    app.aboutToQuit.connect(closed.set)
    window = MainWindow(config=config)
    window.restore_geometry()
    if window.settings.window_maximized:
        window.showMaximized()
    else:
        window.show()
    # After a crash at a network table: offer to go back there, once the loop runs (a resume is network work).
    QTimer.singleShot(0, window.offer_resume)
    with loop:
        loop.run_until_complete(closed.wait())
    return 0
