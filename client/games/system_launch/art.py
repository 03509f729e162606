"""System Launch's card art, drawn in code with QPainter.

Everything is vector drawing in logical coordinates (paths, gradients, text),
so it is crisp at any size and on any device pixel ratio: Qt scales the
painter for high-DPI screens and nothing here is a bitmap.  A card face has a
coloured band by category (Part blue, Protection green, Event red/amber), a
pictogram for its kind and its name; the back is a shared circuit pattern.
The felt under the cards is every game's: :mod:`client.ui.art`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
)

from client import qtguard  # noqa: F401  (first: guards against a PySide6 crash on CPython 3.11)

#: Card proportions (width : height) and the standard logical size.
CARD_W, CARD_H = 86, 120

PART, PROTECTION, EVENT = "part", "protection", "event"

_CATEGORY = {
    "Processor": PART,
    "RAM": PART,
    "HardDrive": PART,
    "GraphicsCard": PART,
    "Antivirus": PROTECTION,
    "Firewall": PROTECTION,
    "Password": PROTECTION,
    "Crash": EVENT,
    "HackerAttack": EVENT,
    "Phishing": EVENT,
    "Upgrade": EVENT,
}

_PALETTE = {
    PART: (QColor("#1f5fa8"), QColor("#e8f1fb")),
    PROTECTION: (QColor("#23804f"), QColor("#e7f6ee")),
    EVENT: (QColor("#b3372b"), QColor("#fcebe7")),
}
_UPGRADE = (QColor("#b7791f"), QColor("#fdf3e1"))

INK = QColor("#1b2430")


def category(kind: str) -> str:
    return _CATEGORY.get(kind, EVENT)


def colours(kind: str) -> tuple[QColor, QColor]:
    """(band colour, paper colour) of a card kind."""
    if kind == "Upgrade":
        return _UPGRADE
    return _PALETTE[category(kind)]


def fitted_font(base: QFont, text: str, width: float, height: float, size: float) -> QFont:
    """A bold font no larger than ``size`` px in which ``text`` fits ``width`` x ``height`` (wrapping allowed)."""
    font = QFont(base)
    font.setBold(True)
    px = max(5.0, size)
    while True:
        font.setPixelSize(max(5, int(px)))
        metrics = QFontMetricsF(font)
        one_line = metrics.horizontalAdvance(text) <= width
        words = text.split()
        longest = max((metrics.horizontalAdvance(w) for w in words), default=0.0)
        two_lines = len(words) > 1 and longest <= width and metrics.height() * 2 <= height
        if one_line or two_lines or px <= 5:
            return font
        px -= 0.5


def _rounded(rect: QRectF, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(rect, radius, radius)
    return path


def paint_card_face(
    p: QPainter,
    rect: QRectF,
    kind: str,
    title: str,
    *,
    selected: bool = False,
    dimmed: bool = False,
    caption: str = "",
) -> None:
    """A face-up card of ``kind`` with its translated ``title``."""
    band, paper = colours(kind)
    radius = rect.width() * 0.09
    p.save()
    _card_sheet(p, rect, radius, paper.lighter(104), paper.darker(106), band.darker(130))
    # band with the name
    band_h = rect.height() * 0.2
    band_rect = QRectF(rect.left(), rect.top(), rect.width(), band_h)
    p.save()
    p.setClipPath(_rounded(rect, radius))
    p.setPen(Qt.PenStyle.NoPen)
    bgrad = QLinearGradient(band_rect.topLeft(), band_rect.bottomLeft())
    bgrad.setColorAt(0, band.lighter(115))
    bgrad.setColorAt(1, band)
    p.setBrush(QBrush(bgrad))
    p.drawRect(band_rect)
    p.restore()
    font = fitted_font(p.font(), title, band_rect.width() - 6, band_rect.height(), rect.width() * 0.118)
    p.setFont(font)
    p.setPen(QColor("white"))
    p.drawText(band_rect.adjusted(3, 0, -3, 0), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, title)
    # pictogram
    icon = QRectF(
        rect.left() + rect.width() * 0.18,
        rect.top() + band_h + rect.height() * 0.1,
        rect.width() * 0.64,
        rect.width() * 0.64,
    )
    paint_icon(p, icon, kind, band)
    # category strip at the bottom
    if caption:
        font.setBold(False)
        font.setPixelSize(max(6, int(rect.width() * 0.095)))
        p.setFont(font)
        p.setPen(band.darker(120))
        foot = QRectF(rect.left(), rect.bottom() - rect.height() * 0.17, rect.width(), rect.height() * 0.14)
        p.drawText(foot, Qt.AlignmentFlag.AlignCenter, caption)
    if dimmed:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(20, 24, 30, 110))
        p.drawPath(_rounded(rect, radius))
    if selected:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor("#ffd54a"), max(2.0, rect.width() * 0.045)))
        p.drawPath(_rounded(rect.adjusted(-1, -1, 1, 1), radius))
    p.restore()


def _card_sheet(p: QPainter, rect: QRectF, radius: float, top: QColor, bottom: QColor, edge: QColor) -> None:
    """The card itself, face or back: its shadow, then the sheet in a diagonal gradient with its edge."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 70))
    p.drawPath(_rounded(rect.translated(1.5, 2.5), radius))
    grad = QLinearGradient(rect.topLeft(), rect.bottomRight())
    grad.setColorAt(0, top)
    grad.setColorAt(1, bottom)
    p.setBrush(QBrush(grad))
    p.setPen(QPen(edge, max(1.0, rect.width() * 0.015)))
    p.drawPath(_rounded(rect, radius))


