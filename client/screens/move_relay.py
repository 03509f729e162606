"""The menu action "Move this game to another relay…": point a running network game at another relay.

Why a person would: the relay is about to go down, or the table agreed on a better one.  The
game keeps everything: this seat puts every entry it holds on the new relay (the transport
re-publishes the log it holds after each connection), and the others follow when they are given
the same address, or by themselves once their relay is unreachable and it is one of the room's
fallbacks (:mod:`relay.transport.failover`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMenu, QMessageBox, QWidget

from client.i18n import tr
from client.net.errors import NetError
from client.net.game import NetGame

#: A test's stand-in for the address dialog: the text typed and whether OK was pressed.
Ask = Callable[[], tuple[str, bool]]


class Window(Protocol):
    """What the action needs of the window it sits in."""

    def network_game(self) -> NetGame | None: ...

    def show_message(self, title: str, text: str) -> QMessageBox: ...

    def window(self) -> QWidget: ...


def install(window: Window, menu: QMenu) -> QAction:
    """Add the action to the window's game menu (enabled only while a network game is being played)."""
    action = QAction(window.window())
    action.triggered.connect(lambda: ask_and_move(window))
    menu.addAction(action)
    menu.aboutToShow.connect(lambda: action.setEnabled(movable(window) is not None))
    retranslate(action)
    return action


def retranslate(action: QAction) -> None:
    action.setText(tr("menu.move_relay"))


def movable(window: Window) -> NetGame | None:
    """The network game being played, while it can still move (its transport runs, its audit is not done)."""
    game = window.network_game()
    if game is None or game.transport is None or game.session.finished:
        return None
    return game


def ask_and_move(window: Window, ask: Ask | None = None) -> str | None:
    """Ask for the address and move; the new relay, or None."""
    game = movable(window)
    if game is None:
        window.show_message(tr("move.title"), tr("net.no-game"))
        return None
    if ask is None:
        text, ok = QInputDialog.getText(
            window.window(), tr("move.title"), tr("move.prompt"), QLineEdit.EchoMode.Normal, ""
        )
    else:
        text, ok = ask()
    if not ok or not text.strip():
        return None
    try:
        moved = game.move_to(text.strip())
    except NetError as exc:
        window.show_message(tr("move.title"), exc.message())
        return None
    window.show_message(tr("move.title"), tr("move.moving", address=moved))
    return moved
