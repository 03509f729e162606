"""The Collective Conflict board: coordinates and stack contents on hover; the view stays put between moves."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from client.games.collective_conflict.board import HexBoard
from client.games.collective_conflict.present import hex_name, kind_name
from client.play.local import LocalGame


def _board(qtbot) -> HexBoard:  # type: ignore[no-untyped-def]
    board = HexBoard()
    qtbot.addWidget(board)
    board.resize(900, 760)
    board.show()
    return board


def _game(rounds: int) -> LocalGame:
    game = LocalGame("collective-conflict", 2, b"hover", 0, ["Me", "Bot"], bot_kind="greedy")
    while game.over() is None and game.state.round < rounds:
        game.act(game.legal()[0]) if game.human_to_move() else game.step()
    return game


def test_hovering_a_hex_tells_its_coordinates_and_its_stack_top_first(qtbot):
    game = _game(8)
    board = _board(qtbot)
    board.set_view(game.view(), ())
    unit = board.scene.units[0]
    text = board.hover_text(unit.hex)
    lines = text.split("\n")
    assert lines[0] == hex_name(unit.hex)
    stack = sorted((u for u in board.scene.units if u.hex == unit.hex), key=lambda u: -u.layer)
    assert len(lines) >= 1 + len(stack)
    for line, u in zip(lines[1:], stack, strict=False):
        if u.identity is None:
            assert line.startswith(kind_name(u.kind))
    point = board.hex_point(unit.hex)
    move = QMouseEvent(
        QMouseEvent.Type.MouseMove,
        point,
        point,
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(board, move)
    assert board.toolTip() == text


def test_an_empty_hex_shows_only_its_coordinates(qtbot):
    board = _board(qtbot)
    board.set_view(_game(3).view(), ())
    assert board.hover_text((40, -40)) == hex_name((40, -40))


def test_the_view_does_not_jump_while_the_structure_stays_in_view(qtbot):
    game = _game(6)
    board = _board(qtbot)
    board.set_view(game.view(), ())
    zoom, cam = board.zoom, board.cam
    for _ in range(6):
        game.act(game.legal()[0]) if game.human_to_move() else game.step()
        board.set_view(game.view(), ())
        if (board.zoom, board.cam) != (zoom, cam):  # it re-fitted: only because something was off the board
            board.zoom, board.cam = zoom, cam
            assert not board.all_in_view(), "a re-fit only when the old frame left something off the board"
            board.fit()
        zoom, cam = board.zoom, board.cam
    board.zoom *= 4  # as if the structure had grown past the edges
    assert board.auto_fit and not board.all_in_view()
    board.set_view(game.view(), game.legal())
    assert board.all_in_view(), "a view that would leave units off the board re-fits"
