"""The maze drawn with QPainter: tiles and corridors, objects, pawns, dice faces.

Everything is vector drawing in logical coordinates (rectangles in floats),
so it is crisp at any device pixel ratio.  Each function paints one thing into
the rectangle it is given and restores the painter's state.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QLinearGradient, QPainter, QPainterPath, QPen, QPolygonF, QRadialGradient

from engines.anomaly_maze.board import E, N, S, W

#: Seat colours: player 1 (Respawn G1) blue, player 2 (Respawn A7) orange.
SEAT_COLOURS = (QColor("#3d8bfd"), QColor("#f06a3c"))
STONE = QColor("#2e3a36")
STONE_LIGHT = QColor("#3b4944")
SAND = QColor("#e3d3a6")
SAND_DARK = QColor("#c9b47f")
GOLD = QColor("#ffd54a")


def seat_colour(seat: int) -> QColor:
    return SEAT_COLOURS[seat % 2]


def paint_tile(p: QPainter, r: QRectF, mask: int, respawn: int | None = None) -> None:
    """One tile: a stone block with sand corridors leading to its open sides."""
    p.save()
    inset = r.width() * 0.03
    block = r.adjusted(inset, inset, -inset, -inset)
    base = QLinearGradient(block.topLeft(), block.bottomRight())
    if respawn is None:
        base.setColorAt(0, STONE_LIGHT)
        base.setColorAt(1, STONE)
    else:
        colour = seat_colour(respawn)
        base.setColorAt(0, colour.darker(170))
        base.setColorAt(1, colour.darker(260))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(base))
    p.drawRoundedRect(block, r.width() * 0.1, r.width() * 0.1)
    half = r.width() * 0.19
    c = r.center()
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    path.addRect(QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half))
    if mask & N:
        path.addRect(QRectF(c.x() - half, r.top(), 2 * half, c.y() - r.top()))
    if mask & S:
        path.addRect(QRectF(c.x() - half, c.y(), 2 * half, r.bottom() - c.y()))
    if mask & W:
        path.addRect(QRectF(r.left(), c.y() - half, c.x() - r.left(), 2 * half))
    if mask & E:
        path.addRect(QRectF(c.x(), c.y() - half, r.right() - c.x(), 2 * half))
    path = path.simplified()
    p.setBrush(SAND)
    p.setPen(QPen(SAND_DARK, max(1.0, r.width() * 0.02)))
    p.drawPath(path)
    if respawn is not None:
        ring = QPen(seat_colour(respawn), max(1.5, r.width() * 0.05))
        p.setPen(ring)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(c, half * 1.35, half * 1.35)
    p.restore()


def paint_key(p: QPainter, r: QRectF, colour: QColor) -> None:
    """A key: a ring and a shaft with two teeth, in its owner's colour."""
    p.save()
    w = r.width()
    pen = QPen(colour.darker(160), max(1.0, w * 0.05))
    p.setPen(pen)
    p.setBrush(colour)
    ring_c = QPointF(r.left() + w * 0.3, r.center().y())
    p.drawEllipse(ring_c, w * 0.2, w * 0.2)
    p.setBrush(SAND)
    p.drawEllipse(ring_c, w * 0.08, w * 0.08)
    p.setBrush(colour)
    shaft = QPainterPath()
    shaft.setFillRule(Qt.FillRule.WindingFill)
    y = r.center().y()
    shaft.addRect(QRectF(r.left() + w * 0.48, y - w * 0.06, w * 0.45, w * 0.12))
    shaft.addRect(QRectF(r.left() + w * 0.72, y, w * 0.08, w * 0.2))
    shaft.addRect(QRectF(r.left() + w * 0.85, y, w * 0.08, w * 0.15))
    p.drawPath(shaft.simplified())
    p.restore()


