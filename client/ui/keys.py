"""The table's keyboard: Esc cancels a pick, Enter confirms, 1–9 press the offered actions, arrows turn a tile.

Shared by every game: a game's table (a :class:`KeyedTable`) says which buttons the keys press
(``shortcut_buttons``, ``confirm_button``, ``cancel_choice``, and ``turn_key``, which does nothing
on a table with nothing to turn); a key presses the same button a click would, so the keyboard can
never do anything the mouse could not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QPushButton, QWidget


class KeyedTable(Protocol):
    """What the keys press on a game's table: the buttons a click on them would press."""

    def shortcut_buttons(self) -> list[QPushButton]:
        """The offered actions' buttons, in the order the keys 1–9 press them."""
        ...

    def confirm_button(self) -> QPushButton | None:
        """The button Enter presses (None: Enter does nothing now)."""
        ...

    def cancel_choice(self) -> None:
        """Esc: drop the pick in progress."""
        ...

    def turn_key(self, delta: int) -> None:
        """←/→: turn what the table lets the player turn (nothing, on most tables)."""
        ...


class _Keys:
    """The keys' actions on the table the screen shows now, while it takes input."""

    def __init__(
        self, table: Callable[[], KeyedTable | None], enabled: Callable[[], bool], escape: Callable[[], bool] | None
    ) -> None:
        self.table, self.enabled, self.escape = table, enabled, escape

    def live(self) -> KeyedTable | None:
        current = self.table()
        return current if current is not None and self.enabled() else None

    def press(self, pick: Callable[[KeyedTable], QPushButton | None]) -> Callable[[], None]:
        def run() -> None:
            current = self.live()
            button = pick(current) if current is not None else None
            if button is not None:
                button.click()

        return run

    def number(self, n: int) -> Callable[[], None]:
        def pick(current: KeyedTable) -> QPushButton | None:
            offered = current.shortcut_buttons()
            return offered[n - 1] if n <= len(offered) else None

        return self.press(pick)

    def cancel(self) -> None:
        if self.escape is not None and self.escape():
            return
        current = self.live()
        if current is not None:
            current.cancel_choice()

    def turn(self, delta: int) -> Callable[[], None]:
        def run() -> None:
            current = self.live()
            if current is not None:
                current.turn_key(delta)

        return run


def install(
    screen: QWidget,
    table: Callable[[], KeyedTable | None],
    enabled: Callable[[], bool],
    escape: Callable[[], bool] | None = None,
) -> list[QShortcut]:
    """Shortcuts on ``screen`` acting on ``table()`` while ``enabled()`` (not while the game is paused).

    ``escape``, if given, has the first word on Esc: it returns True when it used the key (the
    screen was showing a past position and went back to the live table).
    """
    keys = _Keys(table, enabled, escape)
    confirm = keys.press(lambda current: current.confirm_button())
    bindings: list[tuple[Qt.Key, Callable[[], None]]] = [
        (Qt.Key.Key_Escape, keys.cancel),
        (Qt.Key.Key_Return, confirm),
        (Qt.Key.Key_Enter, confirm),
        (Qt.Key.Key_Left, keys.turn(-1)),
        (Qt.Key.Key_Right, keys.turn(1)),
    ]
    bindings += [(getattr(Qt.Key, f"Key_{n}"), keys.number(n)) for n in range(1, 10)]
    shortcuts = []
    for key, action in bindings:
        shortcut = QShortcut(QKeySequence(key), screen)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(action)
        shortcuts.append(shortcut)
    return shortcuts
