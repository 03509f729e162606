"""Telling the player that their turn has come while the window is in the background.

A network game waits for the player, minutes or (with a long answer time) days; the others
wait too.  When the player's turn comes and the window is not in front, the program says so:
through the system tray (``QSystemTrayIcon.showMessage``) where the platform has one, else by
asking the window system to draw attention to the window (``QApplication.alert``: a flashing
task-bar entry, a bouncing dock icon).  Clicking the tray icon or its message brings the window
back.  The player can switch it off in the settings (``Settings.notify_turn``).

Only the moment the turn *comes* counts (not every redraw while it lasts), so one turn is one notice.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QStyle, QSystemTrayIcon, QWidget

#: How a notice went out: through the tray, or by the window system's attention request.
TRAY, ALERT = "tray", "alert"


class TurnNotifier(QObject):
    """Watches "is it my turn" for one window and notifies when it becomes true in the background."""

    def __init__(self, window: QWidget, enabled: Callable[[], bool]) -> None:
        super().__init__(window)
        self.window = window
        self.enabled = enabled
        self._was_turn = False
        #: Every notice sent, as (TRAY or ALERT, text): what the player was told, and how.
        self.sent: list[tuple[str, str]] = []
        #: The tray icon, from the first network table on (None where the platform has no tray).
        self.tray: QSystemTrayIcon | None = None

    def _tray(self) -> QSystemTrayIcon | None:
        """The tray icon (made and shown at the first call), where the platform has a system tray."""
        if self.tray is None and QSystemTrayIcon.isSystemTrayAvailable():
            icon = self.window.windowIcon()
            if icon.isNull():
                icon = self.window.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation)
            self.tray = QSystemTrayIcon(icon, self)
            self.tray.activated.connect(self.bring_back)
            self.tray.messageClicked.connect(self.bring_back)
        if self.tray is not None and not self.tray.isVisible():
            self.tray.show()
        return self.tray

    def observe(self, your_turn: bool, title: str, text: str) -> str | None:
        """A network table was redrawn; notify (returns how) if the turn has just come and the window is away.

        The tray icon appears with the first network table while notices are on, and goes with them.
        """
        came = your_turn and not self._was_turn
        self._was_turn = your_turn
        if not self.enabled():
            self.close()
            return None
        self._tray()
        if not came or self.in_front():
            return None
        return self.notify(title, text)

    def in_front(self) -> bool:
        """Whether the player is looking at the window (active and not minimised)."""
        return self.window.isActiveWindow() and not self.window.isMinimized()

    def notify(self, title: str, text: str) -> str:
        tray = self._tray()
        if tray is not None and tray.supportsMessages():
            tray.showMessage(title, text, QSystemTrayIcon.MessageIcon.Information, 15_000)
            how = TRAY
        else:
            QApplication.alert(self.window, 0)  # 0: until the window is activated
            how = ALERT
        self.sent.append((how, text))
        return how

    def bring_back(self, *_: object) -> None:
        self.window.showNormal()
        self.window.raise_()
        self.window.activateWindow()

    def close(self) -> None:
        if self.tray is not None:
            self.tray.hide()
