"""Collective Conflict's first-game guide: place, activate, move, then the goal — taught by playing."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from client.games.collective_conflict.table import CollectiveConflictTable
from client.ui.guide import GuideStep


def _reserve(table: CollectiveConflictTable) -> list[QWidget]:
    return [b for b in table.reserve_buttons.values() if b.isVisible() and b.isEnabled()]


def steps() -> list[GuideStep[CollectiveConflictTable]]:
    return [
        GuideStep("guide.cc.place", frozenset({"place"}), lambda table: [*_reserve(table), table.board]),
        GuideStep("guide.cc.move", frozenset({"move", "jump", "cast"}), lambda table: [table.board]),
        GuideStep("guide.cc.goal", frozenset(), lambda table: [table.board]),
    ]
