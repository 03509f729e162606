"""A reproducible Anomaly Maze game for screenshots and tests: the player's seat played by the AI.

:func:`find_combat_seed` finds a seed in which the player gets to roll an
attack die early, so that the screenshots can show the maze mid-combat.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget

from client.games.anomaly_maze.table import AnomalyMazeTable
from client.games.showcase import Shot, ShowcaseWindow
from client.play.local import LocalGame
from client.play.source import GameSource
from engines.anomaly_maze.bots.maze import MazeBot
from engines.core import Action

GAME = "anomaly-maze"


def player_bot(seed: bytes) -> MazeBot:
    """The AI that plays the person's seat (seat 0) in showcases; one object for the whole game."""
    return MazeBot(0, seed + b"/showcase", "easy")


def in_combat_after_a_die(game: GameSource) -> bool:
    """The player's combat decision with one die already rolled."""
    if not game.human_to_move():
        return False
    view = game.view()
    return bool(view["phase"] == "combat" and view["dice_left"] < view["options"]["dice_per_turn"])


def find_combat_seed(tries: int = 60, max_decisions: int = 80) -> bytes:
    """A seed where the player (easy AI) rolls an attack die within ``max_decisions`` decisions."""
    for i in range(tries):
        seed = f"maze-showcase/{i}".encode()
        game = LocalGame(GAME, 2, seed, 0, ["A", "B"], bot_kind="easy")
        bot = player_bot(seed)
        decisions = 0
        while game.over() is None and decisions < max_decisions:
            if game.human_to_move():
                if in_combat_after_a_die(game):
                    return seed
                game.act(bot.choose(game.state, game.knowledge, game.legal()))
                decisions += 1
            else:
                game.step()
    return b"maze-showcase/0"


# -- playing through the widgets, as a person clicks ------------------------------------------
def clicks_for(table: AnomalyMazeTable, action: Action) -> Sequence[tuple[QWidget, QPoint | None]]:
    """The (widget, point) clicks that take ``action`` on ``table`` (point None: the widget's centre).

    Clicks are computed before any is made; a rotation's and a route's
    clicks are all on the board, then its confirmation.
    """
    board = table.board
    verb = action[0]
    if verb == "shift":  # the first click previews the shift, the second takes it
        return [(board, board.arrow_center(*action[1:]))] * 2
    if verb == "rotate":
        cell, turns = action[1], action[2]
        return [(board, board.cell_center(cell))] * turns + [(table.buttons["confirm"], None)]
    if verb == "move":
        path = action[1:]
        if not path:  # staying: a click on the pawn's own cell
            here = board.my_cell()
            assert here is not None, "a move is offered only to a pawn on the board"
            return [(board, board.cell_center(here))]
        return [(board, board.cell_center(c)) for c in path] + [(board, board.cell_center(path[-1]))]
    if verb == "attack":
        return [(table.buttons["attack"], None)]
    if verb == "no-attack":
        return [(table.buttons["no_attack"], None)]
    raise ValueError(f"no control takes {action!r}")


def click(widget: QWidget, point: QPoint | None = None) -> None:
    """One left click, through Qt's event system (QTest), as a person's."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    if point is None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    else:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def perform(table: AnomalyMazeTable, action: Action) -> None:
    """Take ``action`` by clicking the table's controls."""
    for widget, point in clicks_for(table, action):
        click(widget, point)


def maze_shots(window: ShowcaseWindow[AnomalyMazeTable], shot: Shot, app: QApplication) -> None:
    """The maze mid-game (a planned route on the board) and mid-combat (a die rolled), as PNGs."""
    seed = find_combat_seed()
    screen = window.start_local(GAME, 2, seed=seed, level="easy")
    game = screen.game
    bot = player_bot(seed)
    decisions = 0
    took_mid = False
    while game.over() is None and decisions < 200:
        app.processEvents()
        if not game.human_to_move():
            continue
        if in_combat_after_a_die(game):
            shot("12-maze-mid-combat")
            return
        view = game.view()
        action = bot.choose(game.state, game.knowledge, game.legal())
        if not took_mid and decisions >= 4 and view["phase"] == "move" and len(action) > 2:
            board = screen.table.board
            for cell in action[1:]:
                board.plan(cell)
            shot("11-maze-mid-game")
            took_mid = True
            board.cancel()
        perform(screen.table, action)
        decisions += 1
