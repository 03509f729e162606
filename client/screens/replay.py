"""The replay viewer: step through a saved game, public view first.

Every frame of the game is rebuilt (and checked) by :mod:`client.play.replays`: a local game's
:class:`~client.play.replays.Replay` through the referee, a network game's
:class:`~client.play.replays.SignedReplay` from its signed log, audited offline first (the
viewer shows the audit's verdict).  The viewer shows the table as a spectator
sees it — every hand face down — and, for a local game that the replay has followed to its end,
when every secret is out anyway, it can show every hand ("full view").
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from client.games.kit import kit_for
from client.i18n import LANGUAGE, tr
from client.play.replays import Replay, SignedReplay
from client.screens.report import verdict_of
from client.table.log_view import LogView, PlainLine
from engines.core import Knowledge


class ReplayScreen(QWidget):
    lobby_requested = Signal()

    def __init__(self, replay: Replay | SignedReplay, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.replay = replay
        record = replay.record
        self.names = list(record.names)
        self.index = 0
        self.reached_end = False
        self.kit = kit_for(record.game)
        writer = self.kit.make_writer(None, record.players)
        spectator = Knowledge(None)
        lines: list[list[Any]] = [
            writer.lines(frame, spectator) if frame.action is not None else [PlainLine("replay.start")]
            for frame in replay.frames
        ]
        # Frames before the table is laid out (the maze's tiles come from the opening chance) show
        # nothing: the replay opens at the first frame with a table, their lines folded into it.
        first = next((i for i, f in enumerate(replay.frames) if self.kit.table_ready(f.state.public())), 0)
        self.frames = list(replay.frames[first:])
        self.frame_lines = [[line for f in lines[: first + 1] for line in f], *lines[first + 1 :]]
        self.timer = QTimer(self)
        self.timer.setInterval(400)
        self.timer.timeout.connect(self._play_tick)

        root = QVBoxLayout(self)
        root.setContentsMargins(0, 0, 0, 0)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.table = self.kit.make_table(record.players, self.names)
        split.addWidget(self.table.widget())
        side = QWidget()
        sl = QVBoxLayout(side)
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold; font-size: 14px;")
        self.mode = QLabel()
        self.mode.setWordWrap(True)
        self.full = QCheckBox()
        self.full.setEnabled(False)
        self.full.toggled.connect(lambda _: self.show_frame(self.index))
        self.log = LogView(self.names)
        sl.addWidget(self.title)
        sl.addWidget(self.mode)
        sl.addWidget(self.full)
        self.audit = QLabel()
        self.audit.setWordWrap(True)
        self.audit.setStyleSheet("font-weight: bold;")
        sl.addWidget(self.audit)
        sl.addWidget(self.log, 1)
        side.setMinimumWidth(260)
        split.addWidget(side)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        root.addWidget(split, 1)

        bar = QHBoxLayout()
        bar.setContentsMargins(10, 6, 10, 8)
        icons = self.style()
        self.first_button = QPushButton(icons.standardIcon(QStyle.StandardPixmap.SP_MediaSkipBackward), "")
        self.prev_button = QPushButton(icons.standardIcon(QStyle.StandardPixmap.SP_MediaSeekBackward), "")
        self.play_button = QPushButton(icons.standardIcon(QStyle.StandardPixmap.SP_MediaPlay), "")
        self.next_button = QPushButton(icons.standardIcon(QStyle.StandardPixmap.SP_MediaSeekForward), "")
        self.last_button = QPushButton(icons.standardIcon(QStyle.StandardPixmap.SP_MediaSkipForward), "")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, len(self.frames) - 1)
        self.step_label = QLabel()
        self.step_label.setMinimumWidth(130)
        self.lobby_button = QPushButton()
        self.first_button.clicked.connect(lambda: self.show_frame(0))
        self.prev_button.clicked.connect(lambda: self.show_frame(self.index - 1))
        self.next_button.clicked.connect(lambda: self.show_frame(self.index + 1))
        self.last_button.clicked.connect(lambda: self.show_frame(self.last))
        self.play_button.clicked.connect(self._toggle_play)
        self.slider.valueChanged.connect(self.show_frame)
        self.lobby_button.clicked.connect(self.lobby_requested.emit)
        for w in (self.first_button, self.prev_button, self.play_button, self.next_button, self.last_button):
            bar.addWidget(w)
        bar.addWidget(self.slider, 1)
        bar.addWidget(self.step_label)
        bar.addWidget(self.lobby_button)
        root.addLayout(bar)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def show_frame(self, index: int) -> None:
        index = max(0, min(self.last, index))
        self.index = index
        if index == self.last:
            self.reached_end = True
            self.full.setEnabled(self.replay.full_view)
        frame = self.frames[index]
        knowledge = frame.truth if (self.full.isChecked() and self.reached_end) else Knowledge(None)
        self.kit.show_frame(self.table, frame.state.view(knowledge), knowledge)
        lines = [line for f in self.frame_lines[: index + 1] for line in f]
        self.log.set_lines(lines)
        if lines:
            self.table.set_banner(lines[-1].text(self.names), lines[-1].tone)
        self.slider.blockSignals(True)
        self.slider.setValue(index)
        self.slider.blockSignals(False)
        self.step_label.setText(tr("replay.step", i=index, n=self.last))
        self.prev_button.setEnabled(index > 0)
        self.first_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < self.last)
        self.last_button.setEnabled(index < self.last)
        self.mode.setText(tr("replay.public") if self.kit.secrets and not self.full.isChecked() else "")
        self.mode.setVisible(self.kit.secrets)
        self.full.setVisible(self.kit.secrets)
        if index == self.last and self.timer.isActive():
            self._toggle_play()

    def _toggle_play(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
        else:
            if self.index >= self.last:
                self.show_frame(0)
            self.timer.start()
        self._show_play_state()

    def _show_play_state(self) -> None:
        """The play button says and shows what a click does: pause while playing, play otherwise."""
        playing = self.timer.isActive()
        self.play_button.setText(tr("replay.pause") if playing else tr("replay.play"))
        pixmap = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(pixmap))
        self.play_button.setProperty("playing", playing)

    def _play_tick(self) -> None:
        self.show_frame(self.index + 1)

    def retranslate(self, *_: object) -> None:
        self.title.setText(tr("replay.title", game=tr(f"game.{self.replay.record.game}")))
        self.full.setText(tr("replay.full"))
        if not self.replay.full_view:
            self.full.setToolTip(tr("replay.no_full"))
        else:
            self.full.setToolTip("" if self.reached_end else tr("replay.full_locked"))
        self.audit.setVisible(self.replay.verdict is not None)
        if self.replay.verdict is not None:
            verdict = verdict_of(self.replay.verdict).text(self.names)
            self.audit.setText(tr("replay.verdict", verdict=verdict))
        self.first_button.setToolTip(tr("replay.first"))
        self.prev_button.setToolTip(tr("replay.prev"))
        self.next_button.setToolTip(tr("replay.next"))
        self.last_button.setToolTip(tr("replay.last"))
        self._show_play_state()
        self.lobby_button.setText(tr("menu.lobby"))
        self.show_frame(self.index)
