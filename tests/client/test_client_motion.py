"""Animation (client.motion): boards tween to the engine's final position, skippable, off by default in tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from client import motion
from client.collective_conflict.board import HexBoard
from client.local_game import LocalGame


@pytest.fixture
def motion_on() -> Iterator[motion.Motion]:
    """Animation switched on for one test (the suite runs with it off)."""
    clock = motion.clock()
    clock.override = True
    yield clock
    clock.finish_all()
    clock.override = None


def _cc_move(qtbot: Any) -> tuple[HexBoard, LocalGame, tuple[Any, ...]]:
    """A shown board and a game whose human is about to move a unit over more than one hex."""
    game = LocalGame("collective-conflict", 2, b"motion-cc", 0, ["Me", "Bot"], bot_kind="random")
    board = HexBoard()
    qtbot.addWidget(board)
    board.resize(900, 760)
    board.show()
    for _ in range(200):
        if game.human_to_move():
            moves = [tuple(a) for a in game.legal() if a[0] == "move"]
            if moves:
                board.set_view(game.view(), game.legal())
                return board, game, moves[0]
            game.act(game.legal()[0])
        else:
            game.step()
    raise AssertionError("no move came up")


def test_the_suite_runs_with_motion_off():
    assert not motion.clock().enabled()


def test_a_unit_slides_over_several_frames_and_ends_on_the_engines_hex(qtbot, motion_on):
    board, game, action = _cc_move(qtbot)
    frames: list[float] = []
    real = board._slide_frame
    board._slide_frame = lambda t: (frames.append(t), real(t))  # type: ignore[method-assign]
    game.act(action)
    changes = board.set_view(game.view(), game.legal())
    ((pid, _src, dst),) = changes.moved
    unit = next(u for u in board.scene.units if u.pid == pid)
    assert motion_on.running(board)
    assert frames == [0.0] and board._unit_center(dst, unit) != board.hex_center(dst, unit.layer), "it starts away"
    qtbot.waitUntil(lambda: not motion_on.running(board), timeout=3000)
    assert len([t for t in frames if 0.0 < t < 1.0]) >= 2, f"several frames in between: {frames}"
    assert frames[-1] == 1.0
    assert board.slide is None
    assert board._unit_center(dst, unit) == board.hex_center(dst, unit.layer)


def test_a_key_during_a_slide_finishes_it_at_once(qtbot, motion_on):
    board, game, action = _cc_move(qtbot)
    game.act(action)
    board.set_view(game.view(), game.legal())
    assert motion_on.running(board)
    qtbot.keyClick(board, Qt.Key.Key_Shift)
    assert not motion_on.running(board)
    assert board.slide is None


def test_with_motion_off_nothing_waits(qtbot):
    board, game, action = _cc_move(qtbot)
    game.act(action)
    board.set_view(game.view(), game.legal())
    assert not motion.clock().running()
    assert board.slide is None
