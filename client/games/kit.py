"""Which games the program can show, and how: one :class:`GameKit` per game.

The shared screens (the table window, the replay viewer, the report, the
lobby) know nothing about any one game: they ask the game's kit for its table
widget, its log writer, how to show a live game or a past position, the
end-of-game banner, a player's line in the report, and the AI levels the
lobby offers.  A kit lives with its game's package and is imported only when
first needed; adding a game is one line in :data:`client.registry.KIT_MODULES`.
A game's table on screen is a :class:`TableWidget`; its log is read through
:mod:`client.games.log`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from client.games.log import LogLine, LogWriter
from client.games.showcase import Shot, ShowcaseWindow
from client.i18n import tr
from client.play.source import GameSource
from client.registry import KIT_MODULES
from client.ui.guide import GuideStep
from client.ui.keys import KeyedTable
from engines.core import Action, GameOver, Knowledge, registry


class TableWidget(KeyedTable, Protocol):
    """A game's table on screen: it draws what its kit shows it and offers the legal actions as controls.

    Nothing illegal is ever offered, so a chosen action leaves the table as a signal and is never
    refused; the screen around the table owns the game, the table only draws.
    """

    @property
    def action_chosen(self) -> SignalInstance:
        """Emitted with the action the player chose (a tuple, one of :attr:`legal`)."""
        ...

    @property
    def report_requested(self) -> SignalInstance:
        """Emitted when the player asks for the report (the game is over)."""
        ...

    @property
    def legal(self) -> list[Action]:
        """The actions the table offers now."""
        ...

    @property
    def report_button(self) -> QPushButton: ...

    def set_banner(self, text: str, tone: str = "plain") -> None:
        """The table's one line of news (``tone``: "plain", "event", "win", …)."""
        ...

    def widget(self) -> QWidget:
        """The table as Qt lays it out."""
        ...


#: The table class a kit's functions are written against (each game's own table).
TableT = TypeVar("TableT", bound=TableWidget)


def _no_choice(table: TableWidget) -> None:
    """A table that keeps no choice in progress has nothing to forget."""


def _last_line(lines: Sequence[LogLine]) -> LogLine:
    return lines[-1]


def _shared_names(level: str, count: int) -> list[str]:
    return [n.strip() for n in tr("bot.names").split(",")][:count]


