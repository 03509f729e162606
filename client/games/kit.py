"""Which games the program can show, and how: one :class:`GameKit` per game.

The shared screens (the table window, the replay viewer, the report, the
lobby) know nothing about any one game: they ask the game's kit for its table
widget, its log writer, how to show a live game or a replay frame, the
end-of-game banner, a player's line in the report, and the AI levels the
lobby offers.  A kit lives with its game's package and is imported only when
first needed; adding a game is one line in :data:`client.registry.KIT_MODULES`.
A game's table on screen is a :class:`TableWidget`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QPushButton, QWidget

from client.i18n import tr
from client.registry import KIT_MODULES
from client.ui.keys import KeyedTable
from engines.core import Action, GameOver, Knowledge


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


@dataclass(frozen=True)
class GameKit:
    """Everything game-specific the shared screens need."""

    name: str
    #: ``make_table(players, names)``: the table widget.
    make_table: Callable[[int, Sequence[str]], TableWidget]
    #: ``make_writer(me, players)``: an object whose ``lines(entry, knowledge)`` gives log lines.
    make_writer: Callable[[int | None, int], Any]
    #: ``show_live(table, game, delay_ms)``: draw a LocalGame/NetGame, offering its legal actions.
    show_live: Callable[[Any, Any, int], None]
    #: ``show_frame(table, view, knowledge)``: draw a replay frame, offering nothing.
    show_frame: Callable[[Any, dict[str, Any], Knowledge], None]
    #: ``over_banner(over, names, me)``: the table's words when the game has ended.
    over_banner: Callable[[GameOver, Sequence[str], int | None], str]
    #: ``report_row(final_view, seat)``: a seat's line in the report's final tables.
    report_row: Callable[[dict[str, Any], int], QWidget]
    #: ``report_headline(over, names, me)``: the report's headline in the game's own words, or None for the
    #: shared wording (a win, "You win!", a shared draw, a draw).
    report_headline: Callable[[GameOver, Sequence[str], int | None], str | None] = lambda over, names, me: None
    #: ``reset_choice(table)``: forget a choice in progress after a decision.
    reset_choice: Callable[[Any], None] = lambda table: None
    #: ``headline(lines)``: the line of a step the table's banner shows (default: the last).
    headline: Callable[[list[Any]], Any] = lambda lines: lines[-1]
    #: ``lobby_art()``: the game's picture in the lobby (a new widget each call).
    lobby_art: Callable[[], QWidget] = field(default=lambda: QWidget())
    #: ``guide()``: the steps of the first-game guide (:class:`client.ui.guide.GuideStep`); None: no guide.
    guide: Callable[[], Sequence[Any]] | None = None
    #: ``table_ready(public)``: whether a state has a table to show yet (a replay opens at the first such frame).
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
    showcase: Callable[[Any, Callable[..., None], Any], None] | None = None
    #: ``bot_names(level, count)``: names for the computer's seats.
    bot_names: Callable[[str, int], list[str]] = field(
        default=lambda level, count: [n.strip() for n in tr("bot.names").split(",")][:count]
    )


_KITS: dict[str, GameKit] = {}


def names_for_bots(kit: GameKit, level: str, count: int, taken: Sequence[str]) -> list[str]:
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


def imported_later(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported at its first call (a kit's showcase: only the screenshots need it)."""

    def call(*args: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args)

    return call


def kit_for(game: str) -> GameKit:
    """The kit of ``game`` (KeyError for a game without a table)."""
    if game not in _KITS:
        module = importlib.import_module(KIT_MODULES[game])
        _KITS[game] = module.KIT
    return _KITS[game]


__all__ = ["KIT_MODULES", "GameKit", "imported_later", "kit_for", "playable"]


def bot_kinds(game: str) -> list[str]:
    """The bots a seat of ``game`` can be given: the kit's AI levels, else the engine's bots."""
    from client.games.kit import kit_for
    from engines.core import registry

    kit = kit_for(game)
    if kit is not None and kit.levels:
        return list(kit.levels)
    return sorted(registry.get(game).bots)


def bot_label(kind: str) -> str:
    """A bot kind in the player's language ("Greedy"), or its own name when the catalogue has none."""
    label = tr(f"level.{kind}")
    return kind if label == f"level.{kind}" else label
