"""What the window holds while a game is open, and what differs between a local game and a networked seat.

The window does not ask which kind of game it has: it started it, through
:func:`client.screens.window.local_play.start` or :func:`client.screens.window.network_play.start`,
and holds the :class:`Playing` those return.  Each answers the questions whose answers differ
(what leaving it risks, how it is saved, what its report offers) in its own way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QMessageBox, QWidget

from client.i18n import tr
from client.net.game import NetGame
from client.play.local_file import GameRecord
from client.play.source import GameSource
from client.screens.lobby import Lobby
from client.screens.report import ReportScreen, Verdict
from client.store.settings import Settings
from client.table.screen import GameScreen


class Playing(Protocol):
    """The open game, as the kind of game the window started."""

    @property
    def game(self) -> GameSource: ...

    @property
    def network(self) -> NetGame | None:
        """The networked seat being played (the same object as :attr:`game`), or None for a local game."""
        ...

    def abandon_question(self) -> str:
        """What the player is asked before the window leaves the game behind."""
        ...

    def record(self) -> GameRecord | None:
        """The record the replay viewer rebuilds the game from (None: the game has none here)."""
        ...

    def verdict(self) -> Verdict: ...

    def dress_report(self, report: ReportScreen) -> None:
        """The report's parts that depend on the kind of game (replay, play again, a rematch)."""
        ...

    def save(self) -> Path | None:
        """Ask where, then save the game in its own format; the report says how it went."""
        ...

    def drop(self) -> None:
        """The window lets go of the game (another game, the lobby, or closing)."""
        ...


class Window(Protocol):
    """What the parts of the window need of it."""

    @property
    def settings(self) -> Settings: ...

    @property
    def config(self) -> Path | None: ...

    @property
    def lobby(self) -> Lobby: ...

    @property
    def report(self) -> ReportScreen | None: ...

    @property
    def playing(self) -> Playing | None: ...

    @property
    def game_screen(self) -> GameScreen | None: ...

    def window(self) -> QWidget: ...

    def show_message(self, title: str, text: str) -> QMessageBox: ...

    def hold(self, playing: Playing) -> None: ...

    def show_table(self, screen: GameScreen) -> None: ...

    def save_settings(self) -> None: ...

    def default_save_dir(self) -> Path: ...


def tell_saved(window: Window, path: Path | None, error: OSError | None = None) -> None:
    """The report's line about a save: where it went, or why it failed."""
    if window.report is None:
        return
    if error is not None:
        window.report.set_status(tr("report.save_failed", reason=error.strerror or str(error)), error=True)
    elif path is not None:
        window.report.set_status(tr("report.saved", path=str(path)))