@dataclass(frozen=True)
class GameKit(Generic[TableT]):
    """Everything game-specific the shared screens need, written against the game's own table class.

    A game's kit is a ``GameKit`` of its own table: ``GameKit(make_table=SystemLaunchTable, ...)``
    is a ``GameKit[SystemLaunchTable]``, so mypy checks each of the kit's functions against that
    class (``show_live`` calls the table's own ``show_view``, a guide step rings its widgets), and
    checks that the class is a :class:`TableWidget`.  The shared screens never name a table class:
    :func:`kit_for` hands them every kit as a ``GameKit[TableWidget]``.  That is sound because a
    screen gives a kit's functions only the table the same kit's :attr:`make_table` made, and
    :func:`kit_for` is the one place where the game's view of its kit becomes the screens' view.
    """

    name: str
    #: ``make_table(players, names)``: the table widget.
    make_table: Callable[[int, Sequence[str]], TableT]
    #: ``make_writer(me, players)``: the log writer for seat ``me``'s eyes (None: a spectator).
    make_writer: Callable[[int | None, int], LogWriter]
    #: ``show_live(table, game, delay_ms)``: draw a game being played, offering its legal actions.
    show_live: Callable[[TableT, GameSource, int], None]
    #: ``show_frame(table, view, knowledge)``: draw a past position (a replay's frame, a moment looked back at),
    #: offering nothing.
    show_frame: Callable[[TableT, dict[str, Any], Knowledge], None]
    #: ``over_banner(over, names, me)``: the table's words when the game has ended.
    over_banner: Callable[[GameOver, Sequence[str], int | None], str]
    #: ``report_row(final_view, seat)``: a seat's line in the report's final tables.
    report_row: Callable[[dict[str, Any], int], QWidget]
    #: ``report_headline(over, names, me)``: the report's headline in the game's own words, or None for the
    #: shared wording (a win, "You win!", a shared draw, a draw).
    report_headline: Callable[[GameOver, Sequence[str], int | None], str | None] = lambda over, names, me: None
    #: ``reset_choice(table)``: forget a choice in progress after a decision.
    reset_choice: Callable[[TableT], None] = _no_choice
    #: ``headline(lines)``: the line of a step the table's banner shows (default: the last).
    headline: Callable[[Sequence[LogLine]], LogLine] = _last_line
    #: ``lobby_art()``: the game's picture in the lobby (a new widget each call).
    lobby_art: Callable[[], QWidget] = QWidget
    #: ``guide()``: the steps of the first-game guide; None: no guide.
    guide: Callable[[], Sequence[GuideStep[TableT]]] | None = None
    #: ``table_ready(public)``: whether a position (the engine's public data) has a table to show yet
    #: (a replay opens at the first such frame).
    table_ready: Callable[[Any], bool] = lambda public: True
    #: Whether the game hides anything (if not, a replay has no "public view" to unlock).
    secrets: bool = True
    #: AI levels offered in the lobby (bot names of the engine's registry), and the default.
    levels: tuple[str, ...] = ()
    default_level: str = ""
    #: ``forfeit_note(active)``: what it does to this game when a seat is voted gone, with ``active`` seats
    #: still in (the rules page's words); the table shows it when a seat may be voted gone.
    forfeit_note: Callable[[int], str] = lambda active: ""
    #: ``showcase(window, shot, app)``: plays a reproducible game in the window, calling ``shot(name)`` at the
    #: moments ``python -m client.tools.screenshots`` keeps (None: the game has no screenshots).
    showcase: Callable[[ShowcaseWindow[TableT], Shot, QApplication], None] | None = None
    #: ``bot_names(level, count)``: names for the computer's seats.
    bot_names: Callable[[str, int], list[str]] = _shared_names


_KITS: dict[str, GameKit[TableWidget]] = {}


def names_for_bots(kit: GameKit[TableWidget], level: str, count: int, taken: Sequence[str]) -> list[str]:
    """``count`` names for the computer's seats, none of them a name a person at the table uses.

    A player called "Ada" must never meet a bot called "Ada": the log and the report would
    mix them up.  Clashing names are skipped; when the kit runs out, the rest are numbered.
    """
    used = {name.casefold() for name in taken}
    names: list[str] = []
    for name in kit.bot_names(level, count + len(used)):
        if len(names) == count:
            break
        if name.casefold() not in used:
            used.add(name.casefold())
            names.append(name)
    base = names[0] if names else tr("bot.fallback")
    number = 2
    while len(names) < count:
        candidate = f"{base} {number}"
        number += 1
        if candidate.casefold() not in used:
            used.add(candidate.casefold())
            names.append(candidate)
    return names


def playable() -> frozenset[str]:
    """Games whose table this version of the program can show."""
    return frozenset(KIT_MODULES)


def kit_for(game: str) -> GameKit[TableWidget]:
    """The kit of ``game`` as the shared screens see it (KeyError for a game without a table).

    The kit module's ``KIT`` is a ``GameKit`` of the game's own table class; it is held here as a
    ``GameKit[TableWidget]`` (see :class:`GameKit` for why that is sound).
    """
    if game not in _KITS:
        _KITS[game] = importlib.import_module(KIT_MODULES[game]).KIT
    return _KITS[game]


def bot_kinds(game: str) -> list[str]:
    """The bots a seat of ``game`` can be given: the kit's AI levels, else the engine's bots."""
    kit = kit_for(game)
    if kit.levels:
        return list(kit.levels)
    return sorted(registry.get(game).bots)


def bot_label(kind: str) -> str:
    """A bot kind in the player's language ("Greedy"), or its own name when the catalogue has none."""
    label = tr(f"level.{kind}")
    return kind if label == f"level.{kind}" else label