def paint_card_back(p: QPainter, rect: QRectF) -> None:
    """The shared back: deep blue with a gold circuit pattern."""
    radius = rect.width() * 0.09
    p.save()
    _card_sheet(p, rect, radius, QColor("#2b3f7a"), QColor("#16214a"), QColor("#0d1430"))
    inner = rect.adjusted(rect.width() * 0.09, rect.width() * 0.09, -rect.width() * 0.09, -rect.width() * 0.09)
    gold = QColor("#d9b45a")
    p.setPen(QPen(gold, max(0.8, rect.width() * 0.018)))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(_rounded(inner, radius * 0.6))
    # circuit traces
    p.setClipPath(_rounded(inner, radius * 0.6))
    step = inner.width() / 4
    pen = QPen(QColor(217, 180, 90, 150), max(0.7, rect.width() * 0.014))
    p.setPen(pen)
    for i in range(1, 4):
        x = inner.left() + i * step
        p.drawLine(QPointF(x, inner.top()), QPointF(x, inner.top() + inner.height() * (0.25 + 0.1 * i)))
        p.drawLine(QPointF(x, inner.bottom()), QPointF(x, inner.bottom() - inner.height() * (0.25 + 0.1 * (4 - i))))
    dot = rect.width() * 0.035
    p.setBrush(gold)
    for i in range(1, 4):
        x = inner.left() + i * step
        p.drawEllipse(QPointF(x, inner.top() + inner.height() * (0.25 + 0.1 * i)), dot, dot)
        p.drawEllipse(QPointF(x, inner.bottom() - inner.height() * (0.25 + 0.1 * (4 - i))), dot, dot)
    p.setClipping(False)
    # emblem: a sealed padlock-ish seal in the middle
    c = rect.center()
    r = rect.width() * 0.2
    p.setBrush(QColor("#16214a"))
    p.setPen(QPen(gold, max(1.0, rect.width() * 0.03)))
    p.drawEllipse(c, r, r)
    font = QFont(p.font())
    font.setBold(True)
    font.setPixelSize(max(7, int(r * 1.1)))
    p.setFont(font)
    p.setPen(gold)
    p.drawText(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, "ST")
    p.restore()


def paint_empty_slot(p: QPainter, rect: QRectF, label: str = "") -> None:
    """A dashed outline where a card could lie (empty System or deck)."""
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(255, 255, 255, 70), max(1.0, rect.width() * 0.02), Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(QColor(255, 255, 255, 12))
    p.drawPath(_rounded(rect, rect.width() * 0.09))
    if label:
        font = QFont(p.font())
        font.setPixelSize(max(7, int(rect.width() * 0.12)))
        p.setFont(font)
        p.setPen(QColor(255, 255, 255, 140))
        p.drawText(rect.adjusted(4, 4, -4, -4), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, label)
    p.restore()


