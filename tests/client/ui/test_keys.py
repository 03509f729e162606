"""The keyboard at the table: Esc cancels a pick, Enter confirms, 1–9 press the offered actions, arrows turn."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from client.games.collective_conflict.choices import source_of, target_of


def _key(qtbot: Any, window: Any, key: Qt.Key) -> None:
    window.activateWindow()
    window.game_screen.setFocus()
    QTest.keyClick(window.game_screen, key)
    qtbot.wait(10)


def _my_turn(qtbot: Any, window: Any) -> Any:
    game = window.game
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=20_000)
    return game


def test_number_keys_press_the_offered_actions_in_system_launch(qtbot, window):
    window.start_local("system-launch", 3, seed=b"keys-sl")
    game = _my_turn(qtbot, window)
    table = window.game_screen.table
    slot = next(s for s, card in table.hand_cards.items() if card.selectable)
    table.select_slot(slot)
    first = table.shortcut_buttons()[0].action
    chosen: list[Any] = []
    table.action_chosen.connect(chosen.append)
    _key(qtbot, window, Qt.Key.Key_1)
    assert chosen == [first]
    assert len(game.history) > 0


def test_escape_drops_the_pick_and_enter_takes_the_planned_move_in_collective_conflict(qtbot, window):
    window.start_local("collective-conflict", 2, seed=b"keys-cc", level="random")
    game = _my_turn(qtbot, window)
    table = window.game_screen.table
    board = table.board
    action = game.legal()[0]
    source = source_of(action)
    if source[0] == "reserve":
        board.pick_reserve(source[1])
    else:
        board.click_hex(source[1])
    assert board.picked is not None
    _key(qtbot, window, Qt.Key.Key_Escape)
    assert board.picked is None and board.planned is None
    if source[0] == "reserve":
        board.pick_reserve(source[1])
    else:
        board.click_hex(source[1])
    board.click_hex(target_of(action))
    expected = table.confirm_button().action
    chosen: list[Any] = []
    table.action_chosen.connect(chosen.append)
    _key(qtbot, window, Qt.Key.Key_Return)
    assert chosen == [expected]


def test_arrows_turn_the_picked_tile_and_enter_confirms_in_the_maze(qtbot, window):
    window.start_local("anomaly-maze", 2, seed=b"keys-am", level="easy")
    game = _my_turn(qtbot, window)
    qtbot.waitUntil(lambda: game.view()["phase"] == "anomaly" or not game.human_to_move(), timeout=5_000)
    table = window.game_screen.table
    board = table.board
    cell = sorted(board.rotatable_cells())[0]
    board.pick(cell)
    before = board.preview
    _key(qtbot, window, Qt.Key.Key_Right)
    assert board.preview == (before + 1) % 4
    while board.rotation() is None:
        _key(qtbot, window, Qt.Key.Key_Right)
    expected = board.rotation()
    chosen: list[Any] = []
    table.action_chosen.connect(chosen.append)
    _key(qtbot, window, Qt.Key.Key_Return)
    assert chosen == [expected]
