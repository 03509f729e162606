"""The main window: one screen at a time (lobby, table, report, replay) and the menus.

It owns the settings and the one open game, and wires the screens' signals:
the lobby starts a game; the table asks for the report; the report saves,
replays or goes back.  The rules window can be opened from anywhere and
pauses the game while it is open.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow, QMessageBox, QStackedWidget, QWidget

from client.games.kit import kit_for, names_for_bots
from client.i18n import LANGUAGE, tr
from client.net import tasks
from client.net.address import passwords_apart, remember_relay, use_relay_settings
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.lan import lan_relay_address, stop_lan_relay
from client.net.rematch import Rematch
from client.net.resume import resume_online
from client.play import local_file, replays
from client.play.local import LocalGame
from client.screens import move_relay
from client.screens.lobby import Lobby, answer_time
from client.screens.rematch_panel import RematchPanel
from client.screens.replay import ReplayScreen
from client.screens.report import ReportScreen, Verdict, verdict_of
from client.screens.rules_dialog import RulesDialog
from client.screens.rules_pages import GAMES
from client.screens.settings_dialog import SettingsDialog
from client.store import kept_seats
from client.store import settings as settings_mod
from client.store.settings import Settings
from client.table.screen import GameScreen
from client.ui import motion, sound
from client.ui.notify import TurnNotifier
from engines.core import get as get_spec
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
        self.game: LocalGame | NetGame | None = None
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
        move_relay.install(self)  # "Move this game to another relay…" (issue 13)
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
        self.game_menu.setTitle(tr("menu.game"))
        self.help_menu.setTitle(tr("menu.help"))
        self.open_action.setText(tr("menu.open_replay"))
        self.settings_action.setText(tr("menu.settings"))
        self.lobby_action.setText(tr("menu.lobby"))
        self.quit_action.setText(tr("menu.quit"))
        move_relay.retranslate(self)
        for name, action in self.rules_actions.items():
            action.setText(tr("menu.rules_of", game=tr(f"game.{name}")))

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
        self.current_screen = None

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
        if isinstance(self.game, NetGame):
            kept = self.game.saved
            text = (
                tr("confirm.abandon_net_kept", answer=answer_time(kept.timeout_ms))
                if kept is not None
                else tr("confirm.abandon_net")
            )
        else:
            text = tr("confirm.abandon_local")
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
        screen.sound_changed.connect(self._sound_chosen)
        self.game_screen = screen
        self._show(screen)
        screen.start()
        return screen

    def start_network(self, game: NetGame) -> NetGame:  # noqa: C901 (tests/test_complexity.py)
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
            screen.refreshed.connect(self._turn_check)
            screen.speed_changed.connect(self._bot_speed_chosen)
            screen.sound_changed.connect(self._sound_chosen)
            self.game_screen = screen
            self._show(screen)
            screen.start()
            self._turn_check()

        def changed() -> None:
            if game.room_host is not None and game.session.finished:
                host, game.room_host = game.room_host, None  # the room leaves the relay's listing
                tasks.spawn(host.close(), lambda _: None, lambda _: None)
            self._note_progress(game)
            if self.game is not game:
                return
            self._say_refused_genesis(game)
            if self.report is not None and game.over() is None and self.game_screen is not None:
                self._back_to_table()  # a claimed win was voided (two seats): the game goes on
            if self.game_screen is not None:
                self.game_screen.schedule()
            if self.report is not None:
                self.report.set_verdict(verdict_of(game.verdict))

        def failed(exc: BaseException) -> None:
            text = game.failure_text(exc)
            self.show_message(tr("common.error"), text)

        game.on_started = started
        game.on_change = changed
        self._keep_relay_password(game)
        if game.saved is not None:
            with contextlib.suppress(OSError):  # only the offer to come back after a crash would be lost
                kept_seats.mark_playing(game.saved, self.config)
        elif game.save_error:
            self.show_message(tr("common.error"), tr("resume.not_kept", reason=game.save_error))
        if game.started:
            started()

        def delivered(_: object) -> None:
            # The transport ends once the game is over and the broker has every entry of this seat.
            game.delivered = True
            self._note_progress(game)

        if game.relay is not None and game.transport is None:
            tasks.spawn(game.make_transport().run(), delivered, failed)
        return game

    def _turn_check(self) -> None:
        """A network game's table was redrawn: if the player's turn has just come, tell them when away."""
        game = self.game
        if not isinstance(game, NetGame) or self.game_screen is None:
            return
        text = tr("notify.turn_text", game=tr(f"game.{game.game}"))
        self.notifier.observe(game.human_to_move(), tr("notify.turn_title"), text)

    # -- kept seats: progress, resume, the offer after a crash ----------------------------------
    def _keep_relay_password(self, game: NetGame) -> None:
        """A kept seat names its relay without the password: the password goes where saved passwords go."""
        relay = game.relay
        password = getattr(relay, "password", None)
        if game.saved is None or not password or self.settings.passwords.get(str(relay)) == password:
            return
        self.settings.passwords[str(relay)] = password
        self.save_settings()

    def _note_progress(self, game: NetGame) -> None:
        """Keep what the lobby lists about the seat (players, whose turn, last activity, over or given up)."""
        kept = game.saved
        if kept is None:
            return
        table = game.session.table
        head = table.head if table is not None else -1
        # Over for this seat once its last entries are on the relay too: until then a resume still sends them.
        finished = bool(game.session.finished) and game.delivered
        verdict = game.verdict
        label = ("fair" if verdict.fair else "cheat") if verdict is not None else ""
        facts = (
            head,
            game.turn_name(),
            tuple(game.names),
            finished,
            game.human_left,
            label,
            game.turn_seat(),
            str(game.relay),
        )
        if game.kept_facts == facts:
            return
        if game.kept_facts is not None and head != game.kept_facts[0]:
            kept.last_activity = time.time()
        game.kept_facts = facts
        kept.turn, kept.turn_seat = facts[1], facts[6]
        kept.finished, kept.left, kept.verdict = finished, game.human_left, label
        if game.names:
            kept.names = list(game.names)
        if game.relay is not None:
            kept.relay = str(game.relay)  # where the game is now, if it moved to another relay
        if table is not None and not kept.timeout_ms:
            kept.timeout_ms = table.timeout_ms
        try:
            kept_seats.write_public(kept)
        except OSError:
            return
        if (finished or game.human_left) and self.game is game:
            kept_seats.clear_playing(self.config)

    def _say_refused_genesis(self, game: NetGame) -> None:
        """A genesis this seat refuses (an answer time outside 30 s .. 7 days, a bad seat list) is said once."""
        if game.started or game.refusal_said:
            return
        refused = game.refused_genesis()
        if refused is not None:
            game.refusal_said = True
            self.show_message(tr("common.error"), tr("resume.genesis_refused", reason=refused.reason))

    def resume_saved(self, seat: kept_seats.SavedSeat) -> None:
        """Take a kept seat again: read the room's log back from its relay and carry on."""
        if self.game is not None and not self.confirm_abandon():
            return

        def resumed(game: NetGame) -> None:
            self.lobby.resuming_done()
            self.start_network(game)

        def failed(exc: BaseException) -> None:
            self.lobby.resuming_done()
            text = exc.message() if isinstance(exc, NetError) else f"{tr('common.error')}: {exc}"
            self.show_message(tr("common.error"), tr("resume.failed", room=seat.room, reason=text))

        if self.game is not None:
            self.to_lobby()
        self.lobby.resuming(seat)
        tasks.spawn(resume_online(seat, self.settings.name, self.settings.bot_delay_ms), resumed, failed)

    def offer_resume(self) -> kept_seats.SavedSeat | None:
        """At start: if the program did not close properly while at a network table, offer to go back there."""
        seat = kept_seats.crashed_in(self.config)
        kept_seats.clear_playing(self.config)
        if seat is None:
            return None
        game = tr(f"game.{seat.game}") if seat.game in GAMES else seat.game
        answer = QMessageBox.question(self, tr("resume.offer_title"), tr("resume.offer", game=game, room=seat.room))
        if answer != QMessageBox.StandardButton.Yes:
            return None
        self.resume_saved(seat)
        return seat

    def _back_to_table(self) -> None:
        """The report of a game that is no longer over goes; the table shows again."""
        report, self.report = self.report, None
        if report is not None:
            self.stack.removeWidget(report)
            report.deleteLater()
        assert self.game_screen is not None
        self._show(self.game_screen)

    def show_report(self) -> ReportScreen | None:
        game = self.game
        over = game.over() if game is not None else None
        if game is None or over is None:
            return None
        if self.report is None:
            verdict = verdict_of(game.verdict) if isinstance(game, NetGame) else Verdict("local")
            self.report = ReportScreen(
                f"game.{game.game}",
                game.names,
                game.human,
                over,
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
            if isinstance(game, NetGame) and game.relay is not None:
                self._offer_rematch(game, self.report)
            self.stack.addWidget(self.report)
        self.stack.setCurrentWidget(self.report)
        self.current_screen = self.report
        self.update_title()
        return self.report

    def _offer_rematch(self, game: NetGame, report: ReportScreen) -> None:
        """The report of a network game offers "Play again": the same players, seats and relay, a new room."""
        holder: list[RematchPanel] = []
        rematch = Rematch(
            game,
            self.settings.name,
            self.config,
            self.settings.bot_delay_ms,
            on_change=lambda: holder[0].refresh() if holder else None,
            on_started=self._rematch_started,
        )
        panel = RematchPanel(rematch)
        holder.append(panel)
        report.add_panel(panel)
        self.rematch, self.rematch_panel = rematch, panel
        rematch.start()

    def _rematch_started(self, new_game: NetGame) -> None:
        """Everyone said yes and the new room started: its table replaces the report."""
        self.start_network(new_game)

    def default_save_dir(self) -> Path:
        location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return Path(location) if location else Path.home()

    def save_game(self) -> Path | None:
        """Ask where, then save the finished local game; the report says how it went."""
        if self.game is None:
            return None
        if isinstance(self.game, NetGame):
            return self._save_signed_log(self.game)
        suggested = str(self.default_save_dir() / f"{self.game.game}-{self.game.seed.hex()[:8]}{local_file.SUFFIX}")
        path, _ = QFileDialog.getSaveFileName(self, tr("report.save"), suggested, tr("file.filter"))
        if not path:
            return None
        if not path.endswith(local_file.SUFFIX):
            path += local_file.SUFFIX
        try:
            saved = local_file.save(self.game, Path(path))
        except OSError as exc:
            if self.report:
                self.report.set_status(tr("report.save_failed", reason=exc.strerror or str(exc)), error=True)
            return None
        if self.report:
            self.report.set_status(tr("report.saved", path=str(saved)))
        return saved

    def _save_signed_log(self, game: NetGame) -> Path | None:
        """A networked game is saved as the protocol's signed log (``python -m protocol verify FILE``)."""
        from protocol import verify

        table = game.session.table
        if table is None:
            return None
        path, _ = QFileDialog.getSaveFileName(
            self, tr("report.save"), str(self.default_save_dir() / f"{table.room}.sealedlog"), "*.sealedlog"
        )
        if not path:
            return None
        try:
            Path(path).write_bytes(verify.dump(table.room, [bytes(env.data) for env in table.log]))
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
            replay = replays.Replay(local_file.record_of(self.game))
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

    def _stop_hosted_relay(self) -> None:
        """Stop a LAN relay this window started, letting the loop run until it has (at most 3 s)."""
        if lan_relay_address() is None:
            return
        done: list[bool] = []
        tasks.spawn(stop_lan_relay(), lambda _: done.append(True), lambda _: done.append(True))
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
