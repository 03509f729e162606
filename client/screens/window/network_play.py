"""A networked seat in the window: its transport on the loop, its table once the game starts, its signed log.

The transport runs as a task on the loop (:mod:`client.net.tasks`); the seat tells the window
of every change (:attr:`NetGame.on_change`), and the window keeps what the lobby lists about the
seat (:mod:`client.screens.window.kept`), says a refused genesis once, brings the table back when
a claimed win is voided, and tells a player who is away that their turn came.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QFileDialog

from client.i18n import tr
from client.net import tasks
from client.net.game import NetGame
from client.net.rematch import Rematch
from client.play.local_file import GameRecord
from client.screens.lobby import answer_time
from client.screens.rematch_panel import RematchPanel
from client.screens.report import ReportScreen, Verdict, verdict_of
from client.screens.window import kept
from client.screens.window.playing import Window, tell_saved
from client.store import kept_seats
from client.table.screen import GameScreen
from client.ui.notify import TurnNotifier
from protocol import verify


class NetWindow(Window, Protocol):
    """What a networked seat needs of the window beyond what every game does."""

    @property
    def notifier(self) -> TurnNotifier: ...

    @property
    def rematch(self) -> Rematch | None: ...

    def back_to_table(self) -> None: ...

    def hold_rematch(self, rematch: Rematch, panel: RematchPanel) -> None: ...

    def start_network(self, game: NetGame) -> NetGame: ...


class NetworkPlay:
    """A networked seat the window plays."""

    def __init__(self, window: NetWindow, game: NetGame) -> None:
        self.window = window
        self._game = game

    @property
    def game(self) -> NetGame:
        return self._game

    @property
    def network(self) -> NetGame:
        return self._game

    def abandon_question(self) -> str:
        kept_seat = self._game.saved
        if kept_seat is None:
            return tr("confirm.abandon_net")
        return tr("confirm.abandon_net_kept", answer=answer_time(kept_seat.timeout_ms))

    def verdict(self) -> Verdict:
        return verdict_of(self._game.verdict)

    def record(self) -> GameRecord | None:
        """None: a networked game's file is the protocol's signed log, which the replay viewer opens from disk."""
        return None

    def dress_report(self, report: ReportScreen) -> None:
        """No replay or "same again" against bots; "Play again" offers a rematch to the same table."""
        report.replay_button.setVisible(False)
        report.again_button.setVisible(False)
        if self._game.relay is not None:
            self._offer_rematch(report)

    def save(self) -> Path | None:
        """The protocol's signed log (``python -m protocol verify FILE`` checks it anywhere)."""
        table = self._game.session.table
        if table is None:
            return None
        suggested = str(self.window.default_save_dir() / f"{table.room}.sealedlog")
        path, _ = QFileDialog.getSaveFileName(self.window.window(), tr("report.save"), suggested, "*.sealedlog")
        if not path:
            return None
        try:
            Path(path).write_bytes(verify.dump(table.room, [bytes(env.data) for env in table.log]))
        except OSError as exc:
            tell_saved(self.window, None, exc)
            return None
        tell_saved(self.window, Path(path))
        return Path(path)

    def drop(self) -> None:
        game = self._game
        game.on_change = game.on_started = None
        # The bots this window runs for a network game play on to its end (the others still play).
        game.stop(bots=bool(game.session.finished))

    # -- playing --------------------------------------------------------------------------
    def start(self) -> None:
        """Run the seat's transport on the loop; the table opens when the game starts."""
        game, window = self._game, self.window
        game.on_started = self._started
        game.on_change = self._changed
        if kept.keep_relay_password(game, window.settings):
            window.save_settings()
        if game.saved is not None:
            with contextlib.suppress(OSError):  # only the offer to come back after a crash would be lost
                kept_seats.mark_playing(game.saved, window.config)
        elif game.save_error:
            window.show_message(tr("common.error"), tr("resume.not_kept", reason=game.save_error))
        if game.started:
            self._started()
        if game.relay is not None and game.transport is None:
            tasks.spawn(game.make_transport().run(), self._delivered, self._failed)

    def _current(self) -> bool:
        return self.window.playing is self

    def _started(self) -> None:
        window = self.window
        if not self._current() or window.game_screen is not None:
            return
        screen = GameScreen.of_network(self._game, window.settings.bot_delay_ms)
        screen.refreshed.connect(self.turn_check)
        window.show_table(screen)
        self.turn_check()

    def _changed(self) -> None:
        game, window = self._game, self.window
        if game.room_host is not None and game.session.finished:
            host, game.room_host = game.room_host, None  # the room leaves the relay's listing
            tasks.spawn(host.close(), lambda _: None, lambda _: None)
        kept.note_progress(game, window.config, self._current())
        if not self._current():
            return
        self._say_refused_genesis()
        if window.report is not None and game.over() is None and window.game_screen is not None:
            window.back_to_table()  # a claimed win was voided (two seats): the game goes on
        if window.game_screen is not None:
            window.game_screen.schedule()
        if window.report is not None:
            window.report.set_verdict(verdict_of(game.verdict))

    def _failed(self, exc: BaseException) -> None:
        self.window.show_message(tr("common.error"), self._game.failure_text(exc))

    def _delivered(self, _: object) -> None:
        """The transport ends once the game is over and the broker has every entry of this seat."""
        self._game.delivered = True
        kept.note_progress(self._game, self.window.config, self._current())

    def turn_check(self) -> None:
        """The table was redrawn: if the player's turn has just come, tell them when away."""
        if not self._current() or self.window.game_screen is None:
            return
        text = tr("notify.turn_text", game=tr(f"game.{self._game.game}"))
        self.window.notifier.observe(self._game.human_to_move(), tr("notify.turn_title"), text)

    def _say_refused_genesis(self) -> None:
        """A genesis this seat refuses (an answer time outside 30 s .. 7 days, a bad seat list) is said once."""
        game = self._game
        if game.started or game.refusal_said:
            return
        refused = game.refused_genesis()
        if refused is not None:
            game.refusal_said = True
            self.window.show_message(tr("common.error"), tr("resume.genesis_refused", reason=refused.reason))

    def _offer_rematch(self, report: ReportScreen) -> None:
        """ "Play again": the same players, seats and relay, a new room; its table replaces the report."""
        window = self.window
        holder: list[RematchPanel] = []
        rematch = Rematch(
            self._game,
            window.settings.name,
            window.config,
            window.settings.bot_delay_ms,
            on_change=lambda: holder[0].refresh() if holder else None,
            on_started=window.start_network,
        )
        panel = RematchPanel(rematch)
        holder.append(panel)
        report.add_panel(panel)
        window.hold_rematch(rematch, panel)
        rematch.start()
