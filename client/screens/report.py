"""The end-of-game report: who won and why, the fair-play verdict, what next.

The verdict is said plainly and honestly.  A local game was dealt by this
computer's referee, which knew every secret: it is fair by construction and
nothing was checked, and the report says exactly that.  A networked game
brings the protocol's audit verdict: "fair", the seat that cheated, the
log entry and the reason, or a seat that was disconnected (silence: no one is
called a cheater for it; with two seats the win is only claimed, and when both
seats claimed the other gone in turn, it is contested: nobody wins).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from client.games.kit import kit_for
from client.i18n import LANGUAGE, tr
from client.i18n.seat_names import seat_name
from client.ui.named import named
from engines.core import GameOver
from protocol.events import Verdict as ProtocolVerdict


def verdict_of(protocol_verdict: ProtocolVerdict | None) -> Verdict:
    """Our report's verdict from the protocol's (None: the audit is still running)."""
    if protocol_verdict is None:
        return Verdict("pending")
    if protocol_verdict.fair:
        return Verdict("fair")
    seat = protocol_verdict.seat if protocol_verdict.seat is not None else -1
    seq = protocol_verdict.seq if protocol_verdict.seq is not None else -1
    kind = protocol_verdict.kind  # silence is not cheating: the kinds stay apart
    return Verdict(
        kind if kind in ("disconnected", "claimed", "contested", "abandoned") else "cheat",
        seat,
        seq,
        protocol_verdict.reason,
    )


@dataclass(frozen=True)
class Verdict:
    """The audit's word: ``local`` (fair by construction), ``fair``, a named cheat, or, never called
    cheating, ``disconnected`` / ``claimed`` (a win claimed after disconnection) / ``contested`` (two
    such claims against each other: no result, nobody named) / ``abandoned``."""

    kind: str
    seat: int = -1
    seq: int = -1
    reason: str = ""

    def text(self, names: Sequence[str]) -> str:
        if self.kind == "local":
            return tr("report.local_fair")
        if self.kind == "fair":
            return tr("report.net_fair")
        if self.kind == "pending":
            return tr("report.auditing")
        if self.kind in ("disconnected", "claimed"):
            return tr(f"report.{self.kind}", name=seat_name(names, self.seat), seq=self.seq)
        if self.kind == "contested":
            return tr("report.contested", seq=self.seq)
        if self.kind == "abandoned":
            return tr("report.abandoned", reason=self.reason)
        return tr("report.cheat", name=seat_name(names, self.seat), seq=self.seq, reason=self.reason)


STYLE = (
    "QWidget#report { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #15302a, stop:1 #0e1f2e); }"
    "QLabel { color: #e9efe9; }"
    "QLabel#headline { color: #ffd54a; font-size: 30px; font-weight: bold; }"
    "QLabel#reason { font-size: 15px; color: #cfe3da; }"
    "QFrame#verdict { background: rgba(255,255,255,235); border-radius: 12px; }"
    "QFrame#verdict QLabel { color: #16342b; }"
    'QFrame#verdict[cheat="true"] { background: #fde6e2; }'
    "QLabel#verdict_title { font-weight: bold; font-size: 16px; }"
    "QLabel#verdict_text { font-size: 14px; }"
    "QPushButton { background: #1f7a55; color: white; border-radius: 8px; padding: 8px 16px; font-size: 14px; }"
    "QPushButton:hover { background: #26936a; }"
    "QLabel#seat { font-weight: bold; }"
    "QLabel#status { color: #a8f0c0; }"
    'QLabel#status[error="true"] { color: #ffb3a8; font-weight: bold; }'
)


class ReportScreen(QWidget):
    save_requested = Signal()
    replay_requested = Signal()
    again_requested = Signal()
    lobby_requested = Signal()

    def __init__(
        self,
        game_title_id: str,
        names: Sequence[str],
        human: int | None,
        over: GameOver,
        view: dict[str, Any],
        actions: int,
        verdict: Verdict,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("report")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        self.game_title_id = game_title_id
        self.names = list(names)
        self.human = human
        self.over = over
        self.view = view
        self.action_count = actions
        self.verdict = verdict
        root = QVBoxLayout(self)
        root.setContentsMargins(40, 28, 40, 28)
        root.setSpacing(12)
        self.title = QLabel()
        self.title.setStyleSheet("font-size: 14px; color: #9fc1b4;")
        self.headline = named(QLabel(), "headline")
        self.headline.setWordWrap(True)
        self.reason = named(QLabel(), "reason")
        self.reason.setWordWrap(True)
        self.stats = named(QLabel(), "reason")
        root.addWidget(self.title)
        root.addWidget(self.headline)
        root.addWidget(self.reason)
        root.addWidget(self.stats)
        self.verdict_box = named(QFrame(), "verdict")
        self.verdict_box.setProperty("cheat", "true" if verdict.kind == "cheat" else "false")
        vb = QVBoxLayout(self.verdict_box)
        vb.setContentsMargins(16, 12, 16, 12)
        self.verdict_title = named(QLabel(), "verdict_title")
        self.verdict_text = named(QLabel(), "verdict_text")
        self.verdict_text.setWordWrap(True)
        vb.addWidget(self.verdict_title)
        vb.addWidget(self.verdict_text)
        root.addWidget(self.verdict_box)
        self.tables_title = named(QLabel(), "verdict_title")
        self.tables_title.setStyleSheet("color: #e9efe9;")
        root.addWidget(self.tables_title)
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(4)
        self.rows: list[tuple[QLabel, QWidget]] = []
        self.kit = kit = kit_for(game_title_id.removeprefix("game."))
        for seat in range(len(self.names)):
            label = named(QLabel(), "seat")
            row = kit.report_row(view, seat)
            grid.addWidget(label, seat, 0)
            grid.addWidget(row, seat, 1)
            self.rows.append((label, row))
        grid.setColumnStretch(1, 1)
        root.addLayout(grid)
        root.addStretch(1)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        root.addWidget(self.status)
        self.root = root
        buttons = QHBoxLayout()
        self.save_button = QPushButton()
        self.replay_button = QPushButton()
        self.again_button = QPushButton()
        self.lobby_button = QPushButton()
        for b, sig in (
            (self.save_button, self.save_requested),
            (self.replay_button, self.replay_requested),
            (self.again_button, self.again_requested),
            (self.lobby_button, self.lobby_requested),
        ):
            b.setMinimumHeight(34)
            b.clicked.connect(sig.emit)
            buttons.addWidget(b)
        buttons.addStretch(1)
        root.addLayout(buttons)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    def add_panel(self, panel: QWidget) -> None:
        """A block of the window's own above the buttons (a network game's rematch)."""
        self.root.insertWidget(self.root.indexOf(self.status) + 1, panel)

    def set_verdict(self, verdict: Verdict) -> None:
        """The audit's word arrived (network games): show it."""
        self.verdict = verdict
        self.verdict_box.setProperty("cheat", "true" if verdict.kind == "cheat" else "false")
        self.verdict_box.style().unpolish(self.verdict_box)
        self.verdict_box.style().polish(self.verdict_box)
        self.verdict_text.setText(verdict.text(self.names))
        self.headline.setText(self.headline_text())

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setProperty("error", "true" if error else "false")
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)

    def headline_text(self) -> str:
        if self.verdict.kind == "contested":  # the rules ended the game on a forfeit, and nobody may claim it
            return tr("report.no_winner")
        over = self.over
        own = self.kit.report_headline(over, self.names, self.human)
        if own is not None:
            return own
        if not over.winners:
            return tr("report.draw_plain")
        if len(over.winners) > 1:  # a draw shared by several seats is nobody's win
            shared = [
                tr("table.you", name=seat_name(self.names, seat)) if seat == self.human else seat_name(self.names, seat)
                for seat in over.winners
            ]
            return tr("report.shared_draw", names=", ".join(shared))
        winner = over.winners[0]
        if winner == self.human:
            return tr("report.you_win_plain")
        return tr("report.winner_plain", name=seat_name(self.names, winner))

    def retranslate(self, *_: object) -> None:
        self.title.setText(f"{tr('report.title')} · {tr(self.game_title_id)}")
        self.headline.setText(self.headline_text())
        self.reason.setText(tr(f"report.reason.{self.over.reason}") if self.over.reason else "")
        self.stats.setText(tr("report.stats", actions=self.action_count, rounds=self.view.get("round", 0)))
        self.verdict_title.setText(tr("report.audit"))
        self.verdict_text.setText(self.verdict.text(self.names))
        self.tables_title.setText(tr("report.tables"))
        for seat, (label, _row) in enumerate(self.rows):
            name = seat_name(self.names, seat)
            label.setText(tr("table.you", name=name) if seat == self.human else name)
        self.save_button.setText(tr("report.save"))
        self.replay_button.setText(tr("report.replay"))
        self.again_button.setText(tr("report.again"))
        self.lobby_button.setText(tr("menu.lobby"))
