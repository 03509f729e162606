"""The table's keyboard: Esc cancels a pick, Enter confirms, 1–9 press the offered actions, arrows turn a tile.

Shared by every game: a game's table says which buttons the keys press (``shortcut_buttons``,
``confirm_button``, ``cancel_choice``, optionally ``turn_key``); a key presses the same button a
click would, so the keyboard can never do anything the mouse could not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QWidget


def install(  # noqa: C901 (tests/test_complexity.py)
    screen: QWidget,
    table: Callable[[], Any],
    enabled: Callable[[], bool],
    escape: Callable[[], bool] | None = None,
) -> list[QShortcut]:
    """Shortcuts on ``screen`` acting on ``table()`` while ``enabled()`` (not while the game is paused).

    ``escape``, if given, has the first word on Esc: it returns True when it used the key (the
    screen was showing a past position and went back to the live table).
    """

    def press(pick: Callable[[Any], Any]) -> Callable[[], None]:
        def run() -> None:
            current = table()
            if current is None or not enabled():
                return
            button = pick(current)
            if button is not None:
                button.click()

        return run

    def number(n: int) -> Callable[[Any], Any]:
        def pick(current: Any) -> Any:
            offered = current.shortcut_buttons() if hasattr(current, "shortcut_buttons") else []
            return offered[n - 1] if n <= len(offered) else None

        return pick

    def cancel() -> None:
        if escape is not None and escape():
            return
        current = table()
        if current is not None and enabled() and hasattr(current, "cancel_choice"):
            current.cancel_choice()

    def turn(delta: int) -> Callable[[], None]:
        def run() -> None:
            current = table()
            if current is not None and enabled() and hasattr(current, "turn_key"):
                current.turn_key(delta)

        return run

    bindings: list[tuple[Any, Callable[[], None]]] = [
        (Qt.Key.Key_Escape, cancel),
        (Qt.Key.Key_Return, press(lambda t: t.confirm_button() if hasattr(t, "confirm_button") else None)),
        (Qt.Key.Key_Enter, press(lambda t: t.confirm_button() if hasattr(t, "confirm_button") else None)),
        (Qt.Key.Key_Left, turn(-1)),
        (Qt.Key.Key_Right, turn(1)),
    ]
    bindings += [(getattr(Qt.Key, f"Key_{n}"), press(number(n))) for n in range(1, 10)]
    shortcuts = []
    for key, action in bindings:
        shortcut = QShortcut(QKeySequence(key), screen)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(action)
        shortcuts.append(shortcut)
    return shortcuts
