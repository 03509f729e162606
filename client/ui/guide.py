"""The first-game guide: a few turns that teach a game by playing it.

A guide is a short list of :class:`GuideStep` s, brought by the game's kit.  The bar above the
table says the current step in a sentence and rings what to click; the step is done when the
player takes an action it asks for (an action a later step asks for jumps there, so a player who
already knows the way is never held back).  The bar has a "Skip the guide" button; a guide done
or skipped is remembered in the settings (:attr:`client.store.settings.Settings.guides_done`) and not
shown again.  Nothing here knows a game: the steps name the actions and the widgets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from PySide6.QtCore import QEvent, QObject, QRect, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from client.i18n import LANGUAGE, tr
from engines.core import Action

#: The table a step rings widgets on (a game's own table class: its steps name its widgets).
Table_contra = TypeVar("Table_contra", contravariant=True)
#: The table a guide bar stands over.
TableT = TypeVar("TableT")


def _nothing(table: object) -> Sequence[QWidget]:
    return ()


@dataclass(frozen=True)
class GuideStep(Generic[Table_contra]):
    """One sentence of the guide, the actions that complete it, and what to ring on the table."""

    text: str
    #: The verbs (``action[0]``) that complete the step; empty: any action of the player.
    verbs: frozenset[str] = frozenset()
    #: ``targets(table)``: the widgets to ring while the step is shown.
    targets: Callable[[Table_contra], Sequence[QWidget]] = _nothing

    def done_by(self, action: Action) -> bool:
        return not self.verbs or (bool(action) and action[0] in self.verbs)


class Ring(QWidget):
    """A bright outline drawn over a widget; clicks go through it to the widget."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        self.hide()

    def around(self, rect: QRect) -> None:
        self.setGeometry(rect.adjusted(-4, -4, 4, 4))
        self.show()
        self.raise_()

    def paintEvent(self, _event: object) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#ffb300"), 4))
        painter.drawRoundedRect(self.rect().adjusted(2, 2, -2, -2), 8, 8)


class GuideBar(QFrame, Generic[TableT]):
    """The guide's banner above ``table``: "Step k of n: …", with rings on what to click."""

    #: The guide is over: every step done (True) or skipped (False).
    finished = Signal(bool)

    def __init__(
        self, steps: Sequence[GuideStep[TableT]], table: TableT, surface: QWidget, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.steps = list(steps)
        self.table = table
        #: The table's widget, where the rings are drawn.
        self.surface = surface
        self.index = 0
        self.rings: list[Ring] = []
        self.setObjectName("guide")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)  # as tall as its words
        self.setStyleSheet(
            "QFrame#guide { background: #fff4d6; border-bottom: 2px solid #ffb300; }"
            "QLabel { color: #3a2a00; font-size: 14px; }"
        )
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 12, 6)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.skip_button = QPushButton()
        self.skip_button.clicked.connect(self.skip)
        row.addWidget(self.text, 1)
        row.addWidget(self.skip_button)
        surface.installEventFilter(self)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    @property
    def step(self) -> GuideStep[TableT] | None:
        return self.steps[self.index] if self.index < len(self.steps) else None

    def took(self, action: Action) -> None:
        """The player took ``action``: the step that asks for it (this one or a later one) is done."""
        for j in range(self.index, len(self.steps)):
            if self.steps[j].done_by(tuple(action)):
                self.index = j + 1
                break
        if self.step is None:
            self._end(True)
        else:
            self.retranslate()

    def skip(self) -> None:
        self._end(False)

    def _end(self, completed: bool) -> None:
        self.index = len(self.steps)
        for ring in self.rings:
            ring.hide()
        self.hide()
        self.finished.emit(completed)

    def place_rings(self) -> None:
        """Ring the current step's widgets where they are now (the table lays itself out anew)."""
        step = self.step
        targets = [w for w in (step.targets(self.table) if step else ()) if w is not None and w.isVisible()]
        while len(self.rings) < len(targets):
            self.rings.append(Ring(self.surface))
        for ring, widget in zip(self.rings, targets, strict=False):
            top_left = widget.mapTo(self.surface, widget.rect().topLeft())
            ring.around(QRect(top_left, widget.size()))
        for ring in self.rings[len(targets) :]:
            ring.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest) and self.step is not None:
            self.place_rings()
        return False

    def retranslate(self, *_: object) -> None:
        step = self.step
        self.skip_button.setText(tr("guide.skip"))
        if step is not None:
            self.text.setText(tr("guide.step", k=self.index + 1, n=len(self.steps), text=tr(step.text)))
            self.place_rings()
