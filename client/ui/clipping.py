"""Which visible labels and buttons cannot show their whole text: the check behind every screenshot.

A Russian button that reads "Сыграть «Сбой!» против игрока A…" tells the player nothing; Qt clips
such text silently.  We ask each widget what it would need (its size hint, or the text's width
in its own font) and compare with what the layout gave it.  Custom-painted tables are not
covered here: their painters lay text out themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtGui
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

#: Pixels of slack before we call a text clipped (rounding in the style's metrics).
SLACK = 2


@dataclass(frozen=True)
class Clipped:
    """One widget whose text does not fit: where, what, and how much room it lacks."""

    path: str
    text: str
    needed: int
    given: int

    def __str__(self) -> str:
        return f"{self.path}: {self.text!r} needs {self.needed} px, has {self.given}"


def _path(widget: QWidget) -> str:
    names = []
    w: QWidget | None = widget
    while w is not None:
        names.append(w.objectName() or type(w).__name__)
        w = w.parentWidget()
    return "/".join(reversed(names))


def _plain(label: QLabel) -> str:
    text = label.text()
    if label.textFormat() == Qt.TextFormat.RichText or QtGui.Qt.mightBeRichText(text):
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


def _label(label: QLabel) -> Clipped | None:
    text = _plain(label)
    if not text.strip() or (label.pixmap() is not None and not label.pixmap().isNull()):
        return None
    room = label.contentsRect().adjusted(label.margin(), label.margin(), -label.margin(), -label.margin())
    metrics = label.fontMetrics()
    if label.wordWrap():
        needed = metrics.boundingRect(QRect(0, 0, max(1, room.width()), 100_000), Qt.TextFlag.TextWordWrap, text)
        if needed.height() > room.height() + SLACK or needed.width() > room.width() + SLACK:
            return Clipped(_path(label), text, needed.height(), room.height())
        return None
    widest = max(metrics.horizontalAdvance(line) for line in text.splitlines() or [text])
    if widest > room.width() + SLACK:
        return Clipped(_path(label), text, widest, room.width())
    tall = metrics.lineSpacing() * len(text.splitlines() or [text])
    if tall > room.height() + metrics.leading() + SLACK + metrics.descent():
        return Clipped(_path(label), text, tall, room.height())
    return None


def _button(button: QAbstractButton) -> Clipped | None:
    if not button.text().strip():
        return None
    needed = button.sizeHint().width()
    if needed > button.width() + SLACK:
        return Clipped(_path(button), button.text(), needed, button.width())
    return None


def clipped_texts(root: QWidget) -> list[Clipped]:
    """Every visible label or button under ``root`` (and ``root`` itself) whose text is cut off."""
    out: list[Clipped] = []
    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if not widget.isVisible() or widget.width() <= 0:
            continue
        found = None
        if isinstance(widget, QLabel):
            found = _label(widget)
        elif isinstance(widget, QAbstractButton):
            found = _button(widget)
        if found is not None:
            out.append(found)
    return out
