"""What every game's table shares, drawn in code with QPainter: the felt and a picture frame.

Vector drawing in logical coordinates, crisp at any device pixel ratio.  Each
game's own art (System Launch's cards, the maze's tiles, Collective Conflict's
hexes) lives in the game's folder.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPaintEvent, QRadialGradient
from PySide6.QtWidgets import QSizePolicy, QWidget

from client import qtguard  # noqa: F401  (first: guards against a PySide6 crash on CPython 3.11)

TABLE_FELT = QColor("#1d3b33")


def paint_felt(p: QPainter, rect: QRectF) -> None:
    """The table: dark green felt with a soft light in the middle."""
    grad = QRadialGradient(rect.center(), max(rect.width(), rect.height()) * 0.7)
    grad.setColorAt(0, TABLE_FELT.lighter(135))
    grad.setColorAt(1, TABLE_FELT.darker(125))
    p.fillRect(rect, QBrush(grad))


class FeltWidget(QWidget):
    """A game table's background: the felt under every game's widgets."""

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            paint_felt(p, QRectF(self.rect()))
        finally:
            p.end()


class Picture(QWidget):
    """A decorative picture (a game's lobby art): at least 300 × 190, painted by :meth:`paint`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(300, 190)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def paint(self, p: QPainter) -> None:
        raise NotImplementedError

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            self.paint(p)
        finally:
            p.end()
