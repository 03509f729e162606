"""Collective Conflict's picture in the lobby: a small structure of three Networks, one command unit hemmed in."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainter

from client.games.collective_conflict import paint
from client.ui.art import Picture

# (q, r, owner, kind): the command unit at the centre has five of its six sides taken.
_UNITS = (
    (0, 0, 0, "command"),
    (1, 0, 1, "runner"),
    (0, 1, 2, "climber"),
    (-1, 1, 1, "jumper"),
    (-1, 0, 2, "netcaster"),
    (0, -1, 1, "command"),
    (2, -1, 0, "runner"),
    (-2, 2, 2, "command"),
)


class StructureArt(Picture):
    def paint(self, p: QPainter) -> None:
        # Fit the structure's bounding box (in radius units, pointy-top) into the widget, centred.
        xs = [math.sqrt(3) * (q + rr / 2) for q, rr, _, _ in _UNITS]
        ys = [1.5 * rr for _, rr, _, _ in _UNITS]
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1.2, max(ys) + 1.2
        r = min(self.width() / (x1 - x0), self.height() / (y1 - y0)) * 0.92
        cx = self.width() / 2 - r * (x0 + x1) / 2
        cy = self.height() / 2 - r * (y0 + y1) / 2

        def centre(q: int, rr: int) -> QPointF:
            return QPointF(cx + r * math.sqrt(3) * (q + rr / 2), cy + r * 1.5 * rr)

        for q, rr, owner, kind in _UNITS:
            paint.unit(p, centre(q, rr), r, owner, kind, letter=False)
        for q, rr, owner, _ in _UNITS:
            paint.unit_letter(p, centre(q, rr), r, owner)
        paint.core(p, centre(1, -1), r)
