"""How the shared screens show System Launch (its module is named in :data:`client.registry.KIT_MODULES`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QApplication

from client.games.kit import GameKit
from client.games.showcase import Shot, ShowcaseWindow
from client.games.system_launch.guide import steps as guide_steps
from client.games.system_launch.lobby_art import BuildFan
from client.games.system_launch.present import LogWriter
from client.games.system_launch.table import SystemLaunchTable, face
from client.games.system_launch.widgets import CardRow
from client.i18n import LANGUAGE, tr
from client.i18n.seat_names import seat_name
from client.play.source import GameSource
from engines.core import GameOver, Knowledge


def _show_live(table: SystemLaunchTable, game: GameSource, delay_ms: int) -> None:
    view = game.view()
    table.show_view(view, game.knowledge, game.legal(), hand_limit=view["options"]["hand_limit"])


def _show_frame(table: SystemLaunchTable, view: dict[str, Any], knowledge: Knowledge) -> None:
    table.show_view(view, knowledge, (), hand_limit=view["options"]["hand_limit"], interactive=False)


def _over_banner(over: GameOver, names: Sequence[str], me: int | None) -> str:
    if not over.winners:
        return tr("report.draw")
    name = seat_name(names, over.winners[0])
    if over.reason == "system launched":
        by = tr("table.launched_by.you") if over.winners[0] == me else tr("table.launched_by", name=name)
        return tr("table.launched") + "\n" + by
    return tr("report.winner_plain", name=name)


def _report_headline(over: GameOver, names: Sequence[str], me: int | None) -> str | None:
    """The report's headline where System Launch words it its own way (a launch, a deck run dry)."""
    if not over.winners:
        return tr("report.draw")
    if len(over.winners) > 1:
        return None
    winner = over.winners[0]
    if over.reason == "system launched":
        return tr("report.you_win") if winner == me else tr("report.winner", name=seat_name(names, winner))
    return tr("report.winner_plain", name=seat_name(names, winner))


class SystemRow(CardRow):
    """A seat's final System in the report; re-labels its empty row on a language switch."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        super().__init__(0.5, 4)
        self.set_cards([face(c) for c in view["system"][seat]], "")
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)  # a bound slot: Qt drops it with the widget

    def retranslate(self, *_: object) -> None:
        self.set_cards(self.faces, tr("table.empty_row"))


def _reset(table: SystemLaunchTable) -> None:
    table.selected_slot = None


def _forfeit(active: int) -> str:
    """docs/rules/system-launch-engine.md section 7: the hand set aside, SL-11's re-deal, the deck set aside."""
    return tr("sl.forfeit.two" if active == 2 else "sl.forfeit.many")


def _showcase(window: ShowcaseWindow[SystemLaunchTable], shot: Shot, app: QApplication) -> None:
    from client.games.system_launch.showcase import sl_shots  # only the screenshots need it

    sl_shots(window, shot, app)


KIT = GameKit(
    name="system-launch",
    make_table=SystemLaunchTable,
    make_writer=LogWriter,
    show_live=_show_live,
    show_frame=_show_frame,
    over_banner=_over_banner,
    report_row=SystemRow,
    report_headline=_report_headline,
    reset_choice=_reset,
    lobby_art=BuildFan,
    forfeit_note=_forfeit,
    guide=guide_steps,
    levels=("random", "greedy", "memory"),
    default_level="greedy",
    showcase=_showcase,
)
