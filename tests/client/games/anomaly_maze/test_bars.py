"""The maze's HP and MP labels stay readable wherever the bar's fill ends (no dark on dark, no white on yellow)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from client.games.anomaly_maze import paint
from client.games.anomaly_maze.table import PlayerCard

CARD = QColor(8, 20, 16)


def _luminance(c: QColor) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.red()) + 0.7152 * lin(c.green()) + 0.0722 * lin(c.blue())


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _bar(share: float, colour: QColor, text: str) -> QImage:
    image = QImage(240, 18, QImage.Format.Format_RGB32)
    image.fill(CARD)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    PlayerCard._bar(p, QRectF(0, 0, 240, 18), share, colour, text)
    p.end()
    return image


def _best_contrast(with_text: QImage, without: QImage, x0: int, x1: int) -> float:
    """The strongest contrast between a text pixel and the bar behind it, in columns x0..x1."""
    best = 1.0
    for x in range(x0, x1):
        for y in range(with_text.height()):
            a, b = with_text.pixelColor(x, y), without.pixelColor(x, y)
            best = max(best, _contrast(a, b))
    return best


@pytest.mark.parametrize(
    ("share", "colour"),
    [(0.5, paint.hp_colour(0.5)), (0.3, paint.hp_colour(0.3)), (0.4, paint.GOLD), (0.55, paint.GOLD)],
)
def test_each_half_of_the_label_contrasts_with_what_lies_behind_it(qtbot, share, colour):
    text = "HP 88/88 · 88888"
    with_text, without = _bar(share, colour, text), _bar(share, colour, "")
    edge = int(240 * share)
    columns = [x for x in range(240) if with_text.pixelColor(x, 9) != without.pixelColor(x, 9)]
    assert columns, "the label is drawn"
    left, right = min(columns), max(columns)
    assert left < edge - 6 and right > edge + 6, "the label straddles the fill's edge"
    assert _best_contrast(with_text, without, left, edge - 2) >= 4.0, "readable on the fill"
    assert _best_contrast(with_text, without, edge + 2, right + 1) >= 4.0, "readable on the track"


@pytest.mark.parametrize("language", ["en", "pl", "ru"])
def test_an_off_board_players_status_wraps_instead_of_being_cut_off(qtbot, language):
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QFontMetrics

    from client.games.anomaly_maze.present import status_text
    from client.i18n import LANGUAGE
    from engines.core import Knowledge, registry

    LANGUAGE.set(language)
    try:
        state = registry.get("anomaly-maze").new_state(2, {})
        player = dict(state.view(Knowledge(None))["players"][0])
        player.update(on_board=False, cell=None, countdown=0, blocked=2)
        card = PlayerCard(0)
        qtbot.addWidget(card)
        card.resize(230, 100)
        card.show()
        card.show_player("Ada", player, 15, False)
        text = status_text(player)
        metrics = QFontMetrics(card._status_font())
        needed = metrics.boundingRect(QRect(0, 0, card.width() - 24, 10_000), int(Qt.TextFlag.TextWordWrap), text)
        assert card.height() >= card.STATUS_TOP + needed.height(), "every status line fits the card"
    finally:
        LANGUAGE.set("en")
