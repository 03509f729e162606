"""A game against the computer in the window: the referee holds the truth, the file is the local record.

A local game is saved as its record (:mod:`client.play.local_file`), replays in the viewer and
offers "Play again" at the same level.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QFileDialog

from client.games.kit import kit_for, names_for_bots
from client.i18n import tr
from client.play import local_file
from client.play.local import LocalGame
from client.play.local_file import GameRecord
from client.screens.report import ReportScreen, Verdict
from client.screens.window.playing import Window, tell_saved
from client.table.screen import GameScreen
from engines.core import get as get_spec


class LocalWindow(Window, Protocol):
    """What a local game needs of the window beyond what every game does."""

    def start_local(
        self, game: str, players: int, seed: bytes | None = None, level: str | None = None
    ) -> GameScreen: ...

    def guide_finished(self, game: str) -> None: ...


class LocalPlay:
    """A game against the computer the window plays."""

    def __init__(self, window: LocalWindow, game: LocalGame) -> None:
        self.window = window
        self._game = game

    @property
    def game(self) -> LocalGame:
        return self._game

    @property
    def network(self) -> None:
        return None

    def abandon_question(self) -> str:
        return tr("confirm.abandon_local")

    def verdict(self) -> Verdict:
        return Verdict("local")

    def record(self) -> GameRecord:
        return local_file.record_of(self._game)

    def dress_report(self, report: ReportScreen) -> None:
        """The game can be replayed, and played again against the same bots."""
        game = self._game
        report.replay_button.setVisible(True)
        report.again_button.setVisible(True)
        report.again_requested.connect(lambda: self.window.start_local(game.game, game.players, level=game.bot_kind))

    def save(self) -> Path | None:
        game, window = self._game, self.window
        suggested = str(window.default_save_dir() / f"{game.game}-{game.seed.hex()[:8]}{local_file.SUFFIX}")
        path, _ = QFileDialog.getSaveFileName(window.window(), tr("report.save"), suggested, tr("file.filter"))
        if not path:
            return None
        if not path.endswith(local_file.SUFFIX):
            path += local_file.SUFFIX
        try:
            saved = local_file.save(game, Path(path))
        except OSError as exc:
            tell_saved(window, None, exc)
            return None
        tell_saved(window, saved)
        return saved

    def drop(self) -> None:
        """Nothing runs beside a local game: the table's timer is the screen's."""


def start(window: LocalWindow, game: str, players: int, seed: bytes | None, level: str | None) -> GameScreen:
    """A game against the computer; ``level`` is the AI level (default: the lobby's choice)."""
    settings = window.settings
    kit = kit_for(game)
    level = level or (window.lobby.ai_level() if window.lobby.game.currentData() == game else "") or kit.default_level
    if level not in kit.levels:
        level = kit.default_level
    spec = get_spec(game)
    if spec.min_players < spec.max_players:  # a game for exactly two leaves the preference alone
        settings.players = players
    extra = {"bot_kind": level} if level else {}
    names = names_for_bots(kit, level, players - 1, taken=[settings.name])
    local = LocalGame.new(game, players, settings.name, names, seed or secrets.token_bytes(16), **extra)
    guide = kit.guide() if kit.guide is not None and game not in settings.guides_done else None
    screen = GameScreen.of_local(local, settings.bot_delay_ms, guide=list(guide) if guide else None)
    screen.guide_finished.connect(window.guide_finished)
    window.hold(LocalPlay(window, local))
    window.show_table(screen)
    return screen