def paint_chest(p: QPainter, r: QRectF, colour: QColor) -> None:
    """A chest: a box with a lid and a golden lock, in its owner's colour."""
    p.save()
    w = r.width()
    box = QRectF(r.left() + w * 0.12, r.top() + w * 0.28, w * 0.76, w * 0.52)
    p.setPen(QPen(colour.darker(200), max(1.0, w * 0.05)))
    p.setBrush(colour.darker(115))
    p.drawRoundedRect(box, w * 0.08, w * 0.08)
    lid = QRectF(box.left(), box.top(), box.width(), box.height() * 0.38)
    p.setBrush(colour.lighter(115))
    p.drawRoundedRect(lid, w * 0.08, w * 0.08)
    p.setBrush(GOLD)
    p.setPen(QPen(QColor("#7a5b00"), max(1.0, w * 0.03)))
    p.drawRect(QRectF(r.center().x() - w * 0.07, lid.bottom() - w * 0.06, w * 0.14, w * 0.16))
    p.restore()


def paint_medkit(p: QPainter, r: QRectF) -> None:
    p.save()
    w = r.width()
    box = r.adjusted(w * 0.14, w * 0.14, -w * 0.14, -w * 0.14)
    p.setPen(QPen(QColor("#9a1b1b"), max(1.0, w * 0.04)))
    p.setBrush(QColor("#fbfbf7"))
    p.drawRoundedRect(box, w * 0.1, w * 0.1)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#d62828"))
    c = box.center()
    arm, thick = box.width() * 0.32, box.width() * 0.12
    p.drawRect(QRectF(c.x() - thick, c.y() - arm, 2 * thick, 2 * arm))
    p.drawRect(QRectF(c.x() - arm, c.y() - thick, 2 * arm, 2 * thick))
    p.restore()


def paint_mine(p: QPainter, r: QRectF) -> None:
    p.save()
    w = r.width()
    c = r.center()
    pen = QPen(QColor("#111"), max(1.0, w * 0.07))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    for dx, dy in ((1, 0), (0, 1), (0.7, 0.7), (0.7, -0.7)):
        p.drawLine(
            QPointF(c.x() - dx * w * 0.36, c.y() - dy * w * 0.36), QPointF(c.x() + dx * w * 0.36, c.y() + dy * w * 0.36)
        )
    grad = QRadialGradient(QPointF(c.x() - w * 0.08, c.y() - w * 0.08), w * 0.3)
    grad.setColorAt(0, QColor("#6b6f73"))
    grad.setColorAt(1, QColor("#1c1f22"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(grad))
    p.drawEllipse(c, w * 0.25, w * 0.25)
    p.setBrush(QColor("#ff3b30"))
    p.drawEllipse(c, w * 0.07, w * 0.07)
    p.restore()


def paint_spikes(p: QPainter, r: QRectF) -> None:
    p.save()
    w = r.width()
    base_y = r.top() + w * 0.78
    p.setPen(QPen(QColor("#2b2b2b"), max(1.0, w * 0.03)))
    grad = QLinearGradient(QPointF(0, r.top()), QPointF(0, base_y))
    grad.setColorAt(0, QColor("#f2f4f6"))
    grad.setColorAt(1, QColor("#7d8790"))
    p.setBrush(QBrush(grad))
    for i, height in enumerate((0.48, 0.62, 0.48)):
        x0 = r.left() + w * (0.12 + 0.26 * i)
        tri = QPolygonF(
            [QPointF(x0, base_y), QPointF(x0 + w * 0.13, base_y - w * height), QPointF(x0 + w * 0.26, base_y)]
        )
        p.drawPolygon(tri)
    p.setBrush(QColor("#4a3f35"))
    p.drawRect(QRectF(r.left() + w * 0.08, base_y, w * 0.84, w * 0.08))
    p.restore()


def paint_pawn(p: QPainter, r: QRectF, seat: int, hp: int, max_hp: int, carrying: bool, active: bool) -> None:
    """A pawn: a coloured disc with its player number, a small HP bar, and the carried key."""
    p.save()
    w = r.width()
    c = r.center()
    colour = seat_colour(seat)
    radius = w * 0.3
    if active:
        p.setPen(QPen(GOLD, max(1.5, w * 0.05)))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(c, radius * 1.28, radius * 1.28)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 90))
    p.drawEllipse(QPointF(c.x() + w * 0.02, c.y() + w * 0.04), radius, radius)
    grad = QRadialGradient(QPointF(c.x() - radius * 0.35, c.y() - radius * 0.35), radius * 1.4)
    grad.setColorAt(0, colour.lighter(150))
    grad.setColorAt(1, colour.darker(130))
    p.setBrush(QBrush(grad))
    p.setPen(QPen(QColor("white"), max(1.0, w * 0.04)))
    p.drawEllipse(c, radius, radius)
    font = p.font()
    font.setBold(True)
    font.setPixelSize(max(6, int(radius * 1.1)))
    p.setFont(font)
    p.setPen(QColor("white"))
    p.drawText(
        QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius), Qt.AlignmentFlag.AlignCenter, str(seat + 1)
    )
    bar = QRectF(c.x() - radius, c.y() + radius + w * 0.05, 2 * radius, max(2.0, w * 0.07))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 160))
    p.drawRoundedRect(bar, bar.height() / 2, bar.height() / 2)
    share = max(0.0, min(1.0, hp / max_hp if max_hp else 0))
    p.setBrush(hp_colour(share))
    p.drawRoundedRect(
        QRectF(bar.left(), bar.top(), bar.width() * share, bar.height()), bar.height() / 2, bar.height() / 2
    )
    if carrying:
        badge = QRectF(c.x() + radius * 0.35, c.y() - radius * 1.35, w * 0.42, w * 0.42)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255, 220))
        p.drawEllipse(badge)
        paint_key(p, badge.adjusted(w * 0.04, w * 0.04, -w * 0.04, -w * 0.04), colour)
    p.restore()


