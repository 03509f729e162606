"""What a game's showcase drives: the main window, as ``python -m client.tools.screenshots`` hands it over.

A showcase (``client/games/<game>/showcase.py``) plays a reproducible game through the real
screens and calls :class:`Shot` at the moments worth keeping.  The main window lives above the
games in the client's layers, so a showcase sees it through these Protocols; they are generic
in the table class so that a showcase may click its own game's table (see
:class:`client.games.kit.GameKit` for how a kit's table class meets the screens' view).
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Protocol, TypeVar

from PySide6.QtWidgets import QCheckBox, QWidget

from client.play.source import GameSource
from engines.core import Action

TableT_co = TypeVar("TableT_co", covariant=True)


class ShownGame(Protocol[TableT_co]):
    """The table window of the game being shown: its game, its table, and the player's choice."""

    @property
    def game(self) -> GameSource: ...

    @property
    def table(self) -> TableT_co: ...

    def choose(self, action: Action) -> None:
        """The player chose ``action`` (one the table offers), as a click on its control would."""
        ...


class ShownReplay(Protocol):
    """The replay viewer: its frames, the full view's switch, and a frame to show."""

    @property
    def frames(self) -> Sized: ...

    @property
    def full(self) -> QCheckBox: ...

    def show_frame(self, index: int) -> None: ...


class ShowcaseWindow(Protocol[TableT_co]):
    """The main window, as far as a showcase drives it."""

    def start_local(
        self, game: str, players: int, seed: bytes | None = None, level: str | None = None
    ) -> ShownGame[TableT_co]:
        """A game against the computer (``level``: the AI level), its table on screen."""
        ...

    def show_rules(self, game: str) -> QWidget:
        """The rules window, open at ``game``'s page."""
        ...

    def show_report(self) -> object:
        """The report of the game just played, in the window."""
        ...

    def replay_current(self) -> ShownReplay | None:
        """The replay viewer on the game just played (None: the game cannot be replayed)."""
        ...


class Shot(Protocol):
    """Keeps one screenshot: ``widget`` (the whole window when None) as ``<name>.png``."""

    def __call__(self, name: str, widget: QWidget | None = None) -> None: ...
