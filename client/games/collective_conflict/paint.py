"""Network colours and marks, unit glyphs, traps and Data Cores, drawn with QPainter.

Every Network has a colour *and* a letter (A–J) so that players who cannot
tell the colours apart still can tell the Networks apart; the colours are a
ten-colour qualitative palette chosen to stay distinct on the dark felt.
Every unit kind has its own glyph; a MotherShip and a Decoy share the
"command unit" glyph (CC-8) and only their owner sees the small M / D badge.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF, QRadialGradient

#: Ten Network colours (seat order) and marks.
COLOURS = (
    "#4e8fe0",  # blue
    "#f28e2b",  # orange
    "#e8505b",  # red
    "#5bb450",  # green
    "#f2d544",  # yellow
    "#b07ad0",  # purple
    "#5fd3d3",  # cyan
    "#ff9dc8",  # pink
    "#a8774f",  # brown
    "#6a5acd",  # slate blue (not white: white marks the legal targets)
)
MARKS = "ABCDEFGHIJ"
WRECK_FILL = QColor("#3a3d40")
#: The Virus: magenta drawn dashed over black, so no Network's colour or ring is taken for it.
VIRUS = QColor("#ff1fd0")
GOLD = QColor("#ffd54a")
CORE = QColor("#58f0ff")


def seat_colour(seat: int) -> QColor:
    return QColor(COLOURS[seat % len(COLOURS)]) if seat >= 0 else WRECK_FILL


def seat_mark(seat: int) -> str:
    return MARKS[seat % len(MARKS)] if seat >= 0 else ""


def ink_for(colour: QColor) -> QColor:
    """Dark ink on light colours, white ink on dark ones."""
    return QColor("#14181c") if colour.lightnessF() > 0.62 else QColor("#ffffff")


def hexagon(center: QPointF, radius: float) -> QPolygonF:
    """A pointy-top hexagon."""
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(QPointF(center.x() + radius * math.cos(a), center.y() + radius * math.sin(a)))
    return QPolygonF(pts)


def _font(p: QPainter, px: float, bold: bool = True) -> None:
    font = QFont(p.font())
    font.setPixelSize(max(6, int(px)))
    font.setBold(bold)
    p.setFont(font)


def mark_badge(p: QPainter, center: QPointF, radius: float, seat: int) -> None:
    """The Network's letter in a small disc of its colour (readable without colour vision)."""
    colour = seat_colour(seat)
    p.setPen(QPen(QColor(0, 0, 0, 180), max(1.0, radius * 0.12)))
    p.setBrush(colour)
    p.drawEllipse(center, radius, radius)
    p.setPen(ink_for(colour))
    _font(p, radius * 1.35)
    p.drawText(
        QRectF(center.x() - radius, center.y() - radius, 2 * radius, 2 * radius),
        Qt.AlignmentFlag.AlignCenter,
        seat_mark(seat),
    )


