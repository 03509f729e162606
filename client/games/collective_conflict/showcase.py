"""Clicking the board like a person, and Collective Conflict's screenshots.

:func:`perform` takes an action through the real widgets: the reserve button
(or the unit on the board), the target hex, then either a second click on the
target (the default variant) or the variant's button.  The screenshots play
the person's seat with the engine's greedy bot and stop mid-game with a unit
picked and a move planned, so that highlights and the path show.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget

from client.games.collective_conflict.choices import route_of, source_of, target_of
from client.games.collective_conflict.table import CollectiveConflictTable
from client.games.showcase import Shot, ShowcaseWindow, ShownGame
from engines.core import Action, Bot, get

GAME = "collective-conflict"


def player_bot(seed: bytes, kind: str = "greedy") -> Bot:
    """The bot that plays the person's seat (seat 0) in showcases and tests."""
    return get(GAME).bots[kind](0, seed + b"/showcase")


class Clicker(Protocol):
    """Clicks ``widget`` at ``point`` (None: its centre)."""

    def __call__(self, widget: QWidget, point: QPoint | None = None) -> None: ...


def click(widget: QWidget, point: QPoint | None = None) -> None:
    """One left click, through Qt's event system (QTest), as a person's."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    if point is None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    else:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def perform(table: CollectiveConflictTable, action: Action, clicker: Clicker = click) -> None:
    """Take ``action`` by clicking: source, target, then the default (target again) or a variant button."""
    board = table.board
    action = tuple(action)
    source = source_of(action, board.choices.classic)
    if board.picked != source:
        if source[0] == "reserve":
            clicker(table.reserve_buttons[source[1]])
        else:
            clicker(board, board.hex_point(source[1]))
    target = target_of(action)
    if board.planned != target:
        clicker(board, board.hex_point(target))
    if board.planned_action() == action:
        clicker(board, board.hex_point(target))
        return
    button = table.button_for(action)
    if button is None:
        raise ValueError(f"no control takes {action!r}")
    clicker(button)


def plan_something(table: CollectiveConflictTable, prefer: tuple[str, ...] = ("jump", "cast", "move", "place")) -> bool:
    """Pick a unit (or a reserve kind) and plan a target, for a screenshot; False if nothing is offered.

    Moves whose route turns or runs over several hexes are preferred, so that the route shows.
    """
    board = table.board
    legal = list(board.legal)
    for verb in prefer:
        options = [a for a in legal if a[0] == verb]
        options = [a for a in options if len(route_of(board.view, a)) > 2] or options
        if options:
            action = options[len(options) // 2]
            source = source_of(action, board.choices.classic)
            if source[0] == "reserve":
                table.pick_reserve(source[1])
            else:
                board.click_hex(source[1])
            board.click_hex(target_of(action))
            return True
    return False


def _play_until(screen: ShownGame[CollectiveConflictTable], app: QApplication, bot: Bot, rounds: int) -> None:
    """The person's seat played by ``bot`` until round ``rounds`` (at most 400 decisions)."""
    game = screen.game
    decisions = 0
    while game.over() is None and decisions < 400:
        app.processEvents()
        if not game.human_to_move():
            continue
        if game.view()["round"] >= rounds:
            return
        screen.choose(bot.choose(game.state, game.knowledge, game.legal()))
        decisions += 1


def cc_shots(window: ShowcaseWindow[CollectiveConflictTable], shot: Shot, app: QApplication) -> None:
    """Collective Conflict mid-game for 2, 6 and 10 Networks, with a move planned on the board."""
    for players, rounds, name, seed in (
        (2, 9, "13-cc-2-players-mid-game", b"cc-showcase/2"),
        (6, 9, "14-cc-6-players-mid-game", b"cc-showcase/6/0"),
        (10, 4, "15-cc-10-players-mid-game", b"cc-showcase/10"),
    ):
        screen = window.start_local(GAME, players, seed=seed, level="greedy")
        _play_until(screen, app, player_bot(seed), rounds)
        if screen.game.human_to_move():
            plan_something(screen.table)
        shot(name)