# -- pictograms ------------------------------------------------------------------
def paint_icon(p: QPainter, r: QRectF, kind: str, colour: QColor) -> None:
    """The pictogram of ``kind`` inside square ``r``."""
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    w = r.width()
    pen = QPen(colour.darker(110), max(1.2, w * 0.05), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    light = QColor(colour)
    light.setAlpha(45)
    p.setBrush(light)
    draw = _ICONS.get(kind, _icon_unknown)
    draw(p, r, colour)
    p.restore()


def _icon_processor(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    core = r.adjusted(w * 0.22, w * 0.22, -w * 0.22, -w * 0.22)
    p.drawRoundedRect(core, w * 0.05, w * 0.05)
    for i in range(4):
        t = core.left() + core.width() * (0.2 + 0.2 * i)
        s = core.top() + core.height() * (0.2 + 0.2 * i)
        p.drawLine(QPointF(t, core.top()), QPointF(t, r.top() + w * 0.08))
        p.drawLine(QPointF(t, core.bottom()), QPointF(t, r.bottom() - w * 0.08))
        p.drawLine(QPointF(core.left(), s), QPointF(r.left() + w * 0.08, s))
        p.drawLine(QPointF(core.right(), s), QPointF(r.right() - w * 0.08, s))
    p.setBrush(c)
    p.drawRect(core.adjusted(core.width() * 0.3, core.height() * 0.3, -core.width() * 0.3, -core.height() * 0.3))


def _icon_ram(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    stick = QRectF(r.left() + w * 0.04, r.top() + w * 0.3, w * 0.92, w * 0.34)
    p.drawRoundedRect(stick, w * 0.03, w * 0.03)
    p.setBrush(c)
    for i in range(4):
        chip = QRectF(stick.left() + w * (0.07 + 0.215 * i), stick.top() + w * 0.07, w * 0.15, w * 0.16)
        p.drawRect(chip)
    p.setBrush(Qt.BrushStyle.NoBrush)
    for i in range(9):
        x = stick.left() + w * 0.06 + i * w * 0.1
        p.drawLine(QPointF(x, stick.bottom()), QPointF(x, stick.bottom() + w * 0.1))


def _icon_hard_drive(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    body = r.adjusted(w * 0.12, w * 0.04, -w * 0.12, -w * 0.04)
    p.drawRoundedRect(body, w * 0.06, w * 0.06)
    centre = QPointF(body.center().x(), body.top() + body.height() * 0.42)
    p.drawEllipse(centre, w * 0.27, w * 0.27)
    p.setBrush(c)
    p.drawEllipse(centre, w * 0.06, w * 0.06)
    p.drawLine(QPointF(body.right() - w * 0.1, body.bottom() - w * 0.1), centre + QPointF(w * 0.12, w * 0.14))
    p.drawEllipse(QPointF(body.left() + w * 0.1, body.bottom() - w * 0.1), w * 0.03, w * 0.03)


def _icon_graphics(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    board = QRectF(r.left() + w * 0.02, r.top() + w * 0.22, w * 0.96, w * 0.48)
    p.drawRoundedRect(board, w * 0.04, w * 0.04)
    for cx in (0.3, 0.7):
        centre = QPointF(r.left() + w * cx, board.center().y())
        p.drawEllipse(centre, w * 0.16, w * 0.16)
        for k in range(4):
            a = k * math.pi / 2 + 0.4
            p.drawLine(centre, centre + QPointF(math.cos(a) * w * 0.14, math.sin(a) * w * 0.14))
    p.setBrush(c)
    p.drawRect(QRectF(board.left() + w * 0.1, board.bottom(), w * 0.5, w * 0.08))


def _shield(r: QRectF) -> QPainterPath:
    w = r.width()
    path = QPainterPath()
    top = r.top() + w * 0.04
    path.moveTo(r.center().x(), top)
    path.cubicTo(
        QPointF(r.center().x() + w * 0.2, top + w * 0.1),
        QPointF(r.right() - w * 0.1, top + w * 0.08),
        QPointF(r.right() - w * 0.1, top + w * 0.12),
    )
    path.cubicTo(
        QPointF(r.right() - w * 0.1, top + w * 0.6),
        QPointF(r.center().x() + w * 0.2, r.bottom() - w * 0.1),
        QPointF(r.center().x(), r.bottom() - w * 0.02),
    )
    path.cubicTo(
        QPointF(r.center().x() - w * 0.2, r.bottom() - w * 0.1),
        QPointF(r.left() + w * 0.1, top + w * 0.6),
        QPointF(r.left() + w * 0.1, top + w * 0.12),
    )
    path.cubicTo(
        QPointF(r.left() + w * 0.1, top + w * 0.08),
        QPointF(r.center().x() - w * 0.2, top + w * 0.1),
        QPointF(r.center().x(), top),
    )
    return path


def _icon_antivirus(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    p.drawPath(_shield(r))
    centre = QPointF(r.center().x(), r.center().y() - w * 0.02)
    pen = p.pen()
    pen.setWidthF(w * 0.1)
    pen.setColor(c)
    p.setPen(pen)
    p.drawLine(centre - QPointF(0, w * 0.18), centre + QPointF(0, w * 0.18))
    p.drawLine(centre - QPointF(w * 0.18, 0), centre + QPointF(w * 0.18, 0))


def _icon_firewall(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    wall = QRectF(r.left() + w * 0.06, r.top() + w * 0.38, w * 0.88, w * 0.56)
    rows = 3
    h = wall.height() / rows
    for row in range(rows):
        off = 0.0 if row % 2 == 0 else w * 0.11
        x = wall.left() - off
        while x < wall.right():
            brick = QRectF(
                max(x, wall.left()), wall.top() + row * h, min(w * 0.22, wall.right() - max(x, wall.left())), h
            )
            if brick.width() > 1:
                p.drawRect(brick)
            x += w * 0.22
    flame = QPainterPath()
    base = QPointF(r.center().x(), wall.top())
    flame.moveTo(base + QPointF(-w * 0.22, 0))
    flame.cubicTo(
        base + QPointF(-w * 0.3, -w * 0.2), base + QPointF(-w * 0.05, -w * 0.2), base + QPointF(-w * 0.02, -w * 0.36)
    )
    flame.cubicTo(base + QPointF(w * 0.12, -w * 0.22), base + QPointF(w * 0.3, -w * 0.18), base + QPointF(w * 0.22, 0))
    flame.closeSubpath()
    p.setBrush(QColor("#e98b2a"))
    p.drawPath(flame)


def _icon_password(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    body = QRectF(r.left() + w * 0.18, r.top() + w * 0.44, w * 0.64, w * 0.5)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawArc(QRectF(r.center().x() - w * 0.2, r.top() + w * 0.08, w * 0.4, w * 0.56), 0, 180 * 16)
    p.drawLine(QPointF(r.center().x() - w * 0.2, r.top() + w * 0.36), QPointF(r.center().x() - w * 0.2, body.top()))
    p.drawLine(QPointF(r.center().x() + w * 0.2, r.top() + w * 0.36), QPointF(r.center().x() + w * 0.2, body.top()))
    light = QColor(c)
    light.setAlpha(45)
    p.setBrush(light)
    p.drawRoundedRect(body, w * 0.06, w * 0.06)
    p.setBrush(c)
    for i in range(3):
        p.drawEllipse(QPointF(body.left() + body.width() * (0.25 + 0.25 * i), body.center().y()), w * 0.045, w * 0.045)


def _icon_crash(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    screen = QRectF(r.left() + w * 0.06, r.top() + w * 0.1, w * 0.88, w * 0.62)
    p.drawRoundedRect(screen, w * 0.05, w * 0.05)
    p.drawLine(QPointF(r.center().x(), screen.bottom()), QPointF(r.center().x(), r.bottom() - w * 0.08))
    p.drawLine(
        QPointF(r.center().x() - w * 0.2, r.bottom() - w * 0.08),
        QPointF(r.center().x() + w * 0.2, r.bottom() - w * 0.08),
    )
    bolt = QPainterPath()
    bolt.moveTo(screen.left() + w * 0.5, screen.top() + w * 0.06)
    bolt.lineTo(screen.left() + w * 0.3, screen.top() + w * 0.34)
    bolt.lineTo(screen.left() + w * 0.46, screen.top() + w * 0.34)
    bolt.lineTo(screen.left() + w * 0.36, screen.bottom() - w * 0.06)
    bolt.lineTo(screen.left() + w * 0.62, screen.top() + w * 0.26)
    bolt.lineTo(screen.left() + w * 0.46, screen.top() + w * 0.26)
    bolt.closeSubpath()
    p.setBrush(QColor("#f2c230"))
    p.drawPath(bolt)


def _icon_hacker(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    hood = QPainterPath()
    hood.moveTo(r.left() + w * 0.1, r.bottom() - w * 0.04)
    hood.cubicTo(
        QPointF(r.left() + w * 0.1, r.top() + w * 0.1),
        QPointF(r.right() - w * 0.1, r.top() + w * 0.1),
        QPointF(r.right() - w * 0.1, r.bottom() - w * 0.04),
    )
    hood.closeSubpath()
    p.setBrush(c.darker(140))
    p.drawPath(hood)
    face = QRectF(r.center().x() - w * 0.2, r.top() + w * 0.3, w * 0.4, w * 0.44)
    p.setBrush(QColor("#20252c"))
    p.drawEllipse(face)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#7dff9a"))
    for dx in (-0.08, 0.08):
        p.drawEllipse(QPointF(face.center().x() + w * dx, face.center().y() - w * 0.03), w * 0.04, w * 0.025)


def _icon_phishing(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawLine(QPointF(r.center().x(), r.top() + w * 0.02), QPointF(r.center().x(), r.top() + w * 0.5))
    hook = QPainterPath()
    hook.moveTo(r.center().x(), r.top() + w * 0.5)
    hook.cubicTo(
        QPointF(r.center().x(), r.top() + w * 0.85),
        QPointF(r.center().x() - w * 0.3, r.top() + w * 0.85),
        QPointF(r.center().x() - w * 0.28, r.top() + w * 0.58),
    )
    p.drawPath(hook)
    p.drawLine(
        QPointF(r.center().x() - w * 0.28, r.top() + w * 0.58), QPointF(r.center().x() - w * 0.2, r.top() + w * 0.66)
    )
    env = QRectF(r.center().x() - w * 0.05, r.top() + w * 0.52, w * 0.42, w * 0.3)
    light = QColor("#ffffff")
    p.setBrush(light)
    p.drawRect(env)
    p.drawLine(env.topLeft(), QPointF(env.center().x(), env.center().y() + w * 0.02))
    p.drawLine(env.topRight(), QPointF(env.center().x(), env.center().y() + w * 0.02))


def _icon_upgrade(p: QPainter, r: QRectF, c: QColor) -> None:
    w = r.width()
    arrow = QPainterPath()
    cx = r.center().x()
    arrow.moveTo(cx, r.top() + w * 0.04)
    arrow.lineTo(r.right() - w * 0.12, r.top() + w * 0.46)
    arrow.lineTo(cx + w * 0.16, r.top() + w * 0.46)
    arrow.lineTo(cx + w * 0.16, r.bottom() - w * 0.06)
    arrow.lineTo(cx - w * 0.16, r.bottom() - w * 0.06)
    arrow.lineTo(cx - w * 0.16, r.top() + w * 0.46)
    arrow.lineTo(r.left() + w * 0.12, r.top() + w * 0.46)
    arrow.closeSubpath()
    grad = QLinearGradient(QPointF(cx, r.top()), QPointF(cx, r.bottom()))
    grad.setColorAt(0, QColor("#f6c445"))
    grad.setColorAt(1, c)
    p.setBrush(QBrush(grad))
    p.drawPath(arrow)


def _icon_unknown(p: QPainter, r: QRectF, c: QColor) -> None:
    p.drawEllipse(r.adjusted(r.width() * 0.1, r.width() * 0.1, -r.width() * 0.1, -r.width() * 0.1))


_ICONS = {
    "Processor": _icon_processor,
    "RAM": _icon_ram,
    "HardDrive": _icon_hard_drive,
    "GraphicsCard": _icon_graphics,
    "Antivirus": _icon_antivirus,
    "Firewall": _icon_firewall,
    "Password": _icon_password,
    "Crash": _icon_crash,
    "HackerAttack": _icon_hacker,
    "Phishing": _icon_phishing,
    "Upgrade": _icon_upgrade,
}