def glyph(p: QPainter, kind: str, c: QPointF, s: float, ink: QColor) -> None:
    """The kind's symbol centred on ``c``, about ``s`` pixels across."""
    pen = QPen(ink, max(1.2, s * 0.12), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    h = s / 2
    x, y = c.x(), c.y()
    if kind in ("command", "mothership", "decoy"):
        pts = []
        for i in range(10):
            rr = h if i % 2 == 0 else h * 0.45
            a = math.radians(-90 + 36 * i)
            pts.append(QPointF(x + rr * math.cos(a), y + rr * math.sin(a)))
        p.setBrush(ink)
        p.drawPolygon(QPolygonF(pts))
    elif kind == "runner":
        for dx in (-0.45, 0.15):
            path = QPainterPath(QPointF(x + (dx - 0.2) * h, y - 0.6 * h))
            path.lineTo(QPointF(x + (dx + 0.3) * h, y))
            path.lineTo(QPointF(x + (dx - 0.2) * h, y + 0.6 * h))
            p.drawPath(path)
    elif kind == "climber":
        p.setBrush(ink)
        p.drawPolygon(
            QPolygonF([QPointF(x, y - 0.75 * h), QPointF(x + 0.7 * h, y + 0.1 * h), QPointF(x - 0.7 * h, y + 0.1 * h)])
        )
        p.drawLine(QPointF(x - 0.6 * h, y + 0.55 * h), QPointF(x + 0.6 * h, y + 0.55 * h))
    elif kind == "netcaster":
        p.drawEllipse(c, h * 0.35, h * 0.35)
        p.drawPolygon(hexagon(c, h * 0.8))
        for i in range(6):
            a = math.radians(60 * i - 30)
            p.drawLine(c, QPointF(x + 0.8 * h * math.cos(a), y + 0.8 * h * math.sin(a)))
    elif kind == "jumper":
        path = QPainterPath(QPointF(x - 0.75 * h, y + 0.5 * h))
        path.quadTo(QPointF(x, y - 1.1 * h), QPointF(x + 0.75 * h, y + 0.5 * h))
        p.drawPath(path)
        p.setBrush(ink)
        p.drawEllipse(QPointF(x + 0.75 * h, y + 0.5 * h), h * 0.18, h * 0.18)
        p.drawEllipse(QPointF(x - 0.75 * h, y + 0.5 * h), h * 0.12, h * 0.12)
    elif kind == "wreck":
        p.setPen(QPen(QColor("#9aa0a6"), max(1.0, s * 0.09)))
        p.drawLine(QPointF(x - 0.7 * h, y - 0.5 * h), QPointF(x - 0.05 * h, y + 0.05 * h))
        p.drawLine(QPointF(x - 0.05 * h, y + 0.05 * h), QPointF(x + 0.2 * h, y - 0.6 * h))
        p.drawLine(QPointF(x - 0.05 * h, y + 0.05 * h), QPointF(x + 0.6 * h, y + 0.55 * h))
        p.drawLine(QPointF(x - 0.05 * h, y + 0.05 * h), QPointF(x - 0.45 * h, y + 0.7 * h))


def unit(
    p: QPainter, c: QPointF, r: float, owner: int, kind: str, highlight: bool = False, letter: bool = True
) -> None:
    """A unit tile: a hexagon in its Network's colour, its glyph, and (``letter``) its Network's letter.

    A board draws the letters itself, after every tile (:func:`unit_letter`): a neighbouring tile
    drawn later would otherwise cover part of the letter, and the letter is the colour-blind cue.
    """
    fill = seat_colour(owner) if kind != "wreck" else WRECK_FILL
    shadow = hexagon(QPointF(c.x() + r * 0.06, c.y() + r * 0.1), r * 0.92)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 110))
    p.drawPolygon(shadow)
    p.setPen(QPen(GOLD if highlight else fill.darker(170), max(1.5, r * (0.12 if highlight else 0.07))))
    p.setBrush(QBrush(fill))
    p.drawPolygon(hexagon(c, r * 0.9))
    if kind != "wreck":
        p.setPen(QPen(fill.lighter(135), max(1.0, r * 0.04)))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolygon(hexagon(c, r * 0.74))
    glyph(p, kind, QPointF(c.x(), c.y() + r * 0.05), r * 0.95, ink_for(fill))
    if letter:
        unit_letter(p, c, r, owner)


def unit_letter(p: QPainter, c: QPointF, r: float, owner: int) -> None:
    """The Network letter of the unit centred at ``c`` (none for a Wreck, none when too small to read)."""
    if owner >= 0 and r >= 9:
        mark_badge(p, QPointF(c.x() + r * 0.52, c.y() - r * 0.5), r * 0.24, owner)


def identity_badge(p: QPainter, c: QPointF, r: float, identity: str) -> None:
    """The owner's own M (MotherShip) or D (Decoy) marker — never drawn for someone else's unit."""
    centre = QPointF(c.x() - r * 0.52, c.y() + r * 0.48)
    rad = r * 0.26
    if identity == "decoy":
        p.setPen(QPen(QColor("#ffffff"), max(1.0, r * 0.06), Qt.PenStyle.DashLine))
        p.setBrush(QColor("#d0307a"))
        text = "D"
    else:
        p.setPen(QPen(QColor("#3a2a00"), max(1.0, r * 0.05)))
        p.setBrush(GOLD)
        text = "M"
    p.drawEllipse(centre, rad, rad)
    p.setPen(QColor("#ffffff") if identity == "decoy" else QColor("#3a2a00"))
    _font(p, rad * 1.4)
    p.drawText(QRectF(centre.x() - rad, centre.y() - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, text)


def frozen_net(p: QPainter, c: QPointF, r: float) -> None:
    """Immobilised by an armed trap: a pale blue net over the tile."""
    p.setPen(QPen(QColor(170, 225, 255, 230), max(1.0, r * 0.06)))
    p.setBrush(QColor(120, 190, 255, 60))
    poly = hexagon(c, r * 0.9)
    p.drawPolygon(poly)
    for i in range(3):
        a, b = poly.at(i), poly.at(i + 3)
        p.drawLine(a, b)


def blocked_sign(p: QPainter, c: QPointF, r: float) -> None:
    """Blocked by a Virus this turn: a red circle with a bar."""
    centre = QPointF(c.x() + r * 0.5, c.y() + r * 0.45)
    rad = r * 0.24
    p.setPen(QPen(QColor("#ffffff"), max(1.0, r * 0.05)))
    p.setBrush(QColor("#c62828"))
    p.drawEllipse(centre, rad, rad)
    p.setPen(QPen(QColor("#ffffff"), max(1.5, r * 0.08)))
    p.drawLine(QPointF(centre.x() - rad * 0.6, centre.y()), QPointF(centre.x() + rad * 0.6, centre.y()))


def virus_dot(p: QPainter, c: QPointF, rad: float, colour: QColor | None = None) -> None:
    """The Virus: a magenta ball with spikes."""
    colour = colour or VIRUS
    p.setPen(QPen(colour.darker(160), max(1.0, rad * 0.25)))
    for i in range(8):
        a = math.radians(45 * i)
        p.drawLine(c, QPointF(c.x() + rad * 1.45 * math.cos(a), c.y() + rad * 1.45 * math.sin(a)))
    p.setBrush(colour)
    p.drawEllipse(c, rad, rad)


def virus_outline(p: QPainter, poly: QPolygonF, width: float) -> None:
    """The Virus's outline: black underneath, magenta dashes on top (unlike any Network's ring)."""
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(QColor(0, 0, 0, 230), width * 1.8))
    p.drawPolygon(poly)
    p.setPen(QPen(VIRUS, width, Qt.PenStyle.DashLine))
    p.drawPolygon(poly)


