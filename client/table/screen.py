"""A game on screen: the table, the log, the bots' pace and, for a networked seat, the connection.

The screen advances its :class:`~client.play.source.GameSource` (a local game, or a networked
seat) one step per tick of a single-shot QTimer (the bot speed setting; 0 in tests), so bots'
turns appear step by step and the window stays responsive.  When the human
must decide, the timer stops and the table offers the legal actions.
:meth:`pause` / :meth:`resume` nest (the rules window, a dialog): while paused
no step is taken, so reading the rules never changes the game.
When the human's turn comes the "your turn" cue sounds (client/ui/sound.py; the
table's Sound switch mutes it); an action first finishes any running animation
(client/ui/motion.py), so a fast player is never held up.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from client.games.kit import TableWidget, kit_for
from client.i18n import LANGUAGE, tr
from client.net.connection import read_state
from client.net.game import NetGame
from client.play.local import LocalGame
from client.play.source import Entry, GameSource
from client.store.settings import BOT_SPEEDS
from client.table.connection_panel import ConnectionPanel
from client.table.log_view import LogLine, LogView, PlainLine
from client.table.moments import Moment, Moments
from client.table.voice import Voiced
from client.ui import keys, motion, sound
from client.ui.guide import GuideBar, GuideStep
from engines.core import Action, IllegalAction


class GameScreen(QWidget):
    """The table window's content for one game (its table comes from the game's kit).

    Made by :meth:`of_local` or :meth:`of_network`: a local game's past positions are rebuilt
    from its record, a networked seat's are kept as shown, and only a networked seat has a
    connection to show (``network``).
    """

    finished = Signal()
    report_requested = Signal()
    rules_requested = Signal(str)
    #: The table was drawn again (the window's title says whose turn it is).
    refreshed = Signal()
    #: The player chose another bot pace at the table (milliseconds between bot steps).
    speed_changed = Signal(int)
    #: The player switched sound on or off at the table (the settings keep it).
    sound_changed = Signal(bool)
    #: The first-game guide was done or skipped (the game's name: remembered in the settings).
    guide_finished = Signal(str)

    def __init__(
        self,
        game: GameSource,
        delay_ms: int,
        moments: Moments,
        network: NetGame | None = None,
        guide: list[GuideStep[TableWidget]] | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        #: The networked seat being played (the same object as ``game``), or None for a local game.
        self.network = network
        self.delay_ms = delay_ms
        self.paused = 0
        self.ended = False
        self.last_line: LogLine | None = None
        self._rebuilds_seen = network.rebuilds if network is not None else 0
        #: Whether the human was to move at the last refresh (the "your turn" cue sounds when it becomes true).
        self.my_turn = False
        self.kit = kit_for(game.game)
        # The log speaks to the player: their own actions read "You …" (client.table.voice).
        self.writer = Voiced(self.kit.make_writer(game.human, game.players), game.human)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._tick)
        #: Looking back: the past position shown instead of the live table (None: live).
        self.moments = moments
        self.moment: Moment | None = None
        self.moment_row = -1
        #: For each log line, the position in ``game.entries`` of the entry it tells.
        self.line_entries: list[int] = []

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.table = self.kit.make_table(game.players, game.names)
        self.shortcuts = keys.install(self, lambda: self.table, lambda: not self.paused, self.back_to_live)
        self.table.action_chosen.connect(self.choose)
        self.table.report_requested.connect(self.report_requested.emit)
        # Shown while a past position is on the table; a click (or Esc) brings the live table back.
        self.moment_bar = QPushButton()
        self.moment_bar.setStyleSheet(
            "QPushButton { background: #3b4f8a; color: white; font-weight: bold; padding: 8px; border: none; }"
        )
        self.moment_bar.clicked.connect(self.back_to_live)
        self.moment_bar.hide()
        layout.addWidget(self.moment_bar)
        self.guide_bar: GuideBar[TableWidget] | None = None
        if guide:
            self.guide_bar = GuideBar(guide, self.table, self.table.widget())
            self.guide_bar.finished.connect(lambda _: self.guide_finished.emit(game.game))
            layout.addWidget(self.guide_bar)
        split.addWidget(self.table.widget())
        side = QWidget()
        sl = QVBoxLayout(side)
        sl.setContentsMargins(8, 8, 8, 8)
        self.log_title = QLabel()
        self.log_title.setStyleSheet("font-weight: bold; font-size: 14px;")
        self.log = LogView(game.names)
        self.log.line_clicked.connect(self.show_moment)
        self.log.clickable(True)
        bar = QHBoxLayout()
        self.rules_button = QPushButton()
        self.rules_button.clicked.connect(lambda: self.rules_requested.emit(game.game))
        self.leave_button = QPushButton()
        self.leave_button.clicked.connect(self._leave)
        bar.addWidget(self.rules_button)
        bar.addWidget(self.leave_button)
        sl.addLayout(bar)
        # The bots' pace, changed at the table (the settings keep it for the next game).
        pace = QHBoxLayout()
        self.speed_label = QLabel()
        self.speed = QComboBox()
        for ms in BOT_SPEEDS:
            self.speed.addItem("", ms)
        self.speed.setCurrentIndex(BOT_SPEEDS.index(min(BOT_SPEEDS, key=lambda ms: abs(ms - delay_ms))))
        self.speed.activated.connect(lambda i: self._speed_chosen(int(self.speed.itemData(i))))
        pace.addWidget(self.speed_label)
        pace.addWidget(self.speed, 1)
        sl.addLayout(pace)
        self.sound_switch = QCheckBox()  # on its own line: the pace's list keeps its whole width
        self.sound_switch.toggled.connect(self.sound_changed.emit)
        self.show_sound_switch()
        sl.addWidget(self.sound_switch)
        self.net_status = QLabel()
        self.net_status.setWordWrap(True)
        self.net_status.setStyleSheet("color: #a3261b; font-weight: bold;")
        self.net_status.hide()
        sl.addWidget(self.net_status)
        # A network game: who is connected, who is to move, the clock to a vote (redrawn every second).
        self.connection = ConnectionPanel()
        self.connection.hide()
        sl.addWidget(self.connection)
        self.clock_timer = QTimer(self)
        self.clock_timer.setInterval(1000)
        self.clock_timer.timeout.connect(self._show_network)
        if network is not None:
            self.clock_timer.start()
        sl.addWidget(self.log_title)
        sl.addWidget(self.log, 1)
        side.setMinimumWidth(260)
        split.addWidget(side)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        layout.addWidget(split, 1)  # the bars above it (looking back, the guide) stay as tall as their words
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)
        self.refresh()

    @classmethod
    def of_local(cls, game: LocalGame, delay_ms: int, guide: list[GuideStep[TableWidget]] | None = None) -> GameScreen:
        return cls(game, delay_ms, Moments.of_local(game), guide=guide)

    @classmethod
    def of_network(cls, game: NetGame, delay_ms: int) -> GameScreen:
        return cls(game, delay_ms, Moments(game), network=game)

    # -- pace -----------------------------------------------------------------------
    def start(self) -> None:
        self.schedule()

    def schedule(self) -> None:
        """Arm the timer for the next bot/table step, unless paused, over, or waiting for the human."""
        if self.paused or not self.game.has_steps():
            self.timer.stop()
            if not self.paused:
                self.refresh_if_changed()
            return
        if not self.timer.isActive():
            self.timer.start(self.delay_ms)

    def pause(self) -> None:
        self.paused += 1
        self.timer.stop()

    def resume(self) -> None:
        self.paused = max(0, self.paused - 1)
        self.schedule()

    def set_delay(self, ms: int) -> None:
        self.delay_ms = ms
        nearest = min(BOT_SPEEDS, key=lambda v: abs(v - ms))
        self.speed.setCurrentIndex(BOT_SPEEDS.index(nearest))

    def show_sound_switch(self) -> None:
        """The table's mute toggle as the program's sound switch stands (set in the settings or here)."""
        self.sound_switch.blockSignals(True)
        self.sound_switch.setChecked(sound.player().wanted)
        self.sound_switch.blockSignals(False)

    def _speed_chosen(self, ms: int) -> None:
        self.set_delay(ms)
        self.speed_changed.emit(ms)

    def _tick(self) -> None:
        if self.paused:
            return
        self._show(self.game.step())
        self.schedule()

    # -- the human ------------------------------------------------------------------------
    def choose(self, action: Action) -> None:
        """The human picked an enabled control; apply it (it is legal by construction)."""
        if self.paused:
            return
        motion.clock().finish_all()  # a fast player's next action: the last move's animation ends now
        try:
            entries = self.game.act(action)
        except IllegalAction:
            self.refresh()
            return
        self.kit.reset_choice(self.table)
        if self.guide_bar is not None and self.guide_bar.step is not None:
            self.guide_bar.took(tuple(action))
        self._show(entries)
        self.schedule()

    def _leave(self) -> None:
        self.back_to_live()
        if self.game.over() is not None:
            self.report_requested.emit()
            return
        self.pause()
        try:
            answer = QMessageBox.question(self, tr("table.leave"), self.leave_question())
        finally:
            self.resume()
        if answer == QMessageBox.StandardButton.Yes:
            self.leave()

    def leave_question(self) -> str:
        """What leaving does here: in a two-seat game it ends the game; elsewhere the others play on."""
        if self.game.players == 2:
            return tr("table.leave_confirm_two")
        if self.network is not None:
            return tr("table.leave_confirm_net")
        return tr("table.leave_confirm")

    def leave(self) -> None:
        self._show(self.game.forfeit_human())
        self.schedule()

    # -- drawing ---------------------------------------------------------------------------
    def _show(self, entries: list[Entry]) -> None:
        first = len(self.game.entries) - len(entries)  # the entries shown are the newest ones
        start = len(self.line_entries)
        lines: list[LogLine] = []
        for position, entry in enumerate(entries, first):
            told = self.writer.lines(entry, self.game.knowledge)
            lines.extend(told)
            self.line_entries.extend([position] * len(told))
        if self._voided():
            lines.insert(0, PlainLine("log.claim-voided"))
            self.line_entries.insert(start, max(first - 1, 0))
        if lines:
            self.last_line = self.kit.headline(lines)
        ended = self.game.over() is not None and not self.ended
        if ended:
            self.ended = True
            lines.append(PlainLine("log.over"))
            self.line_entries.append(len(self.game.entries) - 1)
        self.log.add(lines)
        self.moments.note()
        self.refresh()
        if ended:
            self.finished.emit()

    def _voided(self) -> bool:
        """Whether a networked game came back to life since it was shown over: a claimed win was voided.

        The claimed seat's own entry voids a win claimed after disconnection (two seats); the
        game's mirror was rebuilt from the log to before the claim, and play goes on from there.
        """
        if self.network is None or self.network.rebuilds == self._rebuilds_seen:
            return False
        self._rebuilds_seen = self.network.rebuilds
        self.ended = False
        self.last_line = None
        return True

    def refresh_if_changed(self) -> None:
        """Redraw when the game moved on without a step of ours (a network game's turn came)."""
        if self._voided():
            self.log.add([PlainLine("log.claim-voided")])
            self.line_entries.append(max(len(self.game.entries) - 1, 0))
            self.refresh()
        self._show_network()
        legal = self.game.legal()
        if legal != self.table.legal:
            self.refresh()

    def _show_network(self) -> None:
        """A networked game's connection state, in words (hidden while all is well)."""
        game = self.network
        if game is None:
            return
        self._show_connection(game)
        text = ""
        voided = game.claim_voided
        if game.disconnected:
            text = tr("net.reconnecting")
        elif voided is not None and game.over() is None:
            text = tr("net.claim-voided", name=game.names[voided[0]])
        elif any(reason != "left" for _, reason in game.gone):
            text = tr("net.peer-gone")
        elif game.problems:
            text = tr("net.rejected", n=len(game.problems))
        self.net_status.setText(text)
        self.net_status.setVisible(bool(text))

    def _show_connection(self, game: NetGame) -> None:
        """Who is connected and the clock to a vote; nothing once the game is over."""
        if game.over() is not None or game.session.finished:
            self.clock_timer.stop()
            self.connection.show_state(None, game.names, self.kit)
            return
        self.connection.show_state(read_state(game, game.clock_ms(), time.time()), game.names, self.kit)

    # -- looking back ----------------------------------------------------------------------
    def show_moment(self, row: int) -> None:
        """Show the table as it was after the action of log line ``row`` (read-only; the game waits)."""
        if not 0 <= row < len(self.line_entries):
            return
        moment = self.moments.at(self.line_entries[row])
        if moment is None:
            return
        if self.moment is None:
            self.pause()
        self.moment, self.moment_row = moment, row
        self.refresh()

    def back_to_live(self) -> bool:
        """Back to the live table; whether a past position was being shown."""
        if self.moment is None:
            return False
        self.moment, self.moment_row = None, -1
        self.moment_bar.hide()
        self.resume()
        self.refresh()
        return True

    def _draw_moment(self, moment: Moment) -> None:
        self.kit.show_frame(self.table, moment.view(), moment.knowledge)
        if 0 <= self.moment_row < len(self.log.lines):
            line = self.log.lines[self.moment_row]
            self.table.set_banner(line.text(self.game.names), line.tone)
        self.moment_bar.setText(tr("guide.moment", n=moment.entry + 1))
        self.moment_bar.show()

    def refresh(self) -> None:
        game = self.game
        if self.moment is not None:
            self._draw_moment(self.moment)
            return
        self._show_network()
        self.kit.show_live(self.table, game, 0 if self.paused else self.delay_ms)
        over = game.over()
        if over is not None:
            self.table.set_banner(
                self.kit.over_banner(over, game.names, game.human), "win" if over.winners else "event"
            )
        elif self.last_line is not None:
            self.table.set_banner(self.last_line.text(game.names), self.last_line.tone)
        my_turn = over is None and game.human_to_move()
        if my_turn and not self.my_turn and not self.paused:
            sound.play("turn")
        self.my_turn = my_turn
        if self.guide_bar is not None and self.guide_bar.step is not None:
            self.guide_bar.place_rings()
        self.refreshed.emit()

    def title_text(self) -> str:
        """The game and whose turn it is, for the window's title (seen in the task bar while away)."""
        game = self.game
        if game.over() is not None:
            state = tr("title.over")
        elif game.human_to_move():
            state = tr("title.your_turn")
        else:
            state = tr("title.waiting")
        return f"{tr(f'game.{game.game}')} · {state}"

    def retranslate(self, *_: object) -> None:
        self.log_title.setText(tr("table.log"))
        self.log.setToolTip(tr("guide.log_tip"))
        self.rules_button.setText(tr("menu.rules"))
        self.leave_button.setText(tr("table.leave"))
        self.speed_label.setText(tr("settings.speed"))
        self.sound_switch.setText(tr("table.sound"))
        for i, ms in enumerate(BOT_SPEEDS):
            self.speed.setItemText(i, tr(f"speed.{ms}"))
        self.log.retranslate()
        self.refresh()
