"""The main window: one screen at a time (lobby, table, report, replay) and the menus.

It owns the settings and the one open game, and wires the screens' signals:
the lobby starts a game; the table asks for the report; the report saves,
replays or goes back.  The rules window can be opened from anywhere and
pauses the game while it is open.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow, QMessageBox, QStackedWidget, QWidget

from engines.core import get as get_spec
from engines.core.state import TABLE

from . import gamefile, net, tasks
from . import settings as settings_mod
from .game_screen import GameScreen
from .games import kit_for, names_for_bots
from .i18n import LANGUAGE, tr
from .lobby import Lobby
from .local_game import LocalGame
from .net_game import NetGame
from .replay import ReplayScreen
from .report import ReportScreen, Verdict, verdict_of
from .resources import GAMES
from .rules_dialog import RulesDialog
from .settings import Settings
from .settings_dialog import SettingsDialog


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, config: Path | None = None) -> None:
        super().__init__()
        self.config = config
        self.settings = settings or settings_mod.load(config)
        net.use_relay_settings(self.settings.relay_profiles())  # saved passwords and TLS files per relay
        LANGUAGE.set(self.settings.language)
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
        self.stack.addWidget(self.lobby)
        self.screen: QWidget | None = None
        self.game: LocalGame | NetGame | None = None
        self.game_screen: GameScreen | None = None
        self.report: ReportScreen | None = None
        self.replay: ReplayScreen | None = None
        self.rules: RulesDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.message_box: QMessageBox | None = None
        #: Ask the player before a running game is left behind (off for tools that close the window themselves).
        self.ask_before_abandoning = True
        self._make_menus()
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    # -- menus ---------------------------------------------------------------------------
    def _make_menus(self) -> None:
        bar = self.menuBar()
        self.game_menu = bar.addMenu("")
        self.open_action = QAction(self)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(self.choose_replay)
        self.settings_action = QAction(self)
        self.settings_action.triggered.connect(self.open_settings)
        self.lobby_action = QAction(self)
        self.lobby_action.triggered.connect(self.back_to_lobby)
        self.quit_action = QAction(self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(self.close)
        for a in (self.open_action, self.settings_action, self.lobby_action):
            self.game_menu.addAction(a)
        self.game_menu.addSeparator()
        self.game_menu.addAction(self.quit_action)
        self.help_menu = bar.addMenu("")
        self.rules_actions: dict[str, QAction] = {}
        for name in GAMES:
            action = QAction(self)
            action.triggered.connect(lambda _=False, n=name: self.show_rules(n))
            self.help_menu.addAction(action)
            self.rules_actions[name] = action
        # F1: the rules of the game in front of the player (the table's, the replay's, the lobby's choice).
        self.help_action = QAction(self)
        self.help_action.setShortcut(QKeySequence.StandardKey.HelpContents)
        self.help_action.triggered.connect(lambda: self.show_rules(self.current_game_name()))
        self.addAction(self.help_action)

    def current_game_name(self) -> str:
        """The game the player is looking at: the one being played or replayed, else the lobby's choice."""
        if self.screen is not None and self.screen is self.replay and self.replay is not None:
            return str(self.replay.replay.record.game)
        if self.game is not None:
            return str(self.game.game)
        chosen = self.lobby.game.currentData()
        return str(chosen) if chosen in GAMES else GAMES[0]

    def update_title(self, *_: object) -> None:
        """The window's title: the program, and at a table the game and whose turn it is."""
        screen = self.game_screen
        if screen is not None and self.screen is screen:
            self.setWindowTitle(f"{screen.title_text()} — {tr('app.title')}")
        else:
            self.setWindowTitle(tr("app.title"))

    def retranslate(self, *_: object) -> None:
        self.update_title()
        self.game_menu.setTitle(tr("menu.game"))
        self.help_menu.setTitle(tr("menu.help"))
        self.open_action.setText(tr("menu.open_replay"))
        self.settings_action.setText(tr("menu.settings"))
        self.lobby_action.setText(tr("menu.lobby"))
        self.quit_action.setText(tr("menu.quit"))
        for name, action in self.rules_actions.items():
            action.setText(tr("menu.rules_of", game=tr(f"game.{name}")))

    # -- screens ------------------------------------------------------------------------------
    def _show(self, widget: QWidget) -> None:
        if self.stack.indexOf(widget) < 0:
            self.stack.addWidget(widget)
        self.stack.setCurrentWidget(widget)
        self.screen = widget
        self.update_title()

    def _leave_lobby(self) -> None:
        """Leaving the lobby screen stops waiting for a room (hosted or joined), as its Cancel does."""
        if self.lobby.waiting():
            self.lobby.cancel_waiting()

    def _drop_screens(self) -> None:
        if isinstance(self.game, NetGame):
            self.game.on_change = self.game.on_started = None
            # The bots this window runs for a network game play on to its end (the others still play).
            self.game.stop(bots=bool(self.game.session.finished))
        for w in (self.game_screen, self.report, self.replay):
            if w is not None:
                if isinstance(w, GameScreen):
                    w.timer.stop()
                self.stack.removeWidget(w)
                w.deleteLater()
        self.game_screen = self.report = self.replay = None
        self.screen = None

    def game_at_stake(self) -> bool:
        """Whether a game the player still takes part in is running (leaving it needs their word)."""
        game = self.game
        if game is None or game.human is None or game.over() is not None:
            return False
        return not game.human_left

    def confirm_abandon(self) -> bool:
        """Ask before a running game is left behind by the lobby or by quitting; True: go ahead."""
        if not self.ask_before_abandoning or not self.game_at_stake():
            return True
        text = tr("confirm.abandon_net") if isinstance(self.game, NetGame) else tr("confirm.abandon_local")
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
        self.game = None
        self.stack.setCurrentWidget(self.lobby)
        self.lobby.clear_statuses()
        self.lobby.retranslate()
        self.update_title()

    def start_local(self, game: str, players: int, seed: bytes | None = None, level: str | None = None) -> GameScreen:
        """A game against the computer; ``level`` is the AI level (default: the lobby's choice)."""
        self._leave_lobby()
        self._drop_screens()
        kit = kit_for(game)
        level = level or (self.lobby.ai_level() if self.lobby.game.currentData() == game else "") or kit.default_level
        if level not in kit.levels:
            level = kit.default_level
        spec = get_spec(game)
        if spec.min_players < spec.max_players:  # a game for exactly two leaves the preference alone
            self.settings.players = players
        extra = {"bot_kind": level} if level else {}
        names = names_for_bots(kit, level, players - 1, taken=[self.settings.name])
        self.game = LocalGame.new(game, players, self.settings.name, names, seed or secrets.token_bytes(16), **extra)
        guide = kit.guide() if kit.guide is not None and game not in self.settings.guides_done else None
        screen = GameScreen(self.game, self.settings.bot_delay_ms, guide=list(guide) if guide else None)
        screen.guide_finished.connect(self._guide_finished)
        screen.report_requested.connect(self.show_report)
        screen.rules_requested.connect(self.show_rules)
        screen.refreshed.connect(self.update_title)
        screen.speed_changed.connect(self._bot_speed_chosen)
        self.game_screen = screen
        self._show(screen)
        screen.start()
        return screen

    def start_network(self, game: NetGame) -> NetGame:
        """Play a networked seat: run its transport on the loop; the table opens when the game starts."""
        self._drop_screens()
        self.game = game

        def started() -> None:
            if self.game is not game or self.game_screen is not None:
                return
            screen = GameScreen(game, self.settings.bot_delay_ms)
            screen.report_requested.connect(self.show_report)
            screen.rules_requested.connect(self.show_rules)
            screen.refreshed.connect(self.update_title)
            screen.speed_changed.connect(self._bot_speed_chosen)
            self.game_screen = screen
            self._show(screen)
            screen.start()

        def changed() -> None:
            if game.room_host is not None and game.session.finished:
                host, game.room_host = game.room_host, None  # the room leaves the relay's listing
                tasks.spawn(host.close(), lambda _: None, lambda _: None)
            if self.game is not game:
                return
            if self.game_screen is not None:
                self.game_screen.schedule()
            if self.report is not None:
                self.report.set_verdict(verdict_of(game.verdict))

        def failed(exc: BaseException) -> None:
            text = exc.message() if isinstance(exc, net.NetError) else net.describe_failure(exc, game.relay or "")
            self.show_message(tr("common.error"), text)

        game.on_started = started
        game.on_change = changed
        if game.started:
            started()
        if game.relay is not None and game.transport is None:
            tasks.spawn(game.make_transport().run(), lambda _: None, failed)
        return game

    def show_report(self) -> ReportScreen | None:
        game = self.game
        if game is None or game.over() is None:
            return None
        if self.report is None:
            verdict = verdict_of(game.verdict) if isinstance(game, NetGame) else Verdict("local")
            self.report = ReportScreen(
                f"game.{game.game}",
                game.names,
                game.human,
                game.over(),
                game.state.view(game.knowledge),
                sum(1 for seat, _ in game.history if seat != TABLE),  # players' actions, not the dealing
                verdict,
            )
            # A networked game's file is the protocol's signed log; the replay viewer reads local files only.
            self.report.replay_button.setVisible(isinstance(game, LocalGame))
            self.report.again_button.setVisible(isinstance(game, LocalGame))
            self.report.save_requested.connect(self.save_game)
            self.report.replay_requested.connect(self.replay_current)
            again = getattr(game, "bot_kind", None)
            self.report.again_requested.connect(lambda: self.start_local(game.game, game.players, level=again))
            self.report.lobby_requested.connect(self.to_lobby)
            self.stack.addWidget(self.report)
        self.stack.setCurrentWidget(self.report)
        self.screen = self.report
        self.update_title()
        return self.report

    def default_save_dir(self) -> Path:
        location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return Path(location) if location else Path.home()

    def save_game(self) -> Path | None:
        """Ask where, then save the finished local game; the report says how it went."""
        if self.game is None:
            return None
        if isinstance(self.game, NetGame):
            return self._save_signed_log(self.game)
        suggested = str(self.default_save_dir() / f"{self.game.game}-{self.game.seed.hex()[:8]}{gamefile.SUFFIX}")
        path, _ = QFileDialog.getSaveFileName(self, tr("report.save"), suggested, tr("file.filter"))
        if not path:
            return None
        if not path.endswith(gamefile.SUFFIX):
            path += gamefile.SUFFIX
        try:
            saved = gamefile.save(self.game, Path(path))
        except OSError as exc:
            if self.report:
                self.report.set_status(tr("report.save_failed", reason=exc.strerror or str(exc)), error=True)
            return None
        if self.report:
            self.report.set_status(tr("report.saved", path=str(saved)))
        return saved

    def _save_signed_log(self, game: NetGame) -> Path | None:
        """A networked game is saved as the protocol's signed log (``python -m protocol verify FILE``)."""
        from protocol import savefile

        table = game.session.table
        path, _ = QFileDialog.getSaveFileName(
            self, tr("report.save"), str(self.default_save_dir() / f"{table.room}.sealedlog"), "*.sealedlog"
        )
        if not path:
            return None
        try:
            Path(path).write_bytes(savefile.dump(table.room, [bytes(env.data) for env in table.log]))
        except OSError as exc:
            if self.report:
                self.report.set_status(tr("report.save_failed", reason=exc.strerror or str(exc)), error=True)
            return None
        if self.report:
            self.report.set_status(tr("report.saved", path=path))
        return Path(path)

    def replay_current(self) -> ReplayScreen | None:
        if not isinstance(self.game, LocalGame):
            return None
        try:
            replay = gamefile.Replay(gamefile.record_of(self.game))
        except gamefile.GameFileError as exc:
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
            replay = gamefile.open_any(path)
        except gamefile.GameFileError as exc:
            self.show_message(tr("replay.open_failed"), exc.message())
            return None
        return self._open_replay_screen(replay)

    def _open_replay_screen(self, replay: gamefile.Replay | gamefile.SignedReplay) -> ReplayScreen:
        self._leave_lobby()
        if self.replay is not None:
            self.stack.removeWidget(self.replay)
            self.replay.deleteLater()
        screen = ReplayScreen(replay)
        screen.lobby_requested.connect(self.to_lobby)
        self.replay = screen
        self.stack.addWidget(screen)
        self.stack.setCurrentWidget(screen)
        self.screen = screen
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
            self.save_settings()
            if self.game_screen is not None:
                self.game_screen.set_delay(self.settings.bot_delay_ms)
            self.lobby.retranslate()
        if self.game_screen is not None:
            self.game_screen.resume()
        dialog.deleteLater()

    def _bot_speed_chosen(self, ms: int) -> None:
        self.settings.bot_delay_ms = ms
        self.save_settings()

    def _remember_relay(self, address: str) -> None:
        self.settings.remember_relay(address)
        self.save_settings()

    def _stop_hosted_relay(self) -> None:
        """Stop a LAN relay this window started, letting the loop run until it has (at most 3 s)."""
        if net._HOSTED is None:
            return
        done: list[bool] = []
        tasks.spawn(net.stop_lan_relay(), lambda _: done.append(True), lambda _: done.append(True))
        deadline = time.monotonic() + 3
        app = QApplication.instance()
        while not done and time.monotonic() < deadline and app is not None:
            app.processEvents()
            time.sleep(0.005)

    def _guide_finished(self, game: str) -> None:
        """A first-game guide was done or skipped: it is not shown again."""
        if game not in self.settings.guides_done:
            self.settings.guides_done.append(game)
            self.save_settings()

    def save_settings(self) -> None:
        net.use_relay_settings(self.settings.relay_profiles())
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
        self.save_settings()
        super().closeEvent(event)
