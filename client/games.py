"""Which games the program can show, and how: one :class:`GameKit` per game.

The shared screens (the table window, the replay viewer, the report, the
lobby) know nothing about any one game: they ask the game's kit for its table
widget, its log writer, how to show a live game or a replay frame, the
end-of-game banner, a player's line in the report, and the AI levels the
lobby offers.  A kit lives with its game's package and is imported only when
first needed; adding a game is one line in :data:`KIT_MODULES`.

A table widget has the shape of :class:`client.system_launch.table.TableWidget`:
the signals ``action_chosen(tuple)`` and ``report_requested()``, a ``legal``
list, ``set_banner(text, tone)``, and ``report_button``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtWidgets import QWidget

from engines.core import GameOver, Knowledge

from .i18n import LANGUAGE, tr

#: The module holding each playable game's kit (its attribute ``KIT``).
KIT_MODULES = {
    "system-launch": "client.games",
    "anomaly-maze": "client.anomaly_maze.kit",
    "collective-conflict": "client.collective_conflict.kit",
}


@dataclass(frozen=True)
class GameKit:
    """Everything game-specific the shared screens need."""

    name: str
    #: ``make_table(players, names)``: the table widget.
    make_table: Callable[[int, Sequence[str]], Any]
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
    #: ``reset_choice(table)``: forget a choice in progress after a decision.
    reset_choice: Callable[[Any], None] = lambda table: None
    #: ``headline(lines)``: the line of a step the table's banner shows (default: the last).
    headline: Callable[[list[Any]], Any] = lambda lines: lines[-1]
    #: ``lobby_art()``: the game's picture in the lobby (a new widget each call).
    lobby_art: Callable[[], QWidget] = field(default=lambda: QWidget())
    #: ``guide()``: the steps of the first-game guide (:class:`client.guide.GuideStep`); None: no guide.
    guide: Callable[[], Sequence[Any]] | None = None
    #: ``table_ready(public)``: whether a state has a table to show yet (a replay opens at the first such frame).
    table_ready: Callable[[Any], bool] = lambda public: True
    #: Whether the game hides anything (if not, a replay has no "public view" to unlock).
    secrets: bool = True
    #: AI levels offered in the lobby (bot names of the engine's registry), and the default.
    levels: tuple[str, ...] = ()
    default_level: str = ""
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


def kit_for(game: str) -> GameKit:
    """The kit of ``game`` (KeyError for a game without a table)."""
    if game not in _KITS:
        module = importlib.import_module(KIT_MODULES[game])
        _KITS[game] = module.KIT
    return _KITS[game]


# -- System Launch (its table predates the kits: adapted here) -------------------------
def _sl_table(players: int, names: Sequence[str]) -> Any:
    from .system_launch.table import TableWidget

    return TableWidget(players, names)


def _sl_writer(me: int | None, players: int) -> Any:
    from .system_launch.present import LogWriter

    return LogWriter(me, players)


def _sl_live(table: Any, game: Any, delay_ms: int) -> None:
    table.show_view(game.view(), game.knowledge, game.legal(), hand_limit=game.state.options.hand_limit)


def _sl_frame(table: Any, view: dict[str, Any], knowledge: Knowledge) -> None:
    table.show_view(view, knowledge, (), interactive=False)


def _sl_over(over: GameOver, names: Sequence[str], me: int | None) -> str:
    from .system_launch.present import seat_name

    if not over.winners:
        return tr("report.draw")
    name = seat_name(names, over.winners[0])
    if over.reason == "system launched":
        by = tr("table.launched_by.you") if over.winners[0] == me else tr("table.launched_by", name=name)
        return tr("table.launched") + "\n" + by
    return tr("report.winner_plain", name=name)


def _sl_report_row(view: dict[str, Any], seat: int) -> QWidget:
    from .cards_widgets import CardRow
    from .system_launch.table import face

    row = CardRow(0.5, 4)
    row.set_cards([face(c) for c in view["system"][seat]], "")
    return row


def _sl_reset(table: Any) -> None:
    table.selected_slot = None


def _sl_guide() -> list[Any]:
    from .system_launch.guide import steps

    return steps()


def _sl_lobby_art() -> QWidget:
    """A winning build fanned out beside a card back."""
    from .cards_widgets import CardFace, CardFan

    fan = [("Processor", "cat.part"), ("RAM", "cat.part"), ("HardDrive", "cat.part"), ("Firewall", "cat.protection")]

    class BuildFan(CardFan):
        def retranslate(self, *_: object) -> None:
            self.set_faces([None, *(CardFace(kind, tr(f"card.{kind}"), tr(cat)) for kind, cat in fan)])

    widget = BuildFan([])
    widget.retranslate()
    LANGUAGE.changed.connect(widget.retranslate)  # a bound slot: Qt drops it with the widget
    return widget


KIT = GameKit(
    name="system-launch",
    make_table=_sl_table,
    make_writer=_sl_writer,
    show_live=_sl_live,
    show_frame=_sl_frame,
    over_banner=_sl_over,
    report_row=_sl_report_row,
    reset_choice=_sl_reset,
    lobby_art=_sl_lobby_art,
    levels=("random", "greedy", "memory"),
    default_level="greedy",
    guide=_sl_guide,
)

__all__ = ["KIT_MODULES", "GameKit", "kit_for", "playable"]
