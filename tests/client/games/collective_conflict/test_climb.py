"""A Climber's legal moves onto occupied hexes are lit over the stack and named as climbs (CC-13)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from client.games.collective_conflict.board import HexBoard
from client.games.collective_conflict.choices import source_of, target_of
from client.games.collective_conflict.table import CollectiveConflictTable
from client.i18n import tr
from client.play.local import LocalGame


def _game_with_a_climb() -> tuple[LocalGame, tuple[Any, ...]]:
    """A real game played by bots until the player's Climber can climb onto a stack."""
    for n in range(40):
        game = LocalGame("collective-conflict", 2, f"climb/{n}".encode(), 0, ["Me", "Bot"], bot_kind="random")
        while game.over() is None and game.state.round < 40:
            if not game.human_to_move():
                game.step()
                continue
            occupied = {(q, r) for q, r, _ in game.view()["stacks"]}
            for action in game.legal():
                if action[0] == "move" and tuple(action[2]) in occupied:
                    return game, tuple(action)
            game.act(game.legal()[0])
    raise AssertionError("no game offered a climb")


def _render(board: HexBoard) -> QImage:
    return board.grab().toImage()


def _changed_near(a: QImage, b: QImage, c: QPointF, radius: float) -> int:
    changed = 0
    for dx in range(-int(radius), int(radius) + 1, 2):
        for dy in range(-int(radius), int(radius) + 1, 2):
            if dx * dx + dy * dy <= radius * radius:
                x, y = int(c.x()) + dx, int(c.y()) + dy
                if a.pixel(x, y) != b.pixel(x, y):
                    changed += 1
    return changed


def test_an_occupied_climb_target_is_drawn_over_its_stack(qtbot):
    game, climb = _game_with_a_climb()
    board = HexBoard()
    qtbot.addWidget(board)
    board.resize(900, 760)
    board.show()
    board.set_view(game.view(), game.legal())
    target = target_of(climb)
    plain = _render(board)
    board.click_hex(source_of(climb)[1])
    assert target in board.targets()
    lit = _render(board)
    centre = board.hex_center(target, board._layer_of(target))
    assert _changed_near(plain, lit, centre, board.zoom * 0.7) > 20, "the highlight shows on top of the unit"


def test_the_climb_button_names_what_the_climber_climbs_onto(qtbot):
    game, climb = _game_with_a_climb()
    table = CollectiveConflictTable(2, game.names)
    qtbot.addWidget(table)
    table.show_view(game.view(), game.knowledge, game.legal())
    label = table.variant_label(climb)
    under = next(s for q, r, s in game.view()["stacks"] if (q, r) == tuple(climb[2]))
    from client.games.collective_conflict.present import hex_name, kind_name

    assert label == tr("cc.btn.climb", kind=kind_name(under[-1][2]), hex=hex_name(climb[2]))
