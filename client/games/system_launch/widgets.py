"""System Launch's card widgets: one clickable card, a painted row of small cards, a fan.

A card is described by a :class:`CardFace` (kind and texts, or ``None`` for a
back).  Sizes are logical pixels; Qt scales them on high-DPI screens and the
art is vector, so nothing blurs.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from client import qtguard  # noqa: F401  (first: guards against a PySide6 crash on CPython 3.11)
from client.games.system_launch import art


@dataclass(frozen=True)
class CardFace:
    """What a face-up card shows: the engine kind name, its title and category caption."""

    kind: str
    title: str
    caption: str = ""


class CardView(QWidget):
    """One card, face up or face down; clickable when ``selectable``."""

    clicked = Signal()

    def __init__(self, face: CardFace | None, scale: float = 1.0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.face = face
        self.scale = scale
        self.selected = False
        self.selectable = False
        self.dimmed = False
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setFixedSize(self.sizeHint())
        if face is not None:
            self.setToolTip(face.title)
            self.setAccessibleName(face.title)

    def sizeHint(self) -> QSize:
        return QSize(int(art.CARD_W * self.scale) + 4, int(art.CARD_H * self.scale) + 6)

    def set_state(self, *, selectable: bool, selected: bool = False, dimmed: bool = False) -> None:
        self.selectable = selectable
        self.selected = selected
        self.dimmed = dimmed
        self.setCursor(Qt.CursorShape.PointingHandCursor if selectable else Qt.CursorShape.ArrowCursor)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            lift = -3.0 if self.selected else 0.0
            rect = QRectF(2, 3 + lift, art.CARD_W * self.scale, art.CARD_H * self.scale)
            if self.face is None:
                art.paint_card_back(p, rect)
            else:
                art.paint_card_face(
                    p,
                    rect,
                    self.face.kind,
                    self.face.title,
                    selected=self.selected,
                    dimmed=self.dimmed,
                    caption=self.face.caption if self.scale >= 0.8 else "",
                )
        finally:
            p.end()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if (
            self.selectable
            and event.button() == Qt.MouseButton.LeftButton
            and self.rect().contains(event.position().toPoint())
        ):
            self.clicked.emit()
        super().mouseReleaseEvent(event)


class CardRow(QWidget):
    """A row of small cards painted side by side, overlapping when space is short.

    ``faces`` holds ``CardFace`` for face-up cards and ``None`` for backs;
    ``placeholder`` is drawn as an empty slot when the row is empty.
    """

    def __init__(
        self, scale: float = 0.5, min_cards: int = 4, parent: QWidget | None = None, *, room_for: int = 1
    ) -> None:
        super().__init__(parent)
        self.scale = scale
        #: The cards the row asks room for, whatever it holds now: its width never follows its count.
        self.min_cards = min_cards
        #: The cards it always shows side by side without overlapping (its minimum width).
        self.room_for = room_for
        self.faces: list[CardFace | None] = []
        self.placeholder = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(int(art.CARD_H * scale) + 6)

    def card_size(self) -> tuple[float, float]:
        return art.CARD_W * self.scale, art.CARD_H * self.scale

    def _width_for(self, cards: int) -> int:
        w, _ = self.card_size()
        return int((w + 4) * max(1, cards)) + 4

    def sizeHint(self) -> QSize:
        _, h = self.card_size()
        return QSize(self._width_for(self.min_cards), int(h) + 6)

    def minimumSizeHint(self) -> QSize:
        _, h = self.card_size()
        return QSize(self._width_for(self.room_for), int(h) + 6)

    def step(self) -> float:
        """How far apart the cards are drawn: a card and a gap while they fit, less (overlapping) when not."""
        w, _ = self.card_size()
        n = len(self.faces)
        return min(w + 4, (self.width() - 4 - w) / (n - 1)) if n > 1 else 0.0

    def set_cards(self, faces: list[CardFace | None], placeholder: str = "") -> None:
        self.faces = list(faces)
        self.placeholder = placeholder
        titles = [f.title for f in faces if f is not None]
        self.setToolTip(", ".join(titles))
        self.update()  # the size asked for does not depend on the cards: no new layout

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            w, h = self.card_size()
            if not self.faces:
                if self.placeholder:
                    art.paint_empty_slot(p, QRectF(2, 3, w, h), self.placeholder)
                return
            step = self.step()
            for i, face in enumerate(self.faces):
                rect = QRectF(2 + i * step, 3, w, h)
                if face is None:
                    art.paint_card_back(p, rect)
                else:
                    art.paint_card_face(p, rect, face.kind, face.title)
        finally:
            p.end()


class CardFan(QWidget):
    """A decorative fan of cards (the lobby's illustration): a winning build and a back."""

    def __init__(self, faces: list[CardFace | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.faces = faces
        self.setMinimumSize(300, 190)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_faces(self, faces: list[CardFace | None]) -> None:
        self.faces = faces
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            n = len(self.faces)
            scale = min(2.0, max(0.6, self.height() / art.CARD_H * 0.62, 0.1))
            scale = min(scale, self.width() / (art.CARD_W * (0.45 * n + 1.6)))
            w, h = art.CARD_W * scale, art.CARD_H * scale
            cx, base = self.width() / 2, self.height() / 2 + h * 0.45
            for i, face in enumerate(self.faces):
                angle = (i - (n - 1) / 2) * 11.0
                p.save()
                p.translate(cx, base + h * 0.9)
                p.rotate(angle)
                rect = QRectF(-w / 2, -h * 1.9, w, h)
                if face is None:
                    art.paint_card_back(p, rect)
                else:
                    art.paint_card_face(p, rect, face.kind, face.title, caption=face.caption)
                p.restore()
        finally:
            p.end()