def targeted_ring(p: QPainter, c: QPointF, r: float) -> None:
    virus_outline(p, hexagon(c, r * 1.02), max(1.5, r * 0.08))


def trap(p: QPainter, c: QPointF, r: float, owner: int, armed: bool | None) -> None:
    """A live trap hex: a web in its owner's colour; the owner sees armed (solid, "!") or bluff (dashed)."""
    colour = seat_colour(owner)
    style = Qt.PenStyle.DashLine if armed is False else Qt.PenStyle.SolidLine
    p.setPen(QPen(colour, max(1.2, r * 0.07), style))
    p.setBrush(QColor(colour.red(), colour.green(), colour.blue(), 45))
    p.drawPolygon(hexagon(c, r * 0.8))
    for i in range(3):
        a = math.radians(60 * i - 30)
        d = QPointF(r * 0.8 * math.cos(a), r * 0.8 * math.sin(a))
        p.drawLine(c - d, c + d)
    p.setBrush(QColor(0, 0, 0, 170))
    p.setPen(QPen(colour, max(1.0, r * 0.05)))
    rad = r * 0.25
    p.drawEllipse(c, rad, rad)
    text = "!" if armed else ("~" if armed is False else "?")
    p.setPen(QColor("#ffffff"))
    _font(p, rad * 1.5)
    p.drawText(QRectF(c.x() - rad, c.y() - rad, 2 * rad, 2 * rad), Qt.AlignmentFlag.AlignCenter, text)


def core(p: QPainter, c: QPointF, r: float) -> None:
    """A Data Core: a glowing cyan crystal."""
    p.setPen(Qt.PenStyle.NoPen)
    for k, alpha in ((0.75, 40), (0.55, 70)):
        p.setBrush(QColor(CORE.red(), CORE.green(), CORE.blue(), alpha))
        p.drawEllipse(c, r * k, r * k)
    h = r * 0.42
    p.setPen(QPen(QColor("#e8ffff"), max(1.0, r * 0.05)))
    p.setBrush(CORE)
    p.drawPolygon(
        QPolygonF(
            [
                QPointF(c.x(), c.y() - h),
                QPointF(c.x() + h * 0.65, c.y()),
                QPointF(c.x(), c.y() + h),
                QPointF(c.x() - h * 0.65, c.y()),
            ]
        )
    )


def height_badge(p: QPainter, c: QPointF, r: float, height: int) -> None:
    """The number of layers of a stack, on its top unit."""
    rect = QRectF(c.x() - r * 0.3, c.y() - r * 1.12, r * 0.6, r * 0.36)
    p.setPen(QPen(QColor("#000000"), max(1.0, r * 0.04)))
    p.setBrush(QColor("#fff7d6"))
    p.drawRoundedRect(rect, r * 0.1, r * 0.1)
    p.setPen(QColor("#222222"))
    _font(p, r * 0.3)
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"×{height}")


def background(p: QPainter, rect: QRectF) -> None:
    """Deep slate rather than the card games' green felt: all ten Network colours stand out on it."""
    grad = QRadialGradient(rect.center(), max(rect.width(), rect.height()) * 0.7)
    grad.setColorAt(0, QColor("#2b3440"))
    grad.setColorAt(1, QColor("#11161c"))
    p.fillRect(rect, QBrush(grad))
