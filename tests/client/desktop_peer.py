"""The desktop program as a real process for the resume tests: its real window, driven through its widgets.

    python -m tests.client.desktop_peer --config DIR --name NAME --join LINK   # join by invitation, play
    python -m tests.client.desktop_peer --config DIR --name NAME               # start as the program does

It starts like ``client.app.run_app`` (one QApplication, qasync's loop, the main window, and the
offer to go back to a game after a crash, answered "yes" and printed as ``offered: TEXT``), then
plays its seat by clicking the table's buttons.  It prints ``decision N`` after each of its
decisions, and at the end ``gone [...]``, ``verdict fair|...`` and ``over``.  A test kills it with
SIGKILL mid-game (no cleanup of any kind) and starts it again with the same ``--config``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from client import qtguard  # noqa: F401  (first: see client/qtguard.py)


class _Clicks:
    """The one thing ``tests.client.drive.click_action`` asks of pytest-qt's qtbot: a mouse click."""

    @staticmethod
    def mouseClick(widget, button):  # type: ignore[no-untyped-def]
        from PySide6.QtTest import QTest

        QTest.mouseClick(widget, button)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--name", default="Desk")
    parser.add_argument("--join", default="")
    args = parser.parse_args()
    os.environ["SEALED_TABLE_CONFIG_DIR"] = str(args.config)

    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    from client.app import make_application
    from client.screens.window.main import MainWindow
    from client.store.settings import load
    from tests.client.drive import click_action, preferred

    def say(text: str) -> None:
        print(text, flush=True)

    def yes(parent, title, text, *a, **k):  # type: ignore[no-untyped-def]
        say("offered: " + text.replace("\n", " "))
        return QMessageBox.StandardButton.Yes

    QMessageBox.question = yes  # type: ignore[method-assign]
    app = make_application([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    settings = load(args.config)
    settings.name, settings.bot_delay_ms = args.name, 0
    window = MainWindow(settings=settings, config=args.config)
    window.show()
    if args.join:
        window.lobby.online.room.setText(args.join)
        window.lobby.online.join.click()
    QTimer.singleShot(0, window.offer_resume)
    done = asyncio.Event()
    decisions = [0]

    def tick() -> None:
        game, screen = window.game, window.game_screen
        if game is None or screen is None:
            return
        if game.over() is not None and game.verdict is not None and game.saved.finished:  # delivered, kept
            say(f"gone {sorted(game.gone)}")
            say(f"verdict {'fair' if game.verdict.fair else game.verdict}")
            say(f"state {game.state.hash().hex()}")
            say("over")
            timer.stop()
            done.set()
        elif game.human_to_move():
            click_action(_Clicks, screen, preferred(game.legal(), decisions[0]))
            decisions[0] += 1
            say(f"decision {decisions[0]}")

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(20)
    with loop:
        loop.run_until_complete(asyncio.wait_for(done.wait(), 120))
    return 0


if __name__ == "__main__":
    sys.exit(main())
