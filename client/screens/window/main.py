"""The main window: one screen at a time (lobby, table, report, replay) and the menus.

It owns the settings and the one open game, and wires the screens' signals:
the lobby starts a game; the table asks for the report; the report saves,
replays or goes back.  The rules window can be opened from anywhere and
pauses the game while it is open.  What differs between a local game and a
networked seat is the :class:`~client.screens.window.playing.Playing` the
window holds (:mod:`.local_play`, :mod:`.network_play`); kept seats and
taking them again are :mod:`.kept`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QStackedWidget, QWidget

from client.i18n import LANGUAGE, tr
from client.net import tasks
from client.net.address import passwords_apart, remember_relay, use_relay_settings
from client.net.game import NetGame
from client.net.rematch import Rematch
from client.play import local_file, replays
from client.play.source import GameSource
from client.screens.lobby import Lobby
from client.screens.rematch_panel import RematchPanel
from client.screens.replay import ReplayScreen
from client.screens.report import ReportScreen
from client.screens.rules_dialog import RulesDialog
from client.screens.rules_pages import GAMES
from client.screens.settings_dialog import SettingsDialog
from client.screens.window import kept, local_play
from client.screens.window.menus import Menus
from client.screens.window.network_play import NetworkPlay
from client.screens.window.playing import Playing
from client.store import kept_seats
from client.store import settings as settings_mod
from client.store.settings import Settings
from client.table.screen import GameScreen
from client.ui import motion, sound
from client.ui.notify import TurnNotifier
from engines.core.state import TABLE


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, config: Path | None = None) -> None:
        super().__init__()
        self.config = config
        self.settings = settings or settings_mod.load(config)
        passwords_apart(self.settings)
        use_relay_settings(self.settings.relay_profiles())  # saved passwords and TLS files per relay
        LANGUAGE.set(self.settings.language)
        self.apply_switches()
        self.resize(1280, 820)
        self.setMinimumSize(1000, 700)
        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.lobby = Lobby(self.settings, config)
        self.lobby.start_local.connect(self.start_local)
        self.lobby.show_rules.connect(self.show_rules)
        self.lobby.open_replay.connect(self.choose_replay)
        self.lobby.relay_used.connect(self._remember_relay)
        self.lobby.network_game.connect(self.start_network)
        self.lobby.resume_requested.connect(self.resume_saved)
        self.stack.addWidget(self.lobby)
        self.current_screen: QWidget | None = None
        #: The open game, as the kind of game this window started (None: no game is open).
        self.playing: Playing | None = None
        self.game_screen: GameScreen | None = None
        self.report: ReportScreen | None = None
        self.replay: ReplayScreen | None = None
        self.rules: RulesDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.message_box: QMessageBox | None = None
        #: The rematch offered on a finished network game's report (listening to the others' answers).
        self.rematch: Rematch | None = None
        self.rematch_panel: RematchPanel | None = None
        #: Ask the player before a running game is left behind (off for tools that close the window themselves).
        self.ask_before_abandoning = True
        #: Tells the player when a network game's turn comes while this window is in the background.
        self.notifier = TurnNotifier(self, lambda: self.settings.notify_turn)
        self.menus = Menus(self)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    @property
    def game(self) -> GameSource | None:
        """The open game's source (the table's, the report's)."""
        return self.playing.game if self.playing is not None else None

    def network_game(self) -> NetGame | None:
        """The networked seat being played, if the open game is one."""
        return self.playing.network if self.playing is not None else None

    def hold(self, playing: Playing) -> None:
        """The game just started is the open one."""
        self.playing = playing

    def current_game_name(self) -> str:
        """The game the player is looking at: the one being played or replayed, else the lobby's choice."""
        if self.current_screen is not None and self.current_screen is self.replay and self.replay is not None:
            return str(self.replay.replay.record.game)
        if self.game is not None:
            return str(self.game.game)
        chosen = self.lobby.game.currentData()
        return str(chosen) if chosen in GAMES else GAMES[0]

    def update_title(self, *_: object) -> None:
        """The window's title: the program, and at a table the game and whose turn it is."""
        screen = self.game_screen
        if screen is not None and self.current_screen is screen:
            self.setWindowTitle(f"{screen.title_text()} — {tr('app.title')}")
        else:
            self.setWindowTitle(tr("app.title"))

    def retranslate(self, *_: object) -> None:
        self.update_title()
        self.menus.retranslate()

    # -- screens ------------------------------------------------------------------------------
    def _show(self, widget: QWidget) -> None:
        if self.stack.indexOf(widget) < 0:
            self.stack.addWidget(widget)
        self.stack.setCurrentWidget(widget)
        self.current_screen = widget
        self.update_title()

    def _leave_lobby(self) -> None:
        """Leaving the lobby screen stops waiting for a room (hosted or joined), as its Cancel does."""
        if self.lobby.waiting():
            self.lobby.cancel_waiting()

    def _drop_screens(self) -> None:
        if self.rematch is not None:
            self.rematch.leave()  # an open offer hears "no" from a player who went away
            self.rematch = self.rematch_panel = None
        if self.playing is not None:
            self.playing.drop()
        if self.game_screen is not None:
            self.game_screen.timer.stop()
        for w in (self.game_screen, self.report, self.replay):
            if w is not None:
                self.stack.removeWidget(w)
                w.deleteLater()
        self.game_screen = self.report = self.replay = None
        self.current_screen = None

    def game_at_stake(self) -> bool:
        """Whether a game the player still takes part in is running (leaving it needs their word)."""
        game = self.game
        if game is None or game.human is None or game.over() is not None:
            return False
        return not game.human_left

    def confirm_abandon(self) -> bool:
        """Ask before a running game is left behind by the lobby or by quitting; True: go ahead."""
        if not self.ask_before_abandoning or self.playing is None or not self.game_at_stake():
            return True
        text = self.playing.abandon_question()
        if self.game_screen is not None:
            self.game_screen.pause()
        try:
            answer = QMessageBox.question(self, tr("confirm.abandon_title"), text)
        finally:
            if self.game_screen is not None:
                self.game_screen.resume()
        return answer == QMessageBox.StandardButton.Yes

    def back_to_lobby(self) -> None:
        """The menu's "Back to the lobby": asks first while a game is running."""
        if self.confirm_abandon():
            self.to_lobby()

    def to_lobby(self) -> None:
        self._drop_screens()
        self.playing = None
        kept_seats.clear_playing(self.config)  # left on purpose: the seat stays in "Games in progress"
        self.stack.setCurrentWidget(self.lobby)
        self.lobby.clear_statuses()
        self.lobby.show_saved_games()
        self.lobby.retranslate()
        self.update_title()

    def start_local(self, game: str, players: int, seed: bytes | None = None, level: str | None = None) -> GameScreen:
        """A game against the computer; ``level`` is the AI level (default: the lobby's choice)."""
        self._leave_lobby()
        self._drop_screens()
        return local_play.start(self, game, players, seed, level)

    def start_network(self, game: NetGame) -> NetGame:
        """Play a networked seat: run its transport on the loop; the table opens when the game starts."""
        self._drop_screens()
        play = NetworkPlay(self, game)
        self.playing = play
        play.start()
        return game

    def show_table(self, screen: GameScreen) -> None:
        """The table of the game just started: its signals wired, shown, and its first step taken."""
        screen.report_requested.connect(self.show_report)
        screen.rules_requested.connect(self.show_rules)
        screen.refreshed.connect(self.update_title)
        screen.speed_changed.connect(self._bot_speed_chosen)
        screen.sound_changed.connect(self._sound_chosen)
        self.game_screen = screen
        self._show(screen)
        screen.start()

    def hold_rematch(self, rematch: Rematch, panel: RematchPanel) -> None:
        """The rematch offered on the report, listening to the others' answers until the window lets go."""
        self.rematch, self.rematch_panel = rematch, panel

    # -- kept seats ----------------------------------------------------------------------------
    def resume_saved(self, seat: kept_seats.SavedSeat) -> None:
        kept.resume_saved(self, seat)

    def offer_resume(self) -> kept_seats.SavedSeat | None:
        return kept.offer_resume(self)

    def back_to_table(self) -> None:
        """The report of a game that is no longer over goes; the table shows again."""
        report, self.report = self.report, None
        if report is not None:
            self.stack.removeWidget(report)
            report.deleteLater()
        assert self.game_screen is not None
        self._show(self.game_screen)

    def show_report(self) -> ReportScreen | None:
        playing = self.playing
        game = playing.game if playing is not None else None
        over = game.over() if game is not None else None
        if playing is None or game is None or over is None:
            return None
        if self.report is None:
            self.report = ReportScreen(
                f"game.{game.game}",
                game.names,
                game.human,
                over,
                game.state.view(game.knowledge),
                sum(1 for seat, _ in game.history if seat != TABLE),  # players' actions, not the dealing
                playing.verdict(),
            )
            self.report.save_requested.connect(self.save_game)
            self.report.replay_requested.connect(self.replay_current)
            self.report.lobby_requested.connect(self.to_lobby)
            playing.dress_report(self.report)
            self.stack.addWidget(self.report)
        self.stack.setCurrentWidget(self.report)
        self.current_screen = self.report
        self.update_title()
        return self.report

    def default_save_dir(self) -> Path:
        location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return Path(location) if location else Path.home()

    def save_game(self) -> Path | None:
        """Ask where, then save the open game in its own format; the report says how it went."""
        return self.playing.save() if self.playing is not None else None

    def replay_current(self) -> ReplayScreen | None:
        """The open game in the replay viewer, when it has a record to rebuild."""
        record = self.playing.record() if self.playing is not None else None
        if record is None:
            return None
        try:
            replay = replays.Replay(record)
        except local_file.GameFileError as exc:
            self.show_message(tr("replay.open_failed"), exc.message())
            return None
        return self._open_replay_screen(replay)

    def choose_replay(self) -> ReplayScreen | None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("menu.open_replay"), str(self.default_save_dir()), tr("file.filter")
        )
        if not path:
            return None
        return self.open_replay_file(Path(path))

    def open_replay_file(self, path: Path) -> ReplayScreen | None:
        try:
            replay = replays.open_any(path)
        except local_file.GameFileError as exc:
            self.show_message(tr("replay.open_failed"), exc.message())
            return None
        return self._open_replay_screen(replay)

    def _open_replay_screen(self, replay: replays.Replay | replays.SignedReplay) -> ReplayScreen:
        self._leave_lobby()
        if self.replay is not None:
            self.stack.removeWidget(self.replay)
            self.replay.deleteLater()
        screen = ReplayScreen(replay)
        screen.lobby_requested.connect(self.to_lobby)
        self.replay = screen
        self.stack.addWidget(screen)
        self.stack.setCurrentWidget(screen)
        self.current_screen = screen
        self.update_title()
        return screen

    def show_message(self, title: str, text: str) -> QMessageBox:
        """A non-blocking warning (the event loop, and any network work, keeps running)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.open()
        self.message_box = box
        return box

    # -- rules and settings -------------------------------------------------------------------
    def show_rules(self, game: str = GAMES[0]) -> RulesDialog:
        """Open (or raise) the rules window at ``game``; the game behind it pauses until it closes."""
        if self.rules is None:
            self.rules = RulesDialog(self, game)
            self.rules.finished.connect(self._rules_closed)
            if self.game_screen is not None:
                self.game_screen.pause()
                self.rules.setProperty("paused_game", True)
        self.rules.show_game(game)
        self.rules.show()
        self.rules.raise_()
        return self.rules

    def _rules_closed(self, *_: object) -> None:
        dialog, self.rules = self.rules, None
        if dialog is not None:
            if dialog.property("paused_game") and self.game_screen is not None:
                self.game_screen.resume()
            dialog.deleteLater()

    def open_settings(self) -> SettingsDialog:
        dialog = SettingsDialog(self.settings, self)
        self.settings_dialog = dialog
        if self.game_screen is not None:
            self.game_screen.pause()
        dialog.finished.connect(self._settings_closed)
        dialog.open()
        return dialog

    def _settings_closed(self, result: int) -> None:
        dialog, self.settings_dialog = self.settings_dialog, None
        if dialog is None:
            return
        if result:
            dialog.apply_to(self.settings)
            LANGUAGE.set(self.settings.language)
            self.apply_switches()
            self.save_settings()
            if self.game_screen is not None:
                self.game_screen.set_delay(self.settings.bot_delay_ms)
                self.game_screen.show_sound_switch()
            self.lobby.retranslate()
        if self.game_screen is not None:
            self.game_screen.resume()
        dialog.deleteLater()

    def apply_switches(self) -> None:
        """Animation and sound as the settings say (client/ui/motion.py, client/ui/sound.py)."""
        motion.clock().wanted = self.settings.animations
        sound.player().wanted = self.settings.sound

    def _sound_chosen(self, on: bool) -> None:
        self.settings.sound = on
        self.apply_switches()
        self.save_settings()

    def _bot_speed_chosen(self, ms: int) -> None:
        self.settings.bot_delay_ms = ms
        self.save_settings()

    def _remember_relay(self, address: str) -> None:
        remember_relay(self.settings, address)
        self.save_settings()

    def guide_finished(self, game: str) -> None:
        """A first-game guide was done or skipped: it is not shown again."""
        if game not in self.settings.guides_done:
            self.settings.guides_done.append(game)
            self.save_settings()

    def save_settings(self) -> None:
        use_relay_settings(self.settings.relay_profiles())
        try:
            settings_mod.save(self.settings, self.config)
        except OSError as exc:
            self.show_message(tr("common.error"), tr("settings.save_failed", reason=exc.strerror or str(exc)))

    def restore_geometry(self) -> None:
        """The size the window had when it was last closed (a new player gets the default)."""
        if self.settings.window_size:
            self.resize(*self.settings.window_size)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.confirm_abandon():
            event.ignore()
            return
        self.settings.window_maximized = self.isMaximized()
        if not self.isMaximized():
            self.settings.window_size = [self.width(), self.height()]
        if self.game_screen is not None:
            self.game_screen.timer.stop()
        self._leave_lobby()
        tasks.cancel_all()
        self.notifier.close()
        kept_seats.clear_playing(self.config)  # a clean close: no offer to come back at the next start
        self.save_settings()
        super().closeEvent(event)
