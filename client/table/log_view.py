"""The readable game log: one line per happening, re-rendered on a language switch."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from client.i18n import tr

TONES = {
    "plain": QColor("#2b3530"),
    "event": QColor("#a33a1f"),
    "good": QColor("#1f7a45"),
    "private": QColor("#1f4f8a"),
    "win": QColor("#9a6b00"),
}


class LogLine(Protocol):
    """What every game's log line offers: its words now (in the current language) and its tone."""

    @property
    def tone(self) -> str: ...

    def text(self, names: Sequence[str]) -> str: ...


@dataclass(frozen=True)
class PlainLine:
    """A line of the shared screens' own (the game is over, a replay starts): a message id, no fields."""

    msg: str
    tone: str = "plain"

    def text(self, names: Sequence[str]) -> str:
        return tr(self.msg)


class LogView(QListWidget):
    """A list of :class:`LogLine`; the newest line stays in sight; a click on a line says which."""

    #: A line was clicked (its position in :attr:`lines`).
    line_clicked = Signal(int)

    def __init__(self, names: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.itemClicked.connect(lambda item: self.line_clicked.emit(self.row(item)))
        self.names = list(names)
        self.lines: list[LogLine] = []
        self.setWordWrap(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setAlternatingRowColors(True)
        self.setStyleSheet("QListWidget { font-size: 13px; background: #f6f4ee; alternate-background-color: #eeebe2; }")

    def add(self, lines: Iterable[LogLine]) -> None:
        for line in lines:
            self.lines.append(line)
            self._append(line)
        self.scrollToBottom()

    def set_lines(self, lines: Iterable[LogLine]) -> None:
        self.lines = list(lines)
        self.retranslate()

    def _append(self, line: LogLine) -> None:
        item = QListWidgetItem(line.text(self.names))
        item.setForeground(TONES.get(line.tone, TONES["plain"]))
        if line.tone in ("win", "event"):
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        self.addItem(item)

    def retranslate(self) -> None:
        self.clear()
        for line in self.lines:
            self._append(line)
        self.scrollToBottom()

    def clickable(self, on: bool) -> None:
        """Lines that can be clicked look it (the pointing hand)."""
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if on else Qt.CursorShape.ArrowCursor)

    def texts(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]
