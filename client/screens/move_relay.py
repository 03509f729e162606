"""The menu action "Move this game to another relay…": point a running network game at another relay.

Why a person would: the relay is about to go down, or the table agreed on a better one.  The
game keeps everything: this seat puts every entry it holds on the new relay (the transport
re-publishes the log it holds after each connection), and the others follow when they are given
the same address, or by themselves once their relay is unreachable and it is one of the room's
fallbacks (:mod:`relay.transport.failover`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QLineEdit

from client.i18n import tr
from client.net.errors import NetError
from client.net.game import NetGame


def install(window: Any) -> QAction:
    """Add the action to the window's game menu (enabled only while a network game is being played)."""
    action = QAction(window)
    action.triggered.connect(lambda: ask_and_move(window))
    window.game_menu.addAction(action)
    window.game_menu.aboutToShow.connect(lambda: action.setEnabled(can_move(window)))
    window.move_relay_action = action
    retranslate(window)
    return action


def retranslate(window: Any) -> None:
    action = getattr(window, "move_relay_action", None)
    if action is not None:
        action.setText(tr("menu.move_relay"))


def can_move(window: Any) -> bool:
    game = getattr(window, "game", None)
    return isinstance(game, NetGame) and game.transport is not None and not game.session.finished


def ask_and_move(window: Any, ask: Any = None) -> str | None:
    """Ask for the address (``ask``: a test's stand-in for the dialog) and move; the new relay, or None."""
    if not can_move(window):
        window.show_message(tr("move.title"), tr("net.no-game"))
        return None
    game: NetGame = window.game
    if ask is None:
        text, ok = QInputDialog.getText(window, tr("move.title"), tr("move.prompt"), QLineEdit.EchoMode.Normal, "")
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
