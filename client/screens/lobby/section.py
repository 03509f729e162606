"""What the lobby's sections share: the white frame each sits in, the words for times and games, and the lobby's side.

A section builds its own widgets, says them in the current language and handles its own buttons;
what reaches beyond it — network work, and the one room waited for at a time — it asks of the
lobby through :class:`Rooms`, so that no section imports the lobby that holds it.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypedDict, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout

from client.games.kit import bot_kinds, kit_for, playable
from client.i18n import tr
from client.net.game import NetGame
from client.net.hosting import Hosting
from client.net.lan import ListedRoom
from client.screens.rules_pages import GAMES
from client.store.settings import Settings
from client.ui.named import named

T = TypeVar("T")

#: The answer time a new room starts with (the host may change it in the room panel).
DEFAULT_ANSWER_MS = 120_000

#: Games whose table this version of the program can show (those with a kit in :mod:`client.games.kit`).
PLAYABLE = playable()

#: The answer times a host picks from (ms): the protocol allows 30 s .. 7 days (``protocol.schema``).
ANSWER_TIMES = (30_000, 120_000, 600_000, 3_600_000, 86_400_000, 7 * 86_400_000)
#: A preset's words (message id); any other time is said in the largest unit that divides it.
_ANSWER_WORDS = dict(zip(ANSWER_TIMES, ("30s", "2min", "10min", "1h", "1d", "7d"), strict=True))


def answer_time(ms: int) -> str:
    """A seat's answer time in words: "2 minutes", "1 day"; "45 s", "3 h" for a time that is no preset."""
    if ms in _ANSWER_WORDS:
        return tr(f"answer.{_ANSWER_WORDS[ms]}")
    for unit, size in (("days", 86_400_000), ("hours", 3_600_000), ("minutes", 60_000)):
        if ms >= size and ms % size == 0:
            return tr(f"answer.n_{unit}", n=ms // size)
    return tr("answer.n_seconds", n=max(ms, 0) // 1000 if ms % 1000 == 0 else round(max(ms, 0) / 1000, 1))


def game_name(game: str) -> str:
    """A game's name in the current language; a game this program does not know, as the room named it."""
    return tr(f"game.{game}") if game in GAMES else game


class BotSetup(TypedDict):
    """How the host's bots play a network seat (keywords of :class:`~client.net.hosting.Hosting`)."""

    think_ms: int
    bot_names: list[str]


def bot_setup(game: str, settings: Settings) -> BotSetup:
    """The bot pace of the settings, and the bots' names: the game's kit's, else the shared list."""
    kit = kit_for(game) if game in PLAYABLE else None
    kinds = bot_kinds(game)
    names = kit.bot_names(kinds[0], 6) if kit is not None and kit.levels else []
    names = names or [n.strip() for n in tr("bot.names").split(",")]
    return {"think_ms": settings.bot_delay_ms, "bot_names": names}


def show_status(status: QLabel, text: str, error: bool = False) -> None:
    """A status line's sentence; an error is shown as one (the style sheet's ``[error="true"]``)."""
    status.setText(text)
    status.setProperty("error", "true" if error else "false")
    status.style().unpolish(status)
    status.style().polish(status)


class Section(QFrame):
    """A white frame: a title, a line of text, the section's own widgets, and a status line at the bottom."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("section")
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(18, 14, 18, 16)
        self.box.setSpacing(8)
        self.title = named(QLabel(), "section_title")
        self.text = named(QLabel(), "section_text")
        self.text.setWordWrap(True)
        self.box.addWidget(self.title)
        self.box.addWidget(self.text)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def finish(self) -> None:
        """After the section's own widgets: the status line, kept at the bottom."""
        self.box.addStretch(1)
        self.box.addWidget(self.status)

    def set_status(self, text: str, error: bool = False) -> None:
        show_status(self.status, text, error)


#: How a section opens its room once the lobby lets it: (game, players) -> the game when the room starts.
Opening = Callable[[str, int], Coroutine[Any, Any, NetGame]]


class Rooms(Protocol):
    """What a section asks of the lobby: network work run off the window, and one room at a time."""

    def run(
        self, key: str, section: Section, coro: Coroutine[Any, Any, T], on_done: Callable[[T], None], busy_text: str
    ) -> None:
        """Run ``coro`` (once per ``key`` at a time), the section's status saying ``busy_text``, then any failure."""

    def host(self, key: str, section: Section, opening: Opening, busy_text: str, remember: str = "") -> None:
        """Open a room of the game chosen against the computer, unless a room is already waited for."""

    def attach(self, hosting: Hosting, section: Section) -> None:
        """The room exists: its panel shows its seats and invitation, and ``section`` says its news."""

    def answer_ms(self) -> int:
        """The answer time a room opened now starts with (the last one chosen, else the default)."""

    def join(
        self,
        section: Section,
        address: str,
        code: str,
        remember: str = "",
        seat: int | None = None,
        fingerprint: str = "",
        fallbacks: tuple[str, ...] = (),
        token: str = "",
        listed: ListedRoom | None = None,
    ) -> None:
        """Ask for a seat in room ``code`` (or at ``listed``'s door); wait in the room panel until it starts."""

    def peek(self, section: Section, address: str, code: str, seat: int | None) -> None:
        """Show who hosts room ``code`` (name, key, answer time) before asking for a seat."""
