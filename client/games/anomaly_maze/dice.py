"""The attack dice of the turn, with a short rolling animation.

The animation is a QTimer that flips the newest die through faces before it
settles on the rolled one; it is purely for the eye (the result is already
in the game) and is skipped when the bot speed is "instant".  The flipping
faces follow a fixed sequence, not a random one, so a screenshot is stable.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from client.games.anomaly_maze import paint

TICK_MS = 70


class DiceView(QWidget):
    """The dice of the turn being played: rolled faces, then unused dice."""

    #: The newest die has stopped rolling (its face is shown).
    settled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.faces: list[int] = []
        self.total = 2
        self.colour = QColor("#1b2430")
        self.rolling = False
        self.ticks_left = 0
        self.tick = 0
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.setFixedHeight(64)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def show_dice(self, faces: list[int], total: int, seat: int, roll_ms: int = 0) -> None:
        """Show ``faces`` of ``total`` dice; ``roll_ms`` > 0 animates the newest one first."""
        self.faces = list(faces)
        self.total = max(total, len(faces))
        self.colour = paint.seat_colour(seat)
        if roll_ms > 0 and faces:
            self.rolling = True
            self.ticks_left = max(1, roll_ms // TICK_MS)
            self.timer.start()
        else:
            self.finish()
        self.update()

    def finish(self) -> None:
        """Stop the animation now and show the rolled faces."""
        was_rolling = self.rolling
        self.timer.stop()
        self.rolling = False
        self.ticks_left = 0
        self.update()
        if was_rolling:
            self.settled.emit()

    def _tick(self) -> None:
        self.tick += 1
        self.ticks_left -= 1
        if self.ticks_left <= 0:
            self.finish()
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            size = min(self.height() - 8.0, 56.0)
            for i in range(self.total):
                r = QRectF(4 + i * (size + 12), 4, size, size)
                face: int | None = self.faces[i] if i < len(self.faces) else None
                rolling = self.rolling and i == len(self.faces) - 1
                if rolling:
                    face = (self.tick * 5 + i) % 6 + 1
                paint.paint_die(p, r, face, self.colour, rolling)
        finally:
            p.end()
