"""How the shared screens show Collective Conflict (its module is named in :data:`client.registry.KIT_MODULES`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QApplication, QLabel, QWidget

from client.games.collective_conflict.guide import steps as guide_steps
from client.games.collective_conflict.lobby_art import StructureArt
from client.games.collective_conflict.present import CCLogWriter, network_name, reserve_text
from client.games.collective_conflict.table import CollectiveConflictTable
from client.games.kit import GameKit
from client.games.log import LogLine
from client.games.showcase import Shot, ShowcaseWindow
from client.i18n import tr
from client.play.source import GameSource
from engines.core import GameOver, Knowledge


def _show_live(table: CollectiveConflictTable, game: GameSource, delay_ms: int) -> None:
    table.show_view(game.view(), game.knowledge, game.legal(), delay_ms=delay_ms)


def _show_frame(table: CollectiveConflictTable, view: dict[str, Any], knowledge: Knowledge) -> None:
    table.show_view(view, knowledge, (), interactive=False)


def _over_banner(over: GameOver, names: Sequence[str], me: int | None) -> str:
    if len(over.winners) == 1:
        if over.winners[0] == me:
            return tr("cc.you_win")
        return tr("report.winner_plain", name=network_name(names, over.winners[0]))
    if not over.winners:
        return tr("report.draw_plain")
    return tr("cc.shared_draw", names=", ".join(network_name(names, s) for s in over.winners))


def _report_row(view: dict[str, Any], seat: int) -> QWidget:
    units = sum(1 for _, _, stack in view["stacks"] for _, owner, _ in stack if owner == seat)
    if view["active"][seat]:
        text = tr("cc.report.row", count=units, reserve=reserve_text(view["reserve"][seat], False))
    else:
        text = tr("cc.state.collapsed")
    label = QLabel(text)
    label.setStyleSheet("font-size: 15px;")
    return label


def _headline(lines: Sequence[LogLine]) -> LogLine:
    """The step's news for the banner: its last eventful line (a collapse, a reveal), else its last."""
    eventful = [line for line in lines if line.tone != "plain"]
    return eventful[-1] if eventful else lines[-1]


def _bot_names(level: str, count: int) -> list[str]:
    names = [n.strip() for n in tr("cc.bot_names").split(",")]
    return names[:count]


def _forfeit_note(active: int) -> str:
    """docs/rules/collective-conflict-engine.md: leaving (or being voted gone) collapses the Network."""
    return tr("cc.forfeit.two" if active == 2 else "cc.forfeit.many")


def _showcase(window: ShowcaseWindow[CollectiveConflictTable], shot: Shot, app: QApplication) -> None:
    from client.games.collective_conflict.showcase import cc_shots  # only the screenshots need it

    cc_shots(window, shot, app)


KIT = GameKit(
    name="collective-conflict",
    make_table=CollectiveConflictTable,
    make_writer=CCLogWriter,
    show_live=_show_live,
    show_frame=_show_frame,
    over_banner=_over_banner,
    report_row=_report_row,
    reset_choice=CollectiveConflictTable.reset_choice,
    headline=_headline,
    secrets=True,
    levels=("random", "greedy", "search"),
    default_level="greedy",
    bot_names=_bot_names,
    lobby_art=StructureArt,
    forfeit_note=_forfeit_note,
    showcase=_showcase,
    guide=guide_steps,
)
