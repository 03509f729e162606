"""Every Network's colour stays apart from the other Networks', the white legal-target mark and the Virus."""

from __future__ import annotations

import itertools

from PySide6.QtGui import QColor

from client.games.collective_conflict.paint import COLOURS, VIRUS


def _distance(a: QColor, b: QColor) -> float:
    return float(((a.red() - b.red()) ** 2 + (a.green() - b.green()) ** 2 + (a.blue() - b.blue()) ** 2) ** 0.5)


def test_no_network_colour_can_be_taken_for_a_target_or_the_virus():
    colours = [QColor(c) for c in COLOURS]
    assert len(colours) == 10
    for colour in colours:
        assert _distance(colour, QColor("white")) > 100, colour.name()
        assert _distance(colour, VIRUS) > 100, colour.name()
    for a, b in itertools.combinations(colours, 2):
        assert _distance(a, b) > 60, (a.name(), b.name())


def test_all_ten_networks_are_listed_without_scrolling(qtbot, window):
    window.start_local("collective-conflict", 10, seed=b"ten-rows", level="random")
    table = window.game_screen.table
    qtbot.waitUntil(lambda: len(table.networks.rows) == 10, timeout=10_000)
    scroll = table.networks_scroll
    qtbot.waitUntil(lambda: scroll.viewport().height() >= table.networks.height(), timeout=5_000)
    assert scroll.verticalScrollBar().maximum() == 0, "no Network row is hidden below the fold"