def hp_colour(share: float) -> QColor:
    if share > 0.6:
        return QColor("#3ecf6e")
    if share > 0.3:
        return QColor("#f2c12e")
    return QColor("#e5484d")


def paint_die(p: QPainter, r: QRectF, face: int | None, colour: QColor, rolling: bool = False) -> None:
    """A die: pips for 1..6; ``None`` paints an unused die (dashed outline)."""
    p.save()
    w = r.width()
    if face is None:
        pen = QPen(QColor(255, 255, 255, 120), max(1.0, w * 0.04), Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(r.adjusted(2, 2, -2, -2), w * 0.18, w * 0.18)
        p.restore()
        return
    p.setPen(QPen(colour.darker(170) if not rolling else GOLD, max(1.0, w * 0.05)))
    grad = QLinearGradient(r.topLeft(), r.bottomRight())
    grad.setColorAt(0, QColor("#ffffff"))
    grad.setColorAt(1, QColor("#dfe3e6"))
    p.setBrush(QBrush(grad))
    p.drawRoundedRect(r.adjusted(2, 2, -2, -2), w * 0.18, w * 0.18)
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.28, 0.28), (0.72, 0.72)],
        3: [(0.28, 0.28), (0.5, 0.5), (0.72, 0.72)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
        5: [(0.28, 0.28), (0.72, 0.28), (0.5, 0.5), (0.28, 0.72), (0.72, 0.72)],
        6: [(0.28, 0.25), (0.72, 0.25), (0.28, 0.5), (0.72, 0.5), (0.28, 0.75), (0.72, 0.75)],
    }[face]
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour.darker(140))
    for fx, fy in spots:
        p.drawEllipse(QPointF(r.left() + fx * w, r.top() + fy * r.height()), w * 0.08, w * 0.08)
    p.restore()


def paint_arrow(p: QPainter, r: QRectF, direction: str, state: str) -> None:
    """A shift arrow pointing ``direction`` (N/E/S/W); state: ``on``, ``hover``, ``off`` or ``last``."""
    p.save()
    c = r.center()
    s = min(r.width(), r.height()) * 0.42
    points = {
        "E": [(-0.6, -0.8), (0.8, 0), (-0.6, 0.8)],
        "W": [(0.6, -0.8), (-0.8, 0), (0.6, 0.8)],
        "S": [(-0.8, -0.6), (0, 0.8), (0.8, -0.6)],
        "N": [(-0.8, 0.6), (0, -0.8), (0.8, 0.6)],
    }[direction]
    tri = QPolygonF([QPointF(c.x() + dx * s, c.y() + dy * s) for dx, dy in points])
    fill = {
        "on": QColor(255, 213, 74, 215),
        "hover": QColor("#fff1b0"),
        "last": QColor(255, 255, 255, 200),
        "off": QColor(255, 255, 255, 45),
    }[state]
    pen = QPen(QColor(0, 0, 0, 120 if state != "off" else 40), max(1.0, s * 0.12))
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(fill)
    p.drawPolygon(tri)
    p.restore()
