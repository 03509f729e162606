"""A push button whose label wraps onto more lines instead of being cut off.

Qt's buttons never wrap: a long label ("Сыграть «Хакерская атака!» против игрока Селина") is
clipped at the button's edge, at any window width, when the button lives in a fixed-width
panel.  This button re-breaks its label at spaces whenever its width changes, so every word
stays visible and the button grows in height instead.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QPushButton, QSizePolicy, QWidget

from engines.core import Action

#: Room the style takes around a button's label (padding and frame), in pixels.
PADDING = 28


class WrapButton(QPushButton):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.full_text = text
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._rewrap(event.size().width())
        super().resizeEvent(event)

    def _rewrap(self, width: int) -> None:
        room = max(40, width - PADDING)
        metrics = self.fontMetrics()
        lines: list[str] = []
        for word in self.full_text.split(" "):
            if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= room:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        wrapped = "\n".join(lines)
        if wrapped != self.text():
            self.setText(wrapped)
            self.updateGeometry()


class ActionButton(WrapButton):
    """A table's button for one legal action: it keeps the action it plays (the keys and guides read it)."""

    def __init__(self, text: str, action: Action, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.action = action
