"""The maze's first-game guide: one turn's three parts (anomaly, walk, then the goal), taught by playing."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from client.games.anomaly_maze.table import AnomalyMazeTable
from client.ui.guide import GuideStep


def _shown(table: AnomalyMazeTable, *keys: str) -> list[QWidget]:
    return [table.buttons[k] for k in keys if table.buttons[k].isVisible()]


def steps() -> list[GuideStep[AnomalyMazeTable]]:
    return [
        GuideStep(
            "guide.maze.anomaly",
            frozenset({"shift", "rotate"}),
            lambda table: [table.board, *_shown(table, "confirm", "rotate_left", "rotate_right")],
        ),
        GuideStep("guide.maze.walk", frozenset({"move"}), lambda table: [table.board, *_shown(table, "go", "stay")]),
        GuideStep("guide.maze.goal", frozenset(), lambda table: list(table.cards)),
    ]
