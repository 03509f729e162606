"""How the shared screens show Anomaly Maze (its module is named in :data:`client.registry.KIT_MODULES`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QApplication, QLabel, QWidget

from client.games.anomaly_maze.guide import steps as guide_steps
from client.games.anomaly_maze.lobby_art import MazeArt
from client.games.anomaly_maze.present import MazeLogWriter, seat_name
from client.games.anomaly_maze.table import AnomalyMazeTable
from client.games.kit import GameKit
from client.games.log import LogLine
from client.games.showcase import Shot, ShowcaseWindow
from client.i18n import tr
from client.play.source import GameSource
from engines.core import GameOver, Knowledge


def _show_live(table: AnomalyMazeTable, game: GameSource, delay_ms: int) -> None:
    table.show_view(game.view(), game.knowledge, game.legal(), delay_ms=delay_ms)


def _show_frame(table: AnomalyMazeTable, view: dict[str, Any], knowledge: Knowledge) -> None:
    table.show_view(view, knowledge, (), interactive=False)


def _over_banner(over: GameOver, names: Sequence[str], me: int | None) -> str:
    if not over.winners:
        return tr("maze.log.draw")
    if over.winners[0] == me:
        return tr("maze.you_win")
    return tr("maze.log.won", name=seat_name(names, over.winners[0]))


def _report_row(view: dict[str, Any], seat: int) -> QWidget:
    player = view["players"][seat]
    label = QLabel(tr("maze.report.row", mp=player["mp"], hp=max(0, player["hp"])))
    label.setStyleSheet("font-size: 15px;")
    return label


def _headline(lines: Sequence[LogLine]) -> LogLine:
    """The step's news for the banner: its last eventful line (a roll, a chest, a Respawn), else its last."""
    eventful = [line for line in lines if line.tone != "plain"]
    return eventful[-1] if eventful else lines[-1]


def _bot_names(level: str, count: int) -> list[str]:
    return [tr("maze.ai_name", level=tr(f"level.{level}"))] * count


def _showcase(window: ShowcaseWindow[AnomalyMazeTable], shot: Shot, app: QApplication) -> None:
    from client.games.anomaly_maze.showcase import maze_shots  # only the screenshots need it

    maze_shots(window, shot, app)


KIT = GameKit(
    name="anomaly-maze",
    make_table=AnomalyMazeTable,
    make_writer=MazeLogWriter,
    show_live=_show_live,
    show_frame=_show_frame,
    over_banner=_over_banner,
    report_row=_report_row,
    reset_choice=AnomalyMazeTable.reset_choice,
    headline=_headline,
    secrets=False,
    table_ready=lambda public: public["phase"] != "setup",  # the tiles are laid one chance at a time
    levels=("easy", "normal", "hard"),
    default_level="normal",
    bot_names=_bot_names,
    lobby_art=MazeArt,
    forfeit_note=lambda active: tr("maze.forfeit"),  # docs/rules/anomaly-maze-engine.md, "Winning"
    showcase=_showcase,
    guide=guide_steps,
)
