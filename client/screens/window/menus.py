"""The window's menus: the game menu (open a replay, settings, back to the lobby, move the game, quit),
the rules of each game, and F1 for the rules of the game in front of the player."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar, QWidget

from client.i18n import tr
from client.screens import move_relay
from client.screens.rules_pages import GAMES


class MenuWindow(move_relay.Window, Protocol):
    """What the menus call in the window."""

    def menuBar(self) -> QMenuBar: ...

    def addAction(self, action: QAction) -> None: ...

    def choose_replay(self) -> object: ...

    def open_settings(self) -> object: ...

    def back_to_lobby(self) -> None: ...

    def close(self) -> bool: ...

    def show_rules(self, game: str) -> object: ...

    def current_game_name(self) -> str: ...


class Menus:
    """The window's menu bar and its actions (kept here to be retranslated and, in tests, triggered)."""

    def __init__(self, window: MenuWindow) -> None:
        owner: QWidget = window.window()
        bar = window.menuBar()
        self.game_menu = bar.addMenu("")
        self.open_action = self._action(owner, window.choose_replay, QKeySequence.StandardKey.Open)
        self.settings_action = self._action(owner, window.open_settings)
        self.lobby_action = self._action(owner, window.back_to_lobby)
        self.quit_action = self._action(owner, window.close, QKeySequence.StandardKey.Quit)
        for action in (self.open_action, self.settings_action, self.lobby_action):
            self.game_menu.addAction(action)
        self.move_relay_action = move_relay.install(window, self.game_menu)
        self.game_menu.addSeparator()
        self.game_menu.addAction(self.quit_action)
        self.help_menu = bar.addMenu("")
        self.rules_actions: dict[str, QAction] = {}
        for name in GAMES:
            action = self._action(owner, partial(window.show_rules, name))
            self.help_menu.addAction(action)
            self.rules_actions[name] = action
        # F1: the rules of the game in front of the player (the table's, the replay's, the lobby's choice).
        self.help_action = self._action(
            owner, lambda: window.show_rules(window.current_game_name()), QKeySequence.StandardKey.HelpContents
        )
        window.addAction(self.help_action)

    @staticmethod
    def _action(
        owner: QWidget, triggered: Callable[[], object], shortcut: QKeySequence.StandardKey | None = None
    ) -> QAction:
        action = QAction(owner)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _=False: triggered())
        return action

    def retranslate(self) -> None:
        self.game_menu.setTitle(tr("menu.game"))
        self.help_menu.setTitle(tr("menu.help"))
        self.open_action.setText(tr("menu.open_replay"))
        self.settings_action.setText(tr("menu.settings"))
        self.lobby_action.setText(tr("menu.lobby"))
        self.quit_action.setText(tr("menu.quit"))
        move_relay.retranslate(self.move_relay_action)
        for name, action in self.rules_actions.items():
            action.setText(tr("menu.rules_of", game=tr(f"game.{name}")))
